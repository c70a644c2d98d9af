//! Shapes as tuples of type-level dimensions: `(D<2>, D<3>)` is a 2x3 shape,
//! `()` a scalar. The `Shape!` macro writes them; this module gives each tuple its
//! rank, dims, element count and nested-array storage.
//!
//! Storage is the nested array itself (`[[T; 3]; 2]` for `(D<2>, D<3>)`):
//! row-major, contiguous, no allocation, and flat views need no `unsafe`.
//!
//! This module and the broadcasting rules ([`crate::rules::broadcast`],
//! [`crate::rules::in_place`]) use each other, by design: the rules are
//! written over `Shape`, and `Shape` names them as supertraits so that code
//! generic over a shape may broadcast it with itself and a scalar.

use crate::dim::{DataLen, Dim, One, D, RUN_TIME};
use crate::rules::broadcast::Broadcast;
use crate::rules::in_place::BroadcastInto;
use core::fmt::Debug;

/// The highest rank the shape rules are implemented for.
pub const MAX_RANK: usize = 6;

mod sealed {
    pub trait Sealed {}
}

/// A tensor shape known at compile time: a tuple of [`Dim`]s, rank 0 to [`MAX_RANK`].
///
/// ```
/// use tensor_expr_runtime::{Shape, D, One};
/// type S = (D<2>, One, D<3>);
/// assert_eq!(S::RANK, 3);
/// assert_eq!(S::DIMS, &[2, 1, 3]);
/// assert_eq!(S::LEN, 6);
/// assert_eq!(<()>::LEN, 1); // a scalar has one element
/// ```
///
/// Every shape broadcasts with a scalar and with itself, giving itself, and can be
/// written into itself. These facts are supertraits, so generic code gets them
/// for free: `fn scale<S: Shape>(x: &Tensor<f32, S>) -> Tensor<f32, S> {
/// tensor_expr!(x * 2.0 + 1.0) }` needs no further bound.
pub trait Shape:
    sealed::Sealed
    + Copy
    + Default
    + Debug
    + 'static
    + Broadcast<(), Output = Self>
    + Broadcast<Self, Output = Self>
    + BroadcastInto<Self>
{
    /// The number of dimensions.
    const RANK: usize;
    /// The size of each dimension, outermost first.
    const DIMS: &'static [usize];
    /// The number of elements: the product of the dims (1 for rank 0).
    const LEN: usize;
    /// Whether the first dim is [`RunTime`](crate::RunTime), a size known at run
    /// time: such a shape has no compile-time [`LEN`](Shape::LEN), and its
    /// tensors hold their row count.
    const RUN_TIME_ROWS: bool = Self::RANK > 0 && Self::DIMS[0] == RUN_TIME;
    /// Whether the shape is `[Dyn]` alone: its one row's length is counted
    /// at run time, so no array of constant length holds a row (a node's
    /// row cache), and a row is read to the data's end.
    const RUN_TIME_ROW: bool = Self::RUN_TIME_ROWS && Self::RANK == 1;
    /// The elements of one index of the first dim (one item of a batch):
    /// the product of the other dims, 1 for a scalar.
    const ITEM_LEN: usize = if Self::RANK == 0 {
        1
    } else {
        product(Self::DIMS, 1)
    };
    /// The length of one contiguous row: the last dim, or 1 for a scalar.
    const ROW_LEN: usize = if Self::RANK == 0 {
        1
    } else {
        Self::DIMS[Self::RANK - 1]
    };
    /// The nested-array storage: `[[T; 3]; 2]` for `(D<2>, D<3>)`, `T` for `()`.
    type Storage<T>;
    /// One row of elements, `[X; ROW_LEN]`: the buffer of a node that computes
    /// a whole row before the loop reads it (reductions, shared subexpressions).
    type Row<X>: AsRef<[X]> + AsMut<[X]>;
    /// The same dims with every [`One`] written `D<1>`: `(D<1>, D<16>)` for
    /// `(One, D<16>)`. A size-1 dim is `One` where it should broadcast, and
    /// `D<1>` where it is a size that happens to be 1, such as a batch of
    /// one passed to code generic over `const B: usize`
    /// (`Tensor::into_exact_dims`).
    type ExactDims: Shape;
    /// The same shape with `B` as its first dim: a chunk of `B` rows of a
    /// shape whose first dim is [`RunTime`](crate::RunTime), which the loop nest
    /// walks as a static shape (itself for a scalar).
    type Chunk<const B: usize>: Shape;
    /// The shape as containers spell it: itself, or `(Dyn, ..)` where the
    /// first dim is [`RunTime`](crate::RunTime) (the shape of an
    /// expression's result).
    type Spelled;
    /// A multi-index: `[usize; RANK]`.
    type Index: Copy + Debug + Default + PartialEq + AsRef<[usize]> + AsMut<[usize]> + 'static;
    /// What a borrow of the shape's elements holds besides where they start
    /// ([`DataLen`]): nothing where the length is a constant, the length
    /// where the first dim is [`RunTime`](crate::RunTime).
    #[doc(hidden)]
    type DataLen: DataLen;

    /// Builds the storage, calling `f` with each flat (row-major) position in order.
    fn storage_from_fn<T>(f: impl FnMut(usize) -> T) -> Self::Storage<T>;
    /// Builds one row, calling `f` with each column in order.
    fn row_from_fn<X>(f: impl FnMut(usize) -> X) -> Self::Row<X>;
    /// The storage as one flat row-major slice of `LEN` elements.
    fn flat<T>(storage: &Self::Storage<T>) -> &[T];
    /// The storage as one flat mutable row-major slice of `LEN` elements.
    fn flat_mut<T>(storage: &mut Self::Storage<T>) -> &mut [T];

    /// The row-major flat position of `index`, or `None` if it is out of bounds.
    ///
    /// ```
    /// use tensor_expr_runtime::{Shape, D};
    /// assert_eq!(<(D<2>, D<3>)>::flat_position([1, 2]), Some(5));
    /// assert_eq!(<(D<2>, D<3>)>::flat_position([2, 0]), None);
    /// ```
    fn flat_position(index: Self::Index) -> Option<usize> {
        let mut position = 0;
        for (&i, &dim) in index.as_ref().iter().zip(Self::DIMS) {
            if i >= dim {
                return None;
            }
            position = position * dim + i;
        }
        Some(position)
    }

    /// The multi-index of a row-major flat position (which must be `< LEN`).
    ///
    /// ```
    /// use tensor_expr_runtime::{Shape, D};
    /// assert_eq!(<(D<2>, D<3>)>::multi_index(5), [1, 2]);
    /// ```
    fn multi_index(mut position: usize) -> Self::Index {
        let mut index = Self::Index::default();
        for (i, &dim) in index.as_mut().iter_mut().zip(Self::DIMS).rev() {
            *i = position % dim;
            position /= dim;
        }
        index
    }
}

