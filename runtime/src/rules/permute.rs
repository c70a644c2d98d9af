//! The transpose rule: `transpose(x)` swaps the last two dims of `x`, which
//! must have at least two (PyTorch's `mT`; NumPy's `.T` on a vector is a no-op,
//! which hides mistakes, so a vector is an error here).
//!
//! `permute(x, [..])` is checked by the macro (the list must be a permutation
//! of `0..n`) and by a local trait it writes for the list (`x` must have rank
//! `n`); see `tensor_expr_macros`.

use super::NeverHolds;
use crate::dim::{Dim, One};
use crate::shape::Shape;

/// The verdict on a `permute` list whose length is not the operand's rank, or
/// a `transpose` of an operand of rank below 2: it implements nothing
/// ([`NeverHolds`]), so the message carrier over it fails.
pub struct CannotPermute;

/// The message carrier for a `transpose` of a shape of rank below 2: the
/// verdict [`CannotPermute`] implements nothing, so this always fails, and
/// rustc reports it by this message, once, on `transpose`. (`Anchor`: see
/// [`Transpose`].)
#[diagnostic::on_unimplemented(
    message = "`transpose` needs at least two dims, and shape `{Operand}` has fewer",
    label = "transposing a shape of rank < 2",
    note = "`transpose(x)` swaps the last two dims; a scalar or a vector has nothing to swap (use `in_dims` or `reshape` to make a vector a matrix)"
)]
pub trait TransposeRank<Operand, Anchor = ()> {
    /// Never computed: the verdict fails first.
    type Checked: Transpose;
}

#[diagnostic::do_not_recommend]
impl<Operand, Anchor, Verdict: NeverHolds> TransposeRank<Operand, Anchor> for Verdict {
    type Checked = (One, One);
}

/// A shape and its transpose: implemented for every rank, failing through
/// [`TransposeRank`] for a scalar and a vector.
///
/// `Anchor` (default `()`, never written) exists for the scalar's impl only:
/// with no type parameter its bound would be trivially false, which rustc
/// rejects, and with no impl for `()` the error would gain a note.
///
/// `Checked` is `Self` where the rule holds. The constructor's node is typed
/// through it, so rustc reports a scalar or a vector while it computes that type, by
/// [`TransposeRank`]'s message, with no note; the impl for rank 1 (rather than
/// none) is what makes it so (measured, rustc 1.95).
#[diagnostic::on_unimplemented(
    message = "`transpose` needs at least two dims, and shape `{Self}` has fewer",
    label = "transposing a shape of rank < 2",
    note = "`transpose(x)` swaps the last two dims; a scalar has nothing to swap"
)]
pub trait Transpose<Anchor = ()>: Shape {
    /// `Self`, computed through the rule.
    type Checked: Transpose;
    /// The shape with its last two dims swapped.
    type Transposed: Shape;
    /// The data dim each dim of the transpose reads.
    const PERM: &'static [usize];
}

#[diagnostic::do_not_recommend]
impl<Anchor> Transpose<Anchor> for ()
where
    CannotPermute: TransposeRank<(), Anchor>,
{
    type Checked = <CannotPermute as TransposeRank<(), Anchor>>::Checked;
    type Transposed = ();
    const PERM: &'static [usize] = &[];
}

#[diagnostic::do_not_recommend]
impl<X: Dim> Transpose for (X,)
where
    CannotPermute: TransposeRank<Self>,
{
    type Checked = <CannotPermute as TransposeRank<Self>>::Checked;
    type Transposed = Self;
    const PERM: &'static [usize] = &[0];
}

macro_rules! impl_transpose {
    ($([$($lead:ident)*] => [$($perm:literal)*];)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($lead: Dim,)* Y: Dim, Z: Dim> Transpose for ($($lead,)* Y, Z) {
            type Checked = Self;
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
