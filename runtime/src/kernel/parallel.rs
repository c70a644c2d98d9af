//! All cores, with the `rayon` feature: a large output split into parts of
//! whole units of its walk ([`Plan::UNIT_LEN`]), each part walked by the
//! same nest on a thread of rayon's pool.
//!
//! A part's boundaries are where the serial walk's tiles and blocks have
//! theirs (a multiple of [`ALIGN`] rows into a matrix, or a matrix's
//! start), so each element is computed by the same operations in the same
//! order as on one thread: a split result equals the serial one bit for bit.
//! Each part of a large product packs its own copies of the operands.

use super::{drive_part, Plan, Slot};
use crate::element::Element;
use crate::expr::{Expr, Walk};
use crate::shape::Shape;
use rayon::prelude::*;
use std::vec::Vec;

/// The rows of a tiled walk between a part's possible boundaries: a block
/// of the cache-blocked walk (a multiple of every tile's rows), and 64
/// elements of a flat walk (whole vectors).
const ALIGN: usize = 64;

/// Walks `out` (the whole output) in parts on rayon's threads; false
/// (nothing done) where it is not worth splitting: one thread, or fewer
/// units than two parts. Out of line: one call per evaluation costs
/// nothing, and inlined, its locals and rayon's took stack in the caller's
/// frame in debug builds (`tests/heap.rs` runs on a 64 KiB stack).
#[inline(never)]
pub(super) fn drive_parts<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
) -> bool {
    let threads = rayon::current_num_threads();
    let unit_len = Plan::<T, O, E>::UNIT_LEN;
    let units = O::LEN / unit_len;
    // A part starts at a multiple of `step` units into its matrix (whose
    // units number `per_matrix`), or at a matrix's start.
    let (step, per_matrix) = match Plan::<T, O, E>::WALK {
        Walk::Flat => (ALIGN, units),
        Walk::Rows => (1, units),
        Walk::Tiles => (ALIGN, Plan::<T, O, E>::MATRIX_ROWS),
    };
    if threads < 2 || per_matrix == 0 {
        return false;
    }
    let chunks_per_matrix = per_matrix.div_ceil(step);
    let chunks = units / per_matrix * chunks_per_matrix;
    let parts = threads.min(chunks);
    if parts < 2 {
        return false;
    }
    // The first unit of chunk `c`.
    let unit_of = |c: usize| {
        let (matrix, chunk) = (c / chunks_per_matrix, c % chunks_per_matrix);
        matrix * per_matrix + (chunk * step).min(per_matrix)
    };
    let mut pieces = Vec::with_capacity(parts);
    let mut rest = out;
    for p in 0..parts {
        let (start, end) = (
            unit_of(chunks * p / parts),
            unit_of(chunks * (p + 1) / parts),
        );
        let (piece, later) = rest.split_at_mut((end - start) * unit_len);
        pieces.push((start, piece));
        rest = later;
    }
    let tree = SharedTree(e);
    pieces.into_par_iter().for_each(|(first, piece)| {
        drive_part::<T, O, E, X>(piece, tree.get(), first);
    });
    true
}

/// Walks the `rows` rows (each `item_len` elements) of an output whose rows
/// are counted at run time (module `run_time`) in parts on rayon's threads,
/// each part whole chunks of `chunk_rows` but the last, by `walk(part, e,
/// first row, rows)`; false (nothing done) where it is not worth
/// splitting. Every chunk is the serial walk's, so the result is the
/// serial one bit for bit. `e` must report no row cache (as for
/// [`drive_parts`]; the caller checks [`super::splits_across_threads`]).
#[inline(never)]
pub(super) fn drive_row_parts<E, X: Send>(
    out: &mut [X],
    e: &E,
    rows: usize,
    item_len: usize,
    chunk_rows: usize,
    walk: fn(&mut [X], &E, usize, usize),
) -> bool {
    let chunks = rows / chunk_rows;
    let parts = rayon::current_num_threads().min(chunks);
    if parts < 2 {
        return false;
    }
    let mut pieces = Vec::with_capacity(parts);
    let mut rest = out;
    for p in 0..parts {
        let first = chunks * p / parts * chunk_rows;
        let end = if p + 1 == parts {
            rows
        } else {
            chunks * (p + 1) / parts * chunk_rows
        };
        let (piece, later) = rest.split_at_mut((end - first) * item_len);
        pieces.push((first, end - first, piece));
        rest = later;
    }
    let tree = SharedTree(e);
    pieces.into_par_iter().for_each(|(first, count, piece)| {
        walk(piece, tree.get(), first, count);
    });
    true
}

/// A tree read by several threads at once.
struct SharedTree<'a, E>(&'a E);

impl<'a, E> SharedTree<'a, E> {
    /// The tree. (A method, so that a closure captures the whole wrapper,
    /// not its field.)
    fn get(&self) -> &'a E {
        self.0
    }
}

// SAFETY: a `SharedTree` is made only in `drive_parts` and
// `drive_row_parts`, which run only where `splits_across_threads` holds
// (`Plan::PARALLEL` is it for a static output): the tree reports no row cache
// (`Reading::holds`), and by the contract of the unsafe trait `Expr`
// a tree that does not report one changes no state when it is read, but
// for a state set once through a thread-safe cell (its leaves borrow their
// data immutably; its elements are `Sync`).
unsafe impl<E> Sync for SharedTree<'_, E> {}
