//! Small-matrix linear algebra against nalgebra and glam, in the same run:
//! ns per call (median of timed batches) and the ratio of the other's time
//! to tensor-expr's (above 1: tensor-expr is faster).
//!
//! `cargo bench --bench linalg` (and with `RUSTFLAGS="-C target-cpu=native"`).
//!
//! Each call reads its input through `black_box`, so no result is computed
//! once and reused; f32, as games and robotics use. Last, one step of a
//! constant-velocity Kalman filter (state 4, measurement 2), each equation
//! one `tensor_expr!` as the maths reads, against the same in nalgebra, with
//! the heap allocations per step counted: independent steps from a copy of
//! one state, and steps in sequence on one state, as a filter runs.

mod common;

use common::{compare, pseudo};
use nalgebra::SMatrix;
use std::hint::black_box;
use tensor_expr::prelude::*;

/// A well-conditioned N x N matrix: random plus N on the diagonal.
fn matrix<const N: usize>() -> Tensor<f32, (D<N>, D<N>)> {
    Tensor::<f32, (D<N>, D<N>)>::from_fn(|[i, j]: [usize; 2]| {
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
        let spd = Tensor::<f32, (D<$n>, D<$n>)>::from_fn(|[i, j]: [usize; 2]| {
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

/// A 4x4 @ 4x4 product, `tensor_expr!(a @ b)`, against nalgebra's
/// `Matrix4 * Matrix4` and glam's `Mat4 * Mat4`.
fn product_4x4() {
    let a = matrix::<4>();
    let b = Tensor::<f32, Shape![4, 4]>::from_flat_fn(|k| pseudo(k + 40));
    let (na, nb) = (
        SMatrix::<f32, 4, 4>::from_row_slice(a.as_slice()),
        SMatrix::<f32, 4, 4>::from_row_slice(b.as_slice()),
    );
    // glam is column-major: the transposes, multiplied the other way round.
    let (ga, gb) = (
        glam::Mat4::from_cols_slice(a.as_slice()),
        glam::Mat4::from_cols_slice(b.as_slice()),
    );
    let te = tensor_expr!(a @ b);
    let g = (gb * ga).to_cols_array();
    for (x, y) in te.as_slice().iter().zip(g) {
        assert!((x - y).abs() <= 1e-5 * (1.0 + y.abs()), "{x} vs {y}");
    }
    let times = compare(
        1,
        200_000,
        &mut [
            &mut || {
                let (a, b) = (black_box(&a), black_box(&b));
                black_box(tensor_expr!(a @ b));
            },
            &mut || {
                black_box(black_box(&na) * black_box(&nb));
            },
            &mut || {
                black_box(*black_box(&gb) * *black_box(&ga));
            },
        ],
    );
    print("product 4x4 @ 4x4", &times, &["te", "nalgebra", "glam"]);
}

/// Counts heap allocations, to report the allocations of a Kalman step.
struct Counting;

static ALLOCATIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: `ptr` came from `alloc` above, with this layout.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The filter's matrices: `F` (constant velocity, step `dt`), `H` (position
/// measured), `Q`, `R`.
struct Model {
    f: Tensor<f32, Shape![4, 4]>,
    h: Tensor<f32, Shape![2, 4]>,
    q: Tensor<f32, Shape![4, 4]>,
    r: Tensor<f32, Shape![2, 2]>,
    eye: Tensor<f32, Shape![4, 4]>,
}

/// A value on a cache line: the benchmark's copies of the filter's state.
/// Natively each copy of `P` is one 64-byte store. Where the copy's stack
/// slot sat 16 bytes off a 32-byte boundary, the step took 53-60 ns
/// against 37-39 at the other positions; on a cache line, 38 at every
/// position. The likely reason (no hardware counters confirm it): the CPU
/// (Zen 5) stores in 32-byte halves, one half then crosses a cache line,
/// and the step's reads of `P` wait for it (PERFORMANCE.md, "Native builds
/// against the default one").
#[repr(C, align(64))]
#[derive(Clone, Copy)]
struct OnLine<T>(T);

/// One predict-and-update step, each equation as it is written on paper.
fn kalman_step(
    m: &Model,
    x: &mut Tensor<f32, Shape![4]>,
    p: &mut Tensor<f32, Shape![4, 4]>,
    z: &Tensor<f32, Shape![2]>,
) {
    let (f, h, q, r, eye) = (&m.f, &m.h, &m.q, &m.r, &m.eye);
    tensor_expr!(x = f @ x);
    tensor_expr!(p = f @ p @ transpose(f) + q);
    let s = tensor_expr!(h @ p @ transpose(h) + r);
    let k = tensor_expr!(p @ transpose(h) @ inv(s)).expect("S is positive definite");
    tensor_expr!(x = x + k @ (z - h @ x));
    tensor_expr!(p = (eye - k @ h) @ p);
}

type NaMatrix<const R: usize, const C: usize> = SMatrix<f32, R, C>;

/// The same step in nalgebra.
fn nalgebra_step(
    (f, h, q, r): (
        &NaMatrix<4, 4>,
        &NaMatrix<2, 4>,
        &NaMatrix<4, 4>,
        &NaMatrix<2, 2>,
    ),
    x: &mut nalgebra::SVector<f32, 4>,
    p: &mut NaMatrix<4, 4>,
    z: &nalgebra::SVector<f32, 2>,
) {
    *x = f * *x;
    *p = f * *p * f.transpose() + q;
    let s = h * *p * h.transpose() + r;
    let k = *p * h.transpose() * s.try_inverse().expect("S is positive definite");
    *x += k * (z - h * *x);
    *p = (NaMatrix::<4, 4>::identity() - k * h) * *p;
}

fn kalman() {
    let dt = 0.1;
    let model = Model {
        f: Tensor::from_fn(|[i, j]: [usize; 2]| {
            if i == j {
                1.0
            } else if j == i + 2 {
                dt
            } else {
                0.0
            }
        }),
        h: Tensor::from_fn(|[i, j]: [usize; 2]| if i == j { 1.0 } else { 0.0 }),
        q: Tensor::from_fn(|[i, j]: [usize; 2]| if i == j { 0.01 } else { 0.0 }),
        r: Tensor::from_fn(|[i, j]: [usize; 2]| if i == j { 0.1 } else { 0.0 }),
        eye: Tensor::eye(),
    };
    let f = NaMatrix::<4, 4>::from_row_slice(model.f.as_slice());
    let h = NaMatrix::<2, 4>::from_row_slice(model.h.as_slice());
    let q = NaMatrix::<4, 4>::from_row_slice(model.q.as_slice());
    let r = NaMatrix::<2, 2>::from_row_slice(model.r.as_slice());
    let measurement = |t: usize| {
        [
            t as f32 * 0.1 + pseudo(t) * 0.3,
            2.0 - t as f32 * 0.05 + pseudo(t + 7) * 0.3,
        ]
    };
    let (mut x, mut p) = (
        Tensor::<f32, Shape![4]>::zeros(),
        Tensor::<f32, Shape![4, 4]>::eye(),
    );
    let (mut nx, mut np) = (
        nalgebra::SVector::<f32, 4>::zeros(),
        NaMatrix::<4, 4>::identity(),
    );
    let before = ALLOCATIONS.load(std::sync::atomic::Ordering::Relaxed);
    for t in 0..1000 {
        let z = Tensor::<f32, Shape![2]>::new(measurement(t));
        kalman_step(&model, &mut x, &mut p, &z);
    }
    let per_step =
        (ALLOCATIONS.load(std::sync::atomic::Ordering::Relaxed) - before) as f64 / 1000.0;
    for t in 0..1000 {
        let [a, b] = measurement(t);
        nalgebra_step(
            (&f, &h, &q, &r),
            &mut nx,
            &mut np,
            &nalgebra::SVector::<f32, 2>::new(a, b),
        );
    }
    for (ours, theirs) in x.as_slice().iter().zip(nx.iter()) {
        assert!(
            (ours - theirs).abs() <= 1e-3 * (1.0 + theirs.abs()),
            "{ours} vs {theirs}"
        );
    }
    let z = Tensor::<f32, Shape![2]>::new(measurement(3));
    let nz = nalgebra::SVector::<f32, 2>::new(z[[0]], z[[1]]);
    let times = compare(
        1,
        20_000,
        &mut [
            &mut || {
                let (mut x, mut p) = (black_box(OnLine(x)), black_box(OnLine(p)));
                kalman_step(black_box(&model), &mut x.0, &mut p.0, black_box(&z));
                black_box((x, p));
            },
            &mut || {
                let (mut x, mut p) = (black_box(OnLine(nx)), black_box(OnLine(np)));
                nalgebra_step((&f, &h, &q, &r), &mut x.0, &mut p.0, black_box(&nz));
                black_box((x, p));
            },
        ],
    );
    print(
        "Kalman step (4 state, 2 meas.)",
        &times,
        &["te", "nalgebra"],
    );
    // The filter as it runs: `x` and `P` updated in place, each step
    // starting from the last one's state, so steps cannot overlap (the
    // latency of a step). Above, each step starts from a copy of the same
    // state: independent steps, which overlap (their throughput).
    let (mut sx, mut sp) = (x, p);
    let (mut snx, mut snp) = (nx, np);
    let times = compare(
        1,
        20_000,
        &mut [
            &mut || {
                kalman_step(black_box(&model), &mut sx, &mut sp, black_box(&z));
            },
            &mut || {
                nalgebra_step((&f, &h, &q, &r), &mut snx, &mut snp, black_box(&nz));
            },
        ],
    );
    black_box((&sx, &sp, &snx, &snp));
    print("Kalman steps in sequence", &times, &["te", "nalgebra"]);
    println!("  tensor-expr heap allocations per step: {per_step}");
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
    product_4x4();
    kalman();
}
