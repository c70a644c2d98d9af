//! XLA "InDim" broadcasting and strict mode: every example of XLA's
//! broadcasting semantics with its values, plus a property test against the reference rule
//! "reshape x to rank R with 1s at the unlisted positions, then NumPy broadcasting".

mod common;

use proptest::prelude::*;
use tensor_expr::prelude::*;
use tensor_expr::rules::in_dims::place_dims;

/// 1, 2, 3, ... in row-major order.
fn counting<S: tensor_expr::Shape>() -> Tensor<f64, S> {
    Tensor::from_fn(|index| 1.0 + S::flat_position(index).unwrap() as f64)
}

/// The reference: `x` reshaped to rank `rank` with its dims at `positions` and 1
/// elsewhere, then `f(other, placed)` under NumPy broadcasting (ndarray).
fn reference(
    other: (&[f64], &[usize]),
    x: (&[f64], &[usize]),
    positions: &[usize],
    f: fn(f64, f64) -> f64,
) -> (Vec<usize>, Vec<f64>) {
    let rank = other.1.len();
    let placed_dims: Vec<usize> = (0..rank)
        .map(|k| positions.iter().position(|&p| p == k).map_or(1, |j| x.1[j]))
        .collect();
    // The library's reference rule places the dims the same way.
    let reference = place_dims(x.1, positions, rank).expect("a valid tuple");
    assert_eq!(reference.as_slice(), &placed_dims[..], "place_dims");
    let result = common::broadcast_with(
        &common::array(other.0, other.1),
        &common::array(x.0, &placed_dims),
        f,
    );
    (result.shape().to_vec(), common::row_major(&result))
}

fn assert_reference<SO: tensor_expr::Shape, SX: tensor_expr::Shape, SR: tensor_expr::Shape>(
    other: &Tensor<f64, SO>,
    x: &Tensor<f64, SX>,
    positions: &[usize],
    actual: &Tensor<f64, SR>,
    f: fn(f64, f64) -> f64,
) {
    let (dims, values) = reference(
        (other.as_slice(), SO::DIMS),
        (x.as_slice(), SX::DIMS),
        positions,
        f,
    );
    assert_eq!(actual.shape(), &dims[..], "shape");
    assert_eq!(actual.as_slice(), &values[..], "values");
}

#[test]
fn seed_matrix_plus_vector_on_dim_1() {
    // |1 2 3| + |7 8 9| with broadcast dims (1) = |8 10 12; 11 13 15|
    let x: Tensor<f64, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
    let v: Tensor<f64, Shape![3]> = tensor![7., 8., 9.];
    assert_eq!(
        tensor_expr!(x + in_dims(v, [1])),
        tensor![[8., 10., 12.], [11., 13., 15.]]
    );
    // XLA writes the tuple in parentheses; both spellings work.
    assert_eq!(
        tensor_expr!(x + in_dims(v, (1))),
        tensor![[8., 10., 12.], [11., 13., 15.]]
    );
}

#[test]
fn seed_square_matrix_both_ways() {
    let m = Tensor::<f64, Shape![3, 3]>::zeros();
    let v: Tensor<f64, Shape![3]> = tensor![7., 8., 9.];
    // (1): each vector element becomes a column; the vector repeats for each row.
    assert_eq!(
        tensor_expr!(m + in_dims(v, [1])),
        tensor![[7., 8., 9.], [7., 8., 9.], [7., 8., 9.]]
    );
    // (0): each vector element becomes a row.
    assert_eq!(
        tensor_expr!(m + in_dims(v, [0])),
        tensor![[7., 7., 7.], [8., 8., 8.], [9., 9., 9.]]
    );
}

#[test]
fn seed_cuboid_with_matrix_on_dims_1_2() {
    let c = counting::<Shape![2, 3, 4]>();
    let p = counting::<Shape![3, 4]>();
    let y = tensor_expr!(c * in_dims(p, [1, 2]));
    assert_reference(&c, &p, &[1, 2], &y, |a, b| a * b);
}

#[test]
fn seed_vector_onto_each_dim_of_a_rank_4_array() {
    // MxNxPxQ = 2x3x4x5; a vector of length T matched to dim 3, 2, 1 and 0.
    let a = counting::<Shape![2, 3, 4, 5]>();
    let (t3, t2, t1, t0) = (
        counting::<Shape![5]>(),
        counting::<Shape![4]>(),
        counting::<Shape![3]>(),
        counting::<Shape![2]>(),
    );
    assert_reference(
        &a,
        &t3,
        &[3],
        &tensor_expr!(a + in_dims(t3, [3])),
        |x, y| x + y,
    );
    assert_reference(
        &a,
        &t2,
        &[2],
        &tensor_expr!(a + in_dims(t2, [2])),
        |x, y| x + y,
    );
    assert_reference(
        &a,
        &t1,
        &[1],
        &tensor_expr!(a + in_dims(t1, [1])),
        |x, y| x + y,
    );
    assert_reference(
        &a,
        &t0,
        &[0],
        &tensor_expr!(a + in_dims(t0, [0])),
        |x, y| x + y,
    );
}

#[test]
fn seed_matrix_onto_pairs_of_dims_of_a_rank_4_array() {
    // A TxV matrix matched to dims (2,3), (1,2) and (0,3) of 2x3x4x5.
    let a = counting::<Shape![2, 3, 4, 5]>();
    let m23 = counting::<Shape![4, 5]>();
    let m12 = counting::<Shape![3, 4]>();
    let m03 = counting::<Shape![2, 5]>();
    assert_reference(
        &a,
        &m23,
        &[2, 3],
        &tensor_expr!(a - in_dims(m23, [2, 3])),
        |x, y| x - y,
    );
    assert_reference(
        &a,
        &m12,
        &[1, 2],
        &tensor_expr!(a - in_dims(m12, [1, 2])),
        |x, y| x - y,
    );
    assert_reference(
        &a,
        &m03,
        &[0, 3],
        &tensor_expr!(a - in_dims(m03, [0, 3])),
        |x, y| x - y,
    );
}