/// Steps a multi-index `index` over `dims` (equally long) in row-major order,
/// innermost first; `false` if it wrapped round to all zeros. The one
/// odometer of the crate: the loop nest's walk over output rows, the
/// index constructors and the strided copies step with it.
#[inline(always)]
pub(crate) fn advance_odometer(index: &mut [usize], dims: &[usize]) -> bool {
    // Indices, not a reversed zip: small enough to be inlined into a
    // caller's crate, where a debug build runs each iterator adapter as a
    // call of its own.
    let mut k = index.len().min(dims.len());
    while k > 0 {
        k -= 1;
        index[k] += 1;
        if index[k] < dims[k] {
            return true;
        }
        index[k] = 0;
    }
    false
}

/// Writes `f(index)` into `slots[position]` for every multi-index of `S` in
/// row-major order (`slots` holds `S::LEN`): an odometer over the outer dims
/// and a plain loop over the last one, so no position is divided back into an
/// index. The constructors from an index function use it.
pub(crate) fn fill_indexed<T, S: Shape>(
    slots: &mut [core::mem::MaybeUninit<T>],
    mut f: impl FnMut(S::Index) -> T,
) {
    if S::LEN == 0 {
        return;
    }
    let mut index = S::Index::default();
    let last = S::RANK.saturating_sub(1);
    for row in slots[..S::LEN].chunks_exact_mut(S::ROW_LEN) {
        // Each outer index clamped to its dim, which changes nothing but
        // tells LLVM its bound, as a loop over a range would: `i as f32` in
        // `f` then converts as a small integer rather than a full `usize`
        // (a branch and a fix-up per element).
        let mut at = index;
        for (i, &dim) in at.as_mut()[..last].iter_mut().zip(S::DIMS) {
            *i = (*i).min(dim - 1);
        }
        for (j, slot) in row.iter_mut().enumerate() {
            if S::RANK > 0 {
                at.as_mut()[last] = j;
            }
            slot.write(f(at));
        }
        advance_odometer(&mut index.as_mut()[..last], &S::DIMS[..last]);
    }
}

