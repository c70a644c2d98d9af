//! `softmax(x, [axes])`: `exp(x - max) / sum(exp(x - max))` over the listed
//! axes (PyTorch's `softmax(x, dim)`, SciPy's `softmax(x, axis)`), each
//! slice along them summing to 1. The maximum is subtracted first, so no
//! `exp` overflows for logits far from 0. Like PyTorch, a slice whose
//! logits are all `-inf` gives NaN, and so does a slice holding `+inf`.
//!
//! The exponentials are multiplied by `1 / sum`, as PyTorch's CPU kernel
//! scales a row: one division per slice, not per element (a division's
//! throughput is a fraction of a multiply's), and each result within about
//! an ulp of the exact quotient.
//!
//! It is defined by the expression users write, so it is fused, shares its
//! `exp(..)` and stages a product in its input exactly as the written-out
//! form: one pass for the maximum and one that fills the exponentials and
//! their sum, then the scaling as the row is stored. A row of 4 to 31
//! elements is filled in chunks of a constant length, which vectorise
//! (the last one overlapping the one before: a few `exp`s computed twice).

use super::{axes_signature, Build, Operation, Reads};

/// The table entry of `softmax(x, [axes])`.
pub const OPERATION: Operation = Operation {
    name: "softmax",
    signature: axes_signature(false, false),
    reads: Reads::AsDefined,
    build: Build::Composite(
        "exp(x - max(x, keepdim)) * (1 / sum(exp(x - max(x, keepdim)), keepdim))",
    ),
    elements: "Float",
    summary: "exp(x - max) / sum(exp(x - max)) over the axes: each slice sums to 1.",
    forms: &["softmax(x, [axes])"],
};
