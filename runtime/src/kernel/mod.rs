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
//! - `blocks`: the tiled nest of a large product, block by cache-sized
//!   block, its operands packed (with an allocator).
//! - `parallel`: with the `rayon` feature, a large output split into parts
//!   of whole units, each walked on a thread of rayon's pool.
//! - `dispatch`: which instruction set's tiled nest runs (AVX2, AVX-512 with
//!   `std` on x86-64, else the compile-time target's).
//! - `run_time`: an output whose first dim is counted at run time, walked
//!   in chunks of static rows.
//! - `assign`: the in-place constructors, `out = e` and `out += e`.

mod assign;
#[cfg(feature = "alloc")]
mod blocks;
mod dispatch;
#[cfg(feature = "rayon")]
mod parallel;
mod rows;
mod run_time;
mod tiles;

pub use assign::{assign, update, Write};
#[cfg(feature = "alloc")]
#[cfg(all(feature = "alloc", not(target_arch = "x86_64")))]
pub(crate) use dispatch::at_selected_level;
#[cfg(feature = "alloc")]
pub(crate) use dispatch::Nest;
pub(crate) use run_time::drive_rows;
pub(crate) use tiles::MOST_TILE_ROWS;

use crate::element::Element;
use crate::expr::{reading, Expr, Reading, Stage, Walk};
use crate::scratch::Scratch;
use crate::shape::{len_unless_run_time, Shape, MAX_RANK};
use core::marker::PhantomData;
use core::mem::size_of;
use core::mem::MaybeUninit;

/// Evaluates `e` into uninitialised slots (at least `E::Shape::LEN` of them),
/// writing each exactly once: the nest behind
/// [`Evaluate::evaluate`](crate::placement::Evaluate::evaluate).
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn drive_into_uninit<T: Element, E: Expr<T>>(out: &mut [MaybeUninit<T>], e: &E) {
    drive::<T, E::Shape, E, _>(out, e);
}

/// [`drive_into_uninit`] with kernel scratch lent (a program's statement:
/// [`crate::program::evaluate_in`]).
#[inline]
pub(crate) fn drive_into_uninit_in<T: Element, E: Expr<T>>(
    out: &mut [MaybeUninit<T>],
    e: &E,
    scratch: &mut Scratch<'_>,
) {
    drive_in::<T, E::Shape, E, _>(out, e, scratch);
}

/// [`drive_into_uninit`] for the storage of a new stack tensor, which the
/// caller then moves (returns, binds to a `let`): a result of at least
/// [`CALLED_RESULT_BYTES`] is written by one call out of line, so that
/// LLVM writes it straight into the place it is moved to. (Its call-slot
/// optimisation needs one call that writes the whole temporary; with the
/// walk's branches to each instruction set's nest inlined, the result is
/// written into a temporary and copied, and for a `[64, 64]` `f32` result
/// that 16 KiB `memcpy` takes longer than the expression and doubles its
/// stack: PERFORMANCE.md, "New tensors written where they are moved".) A
/// smaller result is copied in a few moves, cheaper than the call.
#[inline(always)]
pub(crate) fn drive_into_new_tensor<T: Element, E: Expr<T>>(out: &mut [MaybeUninit<T>], e: &E) {
    if const { len_unless_run_time(<E::Shape as Shape>::DIMS) * size_of::<T>() >= CALLED_RESULT_BYTES }
    {
        drive_called::<T, E>(out, e);
    } else {
        drive::<T, E::Shape, E, _>(out, e);
    }
}

/// The smallest new stack tensor, in bytes, that [`drive_into_new_tensor`]
/// writes through a call.
const CALLED_RESULT_BYTES: usize = 256;

/// [`drive_into_uninit`], never inlined.
#[inline(never)]
fn drive_called<T: Element, E: Expr<T>>(out: &mut [MaybeUninit<T>], e: &E) {
    drive::<T, E::Shape, E, _>(out, e);
}

