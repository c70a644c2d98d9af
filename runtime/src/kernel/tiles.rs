//! The tiled nest of an expression with a matrix product: blocks of output
//! rows cut into tiles of columns, each tile computed by the expression's
//! `tile` reader (the product's register-tiled kernel plus its epilogue) and
//! stored once.

use super::{unravel, Slot};
use crate::element::Element;
use crate::expr::{Expr, Tile, TileOrigin};
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;
use core::ops::Range;

/// The width of the compile-time target's widest float vector, in `f32`
/// lanes, which its tiles are sized for. With AVX-512, 8 x 32 tiles, the
/// same as the default build's run-time dispatch, whose `f32` products take
/// the kernel written in AVX-512 instructions (`expr/matmul/avx512.rs`):
/// LLVM's tuning for Intel's AVX-512 server CPUs prefers 256-bit vectors,
/// and the generic kernel's 8 x 32 tile then spilled in its `k` loop.
pub(super) const VECTOR_LANES: usize = if cfg!(target_feature = "avx512f") {
    16
} else if cfg!(target_feature = "avx") {
    8
} else {
    4
};

/// Output rows per tile of a product for a vector width: each row is one named
/// accumulator array. With 32 vector registers (AVX-512) 8 rows halve the loads
/// of the right operand per multiply-add, which bound a large product; with
/// 16 registers (SSE, AVX) 4 rows leave room for the right operand's row.
pub(super) const fn tile_rows(lanes: usize) -> usize {
    if lanes >= 16 {
        8
    } else {
        4
    }
}

/// The most output rows of a tile, at any level (AVX-512's).
pub(crate) const MOST_TILE_ROWS: usize = tile_rows(16);

/// The tiled nest for vectors of `LANES` `f32`: for each matrix of the output
/// (every index before the axis the tiles' rows step along, which
/// [`Reading::tile_rows`](crate::expr::Reading::tile_rows) picks), blocks of
/// `ROWS` rows along that axis, each cut into tiles of `WIDE = 2 * LANES`
/// columns (two vectors per accumulator row) at every index of the axes
/// between it and the last; the remainders in narrower tiles. A product's
/// rows are the second-to-last axis, so its block is `ROWS` consecutive rows;
/// a channels-first convolution's are its channels, `H * W` elements apart.
/// `part` holds the rows (counted across matrices) from `first` on.
#[inline(always)]
#[rustfmt::skip]
pub(super) fn drive_tiles_for<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const ROWS: usize, const ROW_WIDE: usize, const WIDE: usize, const LANES: usize, const FUSE: bool>(part: &mut [X], e: &E, first: usize) {
    let row_stride = super::Plan::<T, O, E>::UNIT_LEN;
    let rows = super::Plan::<T, O, E>::MATRIX_ROWS;
    for (part_rows, outer, range) in MatrixRows::<X, O>::new::<T, E>(part, first) {
        if range == (0..rows) {
            // A whole matrix, as a slice of its constant length: LLVM then
            // drops the bounds checks of the tiles' stores (sliced from a
            // run of rows of unknown length, a convolution ran 30% slower).
            let matrix = &mut part_rows[..rows * row_stride];
            drive_matrix_rows::<T, O, E, X, ROWS, ROW_WIDE, WIDE, LANES, FUSE, true>(matrix, e, outer, 0..rows);
        } else {
            #[cfg(feature = "rayon")]
            drive_part_of_matrix::<T, O, E, X, ROWS, ROW_WIDE, WIDE, LANES, FUSE>(part_rows, e, outer, range);
            // Only a split walk has parts that end inside a matrix.
            #[cfg(not(feature = "rayon"))]
            unreachable!("a part of a matrix without the rayon feature");
        }
    }
}

/// [`drive_matrix_rows`] for a part that ends inside a matrix (a split
/// walk's). Always inlined where optimised, so that it runs with the
/// instruction set of its walk; out of line in a debug build, where a
/// second inlined copy of the tile loops doubled the frame of every walk
/// and `tests/heap.rs`'s product overflowed its 256 KiB stack.
#[cfg(feature = "rayon")]
#[cfg_attr(debug_assertions, inline(never))]
#[cfg_attr(not(debug_assertions), inline(always))]
#[rustfmt::skip]
fn drive_part_of_matrix<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const ROWS: usize, const ROW_WIDE: usize, const WIDE: usize, const LANES: usize, const FUSE: bool>(rows: &mut [X], e: &E, outer: [usize; MAX_RANK], range: Range<usize>) {
    drive_matrix_rows::<T, O, E, X, ROWS, ROW_WIDE, WIDE, LANES, FUSE, false>(rows, e, outer, range);
}

