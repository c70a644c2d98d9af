//! Softmax, layer norm and running sums over `[64, 1024]` `f32`: one `tensor_expr!` each,
//! against a hand-written two-pass loop per row and ndarray, in the same run and
//! with the same flags. Prints ns/element (median of timed batches) and ratios.
//!
//! `cargo bench --bench reductions` (and with `RUSTFLAGS="-C target-cpu=native"`).
//!
//! All three use std's `f32::exp` and `f32::sqrt`. The hand loops are what one
//! writes for speed: softmax takes the row max, then writes `exp(x - max)` into
//! the output while summing it, then scales by `1 / sum`; layer norm takes the
//! mean, then the variance, then writes `(x - mean) * inv_std * gamma + beta`.
//! ndarray is written the idiomatic way, with its axis reductions and
//! broadcasting arithmetic (each step a new array).

mod common;

use common::compare;
use ndarray::{Array1, Array2, Axis};
use std::hint::black_box;
use tensor_expr::prelude::*;

const ROWS: usize = 64;
const COLS: usize = 1024;
type Matrix = HeapTensor<f32, Shape![64, 1024]>;
type Features = HeapTensor<f32, Shape![1024]>;

fn main() {
    let x = Matrix::from_flat_fn(|k| ((k as f32) * 0.618).sin() * 4.0);
    let gamma = Features::from_flat_fn(|k| 1.0 + (k as f32 * 0.1).cos() * 0.5);
    let beta = Features::from_flat_fn(|k| (k as f32 * 0.3).sin() * 0.1);
    let x_nd = Array2::from_shape_vec((ROWS, COLS), x.as_slice().to_vec()).unwrap();
    let gamma_nd = Array1::from_vec(gamma.as_slice().to_vec());
    let beta_nd = Array1::from_vec(beta.as_slice().to_vec());

    println!(
        "{:<26} {:>11} {:>11} {:>11}  {:>9} {:>9}",
        "case (ns/element)", "tensor_expr", "hand loop", "ndarray", "hand/te", "nd/te"
    );

    // Softmax along each row, written as the issue writes it, and with a
    // multiply by the reciprocal of the row sum, as PyTorch's softmax kernel
    // computes it: one division per row instead of per element (the results
    // differ from the exact quotient by about an ulp).
    let mut out = Matrix::zeros();
    softmax_row("softmax [64, 1024]", &x, &x_nd, &mut |out: &mut Matrix| {
        tensor_expr!(
            out = exp(x - max(x, [1], keepdim)) / sum(exp(x - max(x, [1], keepdim)), [1], keepdim)
        );
    });
    softmax_row(
        "softmax, * (1 / sum)",
        &x,
        &x_nd,
        &mut |out: &mut Matrix| {
            tensor_expr!(
                out = exp(x - max(x, [1], keepdim))
                    * (1 / sum(exp(x - max(x, [1], keepdim)), [1], keepdim))
            );
        },
    );
    let mut hand = Matrix::zeros();

    // Layer norm along each row, with a per-feature scale and shift.
    layer_norm_hand(
        x.as_slice(),
        gamma.as_slice(),
        beta.as_slice(),
        hand.as_mut_slice(),
    );
    tensor_expr!(
        out = (x - mean(x, [1], keepdim))
            / sqrt(mean(square(x - mean(x, [1], keepdim)), [1], keepdim) + 1e-5)
            * gamma
            + beta
    );
    assert_close(out.as_slice(), hand.as_slice());
    assert_close(
        layer_norm_ndarray(&x_nd, &gamma_nd, &beta_nd)
            .as_slice()
            .unwrap(),
        hand.as_slice(),
    );
    let times = compare(
        ROWS * COLS,
        20,
        &mut [
            &mut || {
                tensor_expr!(
                    out = (x - mean(x, [1], keepdim))
                        / sqrt(mean(square(x - mean(x, [1], keepdim)), [1], keepdim) + 1e-5)
                        * gamma
                        + beta
                );
                black_box(&mut out);
            },
            &mut || {
                layer_norm_hand(
                    black_box(x.as_slice()),
                    gamma.as_slice(),
                    beta.as_slice(),
                    hand.as_mut_slice(),
                );
                black_box(&mut hand);
            },
            &mut || {
                black_box(layer_norm_ndarray(black_box(&x_nd), &gamma_nd, &beta_nd));
            },
        ],
    );
    print_row("layer norm [64, 1024]", &times);

    // Running sums along each axis, into `out`, against the plain loop one
    // writes and ndarray's `accumulate_axis_inplace`.
    for axis in [1, 0] {
        let mut nd = x_nd.clone();
        let scan = |out: &mut Matrix| {
            if axis == 1 {
                tensor_expr!(scratch <= 262144: out = cumsum(x, [1]));
            } else {
                tensor_expr!(scratch <= 262144: out = cumsum(x, [0]));
            }
        };
        scan(&mut out);
        cumsum_hand(x.as_slice(), axis, hand.as_mut_slice());
        assert_eq!(out.as_slice(), hand.as_slice());
        let times = compare(
            ROWS * COLS,
            20,
            &mut [
                &mut || {
                    scan(&mut out);
                    black_box(&mut out);
                },
                &mut || {
                    cumsum_hand(black_box(x.as_slice()), axis, hand.as_mut_slice());
                    black_box(&mut hand);
                },
                &mut || {
                    nd.assign(black_box(&x_nd));
                    nd.accumulate_axis_inplace(Axis(axis), |&previous, value| *value += previous);
                    black_box(&mut nd);
                },
            ],
        );
        print_row(&format!("cumsum [64, 1024], axis {axis}"), &times);
    }
    // The same as a new tensor, `let y = tensor_expr!(cumsum(x, [axis]))`:
    // the scan writes its tensor's slots once; the loop one writes fills a
    // new zeroed tensor, and ndarray scans a copy.
    type Stacked = Tensor<f32, Shape![64, 1024]>;
    for axis in [1, 0] {
        let scan = |check: Option<&Matrix>| {
            let y: Stacked = if axis == 1 {
                tensor_expr!(scratch <= 262144: cumsum(x, [1]))
            } else {
                tensor_expr!(scratch <= 262144: cumsum(x, [0]))
            };
            if let Some(expected) = check {
                assert_eq!(y.as_slice(), expected.as_slice());
            }
            black_box(&y);
        };
        cumsum_hand(x.as_slice(), axis, hand.as_mut_slice());
        scan(Some(&hand));
        let times = compare(
            ROWS * COLS,
            20,
            &mut [
                &mut || scan(None),
                &mut || {
                    let mut y = Stacked::zeros();
                    cumsum_hand(black_box(x.as_slice()), axis, y.as_mut_slice());
                    black_box(&y);
                },
                &mut || {
                    let mut nd = black_box(&x_nd).clone();
                    nd.accumulate_axis_inplace(Axis(axis), |&previous, value| *value += previous);
                    black_box(&nd);
                },
            ],
        );
        print_row(&format!("let y = cumsum, axis {axis}"), &times);
    }
}

