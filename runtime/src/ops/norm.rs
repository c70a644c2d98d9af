//! `norm(x, [axes], keepdim)`: the Euclidean (L2) norm `sqrt(sum(x * x))`
//! over the listed axes, every axis without a list (PyTorch's
//! `linalg.vector_norm(x, 2, dim, keepdim)`, NumPy's `linalg.vector_norm`).
//! Like both, it squares without rescaling: in f32 an element beyond about
//! 1.8e19 overflows to `inf`, one below about 1e-23 underflows to 0.
//!
//! Defined by the written-out expression, so it fuses as that form: one pass
//! that squares and sums, the square root once per slice.

use super::{axes_signature, Build, Operation, Reads};

/// The table entry of `norm(x, [axes], keepdim)`.
pub const OPERATION: Operation = Operation {
    name: "norm",
    signature: axes_signature(true, true),
    reads: Reads::AsDefined,
    build: Build::Composite("sqrt(sum(square(x)))"),
    elements: "Float",
    summary: "The Euclidean (L2) norm sqrt(sum(x * x)) over the axes.",
    forms: &["norm(x)", "norm(x, [axes])", "norm(x, [axes], keepdim)"],
};
