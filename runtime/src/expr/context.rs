//! The context every node constructor is given: the expression's element type
//! and broadcasting mode, fixed before any node exists, and the witnesses of
//! shapes the macro passes between constructors.

use super::Shaped;
use crate::access::{ElementSource, Target};
use core::marker::PhantomData;

/// What every node constructor is told before any node exists: the element type
/// `T` and the broadcasting mode `M` ([`Numpy`](crate::rules::rank::Numpy) or
/// [`Strict`](crate::rules::rank::Strict)). Knowing `T` up front is what lets each
/// constructor check its own rule once and nothing downstream re-check it.
pub struct Context<T, M>(PhantomData<(T, M)>);

impl<T, M> Clone for Context<T, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, M> Copy for Context<T, M> {}

/// The context of one operation with a reduction operand that dropped its
/// axes: the mode's [`Mode::AfterReduction`], so that a broadcast error there
/// suggests `keepdim`.
///
/// [`Mode::AfterReduction`]: crate::rules::rank::Mode::AfterReduction
#[inline(always)]
pub fn after_reduction<T, M: crate::rules::rank::Mode>(
    _context: Context<T, M>,
) -> Context<T, M::AfterReduction> {
    Context(PhantomData)
}

/// The context of an expression whose element type is that of `operand`.
#[inline(always)]
pub fn context_of<M, X: ElementSource + ?Sized>(_mode: M, _operand: &X) -> Context<X::Element, M> {
    Context(PhantomData)
}

/// The context of an assignment, whose element type is the target's.
#[inline(always)]
pub fn target_context<M, X: Target + ?Sized>(_mode: M, _target: &X) -> Context<X::Element, M> {
    Context(PhantomData)
}

/// The context of an expression of literals only: `T` comes from the use site.
#[inline(always)]
pub fn inferred_context<T, M>(_mode: M) -> Context<T, M> {
    Context(PhantomData)
}

/// The shape of an already built node, as a witness: the other operand of an
/// `in_dims`, and the path so far in a fold's step-by-step checks.
#[inline(always)]
pub fn shape_of<T, M, E: Shaped>(_context: Context<T, M>, _node: &E) -> PhantomData<E::Shape> {
    PhantomData
}

/// The shape of an assignment target, as a witness (used by `in_dims`).
#[inline(always)]
pub fn target_shape<X: Target + ?Sized>(_target: &X) -> PhantomData<X::Shape> {
    PhantomData
}
