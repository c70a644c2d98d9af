//! Generates the models' modules into `OUT_DIR` with
//! `tensor_expr_tflite::generate`: the build-script use of the importer.
//! For the three models that end in SOFTMAX, also the model cut before it
//! (`NAME_logits.rs`), whose output the tests compare with TFLite Micro's
//! run of the same cut.

use std::path::Path;

use tensor_expr_tflite::{generate_with, Options};

/// Each model, and the operator before its SOFTMAX (the dense layer).
const MODELS: [(&str, Option<usize>); 7] = [
    ("kws", Some(11)),
    ("resnet", Some(14)),
    ("vww", Some(29)),
    ("anomaly", None),
    ("activations", None),
    ("padded_pools", None),
    ("float_edges", None),
];

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for (name, dense) in MODELS {
        let model = format!("tflite/{name}.tflite");
        println!("cargo::rerun-if-changed={model}");
        let cuts = [(name.to_owned(), None), (format!("{name}_logits"), dense)];
        for (module, last_operator) in cuts {
            if module != name && last_operator.is_none() {
                continue;
            }
            let path = Path::new(&out).join(format!("{module}.rs"));
            if let Err(error) = generate_with(&model, &path, &Options { last_operator }) {
                panic!("{model}: {error}");
            }
        }
    }
}
