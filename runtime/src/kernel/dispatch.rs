//! Which instruction set's nest runs, and each level's feature set and tile
//! geometry: the one ISA ladder of the kernels ([`at_selected_level`]).
//!
//! With `std` on x86-64, the tiled nest of a product, the flat or row nest
//! of an output of 1024 elements or more, and the chunks of run-time rows
//! are compiled a second and third time inside functions with AVX2 + FMA and
//! AVX-512 (F, BW) + AVX2 + FMA enabled, and the level
//! [`isa::selected`](crate::isa::selected) names picks one; otherwise the
//! compile-time target's. The default x86-64 target is SSE2 only: an `exp`
//! over `[64, 1024]` runs several times faster dispatched to AVX-512
//! (PERFORMANCE.md). A level the compile-time target already has is not
//! compiled again.
//!
//! Such a tiled or row nest runs in a function of its own on every target,
//! the compile-time target's too (`-C target-cpu=native`). Inlined into its
//! caller, the output may alias the operands as far as LLVM knows, and it
//! checks that at every row; out of line, the output slice is an argument
//! of its own that aliases nothing.

use super::rows::{drive_flat, drive_rows};
use super::tiles::{drive_tiles_for, tile_rows, VECTOR_LANES};
use super::Slot;
use crate::element::Element;
use crate::expr::{reading, Expr, Walk};
use crate::shape::Shape;
use core::marker::PhantomData;

/// A nest compiled once per instruction-set level, writing `out` (units of
/// the walk from `first` on) from the tree `e`. `run`
/// is the nest with a level's geometry, inlined into that level's function
/// (so compiled with its features); `run_target` is the compile-time
/// target's, called as that nest wants to be (inline, or in a function of
/// its own). The output and the tree are arguments, never fields of the
/// nest: as a function's arguments LLVM knows that the output aliases
/// nothing and that the tree does not change (`noalias`), which the walks
/// over `[N, 3]` points need to vectorise across rows without checks.
pub(crate) trait Nest<X, E>: Sized {
    /// The nest for vectors of `LANES` `f32`, product tiles of `ROWS` rows
    /// by `WIDE` columns (a single row by `ROW_WIDE`), and fused
    /// multiply-adds in the product where `FUSE`.
    #[rustfmt::skip]
    fn run<const LANES: usize, const ROWS: usize, const WIDE: usize, const ROW_WIDE: usize, const FUSE: bool>(self, out: &mut [X], e: &E, first: usize);

    /// The nest for the compile-time target's vectors.
    fn run_target(self, out: &mut [X], e: &E, first: usize);

    /// Whether the nest's results depend on `FUSE`: it sums float products
    /// (a product's or a convolution's multiply-adds), which each level
    /// fuses or not.
    const FUSES: bool;
}

/// `nest.run` with the geometry of vectors of `$lanes` `f32`: tiles of
/// `tile_rows` rows by two vectors, a single row by [`row_wide`]. Every
/// level's geometry follows from its lanes here.
macro_rules! run_with_lanes {
    ($nest:expr, $lanes:expr, $fuse:expr, $out:expr, $e:expr, $first:expr) => {
        $nest.run::<{ $lanes }, { tile_rows($lanes) }, { 2 * $lanes }, { row_wide($lanes) }, { $fuse }>(
            $out, $e, $first,
        )
    };
}

/// The columns of a single row's tile: eight vectors, so that the
/// one-row product kernel's four chains of sums
/// (`expr::matmul::kernel::accumulate_one_row`) fill the registers; 32
/// (eight SSE2 vectors of `f32`, two of AVX-512) in a runtime optimised
/// for size (`cfg(size_profile)`), where LLVM keeps the loops over a
/// tile's columns and so the chains in the frame (four chains of eight
/// AVX-512 vectors are 2 KiB of it), and where a narrower tile than
/// SSE2's eight vectors makes a short row's nest loop over tiles, each
/// with its epilogue (more code). Each column's sum is the same in
/// either: the chains run over `k` for every column alike.
pub(crate) const fn row_wide(lanes: usize) -> usize {
    if cfg!(size_profile) {
        if 2 * lanes > 32 {
            2 * lanes
        } else {
            32
        }
    } else {
        8 * lanes
    }
}

/// Runs an expression's `nest` at the selected level ([`at_selected_level`])
/// where its levels above the target's are compiled ([`EVERY_LEVEL`](crate::isa::EVERY_LEVEL));
/// otherwise once, compiled for the target, with the widest level's tile
/// geometry (tiles of 8 x 32: the runtime's kernels, which sum a tile per
/// call, are called as often as in a release build with AVX-512, and
/// with as many columns), fusing its multiply-adds where the selected
/// level's would. A release build with AVX-512 computes the same tiles,
/// so its products' bits are this build's.
#[inline(always)]
pub(crate) fn at_expression_level<X, E, N: Nest<X, E>>(
    nest: N,
    out: &mut [X],
    e: &E,
    first: usize,
) {
    if const { crate::isa::EVERY_LEVEL } {
        at_selected_level(nest, out, e, first);
    } else if const { N::FUSES && !cfg!(target_feature = "fma") }
        && crate::isa::selected() >= crate::isa::Level::Avx2
    {
        run_with_lanes!(nest, WIDEST_LANES, true, out, e, first);
    } else {
        run_with_lanes!(
            nest,
            WIDEST_LANES,
            cfg!(target_feature = "fma"),
            out,
            e,
            first
        );
    }
}

