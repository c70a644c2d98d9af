//! Property tests of NumPy broadcasting: for a table of shape pairs (ranks 0-5,
//! dims 0-4, including 0 against 1), random values and a random expression, the
//! fused `tensor_expr!` result equals ndarray's run-time broadcasting, and the
//! type-level rule agrees with the `const fn` reference rule.
//!
//! Shapes are types, so the pairs are listed at compile time; the values and the
//! choice of expression are random.

mod common;

use proptest::prelude::*;
use tensor_expr::prelude::*;
use tensor_expr::rules::broadcast::broadcast_dims;
use tensor_expr::rules::in_place::check_in_place;

/// The expressions tried on each pair: the macro's form and the oracle's function.
const EXPRESSIONS: usize = 6;

fn oracle(expression: usize, a: f64, b: f64) -> f64 {
    match expression {
        0 => a + b,
        1 => a - b,
        2 => a * b,
        3 => a.max(b),
        4 => (a * 2.0 - b).max(0.0) / 4.0,
        _ => -a * b + a.min(b),
    }
}

/// Runs `expression` on one pair of shapes with the given values and checks it.
fn check_pair<SA, SB>(values: &[f64], expression: usize)
where
    SA: tensor_expr::Shape
        + tensor_expr::Broadcast<SB>
        + tensor_expr::BroadcastInto<<SA as tensor_expr::Broadcast<SB>>::Output>,
    SB: tensor_expr::Shape + tensor_expr::BroadcastInto<<SA as tensor_expr::Broadcast<SB>>::Output>,
{
    let a = Tensor::<f64, SA>::try_from_slice(&values[..SA::LEN]).unwrap();
    let b = Tensor::<f64, SB>::try_from_slice(&values[SA::LEN..SA::LEN + SB::LEN]).unwrap();
    let fused = match expression {
        0 => tensor_expr!(a + b),
        1 => tensor_expr!(a - b),
        2 => tensor_expr!(a * b),
        3 => tensor_expr!(max(a, b)),
        4 => tensor_expr!(relu(a * 2 - b) / 4.0),
        _ => tensor_expr!(-a * b + min(a, b)),
    };
    let expected = common::broadcast_with(
        &common::array(a.as_slice(), SA::DIMS),
        &common::array(b.as_slice(), SB::DIMS),
        |x, y| oracle(expression, x, y),
    );
    assert_eq!(
        fused.shape(),
        expected.shape(),
        "shape of {:?} with {:?}",
        SA::DIMS,
        SB::DIMS
    );
    assert_eq!(
        fused.as_slice(),
        &common::row_major(&expected)[..],
        "values of {:?} with {:?}",
        SA::DIMS,
        SB::DIMS
    );

    // The type-level rule and the reference rule agree on the result shape.
    let reference =
        broadcast_dims(SA::DIMS, SB::DIMS).expect("the reference rule accepts what compiled");
    assert_eq!(reference.as_slice(), fused.shape());
    // Both operands can be written into the result in place.
    assert!(check_in_place(SA::DIMS, fused.shape()).is_ok());
    assert!(check_in_place(SB::DIMS, fused.shape()).is_ok());
    let mut out = fused;
    tensor_expr!(out += b);
    tensor_expr!(out -= a);
}

macro_rules! shape_pairs {
    ($(([$($a:literal),*], [$($b:literal),*])),* $(,)?) => {
        const PAIRS: usize = [$(stringify!($($a)*)),*].len();
        fn run_pair(index: usize, values: &[f64], expression: usize) {
            let mut k = 0;
            $(
                if index == k {
                    return check_pair::<Shape![$($a),*], Shape![$($b),*]>(values, expression);
                }
                k += 1;
            )*
            unreachable!("pair {index} of {k}");
        }
    };
}

shape_pairs! {
    ([], []),
    ([], [3]),
    ([3], []),
    ([4], [4]),
    ([1], [4]),
    ([2, 3], [3]),
    ([2, 3], [1, 3]),
    ([2, 1], [1, 3]),
    ([3, 1], [3]),
    ([0], [1]),
    ([1], [0]),
    ([2, 0], [2, 1]),
    ([0, 3], [3]),
    ([1, 0], [4, 1]),
    ([4, 3, 2], [2]),
    ([4, 3, 2], [3, 1]),
    ([1, 3, 1], [2, 1, 4]),
    ([2, 1, 3, 1], [4, 1, 2]),
    ([3, 1, 2, 1, 4], [2, 1, 4]),
    ([1, 2, 1, 3, 1], [4, 1, 1, 3, 2]),
    ([2, 2, 2, 2, 2], [2]),
    ([1], [2, 3, 4, 1, 2]),
    ([4, 1, 4], [1, 4, 1]),
    ([3, 4], [1, 1, 3, 4]),
    ([2, 1, 1], [1, 3, 1]),
    ([0, 1, 2], [3, 1]),
    ([1, 1, 1, 1, 1], []),
    ([4, 4, 1, 3], [4, 1, 2, 1]),
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn fused_result_matches_ndarray(
        index in 0..PAIRS,
        expression in 0..EXPRESSIONS,
        values in proptest::collection::vec(-8i32..8, 2 * 4usize.pow(5)),
    ) {
        // Small integers as f64: every operation above is exact, so equality holds.
        let values: Vec<f64> = values.into_iter().map(f64::from).collect();
        run_pair(index, &values, expression);
    }
}

#[test]
fn every_pair_and_expression_runs_at_least_once() {
    let values: Vec<f64> = (0..2 * 4usize.pow(5))
        .map(|i| (i % 7) as f64 - 3.0)
        .collect();
    for index in 0..PAIRS {
        for expression in 0..EXPRESSIONS {
            run_pair(index, &values, expression);
        }
    }
}
