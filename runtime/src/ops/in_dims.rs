//! `in_dims(x, [d0, d1, ..])`: `x`'s dims placed on dims `d0 < d1 < ..` of
//! the other operand of the binary operation it stands in (XLA's
//! `broadcast_dimensions`), read in place. The rule is `rules::in_dims`; the
//! macro checks the list (non-negative, strictly increasing) and writes a
//! local trait that places the operand on the other's shape, so the node is
//! built by that rule. An expression argument is evaluated first, into a
//! tensor of its own.

use super::{Build, Dims, Operation, Reads, Signature};

/// The table entry of `in_dims(x, [..])`.
pub const OPERATION: Operation = Operation {
    name: "in_dims",
    signature: Signature {
        dims: Dims::Positions,
        ..Signature::of(1)
    },
    reads: Reads::Placed,
    build: Build::ByDimsRule,
    elements: "Element",
    summary:
        "The operand placed on the listed dims of the other operand (XLA's broadcast_dimensions).",
    forms: &["in_dims(x, [d0, d1, ...])"],
};
