//! Generates a `tensor-expr` module from an int8 `.tflite` model: one
//! `tensor_expr!` statement per operator inside a
//! `#[tensor_expr::program]`, so the model's shapes are types, each layer
//! is one fused loop nest, and its RAM is a compile-time constant.
//!
//! The module holds:
//! - `pub fn invoke(input: &Tensor<i8, Input>) -> Tensor<i8, Output>`, and
//!   `invoke_in(input, arena)` for a caller's arena;
//! - `pub const ARENA_BYTES: usize`, the arena `invoke_in` takes
//!   (`tensor_expr::Arena<ARENA_BYTES>`);
//! - `Input`, `Output` (the shapes) and an int8 input's and output's scale
//!   and zero point (a float end is quantised or dequantised inside);
//! - a module of constants per layer: the weights as `TensorView`s of the
//!   sidecar file (`include_bytes!`, so they stay in flash), biases and
//!   per-channel requantisation as `static` tensors.
//!
//! It builds without `std` or an allocator. The operators are TFLite's
//! `CONV_2D`, `DEPTHWISE_CONV_2D`, `FULLY_CONNECTED`, `AVERAGE_POOL_2D`,
//! `MAX_POOL_2D`, `ADD`, `MUL`, `RESHAPE`, `SOFTMAX`, `LOGISTIC` and `TANH`
//! over int8 tensors
//! (per-channel weights, fused RELU, RELU6 and RELU_N1_TO_1), and
//! `QUANTIZE` and `DEQUANTIZE` where the model keeps a float input or
//! output (the converter's default), computed as
//! TFLite Micro's kernels compute them; anything else is an [`Error`]
//! naming the operator, its index and what was expected.
//!
//! From a build script, with the model in the crate:
//!
//! ```no_run
//! // build.rs
//! let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("kws.rs");
//! tensor_expr_tflite::generate("models/kws.tflite", &out).unwrap();
//! println!("cargo::rerun-if-changed=models/kws.tflite");
//! ```
//!
//! and in the crate, `mod kws { include!(concat!(env!("OUT_DIR"), "/kws.rs")); }`.
//! From the command line:
//! `cargo run -p tensor-expr-tflite --release -- MODEL.tflite -o OUT.rs`.

mod emit;
mod error;
mod graph;
mod operators;
mod schema;

use std::path::Path;

pub use emit::Module;
pub use error::{Error, SUPPORTED};

/// The module for a model's bytes. `source_name` is named in the module's
/// header; `weights_file` is the sidecar's file name, which the source
/// reads with `include_bytes!` (relative to the source file).
///
/// # Errors
/// A malformed file, an unsupported operator, or a tensor or parameter the
/// generated code cannot compute as TFLite Micro does; see [`Error`].
///
/// ```
/// let error = tensor_expr_tflite::import(b"not a model", "m.tflite", "m.weights").err().unwrap();
/// assert!(error.to_string().starts_with("not a valid .tflite model"));
/// ```
pub fn import(model: &[u8], source_name: &str, weights_file: &str) -> Result<Module, Error> {
    import_with(model, source_name, weights_file, &Options::default())
}

/// What to generate, beyond the defaults.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Stop after this operator (its index in the graph): the program
    /// returns its output instead of the graph's. A reference interpreter
    /// keeps only the graph's outputs, so this is how one layer's output is
    /// compared with it (run the interpreter on the model cut there).
    pub last_operator: Option<usize>,
}

/// [`import`] with [`Options`].
///
/// # Errors
/// Those of [`import`], and a `last_operator` past the graph's end.
pub fn import_with(
    model: &[u8],
    source_name: &str,
    weights_file: &str,
    options: &Options,
) -> Result<Module, Error> {
    let model = schema::model(model).map_err(Error::Malformed)?;
    let graph = graph::Graph::read(model)?;
    emit::module(&graph, source_name, weights_file, options.last_operator)
}

/// Reads the model at `model_path` and writes its module to `out_path`
/// and the weights beside it (`out_path` with the extension `weights`).
/// Nothing is written if the model cannot be imported.
///
/// # Errors
/// [`Error::Io`] if a file cannot be read or written, and every error of
/// [`import`].
pub fn generate(model_path: impl AsRef<Path>, out_path: impl AsRef<Path>) -> Result<(), Error> {
    generate_with(model_path, out_path, &Options::default())
}

/// [`generate`] with [`Options`].
///
/// # Errors
/// Those of [`generate`] and [`import_with`].
pub fn generate_with(
    model_path: impl AsRef<Path>,
    out_path: impl AsRef<Path>,
    options: &Options,
) -> Result<(), Error> {
    let (model_path, out_path) = (model_path.as_ref(), out_path.as_ref());
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| Error::Io { path, source }
    };
    let bytes = std::fs::read(model_path).map_err(io(model_path))?;
    let weights_path = out_path.with_extension("weights");
    let name = |path: &Path| {
        path.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    };
    let module = import_with(&bytes, &name(model_path), &name(&weights_path), options)?;
    std::fs::write(&weights_path, &module.weights).map_err(io(&weights_path))?;
    std::fs::write(out_path, &module.source).map_err(io(out_path))?;
    Ok(())
}