/// An output element the nest writes: a target's element, whose present value
/// a [`TargetLeaf`] reads, or an uninitialised slot of a new tensor (which no
/// leaf reads: its `current` is a constant nobody uses).
pub(crate) trait Slot<T>: Sized + Send {
    /// The value before the write.
    fn current(&self) -> T;
    /// Writes the value.
    fn set(&mut self, value: T);
    /// The slots as `i8` ones, where `T` is `i8`: where an int8 layer's
    /// kernel stores its bytes ([`Int8Layer::store`](crate::expr::Int8Layer::store)), which writes only
    /// initialised values into them.
    fn int8_slots(slots: &mut [Self]) -> Option<&mut [MaybeUninit<i8>]>;
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
    #[inline(always)]
    fn int8_slots(slots: &mut [T]) -> Option<&mut [MaybeUninit<i8>]> {
        // SAFETY: `MaybeUninit<T>` has `T`'s layout, and the slice's one
        // user, an int8 layer's store, writes only initialised bytes, so
        // every element stays initialised.
        T::int8_slots(unsafe { &mut *(slots as *mut [T] as *mut [MaybeUninit<T>]) })
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
    #[inline(always)]
    fn int8_slots(slots: &mut [Self]) -> Option<&mut [MaybeUninit<i8>]> {
        T::int8_slots(slots)
    }
}

/// Runs the loop nest for output shape `O` over `out` (at least `O::LEN` long),
/// walked as `e`'s reading decides ([`crate::expr::Reading::walk`]): a constant, so the
/// walks not taken are removed as dead code. With the `rayon` feature, a
/// large output is split into parts walked on all cores ([`parallel`]).
#[inline(always)]
pub(crate) fn drive<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(out: &mut [X], e: &E) {
    drive_in::<T, O, E, X>(out, e, &mut Scratch::none());
}

/// [`drive`], the kernels' buffers from `scratch` where it holds them
/// (else from the heap).
#[inline(always)]
pub(crate) fn drive_in<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    scratch: &mut Scratch<'_>,
) {
    let out = &mut out[..O::LEN];
    // A walk split across threads first: an int8 layer's kernel runs on
    // one.
    #[cfg(feature = "rayon")]
    if Plan::<T, O, E>::PARALLEL && parallel::drive_parts::<T, O, E, X>(out, e) {
        return;
    }
    if const { matches!(E::OWN.layer, Stage::Stored) }
        && store_int8_layer::<T, O, E, X>(out, e, scratch)
    {
        return;
    }
    drive_part::<T, O, E, X>(out, e, 0);
}

/// Stores `e`, an int8 layer ([`Stage::Stored`]), by the int8 kernels with
/// its epilogue ([`crate::expr::layer`]); false where they decline, for the
/// nest to compute it. Out of line, so that the nest's stack is not the
/// kernels' too.
#[inline(never)]
fn store_int8_layer<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    scratch: &mut Scratch<'_>,
) -> bool {
    match (e.int8_layer::<O>(), X::int8_slots(out)) {
        (Some(layer), Some(bytes)) => layer.store(bytes, scratch),
        _ => false,
    }
}

/// The loop nest over `part` of the output: its units
/// ([`Plan::UNIT_LEN`] elements each) from unit `first` on.
#[inline(always)]
pub(crate) fn drive_part<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    part: &mut [X],
    e: &E,
    first: usize,
) {
    match Plan::<T, O, E>::WALK {
        Walk::Tiles => dispatch::drive_tiles::<T, O, E, X>(part, e, first),
        Walk::Flat | Walk::Rows => dispatch::drive_elementwise::<T, O, E, X>(part, e, first),
    }
}

/// How `E` is walked over output shape `O`, as constants: a `const fn`
/// called in a function body runs at run time where LLVM does not inline
/// it (at `opt-level = "s"` every walk would be compiled into the caller).
pub(crate) struct Plan<T, O, E>(PhantomData<(T, O, E)>);

