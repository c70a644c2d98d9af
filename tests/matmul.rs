//! `a @ b`: NumPy `matmul` semantics (its documentation and docstring), with
//! values, and a property test against ndarray's `dot` per batch.

mod common;

use proptest::prelude::*;
use tensor_expr::prelude::*;
use tensor_expr::rules::matmul::matmul_dims;

/// `0, 1, 2, ...` as a tensor of shape `S`.
fn iota<S: tensor_expr::Shape>() -> Tensor<f64, S> {
    flat(|position| position as f64)
}

/// `f(0), f(1), ...` in row-major order as a tensor of shape `S`.
fn flat<T: tensor_expr::Element, S: tensor_expr::Shape>(f: impl Fn(usize) -> T) -> Tensor<T, S> {
    let values: Vec<T> = (0..S::LEN).map(f).collect();
    Tensor::try_from_slice(&values).unwrap()
}

#[test]
fn square_product_is_not_commutative() {
    let a: Tensor<f32, Shape![2, 2]> = tensor![[1.0, 2.0], [3.0, 4.0]];
    let b: Tensor<f32, Shape![2, 2]> = tensor![[5.0, 6.0], [7.0, 8.0]];
    assert_eq!(tensor_expr!(a @ b), tensor![[19.0, 22.0], [43.0, 50.0]]);
    assert_eq!(tensor_expr!(b @ a), tensor![[23.0, 34.0], [31.0, 46.0]]);
}

#[test]
fn at_binds_like_times_and_associates_left() {
    let a: Tensor<i32, Shape![2, 2]> = tensor![[1, 2], [3, 4]];
    let i: Tensor<i32, Shape![2, 2]> = tensor![[1, 0], [0, 1]];
    // `a + i @ a` is `a + (i @ a)`; `a @ i * 2` is `(a @ i) * 2`.
    assert_eq!(tensor_expr!(a + i @ a), tensor![[2, 4], [6, 8]]);
    assert_eq!(tensor_expr!(a @ i * 2), tensor![[2, 4], [6, 8]]);
    // Left associative: `a @ a @ i` is `(a @ a) @ i`.
    assert_eq!(tensor_expr!(a @ a @ i), tensor![[7, 10], [15, 22]]);
}

/// NumPy's docstring: `(2,2) @ (2,)`, `(2,) @ (2,2)`, `(2,2,2) @ (2,2)`, and 1-D @ 1-D.
#[test]
fn numpy_docstring_cases() {
    let a: Tensor<i64, Shape![2, 2]> = tensor![[1, 0], [0, 1]];
    let b: Tensor<i64, Shape![2, 2]> = tensor![[4, 1], [2, 2]];
    let v: Tensor<i64, Shape![2]> = tensor![1, 2];
    let matrix_vector: Tensor<i64, Shape![2]> = tensor_expr!(a @ v);
    assert_eq!(matrix_vector, tensor![1, 2]);
    let vector_matrix: Tensor<i64, Shape![2]> = tensor_expr!(v @ b);
    assert_eq!(vector_matrix, tensor![8, 5]);
    let stack: Tensor<i64, Shape![2, 2, 4]> = flat(|p| p as i64);
    let w: Tensor<i64, Shape![4, 2]> = flat(|p| p as i64);
    let batched: Tensor<i64, Shape![2, 2, 2]> = tensor_expr!(stack @ w);
    assert_eq!(
        batched,
        tensor![[[28, 34], [76, 98]], [[124, 162], [172, 226]]]
    );
    let dot: Tensor<i64, Shape![]> = tensor_expr!(v @ v);
    assert_eq!(dot.as_slice(), &[5]);
}

/// The matmul examples of NumPy's documentation as collected in document 004
/// (its second example names B `(2, 5, 4, 6)` but means `(8, 6)`; its third,
/// `(4, 2, 3, 5) @ (3, 2, 5, 6)`, is a ui test).
#[test]
fn seed_004_examples() {
    let (a, b) = (iota::<Shape![1, 1, 3, 5]>(), iota::<Shape![2, 3, 5, 3]>());
    let c: Tensor<f64, Shape![2, 3, 3, 3]> = tensor_expr!(a @ b);
    check(&c, a.as_slice(), &[1, 1, 3, 5], b.as_slice(), &[2, 3, 5, 3]);

    let (a, b) = (iota::<Shape![3, 4]>(), iota::<Shape![2, 5, 4, 6]>());
    let c: Tensor<f64, Shape![2, 5, 3, 6]> = tensor_expr!(a @ b);
    check(&c, a.as_slice(), &[3, 4], b.as_slice(), &[2, 5, 4, 6]);

    let (a, b) = (iota::<Shape![4, 3, 5, 3, 8]>(), iota::<Shape![8, 6]>());
    let c: Tensor<f64, Shape![4, 3, 5, 3, 6]> = tensor_expr!(a @ b);
    check(&c, a.as_slice(), &[4, 3, 5, 3, 8], b.as_slice(), &[8, 6]);
}

