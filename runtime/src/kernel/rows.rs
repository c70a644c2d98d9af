//! The elementwise nest: the output walked row by row, each row one
//! contiguous inner loop.

use super::{advance_outer, unravel, Slot};
use crate::element::Element;
use crate::expr::{Expr, Row};
use crate::shape::{Shape, MAX_RANK};

/// The whole output as one contiguous loop, where every operand has its
/// shape or is a scalar (a loop per row leaves its vector loop, and runs its
/// scalar remainder, once per row, which a hand loop over the flat data
/// does not). `part` is the output's elements from `first` on.
#[inline(always)]
pub(super) fn drive_flat<T: Element, E: Expr<T>, X: Slot<T>>(part: &mut [X], e: &E, first: usize) {
    let row = e.flat_row();
    #[allow(clippy::needless_range_loop)] // counted: see `store_row`
    for j in 0..part.len() {
        let slot = &mut part[j];
        slot.set(row.get(first + j, slot.current()));
    }
}

/// The elementwise nest: one contiguous inner loop per output row. `part`
/// is whole rows of the output, from row `first` on.
#[inline(always)]
pub(super) fn drive_rows<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    part: &mut [X],
    e: &E,
    first: usize,
) {
    if const { O::LEN == 0 } {
        return;
    }
    if const { O::RANK == 2 } {
        // A counted loop over the rows: with the row index bounded by a
        // constant, LLVM proves every leaf's row in range and drops the
        // checks, and a loop without exits vectorises across rows, which
        // rows of 3 (`[N, 3]` particles) need.
        let rows = part.len() / O::ROW_LEN;
        assert!(first + rows <= O::DIMS[0], "rows out of range");
        for r in 0..rows {
            let mut outer = [0; MAX_RANK];
            outer[0] = first + r;
            store_row(
                &mut part[r * O::ROW_LEN..(r + 1) * O::ROW_LEN],
                e.row::<O>(outer),
            );
        }
        return;
    }
    if const { (O::RANK == 3 || O::RANK == 4) && O::ROW_LEN < 8 }
        && first == 0
        && part.len() == O::LEN
    {
        // The whole output of rows shorter than a vector (an image's `[H,
        // W, C]` or `[N, H, W, C]` of a few channels): counted loops, as
        // the matrix's above, each index bounded by its dim, so that the
        // innermost one vectorises across rows. (Longer rows vectorise
        // along themselves; rows of 16 ran 6x slower so. An odometer over
        // the outer dims instead of bounded loops halved the gain.)
        let batch = if O::RANK == 4 { O::DIMS[0] } else { 1 };
        let (height, width) = (O::DIMS[O::RANK - 3], O::DIMS[O::RANK - 2]);
        let image_len = height * width * O::ROW_LEN;
        for (n, image) in part.chunks_exact_mut(image_len).enumerate().take(batch) {
            let planes = image.chunks_exact_mut(width * O::ROW_LEN);
            for (i, plane) in planes.enumerate().take(height) {
                for j in 0..width {
                    let mut outer = [0; MAX_RANK];
                    outer[0] = n;
                    outer[O::RANK - 3] = i;
                    outer[O::RANK - 2] = j;
                    store_row(
                        &mut plane[j * O::ROW_LEN..(j + 1) * O::ROW_LEN],
                        e.row::<O>(outer),
                    );
                }
            }
        }
        return;
    }
    let mut outer = unravel::<O>(first, O::RANK.saturating_sub(1));
    for out_row in part.chunks_exact_mut(O::ROW_LEN) {
        store_row(out_row, e.row::<O>(outer));
        advance_outer::<O>(&mut outer);
    }
}

/// Writes `row`'s values into the slots of one output row. (A counted
/// loop, not `iter_mut().enumerate()`: the same code in a release build,
/// one call per element fewer in a debug build.)
#[inline(always)]
fn store_row<T, X: Slot<T>>(out_row: &mut [X], row: impl Row<T>) {
    #[allow(clippy::needless_range_loop)]
    for j in 0..out_row.len() {
        let slot = &mut out_row[j];
        slot.set(row.get(j, slot.current()));
    }
}
