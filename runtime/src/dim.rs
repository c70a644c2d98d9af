//! Dimensions as types: `D<N>` for a size known at compile time and `One` for a
//! size-1 ("degenerate") dimension, the only kind that broadcasts.
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

mod sealed {
    /// Implemented by [`D`](super::D) and [`One`](super::One) only.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a dimension: `Dim` is sealed",
        label = "not `D<N>` or `One`",
        note = "the dims are `D<N>` and `One` (`Shape!` writes them); unsafe code relies on a dim's storage being `[X; SIZE]`"
    )]
    pub trait Sealed {}
}

impl<const N: usize> sealed::Sealed for D<N> {}
impl sealed::Sealed for One {}

/// A type-level dimension: its size and its storage as an array level. (Every
/// dim broadcasts with itself and can be written into itself: the per-dim rules
/// have an impl for any pair of equal dims, so shape-generic code needs no
/// extra bounds.)
///
/// The trait is sealed: [`D`] and [`One`] are its only implementations.
/// Unsafe code relies on `Array<X>` being exactly `[X; SIZE]` (a tensor's
/// storage is taken as `LEN` consecutive elements when a new tensor is
/// evaluated, and when it is cast to bytes), which an implementation outside
/// this crate could break from safe code.
///
/// The facade's ui test `dim_implemented_outside_the_crate` shows the error
/// an implementation outside this crate gets.
pub trait Dim: sealed::Sealed + Copy + Default + core::fmt::Debug + 'static {
    /// The number of elements along this dimension.
    const SIZE: usize;
    /// The same size as a [`D`]: `D<1>` for [`One`], itself otherwise (see
    /// [`Shape::ExactDims`](crate::Shape::ExactDims)).
    type Exact: Dim;
    /// One level of nested-array storage: `[X; SIZE]`.
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
