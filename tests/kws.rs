//! MLPerf Tiny's int8 keyword spotter (`tests/models/kws.rs`, one
//! `tensor_expr!` statement per TFLite operator) against TFLite Micro:
//! the dense layer's outputs and the softmax's, byte for byte, for 8
//! inputs (`tests/vectors/kws.txt`, from the model of mlcommons/tiny).

#[path = "models/kws.rs"]
mod kws;

use tensor_expr::prelude::*;

#[test]
fn the_keyword_spotter_matches_tflite_micro() {
    let model = kws::Kws::load();
    let count = kws::values("count")[0] as usize;
    let x = kws::values("x");
    let (logits, y) = (kws::values("logits"), kws::values("y"));
    for k in 0..count {
        let input: Vec<i8> = x[k * 490..][..490].iter().map(|&v| v as i8).collect();
        let input = Tensor::<i8, kws::Input>::try_from_slice(&input).unwrap();
        let (found_logits, found) = model.run(&input);
        let expected: Vec<i8> = logits[k * 12..][..12].iter().map(|&v| v as i8).collect();
        assert_eq!(
            found_logits.as_slice(),
            &expected[..],
            "logits of input {k}"
        );
        let expected: Vec<i8> = y[k * 12..][..12].iter().map(|&v| v as i8).collect();
        assert_eq!(found.as_slice(), &expected[..], "outputs of input {k}");
    }
}

/// The model as a program (`kws::kws`): the same bytes as the statements
/// run separately, its tensors in 16,000 B of its arena (TFLite Micro's
/// activation arena), the rest the kernels' scratch; the whole arena at
/// most TFLite Micro's whole arena for the model, 24,272 B
/// (`print_allocations()`: 16,000 B of activations, 8,272 of per-operator
/// data).
#[test]
fn the_keyword_spotter_as_a_program_matches_the_statements() {
    const _: () = assert!(kws::KWS_TENSOR_BYTES <= 16_000);
    const _: () = assert!(kws::KWS_ARENA_BYTES <= 24_272);
    let model = kws::Kws::load();
    let x = kws::values("x");
    for k in 0..kws::values("count")[0] as usize {
        let input: Vec<i8> = x[k * 490..][..490].iter().map(|&v| v as i8).collect();
        let input = Tensor::<i8, kws::Input>::try_from_slice(&input).unwrap();
        let (logits, y) = model.run(&input);
        let (planned_logits, planned_y) = kws::kws(&input, &model);
        assert_eq!(
            planned_logits.as_slice(),
            logits.as_slice(),
            "logits of input {k}"
        );
        assert_eq!(planned_y.as_slice(), y.as_slice(), "outputs of input {k}");
    }
    println!(
        "KWS_ARENA_BYTES = {} (tensors {})",
        kws::KWS_ARENA_BYTES,
        kws::KWS_TENSOR_BYTES
    );
}
