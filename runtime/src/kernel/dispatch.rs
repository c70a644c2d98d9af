//! Which instruction set's nest runs: with `std` on x86-64, the tiled nest
//! of a product and the flat or row nest of an output of 1024 elements or
//! more are compiled a second and third time inside functions with AVX2
//! and AVX-512 enabled, and one is chosen at run time; otherwise the
//! compile-time target's. The default x86-64 target is SSE2 only: an `exp`
//! over `[64, 1024]` ran 3.9x faster dispatched to AVX-512.
//!
//! Such a tiled or row nest runs in a function of its own on every target,
//! the compile-time target's too (`-C target-cpu=native`). Inlined into its
//! caller, the output may alias the operands as far as LLVM knows, and it
//! checks that at every row: natively, `relu(a * alpha + b)` over 64x64
//! took 0.0396 ns per element inlined against 0.0314 out of line, where the
//! output slice is an argument of its own (`cargo bench --bench
//! elementwise`).

use super::rows::{drive_flat, drive_rows};
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
    if !super::Plan::<T, O, E>::SMALL {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        {
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
        drive_tiles_out_of_line::<T, O, E, X>(out, e, first);
        return;
    }
    drive_target_tiles::<T, O, E, X>(out, e, first);
}

/// The tiled nest for the compile-time target's vectors.
#[inline(always)]
fn drive_target_tiles<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    const FUSE: bool = cfg!(target_feature = "fma");
    const ROWS: usize = tile_rows(VECTOR_LANES);
    drive_nest::<T, O, E, X, ROWS, { 8 * VECTOR_LANES }, { 2 * VECTOR_LANES }, VECTOR_LANES, FUSE>(
        out, e, first,
    );
}

/// [`drive_target_tiles`] in a function of its own (see the module doc).
#[inline(never)]
fn drive_tiles_out_of_line<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    drive_target_tiles::<T, O, E, X>(out, e, first);
}

/// The flat or row nest (an elementwise expression, or products walked by
/// rows: a matrix of many short rows,
/// [`Reading::walk`](crate::expr::Reading::walk)), over `out`'s units from
/// `first` on: with `std` on x86-64, where the output has
/// [`DISPATCHED_ELEMENTS`] or more, also compiled with AVX-512 and with
/// AVX2 and picked at run time, as the tiled nest is. These nests multiply
/// and add apart (`math`'s `fma` and `Element::mul_add` fuse only where the
/// compile-time target has FMA), so every version computes the same bits.
#[inline(always)]
pub(super) fn drive_elementwise<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    if O::LEN >= DISPATCHED_ELEMENTS {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        {
            if VECTOR_LANES < 16 && std::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F (checked on the line above).
                unsafe { x86::drive_elementwise_avx512::<T, O, E, X>(out, e, first) };
                return;
            }
            if VECTOR_LANES < 8 && std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked on the line above).
                unsafe { x86::drive_elementwise_avx2::<T, O, E, X>(out, e, first) };
                return;
            }
        }
        match super::Plan::<T, O, E>::WALK {
            crate::expr::Walk::Flat => {}
            _ => {
                drive_rows_out_of_line::<T, O, E, X>(out, e, first);
                return;
            }
        }
    }
    walk_elementwise::<T, O, E, X>(out, e, first);
}

/// The output elements from which an elementwise nest runs in a function of
/// its own, dispatched at run time where it can be ([`drive_elementwise`]).
pub(super) const DISPATCHED_ELEMENTS: usize = 1024;

/// The compile-time target's row nest in a function of its own (see the
/// module doc). Not the flat nest: out of line, its leaves' pointers are
/// fields of the tree, so LLVM no longer sees that `select(a > 0, a, 0.01 *
/// a)` reads one array three times, and it ran at half the speed.
#[inline(never)]
fn drive_rows_out_of_line<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    with_constant_extent::<X, O>(out, first, |out, first| {
        drive_rows::<T, O, E, X>(out, e, first)
    });
}

/// Calls `walk` with the whole output as a slice of its constant length and
/// `first` a literal 0, where that is what the call gives (always, without
/// the `rayon` feature). A nest compiled out of line does not see the
/// caller's constants, and the row walk needs them: with the run-time length
/// and start, a reduction over rows of 3 ran its nest one row at a time, at a
/// third of the SSE nest's speed.
#[inline(always)]
fn with_constant_extent<X, O: Shape>(
    out: &mut [X],
    first: usize,
    walk: impl FnOnce(&mut [X], usize),
) {
    if first == 0 && out.len() == O::LEN {
        walk(&mut out[..O::LEN], 0);
    } else {
        // Only a part of a split walk (the `rayon` feature).
        walk(out, first);
    }
}

/// The flat or row nest, as the plan walks `E` over `O`.
#[inline(always)]
fn walk_elementwise<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    match super::Plan::<T, O, E>::WALK {
        crate::expr::Walk::Flat => drive_flat::<T, E, X>(out, e, first),
        _ => drive_rows::<T, O, E, X>(out, e, first),
    }
}

/// The tiled nest for tiles of `ROWS x WIDE`, or, for a large product, its
/// cache-blocked form ([`Plan::PACKED`](super::Plan)).
#[inline(always)]
#[rustfmt::skip]
fn drive_nest<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const ROWS: usize, const ROW_WIDE: usize, const WIDE: usize, const LANES: usize, const FUSE: bool>(out: &mut [X], e: &E, first: usize) {
    #[cfg(feature = "alloc")]
    if super::Plan::<T, O, E>::PACKED {
        super::blocks::drive_blocks::<T, O, E, X, ROWS, WIDE, LANES, FUSE>(out, e, first);
        return;
    }
    drive_tiles_for::<T, O, E, X, ROWS, ROW_WIDE, WIDE, LANES, FUSE>(out, e, first);
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
        drive_nest::<T, O, E, X, { tile_rows(16) }, 128, 32, 16, true>(out, e, first);
    }

    /// The elementwise nest with AVX-512.
    #[target_feature(enable = "avx512f,avx2")]
    pub(super) unsafe fn drive_elementwise_avx512<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
        out: &mut [X],
        e: &E,
        first: usize,
    ) {
        super::with_constant_extent::<X, O>(out, first, |out, first| {
            super::walk_elementwise::<T, O, E, X>(out, e, first)
        });
    }

    /// The elementwise nest with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn drive_elementwise_avx2<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
        out: &mut [X],
        e: &E,
        first: usize,
    ) {
        super::with_constant_extent::<X, O>(out, first, |out, first| {
            super::walk_elementwise::<T, O, E, X>(out, e, first)
        });
    }

    /// The nest with AVX2 (8 lanes, 4-row tiles of 16 columns) and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn drive_tiles_avx2<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
        out: &mut [X],
        e: &E,
        first: usize,
    ) {
        drive_nest::<T, O, E, X, { tile_rows(8) }, 64, 16, 8, true>(out, e, first);
    }
}
