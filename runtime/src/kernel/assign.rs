//! The in-place constructors: `tensor_expr!(out = e)` and `out += e` (and
//! `-=`, `*=`, `/=`), under PyTorch's in-place rule (the value must not change
//! the target's shape) and the rank rule of the expression's mode.

use super::drive;
use crate::access::Target;
use crate::element::Element;
use crate::expr::map::map2_unchecked;
use crate::expr::{BinaryFunction, Context, Expr, Map2, TargetLeaf};
use crate::rules::in_place::BroadcastInto;
use crate::rules::rank::RankRule;

/// Writes `e` into `target` (`tensor_expr!(out = e)`); `e` must broadcast to the
/// target's shape without changing it.
#[inline]
#[rustfmt::skip]
pub fn assign<T: Element, M, X: Target<Element = T> + ?Sized, E: Expr<T>>(_context: Context<T, M>, target: &mut X, e: E) -> Written<M, X, E> where E::Shape: RankRule<X::Shape, M>, Ranked<M, X, E>: BroadcastInto<X::Shape> {
    drive::<T, X::Shape, E, T>(target.target_slice(), &e);
    Written::<M, X, E>::default()
}

/// Updates `target` to `f(target, e)` in place (`out += e` and friends), under the
/// same in-place rule as [`assign`].
#[inline]
#[rustfmt::skip]
pub fn update<T: Element, M, X: Target<Element = T> + ?Sized, F: BinaryFunction<T>, E: Expr<T>>(_context: Context<T, M>, target: &mut X, _f: F, e: E) -> Written<M, X, E> where E::Shape: RankRule<X::Shape, M>, Ranked<M, X, E>: BroadcastInto<X::Shape> {
    // The in-place bound already guarantees that the target and `e` broadcast.
    let updated: Map2<T, F, TargetLeaf<X::Shape>, E, X::Shape> = map2_unchecked(TargetLeaf::default(), e);
    drive::<T, X::Shape, _, T>(target.target_slice(), &updated);
    Written::<M, X, E>::default()
}

/// The value's shape under mode `M`'s rank rule against the target's.
type Ranked<M, X, E> =
    <<E as crate::expr::Shaped>::Shape as RankRule<<X as Target>::Shape, M>>::Checked;

/// What the in-place constructors return (a tuple of `()`; the macro discards
/// it). Computed by projection so that a failing rule is reported once, by its
/// own message, with no note pointing into the library.
type Written<M, X, E> = <Ranked<M, X, E> as BroadcastInto<<X as Target>::Shape>>::Written;