impl<T, O: Shape, E: Expr<T>> Plan<T, O, E> {
    /// How the tree reads.
    const READING: Reading = reading::<T, E>();
    /// The walk.
    pub(crate) const WALK: Walk = Self::READING.walk(O::LEN, O::RANK, O::ROW_LEN);
    /// The output axis a tile's rows step along.
    pub(crate) const TILE_AXIS: usize = Self::READING.tile_rows.axis(O::RANK);
    /// The elements of a unit of the walk, the least part it is split
    /// into: one element of a flat walk, one row of a row walk, and in a
    /// tiled walk one index of the tiles' axis (a product's row, a
    /// convolution's channel), every index after it.
    pub(crate) const UNIT_LEN: usize = match Self::WALK {
        Walk::Flat => 1,
        Walk::Rows => O::ROW_LEN,
        Walk::Tiles if Self::MERGED => O::ROW_LEN,
        Walk::Tiles => tile_unit_len(O::DIMS, O::RANK, Self::TILE_AXIS),
    };
    /// Whether a tiled walk's rows are every axis but the last, merged
    /// ([`TileRows::Positions`](crate::expr::TileRows)): one matrix of
    /// `LEN / ROW_LEN` rows.
    pub(crate) const MERGED: bool = Self::READING.tile_rows.merges(O::RANK);
    /// The indices of the tiles' axis in one matrix of a tiled walk (one
    /// where the output has too few dims for the axis; every row where
    /// they are merged).
    pub(crate) const MATRIX_ROWS: usize = if Self::MERGED {
        match O::LEN.checked_div(O::ROW_LEN) {
            Some(rows) => rows,
            None => 0,
        }
    } else if O::RANK >= 2 {
        O::DIMS[Self::TILE_AXIS]
    } else {
        1
    };
    /// Whether a walk may be split across threads ([`parallel`]; see
    /// [`splits_across_threads`]).
    #[cfg_attr(not(feature = "rayon"), allow(dead_code))]
    pub(crate) const PARALLEL: bool = splits_across_threads(O::LEN, Self::READING);
    /// Whether the tree's one product is computed in cache-sized blocks
    /// from packed operands ([`Reading::packed`](crate::expr::Reading)):
    /// it is as long as the output (so each output element is one of its
    /// own) and its rows are the tiles' rows.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(crate) const PACKED: bool = Self::READING.holds.products == 1
        && Self::READING.packed > 0
        && Self::READING.packed == O::LEN
        && O::RANK >= 2
        && Self::TILE_AXIS == O::RANK - 2;
    /// Whether the walk runs at the selected instruction-set level
    /// ([`runs_at_selected_level`]); otherwise the compile-time target's
    /// nest runs, inline. Not for an int8 layer that the runtime's layer
    /// kernels store at every level from AVX2 ([`Self::LAYER_KERNELS`]):
    /// its nest runs only where they decline (below AVX2, constants past
    /// their range), so its copies for AVX2 and AVX-512 would serve only
    /// those.
    pub(crate) const AT_SELECTED_LEVEL: bool =
        runs_at_selected_level(O::LEN, Self::READING, Self::WALK) && !Self::LAYER_KERNELS;
    /// Whether the tree is an int8 layer ([`Stage::Stored`]) the runtime's
    /// layer kernels store whole, in one piece: they exist in this build
    /// (an allocator, and run-time detection on x86-64: `cfg(vnni_kernel)`),
    /// no split across threads gives the nest the parts, and the nest is
    /// tiled (its target's copy is out of line, `dispatch::drive_tiles`).
    pub(crate) const LAYER_KERNELS: bool = matches!(E::OWN.layer, Stage::Stored)
        && cfg!(all(feature = "alloc", vnni_kernel))
        && !(cfg!(feature = "rayon") && Self::PARALLEL)
        && matches!(Self::WALK, Walk::Tiles);
}

