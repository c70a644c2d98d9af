//! The float functions inside `tensor_expr!`, over `[64, 1024]` f32, against
//! the same function from std called in a hand-written loop (one scalar call
//! per element, which is what a loop over `f32::exp` compiles to), in the same
//! run with the same flags. Prints ns/element (median of timed batches) and the
//! speed-up. Then the ML paths built on them: `log_softmax` as one expression
//! against a hand loop, `softmax(x, [1])` and `log_softmax(x, [1])` as one
//! call against the same written out and a hand loop, `softmax(x, [1])`
//! over batches of short rows (a classifier's classes) against a hand loop,
//! and the `gelu_tanh`
//! epilogue of a product against the product alone.
//!
//! `cargo bench --bench activations`, and with `RUSTFLAGS="-C target-cpu=native"`.

mod common;

use common::compare;
use std::hint::black_box;
use tensor_expr::prelude::*;

const ROWS: usize = 64;
const COLS: usize = 1024;
type Matrix = HeapTensor<f32, Shape![64, 1024]>;

/// One row of the table: `expr` (a `tensor_expr!` writing `f(x)` into its
/// argument) against a hand loop of `std_fn`, inlined into the loop (so
/// std's `floor` is one `roundps` where the target has SSE4.1).
fn bench_function(
    name: &str,
    x: &Matrix,
    mut expr: impl FnMut(&mut Matrix),
    std_fn: impl Fn(f32) -> f32 + Copy,
) {
    let (mut out, mut hand) = (Matrix::zeros(), Matrix::zeros());
    let times = compare(
        ROWS * COLS,
        20,
        &mut [
            &mut || {
                expr(&mut out);
                black_box(&mut out);
            },
            &mut || {
                hand_loop(black_box(x.as_slice()), hand.as_mut_slice(), std_fn);
                black_box(&mut hand);
            },
        ],
    );
    report(name, times[0], times[1]);
}

fn main() {
    // Values over the range activations see, and positive ones for logarithms.
    let x = Matrix::from_flat_fn(|k| ((k as f32) * 0.618).sin() * 6.0);
    let positive = Matrix::from_flat_fn(|k| 0.01 + ((k as f32) * 0.37).sin().abs() * 50.0);
    println!(
        "{:<14} {:>12} {:>14} {:>9}",
        "function", "tensor_expr", "std hand loop", "speed-up"
    );
    println!("{:<14} {:>12} {:>14}", "", "ns/element", "ns/element");
    let p = &positive;
    bench_function("exp", &x, |o| tensor_expr!(o = exp(x)), f32::exp);
    bench_function("exp2", &x, |o| tensor_expr!(o = exp2(x)), f32::exp2);
    bench_function("expm1", &x, |o| tensor_expr!(o = expm1(x)), f32::exp_m1);
    bench_function("tanh", &x, |o| tensor_expr!(o = tanh(x)), f32::tanh);
    bench_function(
        "sigmoid",
        &x,
        |o| tensor_expr!(o = sigmoid(x)),
        |v| 1.0 / (1.0 + (-v).exp()),
    );
    bench_function("sin", &x, |o| tensor_expr!(o = sin(x)), f32::sin);
    bench_function("cos", &x, |o| tensor_expr!(o = cos(x)), f32::cos);
    bench_function(
        "softplus",
        &x,
        |o| tensor_expr!(o = softplus(x)),
        |v| v.max(0.0) + (-v.abs()).exp().ln_1p(),
    );
    bench_function(
        "silu",
        &x,
        |o| tensor_expr!(o = silu(x)),
        |v| v / (1.0 + (-v).exp()),
    );
    bench_function(
        "gelu_tanh",
        &x,
        |o| tensor_expr!(o = gelu_tanh(x)),
        |v| 0.5 * v * (1.0 + (0.797_884_6 * (v + 0.044_715 * v * v * v)).tanh()),
    );
    // std has no erf on stable: the baseline loop calls libm's `erff`.
    bench_function("erf", &x, |o| tensor_expr!(o = erf(x)), libm::erff);
    bench_function(
        "gelu",
        &x,
        |o| tensor_expr!(o = gelu(x)),
        |v| 0.5 * v * (1.0 + libm::erff(v * core::f32::consts::FRAC_1_SQRT_2)),
    );
    bench_function("ln", p, |o| tensor_expr!(o = ln(p)), f32::ln);
    bench_function("log2", p, |o| tensor_expr!(o = log2(p)), f32::log2);
    bench_function("log1p", p, |o| tensor_expr!(o = log1p(p)), f32::ln_1p);
    bench_function("sqrt", p, |o| tensor_expr!(o = sqrt(p)), f32::sqrt);
    bench_function(
        "rsqrt",
        p,
        |o| tensor_expr!(o = rsqrt(p)),
        |v| 1.0 / v.sqrt(),
    );
    bench_function("round", &x, |o| tensor_expr!(o = round(x)), f32::round);
    bench_function(
        "round_even",
        &x,
        |o| tensor_expr!(o = round_even(x)),
        f32::round_ties_even,
    );
    bench_function("floor", &x, |o| tensor_expr!(o = floor(x)), f32::floor);
    bench_function("trunc", &x, |o| tensor_expr!(o = trunc(x)), f32::trunc);

    println!();
    log_softmax(&x);
    softmax(&x);
    short_softmax::<32, 10>();
    short_softmax::<64, 5>();
    short_softmax::<32, 16>();
    short_softmax::<128, 10>();
    gelu_epilogue();
}

