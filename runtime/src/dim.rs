//! Dimensions as types: `D<N>` for a size known at compile time, `One` for a
//! size-1 ("degenerate") dimension, the only kind that broadcasts, and `Dyn`
//! for a leading dimension whose size is known only when the program runs
//! (`RunTime` as expression nodes see it).
//!
//! Why a separate type for size 1: the broadcast rule then needs no arithmetic and
//! no overlapping impls (`D<N>` with `D<N>`, `One` with anything), and rustc prints
//! sizes in decimal in every error.
//!
//! # A generic `const N` instantiated with 1
//!
//! `Shape![1]` always gives `One`. In generic code, `D<N>` with `N = 1` stays a
//! `D<1>`: a dimension of size 1 that is *not* degenerate. It combines with another
//! `D<1>` or with `One`, but does not stretch to `D<3>`; that case is a compile
//! error whose note says to use `One`. Normalising `D<1>` to `One` would need
//! specialisation, and silently stretching would make a generic function's
//! broadcasting depend on the value of its parameter.

/// A dimension of size `N`, known at compile time. Broadcasts only with an equal
/// `D<N>` or with [`One`].
///
/// ```
/// use tensor_expr_runtime::{Dim, D};
/// assert_eq!(<D<3000> as Dim>::SIZE, 3000);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct D<const N: usize>;

/// A degenerate dimension of size 1: broadcasts to any size.
///
/// ```
/// use tensor_expr_runtime::{Dim, One};
/// assert_eq!(<One as Dim>::SIZE, 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct One;

/// A leading dimension whose size is known only at run time: the images of
/// a request, the points of a scan, the samples of a buffer.
/// `Shape![Dyn, 784]` is `(Dyn, D<784>)`, any number of rows of 784.
///
/// Only the first dim of a shape may be `Dyn`, so every stride is still a
/// constant and each row (`at(i)`) is a static shape. Such a shape is not a
/// [`Shape`](crate::Shape) (whose element count is a constant) but a
/// [`RowsShape`](crate::RowsShape): its tensors are
/// [`HeapTensor`](crate::HeapTensor)s and views, which count their rows
/// (`rows()`). In an expression its rows are the dim [`RunTime`], which is
/// how a shape error names them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dyn;

/// The leading [`Dyn`] dim as expression nodes and the shape rules see it:
/// a [`Dim`] whose [`SIZE`](Dim::SIZE) is [`RUN_TIME`], a marker no real
/// size reaches. The broadcasting rules compare it (it is not 1, so it is
/// never stretched, and it meets only itself or `One`), and strides never
/// read it (it is the first dim), while a compile-time element count over it
/// fails to build ([`Shape::LEN`](crate::Shape::LEN)).
///
/// ```
/// use tensor_expr_runtime::{Dim, RunTime, RUN_TIME};
/// assert_eq!(<RunTime as Dim>::SIZE, RUN_TIME);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RunTime;

/// The [`Dim::SIZE`] of [`RunTime`]: `usize::MAX`, which no array's length
/// reaches.
pub const RUN_TIME: usize = usize::MAX;

pub(crate) mod sealed {
    /// Implemented by [`D`](super::D), [`One`](super::One) and
    /// [`RunTime`](super::RunTime) only.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a dimension: `Dim` is sealed",
        label = "not `D<N>` or `One`",
        note = "the dims are `D<N>` and `One` (`Shape!` writes them); unsafe code relies on a dim's storage being `[X; SIZE]`"
    )]
    pub trait Sealed {
        /// `Static` for a dim of compile-time size, `RunTimeLed` for
        /// [`RunTime`](super::RunTime): how a shape picks its spelling
        /// ([`Shape::Spelled`](crate::Shape::Spelled)) by its first dim.
        /// (Here, not in `Dim`, so that an impl of `Dim` outside the crate
        /// gets the one error that `Dim` is sealed.)
        type Lead<Static, RunTimeLed>;
        /// How a borrow of a shape led by this dim holds its length
        /// ([`Shape::DataLen`](crate::Shape::DataLen)).
        type DataLen: super::DataLen;
    }
}

impl<const N: usize> sealed::Sealed for D<N> {
    type Lead<Static, RunTimeLed> = Static;
    type DataLen = ();
}
impl sealed::Sealed for One {
    type Lead<Static, RunTimeLed> = Static;
    type DataLen = ();
}
impl sealed::Sealed for RunTime {
    type Lead<Static, RunTimeLed> = RunTimeLed;
    type DataLen = usize;
}

/// The length of a borrow of a shape's elements as the borrow holds it
/// ([`Shape::DataLen`](crate::Shape::DataLen), chosen by the shape's first
/// dim): `()` where the shape's length is a constant, which
/// [`DataLen::len`] returns, so a leaf of an expression tree over a static
/// shape is one pointer, and `usize` where the first dim is [`RunTime`].
#[doc(hidden)]
pub trait DataLen: Copy + core::fmt::Debug + Send + Sync + 'static {
    /// Whether the length is held (`usize`), not a constant (`()`).
    const HELD: bool;
    /// The length `len` as held.
    fn hold(len: usize) -> Self;
    /// The length: the one held, or `constant`.
    fn len(self, constant: usize) -> usize;
}

