//! MLPerf Tiny's four int8 models, generated from their `.tflite` files,
//! against TFLite Micro: every output byte (and every logit before a
//! softmax) over 100 inputs per model (`vectors/reference.py` wrote the
//! references; the inputs are `reference_input`'s, computed as it computes
//! them), and over the sample inputs of mlcommons/tiny's reference
//! submissions (`vectors/samples.py` wrote them and the references).

use tensor_expr::prelude::*;
use tensor_expr_tflite_models::{
    activations, anomaly, float_edges, kws, kws_logits, padded_pools, reference_float_input,
    reference_input, resnet, resnet_logits, vww, vww_logits,
};

const COUNT: usize = 100;

/// Runs `invoke` on each of the `COUNT` reference inputs and compares its
/// outputs with the reference file's.
fn check<I: Shape, O: Shape>(
    name: &str,
    zero_point: i32,
    reference: &[u8],
    invoke: impl Fn(&Tensor<i8, I>) -> Tensor<i8, O>,
) {
    let inputs = (0..COUNT).map(|k| reference_input::<I>(k as u64, zero_point));
    compare(name, inputs, COUNT, reference, invoke);
}

/// Runs `invoke` on each of the `count` `inputs` and compares its outputs
/// with the reference file's, input by input.
fn compare<I: Shape, O: Shape>(
    name: &str,
    inputs: impl Iterator<Item = Tensor<i8, I>>,
    count: usize,
    reference: &[u8],
    invoke: impl Fn(&Tensor<i8, I>) -> Tensor<i8, O>,
) {
    assert_eq!(
        reference.len(),
        count * O::LEN,
        "{name}: the reference's length"
    );
    let mut compared = 0;
    for (k, (x, expected)) in inputs.zip(reference.chunks_exact(O::LEN)).enumerate() {
        let found = invoke(&x);
        let expected: Vec<i8> = expected.iter().map(|&b| b as i8).collect();
        assert_eq!(found.as_slice(), &expected[..], "{name}: input {k}");
        compared += 1;
    }
    assert_eq!(compared, count, "{name}: inputs compared");
}

/// Runs `invoke` on each sample input of `samples` (int8 bytes, one input
/// after another) and compares its outputs with the reference file's.
fn check_samples<I: Shape, O: Shape>(
    name: &str,
    samples: &[u8],
    reference: &[u8],
    invoke: impl Fn(&Tensor<i8, I>) -> Tensor<i8, O>,
) {
    assert!(
        !samples.is_empty() && samples.len().is_multiple_of(I::LEN),
        "{name}: {} bytes of inputs of {}",
        samples.len(),
        I::LEN
    );
    let count = samples.len() / I::LEN;
    let inputs = samples
        .chunks_exact(I::LEN)
        .map(|x| Tensor::<i8, I>::from_flat_fn(|i| x[i] as i8));
    compare(name, inputs, count, reference, invoke);
}

/// mlcommons/tiny's own sample inputs, as its reference submissions feed
/// them (`vectors/samples.py`): the keyword spotter's MFCC features, the
/// image classifier's image, windows of the anomaly detector's spectrogram.
/// (Its visual wake words samples are one-channel images in the RGB
/// model's arrays: not used.)
#[test]
fn mlcommons_sample_inputs_match_tflite_micro() {
    check_samples(
        "kws samples",
        include_bytes!("../vectors/kws.samples"),
        include_bytes!("../vectors/kws.samples.out"),
        kws::invoke,
    );
    check_samples(
        "resnet samples",
        include_bytes!("../vectors/resnet.samples"),
        include_bytes!("../vectors/resnet.samples.out"),
        resnet::invoke,
    );
    check_samples(
        "anomaly samples",
        include_bytes!("../vectors/anomaly.samples"),
        include_bytes!("../vectors/anomaly.samples.out"),
        anomaly::invoke,
    );
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

/// The tensors' part of the arenas against TFLite Micro's activation
/// arenas for the same models (`print_allocations()` of its interpreter);
/// the whole arenas hold the kernels' scratch too.
#[test]
fn arenas_are_at_most_tflite_micros() {
    for (name, tensors, arena, tflm) in [
        ("kws", kws::TENSOR_BYTES, kws::ARENA_BYTES, 16_000),
        ("resnet", resnet::TENSOR_BYTES, resnet::ARENA_BYTES, 49_152),
        ("vww", vww::TENSOR_BYTES, vww::ARENA_BYTES, 73_728),
        ("anomaly", anomaly::TENSOR_BYTES, anomaly::ARENA_BYTES, 768),
    ] {
        println!(
            "{name}: TENSOR_BYTES = {tensors} (TFLite Micro's activations {tflm}), ARENA_BYTES = {arena}"
        );
        assert!(tensors <= tflm, "{name}: {tensors} > {tflm}");
        assert!(arena >= tensors, "{name}: the arena holds the tensors");
    }
}