/// Rows `range` of one matrix of the output, `rows` holding them:
/// blocks of `ROWS` rows, then 4, then 1. A single row's tiles start at
/// `ROW_WIDE` columns (four times `WIDE`): a row of `WIDE` has only two
/// vectors of sums, and each waits for its last multiply-add: natively a
/// vector times a matrix (`[256] @ [256, 129]`) runs at about three
/// quarters of the speed of eight (`cargo bench --bench matmul -- vector`).
///
/// Where the range is the `WHOLE` matrix, its row count is a constant,
/// and only the block heights it needs are compiled ([`cuts`]); a part of
/// a split walk may need any. A whole walk of merged rows ends instead
/// with one more block of `ROWS` that overlaps the last one
/// ([`overlaps_its_tail`]).
#[inline(always)]
#[rustfmt::skip]
fn drive_matrix_rows<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const ROWS: usize, const ROW_WIDE: usize, const WIDE: usize, const LANES: usize, const FUSE: bool, const WHOLE: bool>(rows: &mut [X], e: &E, mut outer: [usize; MAX_RANK], range: Range<usize>) {
    let row_stride = super::Plan::<T, O, E>::UNIT_LEN;
    let axis = super::Plan::<T, O, E>::TILE_AXIS;
    let (start, end) = (range.start, range.end);
    let mut i = start;
    if const { WHOLE && (ONE_TILE_SIZE || overlaps_its_tail::<T, O, E>(ROWS)) } {
        // One block height, the last block overlapping the one before
        // (each height inlines the whole tile): the tallest that fits.
        if const { super::Plan::<T, O, E>::MATRIX_ROWS >= ROWS } {
            drive_overlapping_blocks::<T, O, E, X, ROWS, WIDE, WIDE, LANES, FUSE>(rows, row_stride, e, &mut outer, axis, start..end);
        } else if const { ROWS > 4 && super::Plan::<T, O, E>::MATRIX_ROWS >= 4 } {
            drive_overlapping_blocks::<T, O, E, X, 4, WIDE, WIDE, LANES, FUSE>(rows, row_stride, e, &mut outer, axis, start..end);
        } else {
            drive_overlapping_blocks::<T, O, E, X, 1, ROW_WIDE, WIDE, LANES, FUSE>(rows, row_stride, e, &mut outer, axis, start..end);
        }
        return;
    }
    if const { !WHOLE || cuts(super::Plan::<T, O, E>::MATRIX_ROWS, &[ROWS, 4, 1])[0] } {
        while i + ROWS <= end {
            drive_blocks_at::<T, O, E, X, ROWS, WIDE, WIDE, LANES, FUSE>(&mut rows[(i - start) * row_stride..], row_stride, e, &mut outer, axis, i, 0);
            i += ROWS;
        }
    }
    if const { ROWS > 4 && !(WHOLE && overlaps_its_tail::<T, O, E>(ROWS)) && (!WHOLE || cuts(super::Plan::<T, O, E>::MATRIX_ROWS, &[ROWS, 4, 1])[1]) } && i + 4 <= end {
        drive_blocks_at::<T, O, E, X, 4, WIDE, WIDE, LANES, FUSE>(&mut rows[(i - start) * row_stride..], row_stride, e, &mut outer, axis, i, 0);
        i += 4;
    }
    if const { !(WHOLE && overlaps_its_tail::<T, O, E>(ROWS)) && (!WHOLE || cuts(super::Plan::<T, O, E>::MATRIX_ROWS, &[ROWS, 4, 1])[2]) } {
        while i < end {
            drive_blocks_at::<T, O, E, X, 1, ROW_WIDE, WIDE, LANES, FUSE>(&mut rows[(i - start) * row_stride..], row_stride, e, &mut outer, axis, i, 0);
            i += 1;
        }
    }
}