/// Writes `f(position)` into `slots[position]` for every position below
/// `S::LEN`. The positions run over the constant range `0..S::LEN` (not an
/// enumeration of the slice), so LLVM knows their bound: `position as f32`
/// then converts through 32-bit integers, which vectorises.
pub(crate) fn fill_flat<T, S: Shape>(
    slots: &mut [core::mem::MaybeUninit<T>],
    mut f: impl FnMut(usize) -> T,
) {
    for (position, slot) in (0..S::LEN).zip(&mut slots[..S::LEN]) {
        slot.write(f(position));
    }
}

/// Nested `array_from_fn` calls, outermost dim first, each leaf taking the next value.
macro_rules! nested_from_fn {
    ($next:ident;) => { $next() };
    ($next:ident; $d:ident $($rest:ident)*) => {
        <$d as Dim>::array_from_fn(|_| nested_from_fn!($next; $($rest)*))
    };
}

/// Flattens one array level per dim, outermost first.
macro_rules! nested_flatten {
    ($flatten:ident, $levels:expr;) => { $levels };
    ($flatten:ident, $levels:expr; $d:ident $($rest:ident)*) => {
        nested_flatten!($flatten, <$d as Dim>::$flatten($levels); $($rest)*)
    };
}

/// Storage type: `A::Array<B::Array<T>>`.
macro_rules! nested_storage {
    ($t:ident;) => { $t };
    ($t:ident; $d:ident $($rest:ident)*) => { <$d as Dim>::Array<nested_storage!($t; $($rest)*)> };
}

/// The last of a list of dims (the list starts with `One`, the row of a scalar),
/// or its array of `X`.
macro_rules! last_dim {
    ($x:ident; $($d:ident)*) => { <last_dim!($($d)*) as Dim>::Array<$x> };
    ($d:ident) => { $d };
    ($first:ident $($rest:ident)+) => { last_dim!($($rest)+) };
}

macro_rules! chunk {
    ($b:ident;) => { () };
    ($b:ident; $first:ident $($rest:ident)*) => { (D<$b>, $($rest,)*) };
}

macro_rules! data_len {
    () => {
        ()
    };
    ($first:ident $($rest:ident)*) => {
        <$first as crate::dim::sealed::Sealed>::DataLen
    };
}

macro_rules! spelled {
    ($s:ty;) => { () };
    ($s:ty; $first:ident $($rest:ident)*) => {
        <$first as crate::dim::sealed::Sealed>::Lead<$s, (crate::dim::Dyn, $($rest,)*)>
    };
}

