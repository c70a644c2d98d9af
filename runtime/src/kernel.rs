//! The loop-nest driver: one pass over the output index space per expression.
//!
//! The output is walked row by row (an odometer over every dim but the last); for
//! each row every leaf re-slices the elements it reads, and the innermost loop runs
//! over the last dim, contiguous for the output. Strides and extents are constants
//! of the monomorphised shapes, so LLVM sees a plain loop with stride-1 loads and
//! splats, which it vectorises like a hand-written one. Nothing is allocated and
//! no intermediate tensor exists.

use crate::access::Target;
use crate::element::Element;
use crate::expr::map::map2_unchecked;
use crate::expr::{BinaryFunction, Context, Expr, Map2, Row, TargetLeaf, Tile};
use crate::rules::in_place::BroadcastInto;
use crate::rules::rank::RankRule;
use crate::shape::{Shape, MAX_RANK};
use core::mem::MaybeUninit;

/// Evaluates `e` into uninitialised slots (at least `E::Shape::LEN` of them),
/// writing each exactly once: the nest behind
/// [`Evaluate::evaluate`](crate::placement::Evaluate::evaluate).
#[inline]
pub(crate) fn drive_into_uninit<T: Element, E: Expr<T>>(out: &mut [MaybeUninit<T>], e: &E) {
    drive::<T, E::Shape, E, _>(out, e);
}

/// Writes `e` into `target` (`tensor_expr!(out = e)`); `e` must broadcast to the
/// target's shape without changing it.
#[inline]
#[rustfmt::skip]
pub fn assign<T: Element, M, X: Target<Element = T> + ?Sized, E: Expr<T>>(_context: Context<T, M>, target: &mut X, e: E) -> Written<M, X, E> where E::Shape: RankRule<X::Shape, M>, Ranked<M, X, E>: BroadcastInto<X::Shape> {
    drive::<T, X::Shape, E, T>(target.target_slice(), &e);
    Written::<M, X, E>::default()
}

/// Updates `target` to `f(target, e)` in place (`out += e` and friends), under the
/// same in-place rule as [`assign`].
#[inline]
#[rustfmt::skip]
pub fn update<T: Element, M, X: Target<Element = T> + ?Sized, F: BinaryFunction<T>, E: Expr<T>>(_context: Context<T, M>, target: &mut X, _f: F, e: E) -> Written<M, X, E> where E::Shape: RankRule<X::Shape, M>, Ranked<M, X, E>: BroadcastInto<X::Shape> {
    // The in-place bound already guarantees that the target and `e` broadcast.
    let updated: Map2<T, F, TargetLeaf<X::Shape>, E, X::Shape> = map2_unchecked(TargetLeaf::default(), e);
    drive::<T, X::Shape, _, T>(target.target_slice(), &updated);
    Written::<M, X, E>::default()
}

/// The value's shape under mode `M`'s rank rule against the target's.
type Ranked<M, X, E> =
    <<E as crate::expr::Shaped>::Shape as RankRule<<X as Target>::Shape, M>>::Checked;

/// What the in-place constructors return (a tuple of `()`; the macro discards
/// it). Computed by projection so that a failing rule is reported once, by its
/// own message, with no note pointing into the library.
type Written<M, X, E> = <Ranked<M, X, E> as BroadcastInto<<X as Target>::Shape>>::Written;