/// Whether a whole matrix is walked in one block height and one tile width,
/// the last block and tile of each overlapping the one before it (computed
/// again, stored once; [`drive_overlapping_blocks`], [`drive_row_block`])
/// rather than in blocks of 4 and single rows and tiles of every narrower
/// width: where an expression's nests are compiled once, unoptimised
/// (a build of the dev profile, [`EVERY_LEVEL`](crate::isa::EVERY_LEVEL)).
/// Each height and width is a copy of the whole tile with its epilogue;
/// there, compiling fewer of them is worth more than the work computed
/// twice at the edges. The bits of each element are the same either way:
/// its sum runs over `k` alike in every tile.
const ONE_TILE_SIZE: bool = !crate::isa::EVERY_LEVEL;

/// The rows `range` of one whole matrix (`rows` holding them) in blocks of
/// `R` rows, the last block starting at `range.end - R` and its rows
/// before the ones not yet stored computed again and not stored. The
/// range holds at least `R` rows.
#[inline(always)]
#[rustfmt::skip]
fn drive_overlapping_blocks<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const R: usize, const ROW_WIDE: usize, const WIDE: usize, const LANES: usize, const FUSE: bool>(rows: &mut [X], row_stride: usize, e: &E, outer: &mut [usize; MAX_RANK], axis: usize, range: Range<usize>) {
    let (start, end) = (range.start, range.end);
    let mut i = start;
    while i < end {
        let from = i.min(end - R);
        drive_blocks_at::<T, O, E, X, R, ROW_WIDE, WIDE, LANES, FUSE>(&mut rows[(from - start) * row_stride..], row_stride, e, outer, axis, from, i - from);
        i = from + R;
    }
}

/// Whether a whole walk of `E` over `O` in blocks of `block` rows ends
/// with one more block of `block` rows ending at the last row, which
/// recomputes the rows before it that the blocks already stored and stores
/// the rest, rather than blocks of 4 and of single rows: where the rows
/// are merged (the positions of a channels-last int8 convolution, each
/// computed on its own, so a row computed again is the same values) and
/// more than one block but not a multiple. Each tile height is a variant
/// of the whole tile, with its code and, where LLVM does not share stack
/// slots between them (opt-level "s"), its own stack.
const fn overlaps_its_tail<T: Element, O: Shape, E: Expr<T>>(block: usize) -> bool {
    let rows = super::Plan::<T, O, E>::MATRIX_ROWS;
    super::Plan::<T, O, E>::MERGED && rows > block && !rows.is_multiple_of(block)
}

/// Which of the widths `sizes` (widest first) a length of `len` is cut
/// into, as the tile loops cut it: as many of the first as fit, then of
/// the next in what is left, and so on; a width of 0, or one equal to an
/// earlier width, is not used. The loops over the widths not used are not
/// compiled, which the number of variants of an expression's tile (its
/// build time and code) depends on.
pub(super) const fn cuts<const N: usize>(len: usize, sizes: &[usize; N]) -> [bool; N] {
    let mut used = [false; N];
    let mut rest = len;
    let mut k = 0;
    while k < N {
        let mut fresh = sizes[k] > 0;
        let mut earlier = 0;
        while earlier < k {
            fresh &= sizes[earlier] != sizes[k];
            earlier += 1;
        }
        if fresh && rest >= sizes[k] {
            used[k] = true;
            rest %= sizes[k];
        }
        k += 1;
    }
    used
}

/// The matrices that `part` (the rows of the tiles' axis from `first` on,
/// counted across matrices) covers, each as its rows there, the matrix's
/// outer index (every dim before the axis; the axis and later at 0) and
/// the range of its rows. (An iterator, not a function taking a closure: a
/// closure holding the tile loops was compiled out of line, without the
/// vector registers of the walk around it, 200 times slower.)
pub(super) struct MatrixRows<'a, X, O> {
    rest: &'a mut [X],
    unit: usize,
    rows: usize,
    row_stride: usize,
    axis: usize,
    shape: PhantomData<O>,
}

