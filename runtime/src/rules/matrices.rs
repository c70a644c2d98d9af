//! The matrices rule: an operation on each matrix of a tensor (`tril`,
//! `triu`) reads its last two dims as rows and columns, so the tensor needs
//! at least two dims. NumPy's `tril` of a vector broadcasts it to a square
//! matrix first, which hides mistakes; PyTorch refuses it, and so does this
//! rule.

use super::NeverHolds;
use crate::dim::{Dim, One};
use crate::shape::Shape;

/// The verdict on a shape of rank below 2 where matrices are needed: it
/// implements nothing ([`NeverHolds`]), so the message carrier over it fails.
pub struct NotMatrices;

/// The message carrier for a shape of rank below 2: the verdict
/// [`NotMatrices`] implements nothing, so this always fails, and rustc
/// reports it by this message, once, on the operation. (`Anchor`: see
/// [`Matrices`].)
#[diagnostic::on_unimplemented(
    message = "`tril` and `triu` need at least two dims, and shape `{Operand}` has fewer",
    label = "a triangle of a shape of rank < 2",
    note = "they keep a triangle of each matrix, the last two dims; make a vector a matrix with `reshape` or `in_dims` first"
)]
pub trait MatricesRank<Operand, Anchor = ()> {
    /// Never computed: the verdict fails first.
    type Checked: Matrices;
}

#[diagnostic::do_not_recommend]
impl<Operand, Anchor, Verdict: NeverHolds> MatricesRank<Operand, Anchor> for Verdict {
    type Checked = (One, One);
}

/// A shape of matrices (rank 2 or more): implemented for every rank,
/// failing through [`MatricesRank`] for a scalar and a vector.
///
/// `Anchor` (default `()`, never written) exists for the scalar's impl only,
/// as `Transpose`'s does: with no type parameter its bound would be
/// trivially false, which rustc rejects.
///
/// `Checked` is `Self` where the rule holds; the node is typed through it,
/// so rustc reports a scalar or a vector while it computes that type.
#[diagnostic::on_unimplemented(
    message = "`tril` and `triu` need at least two dims, and shape `{Self}` has fewer",
    label = "a triangle of a shape of rank < 2",
    note = "they keep a triangle of each matrix, the last two dims"
)]
pub trait Matrices<Anchor = ()>: Shape {
    /// `Self`, computed through the rule.
    type Checked: Matrices;
}

#[diagnostic::do_not_recommend]
impl<Anchor> Matrices<Anchor> for ()
where
    NotMatrices: MatricesRank<(), Anchor>,
{
    type Checked = <NotMatrices as MatricesRank<(), Anchor>>::Checked;
}

#[diagnostic::do_not_recommend]
impl<X: Dim> Matrices for (X,)
where
    NotMatrices: MatricesRank<Self>,
{
    type Checked = <NotMatrices as MatricesRank<Self>>::Checked;
}

macro_rules! impl_matrices {
    ($([$($lead:ident)*];)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($lead: Dim,)* Y: Dim, Z: Dim> Matrices for ($($lead,)* Y, Z) {
            type Checked = Self;
        }
    )*};
}

impl_matrices! {
    [];
    [A0];
    [A0 A1];
    [A0 A1 A2];
    [A0 A1 A2 A3];
}
