//! MLPerf Tiny's four int8 models as generated programs: us per inference,
//! one thread, each on input 1 of its vectors (its output checked against
//! TFLite Micro's first), the arena lent (`invoke_in`).
//!
//! `cargo bench -p tensor-expr-tflite-models` prints this library's times
//! alone; `benches/baselines.py` runs it beside LiteRT's XNNPACK (one
//! thread) and TFLite Micro on the same models and inputs, and prints the
//! ratios.

use std::hint::black_box;
use std::time::Instant;

use tensor_expr::prelude::*;
use tensor_expr::Arena;
use tensor_expr_tflite_models::{anomaly, kws, reference_input, resnet, vww};

/// Median us per call of `f` over 21 rounds of `batch` calls.
fn median_us(batch: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..batch {
        f();
    }
    let mut samples: Vec<f64> = (0..21)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batch {
                f();
            }
            start.elapsed().as_secs_f64() * 1e6 / batch as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Times one model after checking its output on the input against the
/// reference's second output (input 1).
macro_rules! bench {
    ($name:literal, $model:ident, $reference:literal, $batch:expr) => {{
        let x = reference_input::<$model::Input>(1, $model::INPUT_ZERO_POINT);
        let reference: &[u8] = include_bytes!($reference);
        let expected: Vec<i8> = reference[<$model::Output as Shape>::LEN..]
            [..<$model::Output as Shape>::LEN]
            .iter()
            .map(|&b| b as i8)
            .collect();
        assert_eq!($model::invoke(&x).as_slice(), &expected[..], "{}", $name);
        let mut arena = Box::new(Arena::<{ $model::ARENA_BYTES }>::new());
        let us = median_us($batch, || {
            black_box($model::invoke_in(black_box(&x), &mut arena));
        });
        println!("{} tensor-expr {us:.1} us per inference", $name);
    }};
}

fn main() {
    bench!("kws", kws, "../vectors/kws.out", 200);
    bench!("resnet", resnet, "../vectors/resnet.out", 50);
    bench!("vww", vww, "../vectors/vww.out", 50);
    bench!("anomaly", anomaly, "../vectors/anomaly.out", 2000);
}
