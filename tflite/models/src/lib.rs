//! MLPerf Tiny's four int8 reference models (mlcommons/tiny, Apache-2.0),
//! each a module that `tensor-expr-tflite` generates from the `.tflite`
//! file in this crate's build script: `invoke`, `invoke_in`,
//! `ARENA_BYTES`, the input's and output's shapes and quantisation; and
//! each classifier cut before its softmax (`NAME_logits`).
//! `tests/models.rs` compares every output byte with TFLite Micro's.
#![no_std]

/// Keyword spotting: the DS-CNN over 49x10 MFCC features, 12 classes.
pub mod kws {
    include!(concat!(env!("OUT_DIR"), "/kws.rs"));
}

/// Image classification: ResNet-8 over 32x32 RGB images, 10 classes.
pub mod resnet {
    include!(concat!(env!("OUT_DIR"), "/resnet.rs"));
}

/// Visual wake words: MobileNetV1 (0.25) over 96x96 RGB images, 2 classes.
pub mod vww {
    include!(concat!(env!("OUT_DIR"), "/vww.rs"));
}

/// The keyword spotter cut before its softmax: the logits.
pub mod kws_logits {
    include!(concat!(env!("OUT_DIR"), "/kws_logits.rs"));
}

/// ResNet-8 cut before its softmax: the logits.
pub mod resnet_logits {
    include!(concat!(env!("OUT_DIR"), "/resnet_logits.rs"));
}

/// The visual wake words model cut before its softmax: the logits.
pub mod vww_logits {
    include!(concat!(env!("OUT_DIR"), "/vww_logits.rs"));
}

/// Anomaly detection: the dense autoencoder over 640 log-mel features.
pub mod anomaly {
    include!(concat!(env!("OUT_DIR"), "/anomaly.rs"));
}

/// Not MLPerf Tiny's: int8 dense layers through TANH and LOGISTIC
/// (`tflite/tests/models/make_models.py`), the importer's activations.
pub mod activations {
    include!(concat!(env!("OUT_DIR"), "/activations.rs"));
}

/// Not MLPerf Tiny's: int8 average and max pools with SAME padding that
/// adds rows and columns (`tflite/tests/models/make_models.py`).
pub mod padded_pools {
    include!(concat!(env!("OUT_DIR"), "/padded_pools.rs"));
}

/// Not MLPerf Tiny's: an int8 dense layer in a model that keeps float
/// input and output, quantised by QUANTIZE and dequantised by DEQUANTIZE
/// (`tflite/tests/models/make_models.py`).
pub mod float_edges {
    include!(concat!(env!("OUT_DIR"), "/float_edges.rs"));
}

use tensor_expr::prelude::*;

/// The draws of splitmix64 from the seed `k`, one per call.
fn splitmix64(k: u64) -> impl FnMut() -> u64 {
    let mut state = k;
    move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Float input `k` of the reference vectors of a model with a float
/// input (`vectors/reference.py` draws them the same way): input 0 is
/// zero everywhere, input `k > 0` the top 24 bits of splitmix64's draws
/// from the seed `k`, as a fraction, scaled to [-4, 4) (every step exact).
pub fn reference_float_input<S: Shape>(k: u64) -> Tensor<f32, S> {
    let mut draw = splitmix64(k);
    Tensor::from_flat_fn(|_| {
        if k == 0 {
            return 0.0;
        }
        (draw() >> 40) as f32 / 16_777_216.0 * 8.0 - 4.0
    })
}

/// Input `k` of the reference vectors (`vectors/reference.py` draws them
/// the same way, so they are not stored): input 0 is `zero_point`
/// everywhere, input `k > 0` the top bytes of splitmix64's draws from the
/// seed `k`, as int8.
pub fn reference_input<S: Shape>(k: u64, zero_point: i32) -> Tensor<i8, S> {
    let mut draw = splitmix64(k);
    Tensor::from_flat_fn(|_| {
        if k == 0 {
            return zero_point as i8;
        }
        (draw() >> 56) as u8 as i8
    })
}
