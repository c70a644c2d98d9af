//! Matrices of many short rows, as a particle system keeps them
//! (`[10000, 3]` positions and velocities), against hand loops over the
//! flat data in the same run: a drag proportional to each particle's speed
//! (a broadcast row and a broadcast column), the speed itself (a sum over
//! the short axis), a constant acceleration, a rotation by a 3 x 3 matrix
//! and the unit vectors; then an image's per-channel normalisation (rows of
//! 3 channels in a tensor of rank 3 or 4). Prints ns per call and hand
//! time / te time.
//!
//! `cargo bench --bench short_rows`

mod common;

use common::{compare, pseudo};
use std::hint::black_box;
use tensor_expr::prelude::*;

const N: usize = 10_000;

fn report(case: &str, times: &[f64], ours: &[f32], hand: &[f32]) {
    for (a, b) in ours.iter().zip(hand) {
        assert!(
            (a - b).abs() <= 1e-4 * (1.0 + b.abs()),
            "{case}: {a} vs {b}"
        );
    }
    println!(
        "{:<44} {:>9.0} {:>9.0}  {:>6.2}x",
        case,
        times[0] * N as f64,
        times[1] * N as f64,
        times[1] / times[0]
    );
}

/// An image's per-channel normalisation, `(x - mean) * scale` with `mean`
/// and `scale` of 3 channels, against a hand loop over the pixels.
/// (A macro: the rule's broadcast needs the shape known.)
macro_rules! normalise_image {
    ($shape:ty, $case:expr, $iterations:expr) => {{
        type S = $shape;
        let (case, iterations): (&str, usize) = ($case, $iterations);
        let x = HeapTensor::<f32, S>::from_flat_fn(pseudo);
        let mean = Tensor::<f32, Shape![3]>::new([0.485, 0.456, 0.406]);
        let scale = Tensor::<f32, Shape![3]>::new([4.37, 4.46, 4.44]);
        let (mut y, mut hand) = (HeapTensor::<f32, S>::zeros(), vec![0.0f32; S::LEN]);
        let times = compare(
            1,
            iterations,
            &mut [
                &mut || {
                    let (x, mean, scale) = black_box((&x, &mean, &scale));
                    tensor_expr!(y = (x - mean) * scale);
                },
                &mut || {
                    let (x, m, s) = black_box((x.as_slice(), mean.as_slice(), scale.as_slice()));
                    for (o, p) in hand.chunks_exact_mut(3).zip(x.chunks_exact(3)) {
                        for c in 0..3 {
                            o[c] = (p[c] - m[c]) * s[c];
                        }
                    }
                },
            ],
        );
        assert_eq!(y.as_slice(), &hand[..], "{case}");
        println!(
            "{:<44} {:>9.0} {:>9.0}  {:>6.2}x",
            case,
            times[0],
            times[1],
            times[1] / times[0]
        );
    }};
}

fn main() {
    let quick = std::env::args().any(|a| a == "--test");
    let iterations = if quick { 2 } else { 200 };
    println!(
        "{:<44} {:>9} {:>9}  {:>7}",
        "[10000, 3] (ns per call)", "te", "hand", "hand/te"
    );
    let v0 = HeapTensor::<f32, Shape![N, 3]>::from_flat_fn(pseudo);
    let g = Tensor::<f32, Shape![3]>::new([0.0, 0.0, -9.8]);
    let speed = HeapTensor::<f32, Shape![N, 1]>::from_flat_fn(|i| pseudo(i + 7).abs());
    let (dt, c) = (0.01f32, 0.1f32);

    let (mut v, mut hand) = (v0.clone(), v0.as_slice().to_vec());
    let times = compare(
        N,
        iterations,
        &mut [
            &mut || {
                let (g, speed) = black_box((&g, &speed));
                tensor_expr!(v += dt * (g - c * speed * v));
            },
            &mut || {
                let (g, speed) = black_box((g.as_slice(), speed.as_slice()));
                for (p, s) in hand.chunks_exact_mut(3).zip(speed) {
                    for j in 0..3 {
                        p[j] += dt * (g[j] - c * s * p[j]);
                    }
                }
            },
        ],
    );
    report("v += dt * (g - c * speed * v)", &times, v.as_slice(), &hand);

    let (mut s, mut hand) = (HeapTensor::<f32, Shape![N, 1]>::zeros(), vec![0.0f32; N]);
    let times = compare(
        N,
        iterations,
        &mut [
            &mut || {
                let v = black_box(&v0);
                tensor_expr!(s = sqrt(sum(square(v), [1], keepdim)));
            },
            &mut || {
                for (si, p) in hand
                    .iter_mut()
                    .zip(black_box(v0.as_slice()).chunks_exact(3))
                {
                    *si = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                }
            },
        ],
    );
    report(
        "sqrt(sum(square(v), [1], keepdim))",
        &times,
        s.as_slice(),
        &hand,
    );

    let (mut v, mut hand) = (v0.clone(), v0.as_slice().to_vec());
    let times = compare(
        N,
        iterations,
        &mut [
            &mut || {
                let g = black_box(&g);
                tensor_expr!(v += g * dt);
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
    report("v += g * dt", &times, v.as_slice(), &hand);

    let r = Tensor::<f32, Shape![3, 3]>::new([[0.8, -0.6, 0.0], [0.6, 0.8, 0.0], [0.0, 0.0, 1.0]]);
    let (mut q, mut hand) = (
        HeapTensor::<f32, Shape![N, 3]>::zeros(),
        vec![0.0f32; 3 * N],
    );
    let times = compare(
        N,
        iterations,
        &mut [
            &mut || {
                let (v, r) = black_box((&v0, &r));
                tensor_expr!(q = v @ transpose(r));
            },
            &mut || {
                let (v, r) = black_box((v0.as_slice(), r.as_slice()));
                let r: [f32; 9] = r.try_into().unwrap();
                for (o, p) in hand.chunks_exact_mut(3).zip(v.chunks_exact(3)) {
                    for i in 0..3 {
                        o[i] = p[0] * r[i * 3] + p[1] * r[i * 3 + 1] + p[2] * r[i * 3 + 2];
                    }
                }
            },
        ],
    );
    report("v @ transpose(r), r 3 x 3", &times, q.as_slice(), &hand);

    let (mut u, mut hand) = (
        HeapTensor::<f32, Shape![N, 3]>::zeros(),
        vec![0.0f32; 3 * N],
    );
    let times = compare(
        N,
        iterations,
        &mut [
            &mut || {
                let v = black_box(&v0);
                tensor_expr!(u = v / sqrt(sum(square(v), [1], keepdim)));
            },
            &mut || {
                for (o, p) in hand
                    .chunks_exact_mut(3)
                    .zip(black_box(v0.as_slice()).chunks_exact(3))
                {
                    let norm = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                    for j in 0..3 {
                        o[j] = p[j] / norm;
                    }
                }
            },
        ],
    );
    report(
        "v / sqrt(sum(square(v), [1], keepdim))",
        &times,
        u.as_slice(),
        &hand,
    );

    println!();
    println!(
        "{:<44} {:>9} {:>9}  {:>7}",
        "images, rows of 3 channels (ns per call)", "te", "hand", "hand/te"
    );
    normalise_image!(
        Shape![32, 32, 3],
        "(x - mean) * scale [32, 32, 3]",
        iterations * 10
    );
    normalise_image!(
        Shape![224, 224, 3],
        "(x - mean) * scale [224, 224, 3]",
        iterations
    );
    normalise_image!(
        Shape![8, 32, 32, 3],
        "(x - mean) * scale [8, 32, 32, 3]",
        iterations
    );
}
