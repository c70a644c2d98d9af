//! `inv(a)`, `det(a)`, `cholesky(a)`, `solve(a, b)` and `cholesky_solve(l,
//! b)` inside `tensor_expr!`: NumPy's `linalg` over a square matrix `[n, n]`
//! or a batch of them `[B, n, n]` (`solve` and `cholesky_solve`: `b` a
//! vector or a matrix, or one vector per matrix of a batch), computed by the methods of
//! [`crate::linalg`] (closed forms up to 4x4, LU with partial pivoting and
//! Cholesky beyond). Each reads whole matrices, so the macro evaluates it
//! first, as a stage of its own, into a `Tensor` on the stack; an
//! expression input is evaluated before it. `inv`, `solve` and `cholesky`
//! can fail (a singular or indefinite matrix): an expression that holds one
//! returns `Result<_, LinalgError>`, so `tensor_expr!(p @ transpose(h) @
//! inv(s))?` reads as the maths does.
//!
//! This module holds their table entries; their constructors, which build
//! `Tensor`s, live with the methods they call, in `linalg::operations` (a
//! layer above the expression nodes).

use super::{Build, Operation, Reads, Signature};

/// How each is written: its inputs, nothing else.
const fn signature(inputs: usize) -> Signature {
    Signature {
        dims_optional: true,
        ..Signature::of(inputs)
    }
}

/// The table entry of an operation built by the function `constructor`.
const fn entry(
    name: &'static str,
    inputs: usize,
    fallible: bool,
    constructor: &'static str,
    summary: &'static str,
    forms: &'static [&'static str],
) -> Operation {
    Operation {
        name,
        signature: signature(inputs),
        reads: Reads::Matrices {
            fallible,
            into_target: false,
        },
        build: Build::Node {
            constructor,
            marker: None,
        },
        elements: "Float",
        summary,
        forms,
    }
}

/// The table entry of `inv(a)`.
pub const INV: Operation = entry(
    "inv",
    1,
    true,
    "crate::linalg::operations::inv",
    "The inverse of a square matrix or of each of a batch (NumPy's `linalg.inv`).",
    &["inv(a)"],
);

/// The table entry of `det(a)`.
pub const DET: Operation = entry(
    "det",
    1,
    false,
    "crate::linalg::operations::det",
    "The determinant of a square matrix or of each of a batch (NumPy's `linalg.det`).",
    &["det(a)"],
);

/// The table entry of `cholesky(a)`.
pub const CHOLESKY: Operation = entry(
    "cholesky",
    1,
    true,
    "crate::linalg::operations::cholesky",
    "The lower Cholesky factor of a symmetric positive-definite matrix or of each of a batch.",
    &["cholesky(a)"],
);

/// The table entry of `solve(a, b)`.
pub const SOLVE: Operation = entry(
    "solve",
    2,
    true,
    "crate::linalg::operations::solve",
    "`x` with `a @ x = b`, `b` a vector or a matrix (NumPy's `linalg.solve`).",
    &["solve(a, b)"],
);

/// The table entry of `cholesky_solve(l, b)`.
pub const CHOLESKY_SOLVE: Operation = entry(
    "cholesky_solve",
    2,
    false,
    "crate::linalg::operations::cholesky_solve",
    "`x` with `l @ transpose(l) @ x = b`, `l` a lower Cholesky factor.",
    &["cholesky_solve(l, b)"],
);
