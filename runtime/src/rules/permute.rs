//! The transpose rule: `transpose(x)` swaps the last two dims of `x`, which
//! must have at least two (PyTorch's `mT`; NumPy's `.T` on a vector is a no-op,
//! which hides mistakes, so a vector is an error here).
//!
//! `permute(x, [..])` is checked by the macro (the list must be a permutation
//! of `0..n`) and by a local trait it writes for the list (`x` must have rank
//! `n`); see `tensor_expr_macros`.

use crate::dim::Dim;
use crate::shape::Shape;

/// A shape with at least two dims, and its transpose.
#[diagnostic::on_unimplemented(
    message = "`transpose` needs at least two dims, and shape `{Self}` has fewer",
    label = "transposing a shape of rank < 2",
    note = "`transpose(x)` swaps the last two dims; a vector has nothing to swap (use `in_dims` or `reshape` to make it a matrix)"
)]
pub trait Transpose: Shape {
    /// The shape with its last two dims swapped.
    type Transposed: Shape;
    /// The data dim each dim of the transpose reads.
    const PERM: &'static [usize];
}

macro_rules! impl_transpose {
    ($([$($lead:ident)*] => [$($perm:literal)*];)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($lead: Dim,)* Y: Dim, Z: Dim> Transpose for ($($lead,)* Y, Z) {
            type Transposed = ($($lead,)* Z, Y);
            const PERM: &'static [usize] = &[$($perm),*];
        }
    )*};
}

impl_transpose! {
    [] => [1 0];
    [A0] => [0 2 1];
    [A0 A1] => [0 1 3 2];
    [A0 A1 A2] => [0 1 2 4 3];
    [A0 A1 A2 A3] => [0 1 2 3 5 4];
}
