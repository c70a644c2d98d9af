//! The importer's errors: each names the operator or tensor, what was
//! expected and what the model holds; a malformed file is an error, never a
//! panic. The small models are the TFLite converter's
//! (`tests/models/make_models.py`).

use tensor_expr_tflite::{import, Error};

/// The error importing `bytes`, as text.
fn error(bytes: &[u8]) -> String {
    match import(bytes, "m.tflite", "m.weights") {
        Ok(_) => panic!("the model was imported"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn an_unsupported_operator_is_named_with_its_index_and_the_supported_set() {
    let message = error(include_bytes!("models/concatenation.tflite"));
    assert_eq!(
        message,
        "operator 2 is CONCATENATION, which tensor-expr-tflite does not support; supported: ADD, \
         AVERAGE_POOL_2D, CONV_2D, DEPTHWISE_CONV_2D, DEQUANTIZE, FULLY_CONNECTED, LOGISTIC, \
         MAX_POOL_2D, MUL, QUANTIZE, RESHAPE, SOFTMAX, TANH"
    );
}

#[test]
fn a_float_model_is_refused_naming_the_tensor_and_its_type() {
    let message = error(include_bytes!("models/float.tflite"));
    assert!(
        message.starts_with("the model: the graph's input `"),
        "{message}"
    );
    assert!(
        message.ends_with("` must be INT8, or FLOAT32 read only by a QUANTIZE; it is FLOAT32"),
        "{message}"
    );
}

#[test]
fn a_file_that_is_not_a_model_is_malformed() {
    for bytes in [&b""[..], b"TFL3", b"not a model at all, just text"] {
        let message = error(bytes);
        assert!(
            message.starts_with("not a valid .tflite model: "),
            "{message}"
        );
    }
}

/// Every truncation of a real model, and single-byte changes all through
/// it, give an error or a module: the verifier runs before any read, so no
/// offset in the file can make the importer read out of bounds or panic.
#[test]
fn damaged_models_never_panic() {
    let model = include_bytes!("../models/tflite/kws.tflite");
    let try_import = |bytes: &[u8]| {
        let _ = import(bytes, "m.tflite", "m.weights");
    };
    for len in (0..model.len()).step_by(7) {
        try_import(&model[..len]);
    }
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..2000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut damaged = model.to_vec();
        // The structure is in the file's first and last kilobytes (the
        // weights between are plain bytes): change those more often.
        let position = match state % 3 {
            0 => (state >> 8) as usize % 1024,
            1 => model.len() - 1 - (state >> 8) as usize % 2048,
            _ => (state >> 8) as usize % model.len(),
        };
        damaged[position] = (state >> 40) as u8;
        try_import(&damaged);
    }
}

#[test]
fn a_missing_file_names_its_path() {
    let out = std::env::temp_dir().join("tensor-expr-tflite-missing.rs");
    let error = tensor_expr_tflite::generate("no/such/model.tflite", &out).unwrap_err();
    assert!(matches!(error, Error::Io { .. }));
    assert!(
        error.to_string().starts_with("no/such/model.tflite: "),
        "{error}"
    );
    assert!(!out.exists());
}

/// The command line writes what the library returns, beside each other.
#[test]
fn the_command_line_writes_the_module_and_its_weights() {
    let dir = std::env::temp_dir().join(format!("tensor-expr-tflite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/models/tflite/kws.tflite");
    let out = dir.join("kws.rs");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_tensor-expr-tflite"))
        .args([model, "-o", out.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let expected = import(&std::fs::read(model).unwrap(), "kws.tflite", "kws.weights").unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), expected.source);
    assert_eq!(
        std::fs::read(dir.join("kws.weights")).unwrap(),
        expected.weights
    );
    assert!(expected.source.contains("include_bytes!(\"kws.weights\")"));
    let usage = std::process::Command::new(env!("CARGO_BIN_EXE_tensor-expr-tflite"))
        .arg(model)
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