#[test]
fn batch_dims_broadcast() {
    let (a, b) = (iota::<Shape![7, 1, 2, 3]>(), iota::<Shape![5, 3, 4]>());
    let c: Tensor<f64, Shape![7, 5, 2, 4]> = tensor_expr!(a @ b);
    check(&c, a.as_slice(), &[7, 1, 2, 3], b.as_slice(), &[5, 3, 4]);
}

/// The dense layer: bias and activation fused onto each block of the product.
#[test]
fn dense_layer_epilogue() {
    let x = iota::<Shape![5, 7]>();
    let w: Tensor<f64, Shape![7, 19]> = flat(|p| (p % 5) as f64 - 2.0);
    let bias: Tensor<f64, Shape![19]> = flat(|p| p as f64 - 9.0);
    let y = tensor_expr!(relu(x @ w + bias) * 0.5);
    let product = common::matmul(
        &common::array(x.as_slice(), &[5, 7]),
        &common::array(w.as_slice(), &[7, 19]),
    );
    let expected =
        common::broadcast_with(&product, &common::array(bias.as_slice(), &[19]), |p, b| {
            (p + b).max(0.0) * 0.5
        });
    assert_eq!(y.as_slice(), common::row_major(&expected).as_slice());
}

#[test]
fn in_place_update_adds_the_product() {
    let a = iota::<Shape![6, 9]>();
    let b = iota::<Shape![9, 10]>();
    let mut out: Tensor<f64, Shape![6, 10]> = Tensor::full(1.0);
    tensor_expr!(out += a @ b);
    let product = tensor_expr!(a @ b);
    assert_eq!(out, tensor_expr!(product + 1));
    tensor_expr!(out = out * 2 - a @ b);
    assert_eq!(out, tensor_expr!(product + 2));
}

/// A product broadcast against a larger operand: `(k,) @ (k, n)` is `(n,)`,
/// stretched over the rows of `m`; `(m, k) @ (k, 1)` is stretched over columns.
#[test]
fn product_broadcasts_into_a_larger_output() {
    let v = iota::<Shape![3]>();
    let w = iota::<Shape![3, 4]>();
    let m = iota::<Shape![5, 4]>();
    let out = tensor_expr!(m + v @ w);
    let row = tensor_expr!(v @ w);
    for i in 0..5 {
        for j in 0..4 {
            assert_eq!(out[[i, j]], m[[i, j]] + row[[j]]);
        }
    }
    let column: Tensor<f64, Shape![3, 1]> = flat(|p| p as f64);
    let tall = iota::<Shape![6, 3]>();
    let wide = iota::<Shape![6, 10]>();
    let out = tensor_expr!(wide - tall @ column);
    let product = tensor_expr!(tall @ column);
    for i in 0..6 {
        for j in 0..10 {
            assert_eq!(out[[i, j]], wide[[i, j]] - product[[i, 0]]);
        }
    }
}

/// An integer product's tiled epilogue reads each row of a full matrix and
/// the one row of a broadcast vector (which its tile reads once), at
/// every tile height and width the walk cuts 19 x 37 into.
#[test]
fn integer_epilogues_read_each_row_and_the_broadcast_row() {
    let a: Tensor<i32, Shape![19, 23]> = flat(|p| (p as i32 * 7919) % 201 - 100);
    let b: Tensor<i32, Shape![23, 37]> = flat(|p| (p as i32 * 104_729) % 101 - 50);
    let c: Tensor<i32, Shape![19, 37]> = flat(|p| p as i32 * 3 - 1000);
    let bias: Tensor<i32, Shape![37]> = flat(|p| p as i32 * 11 - 200);
    let shift: Tensor<i32, Shape![1, 37]> = flat(|p| (p % 5) as i32);
    let out = tensor_expr!((a @ b + c) * bias - shift);
    for i in 0..19 {
        for j in 0..37 {
            let dot: i32 = (0..23).map(|k| a[[i, k]] * b[[k, j]]).sum();
            let expected = (dot + c[[i, j]]) * bias[[j]] - shift[[0, j]];
            assert_eq!(out[[i, j]], expected, "at [{i}, {j}]");
        }
    }
}

