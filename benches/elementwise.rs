//! Elementwise and broadcast benchmarks: `tensor_expr!` against a hand-written
//! loop and ndarray (operator expressions and `Zip`), in the same run and with
//! the same flags. Prints ns/element (median of several timed batches) and ratios.
//!
//! `cargo bench --bench elementwise`, and with
//! `RUSTFLAGS="-C target-cpu=native" cargo bench --bench elementwise` for AVX.

mod common;

use common::compare;
use ndarray::{ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2, Zip};
use std::hint::black_box;
use tensor_expr::prelude::*;

impl Row {
    fn new(case: &'static str, times: Vec<f64>) -> Row {
        Row {
            case,
            tensor_expr: times[0],
            hand: times[1],
            ndarray_ops: times[2],
            ndarray_zip: times[3],
        }
    }
}

/// A contender that writes its result into the buffer it is given.
type Writer<'a> = &'a mut dyn FnMut(&mut [f32]);

/// One row of the table: tensor_expr, the hand loop, ndarray's operators and
/// ndarray's `Zip`, in that order (ndarray's operators allocate their own
/// output), after checking tensor_expr's result against the hand loop's.
fn row(case: &'static str, len: usize, iterations: usize, mut contenders: [Writer<'_>; 4]) -> Row {
    let mut out = vec![0.0f32; len];
    contenders[0](&mut out);
    let expected = out.clone();
    contenders[1](&mut out);
    assert_eq!(
        out, expected,
        "{case}: tensor_expr and the hand loop disagree"
    );
    Row::new(case, times_in_one_buffer(len, iterations, &mut contenders))
}