/// An output element the nest writes: a target's element, whose present value
/// a [`TargetLeaf`] reads, or an uninitialised slot of a new tensor (which no
/// leaf reads: its `current` is a constant nobody uses).
trait Slot<T>: Sized {
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

/// Runs the loop nest for output shape `O` over `out` (at least `O::LEN` long):
/// row by row, or tile by tile if `e` contains a matrix product.
#[inline(always)]
fn drive<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(out: &mut [X], e: &E) {
    if E::TILED && !E::BUFFERED {
        drive_tiles::<T, O, E, X>(out, e);
    } else {
        drive_rows::<T, O, E, X>(out, e);
    }
}

/// Whether `E` reads output shape `O` as one row (see [`Expr::FLAT`]): a
/// constant, so the walk it does not pick is removed as dead code.
struct ReadsFlat<T, O, E>(core::marker::PhantomData<(T, O, E)>);

impl<T, O: Shape, E: Expr<T>> ReadsFlat<T, O, E> {
    const YES: bool = O::RANK > 1 && E::FLAT.covers(O::LEN);
}

/// The elementwise nest: one contiguous inner loop per output row, or one
/// over the whole output where every operand has its shape or is a scalar
/// (a loop per row leaves its vector loop, and runs its scalar remainder,
/// once per row, which a hand loop over the flat data does not).
#[inline(always)]
fn drive_rows<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(out: &mut [X], e: &E) {
    if O::LEN == 0 {
        return;
    }
    let out = &mut out[..O::LEN];
    if ReadsFlat::<T, O, E>::YES {
        let row = e.flat_row();
        for (j, slot) in out.iter_mut().enumerate() {
            slot.set(row.get(j, slot.current()));
        }
        return;
    }
    let mut outer = [0usize; MAX_RANK];
    for out_row in out.chunks_exact_mut(O::ROW_LEN) {
        let row = e.row::<O>(outer);
        for (j, slot) in out_row.iter_mut().enumerate() {
            slot.set(row.get(j, slot.current()));
        }
        advance_outer::<O>(&mut outer);
    }
}

/// The width of the compile-time target's widest float vector, in `f32` lanes.
const VECTOR_LANES: usize = if cfg!(target_feature = "avx512f") {
    16
} else if cfg!(target_feature = "avx") {
    8
} else {
    4
};

/// The vector width, in `f32` lanes, that the compile-time target's tiles
/// are sized for: 8 with AVX-512 too, since LLVM prefers 256-bit vectors on
/// the CPUs that have it (`-C target-cpu=native`), and 8 rows of two 16-lane
/// vectors then took all 32 registers as 32 halves, spilling in the `k`
/// loop as soon as an epilogue needed a register.
const TILE_LANES: usize = if VECTOR_LANES > 8 { 8 } else { VECTOR_LANES };

/// Output rows per tile of a product for a vector width: each row is one named
/// accumulator array. With 32 vector registers (AVX-512) 8 rows halve the loads
/// of the right operand per multiply-add, which bound a large product; with
/// 16 registers (SSE, AVX) 4 rows leave room for the right operand's row.
const fn tile_rows(lanes: usize) -> usize {
    if lanes >= 16 {
        8
    } else {
        4
    }
}

/// The nest of an expression with a matrix product.
///
/// With `std` on x86-64, a target without AVX2 or AVX-512 at compile time (the
/// default `x86-64` target) still gets them when the CPU has them: the nest is
/// compiled a second and third time inside functions with those features
/// enabled, and one is chosen at run time (one cached check per evaluation).
#[inline(always)]
fn drive_tiles<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(out: &mut [X], e: &E) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        if VECTOR_LANES < 16 && std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F (checked on the line above).
            unsafe { x86::drive_tiles_avx512::<T, O, E, X>(out, e) };
            return;
        }
        if VECTOR_LANES < 8
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has AVX2 and FMA (checked above).
            unsafe { x86::drive_tiles_avx2::<T, O, E, X>(out, e) };
            return;
        }
    }
    const FUSE: bool = cfg!(target_feature = "fma");
    const ROWS: usize = tile_rows(VECTOR_LANES);
    drive_tiles_for::<T, O, E, X, ROWS, { 2 * TILE_LANES }, TILE_LANES, FUSE>(out, e);
}

/// The tiled nest recompiled for wider vectors than the compile-time target's.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod x86 {
    use super::{drive_tiles_for, tile_rows, Slot};
    use crate::element::Element;
    use crate::expr::Expr;
    use crate::shape::Shape;

    /// The nest with AVX-512 (16 lanes, 8-row tiles of 32 columns) and FMA.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub(super) unsafe fn drive_tiles_avx512<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
        out: &mut [X],
        e: &E,
    ) {
        drive_tiles_for::<T, O, E, X, { tile_rows(16) }, 32, 16, true>(out, e);
    }

    /// The nest with AVX2 (8 lanes, 4-row tiles of 16 columns) and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn drive_tiles_avx2<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
        out: &mut [X],
        e: &E,
    ) {
        drive_tiles_for::<T, O, E, X, { tile_rows(8) }, 16, 8, true>(out, e);
    }
}