impl<'a, X, O: Shape> MatrixRows<'a, X, O> {
    /// The matrices of `part`, rows `first..` of the tiled walk of `E`
    /// over an output `O` ([`Plan`](super::Plan)'s axis, unit and rows).
    #[inline(always)]
    pub(super) fn new<T, E: Expr<T>>(part: &'a mut [X], first: usize) -> Self {
        let axis = super::Plan::<T, O, E>::TILE_AXIS;
        let row_stride = super::Plan::<T, O, E>::UNIT_LEN;
        let rows = super::Plan::<T, O, E>::MATRIX_ROWS;
        let rest = if O::LEN == 0 { &mut [] } else { part };
        MatrixRows {
            rest,
            unit: first,
            rows,
            row_stride,
            axis,
            shape: PhantomData,
        }
    }
}

impl<'a, X, O: Shape> Iterator for MatrixRows<'a, X, O> {
    type Item = (&'a mut [X], [usize; MAX_RANK], Range<usize>);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.len() < self.row_stride || self.row_stride == 0 {
            return None;
        }
        let (matrix, start) = (self.unit / self.rows, self.unit % self.rows);
        let count = (self.rows - start).min(self.rest.len() / self.row_stride);
        let (here, later) = core::mem::take(&mut self.rest).split_at_mut(count * self.row_stride);
        self.rest = later;
        self.unit += count;
        Some((here, unravel::<O>(matrix, self.axis), start..start + count))
    }
}

/// The blocks of `R` rows from index `i` of `axis` in one matrix, `rows`
/// holding them from row `i` on: one block at each index of the axes
/// between `axis` and the last, each block's rows `row_stride` elements
/// apart, the first `skip` rows of each computed and not stored.
#[inline(always)]
#[rustfmt::skip]
fn drive_blocks_at<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const R: usize, const ROW_WIDE: usize, const WIDE: usize, const LANES: usize, const FUSE: bool>(rows: &mut [X], row_stride: usize, e: &E, outer: &mut [usize; MAX_RANK], axis: usize, i: usize, skip: usize) {
    let columns = O::ROW_LEN;
    if const { super::Plan::<T, O, E>::MERGED } {
        // One block: row `i` counted across every axis but the last.
        let block = &mut rows[..(R - 1) * row_stride + columns];
        drive_row_block::<T, O, E, X, R, ROW_WIDE, WIDE, LANES, FUSE, true>(block, row_stride, e, TileOrigin::merged(i), 0..columns, skip);
        return;
    }
    let last = O::RANK.saturating_sub(1);
    let between = (axis + 1).min(last)..last;
    outer[axis] = i;
    let mut first = 0;
    loop {
        let block = &mut rows[first..first + (R - 1) * row_stride + columns];
        drive_row_block::<T, O, E, X, R, ROW_WIDE, WIDE, LANES, FUSE, true>(block, row_stride, e, TileOrigin::new(*outer, axis), 0..columns, skip);
        first += columns;
        if !crate::shape::advance_odometer(&mut outer[between.clone()], &O::DIMS[between.clone()]) {
            break;
        }
    }
}

