//! `log_softmax(x, [axes])`: `x - max - ln(sum(exp(x - max)))` over the
//! listed axes (PyTorch's `log_softmax(x, dim)`, SciPy's `log_softmax`),
//! the logarithm of `softmax` without its rounding: a probability near 0
//! keeps its digits (`ln(softmax)` would give `-inf` below 1e-308 in f64).
//! Like PyTorch, a slice whose logits are all `-inf` gives NaN.
//!
//! Defined by the written-out expression, so it fuses and shares exactly as
//! that form: one pass for the maximum and one for the sum of exponentials
//! (its `ln` is taken once per slice), then the subtraction as the row is
//! stored.

use super::{axes_signature, Build, Operation, Reads};

/// The table entry of `log_softmax(x, [axes])`.
pub const OPERATION: Operation = Operation {
    name: "log_softmax",
    signature: axes_signature(false, false),
    reads: Reads::AsDefined,
    build: Build::Composite(
        "x - max(x, keepdim) - ln(sum(exp(x - max(x, keepdim)), keepdim))",
    ),
    elements: "Float",
    summary: "x - max - ln(sum(exp(x - max))) over the axes: the logarithm of softmax, without its rounding.",
    forms: &["log_softmax(x, [axes])"],
};