/// The tiled nest for vectors of `LANES` `f32`: for each matrix of the output
/// (every index but the last two), blocks of `ROWS` rows, each cut into tiles
/// of `WIDE = 2 * LANES` columns (two vectors per accumulator row); the
/// remainders in narrower tiles.
#[inline(always)]
#[rustfmt::skip]
fn drive_tiles_for<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const ROWS: usize, const WIDE: usize, const LANES: usize, const FUSE: bool>(out: &mut [X], e: &E) {
    if O::LEN == 0 {
        return;
    }
    let columns = O::ROW_LEN;
    let rows = if O::RANK >= 2 { O::DIMS[O::RANK - 2] } else { 1 };
    let row_axis = O::RANK.saturating_sub(2);
    let mut outer = [0usize; MAX_RANK];
    for matrix in out[..O::LEN].chunks_exact_mut(rows * columns) {
        let mut i = 0;
        while i + ROWS <= rows {
            outer[row_axis] = i;
            let block = &mut matrix[i * columns..(i + ROWS) * columns];
            drive_row_block::<T, O, E, X, ROWS, WIDE, LANES, FUSE>(block, e, outer);
            i += ROWS;
        }
        if ROWS > 4 && i + 4 <= rows {
            outer[row_axis] = i;
            let block = &mut matrix[i * columns..(i + 4) * columns];
            drive_row_block::<T, O, E, X, 4, WIDE, LANES, FUSE>(block, e, outer);
            i += 4;
        }
        while i < rows {
            outer[row_axis] = i;
            let block = &mut matrix[i * columns..(i + 1) * columns];
            drive_row_block::<T, O, E, X, 1, WIDE, LANES, FUSE>(block, e, outer);
            i += 1;
        }
        outer[row_axis] = 0;
        advance_odometer::<O>(&mut outer, row_axis);
    }
}

/// One block of `R` output rows, `block` holding them row-major: tiles of
/// `WIDE` columns, then `LANES`, then 8 and 4 (small matrices on wide vectors),
/// then single columns.
#[inline(always)]
#[rustfmt::skip]
fn drive_row_block<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const R: usize, const WIDE: usize, const LANES: usize, const FUSE: bool>(block: &mut [X], e: &E, outer: [usize; MAX_RANK]) {
    let mut j = 0;
    while j + WIDE <= O::ROW_LEN {
        store_tile::<T, O, X, R, WIDE>(block, e.tile::<O, R, WIDE, FUSE>(outer, j), j);
        j += WIDE;
    }
    while j + LANES <= O::ROW_LEN {
        store_tile::<T, O, X, R, LANES>(block, e.tile::<O, R, LANES, FUSE>(outer, j), j);
        j += LANES;
    }
    if LANES > 8 && j + 8 <= O::ROW_LEN {
        store_tile::<T, O, X, R, 8>(block, e.tile::<O, R, 8, FUSE>(outer, j), j);
        j += 8;
    }
    if LANES > 4 && j + 4 <= O::ROW_LEN {
        store_tile::<T, O, X, R, 4>(block, e.tile::<O, R, 4, FUSE>(outer, j), j);
        j += 4;
    }
    while j < O::ROW_LEN {
        store_tile::<T, O, X, R, 1>(block, e.tile::<O, R, 1, FUSE>(outer, j), j);
        j += 1;
    }
}

/// Writes an `R x C` tile at column `j0` of a block of rows: each row of the
/// tile computed into an array, then stored. (Stored element by element
/// from the tile, a product whose result a tensor is added to, `x @ w + b`,
/// has its whole `k` loop scalarised by LLVM, some 20x slower.)
#[inline(always)]
fn store_tile<T: Element, O: Shape, X: Slot<T>, const R: usize, const C: usize>(
    block: &mut [X],
    tile: impl Tile<T>,
    j0: usize,
) {
    for (r, row) in block.chunks_exact_mut(O::ROW_LEN).take(R).enumerate() {
        let Ok(slots) = <&mut [X; C]>::try_from(&mut row[j0..j0 + C]) else {
            unreachable!("a slice of `C` elements")
        };
        // A loop, not `core::array::from_fn`: with a long epilogue
        // (`sigmoid(x @ w + b)`) LLVM keeps `from_fn`'s closure out of line
        // and calls it once per element, several times slower than the
        // product alone.
        let mut values = [T::ZERO; C];
        for (j, value) in values.iter_mut().enumerate() {
            *value = tile.get(r, j, slots[j].current());
        }
        for (slot, value) in slots.iter_mut().zip(values) {
            slot.set(value);
        }
    }
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
fn advance_odometer<O: Shape>(outer: &mut [usize; MAX_RANK], axes: usize) -> bool {
    let mut k = axes;
    while k > 0 {
        k -= 1;
        outer[k] += 1;
        if outer[k] < O::DIMS[k] {
            return true;
        }
        outer[k] = 0;
    }
    false
}
