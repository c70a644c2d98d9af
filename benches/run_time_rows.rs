//! A classifier over a batch whose size is known only at run time: the MLP
//! [N, 784] -> 128 -> 10 written once over `Shape![Dyn, 784]`, against the
//! same expression over a static `Shape![N, 784]` (compiled for each N) and
//! against ndarray (whose products are matrixmultiply's), in the same run.
//! Prints ns per image and static time / run-time time, ndarray time /
//! run-time time. Then a point cloud of a run-time number of points
//! (`[Dyn, 3]`, 10,000 of them) against the static `[10000, 3]` and a hand
//! loop: a constant acceleration and a rotation, ns per call.
//!
//! `cargo bench --bench run_time_rows`

mod common;

use common::{compare, pseudo};
use ndarray::{Array1, Array2};
use std::hint::black_box;
use tensor_expr::prelude::*;

struct Layers {
    w1: HeapTensor<f32, Shape![784, 128]>,
    b1: Tensor<f32, Shape![128]>,
    w2: HeapTensor<f32, Shape![128, 10]>,
    b2: Tensor<f32, Shape![10]>,
}

fn run_time(x: &HeapTensor<f32, Shape![Dyn, 784]>, l: &Layers) -> HeapTensor<f32, Shape![Dyn, 10]> {
    let Layers { w1, b1, w2, b2 } = l;
    tensor_expr!(relu(x @ w1 + b1) @ w2 + b2)
}

fn fixed<const N: usize>(
    x: &HeapTensor<f32, Shape![N, 784]>,
    l: &Layers,
) -> HeapTensor<f32, Shape![N, 10]> {
    let Layers { w1, b1, w2, b2 } = l;
    tensor_expr!(relu(x @ w1 + b1) @ w2 + b2)
}

fn case<const N: usize>(
    l: &Layers,
    nd: &(Array2<f32>, Array1<f32>, Array2<f32>, Array1<f32>),
    iterations: usize,
) {
    let dynamic =
        HeapTensor::<f32, Shape![Dyn, 784]>::from_fn_rows(N, |[i, k]| pseudo(i * 784 + k));
    let fixed_x = HeapTensor::<f32, Shape![N, 784]>::try_from_slice(dynamic.as_slice()).unwrap();
    let nd_x = Array2::from_shape_vec((N, 784), dynamic.as_slice().to_vec()).unwrap();
    let (w1, b1, w2, b2) = nd;
    let mut results = (Vec::new(), Vec::new(), Vec::new());
    let times = compare(
        N,
        iterations,
        &mut [
            &mut || results.0 = run_time(black_box(&dynamic), l).into_vec(),
            &mut || results.1 = fixed(black_box(&fixed_x), l).into_vec(),
            &mut || {
                let hidden = (black_box(&nd_x).dot(w1) + b1).mapv(|v| v.max(0.0));
                results.2 = (hidden.dot(w2) + b2).into_raw_vec_and_offset().0;
            },
        ],
    );
    for (r, s) in [(&results.0, &results.1), (&results.0, &results.2)] {
        for (a, b) in r.iter().zip(s.iter()) {
            assert!(
                (a - b).abs() <= 1e-3 * (1.0 + b.abs()),
                "N = {N}: {a} vs {b}"
            );
        }
    }
    println!(
        "{:<12} {:>10.0} {:>10.0} {:>10.0}  {:>8.2}x {:>8.2}x",
        format!("N = {N}"),
        times[0],
        times[1],
        times[2],
        times[1] / times[0],
        times[2] / times[0]
    );
}

const POINTS: usize = 10_000;