/// Operands that are expressions are recomputed in place; nested products too.
#[test]
fn expression_operands() {
    let a = iota::<Shape![9, 5]>();
    let b = iota::<Shape![5, 17]>();
    let c = iota::<Shape![17, 3]>();
    let a2 = tensor_expr!(a * 2 - 1);
    let b2 = tensor_expr!(b / 4);
    assert_eq!(tensor_expr!((a * 2 - 1) @ (b / 4)), tensor_expr!(a2 @ b2));
    let ab = tensor_expr!(a @ b);
    assert_eq!(tensor_expr!(a @ b @ c), tensor_expr!(ab @ c));
    let bc = tensor_expr!(b @ c);
    assert_eq!(tensor_expr!(a @ (b @ c)), tensor_expr!(a @ bc));
}

#[test]
fn long_matrix_vector_products_sum_every_term() {
    // K = 157, 173, 189: two blocks of 64 terms, then one, two or three
    // blocks of 16, and 13 single terms; for a matrix, a batch of matrices
    // (the vector broadcast), exact integers and floats.
    macro_rules! check {
        ($k:literal) => {{
            let m: Tensor<i64, Shape![2, 3, $k]> = flat(|p| (p as i64 * 7919) % 101 - 50);
            let v: Tensor<i64, Shape![$k]> = flat(|p| (p as i64 * 104_729) % 97 - 48);
            let y = tensor_expr!(m @ v);
            for (position, value) in y.as_slice().iter().enumerate() {
                let row = &m.as_slice()[position * $k..(position + 1) * $k];
                let want: i64 = row.iter().zip(v.as_slice()).map(|(a, b)| a * b).sum();
                assert_eq!(*value, want, "K = {}, output {position}", $k);
            }
            let mf: Tensor<f32, Shape![5, $k]> = flat(|p| ((p * 37) % 19) as f32 * 0.25 - 2.0);
            let vf: Tensor<f32, Shape![$k]> = flat(|p| ((p * 11) % 13) as f32 * 0.5 - 3.0);
            let yf = tensor_expr!(mf @ vf + 1.0);
            for (position, value) in yf.as_slice().iter().enumerate() {
                let row = &mf.as_slice()[position * $k..(position + 1) * $k];
                // Quarters times halves, summed: exact in f32 whatever the order.
                let want: f32 = row
                    .iter()
                    .zip(vf.as_slice())
                    .map(|(a, b)| a * b)
                    .sum::<f32>()
                    + 1.0;
                assert_eq!(*value, want, "K = {}, output {position}", $k);
            }
        }};
    }
    check!(157);
    check!(173);
    check!(189);
}

#[test]
fn empty_and_degenerate_sizes() {
    let a = iota::<Shape![2, 0]>();
    let b = iota::<Shape![0, 3]>();
    let c: Tensor<f64, Shape![2, 3]> = tensor_expr!(a @ b);
    assert_eq!(c, Tensor::zeros());
    let a = iota::<Shape![0, 4]>();
    let b = iota::<Shape![4, 3]>();
    let c: Tensor<f64, Shape![0, 3]> = tensor_expr!(a @ b);
    assert!(c.as_slice().is_empty());
    let a = iota::<Shape![1, 1]>();
    let b = iota::<Shape![1, 1]>();
    let c: Tensor<f64, Shape![1, 1]> = tensor_expr!(a @ b);
    assert_eq!(c.as_slice(), &[0.0]);
}

#[test]
fn views_are_operands_and_targets() {
    let data: Vec<f32> = (0..12).map(|v| v as f32).collect();
    let a = TensorView::<f32, Shape![3, 4]>::try_from_slice(&data).unwrap();
    let b = TensorView::<f32, Shape![4, 3]>::try_from_slice(&data).unwrap();
    let mut out_data = [0.0f32; 9];
    let mut out = TensorViewMut::<f32, Shape![3, 3]>::try_from_slice(&mut out_data).unwrap();
    tensor_expr!(out = a @ b);
    let owned_a: Tensor<f32, Shape![3, 4]> = Tensor::try_from_slice(&data).unwrap();
    let owned_b: Tensor<f32, Shape![4, 3]> = Tensor::try_from_slice(&data).unwrap();
    assert_eq!(out_data, *tensor_expr!(owned_a @ owned_b).as_slice());
}

