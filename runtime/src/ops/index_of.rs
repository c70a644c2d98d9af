//! `argmax(e, [axis])` and `argmin(e, [axis], keepdim)`: the positions of
//! the extremes of `e` along one axis, as `usize` (NumPy's `argmax`; the
//! first position among equal extremes, a NaN counting as the extreme).
//! They give positions rather than values of `e`'s element type, so they
//! stand only around the whole expression: the macro evaluates `e` (a
//! stored operand is read in place) and calls the containers' method of the
//! same name (`containers`), whose axis rule is `rules::axes`.

use super::{Build, Dims, Operation, Reads, Signature};

/// How both are written.
const SIGNATURE: Signature = Signature {
    dims: Dims::SingleAxis,
    keepdim: true,
    ..Signature::of(1)
};

/// The table entry of `argmax(e, [axis])`.
pub const ARGMAX: Operation = Operation {
    name: "argmax",
    signature: SIGNATURE,
    reads: Reads::Positions,
    build: Build::Method("argmax"),
    elements: "Element",
    summary: "The position of the largest element along the axis.",
    forms: &["argmax(e, [axis])", "argmax(e, [axis], keepdim)"],
};

/// The table entry of `argmin(e, [axis])`.
pub const ARGMIN: Operation = Operation {
    name: "argmin",
    signature: SIGNATURE,
    reads: Reads::Positions,
    build: Build::Method("argmin"),
    elements: "Element",
    summary: "The position of the smallest element along the axis.",
    forms: &["argmin(e, [axis])", "argmin(e, [axis], keepdim)"],
};
