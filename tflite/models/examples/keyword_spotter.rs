//! MLPerf Tiny's keyword spotter, generated from its `.tflite` file by this
//! crate's build script (`tensor_expr_tflite::generate`): one inference in
//! a `static` arena of exactly `kws::ARENA_BYTES`, its int8 output read as
//! probabilities with the output's quantisation.
//!
//! `cargo run -p tensor-expr-tflite-models --release --example keyword_spotter`

use std::sync::Mutex;

use tensor_expr::prelude::*;
use tensor_expr::Arena;
use tensor_expr_tflite_models::kws;

/// The model's activations, in one static arena: no stack for tensors.
static ARENA: Mutex<Arena<{ kws::ARENA_BYTES }>> = Mutex::new(Arena::new());

/// The 12 classes of the MLPerf Tiny keyword spotter.
const CLASSES: [&str; 12] = [
    "down", "go", "left", "no", "off", "on", "right", "stop", "up", "yes", "silence", "unknown",
];

fn main() {
    // 49 frames of 10 MFCC features: a made-up ramp, quantised with the
    // model's input scale and zero point.
    let features = Tensor::<f32, kws::Input>::from_flat_fn(|k| (k % 10) as f32 - 4.5);
    let scale = kws::INPUT_SCALE;
    let zero = kws::INPUT_ZERO_POINT as f32;
    let x = tensor_expr!(saturating_cast::<i8>(round_even(features / scale) + zero));
    let y = kws::invoke_in(&x, &mut ARENA.lock().unwrap());
    let (scale, zero) = (kws::OUTPUT_SCALE, kws::OUTPUT_ZERO_POINT as f32);
    let probabilities = tensor_expr!((cast::<f32>(y) - zero) * scale);
    println!("arena: {} bytes (TFLite Micro's: 16,000)", kws::ARENA_BYTES);
    for (class, p) in CLASSES.iter().zip(probabilities.as_slice()) {
        println!("{class:>8} {p:.3}");
    }
}
