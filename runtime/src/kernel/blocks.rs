//! The tiled nest of a large matrix product, block by cache-sized block:
//! each matrix of the output in blocks of `BLOCK_ROWS` rows by
//! `BLOCK_COLUMNS` columns (64 by 1024), columns outermost, so the product computes a block from its packed
//! operands when the block's first tile asks for it, and the block's
//! tiles, epilogue applied, are stored while its sums are in the cache
//! (module `expr::matmul::packed`).

use super::tiles::{drive_row_block, MatrixRows};
use super::Slot;
use crate::element::Element;
use crate::expr::matmul::{BLOCK_COLUMNS, BLOCK_ROWS};
use crate::expr::{Expr, Packing, TileOrigin};
use crate::shape::Shape;
use core::ops::Range;

/// The nest of [`Plan::PACKED`](super::Plan) for tiles of `ROWS x WIDE`
/// (then narrower, as [`drive_row_block`] cuts them), over `part`: the
/// rows (counted across matrices) from `first` on, which starts a block
/// (a multiple of [`BLOCK_ROWS`] in its matrix).
#[inline(always)]
#[rustfmt::skip]
pub(super) fn drive_blocks<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const ROWS: usize, const WIDE: usize, const LANES: usize, const FUSE: bool>(part: &mut [X], e: &E, first: usize) {
    let packing = Packing::<T>::new(ROWS, WIDE);
    let columns = O::ROW_LEN;
    let axis = super::Plan::<T, O, E>::TILE_AXIS;
    for (rows, outer, range) in MatrixRows::<X, O>::new::<T, E>(part, first) {
        let (start, end) = (range.start, range.end);
        debug_assert_eq!(start % BLOCK_ROWS, 0, "a part starts a block");
        let origin = TileOrigin::new(outer, axis).with_packing(&packing);
        for j0 in (0..columns).step_by(BLOCK_COLUMNS) {
            let j_end = (j0 + BLOCK_COLUMNS).min(columns);
            for i0 in (start..end).step_by(BLOCK_ROWS) {
                let i_end = (i0 + BLOCK_ROWS).min(end);
                let mut i = i0;
                while i + ROWS <= i_end {
                    drive_rows_at::<T, O, E, X, ROWS, WIDE, LANES, FUSE>(rows, e, origin, (i, start), j0..j_end);
                    i += ROWS;
                }
                if const { ROWS > 4 } && i + 4 <= i_end {
                    drive_rows_at::<T, O, E, X, 4, WIDE, LANES, FUSE>(rows, e, origin, (i, start), j0..j_end);
                    i += 4;
                }
                while i < i_end {
                    drive_rows_at::<T, O, E, X, 1, WIDE, LANES, FUSE>(rows, e, origin, (i, start), j0..j_end);
                    i += 1;
                }
            }
        }
    }
}

/// The `R` rows from row `i` of a matrix, over `columns`: `rows` holds the
/// matrix's rows from `start` on, and `at` is its origin (row 0).
#[inline(always)]
#[rustfmt::skip]
fn drive_rows_at<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const R: usize, const WIDE: usize, const LANES: usize, const FUSE: bool>(rows: &mut [X], e: &E, at: TileOrigin, (i, start): (usize, usize), columns: Range<usize>) {
    let width = O::ROW_LEN;
    let block = &mut rows[(i - start) * width..][..R * width];
    drive_row_block::<T, O, E, X, R, WIDE, WIDE, LANES, FUSE, false>(block, width, e, at.shifted::<O>(i), columns, 0);
}
