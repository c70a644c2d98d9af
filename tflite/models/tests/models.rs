//! MLPerf Tiny's four int8 models, generated from their `.tflite` files,
//! against TFLite Micro: every output byte (and every logit before a
//! softmax) over 100 inputs per model (`vectors/reference.py` wrote the
//! references; the inputs are `reference_input`'s, computed as it computes
//! them).

use tensor_expr::prelude::*;
use tensor_expr_tflite_models::{
    activations, anomaly, float_edges, kws, kws_logits, padded_pools, reference_float_input,
    reference_input, resnet, resnet_logits, vww, vww_logits,
};

const COUNT: usize = 100;

/// Runs `invoke` on each input and compares its outputs with the reference
/// file's, input by input.
fn check<I: Shape, O: Shape>(
    name: &str,
    zero_point: i32,
    reference: &[u8],
    invoke: impl Fn(&Tensor<i8, I>) -> Tensor<i8, O>,
) {
    assert_eq!(
        reference.len(),
        COUNT * O::LEN,
        "{name}: the reference's length"
    );
    for k in 0..COUNT {
        let x = reference_input::<I>(k as u64, zero_point);
        let found = invoke(&x);
        let expected: Vec<i8> = reference[k * O::LEN..][..O::LEN]
            .iter()
            .map(|&b| b as i8)
            .collect();
        assert_eq!(found.as_slice(), &expected[..], "{name}: input {k}");
    }
}

#[test]
fn keyword_spotting_matches_tflite_micro() {
    check(
        "kws logits",
        kws::INPUT_ZERO_POINT,
        include_bytes!("../vectors/kws.logits"),
        kws_logits::invoke,
    );
    check(
        "kws",
        kws::INPUT_ZERO_POINT,
        include_bytes!("../vectors/kws.out"),
        kws::invoke,
    );
}

#[test]
fn image_classification_matches_tflite_micro() {
    check(
        "resnet logits",
        resnet::INPUT_ZERO_POINT,
        include_bytes!("../vectors/resnet.logits"),
        resnet_logits::invoke,
    );
    check(
        "resnet",
        resnet::INPUT_ZERO_POINT,
        include_bytes!("../vectors/resnet.out"),
        resnet::invoke,
    );
}

#[test]
fn visual_wake_words_matches_tflite_micro() {
    check(
        "vww logits",
        vww::INPUT_ZERO_POINT,
        include_bytes!("../vectors/vww.logits"),
        vww_logits::invoke,
    );
    check(
        "vww",
        vww::INPUT_ZERO_POINT,
        include_bytes!("../vectors/vww.out"),
        vww::invoke,
    );
}

#[test]
fn anomaly_detection_matches_tflite_micro() {
    check(
        "anomaly",
        anomaly::INPUT_ZERO_POINT,
        include_bytes!("../vectors/anomaly.out"),
        anomaly::invoke,
    );
}

#[test]
fn dense_layers_through_tanh_and_logistic_match_tflite_micro() {
    check(
        "activations",
        activations::INPUT_ZERO_POINT,
        include_bytes!("../vectors/activations.out"),
        activations::invoke,
    );
}

#[test]
fn pools_padded_same_match_tflite_micro() {
    check(
        "padded_pools",
        padded_pools::INPUT_ZERO_POINT,
        include_bytes!("../vectors/padded_pools.out"),
        padded_pools::invoke,
    );
}

/// A model that keeps float input and output: QUANTIZE, an int8 dense
/// layer, DEQUANTIZE; every output's bits against TFLite Micro's.
#[test]
fn float_ends_quantized_and_dequantized_match_tflite_micro() {
    let reference = include_bytes!("../vectors/float_edges.out");
    let len = <float_edges::Output as Shape>::LEN;
    assert_eq!(reference.len(), COUNT * len * 4, "the reference's length");
    for k in 0..COUNT {
        let x = reference_float_input::<float_edges::Input>(k as u64);
        let found: Vec<u32> = float_edges::invoke(&x)
            .as_slice()
            .iter()
            .map(|v| v.to_bits())
            .collect();
        let expected: Vec<u32> = reference[k * len * 4..][..len * 4]
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        assert_eq!(found, expected, "input {k}");
    }
}

/// The arenas against TFLite Micro's activation arenas for the same models
/// (`print_allocations()` of its interpreter).
#[test]
fn arenas_are_at_most_tflite_micros() {
    for (name, ours, tflm) in [
        ("kws", kws::ARENA_BYTES, 16_000),
        ("resnet", resnet::ARENA_BYTES, 49_152),
        ("vww", vww::ARENA_BYTES, 73_728),
        ("anomaly", anomaly::ARENA_BYTES, 768),
    ] {
        println!("{name}: ARENA_BYTES = {ours}, TFLite Micro's {tflm}");
        assert!(ours <= tflm, "{name}: {ours} > {tflm}");
    }
}
