//! The elementwise nest: the output walked row by row, each row one
//! contiguous inner loop.

use super::{advance_outer, Slot};
use crate::element::Element;
use crate::expr::{Expr, Row};
use crate::shape::{Shape, MAX_RANK};

/// The whole output as one contiguous loop, where every operand has its
/// shape or is a scalar (a loop per row leaves its vector loop, and runs its
/// scalar remainder, once per row, which a hand loop over the flat data
/// does not).
#[inline(always)]
pub(super) fn drive_flat<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(out: &mut [X], e: &E) {
    if O::LEN == 0 {
        return;
    }
    let row = e.flat_row();
    for (j, slot) in out[..O::LEN].iter_mut().enumerate() {
        slot.set(row.get(j, slot.current()));
    }
}

/// The elementwise nest: one contiguous inner loop per output row.
#[inline(always)]
pub(super) fn drive_rows<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(out: &mut [X], e: &E) {
    if O::LEN == 0 {
        return;
    }
    let out = &mut out[..O::LEN];
    let mut outer = [0usize; MAX_RANK];
    for out_row in out.chunks_exact_mut(O::ROW_LEN) {
        let row = e.row::<O>(outer);
        for (j, slot) in out_row.iter_mut().enumerate() {
            slot.set(row.get(j, slot.current()));
        }
        advance_outer::<O>(&mut outer);
    }
}
