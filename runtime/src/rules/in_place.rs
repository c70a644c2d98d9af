//! The PyTorch in-place rule (its broadcasting notes, "In-place semantics"): `out += e` and
//! `out = e` are legal only if broadcasting does not change `out`'s shape.
//!
//! Equivalently: `e`'s shape, right-aligned against `out`'s, has at every position
//! either the same size or 1, and no more dims than `out`. So `(5,3,4,1) += (3,1,1)`
//! is legal; `(1,3,1) += (3,1,7)` is not ("the expanded size of the tensor (1) must
//! match the existing size (7)").

use super::broadcast::BroadcastMismatch;
use super::chain::{chain_pairs, Unchecked};
use super::{for_each_aligned_rank_pair, NeverHolds};
use crate::dim::{Dim, One, D};
use crate::shape::Shape;

/// One aligned pair `(value dim, target dim)` at position `AXIS` (counted from
/// the right) of writing shape `V` into shape `X`, checked after the pairs to
/// its right, whose witness is `W` (see [`super::chain`]). The message carrier:
/// rustc reports a failing pair here, naming both shapes, the position and the
/// sizes, in one error however many pairs clash.
#[diagnostic::on_unimplemented(
    message = "cannot write a value of shape `{V}` into a target of shape `{X}` in place: at dim {AXIS} the sizes `{Self}` differ",
    label = "sizes `{Self}` (value, target) at dim {AXIS} (counted from the right): broadcasting would change the target",
    note = "PyTorch in-place rule: the value must broadcast to the target's shape without changing it"
)]
pub trait WritableAt<V, X, const AXIS: isize, W> {
    /// `()` when this pair and every pair to its right fit.
    type Checked: Default;
}

/// One impl per pair shape that fits (equal dims over any [`Dim`], for
/// shape-generic code; or a `One` value dim): a clashing pair has no impl.
#[diagnostic::do_not_recommend]
impl<V, X, const AXIS: isize, A: Dim> WritableAt<V, X, AXIS, ()> for (A, A) {
    type Checked = ();
}

#[diagnostic::do_not_recommend]
impl<V, X, const AXIS: isize, const N: usize> WritableAt<V, X, AXIS, ()> for (One, D<N>) {
    type Checked = ();
}

/// A `One` value written into every row of a run-time dim.
#[diagnostic::do_not_recommend]
impl<V, X, const AXIS: isize> WritableAt<V, X, AXIS, ()> for (One, crate::dim::RunTime) {
    type Checked = ();
}

/// A pair to the left of a failure: never reported (see [`super::chain`]).
#[diagnostic::do_not_recommend]
impl<V, X, const AXIS: isize, A, B> WritableAt<V, X, AXIS, Unchecked> for (A, B) {
    type Checked = Unchecked;
}

/// The chained form of [`WritableAt`], one trait per number of pairs to the right.
pub mod links {
    use super::WritableAt;
    super::super::chain::define_links!(WritableAt);
}
use links::{Link0, Link1, Link2, Link3, Link4, Link5};

/// What writing shape `V` into shape `X` requires of their ranks: the value may
/// not have more dims than the target.
#[diagnostic::on_unimplemented(
    message = "cannot write a value of shape `{V}` into a target of shape `{X}` in place: the value has more dims",
    label = "broadcasting would add dims to the target's shape `{X}`",
    note = "PyTorch in-place rule: the value must broadcast to the target's shape without changing it"
)]
pub trait TargetRankFits<V, X> {
    /// `()`, when the ranks fit.
    type Written: Default;
}

/// The verdict on a value with more dims than its target; implements nothing.
pub struct ValueHasMoreDims;

#[diagnostic::do_not_recommend]
impl<V, X, R: NeverHolds> TargetRankFits<V, X> for R {
    type Written = ();
}

/// A value shape that broadcasts to `Target` without changing it.
///
/// ```
/// use tensor_expr_runtime::{BroadcastInto, D, One};
/// fn writable<V: BroadcastInto<T>, T: tensor_expr_runtime::Shape>() {}
/// writable::<(D<3>, One, One), (D<5>, D<3>, D<4>, One)>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot write a value of shape `{Self}` into a target of shape `{Target}` in place",
    label = "broadcasting would change the target's shape `{Target}`",
    note = "PyTorch in-place rule: the value must broadcast to the target's shape without changing it"
)]
pub trait BroadcastInto<Target> {
    /// `()`: the in-place constructors return it, so a failure is reported
    /// once, through [`WritableAt`] or [`TargetRankFits`], with no note
    /// pointing into the library.
    type Written: Default;
}

