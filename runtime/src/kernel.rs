//! The loop-nest driver: one pass over the output index space per expression.
//!
//! The output is walked row by row (an odometer over every dim but the last); for
//! each row every leaf re-slices the elements it reads, and the innermost loop runs
//! over the last dim, contiguous for the output. Strides and extents are constants
//! of the monomorphised shapes, so LLVM sees a plain loop with stride-1 loads and
//! splats, which it vectorises like a hand-written one. Nothing is allocated and
//! no intermediate tensor exists.

use crate::element::Element;
use crate::expr::map::map2_unchecked;
use crate::expr::{BinaryFunction, Context, Expr, Map2, Row, TargetLeaf};
use crate::rules::in_place::BroadcastInto;
use crate::rules::rank::RankRule;
use crate::shape::{Shape, MAX_RANK};
use crate::tensor::Tensor;

/// A tensor that can be written by `tensor_expr!(out = ...)`: a [`Tensor`] or a
/// [`TensorViewMut`](crate::TensorViewMut). A `&mut` to either works as a target
/// too: the macro reborrows it with [`Target::as_target`], by auto-deref.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the target of a tensor assignment",
    label = "not a tensor or a mutable tensor view",
    note = "targets are `Tensor` or `TensorViewMut` (or `&mut` to them) with the expression's element type"
)]
pub trait Target {
    /// The element type.
    type Element: Element;
    /// The target's shape.
    type Shape: Shape;
    /// The target's elements in row-major order.
    fn target_slice(&mut self) -> &mut [Self::Element];
    /// Reborrows the target. The macro calls it with method syntax, so a target
    /// that is a `&mut Tensor` parameter needs no `mut` binding (auto-deref).
    #[inline(always)]
    fn as_target(&mut self) -> &mut Self {
        self
    }
}

/// Evaluates `e` into a new tensor of its broadcast shape (`tensor_expr!(e)`).
/// The tensor is zero-filled before the loop writes it (no `unsafe`); where that
/// extra pass matters, write into an existing tensor or view with `out = e`.
#[inline]
pub fn evaluate<T: Element, E: Expr<T>>(e: E) -> Tensor<T, E::Shape> {
    let mut out = Tensor::<T, E::Shape>::zeros();
    drive::<T, E::Shape, E>(out.as_mut_slice(), &e);
    out
}

/// Writes `e` into `target` (`tensor_expr!(out = e)`); `e` must broadcast to the
/// target's shape without changing it. (One-line signatures: rustc quotes them in
/// the note of every in-place error.)
#[inline]
#[rustfmt::skip]
pub fn assign<T: Element, M, X: Target<Element = T> + ?Sized, E: Expr<T>>(_context: Context<T, M>, target: &mut X, e: E) where E::Shape: BroadcastInto<X::Shape> + RankRule<X::Shape, M> {
    drive::<T, X::Shape, E>(target.target_slice(), &e);
}

/// Updates `target` to `f(target, e)` in place (`out += e` and friends), under the
/// same in-place rule as [`assign`].
#[inline]
#[rustfmt::skip]
pub fn update<T: Element, M, X: Target<Element = T> + ?Sized, F: BinaryFunction<T>, E: Expr<T>>(_context: Context<T, M>, target: &mut X, _f: F, e: E) where E::Shape: BroadcastInto<X::Shape> + RankRule<X::Shape, M> {
    // The in-place bound already guarantees that the target and `e` broadcast.
    let updated: Map2<T, F, TargetLeaf<X::Shape>, E, X::Shape> = map2_unchecked(TargetLeaf::default(), e);
    drive::<T, X::Shape, _>(target.target_slice(), &updated);
}

/// Runs the loop nest for output shape `O` over `out` (at least `O::LEN` long).
#[inline(always)]
fn drive<T: Element, O: Shape, E: Expr<T>>(out: &mut [T], e: &E) {
    if O::LEN == 0 {
        return;
    }
    let out = &mut out[..O::LEN];
    let mut outer = [0usize; MAX_RANK];
    for out_row in out.chunks_exact_mut(O::ROW_LEN) {
        let row = e.row::<O>(&outer);
        for (j, slot) in out_row.iter_mut().enumerate() {
            *slot = row.get(j, *slot);
        }
        advance_outer::<O>(&mut outer);
    }
}

/// Steps the odometer over all dims but the last, innermost first.
#[inline(always)]
fn advance_outer<O: Shape>(outer: &mut [usize; MAX_RANK]) {
    let mut k = O::RANK.saturating_sub(1);
    while k > 0 {
        k -= 1;
        outer[k] += 1;
        if outer[k] < O::DIMS[k] {
            return;
        }
        outer[k] = 0;
    }
}
