//! The loop-nest driver: one pass over the output index space per expression.
//!
//! The output is walked row by row (an odometer over every dim but the last),
//! or, for an expression with a matrix product, tile by tile. Strides and
//! extents are constants of the monomorphised shapes, so LLVM sees plain loops
//! with stride-1 loads and splats, which it vectorises like hand-written ones.
//! Nothing is allocated and no intermediate tensor exists.
//!
//! - `drive` decides the walk: rows, or tiles (the one place it is decided
//!   at run time; the macro's stages keep products out of row-walked trees).
//! - `rows`: the elementwise nest.
//! - `tiles`: the tiled nest, its tile sizes per vector width.
//! - `dispatch`: which instruction set's tiled nest runs (AVX2, AVX-512 with
//!   `std` on x86-64, else the compile-time target's).
//! - `assign`: the in-place constructors, `out = e` and `out += e`.

mod assign;
mod dispatch;
mod rows;
mod tiles;

pub use assign::{assign, update};

use crate::element::Element;
use crate::expr::{Expr, Walk};
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;
use core::mem::MaybeUninit;

/// Evaluates `e` into uninitialised slots (at least `E::Shape::LEN` of them),
/// writing each exactly once: the nest behind
/// [`Evaluate::evaluate`](crate::placement::Evaluate::evaluate).
#[inline]
pub(crate) fn drive_into_uninit<T: Element, E: Expr<T>>(out: &mut [MaybeUninit<T>], e: &E) {
    drive::<T, E::Shape, E, _>(out, e);
}

/// An output element the nest writes: a target's element, whose present value
/// a [`TargetLeaf`] reads, or an uninitialised slot of a new tensor (which no
/// leaf reads: its `current` is a constant nobody uses).
pub(crate) trait Slot<T>: Sized {
    /// The value before the write.
    fn current(&self) -> T;
    /// Writes the value.
    fn set(&mut self, value: T);
}

impl<T: Element> Slot<T> for T {
    #[inline(always)]
    fn current(&self) -> T {
        *self
    }
    #[inline(always)]
    fn set(&mut self, value: T) {
        *self = value;
    }
}

impl<T: Element> Slot<T> for MaybeUninit<T> {
    #[inline(always)]
    fn current(&self) -> T {
        T::ZERO
    }
    #[inline(always)]
    fn set(&mut self, value: T) {
        self.write(value);
    }
}

/// Runs the loop nest for output shape `O` over `out` (at least `O::LEN` long),
/// walked as `e`'s reading decides ([`crate::expr::Reading::walk`]): a constant, so the
/// walks not taken are removed as dead code.
#[inline(always)]
pub(crate) fn drive<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(out: &mut [X], e: &E) {
    match Plan::<T, O, E>::WALK {
        Walk::Tiles => dispatch::drive_tiles::<T, O, E, X>(out, e),
        Walk::Flat => rows::drive_flat::<T, O, E, X>(out, e),
        Walk::Rows => rows::drive_rows::<T, O, E, X>(out, e),
    }
}

/// How `E` is walked over output shape `O`, as constants: a `const fn`
/// called in a function body runs at run time where LLVM does not inline
/// it (at `opt-level = "s"` every walk would be compiled into the caller).
pub(crate) struct Plan<T, O, E>(PhantomData<(T, O, E)>);

impl<T, O: Shape, E: Expr<T>> Plan<T, O, E> {
    /// The walk.
    pub(crate) const WALK: Walk = E::READING.walk(O::LEN, O::RANK);
    /// The output axis a tile's rows step along.
    pub(crate) const TILE_AXIS: usize = E::READING.tile_rows.axis(O::RANK);
    /// Whether the products are so small (output elements times the
    /// longest contraction at most [`SMALL_PRODUCT`], 8x8 @ 8x8) that the
    /// run-time choice of a wider instruction set costs more than it gains:
    /// the compile-time target's nest runs, inlined.
    #[cfg_attr(not(all(feature = "std", target_arch = "x86_64")), allow(dead_code))]
    pub(crate) const SMALL: bool =
        E::READING.contraction > 0 && O::LEN * E::READING.contraction <= SMALL_PRODUCT;
}

/// The multiply-adds of a product up to which the tiled nest skips the
/// run-time dispatch ([`Plan::SMALL`]): 4x4 @ 4x4. Measured with
/// `benches/linalg.rs` on the default target: at 63 (a 4x4 @ 4x4
/// dispatched) the Kalman step (4x4 and 4x2 products) takes 63 ns against
/// 41 ns at 64, and a lone 4x4 @ 4x4 6.6 ns against 4.4 ns; 512 measured
/// as 64 did.
#[cfg_attr(not(all(feature = "std", target_arch = "x86_64")), allow(dead_code))]
pub(crate) const SMALL_PRODUCT: usize = 64;

/// Steps the odometer over all dims but the last, innermost first; false if
/// it wrapped round (`outer` was the last row).
#[inline(always)]
pub(crate) fn advance_outer<O: Shape>(outer: &mut [usize; MAX_RANK]) -> bool {
    advance_odometer::<O>(outer, O::RANK.saturating_sub(1))
}

/// Steps the odometer over the first `axes` dims of `O`, innermost first;
/// false if it wrapped round to all zeros.
#[inline(always)]
pub(crate) fn advance_odometer<O: Shape>(outer: &mut [usize; MAX_RANK], axes: usize) -> bool {
    crate::shape::advance_odometer(&mut outer[..axes], &O::DIMS[..axes])
}