/// The lanes of `f32` of the widest level's vectors (AVX-512's), whose
/// tile geometry a build that compiles an expression's nests once gives
/// them ([`at_expression_level`]).
const WIDEST_LANES: usize = 16;

/// Runs `nest` at the selected level ([`crate::isa`]): in the AVX-512 or
/// AVX2 function where the level has them and the compile-time target does
/// not, else the target's nest. The kernels compiled in the runtime (the
/// int8 convolution's portable kernel) run so in every build.
#[inline(always)]
pub(crate) fn at_selected_level<X, E, N: Nest<X, E>>(nest: N, out: &mut [X], e: &E, first: usize) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        use crate::isa::{selected, Level};
        if const { (Level::TARGET as u8) < (Level::Avx512 as u8) } && selected() >= Level::Avx512 {
            // SAFETY: the selected level is at most the CPU's
            // (`isa::selected`), and it has AVX-512 F and BW, AVX2, FMA.
            unsafe { x86::avx512(nest, out, e, first) };
            return;
        }
        if const { (Level::TARGET as u8) < (Level::Avx2 as u8) } && selected() >= Level::Avx2 {
            // SAFETY: as above, with AVX2 and FMA.
            unsafe { x86::avx2(nest, out, e, first) };
            return;
        }
    }
    nest.run_target(out, e, first);
}

/// Runs `nest` with the compile-time target's geometry.
#[inline(always)]
pub(super) fn at_target<X, E, N: Nest<X, E>>(nest: N, out: &mut [X], e: &E, first: usize) {
    run_with_lanes!(
        nest,
        VECTOR_LANES,
        cfg!(target_feature = "fma"),
        out,
        e,
        first
    );
}

/// The levels above the compile-time target's: one function per level,
/// each with the level's one feature set and tile geometry.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod x86 {
    use super::super::tiles::tile_rows;
    use super::row_wide;
    use super::Nest;

    /// AVX-512: 16 lanes, 8-row tiles of 32 columns (128 for a single row).
    #[target_feature(enable = "avx512f,avx512bw,avx2,fma")]
    pub(super) unsafe fn avx512<X, E, N: Nest<X, E>>(nest: N, out: &mut [X], e: &E, first: usize) {
        run_with_lanes!(nest, 16, true, out, e, first);
    }

    /// AVX2: 8 lanes, 4-row tiles of 16 columns (64 for a single row).
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn avx2<X, E, N: Nest<X, E>>(nest: N, out: &mut [X], e: &E, first: usize) {
        run_with_lanes!(nest, 8, true, out, e, first);
    }
}

/// The nest of an expression with a matrix product, over `out`: the units
/// of the tiles' axis from `first` on ([`Plan::UNIT_LEN`](super::Plan)).
/// Small products run the target's nest inline: the run-time choice costs
/// more than it gains there ([`Plan::AT_SELECTED_LEVEL`](super::Plan)); an
/// int8 layer the runtime's kernels store runs the target's nest out of
/// line, where they decline ([`Plan::LAYER_KERNELS`](super::Plan)).
#[inline(always)]
pub(super) fn drive_tiles<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    let nest = TiledNest::<T, O>(PhantomData);
    if super::Plan::<T, O, E>::AT_SELECTED_LEVEL {
        at_expression_level(nest, out, e, first);
    } else if super::Plan::<T, O, E>::LAYER_KERNELS {
        // An int8 layer's nest, where the layer kernels decline: out of
        // line, as at the selected level, so that its stack is not its
        // caller's.
        tiles_out_of_line::<T, O, E, X>(out, e, first);
    } else {
        at_target(nest, out, e, first);
    }
}

/// The tiled nest ([`drive_tiles`]).
struct TiledNest<T, O>(PhantomData<(T, O)>);

impl<T: Element, O: Shape, E: Expr<T>, X: Slot<T>> Nest<X, E> for TiledNest<T, O> {
    #[inline(always)]
    #[rustfmt::skip]
    fn run<const LANES: usize, const ROWS: usize, const WIDE: usize, const ROW_WIDE: usize, const FUSE: bool>(self, out: &mut [X], e: &E, first: usize) {
        drive_nest::<T, O, E, X, ROWS, ROW_WIDE, WIDE, LANES, FUSE>(out, e, first);
    }

