//! `softmax(x, [axes])`: `exp(x - max) / sum(exp(x - max))` over the listed
//! axes (PyTorch's `softmax(x, dim)`, SciPy's `softmax(x, axis)`), each
//! slice along them summing to 1. The maximum is subtracted first, so no
//! `exp` overflows for logits far from 0. Like PyTorch, a slice whose
//! logits are all `-inf` gives NaN (0 / 0), and so does a slice holding
//! `+inf`.
//!
//! It is defined by the expression users write, so it is fused, shares its
//! `exp(..)` and stages a product in its input exactly as the written-out
//! form: one pass for the maximum and one that fills the exponentials and
//! their sum, then the division as the row is stored.

use super::{axes_signature, Build, Operation, Reads};

/// The table entry of `softmax(x, [axes])`.
pub const OPERATION: Operation = Operation {
    name: "softmax",
    signature: axes_signature(false, false),
    reads: Reads::AsDefined,
    build: Build::Composite("exp(x - max(x, keepdim)) / sum(exp(x - max(x, keepdim)), keepdim)"),
    elements: "Float",
    summary: "exp(x - max) / sum(exp(x - max)) over the axes: each slice sums to 1.",
    forms: &["softmax(x, [axes])"],
};
