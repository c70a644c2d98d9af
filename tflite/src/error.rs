//! What can go wrong when a model is imported: each error names what was
//! expected and what the model holds, and where (the operator's index in
//! the graph and the tensor's name).

use std::fmt;
use std::path::PathBuf;

/// An import that failed; nothing is written.
#[derive(Debug)]
pub enum Error {
    /// Reading the model or writing the module failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file is not a valid FlatBuffer of TFLite's schema (the
    /// verifier's message: which table or field points where).
    Malformed(flatbuffers::InvalidFlatbuffer),
    /// An operator the importer does not generate code for.
    UnsupportedOperator {
        /// Its index among the graph's operators.
        index: usize,
        /// Its name in TFLite's schema (`CONCATENATION`, `CUSTOM`, ...).
        operator: String,
    },
    /// An operator or tensor of a supported kind, with a parameter the
    /// generated code cannot compute as TFLite Micro does (a float tensor,
    /// a weight zero point, average pooling over padding, ...).
    Unsupported {
        /// Where: `operator 4 (CONV_2D)`, `the model`, ...
        place: String,
        /// What was expected and what the model holds.
        detail: String,
    },
}

/// The operators the importer supports, as TFLite's schema names them.
pub const SUPPORTED: [&str; 13] = [
    "ADD",
    "AVERAGE_POOL_2D",
    "CONV_2D",
    "DEPTHWISE_CONV_2D",
    "DEQUANTIZE",
    "FULLY_CONNECTED",
    "LOGISTIC",
    "MAX_POOL_2D",
    "MUL",
    "QUANTIZE",
    "RESHAPE",
    "SOFTMAX",
    "TANH",
];

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Malformed(error) => write!(f, "not a valid .tflite model: {error}"),
            Error::UnsupportedOperator { index, operator } => write!(
                f,
                "operator {index} is {operator}, which tensor-expr-tflite does not support; \
                 supported: {}",
                SUPPORTED.join(", ")
            ),
            Error::Unsupported { place, detail } => write!(f, "{place}: {detail}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Malformed(error) => Some(error),
            _ => None,
        }
    }
}
