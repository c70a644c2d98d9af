//! `logsumexp(x, [axes], keepdim)`: `ln(sum(exp(x)))` over the listed axes
//! (every axis without a list), computed as `m + ln(sum(exp(x - m)))` with
//! `m` the maximum, so no `exp` overflows (PyTorch's `logsumexp`, SciPy's
//! `logsumexp`). As in both, an infinite maximum is not subtracted (`m`
//! counts as 0 there): a slice of all `-inf` gives `-inf`, one holding
//! `+inf` gives `+inf`, and a NaN gives NaN.
//!
//! Defined by the written-out expression (`max(x) - max(x) == 0` holds
//! exactly where the maximum is finite), so it fuses and shares as that
//! form. Without `keepdim` the maximum is folded twice, once kept for the
//! shift inside the sum and once dropped for the result: two passes for
//! the maxima and one for the sum.

use super::{axes_signature, Build, Operation, Reads};

/// The table entry of `logsumexp(x, [axes], keepdim)`.
pub const OPERATION: Operation = Operation {
    name: "logsumexp",
    signature: axes_signature(true, true),
    reads: Reads::AsDefined,
    build: Build::Composite(
        "select(max(x) - max(x) == 0, max(x), 0) \
         + ln(sum(exp(x - select(max(x, keepdim) - max(x, keepdim) == 0, max(x, keepdim), 0))))",
    ),
    elements: "Float",
    summary: "ln(sum(exp(x))) over the axes, shifted by the maximum so that no exp overflows.",
    forms: &[
        "logsumexp(x)",
        "logsumexp(x, [axes])",
        "logsumexp(x, [axes], keepdim)",
    ],
};