/// The running sum along `axis` as one writes it: along the rows, one
/// chain per row; down the columns, each row added to the one before.
fn cumsum_hand(x: &[f32], axis: usize, out: &mut [f32]) {
    if axis == 1 {
        for (row, out) in x.chunks_exact(COLS).zip(out.chunks_exact_mut(COLS)) {
            let mut acc = 0.0;
            for (o, &v) in out.iter_mut().zip(row) {
                acc += v;
                *o = acc;
            }
        }
    } else {
        out[..COLS].copy_from_slice(&x[..COLS]);
        for i in 1..ROWS {
            for j in 0..COLS {
                out[i * COLS + j] = out[(i - 1) * COLS + j] + x[i * COLS + j];
            }
        }
    }
}

fn print_row(case: &str, t: &[f64]) {
    println!(
        "{:<26} {:>11.4} {:>11.4} {:>11.4}  {:>8.2}x {:>8.2}x",
        case,
        t[0],
        t[1],
        t[2],
        t[1] / t[0],
        t[2] / t[0]
    );
}

fn assert_close(actual: &[f32], expected: &[f32]) {
    for (k, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            (a - e).abs() <= 1e-5 * (1.0 + e.abs()),
            "element {k}: {a} != {e}"
        );
    }
}

/// One softmax row of the table: `tensor_expr` (which writes into the output
/// it is given), checked against the hand loop, then timed against it and
/// ndarray.
fn softmax_row(case: &str, x: &Matrix, x_nd: &Array2<f32>, te: &mut dyn FnMut(&mut Matrix)) {
    let (mut out, mut hand) = (Matrix::zeros(), Matrix::zeros());
    softmax_hand(x.as_slice(), hand.as_mut_slice());
    te(&mut out);
    assert_close(out.as_slice(), hand.as_slice());
    assert_close(softmax_ndarray(x_nd).as_slice().unwrap(), hand.as_slice());
    let times = compare(
        ROWS * COLS,
        20,
        &mut [
            &mut || {
                te(black_box(&mut out));
                black_box(&mut out);
            },
            &mut || {
                softmax_hand(black_box(x.as_slice()), hand.as_mut_slice());
                black_box(&mut hand);
            },
            &mut || {
                black_box(softmax_ndarray(black_box(x_nd)));
            },
        ],
    );
    print_row(case, &times);
}

