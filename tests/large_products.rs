//! Products large enough to be computed in cache-sized blocks from packed
//! operands (a right operand of 4 MiB or more, 32 rows or more): values
//! against a plain triple loop, with fused epilogues, in-place updates,
//! batches, a transposed left operand, an elementwise operand, and shapes
//! that are no multiple of a block or a tile.
#![cfg(feature = "alloc")]

use tensor_expr::prelude::*;

/// Small integers in a fixed pattern, so that `i32` products are exact
/// and `f32` ones nearly so.
fn pattern<S: tensor_expr::Shape>(seed: usize) -> HeapTensor<i32, S> {
    HeapTensor::from_flat_fn(|p| ((p * 7 + seed * 13) % 11) as i32 - 5)
}

/// The same values as `f32`.
fn as_f32<S: tensor_expr::Shape>(t: &HeapTensor<i32, S>) -> HeapTensor<f32, S> {
    HeapTensor::from_flat_fn(|p| t.as_slice()[p] as f32)
}

/// `a @ b` for row-major `m x k` and `k x n` matrices, by the textbook loop.
/// Written with `while` and slice indexing, which an unoptimised build
/// compiles inline: a range's iterator and `Vec`'s indexing are calls
/// there, and made this loop most of the suite's time in a debug build.
fn reference(a: &[i32], b: &[i32], (m, k, n): (usize, usize, usize)) -> Vec<i64> {
    let mut product = vec![0i64; m * n];
    let c = &mut product[..];
    let mut i = 0;
    while i < m {
        let mut kk = 0;
        while kk < k {
            let x = a[i * k + kk] as i64;
            let mut j = 0;
            while j < n {
                c[i * n + j] += x * b[kk * n + j] as i64;
                j += 1;
            }
            kk += 1;
        }
        i += 1;
    }
    product
}

/// Rows (70 = a block of 64, a tile of 4 and 2 rows), columns (1000: no
/// multiple of a block of 1024 or of 32) and terms (1100: four passes of
/// 256 and 76) that end mid-block; integers, so every sum is exact.
#[test]
fn integer_product_with_ragged_edges_is_exact() {
    const M: usize = 70;
    const K: usize = 1100;
    const N: usize = 1000;
    let a = pattern::<Shape![M, K]>(1);
    let b = pattern::<Shape![K, N]>(2);
    let c = tensor_expr!(a @ b);
    let expected = reference(a.as_slice(), b.as_slice(), (M, K, N));
    for (p, (got, want)) in c.as_slice().iter().zip(&expected).enumerate() {
        assert_eq!(i64::from(*got), *want, "at [{}, {}]", p / N, p % N);
    }
}

/// A dense layer's epilogue (bias row, `relu`) applied to the blocks' sums,
/// into a new tensor and into a target; `+=` reads the target's values.
#[test]
fn fused_epilogue_and_in_place_update() {
    const M: usize = 40;
    const K: usize = 1024;
    const N: usize = 1030;
    let (a, b) = (pattern::<Shape![M, K]>(3), pattern::<Shape![K, N]>(4));
    let bias = pattern::<Shape![N]>(5);
    let (x, w, bias_f) = (as_f32(&a), as_f32(&b), as_f32(&bias));
    let product = reference(a.as_slice(), b.as_slice(), (M, K, N));

    let layer = tensor_expr!(relu(x @ w + bias_f) * 0.5);
    let mut target = HeapTensor::<f32, Shape![M, N]>::full(1.0);
    tensor_expr!(target += x @ w);
    for (p, &sum) in product.iter().enumerate() {
        let sum = sum as f32;
        let want = (sum + bias_f.as_slice()[p % N]).max(0.0) * 0.5;
        assert_eq!(layer.as_slice()[p], want, "layer at {p}");
        assert_eq!(target.as_slice()[p], sum + 1.0, "update at {p}");
    }
}

/// Batches, the right operand broadcast or one per matrix, and `f64`.
#[test]
fn batched_products() {
    const M: usize = 33;
    const K: usize = 1024;
    const N: usize = 1100;
    let a = pattern::<Shape![2, M, K]>(6);
    let shared = pattern::<Shape![K, N]>(7);
    let each = pattern::<Shape![2, K, N]>(8);
    let (a64, shared64) = (
        HeapTensor::<f64, Shape![2, M, K]>::from_flat_fn(|p| f64::from(a.as_slice()[p])),
        HeapTensor::<f64, Shape![K, N]>::from_flat_fn(|p| f64::from(shared.as_slice()[p])),
    );
    let by_shared = tensor_expr!(a64 @ shared64);
    let by_each = tensor_expr!(a @ each);
    for batch in 0..2 {
        let a_matrix = &a.as_slice()[batch * M * K..][..M * K];
        let each_matrix = &each.as_slice()[batch * K * N..][..K * N];
        let want_shared = reference(a_matrix, shared.as_slice(), (M, K, N));
        let want_each = reference(a_matrix, each_matrix, (M, K, N));
        let got_shared = &by_shared.as_slice()[batch * M * N..][..M * N];
        let got_each = &by_each.as_slice()[batch * M * N..][..M * N];
        for p in 0..M * N {
            assert_eq!(
                got_shared[p], want_shared[p] as f64,
                "shared, batch {batch} at {p}"
            );
            assert_eq!(
                i64::from(got_each[p]),
                want_each[p],
                "each, batch {batch} at {p}"
            );
        }
    }
}

/// A transposed left operand and an elementwise one are read through
/// their rows when the blocks are packed.
#[test]
fn transposed_and_elementwise_left_operands() {
    const M: usize = 48;
    const K: usize = 1024;
    const N: usize = 1024;
    let at = pattern::<Shape![K, M]>(9);
    let b = pattern::<Shape![K, N]>(10);
    let a: Vec<i32> = (0..M * K)
        .map(|p| at.as_slice()[(p % K) * M + p / K])
        .collect();
    let product = reference(&a, b.as_slice(), (M, K, N));
    let transposed = tensor_expr!(transpose(at) @ b);
    let scaled = tensor_expr!((transpose(at) * 3 - 1) @ b);
    let column_sums: Vec<i64> = (0..N)
        .map(|j| (0..K).map(|kk| i64::from(b.as_slice()[kk * N + j])).sum())
        .collect();
    for (p, &sum) in product.iter().enumerate() {
        assert_eq!(i64::from(transposed.as_slice()[p]), sum, "at {p}");
        let want = 3 * sum - column_sums[p % N];
        assert_eq!(i64::from(scaled.as_slice()[p]), want, "scaled at {p}");
    }
}
