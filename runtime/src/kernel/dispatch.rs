//! Which instruction set's tiled nest runs: with `std` on x86-64, the nest is
//! compiled a second and third time inside functions with AVX2+FMA and
//! AVX-512 enabled, and one is chosen at run time; otherwise the
//! compile-time target's.

use super::rows::drive_rows;
use super::tiles::{drive_tiles_for, tile_rows, VECTOR_LANES};
use super::Slot;
use crate::element::Element;
use crate::expr::Expr;
use crate::shape::Shape;

/// The nest of an expression with a matrix product, over `out`: the units
/// of the tiles' axis from `first` on ([`Plan::UNIT_LEN`](super::Plan)).
///
/// With `std` on x86-64, a target without AVX2 or AVX-512 at compile time (the
/// default `x86-64` target) still gets them when the CPU has them: the nest is
/// compiled a second and third time inside functions with those features
/// enabled, and one is chosen at run time (one cached check per evaluation).
#[inline(always)]
pub(super) fn drive_tiles<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if !super::Plan::<T, O, E>::SMALL {
        if VECTOR_LANES < 16 && std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F (checked on the line above).
            unsafe { x86::drive_tiles_avx512::<T, O, E, X>(out, e, first) };
            return;
        }
        if VECTOR_LANES < 8
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has AVX2 and FMA (checked above).
            unsafe { x86::drive_tiles_avx2::<T, O, E, X>(out, e, first) };
            return;
        }
    }
    const FUSE: bool = cfg!(target_feature = "fma");
    const ROWS: usize = tile_rows(VECTOR_LANES);
    drive_nest::<T, O, E, X, ROWS, { 2 * VECTOR_LANES }, VECTOR_LANES, FUSE>(out, e, first);
}

/// The row nest of an expression whose products are walked by rows (a
/// matrix of many short rows, [`Reading::walk`](crate::expr::Reading::walk)),
/// over `out`'s rows from `first` on: with `std` on x86-64, compiled a
/// second time with AVX-512 enabled and chosen at run time, as the tiled
/// nest is (the rows vectorise across rows, 16 at a time). Its sums are
/// not fused: the same values whichever runs.
#[inline(always)]
pub(super) fn drive_product_rows<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if VECTOR_LANES < 16 && std::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F (checked on the line above).
        unsafe { x86::drive_rows_avx512::<T, O, E, X>(out, e, first) };
        return;
    }
    drive_rows::<T, O, E, X>(out, e, first);
}

/// The tiled nest for tiles of `ROWS x WIDE`, or, for a large product, its
/// cache-blocked form ([`Plan::PACKED`](super::Plan)).
#[inline(always)]
#[rustfmt::skip]
fn drive_nest<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const ROWS: usize, const WIDE: usize, const LANES: usize, const FUSE: bool>(out: &mut [X], e: &E, first: usize) {
    #[cfg(feature = "alloc")]
    if super::Plan::<T, O, E>::PACKED {
        super::blocks::drive_blocks::<T, O, E, X, ROWS, WIDE, LANES, FUSE>(out, e, first);
        return;
    }
    drive_tiles_for::<T, O, E, X, ROWS, WIDE, LANES, FUSE>(out, e, first);
}

/// The tiled nest recompiled for wider vectors than the compile-time target's.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod x86 {
    use super::super::tiles::tile_rows;
    use super::super::Slot;
    use super::drive_nest;
    use crate::element::Element;
    use crate::expr::Expr;
    use crate::shape::Shape;

    /// The nest with AVX-512 (16 lanes, 8-row tiles of 32 columns) and FMA.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub(super) unsafe fn drive_tiles_avx512<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
        out: &mut [X],
        e: &E,
        first: usize,
    ) {
        drive_nest::<T, O, E, X, { tile_rows(16) }, 32, 16, true>(out, e, first);
    }

    /// The row nest with AVX-512.
    #[target_feature(enable = "avx512f,avx2")]
    pub(super) unsafe fn drive_rows_avx512<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
        out: &mut [X],
        e: &E,
        first: usize,
    ) {
        super::drive_rows::<T, O, E, X>(out, e, first);
    }

    /// The nest with AVX2 (8 lanes, 4-row tiles of 16 columns) and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn drive_tiles_avx2<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
        out: &mut [X],
        e: &E,
        first: usize,
    ) {
        drive_nest::<T, O, E, X, { tile_rows(8) }, 16, 8, true>(out, e, first);
    }
}