macro_rules! impl_shape {
    ($rank:literal; $($d:ident)*) => {
        impl<$($d: Dim),*> sealed::Sealed for ($($d,)*) {}
        impl<$($d: Dim),*> Shape for ($($d,)*) {
            const RANK: usize = $rank;
            const DIMS: &'static [usize] = leading_dyn_only(&[$($d::SIZE),*]);
            const LEN: usize = static_len(Self::DIMS);
            type Storage<T> = nested_storage!(T; $($d)*);
            type Index = [usize; $rank];
            type ExactDims = ($($d::Exact,)*);
            type Chunk<const B: usize> = chunk!(B; $($d)*);
            type Spelled = spelled!(($($d,)*); $($d)*);
            type Row<X> = last_dim!(X; One $($d)*);
            type DataLen = data_len!($($d)*);

            fn row_from_fn<X>(f: impl FnMut(usize) -> X) -> Self::Row<X> {
                <last_dim!(One $($d)*) as Dim>::array_from_fn(f)
            }

            fn storage_from_fn<T>(mut f: impl FnMut(usize) -> T) -> Self::Storage<T> {
                let mut position = 0;
                let mut next = || {
                    let value = f(position);
                    position += 1;
                    value
                };
                nested_from_fn!(next; $($d)*)
            }
            fn flat<T>(storage: &Self::Storage<T>) -> &[T] {
                nested_flatten!(flatten, core::slice::from_ref(storage); $($d)*)
            }
            fn flat_mut<T>(storage: &mut Self::Storage<T>) -> &mut [T] {
                nested_flatten!(flatten_mut, core::slice::from_mut(storage); $($d)*)
            }
        }
    };
}

impl_shape!(0;);
impl_shape!(1; A0);
impl_shape!(2; A0 A1);
impl_shape!(3; A0 A1 A2);
impl_shape!(4; A0 A1 A2 A3);
impl_shape!(5; A0 A1 A2 A3 A4);
impl_shape!(6; A0 A1 A2 A3 A4 A5);

/// The product of `dims[from..]`.
const fn product(dims: &[usize], from: usize) -> usize {
    let mut len = 1;
    let mut k = from;
    while k < dims.len() {
        len *= dims[k];
        k += 1;
    }
    len
}

/// The element count of a shape of `dims`, which fails to compile (as the
/// constant [`Shape::LEN`] is evaluated) where the first dim is [`RunTime`](crate::RunTime).
const fn static_len(dims: &[usize]) -> usize {
    assert!(
        dims.is_empty() || dims[0] != RUN_TIME,
        "a shape with a run-time dim has no compile-time element count: its tensors count their rows (`rows()`)"
    );
    product(dims, 0)
}

/// The element count of a shape of `dims`, 0 where the first dim is
/// [`RunTime`](crate::RunTime): for a constant that covers both kinds of
/// shape (rustc evaluates every constant a constant names, even in a branch
/// not taken, so naming [`Shape::LEN`] would fail to build for a run-time
/// shape).
pub(crate) const fn len_unless_run_time(dims: &[usize]) -> usize {
    if !dims.is_empty() && dims[0] == RUN_TIME {
        0
    } else {
        product(dims, 0)
    }
}

/// Whether a shape of `dims` has no elements (a dim of 0): [`Shape::LEN`]
/// `== 0` for a static shape, and also defined for a run-time one.
pub(crate) const fn has_no_elements(dims: &[usize]) -> bool {
    let mut k = 0;
    while k < dims.len() {
        if dims[k] == 0 {
            return true;
        }
        k += 1;
    }
    false
}