/// One block of `R` output rows, `block` holding them `row_stride` elements
/// apart, over `columns`: tiles of `FIRST` columns (where wider than
/// `WIDE`), of `WIDE`, then `LANES`, then 8 and 4 (small matrices on wide
/// vectors), then single columns. Where `columns` is the `WHOLE` row, only
/// the widths its constant length needs are compiled ([`cuts`]). The
/// first `skip` rows are computed and not stored.
#[inline(always)]
#[rustfmt::skip]
pub(super) fn drive_row_block<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const R: usize, const FIRST: usize, const WIDE: usize, const LANES: usize, const FUSE: bool, const WHOLE: bool>(block: &mut [X], row_stride: usize, e: &E, at: TileOrigin, columns: Range<usize>, skip: usize) {
    let (mut j, end) = (columns.start, columns.end);
    if const { WHOLE && ONE_TILE_SIZE } {
        // One width, the widest that fits ([`ONE_TILE_SIZE`]).
        if const { FIRST > WIDE && O::ROW_LEN >= FIRST } {
            store_overlapping_tiles::<T, O, E, X, R, FIRST, FUSE>(block, row_stride, e, at, columns, skip);
        } else if const { O::ROW_LEN >= WIDE } {
            store_overlapping_tiles::<T, O, E, X, R, WIDE, FUSE>(block, row_stride, e, at, columns, skip);
        } else if const { LANES < WIDE && O::ROW_LEN >= LANES } {
            store_overlapping_tiles::<T, O, E, X, R, LANES, FUSE>(block, row_stride, e, at, columns, skip);
        } else if const { LANES > 8 && O::ROW_LEN >= 8 } {
            store_overlapping_tiles::<T, O, E, X, R, 8, FUSE>(block, row_stride, e, at, columns, skip);
        } else if const { LANES > 4 && O::ROW_LEN >= 4 } {
            store_overlapping_tiles::<T, O, E, X, R, 4, FUSE>(block, row_stride, e, at, columns, skip);
        } else {
            store_overlapping_tiles::<T, O, E, X, R, 1, FUSE>(block, row_stride, e, at, columns, skip);
        }
        return;
    }
    if const { FIRST > WIDE && (!WHOLE || column_cuts(O::ROW_LEN, FIRST, WIDE, LANES)[0]) } {
        while j + FIRST <= end {
            store_tile::<T, O, X, R, FIRST>(block, row_stride, e.tile::<O, R, FIRST, FUSE>(at, j), j, (skip, 0));
            j += FIRST;
        }
    }
    if const { !WHOLE || column_cuts(O::ROW_LEN, FIRST, WIDE, LANES)[1] } {
        while j + WIDE <= end {
            store_tile::<T, O, X, R, WIDE>(block, row_stride, e.tile::<O, R, WIDE, FUSE>(at, j), j, (skip, 0));
            j += WIDE;
        }
    }
    if const { LANES < WIDE && (!WHOLE || column_cuts(O::ROW_LEN, FIRST, WIDE, LANES)[2]) } {
        while j + LANES <= end {
            store_tile::<T, O, X, R, LANES>(block, row_stride, e.tile::<O, R, LANES, FUSE>(at, j), j, (skip, 0));
            j += LANES;
        }
    }
    if const { LANES > 8 && (!WHOLE || column_cuts(O::ROW_LEN, FIRST, WIDE, LANES)[3]) } && j + 8 <= end {
        store_tile::<T, O, X, R, 8>(block, row_stride, e.tile::<O, R, 8, FUSE>(at, j), j, (skip, 0));
        j += 8;
    }
    if const { LANES > 4 && (!WHOLE || column_cuts(O::ROW_LEN, FIRST, WIDE, LANES)[4]) } && j + 4 <= end {
        store_tile::<T, O, X, R, 4>(block, row_stride, e.tile::<O, R, 4, FUSE>(at, j), j, (skip, 0));
        j += 4;
    }
    if const { !WHOLE || column_cuts(O::ROW_LEN, FIRST, WIDE, LANES)[5] } {
        while j < end {
            store_tile::<T, O, X, R, 1>(block, row_stride, e.tile::<O, R, 1, FUSE>(at, j), j, (skip, 0));
            j += 1;
        }
    }
}

/// The tiles of `C` columns of one block over `columns` (at least `C`),
/// the last one ending at `columns.end` and its columns before the ones not
/// yet stored computed again and not stored; the first `skip` rows of
/// each computed and not stored.
#[inline(always)]
#[rustfmt::skip]
fn store_overlapping_tiles<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const R: usize, const C: usize, const FUSE: bool>(block: &mut [X], row_stride: usize, e: &E, at: TileOrigin, columns: Range<usize>, skip: usize) {
    let (mut j, end) = (columns.start, columns.end);
    while j < end {
        let from = j.min(end - C);
        store_tile::<T, O, X, R, C>(block, row_stride, e.tile::<O, R, C, FUSE>(at, from), from, (skip, j - from));
        j = from + C;
    }
}

/// The tile widths [`drive_row_block`] cuts a whole row of `len` columns
/// into: `FIRST` (where wider than `WIDE`), `WIDE`, `LANES`, 8, 4 and 1.
const fn column_cuts(len: usize, first: usize, wide: usize, lanes: usize) -> [bool; 6] {
    let first = if first > wide { first } else { 0 };
    cuts(len, &[first, wide, lanes, 8, 4, 1])
}