/// [`compare`] for contenders that each write an output of `len` elements,
/// all into the same buffer. With one buffer each, the buffers' placement
/// relative to the inputs (4K aliasing) moved the leaky relu's 64x1024 ratio
/// by 10% either way: the same code, measured with two buffers swapped.
fn times_in_one_buffer(len: usize, iterations: usize, contenders: &mut [Writer<'_>]) -> Vec<f64> {
    let out = std::cell::RefCell::new(vec![0.0f32; len]);
    let out = &out;
    let mut runs: Vec<Box<dyn FnMut() + '_>> = contenders
        .iter_mut()
        .map(|f| Box::new(move || f(&mut out.borrow_mut())) as Box<dyn FnMut()>)
        .collect();
    let mut runs: Vec<&mut dyn FnMut()> = runs.iter_mut().map(|f| &mut **f as _).collect();
    compare(len, iterations, &mut runs)
}

struct Row {
    case: &'static str,
    tensor_expr: f64,
    hand: f64,
    ndarray_ops: f64,
    ndarray_zip: f64,
}

fn print_table(rows: &[Row]) {
    println!(
        "{:<34} {:>11} {:>11} {:>11} {:>11}  {:>9} {:>9} {:>9}",
        "case (ns/element)",
        "tensor_expr",
        "hand loop",
        "nd ops",
        "nd Zip",
        "hand/te",
        "ops/te",
        "zip/te"
    );
    for r in rows {
        println!(
            "{:<34} {:>11.4} {:>11.4} {:>11.4} {:>11.4}  {:>8.2}x {:>8.2}x {:>8.2}x",
            r.case,
            r.tensor_expr,
            r.hand,
            r.ndarray_ops,
            r.ndarray_zip,
            r.hand / r.tensor_expr,
            r.ndarray_ops / r.tensor_expr,
            r.ndarray_zip / r.tensor_expr
        );
    }
}

fn data(len: usize, seed: f32) -> Vec<f32> {
    (0..len)
        .map(|i| ((i as f32 * 0.37 + seed).sin()) * 4.0)
        .collect()
}

type Matrix<const R: usize, const C: usize> = (tensor_expr::D<R>, tensor_expr::D<C>);

/// `relu(a * alpha + b)` with `b` a row vector, on an `R x C` matrix.
fn relu_axpb<const R: usize, const C: usize>(case: &'static str, iterations: usize) -> Row {
    let (a, b, alpha) = (data(R * C, 0.1), data(C, 0.7), 1.5f32);
    let av = TensorView::<f32, Matrix<R, C>>::try_from_slice(&a).unwrap();
    let bv = TensorView::<f32, (tensor_expr::D<C>,)>::try_from_slice(&b).unwrap();
    let (na, nb) = (
        ArrayView2::from_shape((R, C), &a).unwrap(),
        ArrayView1::from(&b),
    );
    row(
        case,
        R * C,
        iterations,
        [
            &mut |out| {
                let mut o = TensorViewMut::<f32, Matrix<R, C>>::try_from_slice(out).unwrap();
                let (av, bv, alpha) = (black_box(&av), black_box(&bv), black_box(alpha));
                tensor_expr!(o = relu(av * alpha + bv));
                black_box(&mut o);
            },
            &mut |out| {
                let (a, b, alpha) = (black_box(&a[..R * C]), black_box(&b[..C]), black_box(alpha));
                for (out_row, a_row) in out.chunks_exact_mut(C).zip(a.chunks_exact(C)) {
                    for ((o, &x), &y) in out_row.iter_mut().zip(a_row).zip(b) {
                        *o = (x * alpha + y).max(0.0);
                    }
                }
                black_box(out);
            },
            &mut |_| {
                let y =
                    (black_box(&na) * black_box(alpha) + black_box(&nb)).mapv_into(|v| v.max(0.0));
                black_box(y);
            },
            &mut |out| {
                let mut o = ArrayViewMut2::from_shape((R, C), out).unwrap();
                Zip::from(&mut o)
                    .and(black_box(&na))
                    .and_broadcast(black_box(&nb))
                    .for_each(|o, &x, &y| {
                        *o = (x * alpha + y).max(0.0);
                    });
                black_box(&mut o);
            },
        ],
    )
}

/// A leaky relu written with a comparison and `select` (NumPy's `where`):
/// `select(a > 0, a, 0.01 * a)` on an `R x C` matrix.
fn leaky_relu<const R: usize, const C: usize>(case: &'static str, iterations: usize) -> Row {
    let a = data(R * C, 0.3);
    let av = TensorView::<f32, Matrix<R, C>>::try_from_slice(&a).unwrap();
    let na = ArrayView2::from_shape((R, C), &a).unwrap();
    row(
        case,
        R * C,
        iterations,
        [
            &mut |out| {
                let mut o = TensorViewMut::<f32, Matrix<R, C>>::try_from_slice(out).unwrap();
                let av = black_box(&av);
                tensor_expr!(o = select(av > 0, av, 0.01 * av));
                black_box(&mut o);
            },
            &mut |out| {
                let a = black_box(&a[..R * C]);
                for (o, &x) in out.iter_mut().zip(a) {
                    *o = if x > 0.0 { x } else { 0.01 * x };
                }
                black_box(out);
            },
            &mut |_| {
                let y = black_box(&na).mapv(|x| if x > 0.0 { x } else { 0.01 * x });
                black_box(y);
            },
            &mut |out| {
                let mut o = ArrayViewMut2::from_shape((R, C), out).unwrap();
                Zip::from(&mut o).and(black_box(&na)).for_each(|o, &x| {
                    *o = if x > 0.0 { x } else { 0.01 * x };
                });
                black_box(&mut o);
            },
        ],
    )
}

/// `(a + b) * c - d / e` over `N` elements.
fn chain<const N: usize>(case: &'static str, iterations: usize) -> Row {
    type S<const N: usize> = (tensor_expr::D<N>,);
    fn view<const N: usize>(v: &[f32]) -> TensorView<'_, f32, S<N>> {
        TensorView::try_from_slice(v).unwrap()
    }
    let inputs: Vec<Vec<f32>> = (0..5).map(|k| data(N, k as f32 + 0.5)).collect();
    let e_safe: Vec<f32> = inputs[4].iter().map(|v| v.abs() + 1.0).collect();
    let (a, b, c, d, e) = (&inputs[0], &inputs[1], &inputs[2], &inputs[3], &e_safe);
    let (av, bv, cv, dv, ev) = (
        view::<N>(a),
        view::<N>(b),
        view::<N>(c),
        view::<N>(d),
        view::<N>(e),
    );
    let (na, nb, nc, nd, ne) = (
        ArrayView1::from(a),
        ArrayView1::from(b),
        ArrayView1::from(c),
        ArrayView1::from(d),
        ArrayView1::from(e),
    );
    row(
        case,
        N,
        iterations,
        [
            &mut |out| {
                let mut o = TensorViewMut::<f32, S<N>>::try_from_slice(out).unwrap();
                let (av, bv, cv, dv, ev) = black_box((&av, &bv, &cv, &dv, &ev));
                tensor_expr!(o = (av + bv) * cv - dv / ev);
                black_box(&mut o);
            },
            &mut |out| {
                let (a, b, c, d, e) = black_box((&a[..N], &b[..N], &c[..N], &d[..N], &e[..N]));
                let out = &mut out[..N];
                for i in 0..N {
                    out[i] = (a[i] + b[i]) * c[i] - d[i] / e[i];
                }
                black_box(out);
            },
            &mut |_| {
                let (na, nb, nc, nd, ne) = black_box((&na, &nb, &nc, &nd, &ne));
                black_box((na + nb) * nc - nd / ne);
            },
            &mut |out| {
                let mut o = ArrayViewMut1::from(out);
                Zip::from(&mut o)
                    .and(black_box(&na))
                    .and(black_box(&nb))
                    .and(black_box(&nc))
                    .and(black_box(&nd))
                    .and(black_box(&ne))
                    .for_each(|o, &a, &b, &c, &d, &e| *o = (a + b) * c - d / e);
                black_box(&mut o);
            },
        ],
    )
}

