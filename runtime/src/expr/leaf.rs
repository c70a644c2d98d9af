//! Leaves of an expression besides operands (which [`super::strided`] reads):
//! literals, and the assignment target read in place.

use super::context::Context;
use super::{Expr, Flat, Own, Row, Shaped};
use crate::access::Target;
use crate::element::{Element, Float};
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// A value that is the same at every index: a literal.
#[derive(Clone, Copy, Debug)]
struct Splat<T>(T);

impl<T: Copy> Row<T> for Splat<T> {
    #[inline(always)]
    fn get(&self, _j: usize, _current: T) -> T {
        self.0
    }
}

/// An unsuffixed integer literal (`x * 2`): it takes the expression's element type.
/// A value out of the element type's range is rejected when the code is built.
#[derive(Clone, Copy, Debug, Default)]
pub struct IntLiteral<const V: i128>;

/// The compile-time range check of an integer literal against `T`.
struct LiteralInRange<T, const V: i128>(PhantomData<T>);

impl<T: Element, const V: i128> LiteralInRange<T, V> {
    const CHECKED: () = assert!(
        V >= T::LITERAL_MIN && V <= T::LITERAL_MAX,
        "integer literal out of range for the tensor's element type"
    );
}

impl<const V: i128> Shaped for IntLiteral<V> {
    type Shape = ();
}

unsafe impl<T: Element, const V: i128> Expr<T> for IntLiteral<V> {
    /// A literal: no children, no rows of its own.
    type Children = ();
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) {}

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        #[allow(clippy::let_unit_value)]
        let () = LiteralInRange::<T, V>::CHECKED;
        Splat(T::from_int_literal(V))
    }
    const OWN: Own = Own::leaf(Flat::Splat);
    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        self.row::<()>([0; MAX_RANK])
    }
}

/// An unsuffixed float literal (`x * 0.5`): it takes the expression's float type.
#[derive(Clone, Copy, Debug)]
pub struct FloatLiteral(f64);

/// Builds a float literal for an expression over `T`, which must be a float type
/// (reported here, at the literal).
#[inline(always)]
pub fn float_literal<T: Float, M>(_context: Context<T, M>, value: f64) -> FloatLiteral {
    FloatLiteral(value)
}

impl Shaped for FloatLiteral {
    type Shape = ();
}

unsafe impl<T: Element> Expr<T> for FloatLiteral {
    /// A literal: no children, no rows of its own.
    type Children = ();
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) {}

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        Splat(T::from_float_literal(self.0))
    }
    const OWN: Own = Own::leaf(Flat::Splat);
    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        Splat(T::from_float_literal(self.0))
    }
}

/// The assignment target read in place (`acc` in `acc = acc * 0.5 + 1.0`): at each
/// index it yields the target's value there before the write.
#[derive(Clone, Copy, Debug, Default)]
pub struct TargetLeaf<S>(PhantomData<S>);

/// The target leaf for `target`, whose shape it takes. It borrows nothing, so the
/// target can be borrowed mutably for the write that follows.
#[inline]
pub fn target_leaf<X: Target + ?Sized>(_target: &X) -> TargetLeaf<X::Shape> {
    TargetLeaf(PhantomData)
}

impl<S: Shape> Shaped for TargetLeaf<S> {
    type Shape = S;
}

unsafe impl<T: Element, S: Shape> Expr<T> for TargetLeaf<S> {
    /// The target is the output, whose rows the walk counts itself.
    type Children = ();
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) {}

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        Current
    }
    /// The target is the output itself (a chunk of it, for run-time rows,
    /// which the chunk's walk reads by rows).
    const OWN: Own = Own::leaf(Flat::Run(crate::shape::len_unless_run_time(S::DIMS)));
    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        Current
    }
}

/// The row of a [`TargetLeaf`].
struct Current;

impl<T> Row<T> for Current {
    #[inline(always)]
    fn get(&self, _j: usize, current: T) -> T {
        current
    }
}