fn points(iterations: usize) {
    let dynamic =
        HeapTensor::<f32, Shape![Dyn, 3]>::from_fn_rows(POINTS, |[i, j]| pseudo(i * 3 + j));
    let fixed_v = HeapTensor::<f32, Shape![POINTS, 3]>::try_from_slice(dynamic.as_slice()).unwrap();
    let g = Tensor::<f32, Shape![3]>::new([0.0, 0.0, -9.8]);
    let r = Tensor::<f32, Shape![3, 3]>::from_flat_fn(|p| pseudo(p + 99));
    let dt = 0.01f32;
    let (mut v, mut w, mut hand) = (
        dynamic.clone(),
        fixed_v.clone(),
        dynamic.as_slice().to_vec(),
    );
    let times = compare(
        POINTS,
        iterations,
        &mut [
            &mut || {
                let g = black_box(&g);
                tensor_expr!(v += g * dt)
            },
            &mut || {
                let g = black_box(&g);
                tensor_expr!(w += g * dt)
            },
            &mut || {
                let g = black_box(g.as_slice());
                for p in hand.chunks_exact_mut(3) {
                    for j in 0..3 {
                        p[j] += g[j] * dt;
                    }
                }
            },
        ],
    );
    close(v.as_slice(), w.as_slice());
    line("v += g * dt", &times, POINTS);
    let (mut scaled, mut fixed_scaled) = (Vec::new(), Vec::new());
    let mut hand = vec![0.0f32; POINTS * 3];
    let times = compare(
        POINTS,
        iterations,
        &mut [
            &mut || {
                let g = black_box(&g);
                scaled = tensor_expr!(dynamic * dt + g).into_vec()
            },
            &mut || {
                let g = black_box(&g);
                fixed_scaled = tensor_expr!(fixed_v * dt + g).into_vec()
            },
            &mut || {
                let g = black_box(g.as_slice());
                for (out, p) in hand
                    .chunks_exact_mut(3)
                    .zip(dynamic.as_slice().chunks_exact(3))
                {
                    for j in 0..3 {
                        out[j] = p[j] * dt + g[j];
                    }
                }
            },
        ],
    );
    close(&scaled, &fixed_scaled);
    close(&scaled, &hand);
    line("v * dt + g (new)", &times, POINTS);
    let (mut turned, mut fixed_turned) = (Vec::new(), Vec::new());
    let mut hand = vec![0.0f32; POINTS * 3];
    let times = compare(
        POINTS,
        iterations,
        &mut [
            &mut || {
                let r = black_box(&r);
                turned = tensor_expr!(dynamic @ transpose(r)).into_vec()
            },
            &mut || {
                let r = black_box(&r);
                fixed_turned = tensor_expr!(fixed_v @ transpose(r)).into_vec()
            },
            &mut || {
                let r = black_box(r.as_slice());
                for (out, p) in hand
                    .chunks_exact_mut(3)
                    .zip(dynamic.as_slice().chunks_exact(3))
                {
                    for j in 0..3 {
                        out[j] = p[0] * r[j * 3] + p[1] * r[j * 3 + 1] + p[2] * r[j * 3 + 2];
                    }
                }
            },
        ],
    );
    close(&turned, &fixed_turned);
    close(&turned, &hand);
    line("v @ transpose(r)", &times, POINTS);
}

/// Checks that two results agree (a chunk of fewer than 64 rows may fuse
/// its multiply-adds where the static nest does not).
fn close(a: &[f32], b: &[f32]) {
    assert_eq!(a.len(), b.len());
    let worst = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max);
    assert!(worst <= 1e-4, "results differ by {worst}");
}

/// One line of the point-cloud table: ns per call, then static / run-time
/// and hand / run-time.
fn line(case: &str, times: &[f64], elements: usize) {
    let calls: Vec<f64> = times.iter().map(|t| t * elements as f64).collect();
    println!(
        "{case:<20} {:>10.0} {:>10.0} {:>10.0}  {:>8.2}x {:>8.2}x",
        calls[0],
        calls[1],
        calls[2],
        calls[1] / calls[0],
        calls[2] / calls[0]
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--test");
    if std::env::args().any(|a| a == "points") {
        return points(if quick { 1 } else { 200 });
    }
    let iterations = if quick { 1 } else { 40 };
    let l = Layers {
        w1: HeapTensor::from_flat_fn(|p| pseudo(p + 7) * 0.1),
        b1: Tensor::from_flat_fn(|j| pseudo(j + 11)),
        w2: HeapTensor::from_flat_fn(|p| pseudo(p + 13) * 0.1),
        b2: Tensor::from_flat_fn(|c| pseudo(c + 17)),
    };
    let nd = (
        Array2::from_shape_vec((784, 128), l.w1.as_slice().to_vec()).unwrap(),
        Array1::from_vec(l.b1.as_slice().to_vec()),
        Array2::from_shape_vec((128, 10), l.w2.as_slice().to_vec()).unwrap(),
        Array1::from_vec(l.b2.as_slice().to_vec()),
    );
    println!(
        "{:<12} {:>10} {:>10} {:>10}  {:>9} {:>9}",
        "ns / image", "Dyn", "static", "ndarray", "static/Dyn", "ndarray/Dyn"
    );
    case::<1>(&l, &nd, iterations * 20);
    case::<7>(&l, &nd, iterations * 5);
    case::<32>(&l, &nd, iterations);
    case::<100>(&l, &nd, iterations);
    println!(
        "\n{:<20} {:>10} {:>10} {:>10}  {:>9} {:>9}",
        "[10000, 3], ns", "Dyn", "static", "hand", "static/Dyn", "hand/Dyn"
    );
    points(iterations * 5);
}