#[test]
fn seed_composition_vector_with_one_by_two_matrix() {
    // |1 2 3 4| + [5 6] with dims (0) = |6 7; 7 8; 8 9; 9 10|
    let v: Tensor<f64, Shape![4]> = tensor![1., 2., 3., 4.];
    let row = tensor![[5., 6.]];
    let y = tensor_expr!(in_dims(v, [0]) + row);
    assert_eq!(y, tensor![[6., 7.], [7., 8.], [8., 9.], [9., 10.]]);
}

#[test]
fn seed_composition_one_by_two_onto_four_by_three_by_one() {
    // A 1x2 matrix in dims (1, 2) + a 4x3x1 array gives 4x3x2.
    let m: Tensor<f64, Shape![1, 2]> = tensor![[10., 20.]];
    let a = counting::<Shape![4, 3, 1]>();
    let y = tensor_expr!(a + in_dims(m, [1, 2]));
    assert_eq!(y.shape(), &[4, 3, 2]);
    assert_reference(&a, &m, &[1, 2], &y, |x, y| x + y);
}

#[test]
fn in_dims_with_functions_assignment_and_views() {
    let m = counting::<Shape![3, 3]>();
    let v: Tensor<f64, Shape![3]> = tensor![2., 5., 8.];
    assert_reference(
        &m,
        &v,
        &[0],
        &tensor_expr!(max(m, in_dims(v, [0]))),
        f64::max,
    );
    assert_reference(
        &m,
        &v,
        &[0],
        &tensor_expr!(min(in_dims(v, [0]), m)),
        f64::min,
    );
    let mut acc = m;
    tensor_expr!(acc += in_dims(v, [0]));
    assert_reference(&m, &v, &[0], &acc, |x, y| x + y);
    let data = [2.0, 5.0, 8.0];
    let view = TensorView::<f64, Shape![3]>::try_from_slice(&data).unwrap();
    assert_reference(
        &m,
        &v,
        &[1],
        &tensor_expr!(m * in_dims(view, [1]) + 0),
        |x, y| x * y,
    );
}

#[test]
fn strict_mode_allows_explicit_placement_scalars_and_degenerate_dims() {
    let m = counting::<Shape![3, 3]>();
    let v: Tensor<f64, Shape![3]> = tensor![7., 8., 9.];
    let row: Tensor<f64, Shape![1, 3]> = tensor![[7., 8., 9.]];
    let rows = tensor_expr!(strict: m + in_dims(v, [1]));
    assert_eq!(rows, tensor_expr!(m + v));
    assert_eq!(tensor_expr!(strict: m + row), rows);
    let alpha = 2.0;
    assert_eq!(tensor_expr!(strict: m * alpha + 1), tensor_expr!(m * 2 + 1));
    let mut acc = m;
    tensor_expr!(strict: acc -= in_dims(v, [0]));
    assert_eq!(acc, tensor_expr!(m - in_dims(v, [0])));
}

/// `(other shape, operand shape, dims)` triples for the property test.
macro_rules! placements {
    ($(([$($o:literal),*], [$($x:literal),*], [$($d:literal),*])),* $(,)?) => {
        const PLACEMENTS: usize = [$(stringify!($($d)*)),*].len();
        fn run_placement(index: usize, values: &[f64], subtract: bool) {
            let mut k = 0;
            $(
                if index == k {
                    let other = Tensor::<f64, Shape![$($o),*]>::try_from_slice(&values[..<Shape![$($o),*] as tensor_expr::Shape>::LEN]).unwrap();
                    let x = Tensor::<f64, Shape![$($x),*]>::try_from_slice(&values[..<Shape![$($x),*] as tensor_expr::Shape>::LEN]).unwrap();
                    if subtract {
                        let y = tensor_expr!(other - in_dims(x, [$($d),*]));
                        assert_reference(&other, &x, &[$($d),*], &y, |a, b| a - b);
                    } else {
                        let y = tensor_expr!(in_dims(x, [$($d),*]) * other);
                        assert_reference(&other, &x, &[$($d),*], &y, |a, b| b * a);
                    }
                    return;
                }
                k += 1;
            )*
            unreachable!("placement {index} of {k}");
        }
    };
}

placements! {
    ([3, 3], [3], [0]),
    ([3, 3], [3], [1]),
    ([2, 3], [2], [0]),
    ([4, 1], [2], [1]),
    ([1, 2], [4], [0]),
    ([2, 3, 4], [3, 4], [1, 2]),
    ([2, 3, 4], [2, 4], [0, 2]),
    ([2, 3, 4], [2, 3], [0, 1]),
    ([4, 3, 1], [1, 2], [1, 2]),
    ([2, 1, 4, 1], [3], [1]),
    ([2, 3, 4, 5], [2, 5], [0, 3]),
    ([2, 3, 4, 5], [3, 1, 5], [1, 2, 3]),
    ([2, 3, 4], [3], [1]),
    ([0, 3], [3], [1]),
    ([1, 2, 1, 2, 1], [2, 2], [1, 3]),
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn in_dims_matches_reshape_then_broadcast(
        index in 0..PLACEMENTS,
        subtract in any::<bool>(),
        values in proptest::collection::vec(-8i32..8, 120),
    ) {
        let values: Vec<f64> = values.into_iter().map(f64::from).collect();
        run_placement(index, &values, subtract);
    }
}