/// `dims`, checked to have [`RunTime`](crate::RunTime) first or nowhere: every
/// stride is then a constant.
const fn leading_dyn_only(dims: &'static [usize]) -> &'static [usize] {
    let mut k = 1;
    while k < dims.len() {
        assert!(
            dims[k] != RUN_TIME,
            "only the first dim of a shape may be a run-time size"
        );
        k += 1;
    }
    dims
}

/// Row-major strides of `dims`, outermost first, padded with zeros to [`MAX_RANK`].
///
/// ```
/// use tensor_expr_runtime::shape::row_major_strides;
/// assert_eq!(row_major_strides(&[2, 3, 4])[..3], [12, 4, 1]);
/// ```
pub const fn row_major_strides(dims: &[usize]) -> [usize; MAX_RANK] {
    let mut strides = [0; MAX_RANK];
    let mut stride = 1;
    let mut k = dims.len();
    while k > 0 {
        k -= 1;
        strides[k] = stride;
        // The first dim's size is not needed (and a run-time one would overflow).
        if k > 0 {
            stride *= dims[k];
        }
    }
    strides
}

/// The flat position of `index`, panicking with both the index and the shape.
pub(crate) fn position_or_panic<S: Shape>(index: S::Index) -> usize {
    match S::flat_position(index) {
        Some(position) => position,
        None => out_of_bounds::<S>(index),
    }
}

/// The panic of an index outside shape `S`, naming both.
pub(crate) fn out_of_bounds<S: Shape>(index: S::Index) -> ! {
    panic!("index {:?} is out of bounds for shape {:?}", index, S::DIMS)
}

/// The build-time check that shapes `A` and `B` have as many elements, for
/// conversions that re-type the same data (`into_shape`, `reshaped`).
pub(crate) struct SameLen<A, B>(core::marker::PhantomData<(A, B)>);

impl<A: Shape, B: Shape> SameLen<A, B> {
    pub(crate) const CHECKED: () = assert!(
        A::LEN == B::LEN,
        "the two shapes have different element counts: `into_shape` and `reshaped` keep every element"
    );
}

mod rows_sealed {
    pub trait Sealed {}
}

/// A shape whose first dim is [`Dyn`](crate::Dyn), written `Shape![Dyn, ..]`:
/// any number of rows of the static shape [`Item`](RowsShape::Item). Views
/// and [`HeapTensor`](crate::HeapTensor)s of it count their rows at run
/// time; in an expression it is [`Nodes`](RowsShape::Nodes), with the
/// leading dim [`RunTime`](crate::RunTime).
///
/// ```
/// use tensor_expr_runtime::{Dyn, RowsShape, Shape, D};
/// type Images = (Dyn, D<28>, D<28>);
/// assert_eq!(<Images as RowsShape>::ITEM_LEN, 784);
/// assert_eq!(<<Images as RowsShape>::Item as Shape>::DIMS, &[28, 28]);
/// ```
pub trait RowsShape: rows_sealed::Sealed + Copy + Default + Debug + 'static {
    /// The shape of one row: the dims after `Dyn`.
    type Item: Shape;
    /// The shape as expression nodes see it, `(RunTime, ..)`.
    type Nodes: Shape<Spelled = Self>;
    /// The elements of one row, at least one (checked when the code is
    /// built: rows of no elements could not be counted from a length).
    const ITEM_LEN: usize = {
        assert!(
            <Self::Item as Shape>::LEN > 0,
            "a `Dyn` shape's rows need at least one element each"
        );
        <Self::Item as Shape>::LEN
    };
    /// The rank, `Dyn` included.
    const RANK: usize = <Self::Item as Shape>::RANK + 1;
}

macro_rules! impl_rows_shape {
    ($($d:ident)*) => {
        impl<$($d: Dim),*> rows_sealed::Sealed for (crate::dim::Dyn, $($d,)*) {}
        impl<$($d: Dim),*> RowsShape for (crate::dim::Dyn, $($d,)*) {
            type Item = ($($d,)*);
            type Nodes = (crate::dim::RunTime, $($d,)*);
        }

    };
}

impl_rows_shape!();
impl_rows_shape!(A1);
impl_rows_shape!(A1 A2);
impl_rows_shape!(A1 A2 A3);
impl_rows_shape!(A1 A2 A3 A4);
impl_rows_shape!(A1 A2 A3 A4 A5);
