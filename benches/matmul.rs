//! Matrix product benchmarks: `tensor_expr!(o = a @ b)` against nalgebra's
//! `SMatrix` (sizes up to 64), matrixmultiply's `sgemm` (all sizes; the epilogue
//! as a separate pass) and a naive triple loop, in the same run with the same
//! flags. Prints GFLOP/s (median of round-robin batches) and ratios.
//!
//! `cargo bench --bench matmul`, and with
//! `RUSTFLAGS="-C target-cpu=native" cargo bench --bench matmul` for AVX-512.

mod common;

use common::compare;
use nalgebra::SMatrix;
use std::hint::black_box;
use tensor_expr::prelude::*;
use tensor_expr::D;

fn data(len: usize, seed: f32) -> Vec<f32> {
    (0..len)
        .map(|i| ((i as f32 * 0.37 + seed).sin()) * 2.0)
        .collect()
}

/// One bench row: GFLOP/s of each implementation (`None` where it does not apply).
struct Row {
    case: String,
    tensor_expr: f64,
    nalgebra: Option<f64>,
    matrixmultiply: f64,
    naive: f64,
}

fn print_table(rows: &[Row]) {
    println!(
        "{:<34} {:>8} {:>8} {:>8} {:>8}  {:>8} {:>8} {:>8}",
        "case (GFLOP/s)", "te", "nalgebra", "mm", "naive", "te/na", "te/mm", "te/naive"
    );
    for r in rows {
        let na = r.nalgebra.map_or("-".to_string(), |g| format!("{g:.1}"));
        let na_ratio = r
            .nalgebra
            .map_or("-".to_string(), |g| format!("{:.2}x", r.tensor_expr / g));
        println!(
            "{:<34} {:>8.1} {:>8} {:>8.1} {:>8.1}  {:>8} {:>7.2}x {:>7.2}x",
            r.case,
            r.tensor_expr,
            na,
            r.matrixmultiply,
            r.naive,
            na_ratio,
            r.tensor_expr / r.matrixmultiply,
            r.tensor_expr / r.naive
        );
    }
}