impl DataLen for () {
    const HELD: bool = false;
    #[inline(always)]
    fn hold(_len: usize) -> Self {}
    #[inline(always)]
    fn len(self, constant: usize) -> usize {
        constant
    }
}

impl DataLen for usize {
    const HELD: bool = true;
    #[inline(always)]
    fn hold(len: usize) -> Self {
        len
    }
    #[inline(always)]
    fn len(self, _constant: usize) -> usize {
        self
    }
}

/// A type-level dimension: its size and its storage as an array level. (Every
/// dim broadcasts with itself and can be written into itself: the per-dim rules
/// have an impl for any pair of equal dims, so shape-generic code needs no
/// extra bounds.)
///
/// The trait is sealed: [`D`], [`One`] and [`RunTime`] are its only
/// implementations.
/// Unsafe code relies on `Array<X>` being exactly `[X; SIZE]` for `D` and
/// `One` (a tensor's storage is taken as `LEN` consecutive elements when a
/// new tensor is evaluated, and when it is cast to bytes; `RunTime` stores
/// nothing, and its shapes' `LEN` and flattening fail to build), which an
/// implementation outside this crate could break from safe code.
///
/// The facade's ui test `dim_implemented_outside_the_crate` shows the error
/// an implementation outside this crate gets.
pub trait Dim: sealed::Sealed + Copy + Default + core::fmt::Debug + 'static {
    /// The number of elements along this dimension.
    const SIZE: usize;
    /// The same size as a [`D`]: `D<1>` for [`One`], itself otherwise (see
    /// [`Shape::ExactDims`](crate::Shape::ExactDims)).
    type Exact: Dim;
    /// One level of nested-array storage: `[X; SIZE]` (none for [`RunTime`],
    /// whose storage functions fail to build).
    type Array<X>: AsRef<[X]> + AsMut<[X]>;
    /// Builds one array level, calling `f` with each position in order.
    fn array_from_fn<X>(f: impl FnMut(usize) -> X) -> Self::Array<X>;
    /// Views a slice of array levels as one flat slice (no copy).
    fn flatten<X>(levels: &[Self::Array<X>]) -> &[X];
    /// Views a mutable slice of array levels as one flat slice (no copy).
    fn flatten_mut<X>(levels: &mut [Self::Array<X>]) -> &mut [X];
}

impl<const N: usize> Dim for D<N> {
    const SIZE: usize = N;
    type Exact = Self;
    type Array<X> = [X; N];
    fn array_from_fn<X>(f: impl FnMut(usize) -> X) -> [X; N] {
        core::array::from_fn(f)
    }
    fn flatten<X>(levels: &[[X; N]]) -> &[X] {
        levels.as_flattened()
    }
    fn flatten_mut<X>(levels: &mut [[X; N]]) -> &mut [X] {
        levels.as_flattened_mut()
    }
}

impl Dim for One {
    const SIZE: usize = 1;
    type Exact = D<1>;
    type Array<X> = [X; 1];
    fn array_from_fn<X>(f: impl FnMut(usize) -> X) -> [X; 1] {
        core::array::from_fn(f)
    }
    fn flatten<X>(levels: &[[X; 1]]) -> &[X] {
        levels.as_flattened()
    }
    fn flatten_mut<X>(levels: &mut [[X; 1]]) -> &mut [X] {
        levels.as_flattened_mut()
    }
}

/// The constant that fails to evaluate wherever a run-time dim is asked for
/// an array of `X`: generic over `X`, so that rustc evaluates it only in a
/// function that is used (a constant that names no parameter of the function
/// is evaluated where the function is compiled, in release builds).
struct NoArray<X>(core::marker::PhantomData<X>);

impl<X> NoArray<X> {
    const FAILS: () =
        panic!("a run-time dim (`Dyn`) has no array: a tensor of it is a `HeapTensor` or a view");
}

/// A run-time dim has no array storage: its arrays are empty, and flattening
/// them fails to build wherever it is used (a constant panics when the
/// function is monomorphised), so no stack tensor of a run-time shape can
/// be read or written.
impl Dim for RunTime {
    const SIZE: usize = RUN_TIME;
    type Exact = Self;
    type Array<X> = [X; 0];
    /// No elements: a node's cache of a row of run-time length (a `[Dyn]`
    /// reduction's) has no cells, and such a node never reads its cache
    /// (it folds each element where it is read, or fails to build).
    fn array_from_fn<X>(_: impl FnMut(usize) -> X) -> [X; 0] {
        []
    }
    fn flatten<X>(_: &[[X; 0]]) -> &[X] {
        #[allow(clippy::let_unit_value)]
        let () = NoArray::<X>::FAILS;
        &[]
    }
    fn flatten_mut<X>(_: &mut [[X; 0]]) -> &mut [X] {
        #[allow(clippy::let_unit_value)]
        let () = NoArray::<X>::FAILS;
        &mut []
    }
}