/// Compares a product against ndarray and the result dims against the reference rule.
fn check<S: tensor_expr::Shape>(
    c: &Tensor<f64, S>,
    a: &[f64],
    a_dims: &[usize],
    b: &[f64],
    b_dims: &[usize],
) {
    let expected = common::matmul(&common::array(a, a_dims), &common::array(b, b_dims));
    assert_eq!(S::DIMS, expected.shape(), "{a_dims:?} @ {b_dims:?}");
    assert_eq!(S::DIMS, matmul_dims(a_dims, b_dims).unwrap().as_slice());
    assert_eq!(
        c.as_slice(),
        common::row_major(&expected).as_slice(),
        "{a_dims:?} @ {b_dims:?}"
    );
}

/// Every pair: random values (small integers, so sums are exact), both operand
/// orders where the shapes allow, and the product with an epilogue.
macro_rules! products {
    ($values:ident; $([$($a:literal),*] @ [$($b:literal),*]),* $(,)?) => {$({
        let a = Tensor::<f64, Shape![$($a),*]>::try_from_slice(&$values[..<Shape![$($a),*] as tensor_expr::Shape>::LEN]).unwrap();
        let b = Tensor::<f64, Shape![$($b),*]>::try_from_slice(&$values[1000..1000 + <Shape![$($b),*] as tensor_expr::Shape>::LEN]).unwrap();
        let c = tensor_expr!(a @ b);
        check(&c, a.as_slice(), &[$($a),*], b.as_slice(), &[$($b),*]);
        let shifted = tensor_expr!(a @ b - 3);
        assert_eq!(shifted, tensor_expr!(c - 3));
    })*};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn products_match_ndarray(values in prop::collection::vec(-8i32..8, 2000)) {
        let values: Vec<f64> = values.into_iter().map(f64::from).collect();
        products!(values;
            [4, 4] @ [4, 4], [8, 8] @ [8, 8], [16, 16] @ [16, 16], [5, 7] @ [7, 13],
            [9, 3] @ [3, 17], [1, 20] @ [20, 33], [13, 1] @ [1, 9], [3, 1, 6, 5] @ [2, 5, 9],
            [2, 3, 4] @ [4], [4] @ [2, 4, 3], [7] @ [7], [6] @ [6, 11], [11, 6] @ [6],
            [1, 4, 5] @ [3, 5, 2], [2, 1, 3, 2] @ [1, 4, 2, 5], [2, 2, 2, 2, 3] @ [3, 4],
            [33, 10] @ [10, 34], [4, 0] @ [0, 5], [0, 3] @ [3, 2], [3, 1] @ [1, 3],
        );
    }

    /// 1-D operands on either side against batches of 1 to 9 matrices
    /// (the tiles of 4 and 8 rows, their remainders, and broadcast batch
    /// dims), each value against ndarray per matrix.
    #[test]
    fn vectors_against_batches_match_ndarray(values in prop::collection::vec(-8i32..8, 2000)) {
        let values: Vec<f64> = values.into_iter().map(f64::from).collect();
        products!(values;
            [2] @ [1, 2, 2], [2] @ [2, 2, 3], [3] @ [3, 3, 5], [2] @ [4, 2, 2], [5] @ [5, 5, 7],
            [3] @ [6, 3, 17], [4] @ [7, 4, 9], [2] @ [8, 2, 33], [3] @ [9, 3, 20],
            [3] @ [2, 9, 3, 4], [4] @ [3, 1, 4, 8], [6] @ [1, 5, 6, 16],
            [1, 2, 3] @ [3], [2, 4, 2] @ [2], [4, 3, 5] @ [5], [5, 8, 3] @ [3],
            [7, 2, 9] @ [9], [9, 5, 4] @ [4], [2, 9, 3, 2] @ [2], [3, 1, 4, 6] @ [6],
            [1, 3] @ [9, 3, 5], [4, 1, 3] @ [4, 3, 8], [9, 2, 3] @ [1, 3, 4],
            [5, 1, 2, 3] @ [1, 7, 3, 2], [1, 6, 4] @ [6, 4, 5], [3] @ [3, 141], [1, 5] @ [5, 131],
        );
    }
}

