//! The `rayon` feature: each expression on one thread (a rayon pool of
//! one) and on all cores (the global pool), in the same run; the product
//! also against matrixmultiply's `threading` feature on as many threads.
//! Prints times, the speed-up over one thread, and the ratio to
//! matrixmultiply.
//!
//! `cargo bench --bench parallel --features rayon`

mod common;

use common::compare;
use std::hint::black_box;
use tensor_expr::prelude::*;

fn data<S: tensor_expr::Shape>(seed: f32) -> HeapTensor<f32, S> {
    HeapTensor::from_flat_fn(|i| ((i as f32 * 0.37 + seed).sin()) * 2.0)
}

/// Prints one case: `times` are ns per element of one thread, all cores,
/// and (where given) matrixmultiply on all cores.
fn report(case: &str, times: &[f64]) {
    let threaded = times
        .get(2)
        .map_or("-".to_string(), |t| format!("{:.2}x", t / times[1]));
    println!(
        "{:<38} {:>10.3} {:>10.3}  {:>8.2}x  {:>10}",
        case,
        times[0],
        times[1],
        times[0] / times[1],
        threaded
    );
}

/// Rows counted at run time (`Shape![Dyn, 1024]`, 1000 of them): split by
/// whole chunks of 64 rows.
fn run_time_rows(one: &rayon::ThreadPool, all: &rayon::ThreadPool, scale: usize) {
    let a = data::<Shape![1000, 1024]>(0.3);
    let a = HeapTensor::<f32, Shape![Dyn, 1024]>::try_from_slice(a.as_slice()).unwrap();
    let b = data::<Shape![1024, 1024]>(0.9);
    let (mut serial, mut split) = (a.clone(), a.clone());
    let run = |pool: &rayon::ThreadPool, out: &mut HeapTensor<f32, Shape![Dyn, 1024]>| {
        pool.install(|| {
            let a = black_box(&a);
            tensor_expr!(out = exp(a) * 2.0).unwrap();
        });
        black_box(out);
    };
    let times = compare(
        1000 * 1024,
        5 * scale,
        &mut [&mut || run(one, &mut serial), &mut || run(all, &mut split)],
    );
    assert_eq!(serial.as_slice(), split.as_slice());
    report("exp(a) * 2 [Dyn = 1000, 1024]", &times);
    let run = |pool: &rayon::ThreadPool, out: &mut HeapTensor<f32, Shape![Dyn, 1024]>| {
        pool.install(|| {
            let (a, b) = black_box((&a, &b));
            tensor_expr!(out = a @ b).unwrap();
        });
        black_box(out);
    };
    let times = compare(
        1000 * 1024,
        scale,
        &mut [&mut || run(one, &mut serial), &mut || run(all, &mut split)],
    );
    assert_eq!(serial.as_slice(), split.as_slice());
    report("a @ b [Dyn = 1000, 1024] @ [1024, 1024]", &times);
}

fn main() {
    let quick = std::env::args().any(|a| a == "--test");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Read once, at matrixmultiply's first product.
    std::env::set_var("MATMUL_NUM_THREADS", cores.to_string());
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let all = rayon::ThreadPoolBuilder::new()
        .num_threads(cores)
        .build()
        .unwrap();
    println!("{cores} cores");
    println!(
        "{:<38} {:>10} {:>10}  {:>9}  {:>10}",
        "case (ns per output element)", "1 thread", "all", "speed-up", "te/mm all"
    );

    macro_rules! product {
        ($m:literal, $k:literal, $n:literal, $iterations:expr) => {{
            let a = data::<Shape![$m, $k]>(0.1);
            let b = data::<Shape![$k, $n]>(0.7);
            let (mut serial, mut split) = (HeapTensor::<f32, Shape![$m, $n]>::zeros(), HeapTensor::zeros());
            let mut theirs = vec![0.0f32; $m * $n];
            let run = |pool: &rayon::ThreadPool, c: &mut HeapTensor<f32, Shape![$m, $n]>| {
                pool.install(|| {
                    let (a, b) = black_box((&a, &b));
                    tensor_expr!(c = a @ b);
                });
                black_box(c);
            };
            let times = compare(
                $m * $n,
                $iterations,
                &mut [
                    &mut || run(&one, &mut serial),
                    &mut || run(&all, &mut split),
                    &mut || {
                        // SAFETY: row-major matrices of the sizes given.
                        unsafe {
                            matrixmultiply::sgemm(
                                $m, $k, $n, 1.0,
                                black_box(a.as_slice()).as_ptr(), $k, 1,
                                b.as_slice().as_ptr(), $n, 1,
                                0.0, theirs.as_mut_ptr(), $n, 1,
                            )
                        };
                        black_box(&mut theirs);
                    },
                ],
            );
            assert_eq!(serial.as_slice(), split.as_slice());
            report(&format!("[{}, {}] @ [{}, {}]", $m, $k, $k, $n), &times);
        }};
    }
    macro_rules! elementwise {
        ($name:literal, $rows:literal, $columns:literal, $iterations:expr, |$a:ident, $b:ident, $out:ident| $($e:tt)*) => {{
            let $a = data::<Shape![$rows, $columns]>(0.1);
            let $b = data::<Shape![$rows, $columns]>(0.7);
            let (mut serial, mut split) = (HeapTensor::<f32, Shape![$rows, $columns]>::zeros(), HeapTensor::zeros());
            let run = |pool: &rayon::ThreadPool, $out: &mut HeapTensor<f32, Shape![$rows, $columns]>| {
                pool.install(|| {
                    let ($a, $b) = black_box((&$a, &$b));
                    $($e)*;
                });
                black_box($out);
            };
            let times = compare($rows * $columns, $iterations, &mut [&mut || run(&one, &mut serial), &mut || run(&all, &mut split)]);
            assert_eq!(serial.as_slice(), split.as_slice());
            report(&format!("{} [{}, {}]", $name, $rows, $columns), &times);
        }};
    }

    let scale = if quick { 1 } else { 10 };
    product!(64, 64, 1024, 20 * scale);
    product!(64, 1024, 64, 20 * scale);
    product!(256, 256, 256, 10 * scale);
    product!(1024, 1024, 1024, scale);
    if !quick {
        product!(2048, 2048, 2048, 1);
    }
    elementwise!("a * 2 + b", 512, 512, 20 * scale, |a, b, out| tensor_expr!(
        out = a * 2.0 + b
    ));
    elementwise!(
        "a * 2 + b",
        1024,
        1024,
        5 * scale,
        |a, b, out| tensor_expr!(out = a * 2.0 + b)
    );
    elementwise!(
        "exp(a) * b",
        1024,
        1024,
        5 * scale,
        |a, b, out| tensor_expr!(out = exp(a) * b)
    );
    run_time_rows(&one, &all, scale);
    if !quick {
        elementwise!("a * 2 + b", 4096, 4096, 1, |a, b, out| tensor_expr!(
            out = a * 2.0 + b
        ));
        elementwise!("exp(a) * b", 4096, 4096, 1, |a, b, out| tensor_expr!(
            out = exp(a) * b
        ));
    }
}