/// Two passes per row: the max, then `exp(x - max)` written and summed; then a scale.
fn softmax_hand(x: &[f32], out: &mut [f32]) {
    for (row, out) in x.chunks_exact(COLS).zip(out.chunks_exact_mut(COLS)) {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0;
        for (o, &v) in out.iter_mut().zip(row) {
            let e = (v - max).exp();
            *o = e;
            sum += e;
        }
        let inv = 1.0 / sum;
        for o in out.iter_mut() {
            *o *= inv;
        }
    }
}

fn softmax_ndarray(x: &Array2<f32>) -> Array2<f32> {
    let max = x
        .fold_axis(Axis(1), f32::NEG_INFINITY, |&a, &b| a.max(b))
        .insert_axis(Axis(1));
    let e = (x - &max).mapv(f32::exp);
    let sum = e.sum_axis(Axis(1)).insert_axis(Axis(1));
    e / sum
}

/// Two passes per row for the statistics (mean, then variance), one to write.
fn layer_norm_hand(x: &[f32], gamma: &[f32], beta: &[f32], out: &mut [f32]) {
    for (row, out) in x.chunks_exact(COLS).zip(out.chunks_exact_mut(COLS)) {
        let mean = row.iter().sum::<f32>() / COLS as f32;
        let variance = row.iter().map(|&v| (v - mean) * (v - mean)).sum::<f32>() / COLS as f32;
        let inv_std = 1.0 / (variance + 1e-5).sqrt();
        for (((o, &v), &g), &b) in out.iter_mut().zip(row).zip(gamma).zip(beta) {
            *o = (v - mean) * inv_std * g + b;
        }
    }
}

fn layer_norm_ndarray(x: &Array2<f32>, gamma: &Array1<f32>, beta: &Array1<f32>) -> Array2<f32> {
    let mean = x.mean_axis(Axis(1)).unwrap().insert_axis(Axis(1));
    let centred = x - &mean;
    let variance = centred
        .mapv(|v| v * v)
        .mean_axis(Axis(1))
        .unwrap()
        .insert_axis(Axis(1));
    let std = variance.mapv(|v| (v + 1e-5).sqrt());
    &centred / &std * gamma + beta
}
