//! How an expression reads and writes a container: the traits every tensor,
//! view and scalar implements to be an operand ([`Operand`]) or an assignment
//! target ([`Target`]), the layouts an operand's elements are read through
//! ([`Layout`]), and where its data lives ([`Placement`]).
//!
//! This module sits below everything that has elements: the element types, the
//! containers, the expression nodes and the kernel all depend on it and it on
//! none of them (only on [`Shape`]), so a new container or element type
//! implements these traits without touching the machinery that reads them.

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
    type Layout: Layout;
    /// Where its data lives, which decides where `tensor_expr!(e)` puts a new
    /// tensor (see [`crate::placement`]).
    type Placement: Placement;
    /// The elements the layout reads, from the first on (for a row-major
    /// layout: all of them, in row-major order).
    fn elements(&self) -> &[Self::Element];
    /// Where its data lives, with its row count where its first dim is
    /// [`Dyn`](crate::Dyn) ([`Rows`], which such an operand gives here; the
    /// default is the placement of an operand without one).
    #[inline(always)]
    fn placement(&self) -> Self::Placement {
        Self::Placement::of_static_operand()
    }
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
    #[inline]
    fn placement(&self) -> X::Placement {
        (**self).placement()
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
    #[inline]
    fn placement(&self) -> X::Placement {
        (**self).placement()
    }
}

/// A tensor that can be written by `tensor_expr!(out = ...)`: a
/// [`Tensor`](crate::Tensor), a `HeapTensor` or a
/// [`TensorViewMut`](crate::TensorViewMut). A `&mut` to either works as a target
/// too: the macro reborrows it with [`Target::as_target`], by auto-deref.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the target of a tensor assignment",
    label = "not a tensor or a mutable tensor view",
    note = "targets are `Tensor`, `HeapTensor` or `TensorViewMut` (or `&mut` to them) with the expression's element type"
)]
pub trait Target {
    /// The element type (an [`Element`](crate::Element): the kernel's
    /// bounds require it where the target is written).
    type Element;
    /// The target's shape.
    type Shape: Shape;
    /// Where its data lives, as an assignment's rows are checked: its row
    /// count where its first dim is [`Dyn`](crate::Dyn) ([`Rows`]), else
    /// [`Stack`] (a static target's shape says all).
    type Placement: Placement;
    /// The target's elements in row-major order.
    fn target_slice(&mut self) -> &mut [Self::Element];
    /// Its placement's value.
    fn placement(&self) -> Self::Placement;
    /// Reborrows the target. The macro calls it with method syntax, so a target
    /// that is a `&mut Tensor` parameter needs no `mut` binding (auto-deref).
    #[inline(always)]
    fn as_target(&mut self) -> &mut Self {
        self
    }
}

/// How a view's dims sit in its operand's row-major data.
pub trait Layout {
    /// The view's shape.
    type Shape: Shape;
    /// The stride in the data of each dim of the view, outermost first.
    const STRIDES: [usize; MAX_RANK];
    /// The number of elements of the data (0 for a shape with a run-time
    /// dim, whose data is as long as its rows: [`Shape::RUN_TIME_ROWS`]).
    const DATA_LEN: usize;
}

/// Shape `S` over its own row-major data: how every plain operand is read.
pub struct RowMajor<S>(PhantomData<S>);

impl<S: Shape> Layout for RowMajor<S> {
    type Shape = S;
    const STRIDES: [usize; MAX_RANK] = crate::shape::row_major_strides(S::DIMS);
    const DATA_LEN: usize = crate::shape::len_unless_run_time(S::DIMS);
}

/// A layout whose data is its shape's elements in row-major order, which
/// `transpose`, `permute`, `reshape` and `in_dims` read as another layout,
/// and the linear algebra operations (`inv`, `solve`, ..) copy whole.
#[diagnostic::on_unimplemented(
    message = "`transpose`, `permute`, `reshape`, `in_dims` and `inv`, `solve`, .. take a contiguous operand, and a static slice (`narrow`, `index_axis`) is strided",
    label = "a strided view",
    note = "copy the slice first (`.to_tensor()`), or slice along the first axis (`at`), which stays contiguous"
)]
pub trait Contiguous {}

impl<S> Contiguous for RowMajor<S> {}

/// The elements that a view of `dims` read through `strides` touches, from
/// its first on (0 when a dim is 0): a strided layout's `DATA_LEN`.
///
/// ```
/// use tensor_expr_runtime::access::strided_span;
/// // Column 0 of a row-major 3x4 matrix: 3 elements 4 apart.
/// assert_eq!(strided_span(&[3], &[4, 0, 0, 0, 0, 0]), 9);
/// ```
pub const fn strided_span(dims: &[usize], strides: &[usize; MAX_RANK]) -> usize {
    let mut span = 1;
    let mut k = 0;
    while k < dims.len() {
        if dims[k] == 0 {
            return 0;
        }
        span += (dims[k] - 1) * strides[k];
        k += 1;
    }
    span
}

/// Where an operand's data lives: [`Stack`] or [`Heap`], or, for an operand
/// whose first dim is [`Dyn`](crate::Dyn), its row count ([`Rows`]; two such
/// operands join to [`CheckedRows`]). `tensor_expr!(e)` puts a new tensor on
/// the heap if any operand's data is there or its rows are counted at run
/// time ([`crate::placement`] joins the placements and evaluates).
pub trait Placement: Copy {
    /// The placement of an operand whose rows are all known at compile
    /// time: [`Operand::placement`]'s default. [`Rows`] and
    /// [`CheckedRows`] count rows, so they have none and panic here (an
    /// operand placed so gives its rows itself).
    fn of_static_operand() -> Self;
}

/// The stack: a `Tensor`, a view (whose data may live anywhere) or a scalar.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stack;

impl Placement for Stack {
    #[inline(always)]
    fn of_static_operand() -> Self {
        Stack
    }
}

/// The heap: a `HeapTensor` (features `alloc`, `std`).
#[cfg(feature = "alloc")]
#[derive(Clone, Copy, Debug, Default)]
pub struct Heap;

#[cfg(feature = "alloc")]
impl Placement for Heap {
    #[inline(always)]
    fn of_static_operand() -> Self {
        Heap
    }
}

/// An operand with a [`Dyn`](crate::Dyn) first dim (a view or a
/// `HeapTensor`), or an expression with exactly one: the rows it has.
/// Its result has as many, on the heap.
#[derive(Clone, Copy, Debug)]
pub struct Rows {
    /// The rows.
    pub rows: usize,
    /// The operand's dims, as a shape error names them.
    pub dims: &'static [usize],
}

impl Placement for Rows {
    fn of_static_operand() -> Self {
        panic!("an operand placed by its rows gives them in `Operand::placement`")
    }
}

/// An expression with two operands or more whose first dim is
/// [`Dyn`](crate::Dyn): their common row count, or the error naming the
/// first two that differ. Its result is a `Result`.
#[derive(Clone, Copy, Debug)]
pub struct CheckedRows {
    /// The rows all such operands have, or the first difference.
    pub rows: Result<usize, crate::ShapeError>,
}

impl Placement for CheckedRows {
    fn of_static_operand() -> Self {
        panic!("an operand placed by its rows gives them in `Operand::placement`")
    }
}
