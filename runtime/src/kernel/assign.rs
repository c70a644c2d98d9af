//! The in-place constructors: `tensor_expr!(out = e)` and `out += e` (and
//! `-=`, `*=`, `/=`), under PyTorch's in-place rule (the value must not change
//! the target's shape) and the rank rule of the expression's mode.

use super::{drive, drive_rows};
#[cfg(feature = "alloc")]
use crate::access::Heap;
use crate::access::{CheckedRows, Placement, Rows, Stack, Target};
use crate::element::Element;
use crate::error::ShapeError;
use crate::expr::map::map2_unchecked;
use crate::expr::{BinaryFunction, Context, Expr, Map2, TargetLeaf};
use crate::rules::in_place::BroadcastInto;
use crate::rules::rank::RankRule;
use crate::shape::Shape;

/// Writes `e` into `target` (`tensor_expr!(out = e)`); `e` must broadcast to the
/// target's shape without changing it. `placement` is the target's and the
/// operands' joined: with run-time rows, the outcome is `()` or, where
/// two of them count rows, the `Result` of their check.
#[inline]
#[rustfmt::skip]
pub fn assign<T: Element, M, X: Target<Element = T> + ?Sized, E: Expr<T>, P: Write>(_context: Context<T, M>, target: &mut X, e: E, placement: P) -> (Written<M, X, E>, P::Outcome) where E::Shape: RankRule<X::Shape, M>, Ranked<M, X, E>: BroadcastInto<X::Shape> {
    let outcome = placement.write::<T, X::Shape, E>(target.target_slice(), &e);
    (Written::<M, X, E>::default(), outcome)
}

/// Updates `target` to `f(target, e)` in place (`out += e` and friends), under the
/// same in-place rule as [`assign`].
#[inline]
#[rustfmt::skip]
pub fn update<T: Element, M, X: Target<Element = T> + ?Sized, F: BinaryFunction<T>, E: Expr<T>, P: Write>(_context: Context<T, M>, target: &mut X, _f: F, e: E, placement: P) -> (Written<M, X, E>, P::Outcome) where E::Shape: RankRule<X::Shape, M>, Ranked<M, X, E>: BroadcastInto<X::Shape> {
    // The in-place bound already guarantees that the target and `e` broadcast.
    let updated: Map2<T, F, TargetLeaf<X::Shape>, E, X::Shape> = map2_unchecked(TargetLeaf::default(), e);
    let outcome = placement.write::<T, X::Shape, _>(target.target_slice(), &updated);
    (Written::<M, X, E>::default(), outcome)
}

/// How an assignment writes, by its joined placement: a static target
/// (the stack or heap) by the nest of its shape; a target of run-time
/// rows chunk by chunk of static rows, all its rows, after the check of
/// every other operand's rows against them where there are some.
pub trait Write: Placement {
    /// `()`, or the `Result` of the rows' check.
    type Outcome;
    /// Writes `e` into `out`, of output shape `O`.
    fn write<T: Element, O: Shape, E: Expr<T>>(self, out: &mut [T], e: &E) -> Self::Outcome;
}

impl Write for Stack {
    type Outcome = ();
    #[inline(always)]
    fn write<T: Element, O: Shape, E: Expr<T>>(self, out: &mut [T], e: &E) {
        drive::<T, O, E, T>(out, e);
    }
}

#[cfg(feature = "alloc")]
impl Write for Heap {
    type Outcome = ();
    #[inline(always)]
    fn write<T: Element, O: Shape, E: Expr<T>>(self, out: &mut [T], e: &E) {
        drive::<T, O, E, T>(out, e);
    }
}

impl Write for Rows {
    type Outcome = ();
    #[inline(always)]
    fn write<T: Element, O: Shape, E: Expr<T>>(self, out: &mut [T], e: &E) {
        drive_rows::<T, O, E, T>(out, e, self.rows);
    }
}

impl Write for CheckedRows {
    type Outcome = Result<(), ShapeError>;
    #[inline(always)]
    fn write<T: Element, O: Shape, E: Expr<T>>(
        self,
        out: &mut [T],
        e: &E,
    ) -> Result<(), ShapeError> {
        drive_rows::<T, O, E, T>(out, e, self.rows?);
        Ok(())
    }
}

/// The value's shape under mode `M`'s rank rule against the target's.
type Ranked<M, X, E> =
    <<E as crate::expr::Shaped>::Shape as RankRule<<X as Target>::Shape, M>>::Checked;

/// What the in-place constructors return (a tuple of `()`; the macro discards
/// it). Computed by projection so that a failing rule is reported once, by its
/// own message, with no note pointing into the library.
type Written<M, X, E> = <Ranked<M, X, E> as BroadcastInto<<X as Target>::Shape>>::Written;
