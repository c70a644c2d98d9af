//! Leaves of an expression: operands (tensors, views and scalar variables, all
//! read through broadcast strides), literals, and the assignment target read in
//! place.

use super::strided::{RowMajor, StridedLeaf};
use super::{Expr, Row, Shaped};
use crate::element::{Element, Float};
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// Something that can stand as an operand over elements `T` in `tensor_expr!`: a
/// `Tensor`, a `HeapTensor`, a `TensorView` or `TensorViewMut`, a static slice
/// (`StridedView`), an element scalar (shape `()`), or a reference to one of
/// these.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an operand of a tensor expression over `{T}`",
    label = "expected a tensor, a view or a `{T}` scalar",
    note = "operands are `Tensor`, `HeapTensor`, `TensorView`, `TensorViewMut` or scalars of the expression's element type, or references to them"
)]
pub trait Operand<T> {
    /// `T`, computed through the element rule
    /// ([`SameElement`](crate::rules::elements::SameElement)): a tensor or view
    /// is an operand of every expression, and one of another element type is
    /// reported while rustc computes this type, once, on the operand. (A
    /// scalar is an operand of its own type only, so that an untyped `0.5`
    /// variable takes the expression's float type.)
    type Element;
    /// The operand's shape (`()` for a scalar).
    type Shape: Shape;
    /// How that shape sits in [`Self::elements`]: [`RowMajor`] for tensors,
    /// views and scalars, a strided layout for a static slice
    /// ([`StridedView`](crate::slice::StridedView)). Its shape is `Shape`.
    type Layout: super::strided::Layout;
    /// Where its data lives, which decides where `tensor_expr!(e)` puts a new
    /// tensor (see [`crate::placement`]).
    type Placement: crate::placement::Placement;
    /// The elements the layout reads, from the first on (for a row-major
    /// layout: all of them, in row-major order).
    fn elements(&self) -> &[Self::Element];
}

/// The element type an operand brings: the first operand of an expression
/// (or its target) sets the expression's.
pub trait ElementSource {
    /// The operand's own element type.
    type Element;
}

impl<X: ElementSource + ?Sized> ElementSource for &X {
    type Element = X::Element;
}

impl<X: ElementSource + ?Sized> ElementSource for &mut X {
    type Element = X::Element;
}

#[diagnostic::do_not_recommend]
impl<T, X: Operand<T> + ?Sized> Operand<T> for &X {
    type Element = X::Element;
    type Shape = X::Shape;
    type Layout = X::Layout;
    type Placement = X::Placement;
    #[inline]
    fn elements(&self) -> &[X::Element] {
        (**self).elements()
    }
}

#[diagnostic::do_not_recommend]
impl<T, X: Operand<T> + ?Sized> Operand<T> for &mut X {
    type Element = X::Element;
    type Shape = X::Shape;
    type Layout = X::Layout;
    type Placement = X::Placement;
    #[inline]
    fn elements(&self) -> &[X::Element] {
        (**self).elements()
    }
}

macro_rules! scalar_operands {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl Operand<$t> for $t {
            type Element = $t;
            type Shape = ();
            type Layout = RowMajor<()>;
            type Placement = crate::placement::Stack;
            #[inline]
            fn elements(&self) -> &[$t] { core::slice::from_ref(self) }
        }
        impl ElementSource for $t {
            type Element = $t;
        }
    )*};
}
crate::element::for_each_element!(scalar_operands);

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
pub fn target_context<M, X: crate::Target + ?Sized>(
    _mode: M,
    _target: &X,
) -> Context<X::Element, M> {
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
pub fn target_shape<X: crate::Target + ?Sized>(_target: &X) -> PhantomData<X::Shape> {
    PhantomData
}

/// Borrows an operand as a leaf over the context's element type `T`. One of
/// another element type is reported here, once, while rustc computes
/// [`Operand::Element`], and the leaf's type is then unknown, so no enclosing
/// node reports it again.
#[inline(always)]
#[rustfmt::skip]
pub fn operand<'a, T, M, X: Operand<T> + ?Sized>(_context: Context<T, M>, x: &'a X) -> StridedLeaf<'a, X::Element, X::Layout> where X::Element: 'a {
    StridedLeaf::new(x.elements())
}

/// An operand's elements read through broadcast strides: its data in
/// row-major order, as shape `S` (a [`StridedLeaf`] of the row-major layout).
pub type TensorLeaf<'a, T, S> = StridedLeaf<'a, T, RowMajor<S>>;

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

impl<T: Element, const V: i128> Expr<T> for IntLiteral<V> {
    #[inline(always)]
    fn row<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        #[allow(clippy::let_unit_value)]
        let () = LiteralInRange::<T, V>::CHECKED;
        Splat(T::from_int_literal(V))
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

impl<T: Element> Expr<T> for FloatLiteral {
    #[inline(always)]
    fn row<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
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
pub fn target_leaf<X: crate::Target + ?Sized>(_target: &X) -> TargetLeaf<X::Shape> {
    TargetLeaf(PhantomData)
}

impl<S: Shape> Shaped for TargetLeaf<S> {
    type Shape = S;
}

impl<T: Element, S: Shape> Expr<T> for TargetLeaf<S> {
    #[inline(always)]
    fn row<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
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