/// Writes an `R x C` tile at column `j0` of a block of rows `row_stride`
/// elements apart, but for its first `skip.0` rows and `skip.1` columns:
/// each row of the tile computed into an array, then stored.
/// (Stored element by element from the tile, a product whose result a
/// tensor is added to, `x @ w + b`, has its whole `k` loop scalarised by
/// LLVM at opt-level 3, some 20x slower. A runtime optimised for size
/// stores element by element: less code, and at `s` the dense layer of
/// PERFORMANCE.md, "Code size and stack of small dense layers", runs as
/// fast.)
#[inline(always)]
fn store_tile<T: Element, O: Shape, X: Slot<T>, const R: usize, const C: usize>(
    block: &mut [X],
    row_stride: usize,
    tile: impl Tile<T>,
    j0: usize,
    (skip_rows, skip_columns): (usize, usize),
) {
    // Columns are skipped only by the overlapping last tile of
    // [`ONE_TILE_SIZE`]; elsewhere the store is the plain loop over the
    // whole row (an iterator's `skip`, even of a constant 0, kept LLVM
    // from holding a small product's tile in registers: a 4x4 product
    // several times slower).
    debug_assert!(
        ONE_TILE_SIZE || skip_columns == 0,
        "columns skipped outside the one-size walk"
    );
    let first = if ONE_TILE_SIZE { skip_columns } else { 0 };
    for r in skip_rows..R {
        let row = &mut block[r * row_stride..][..O::ROW_LEN];
        let Ok(slots) = <&mut [X; C]>::try_from(&mut row[j0..j0 + C]) else {
            unreachable!("a slice of `C` elements")
        };
        // In a runtime optimised for size (`cfg(size_profile)`), each
        // element stored as it is computed: no array of the row and no
        // copy of it.
        if const { cfg!(size_profile) } {
            for (j, slot) in slots.iter_mut().enumerate().skip(first) {
                let value = tile.get(r, j, slot.current());
                slot.set(value);
            }
            continue;
        }
        // A loop, not `core::array::from_fn`: with a long epilogue
        // (`sigmoid(x @ w + b)`) LLVM keeps `from_fn`'s closure out of line
        // and calls it once per element, several times slower than the
        // product alone.
        let mut values = [T::ZERO; C];
        for (j, value) in values.iter_mut().enumerate() {
            *value = tile.get(r, j, slots[j].current());
        }
        if const { ONE_TILE_SIZE } {
            for (slot, value) in slots.iter_mut().zip(values).skip(first) {
                slot.set(value);
            }
        } else {
            for (slot, value) in slots.iter_mut().zip(values) {
                slot.set(value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{column_cuts, cuts};

    #[test]
    fn cuts_are_the_widths_the_loops_take() {
        // 8-row blocks, then one of 4, then single rows.
        assert_eq!(cuts(32, &[8, 4, 1]), [true, false, false]);
        assert_eq!(cuts(49, &[8, 4, 1]), [true, false, true]);
        assert_eq!(cuts(13, &[8, 4, 1]), [true, true, true]);
        assert_eq!(cuts(3, &[8, 4, 1]), [false, false, true]);
        // A width equal to an earlier one, or 0, is never taken.
        assert_eq!(cuts(6, &[4, 4, 1]), [true, false, true]);
        assert_eq!(cuts(6, &[0, 4, 1]), [false, true, true]);
        assert_eq!(cuts(0, &[8, 4, 1]), [false, false, false]);
    }

    #[test]
    fn column_cuts_follow_each_levels_geometry() {
        // AVX-512 (32 wide, 16 lanes; 128 for a single row): 40 = 32 + 8.
        assert_eq!(
            column_cuts(40, 32, 32, 16),
            [false, true, false, true, false, false]
        );
        assert_eq!(
            column_cuts(300, 128, 32, 16),
            [true, true, false, true, true, false]
        );
        // AVX2 (16 wide, 8 lanes): 10 = 8 + 1 + 1; the 8 of the ladder is the lanes'.
        assert_eq!(
            column_cuts(10, 16, 16, 8),
            [false, false, true, false, false, true]
        );
        // SSE (8 wide, 4 lanes): 7 = 4 + 3 x 1.
        assert_eq!(
            column_cuts(7, 8, 8, 4),
            [false, false, true, false, false, true]
        );
    }
}