/// `c = a @ b` by matrixmultiply, row-major, `m x k` times `k x n`.
fn sgemm(m: usize, k: usize, n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    // SAFETY: the slices hold the row-major matrices the strides describe.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            k as isize,
            1,
            b.as_ptr(),
            n as isize,
            1,
            0.0,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

/// A row-major `c = a @ b` of `m x k` by `k x n` (`sgemm` or `naive`).
type Gemm = fn(usize, usize, usize, &[f32], &[f32], &mut [f32]);

/// The textbook i-j-k loop.
fn naive(m: usize, k: usize, n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    for i in 0..m {
        for j in 0..n {
            let mut sum = 0.0;
            for p in 0..k {
                sum += a[i * k + p] * b[p * n + j];
            }
            c[i * n + j] = sum;
        }
    }
}

/// A multiply-add as a hand kernel writes it for its target: one fused
/// instruction where the target has FMA, else a multiply and an add
/// (`f32::mul_add` without FMA is a library call).
#[inline(always)]
fn hand_fma(a: f32, b: f32, c: f32) -> f32 {
    if cfg!(target_feature = "fma") {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// `c = a @ b` for `N x N` matrices (`N` a multiple of 8 and of 32) by a
/// hand-written register-tiled kernel: tiles of 8 rows by 32 columns, each
/// row's sums a named array (as one `[[f32; 32]; 8]` LLVM vectorises
/// across rows), every row of the tile multiplying the same 32 values of
/// `b` per term. The kernel a user would write for one fixed size.
fn hand_tiled<const N: usize>(a: &[f32], b: &[f32], c: &mut [f32]) {
    let (a, b, c) = (&a[..N * N], &b[..N * N], &mut c[..N * N]);
    for i0 in (0..N).step_by(8) {
        for j0 in (0..N).step_by(32) {
            let mut rows = [[0.0f32; 32]; 8];
            let [r0, r1, r2, r3, r4, r5, r6, r7] = &mut rows;
            for k in 0..N {
                let bk: &[f32; 32] = b[k * N + j0..k * N + j0 + 32].try_into().unwrap();
                let x: [f32; 8] = core::array::from_fn(|row| a[(i0 + row) * N + k]);
                for l in 0..32 {
                    r0[l] = hand_fma(x[0], bk[l], r0[l]);
                    r1[l] = hand_fma(x[1], bk[l], r1[l]);
                    r2[l] = hand_fma(x[2], bk[l], r2[l]);
                    r3[l] = hand_fma(x[3], bk[l], r3[l]);
                    r4[l] = hand_fma(x[4], bk[l], r4[l]);
                    r5[l] = hand_fma(x[5], bk[l], r5[l]);
                    r6[l] = hand_fma(x[6], bk[l], r6[l]);
                    r7[l] = hand_fma(x[7], bk[l], r7[l]);
                }
            }
            for (row, r) in rows.iter().enumerate() {
                c[(i0 + row) * N + j0..(i0 + row) * N + j0 + 32].copy_from_slice(r);
            }
        }
    }
}

/// tensor_expr against [`hand_tiled`] at `N x N`: GFLOP/s of each.
fn against_hand_tiled<const N: usize>(iterations: usize) {
    let (a, b) = (data(N * N, 0.1), data(N * N, 0.7));
    let (mut out_te, mut out_hand) = (vec![0.0f32; N * N], vec![0.0f32; N * N]);
    let av = TensorView::<f32, (D<N>, D<N>)>::try_from_slice(&a).unwrap();
    let bv = TensorView::<f32, (D<N>, D<N>)>::try_from_slice(&b).unwrap();
    let times = compare(
        2 * N * N * N,
        iterations,
        &mut [
            &mut || {
                let mut o =
                    TensorViewMut::<f32, (D<N>, D<N>)>::try_from_slice(&mut out_te).unwrap();
                let (av, bv) = black_box((&av, &bv));
                tensor_expr!(o = av @ bv);
                black_box(&mut o);
            },
            &mut || {
                hand_tiled::<N>(black_box(&a), black_box(&b), &mut out_hand);
                black_box(&mut out_hand);
            },
        ],
    );
    for (x, y) in out_te.iter().zip(&out_hand) {
        assert!((x - y).abs() <= 1e-3 * N as f32, "{x} vs {y}");
    }
    println!(
        "{:<34} {:>8.1} {:>8.1}  {:>7.2}x",
        format!("square {N}"),
        gflops(times[0]),
        gflops(times[1]),
        times[1] / times[0]
    );
}

/// GFLOP/s from the nanoseconds per flop that `compare` measured.
fn gflops(ns_per_flop: f64) -> f64 {
    1.0 / ns_per_flop
}

/// Square `N x N @ N x N`; nalgebra only where `with_nalgebra`.
fn square<const N: usize>(iterations: usize, with_nalgebra: bool) -> Row {
    let (a, b) = (data(N * N, 0.1), data(N * N, 0.7));
    let (mut out_te, mut out_mm, mut out_naive) = (
        vec![0.0f32; N * N],
        vec![0.0f32; N * N],
        vec![0.0f32; N * N],
    );
    let av = TensorView::<f32, (D<N>, D<N>)>::try_from_slice(&a).unwrap();
    let bv = TensorView::<f32, (D<N>, D<N>)>::try_from_slice(&b).unwrap();
    let mut tensor_expr = || {
        let mut o = TensorViewMut::<f32, (D<N>, D<N>)>::try_from_slice(&mut out_te).unwrap();
        let (av, bv) = black_box((&av, &bv));
        tensor_expr!(o = av @ bv);
        black_box(&mut o);
    };
    let mut mm = || {
        sgemm(N, N, N, black_box(&a), black_box(&b), &mut out_mm);
        black_box(&mut out_mm);
    };
    let mut textbook = || {
        naive(N, N, N, black_box(&a), black_box(&b), &mut out_naive);
        black_box(&mut out_naive);
    };
    let flops = 2 * N * N * N;
    let (times, nalgebra) = if with_nalgebra {
        let na = SMatrix::<f32, N, N>::from_row_slice(&a);
        let nb = SMatrix::<f32, N, N>::from_row_slice(&b);
        let mut nc = SMatrix::<f32, N, N>::zeros();
        let mut nalgebra = || {
            black_box(&na).mul_to(black_box(&nb), &mut nc);
            black_box(&mut nc);
        };
        let times = compare(
            flops,
            iterations,
            &mut [&mut tensor_expr, &mut mm, &mut textbook, &mut nalgebra],
        );
        (times.clone(), Some(gflops(times[3])))
    } else {
        (
            compare(
                flops,
                iterations,
                &mut [&mut tensor_expr, &mut mm, &mut textbook],
            ),
            None,
        )
    };
    let worst = out_te
        .iter()
        .zip(&out_mm)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max);
    assert!(
        worst < 1e-3 * N as f32,
        "tensor_expr and matrixmultiply disagree by {worst}"
    );
    Row {
        case: format!("square {N}"),
        tensor_expr: gflops(times[0]),
        nalgebra,
        matrixmultiply: gflops(times[1]),
        naive: gflops(times[2]),
    }
}

/// `[8, 32, 32] @ [8, 32, 32]`.
fn batched(iterations: usize) -> Row {
    const B: usize = 8;
    const N: usize = 32;
    type S = (D<B>, D<N>, D<N>);
    let (a, b) = (data(B * N * N, 0.1), data(B * N * N, 0.7));
    let (mut out_te, mut out_mm, mut out_naive) = (
        vec![0.0f32; B * N * N],
        vec![0.0f32; B * N * N],
        vec![0.0f32; B * N * N],
    );
    let av = TensorView::<f32, S>::try_from_slice(&a).unwrap();
    let bv = TensorView::<f32, S>::try_from_slice(&b).unwrap();
    let mut tensor_expr = || {
        let mut o = TensorViewMut::<f32, S>::try_from_slice(&mut out_te).unwrap();
        let (av, bv) = black_box((&av, &bv));
        tensor_expr!(o = av @ bv);
        black_box(&mut o);
    };
    /// `product` on each of the `B` square matrices in turn.
    fn per_batch(product: Gemm, a: &[f32], b: &[f32], c: &mut [f32]) {
        let chunks = a.chunks_exact(N * N).zip(b.chunks_exact(N * N));
        for ((a, b), c) in chunks.zip(c.chunks_exact_mut(N * N)) {
            product(N, N, N, a, b, c);
        }
    }
    let mut mm = || {
        per_batch(sgemm, black_box(&a), black_box(&b), &mut out_mm);
        black_box(&mut out_mm);
    };
    let mut textbook = || {
        per_batch(naive, black_box(&a), black_box(&b), &mut out_naive);
        black_box(&mut out_naive);
    };
    let flops = 2 * B * N * N * N;
    let times = compare(
        flops,
        iterations,
        &mut [&mut tensor_expr, &mut mm, &mut textbook],
    );
    Row {
        case: "batched [8,32,32] @ [8,32,32]".into(),
        tensor_expr: gflops(times[0]),
        nalgebra: None,
        matrixmultiply: gflops(times[1]),
        naive: gflops(times[2]),
    }
}

/// `relu(A @ B + bias)`, A `[128, 256]`, B `[256, 128]`, bias `[128]`; the
/// baselines apply the epilogue in a second pass over the product.
fn dense_layer(iterations: usize) -> Row {
    const M: usize = 128;
    const K: usize = 256;
    const N: usize = 128;
    let (a, b, bias) = (data(M * K, 0.1), data(K * N, 0.7), data(N, 0.3));
    let (mut out_te, mut out_mm, mut out_naive) = (
        vec![0.0f32; M * N],
        vec![0.0f32; M * N],
        vec![0.0f32; M * N],
    );
    let av = TensorView::<f32, (D<M>, D<K>)>::try_from_slice(&a).unwrap();
    let bv = TensorView::<f32, (D<K>, D<N>)>::try_from_slice(&b).unwrap();
    let biasv = TensorView::<f32, (D<N>,)>::try_from_slice(&bias).unwrap();
    let epilogue = |c: &mut [f32], bias: &[f32]| {
        for row in c.chunks_exact_mut(N) {
            for (v, &b) in row.iter_mut().zip(bias) {
                *v = (*v + b).max(0.0);
            }
        }
    };
    let mut tensor_expr = || {
        let mut o = TensorViewMut::<f32, (D<M>, D<N>)>::try_from_slice(&mut out_te).unwrap();
        let (av, bv, biasv) = black_box((&av, &bv, &biasv));
        tensor_expr!(o = relu(av @ bv + biasv));
        black_box(&mut o);
    };
    let mut mm = || {
        sgemm(M, K, N, black_box(&a), black_box(&b), &mut out_mm);
        epilogue(&mut out_mm, black_box(&bias));
        black_box(&mut out_mm);
    };
    let mut textbook = || {
        naive(M, K, N, black_box(&a), black_box(&b), &mut out_naive);
        epilogue(&mut out_naive, black_box(&bias));
        black_box(&mut out_naive);
    };
    let flops = 2 * M * K * N;
    let times = compare(
        flops,
        iterations,
        &mut [&mut tensor_expr, &mut mm, &mut textbook],
    );
    let worst = out_te
        .iter()
        .zip(&out_mm)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max);
    assert!(
        worst < 1e-3,
        "tensor_expr and matrixmultiply disagree by {worst}"
    );
    Row {
        case: "relu(A@B+bias) 128x256x128".into(),
        tensor_expr: gflops(times[0]),
        nalgebra: None,
        matrixmultiply: gflops(times[1]),
        naive: gflops(times[2]),
    }
}

/// An operand that is an expression, `(a * 0.5 + 1.0) @ b` at 64x64: recomputed
/// inside the nest, against materialising it first into a buffer (the time of
/// the materialising pass included).
fn expression_operand(iterations: usize) {
    const N: usize = 64;
    type S = (D<N>, D<N>);
    let (a, b) = (data(N * N, 0.1), data(N * N, 0.7));
    let (mut out_fused, mut out_staged, mut staged) = (
        vec![0.0f32; N * N],
        vec![0.0f32; N * N],
        vec![0.0f32; N * N],
    );
    let av = TensorView::<f32, S>::try_from_slice(&a).unwrap();
    let bv = TensorView::<f32, S>::try_from_slice(&b).unwrap();
    let mut fused = || {
        let mut o = TensorViewMut::<f32, S>::try_from_slice(&mut out_fused).unwrap();
        let (av, bv) = black_box((&av, &bv));
        tensor_expr!(o = (av * 0.5 + 1.0) @ bv);
        black_box(&mut o);
    };
    let mut materialised = || {
        let (av, bv) = black_box((&av, &bv));
        let mut s = TensorViewMut::<f32, S>::try_from_slice(&mut staged).unwrap();
        tensor_expr!(s = av * 0.5 + 1.0);
        let sv = TensorView::<f32, S>::try_from_slice(&staged).unwrap();
        let mut o = TensorViewMut::<f32, S>::try_from_slice(&mut out_staged).unwrap();
        tensor_expr!(o = sv @ bv);
        black_box(&mut o);
    };
    let times = compare(
        2 * N * N * N,
        iterations,
        &mut [&mut fused, &mut materialised],
    );
    println!(
        "operand expression (a * 0.5 + 1.0) @ b, 64x64: recomputed in the nest {:.1} GFLOP/s, materialised first {:.1} GFLOP/s, materialised/recomputed time = {:.2}x",
        1.0 / times[0],
        1.0 / times[1],
        times[1] / times[0]
    );
}

/// Times `one` (a single expression) against `two` (the same work written as
/// separate statements), in one run; prints both and the time ratio.
fn one_against_two(
    name: &str,
    flops: usize,
    iterations: usize,
    one: &mut dyn FnMut(),
    two: &mut dyn FnMut(),
) {
    let times = compare(flops, iterations, &mut [one, two]);
    println!(
        "{name:<58} {:>8.1} {:>8.1}   {:>6.2}x",
        1.0 / times[0],
        1.0 / times[1],
        times[0] / times[1]
    );
}

/// Products that compose: an MLP as one expression, a softmax over a product,
/// attention scores against a transposed operand; each against the same work
/// written as two statements (or, for the transpose, with the operand
/// transposed in advance). The first two are staged by the macro (see
/// `tensor_expr!`'s stages), the third stages the transposed copy.
fn composed(iterations: usize) {
    println!(
        "{:<58} {:>8} {:>8}   {:>7}",
        "composed products (GFLOP/s)", "one expr", "two stmt", "time 1/2"
    );
    // MLP [32, 784] -> 128 -> 10.
    let x = HeapTensor::<f32, Shape![32, 784]>::try_from_vec(data(32 * 784, 0.1)).unwrap();
    let w1 = HeapTensor::<f32, Shape![784, 128]>::try_from_vec(data(784 * 128, 0.2)).unwrap();
    let b1 = HeapTensor::<f32, Shape![128]>::try_from_vec(data(128, 0.3)).unwrap();
    let w2 = HeapTensor::<f32, Shape![128, 10]>::try_from_vec(data(1280, 0.4)).unwrap();
    let b2 = HeapTensor::<f32, Shape![10]>::try_from_vec(data(10, 0.5)).unwrap();
    let mut out_one = HeapTensor::<f32, Shape![32, 10]>::zeros();
    let mut out_two = HeapTensor::<f32, Shape![32, 10]>::zeros();
    let mut hidden = HeapTensor::<f32, Shape![32, 128]>::zeros();
    one_against_two(
        "MLP relu(x @ w1 + b1) @ w2 + b2, [32,784]->128->10",
        2 * 32 * (784 * 128 + 128 * 10),
        iterations,
        &mut || {
            let (x, w1, b1, w2, b2) = black_box((&x, &w1, &b1, &w2, &b2));
            tensor_expr!(out_one = relu(x @ w1 + b1) @ w2 + b2);
            black_box(&mut out_one);
        },
        &mut || {
            let (x, w1, b1, w2, b2) = black_box((&x, &w1, &b1, &w2, &b2));
            tensor_expr!(hidden = relu(x @ w1 + b1));
            tensor_expr!(out_two = hidden @ w2 + b2);
            black_box(&mut out_two);
        },
    );
    // Softmax of a product, [64, 256] @ [256, 256] + b.
    let x = HeapTensor::<f32, Shape![64, 256]>::try_from_vec(data(64 * 256, 0.6)).unwrap();
    let w = HeapTensor::<f32, Shape![256, 256]>::try_from_vec(data(256 * 256, 0.7)).unwrap();
    let b = HeapTensor::<f32, Shape![256]>::try_from_vec(data(256, 0.8)).unwrap();
    let mut p_one = HeapTensor::<f32, Shape![64, 256]>::zeros();
    let mut p_two = HeapTensor::<f32, Shape![64, 256]>::zeros();
    let mut logits = HeapTensor::<f32, Shape![64, 256]>::zeros();
    one_against_two(
        "softmax(x @ w + b), [64,256] @ [256,256]",
        2 * 64 * 256 * 256,
        iterations,
        &mut || {
            let (x, w, b) = black_box((&x, &w, &b));
            tensor_expr!(p_one = exp(x @ w + b - max(x @ w + b, [1], keepdim)) / sum(exp(x @ w + b - max(x @ w + b, [1], keepdim)), [1], keepdim));
            black_box(&mut p_one);
        },
        &mut || {
            let (x, w, b) = black_box((&x, &w, &b));
            tensor_expr!(logits = x @ w + b);
            tensor_expr!(
                p_two = exp(logits - max(logits, [1], keepdim))
                    / sum(exp(logits - max(logits, [1], keepdim)), [1], keepdim)
            );
            black_box(&mut p_two);
        },
    );
    // Attention scores, q [128, 64] @ transpose(k [128, 64]).
    let q = HeapTensor::<f32, Shape![128, 64]>::try_from_vec(data(128 * 64, 0.9)).unwrap();
    let k = HeapTensor::<f32, Shape![128, 64]>::try_from_vec(data(128 * 64, 1.0)).unwrap();
    let kt = HeapTensor::<f32, Shape![64, 128]>::from_fn(|[d, j]| k[[j, d]]);
    let mut s_one = HeapTensor::<f32, Shape![128, 128]>::zeros();
    let mut s_two = HeapTensor::<f32, Shape![128, 128]>::zeros();
    one_against_two(
        "q @ transpose(k) vs q @ kt (kt transposed before), [128,64]",
        2 * 128 * 128 * 64,
        iterations,
        &mut || {
            let (q, k) = black_box((&q, &k));
            tensor_expr!(s_one = q @ transpose(k));
            black_box(&mut s_one);
        },
        &mut || {
            let (q, kt) = black_box((&q, &kt));
            tensor_expr!(s_two = q @ kt);
            black_box(&mut s_two);
        },
    );
    assert_eq!(out_one.as_slice(), out_two.as_slice());
    assert_eq!(s_one.as_slice(), s_two.as_slice());
}

/// `y[j] = sum_k x[k] w[k][j]` by a hand loop with `k` outermost: each row
/// of `w` read once, in order, the column loop innermost (it vectorises).
fn hand_vector_matrix(x: &[f32], w: &[f32], y: &mut [f32]) {
    y.fill(0.0);
    for (xk, row) in x.iter().zip(w.chunks_exact(y.len())) {
        for (yj, wkj) in y.iter_mut().zip(row) {
            *yj += xk * wkj;
        }
    }
}

/// A dot product by a hand loop that vectorises: 16 partial sums, added at
/// the end (a plain `.sum()` is one chain of dependent adds).
fn hand_dot(a: &[f32], b: &[f32]) -> f32 {
    let mut partial = [0.0f32; 16];
    let (a16, b16) = (a.chunks_exact(16), b.chunks_exact(16));
    let tail: f32 = a16
        .remainder()
        .iter()
        .zip(b16.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a16.zip(b16) {
        for l in 0..16 {
            partial[l] += x[l] * y[l];
        }
    }
    partial.iter().sum::<f32>() + tail
}

/// Products with one output row, as a signal frame times a DFT matrix and a
/// batch-1 layer compute them, against the hand loop and matrixmultiply.
fn matrix_vector(iterations: usize) {
    println!(
        "{:<34} {:>8} {:>8} {:>8}  {:>9} {:>8}",
        "vector @ matrix (GFLOP/s)", "te", "hand", "mm", "te/hand", "te/mm"
    );
    macro_rules! case {
        ($name:literal, $x:ty, $k:literal, $n:literal, $y:ty) => {{
            let x = HeapTensor::<f32, $x>::try_from_vec(data($k, 0.3)).unwrap();
            let w = HeapTensor::<f32, Shape![$k, $n]>::try_from_vec(data($k * $n, 0.6)).unwrap();
            let mut y = HeapTensor::<f32, $y>::zeros();
            let mut hand = vec![0.0f32; $n];
            let mut mm = vec![0.0f32; $n];
            let times = compare(
                2 * $k * $n,
                iterations,
                &mut [
                    &mut || {
                        let (x, w) = black_box((&x, &w));
                        tensor_expr!(y = x @ w);
                        black_box(&mut y);
                    },
                    &mut || {
                        hand_vector_matrix(black_box(x.as_slice()), black_box(w.as_slice()), &mut hand);
                        black_box(&mut hand);
                    },
                    &mut || {
                        sgemm(1, $k, $n, black_box(x.as_slice()), black_box(w.as_slice()), &mut mm);
                        black_box(&mut mm);
                    },
                ],
            );
            report_vector_case($name, &times, y.as_slice(), &hand);
        }};
    }
    case!(
        "[256] @ [256, 129] (DFT frame)",
        Shape![256],
        256,
        129,
        Shape![129]
    );
    case!(
        "[1, 784] @ [784, 128] (batch 1)",
        Shape![1, 784],
        784,
        128,
        Shape![1, 128]
    );
    // A matrix times a vector on the right: each output a dot product.
    let m = HeapTensor::<f32, Shape![128, 784]>::try_from_vec(data(128 * 784, 0.2)).unwrap();
    let v = HeapTensor::<f32, Shape![784]>::try_from_vec(data(784, 0.9)).unwrap();
    let mut y = HeapTensor::<f32, Shape![128]>::zeros();
    let (mut hand, mut mm) = (vec![0.0f32; 128], vec![0.0f32; 128]);
    let times = compare(
        2 * 128 * 784,
        iterations,
        &mut [
            &mut || {
                let (m, v) = black_box((&m, &v));
                tensor_expr!(y = m @ v);
                black_box(&mut y);
            },
            &mut || {
                let (m, v) = black_box((m.as_slice(), v.as_slice()));
                for (yi, row) in hand.iter_mut().zip(m.chunks_exact(784)) {
                    *yi = hand_dot(row, v);
                }
                black_box(&mut hand);
            },
            &mut || {
                sgemm(
                    128,
                    784,
                    1,
                    black_box(m.as_slice()),
                    black_box(v.as_slice()),
                    &mut mm,
                );
                black_box(&mut mm);
            },
        ],
    );
    report_vector_case(
        "[128, 784] @ [784] (matrix-vector)",
        &times,
        y.as_slice(),
        &hand,
    );
}

/// Checks a vector case's result against the hand loop's and prints its
/// row: GFLOP/s of tensor_expr, the hand loop and matrixmultiply, then the
/// ratios of their times to tensor_expr's.
fn report_vector_case(name: &str, times: &[f64], ours: &[f32], hand: &[f32]) {
    for (a, b) in ours.iter().zip(hand) {
        assert!((a - b).abs() <= 1e-3 * (1.0 + b.abs()), "{a} vs {b}");
    }
    println!(
        "{:<34} {:>8.1} {:>8.1} {:>8.1}  {:>8.2}x {:>7.2}x",
        name,
        gflops(times[0]),
        gflops(times[1]),
        gflops(times[2]),
        times[1] / times[0],
        times[2] / times[0]
    );
}

/// Products whose operands outgrow the caches, computed in blocks from
/// packed operands: against matrixmultiply's `sgemm` (the epilogue as a
/// separate pass), one thread each. `sizes` are the square sizes run.
fn large(iterations: usize, sizes: &[usize]) {
    println!(
        "{:<34} {:>8} {:>8}  {:>8}",
        "large products (GFLOP/s)", "te", "mm", "te/mm"
    );
    fn square<const N: usize>(iterations: usize) {
        large_case::<N, N, N>(
            &format!("square {N}"),
            iterations,
            |x, w, _, mut out| tensor_expr!(out = x @ w),
            |_, _| {},
        );
    }
    if sizes.contains(&1024) {
        square::<1024>(iterations);
    }
    if sizes.contains(&2048) {
        square::<2048>(iterations.div_ceil(8));
    }
    if sizes.contains(&4096) {
        square::<4096>(iterations.div_ceil(64));
    }
    large_case::<64, 1024, 1024>(
        "[64, 1024] @ [1024, 1024]",
        iterations * 16,
        |x, w, _, mut out| tensor_expr!(out = x @ w),
        |_, _| {},
    );
    large_case::<1024, 1024, 1024>(
        "relu(x @ w + b), 1024",
        iterations,
        |x, w, bias, mut out| tensor_expr!(out = relu(x @ w + bias)),
        |c, bias| {
            for row in c.chunks_exact_mut(bias.len()) {
                for (v, &b) in row.iter_mut().zip(bias) {
                    *v = (*v + b).max(0.0);
                }
            }
        },
    );
}

/// The left operand, right operand and bias row of a large case.
type Operands<'a, const M: usize, const K: usize, const N: usize> = (
    &'a HeapTensor<f32, Shape![M, K]>,
    &'a HeapTensor<f32, Shape![K, N]>,
    &'a HeapTensor<f32, Shape![N]>,
);

/// One row of [`large`]: `ours` writes `x @ w` with its epilogue into
/// the view it is given; matrixmultiply's product is followed by
/// `epilogue(c, bias)`.
#[rustfmt::skip]
fn large_case<const M: usize, const K: usize, const N: usize>(
    name: &str,
    iterations: usize,
    ours: impl Fn(&HeapTensor<f32, Shape![M, K]>, &HeapTensor<f32, Shape![K, N]>, &HeapTensor<f32, Shape![N]>, TensorViewMut<'_, f32, Shape![M, N]>),
    epilogue: fn(&mut [f32], &[f32]),
) {
    let x = HeapTensor::<f32, Shape![M, K]>::try_from_vec(data(M * K, 0.1)).unwrap();
    let w = HeapTensor::<f32, Shape![K, N]>::try_from_vec(data(K * N, 0.7)).unwrap();
    let bias = HeapTensor::<f32, Shape![N]>::try_from_vec(data(N, 0.3)).unwrap();
    let mut out = HeapTensor::<f32, Shape![M, N]>::zeros();
    let mut theirs = vec![0.0f32; M * N];
    let times = compare(
        2 * M * K * N,
        iterations,
        &mut [
            &mut || {
                let (x, w, bias): Operands<M, K, N> = black_box((&x, &w, &bias));
                ours(x, w, bias, out.view_mut());
                black_box(&mut out);
            },
            &mut || {
                sgemm(M, K, N, black_box(x.as_slice()), black_box(w.as_slice()), &mut theirs);
                epilogue(&mut theirs, bias.as_slice());
                black_box(&mut theirs);
            },
        ],
    );
    for (a, b) in out.as_slice().iter().zip(&theirs) {
        assert!((a - b).abs() <= 1e-3 * K as f32, "{a} vs {b}");
    }
    println!(
        "{:<34} {:>8.1} {:>8.1}  {:>7.2}x",
        name,
        gflops(times[0]),
        gflops(times[1]),
        times[1] / times[0]
    );
}

fn main() {
    // matrixmultiply (a dev-dependency with its `threading` feature, for
    // benches/parallel.rs) uses every physical core unless told otherwise:
    // the baselines here run on one thread, as tensor-expr does.
    std::env::set_var("MATMUL_NUM_THREADS", "1");
    // `cargo test --benches` passes `--test`: then run briefly, as a smoke test.
    let quick = std::env::args().any(|a| a == "--test");
    let scale = if quick { 1 } else { 10 };
    // `cargo bench --bench matmul -- vector` runs the sections whose name
    // contains "vector" (squares, tiled, large, vector, operand, composed).
    let only = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let run = |section: &str| only.as_deref().is_none_or(|o| section.contains(o));
    if run("squares") {
        let rows = [
            square::<4>(20_000 * scale, true),
            square::<8>(5_000 * scale, true),
            square::<16>(1_000 * scale, true),
            square::<32>(200 * scale, true),
            square::<64>(30 * scale, true),
            square::<256>(scale, false),
            batched(30 * scale),
            dense_layer(3 * scale),
        ];
        print_table(&rows);
        println!();
    }
    if run("tiled") {
        println!(
            "{:<34} {:>8} {:>8}  {:>8}",
            "hand register tiles (GFLOP/s)", "te", "hand", "hand/te"
        );
        against_hand_tiled::<32>(200 * scale);
        against_hand_tiled::<64>(30 * scale);
        against_hand_tiled::<128>(4 * scale);
        against_hand_tiled::<256>(scale);
        println!();
    }
    if run("large") {
        let sizes: &[usize] = if quick { &[1024] } else { &[1024, 2048, 4096] };
        large(scale / 10, sizes);
        println!();
    }
    if run("vector") {
        matrix_vector(300 * scale);
        println!();
    }
    if run("operand") {
        expression_operand(30 * scale);
        println!();
    }
    if run("composed") {
        composed(10 * scale);
    }
}