/// `softmax(x, [1])` over a batch of short rows (a classifier's classes)
/// against [`hand_softmax`], in one run.
fn short_softmax<const R: usize, const C: usize>()
where
    Shape![R, C]: Shape,
{
    let x = Tensor::<f32, Shape![R, C]>::from_flat_fn(|k| ((k as f32) * 0.37).sin() * 4.0);
    let (mut out, mut hand) = (Tensor::<f32, Shape![R, C]>::zeros(), vec![0f32; R * C]);
    hand_softmax::<C>(x.as_slice(), &mut hand);
    tensor_expr!(out = softmax(x, [1]));
    for (a, b) in out.as_slice().iter().zip(&hand) {
        assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "{a} vs {b}");
    }
    let times = compare(
        R * C,
        2000,
        &mut [
            &mut || {
                let x = black_box(&x);
                tensor_expr!(out = softmax(x, [1]));
                black_box(&mut out);
            },
            &mut || {
                hand_softmax::<C>(black_box(x.as_slice()), &mut hand);
                black_box(&mut hand);
            },
        ],
    );
    println!(
        "{:<30} {:>12.3} {:>14.3} {:>8.2}x  (hand loop with std exp)",
        format!("softmax(x, [1]) [{R}, {C}]"),
        times[0],
        times[1],
        times[1] / times[0]
    );
}

/// `out[i] = f(x[i])`, the loop a user writes around a std function (kept
/// out of line; generic, so `f` is inlined into it).
#[inline(never)]
fn hand_loop(x: &[f32], out: &mut [f32], f: impl Fn(f32) -> f32) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = f(v);
    }
}

fn report(name: &str, ours: f64, std: f64) {
    println!("{name:<14} {ours:>12.3} {std:>14.3} {:>8.1}x", std / ours);
}

/// `x - max - ln(sum(exp(x - max)))` along each row: one expression against the
/// hand loop (max, then the sum of exponentials, then the subtraction).
fn log_softmax(x: &Matrix) {
    let mut out = Matrix::zeros();
    let mut hand = Matrix::zeros();
    let run_expr = |out: &mut Matrix| {
        tensor_expr!(
            out = x - max(x, [1], keepdim) - ln(sum(exp(x - max(x, [1], keepdim)), [1], keepdim))
        )
    };
    let run_hand = |out: &mut [f32]| {
        for (row, o) in x
            .as_slice()
            .chunks_exact(COLS)
            .zip(out.chunks_exact_mut(COLS))
        {
            let max = row.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
            let sum: f32 = row.iter().map(|&v| (v - max).exp()).sum();
            let shift = max + sum.ln();
            for (o, &v) in o.iter_mut().zip(row) {
                *o = v - shift;
            }
        }
    };
    run_expr(&mut out);
    run_hand(hand.as_mut_slice());
    for (a, b) in out.as_slice().iter().zip(hand.as_slice()) {
        assert!((a - b).abs() <= 1e-4 * (1.0 + b.abs()), "{a} vs {b}");
    }
    let times = compare(
        ROWS * COLS,
        20,
        &mut [
            &mut || {
                run_expr(&mut out);
                black_box(&mut out);
            },
            &mut || {
                run_hand(hand.as_mut_slice());
                black_box(&mut hand);
            },
        ],
    );
    println!(
        "{:<30} {:>12} {:>14} {:>9}",
        "path", "tensor_expr", "compared with", "ratio"
    );
    println!(
        "{:<30} {:>12.3} {:>14.3} {:>8.2}x  (hand loop with std exp/ln; ns/element)",
        "log_softmax [64, 1024]",
        times[0],
        times[1],
        times[1] / times[0]
    );
}

/// The hand loop of a softmax over rows of `C` (as a careful user writes
/// it: the row's max, the exponentials and their sum, then the scaling),
/// from `x` into `out`.
fn hand_softmax<const C: usize>(x: &[f32], out: &mut [f32]) {
    for (row, o) in x.chunks_exact(C).zip(out.chunks_exact_mut(C)) {
        let max = row.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
        let mut sum = 0.0;
        for (o, &v) in o.iter_mut().zip(row) {
            *o = (v - max).exp();
            sum += *o;
        }
        let scale = 1.0 / sum;
        for o in o.iter_mut() {
            *o *= scale;
        }
    }
}