/// A scalar can be written into any shape (blanket, for generic code).
#[diagnostic::do_not_recommend]
impl<S: Shape> BroadcastInto<S> for () {
    type Written = ();
}

macro_rules! impl_broadcast_into {
    ([] [] [$($l:ident)*] $p:tt) => {};
    // The value aligned under the target's trailing dims.
    ([$($a:ident)+] [$($b:ident)+] [$($l:ident)*] [$($p:tt)+]) => {
        impl_broadcast_into!(@emit [$($l)* $($a)* $($b)*] ($($a,)*) ($($l,)* $($b,)*) [$(($a, $b, $p))*]);
        impl_broadcast_into!(@longer [$($a)+] [$($b)+] [$($l)*]);
    };
    (@emit [$($g:ident)*] $value:tt $target:tt $pairs:tt) => {
        chain_pairs!(impl_broadcast_into, WritableAt, Checked, [[$($g)*] $value $target []] $pairs);
    };
    (@emit_chained [$($g:ident)*] $value:tt $target:tt [] [$($bounds:tt)*] [$($checked:tt)*]) => {
        #[diagnostic::do_not_recommend]
        impl<$($g: Dim,)*> BroadcastInto<$target> for $value
        where $($bounds)*
        {
            type Written = ($($checked)*);
        }
    };
    // The value longer than the target: never writable.
    (@longer [$($a:ident)+] [$($b:ident)+] []) => {};
    (@longer [$($a:ident)+] [$($b:ident)+] [$($l:ident)+]) => {
        #[diagnostic::do_not_recommend]
        impl<$($l: Dim,)* $($a: Dim,)* $($b: Dim,)*> BroadcastInto<($($b,)*)> for ($($l,)* $($a,)*)
        where ValueHasMoreDims: TargetRankFits<Self, ($($b,)*)>
        {
            type Written = <ValueHasMoreDims as TargetRankFits<Self, ($($b,)*)>>::Written;
        }
    };
}
for_each_aligned_rank_pair!(impl_broadcast_into);

/// The reference rule over plain sizes: `Ok` if a `value` shape can be written
/// into a `target` shape in place, else the position that would change, counted
/// from the right as PyTorch reports it ("... at non-singleton dimension 2").
///
/// ```
/// use tensor_expr_runtime::rules::in_place::check_in_place;
/// assert!(check_in_place(&[3, 1, 1], &[5, 3, 4, 1]).is_ok());
/// let clash = check_in_place(&[3, 1, 7], &[1, 3, 1]).unwrap_err();
/// assert_eq!((clash.axis, clash.lhs, clash.rhs), (2, 1, 7));
/// ```
pub const fn check_in_place(value: &[usize], target: &[usize]) -> Result<(), BroadcastMismatch> {
    if value.len() > target.len() {
        return Err(BroadcastMismatch {
            axis: 0,
            lhs: 1,
            rhs: value[0],
        });
    }
    let pad = target.len() - value.len();
    let mut k = value.len();
    while k > 0 {
        k -= 1;
        let (t, v) = (target[pad + k], value[k]);
        if v != t && v != 1 {
            return Err(BroadcastMismatch {
                axis: pad + k,
                lhs: t,
                rhs: v,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{check_in_place, BroadcastInto};
    use crate::dim::{One, D};

    /// Compiles only where the type-level rule admits writing `V` into `T`.
    fn writable<V: BroadcastInto<T>, T>() {}

    #[test]
    fn pytorch_examples_agree_with_the_reference_rule() {
        // (5, 3, 4, 1) += (3, 1, 1): legal.
        writable::<(D<3>, One, One), (D<5>, D<3>, D<4>, One)>();
        assert!(check_in_place(&[3, 1, 1], &[5, 3, 4, 1]).is_ok());
        // Same shape, a scalar, a broadcast row.
        writable::<(D<2>, D<3>), (D<2>, D<3>)>();
        writable::<(), (D<2>, D<3>)>();
        writable::<(D<3>,), (D<2>, D<3>)>();
        assert!(check_in_place(&[], &[2, 3]).is_ok());
        assert!(check_in_place(&[3], &[2, 3]).is_ok());
    }

    #[test]
    fn values_that_would_grow_the_target_are_refused() {
        // (1, 3, 1) += (3, 1, 7): the target's 1 (lhs) would become 7 (rhs).
        let error = check_in_place(&[3, 1, 7], &[1, 3, 1]).unwrap_err();
        assert_eq!((error.axis, error.lhs, error.rhs), (2, 1, 7));
        // More dims than the target.
        assert!(check_in_place(&[2, 3], &[3]).is_err());
        // A size that differs.
        assert!(check_in_place(&[4], &[2, 3]).is_err());
    }
}
