//! Small-matrix linear algebra against nalgebra and glam, in the same run:
//! ns per call (median of timed batches) and the ratio of the other's time
//! to tensor-expr's (above 1: tensor-expr is faster).
//!
//! `cargo bench --bench linalg` (and with `RUSTFLAGS="-C target-cpu=native"`).
//!
//! Each call reads its input through `black_box`, so no result is computed
//! once and reused; f32, as games and robotics use.

mod common;

use common::compare;
use nalgebra::SMatrix;
use std::hint::black_box;
use tensor_expr::prelude::*;

fn pseudo(seed: usize) -> f32 {
    let mut z = (seed as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 31;
    ((z >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
}

/// A well-conditioned N x N matrix: random plus N on the diagonal.
fn matrix<const N: usize>() -> Tensor<f32, (D<N>, D<N>)> {
    Tensor::<f32, (D<N>, D<N>)>::from_fn(|[i, j]| {
        pseudo(i * N + j) + if i == j { N as f32 } else { 0.0 }
    })
}

fn print(case: &str, times: &[f64], names: &[&str]) {
    let mut line = format!("{case:<28} {:>9.2}", times[0]);
    for (time, name) in times[1..].iter().zip(&names[1..]) {
        line += &format!("   {name} {time:>7.2} ({:.2}x)", time / times[0]);
    }
    println!("{line}");
}

macro_rules! inverse {
    ($n:literal, $glam:ty) => {{
        let a = matrix::<$n>();
        let na = SMatrix::<f32, $n, $n>::from_row_slice(a.as_slice());
        let g = <$glam>::from_cols_slice(a.as_slice());
        let times = compare(
            1,
            200_000,
            &mut [
                &mut || {
                    black_box(black_box(&a).inv().unwrap());
                },
                &mut || {
                    black_box(black_box(&na).try_inverse().unwrap());
                },
                &mut || {
                    black_box(black_box(&g).inverse());
                },
            ],
        );
        print(
            &format!("inverse {}x{}", $n, $n),
            &times,
            &["te", "nalgebra", "glam"],
        );
    }};
    ($n:literal) => {{
        let a = matrix::<$n>();
        let na = SMatrix::<f32, $n, $n>::from_row_slice(a.as_slice());
        let times = compare(
            1,
            100_000,
            &mut [
                &mut || {
                    black_box(black_box(&a).inv().unwrap());
                },
                &mut || {
                    black_box(black_box(&na).try_inverse().unwrap());
                },
            ],
        );
        print(
            &format!("inverse {}x{}", $n, $n),
            &times,
            &["te", "nalgebra"],
        );
    }};
}

macro_rules! solve_and_cholesky {
    ($n:literal) => {{
        let a = matrix::<$n>();
        let b = Tensor::<f32, (D<$n>,)>::from_flat_fn(|k| pseudo(k + 100));
        let na = SMatrix::<f32, $n, $n>::from_row_slice(a.as_slice());
        let nb = nalgebra::SVector::<f32, $n>::from_row_slice(b.as_slice());
        let times = compare(
            1,
            100_000,
            &mut [
                &mut || {
                    black_box(black_box(&a).solve(black_box(&b)).unwrap());
                },
                &mut || {
                    black_box(black_box(&na).lu().solve(black_box(&nb)).unwrap());
                },
            ],
        );
        print(&format!("solve {}x{}", $n, $n), &times, &["te", "nalgebra"]);
        let spd = Tensor::<f32, (D<$n>, D<$n>)>::from_fn(|[i, j]| {
            let s: f32 = (0..$n).map(|k| a[[i, k]] * a[[j, k]]).sum();
            s
        });
        let nspd = SMatrix::<f32, $n, $n>::from_row_slice(spd.as_slice());
        let times = compare(
            1,
            100_000,
            &mut [
                &mut || {
                    black_box(black_box(&spd).cholesky().unwrap());
                },
                &mut || {
                    black_box(black_box(&nspd).cholesky().unwrap());
                },
            ],
        );
        print(
            &format!("cholesky {}x{}", $n, $n),
            &times,
            &["te", "nalgebra"],
        );
    }};
}

fn main() {
    println!(
        "{:<28} {:>9}   others: ns (their time / tensor-expr's)",
        "case (ns per call)", "te"
    );
    inverse!(2, glam::Mat2);
    inverse!(3, glam::Mat3);
    inverse!(4, glam::Mat4);
    inverse!(6);
    inverse!(8);
    solve_and_cholesky!(2);
    solve_and_cholesky!(3);
    solve_and_cholesky!(4);
    solve_and_cholesky!(6);
}
