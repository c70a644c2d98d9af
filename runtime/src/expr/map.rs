//! Interior nodes: a function applied to one, two or three sub-expressions.
//!
//! The constructors are what `tensor_expr!` calls, spanned on the operator or the
//! function name, so their bounds are where shape and element errors are reported:
//! the broadcast rule for the operands, the function's element domain, and one
//! element type for all operands.

use super::function::{BinaryFunction, TernaryFunction, UnaryFunction};
use super::{Expr, HasShape, Row};
use crate::element::Element;
use crate::rules::broadcast::Broadcast;
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// `F(a)`, elementwise.
#[derive(Clone, Copy, Debug)]
pub struct Map1<T, F, A> {
    a: A,
    function: PhantomData<(T, F)>,
}

/// `F(a, b)`, elementwise with broadcasting.
#[derive(Clone, Copy, Debug)]
pub struct Map2<T, F, A, B> {
    a: A,
    b: B,
    function: PhantomData<(T, F)>,
}

/// `F(a, b, c)`, elementwise with broadcasting.
#[derive(Clone, Copy, Debug)]
pub struct Map3<T, F, A, B, C> {
    a: A,
    b: B,
    c: C,
    function: PhantomData<(T, F)>,
}

/// Builds `f(a)`; `f` must be defined for the element type.
#[inline(always)]
pub fn map1<T, F, A>(_f: F, a: A) -> Map1<T, F, A>
where
    F: UnaryFunction<T>,
    A: Expr<T> + HasShape,
{
    Map1 { a, function: PhantomData }
}

/// Builds `f(a, b)`; the shapes must broadcast together.
#[inline(always)]
pub fn map2<T, F, A, B>(_f: F, a: A, b: B) -> Map2<T, F, A, B>
where
    F: BinaryFunction<T>,
    A: Expr<T> + HasShape,
    B: Expr<T> + HasShape,
    A::Shape: Broadcast<B::Shape>,
{
    Map2 { a, b, function: PhantomData }
}

/// Builds `f(a, b, c)`; the three shapes must broadcast together.
#[inline(always)]
pub fn map3<T, F, A, B, C>(_f: F, a: A, b: B, c: C) -> Map3<T, F, A, B, C>
where
    F: TernaryFunction<T>,
    A: Expr<T> + HasShape,
    B: Expr<T> + HasShape,
    C: Expr<T> + HasShape,
    A::Shape: Broadcast<B::Shape>,
    <A::Shape as Broadcast<B::Shape>>::Output: Broadcast<C::Shape>,
{
    Map3 { a, b, c, function: PhantomData }
}

/// Builds `F(a, b)` without the broadcast bound, for callers whose own bounds
/// already guarantee the shapes fit (the in-place update).
#[inline(always)]
pub(crate) fn map2_unchecked<T, F, A, B>(a: A, b: B) -> Map2<T, F, A, B> {
    Map2 { a, b, function: PhantomData }
}

impl<T, F, A: HasShape> HasShape for Map1<T, F, A> {
    type Shape = A::Shape;
}

impl<T, F, A: HasShape, B: HasShape> HasShape for Map2<T, F, A, B>
where
    A::Shape: Broadcast<B::Shape>,
{
    type Shape = <A::Shape as Broadcast<B::Shape>>::Output;
}

impl<T, F, A: HasShape, B: HasShape, C: HasShape> HasShape for Map3<T, F, A, B, C>
where
    A::Shape: Broadcast<B::Shape>,
    <A::Shape as Broadcast<B::Shape>>::Output: Broadcast<C::Shape>,
{
    type Shape = <<A::Shape as Broadcast<B::Shape>>::Output as Broadcast<C::Shape>>::Output;
}

impl<T: Element, F: UnaryFunction<T>, A: Expr<T>> Expr<T> for Map1<T, F, A> {
    #[inline(always)]
    fn row<O: Shape>(&self, outer: &[usize; MAX_RANK]) -> impl Row<T> + '_ {
        Row1 { a: self.a.row::<O>(outer), function: PhantomData::<F> }
    }
}

impl<T: Element, F: BinaryFunction<T>, A: Expr<T>, B: Expr<T>> Expr<T> for Map2<T, F, A, B> {
    #[inline(always)]
    fn row<O: Shape>(&self, outer: &[usize; MAX_RANK]) -> impl Row<T> + '_ {
        Row2 { a: self.a.row::<O>(outer), b: self.b.row::<O>(outer), function: PhantomData::<F> }
    }
}

impl<T: Element, F: TernaryFunction<T>, A: Expr<T>, B: Expr<T>, C: Expr<T>> Expr<T> for Map3<T, F, A, B, C> {
    #[inline(always)]
    fn row<O: Shape>(&self, outer: &[usize; MAX_RANK]) -> impl Row<T> + '_ {
        Row3 {
            a: self.a.row::<O>(outer),
            b: self.b.row::<O>(outer),
            c: self.c.row::<O>(outer),
            function: PhantomData::<F>,
        }
    }
}

struct Row1<F, A> {
    a: A,
    function: PhantomData<F>,
}

struct Row2<F, A, B> {
    a: A,
    b: B,
    function: PhantomData<F>,
}

struct Row3<F, A, B, C> {
    a: A,
    b: B,
    c: C,
    function: PhantomData<F>,
}

impl<T: Copy, F: UnaryFunction<T>, A: Row<T>> Row<T> for Row1<F, A> {
    #[inline(always)]
    fn get(&self, j: usize, current: T) -> T {
        F::apply(self.a.get(j, current))
    }
}

impl<T: Copy, F: BinaryFunction<T>, A: Row<T>, B: Row<T>> Row<T> for Row2<F, A, B> {
    #[inline(always)]
    fn get(&self, j: usize, current: T) -> T {
        F::apply(self.a.get(j, current), self.b.get(j, current))
    }
}

impl<T: Copy, F: TernaryFunction<T>, A: Row<T>, B: Row<T>, C: Row<T>> Row<T> for Row3<F, A, B, C> {
    #[inline(always)]
    fn get(&self, j: usize, current: T) -> T {
        F::apply(self.a.get(j, current), self.b.get(j, current), self.c.get(j, current))
    }
}
