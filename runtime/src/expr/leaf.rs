//! Leaves of an expression: tensors and views (read through broadcast strides),
//! scalar variables, literals, and the assignment target read in place.

use super::{Expr, Row};
use crate::element::{Element, Float};
use crate::rules::broadcast::BroadcastStrides;
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// Something that can stand as an operand in `tensor_expr!`: a tensor, a view, an
/// element scalar, or a reference to one of these.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an operand of a tensor expression",
    label = "not a tensor, a tensor view or an element scalar",
    note = "operands are `Tensor`, `TensorView`, `TensorViewMut`, f32/f64/integer scalars, or references to them"
)]
pub trait Operand {
    /// The element type.
    type Element: Element;
    /// The leaf this operand becomes.
    type Leaf<'a>: Expr<Self::Element>
    where
        Self: 'a;
    /// Borrows the operand as a leaf.
    fn leaf(&self) -> Self::Leaf<'_>;
}

impl<X: Operand + ?Sized> Operand for &X {
    type Element = X::Element;
    type Leaf<'a>
        = X::Leaf<'a>
    where
        Self: 'a;
    #[inline]
    fn leaf(&self) -> Self::Leaf<'_> {
        (**self).leaf()
    }
}

impl<X: Operand + ?Sized> Operand for &mut X {
    type Element = X::Element;
    type Leaf<'a>
        = X::Leaf<'a>
    where
        Self: 'a;
    #[inline]
    fn leaf(&self) -> Self::Leaf<'_> {
        (**self).leaf()
    }
}

/// Turns a borrowed operand into its leaf (called by the generated code).
#[inline]
pub fn operand<X: Operand + ?Sized>(x: &X) -> X::Leaf<'_> {
    x.leaf()
}

/// A tensor's elements read through broadcast strides.
#[derive(Clone, Copy, Debug)]
pub struct TensorLeaf<'a, T, S> {
    data: &'a [T],
    shape: PhantomData<S>,
}

impl<'a, T, S: Shape> TensorLeaf<'a, T, S> {
    /// Wraps row-major data of shape `S`. Panics if `data` is shorter than
    /// `S::LEN`: tensors and views guarantee it, so this never fires for them.
    #[inline]
    pub fn new(data: &'a [T]) -> Self {
        TensorLeaf { data: &data[..S::LEN], shape: PhantomData }
    }
}

impl<T: Element, S: Shape> Expr<T> for TensorLeaf<'_, T, S> {
    type Shape = S;
    #[inline(always)]
    fn row<O: Shape>(&self, outer: &[usize; MAX_RANK]) -> impl Row<T> + '_ {
        let strides = BroadcastStrides::<S, O>::STRIDES;
        let mut offset = 0;
        for k in 0..O::RANK.saturating_sub(1) {
            offset += outer[k] * strides[k];
        }
        // Re-slicing to exactly the elements the row touches lets LLVM drop the
        // bounds checks of the inner loop: j < ROW_LEN implies j * INNER < span.
        let span = O::ROW_LEN.saturating_sub(1) * BroadcastStrides::<S, O>::INNER + 1;
        StridedRow::<T, S, O> { row: &self.data[offset..offset + span], shape: PhantomData }
    }
}

/// One row of a [`TensorLeaf`]: contiguous (stride 1) or a splat (stride 0).
struct StridedRow<'a, T, S, O> {
    row: &'a [T],
    shape: PhantomData<(S, O)>,
}

impl<T: Element, S: Shape, O: Shape> Row<T> for StridedRow<'_, T, S, O> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        self.row[j * BroadcastStrides::<S, O>::INNER]
    }
}

/// A value that is the same at every index: a scalar variable or a literal.
#[derive(Clone, Copy, Debug)]
pub struct Splat<T>(T);

impl<T: Copy> Row<T> for Splat<T> {
    #[inline(always)]
    fn get(&self, _j: usize, _current: T) -> T {
        self.0
    }
}

/// A scalar variable of the element type: shape `()`, broadcasts to anything.
#[derive(Clone, Copy, Debug)]
pub struct Scalar<T>(pub T);

impl<T: Element> Expr<T> for Scalar<T> {
    type Shape = ();
    #[inline(always)]
    fn row<O: Shape>(&self, _outer: &[usize; MAX_RANK]) -> impl Row<T> + '_ {
        Splat(self.0)
    }
}

macro_rules! scalar_operands {
    ($($t:ty),*) => {$(
        impl Operand for $t {
            type Element = $t;
            type Leaf<'a> = Scalar<$t>;
            #[inline]
            fn leaf(&self) -> Scalar<$t> { Scalar(*self) }
        }
    )*};
}
scalar_operands!(f32, f64, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

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

impl<T: Element, const V: i128> Expr<T> for IntLiteral<V> {
    type Shape = ();
    #[inline(always)]
    fn row<O: Shape>(&self, _outer: &[usize; MAX_RANK]) -> impl Row<T> + '_ {
        #[allow(clippy::let_unit_value)]
        let () = LiteralInRange::<T, V>::CHECKED;
        Splat(T::from_int_literal(V))
    }
}

/// An unsuffixed float literal (`x * 0.5`): it takes the expression's float type.
#[derive(Clone, Copy, Debug)]
pub struct FloatLiteral(pub f64);

/// Implemented per float type (not `impl<T: Float>`) so that a float literal in
/// an integer expression has no impl at all: one error, see [`crate::expr::map`].
macro_rules! float_literal_expr {
    ($($t:ty),*) => {$(
        impl Expr<$t> for FloatLiteral {
            type Shape = ();
            #[inline(always)]
            fn row<O: Shape>(&self, _outer: &[usize; MAX_RANK]) -> impl Row<$t> + '_ {
                Splat(<$t as Float>::from_float_literal(self.0))
            }
        }
    )*};
}
float_literal_expr!(f32, f64);

/// The assignment target read in place (`acc` in `acc = acc * 0.5 + 1.0`): at each
/// index it yields the target's value there before the write.
#[derive(Clone, Copy, Debug, Default)]
pub struct TargetLeaf<S>(PhantomData<S>);

/// The target leaf for `target`, whose shape it takes. It borrows nothing, so the
/// target can be borrowed mutably for the write that follows.
#[inline]
pub fn target_leaf<T, X: crate::Target<T> + ?Sized>(_target: &X) -> TargetLeaf<X::Shape> {
    TargetLeaf(PhantomData)
}

impl<T: Element, S: Shape> Expr<T> for TargetLeaf<S> {
    type Shape = S;
    #[inline(always)]
    fn row<O: Shape>(&self, _outer: &[usize; MAX_RANK]) -> impl Row<T> + '_ {
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