/// The outer broadcast `x[n, 1] + z[1, m]`.
fn outer<const N: usize, const M: usize>(case: &'static str, iterations: usize) -> Row {
    type Col<const N: usize> = (tensor_expr::D<N>, tensor_expr::One);
    type RowVector<const M: usize> = (tensor_expr::One, tensor_expr::D<M>);
    let (x, z) = (data(N, 0.3), data(M, 0.9));
    let xv = TensorView::<f32, Col<N>>::try_from_slice(&x).unwrap();
    let zv = TensorView::<f32, RowVector<M>>::try_from_slice(&z).unwrap();
    let (nx, nz) = (
        ArrayView2::from_shape((N, 1), &x).unwrap(),
        ArrayView2::from_shape((1, M), &z).unwrap(),
    );
    row(
        case,
        N * M,
        iterations,
        [
            &mut |out| {
                let mut o = TensorViewMut::<f32, Matrix<N, M>>::try_from_slice(out).unwrap();
                let (xv, zv) = black_box((&xv, &zv));
                tensor_expr!(o = xv + zv);
                black_box(&mut o);
            },
            &mut |out| {
                let (x, z) = black_box((&x[..N], &z[..M]));
                for (out_row, &xi) in out.chunks_exact_mut(M).zip(x) {
                    for (o, &zj) in out_row.iter_mut().zip(z) {
                        *o = xi + zj;
                    }
                }
                black_box(out);
            },
            &mut |_| {
                black_box(black_box(&nx) + black_box(&nz));
            },
            &mut |out| {
                let mut o = ArrayViewMut2::from_shape((N, M), out).unwrap();
                Zip::from(&mut o)
                    .and_broadcast(black_box(&nx))
                    .and_broadcast(black_box(&nz))
                    .for_each(|o, &a, &b| *o = a + b);
                black_box(&mut o);
            },
        ],
    )
}

/// `m + in_dims(v, [1])` against the implicit `m + v`, and `m + in_dims(c, [0])`
/// against the column `m + c[n, 1]`: the same loops, so the ratios should be 1.
fn in_dims_against_implicit<const N: usize>(iterations: usize) {
    let (m, v) = (data(N * N, 0.2), data(N, 0.4));
    let mv = TensorView::<f32, Matrix<N, N>>::try_from_slice(&m).unwrap();
    let vv = TensorView::<f32, (tensor_expr::D<N>,)>::try_from_slice(&v).unwrap();
    let cv = TensorView::<f32, (tensor_expr::D<N>, tensor_expr::One)>::try_from_slice(&v).unwrap();
    for (name, dims_1) in [
        ("rows: in_dims(v, [1]) vs v", true),
        ("columns: in_dims(v, [0]) vs v[n, 1]", false),
    ] {
        let times = times_in_one_buffer(
            N * N,
            iterations,
            &mut [
                &mut |out| {
                    let mut o = TensorViewMut::<f32, Matrix<N, N>>::try_from_slice(out).unwrap();
                    let (mv, vv) = black_box((&mv, &vv));
                    if dims_1 {
                        tensor_expr!(o = mv + in_dims(vv, [1]));
                    } else {
                        tensor_expr!(o = mv + in_dims(vv, [0]));
                    }
                    black_box(&mut o);
                },
                &mut |out| {
                    let mut o = TensorViewMut::<f32, Matrix<N, N>>::try_from_slice(out).unwrap();
                    let (mv, vv, cv) = black_box((&mv, &vv, &cv));
                    if dims_1 {
                        tensor_expr!(o = mv + vv);
                    } else {
                        tensor_expr!(o = mv + cv);
                    }
                    black_box(&mut o);
                },
            ],
        );
        println!(
            "in_dims {name} at {N}x{N}: {:.4} vs {:.4} ns/element, implicit/in_dims = {:.2}x",
            times[0],
            times[1],
            times[1] / times[0]
        );
    }
}

fn main() {
    // `cargo test --benches` passes `--test`: then run briefly, as a smoke test.
    let quick = std::env::args().any(|a| a == "--test");
    let scale = if quick { 1 } else { 10 };
    let rows = [
        relu_axpb::<1024, 1024>("relu(a*alpha+b) 1024x1024", 10 * scale),
        relu_axpb::<64, 64>("relu(a*alpha+b) 64x64", 1000 * scale),
        chain::<1_000_000>("(a+b)*c-d/e 10^6", 10 * scale),
        leaky_relu::<64, 1024>("select(a>0,a,0.01*a) 64x1024", 100 * scale),
        leaky_relu::<1024, 1024>("select(a>0,a,0.01*a) 1024x1024", 10 * scale),
        outer::<1024, 1024>("x[n,1]+z[1,m] 1024x1024", 10 * scale),
    ];
    print_table(&rows);
    println!();
    in_dims_against_implicit::<1024>(10 * scale);
}