/// `softmax(x, [1])` and `log_softmax(x, [1])`, each one call, against the
/// same expression written out and a hand loop (max, exponentials and their
/// sum, then the scaling), in one run.
fn softmax(x: &Matrix) {
    let mut out = Matrix::zeros();
    let (mut written, mut hand, mut log, mut log_written) = (
        Matrix::zeros(),
        Matrix::zeros(),
        Matrix::zeros(),
        Matrix::zeros(),
    );
    let mut expected = Matrix::zeros();
    hand_softmax::<COLS>(x.as_slice(), expected.as_mut_slice());
    tensor_expr!(out = softmax(x, [1]));
    for (a, b) in out.as_slice().iter().zip(expected.as_slice()) {
        assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "{a} vs {b}");
    }
    let times = compare(
        ROWS * COLS,
        20,
        &mut [
            &mut || {
                tensor_expr!(out = softmax(x, [1]));
                black_box(&mut out);
            },
            &mut || {
                tensor_expr!(
                    written = exp(x - max(x, [1], keepdim))
                        * (1 / sum(exp(x - max(x, [1], keepdim)), [1], keepdim))
                );
                black_box(&mut written);
            },
            &mut || {
                hand_softmax::<COLS>(x.as_slice(), hand.as_mut_slice());
                black_box(&mut hand);
            },
            &mut || {
                tensor_expr!(log = log_softmax(x, [1]));
                black_box(&mut log);
            },
            &mut || {
                tensor_expr!(
                    log_written = x
                        - max(x, [1], keepdim)
                        - ln(sum(exp(x - max(x, [1], keepdim)), [1], keepdim))
                );
                black_box(&mut log_written);
            },
        ],
    );
    println!(
        "{:<30} {:>12.3} {:>14.3} {:>8.2}x  (written out; ns/element)",
        "softmax(x, [1]) [64, 1024]",
        times[0],
        times[1],
        times[1] / times[0]
    );
    println!(
        "{:<30} {:>12.3} {:>14.3} {:>8.2}x  (hand loop with std exp)",
        "",
        times[0],
        times[2],
        times[2] / times[0]
    );
    println!(
        "{:<30} {:>12.3} {:>14.3} {:>8.2}x  (written out)",
        "log_softmax(x, [1])",
        times[3],
        times[4],
        times[4] / times[3]
    );
}

/// `gelu_tanh(x @ w + b)` against `relu(x @ w + b)`, [64, 256] @ [256, 256]:
/// the function is applied to each register tile before its store, so the
/// gelu epilogue should cost little more than relu's. (Not against `x @ w + b`
/// alone: written into a target, that form is far slower, a known issue.)
fn gelu_epilogue() {
    type X = HeapTensor<f32, Shape![64, 256]>;
    type W = HeapTensor<f32, Shape![256, 256]>;
    let x = X::from_flat_fn(|k| ((k as f32) * 0.37).sin());
    let w = W::from_flat_fn(|k| ((k as f32) * 0.11).cos() * 0.1);
    let b = Tensor::<f32, Shape![256]>::from_fn(|[j]: [usize; 1]| j as f32 * 0.001);
    let mut out = X::zeros();
    let mut plain = X::zeros();
    let times = compare(
        64 * 256,
        20,
        &mut [
            &mut || {
                tensor_expr!(out = gelu_tanh(x @ w + b));
                black_box(&mut out);
            },
            &mut || {
                tensor_expr!(plain = relu(x @ w + b));
                black_box(&mut plain);
            },
        ],
    );
    let mut pre = X::zeros();
    for (k, v) in pre.as_mut_slice().iter_mut().enumerate() {
        let (i, j) = (k / 256, k % 256);
        *v = (0..256)
            .map(|m| x.as_slice()[i * 256 + m] * w.as_slice()[m * 256 + j])
            .sum::<f32>()
            + b.as_slice()[j];
    }
    for ((g, r), p) in out
        .as_slice()
        .iter()
        .zip(plain.as_slice())
        .zip(pre.as_slice())
    {
        let expect = tensor_expr::math::f32::gelu_tanh(*p);
        assert!(
            (g - expect).abs() <= 1e-4 * (1.0 + expect.abs()),
            "{g} vs {expect}"
        );
        assert!((r - p.max(0.0)).abs() <= 1e-4 * (1.0 + p.abs()));
    }
    let gflops = |ns_per_element: f64| 2.0 * 256.0 / ns_per_element;
    println!(
        "{:<30} {:>12.3} {:>14.3} {:>8.2}x  (relu(x @ w + b); {:.0} vs {:.0} GFLOP/s)",
        "gelu_tanh(x @ w + b)",
        times[0],
        times[1],
        times[1] / times[0],
        gflops(times[0]),
        gflops(times[1])
    );
}