    #[inline(always)]
    fn run_target(self, out: &mut [X], e: &E, first: usize) {
        tiles_out_of_line::<T, O, E, X>(out, e, first);
    }

    const FUSES: bool = T::IS_FLOAT && reading::<T, E>().contraction > 0;
}

/// The target's tiled nest in a function of its own (see the module doc).
#[inline(never)]
fn tiles_out_of_line<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    at_target(TiledNest::<T, O>(PhantomData), out, e, first);
}

/// The flat or row nest (an elementwise expression, or products walked by
/// rows: a matrix of many short rows,
/// [`Reading::walk`](crate::expr::Reading::walk)), over `out`'s units from
/// `first` on: where the output has
/// [`DISPATCHED_ELEMENTS`](super::DISPATCHED_ELEMENTS) or more, at the
/// selected level ([`Plan::AT_SELECTED_LEVEL`](super::Plan)). These nests multiply and add apart (`math`'s `fma` and
/// `Element::mul_add` fuse only where the compile-time target has FMA), so
/// every level computes the same bits.
#[inline(always)]
pub(super) fn drive_elementwise<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    if super::Plan::<T, O, E>::AT_SELECTED_LEVEL {
        at_expression_level(ElementwiseNest::<T, O>(PhantomData), out, e, first);
    } else {
        walk_elementwise::<T, O, E, X>(out, e, first);
    }
}

/// The flat or row nest ([`drive_elementwise`]).
struct ElementwiseNest<T, O>(PhantomData<(T, O)>);

impl<T: Element, O: Shape, E: Expr<T>, X: Slot<T>> Nest<X, E> for ElementwiseNest<T, O> {
    #[inline(always)]
    #[rustfmt::skip]
    fn run<const LANES: usize, const ROWS: usize, const WIDE: usize, const ROW_WIDE: usize, const FUSE: bool>(self, out: &mut [X], e: &E, first: usize) {
        with_constant_extent::<X, O>(out, first, |out, first| {
            walk_elementwise::<T, O, E, X>(out, e, first)
        });
    }

    /// The flat nest inline; the row nest in a function of its own. Not the
    /// flat nest: out of line, its leaves' pointers are fields of the tree,
    /// so LLVM no longer sees that `select(a > 0, a, 0.01 * a)` reads one
    /// array three times, and it runs at about half the speed.
    #[inline(always)]
    fn run_target(self, out: &mut [X], e: &E, first: usize) {
        match super::Plan::<T, O, E>::WALK {
            Walk::Flat => walk_elementwise::<T, O, E, X>(out, e, first),
            _ => rows_out_of_line::<T, O, E, X>(out, e, first),
        }
    }

    /// A row walk's products are dot products, which fuse by the
    /// compile-time target at every level (`Element::mul_add`).
    const FUSES: bool = false;
}

/// The compile-time target's row nest in a function of its own.
#[inline(never)]
fn rows_out_of_line<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    with_constant_extent::<X, O>(out, first, |out, first| {
        drive_rows::<T, O, E, X>(out, e, first)
    });
}

/// The nest of `E` over `out` (units from `first` on) at one level's
/// geometry, with no choice of level: the walk of a chunk of run-time
/// rows, whose whole walk of chunks was dispatched once.
#[inline(always)]
#[rustfmt::skip]
pub(super) fn drive_at<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const LANES: usize, const ROWS: usize, const WIDE: usize, const ROW_WIDE: usize, const FUSE: bool>(out: &mut [X], e: &E, first: usize) {
    match super::Plan::<T, O, E>::WALK {
        Walk::Tiles => drive_nest::<T, O, E, X, ROWS, ROW_WIDE, WIDE, LANES, FUSE>(out, e, first),
        Walk::Flat | Walk::Rows => walk_elementwise::<T, O, E, X>(out, e, first),
    }
}

/// Calls `walk` with the whole output as a slice of its constant length and
/// `first` a literal 0, where that is what the call gives (always, without
/// the `rayon` feature, which alone walks parts). A nest compiled out of
/// line does not see the caller's constants, and the row walk needs them:
/// with the run-time length and start, a reduction over rows of 3 ran its
/// nest one row at a time, at a third of the SSE nest's speed.
#[inline(always)]
fn with_constant_extent<X, O: Shape>(
    out: &mut [X],
    first: usize,
    walk: impl FnOnce(&mut [X], usize),
) {
    #[cfg(feature = "rayon")]
    if first != 0 || out.len() != O::LEN {
        // A part of a split walk.
        walk(out, first);
        return;
    }
    debug_assert_eq!(first, 0, "only a split walk has parts");
    walk(&mut out[..O::LEN], 0);
}

/// The flat or row nest, as the plan walks `E` over `O`.
#[inline(always)]
fn walk_elementwise<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    first: usize,
) {
    match super::Plan::<T, O, E>::WALK {
        Walk::Flat => drive_flat::<T, E, X>(out, e, first),
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