/// Whether a walk `walk` over `elements` output elements of a tree that
/// reads as `reading` runs at the selected instruction-set level
/// ([`crate::isa`]) rather than the compile-time target's: a tiled walk
/// unless its products are small (output elements times the longest
/// contraction at most [`SMALL_PRODUCT`], where the choice costs more than
/// it gains), a flat or row walk from [`DISPATCHED_ELEMENTS`] elements. A
/// static output's [`Plan::AT_SELECTED_LEVEL`]; a walk of run-time rows
/// asks it with its element count.
pub(crate) const fn runs_at_selected_level(
    elements: usize,
    reading: crate::expr::Reading,
    walk: Walk,
) -> bool {
    match walk {
        Walk::Tiles => {
            reading.contraction == 0 || elements.saturating_mul(reading.contraction) > SMALL_PRODUCT
        }
        Walk::Flat | Walk::Rows => elements >= DISPATCHED_ELEMENTS,
    }
}

/// The output elements from which a flat or row walk runs at the selected
/// level, in a function of its own ([`runs_at_selected_level`]).
pub(crate) const DISPATCHED_ELEMENTS: usize = 1024;

/// The multiply-adds of a product up to which the tiled nest skips the
/// run-time dispatch ([`runs_at_selected_level`]): 4x4 @ 4x4. Dispatched,
/// a product this small spends as much on the call as on its arithmetic
/// (the Kalman step of `benches/linalg.rs`, 4x4 and 4x2 products, is
/// slower at 63 than at 64); 512 measures as 64 does.
pub(crate) const SMALL_PRODUCT: usize = 64;

/// The work (output elements times the longest contraction, at least 16)
/// from which a walk is split across threads: a `[64, 64] @ [64, 1024]`
/// product, or 262,144 elements of an elementwise expression. At the
/// threshold a split still gains on 2 cores (`cargo bench --bench parallel
/// --features rayon`, PERFORMANCE.md);
/// much below it, rayon's few microseconds to hand out the parts would
/// approach the work itself. Outputs below it were not measured.
#[cfg_attr(not(feature = "rayon"), allow(dead_code))]
pub(crate) const PARALLEL_WORK: usize = 1 << 22;

/// Whether a walk over `elements` output elements of a tree that reads as
/// `reading` may be split across threads ([`parallel`]): no node keeps a
/// row cache (their caches are filled in the walk's order; the contract of
/// [`Expr`]), and there is enough work to pay for the threads
/// ([`PARALLEL_WORK`]). A static output's [`Plan::PARALLEL`]; an output
/// whose rows are counted at run time asks it with its element count.
#[cfg_attr(not(feature = "rayon"), allow(dead_code))]
pub(crate) const fn splits_across_threads(elements: usize, reading: crate::expr::Reading) -> bool {
    let work_per_element = if reading.contraction > 16 {
        reading.contraction
    } else {
        16
    };
    !reading.holds.cached_rows && elements * work_per_element >= PARALLEL_WORK
}

/// The elements per index of `axis` of a shape of `rank` dims `dims`:
/// the product of the dims after it (all of them for a rank below 2,
/// whose one tile row is the whole output).
const fn tile_unit_len(dims: &[usize], rank: usize, axis: usize) -> usize {
    let mut len = 1;
    let mut k = if rank >= 2 { axis + 1 } else { 0 };
    while k < rank {
        len *= dims[k];
        k += 1;
    }
    len
}

/// The outer index (dims `..axes` of `O`) of the `index`-th position of
/// an odometer over those dims.
#[inline(always)]
pub(crate) fn unravel<O: Shape>(mut index: usize, axes: usize) -> [usize; MAX_RANK] {
    let mut outer = [0usize; MAX_RANK];
    for k in (0..axes).rev() {
        let dim = O::DIMS[k];
        if dim > 0 {
            outer[k] = index % dim;
            index /= dim;
        }
    }
    outer
}

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
