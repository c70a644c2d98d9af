//! The elementwise nest: the output walked row by row, each row one
//! contiguous inner loop.

use super::{advance_outer, Slot};
use crate::element::Element;
use crate::expr::{Expr, Row};
use crate::shape::{Shape, MAX_RANK};

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
pub(super) fn drive_rows<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(out: &mut [X], e: &E) {
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