/// `f32` products of small integers are exact, whichever kernel sums
/// them (on a CPU with AVX-512, 8 x 32 tiles in AVX-512 instructions;
/// then 4-row and 1-row tiles, the single row's of 128 columns first, then
/// 32, 16, 8 and 1 columns): against integer sums.
#[test]
fn f32_tiles_of_every_size_are_exact() {
    const M: usize = 21;
    const K: usize = 37;
    const N: usize = 182;
    let a: Tensor<f32, Shape![M, K]> = flat(|p| ((p * 7) % 11) as f32 - 5.0);
    let b: Tensor<f32, Shape![K, N]> = flat(|p| ((p * 5) % 13) as f32 - 6.0);
    let c = tensor_expr!(a @ b + 1.0);
    for i in 0..M {
        for j in 0..N {
            let sum: f32 = (0..K).map(|k| a[[i, k]] * b[[k, j]]).sum();
            assert_eq!(c[[i, j]], sum + 1.0, "at [{i}, {j}]");
        }
    }
}

/// In a debug build a product of stored operands is summed by the float
/// kernel compiled in the runtime; one with an elementwise operand
/// (`a * 1.0`, the same values) by the tile's inline loop, as every
/// product of a release build is. Both add each element's terms in the
/// same order, so the bits are equal: for single rows (four chains) and
/// blocks of rows, every column edge, batches, `f32` and `f64`.
#[test]
fn stored_operands_sum_as_the_inline_tile_does() {
    fn values<T: tensor_expr::Element, S: tensor_expr::Shape>(
        seed: usize,
        from: impl Fn(f64) -> T,
    ) -> Tensor<T, S> {
        flat(|p| from((((p + seed) * 7919) % 1013) as f64 / 977.0 - 0.51))
    }
    macro_rules! same_bits {
        ($t:ty, [$($a:literal),+] @ [$($b:literal),+]) => {{
            let a: Tensor<$t, Shape![$($a),+]> = values(1, |v| v as $t);
            let b: Tensor<$t, Shape![$($b),+]> = values(2, |v| v as $t);
            let kernel = tensor_expr!(a @ b);
            let inline = tensor_expr!((a * 1.0) @ b);
            for (p, (x, y)) in kernel.as_slice().iter().zip(inline.as_slice()).enumerate() {
                assert_eq!(
                    x.to_bits(),
                    y.to_bits(),
                    "{} [{}] @ [{}] at flat {p}",
                    stringify!($t),
                    stringify!($($a),+),
                    stringify!($($b),+),
                );
            }
        }};
    }
    same_bits!(f32, [1, 16] @ [16, 200]);
    same_bits!(f32, [4, 9] @ [9, 4]);
    same_bits!(f32, [3, 17] @ [17, 13]);
    same_bits!(f32, [8, 64] @ [64, 100]);
    same_bits!(f32, [9, 33] @ [33, 37]);
    same_bits!(f32, [17, 40] @ [40, 129]);
    same_bits!(f32, [2, 5, 24] @ [2, 24, 41]);
    same_bits!(f32, [3, 6, 20] @ [20, 48]);
    same_bits!(f64, [1, 16] @ [16, 70]);
    same_bits!(f64, [9, 33] @ [33, 37]);
    same_bits!(f64, [12, 20] @ [20, 65]);
    same_bits!(f64, [2, 10] @ [10, 3]);
}

/// A product of more than 64 multiply-adds fuses them where the selected
/// instruction-set level has FMA (AVX2 and up), in a debug build (whose
/// expressions compile the target's nest only) as in a release build:
/// each element of a tile of several rows is one chain of multiply-adds in
/// the order of `k`, against that chain written out.
#[test]
fn products_fuse_as_the_selected_level_does() {
    use tensor_expr::isa::{self, Level};
    const M: usize = 8;
    const K: usize = 20;
    const N: usize = 16;
    let a: Tensor<f32, Shape![M, K]> = flat(|p| ((p * 7919) % 1013) as f32 / 977.0 - 0.51);
    let b: Tensor<f32, Shape![K, N]> = flat(|p| ((p * 104729) % 1009) as f32 / 983.0 - 0.49);
    let fused = cfg!(target_feature = "fma") || isa::selected() >= Level::Avx2;
    let stored = tensor_expr!(a @ b);
    let computed = tensor_expr!((a * 1.0) @ b);
    for i in 0..M {
        for j in 0..N {
            let mut sum = 0.0f32;
            for k in 0..K {
                sum = if fused {
                    a[[i, k]].mul_add(b[[k, j]], sum)
                } else {
                    a[[i, k]] * b[[k, j]] + sum
                };
            }
            assert_eq!(
                stored[[i, j]].to_bits(),
                sum.to_bits(),
                "a @ b at [{i}, {j}]"
            );
            assert_eq!(
                computed[[i, j]].to_bits(),
                sum.to_bits(),
                "(a * 1.0) @ b at [{i}, {j}]"
            );
        }
    }
}
