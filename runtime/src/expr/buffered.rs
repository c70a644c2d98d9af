//! Nodes that compute a whole row before the loop reads it: the machinery shared
//! by [`Reduction`](super::Reduction) and [`Shared`].
//!
//! Such a node keeps the last row it computed in a one-row cache, keyed by the
//! row's number in the node's own shape, and its readers borrow that row: no
//! copy. A reduction keeps two ([`RowPair`]): the row read now, and the row
//! the next output row reads, computed ahead so that its fold overlaps the
//! present row's loop. A node read by several output rows (a reduction
//! broadcast back over its input, `x - mean(x, [0], keepdim)`) or by several
//! parents in one row (`exp(..)` in both halves of a softmax) computes each
//! row once.
//!
//! Why a borrowed row stays valid: within one output row, every reader that
//! holds a row of a node asks for the same row (broadcasting maps an output
//! row to one row of each node, and composes), and the kernel walks the output
//! row by row when the expression has such a node ([`super::Reading::holds`]).
//! The only readers that ask for other rows are the ones that walk several
//! rows: a reduction over outer axes and a matrix product's operands. They read
//! through [`super::Expr::row_fresh`], which never touches a cache.
//!
//! A float [`Shared`] row also sums itself while it is filled, so a `sum` or
//! `mean` along it (a softmax's denominator) reads that sum instead of the
//! row ([`super::Row::known_sum`]). The lane fold both use lives here.

use super::strided::row_offset;
use super::{Expr, Row, Shaped, TileOrigin};
use crate::element::{fold_row_with, reducer_steps, Element};
use crate::lanes::Read;
use crate::rules::broadcast::BroadcastStrides;
use crate::shape::{Shape, MAX_RANK};
use core::cell::Cell;
use core::marker::PhantomData;

/// The number of the row of `S` that output row `outer` of `O` reads (`S`
/// broadcast into `O`, right-aligned).
#[inline(always)]
pub(crate) fn source_row<S: Shape, O: Shape>(outer: [usize; MAX_RANK]) -> usize {
    if const { crate::shape::has_no_elements(S::DIMS) } {
        return 0;
    }
    row_offset::<O>(&BroadcastStrides::<S, O>::STRIDES, outer) / S::ROW_LEN
}

/// The outer index (every dim but the last, padded with zeros) of row `row` of `S`.
#[inline(always)]
pub(crate) fn outer_of_row<S: Shape>(row: usize) -> [usize; MAX_RANK] {
    let mut outer = [0; MAX_RANK];
    // A matrix's row `row` is `[row, 0]`: no division (which a debug build
    // runs for every element of a reduction's result).
    if const { S::RANK == 2 && S::ROW_LEN > 0 } {
        outer[0] = row;
        return outer;
    }
    let index = S::multi_index(row * S::ROW_LEN);
    outer[..S::RANK].copy_from_slice(index.as_ref());
    outer
}

/// How a node computes one row into its cache's cells. A method marked
/// `#[inline(always)]`, not a closure: LLVM kept a long fill (a softmax's
/// `exp` row) out of line as a closure, where it ran without the vector
/// width of the nest that reads it (SSE2 under the run-time dispatch's
/// AVX-512 nest).
pub(crate) trait Fill<T> {
    /// Computes the row into `cells`.
    fn fill(self, cells: &[Cell<T>]);
}

/// A closure is a fill too, which LLVM may keep out of line: a
/// reduction's fill is one, since inlined into the nest under the run-time
/// dispatch (as a `Fill` struct) `log_softmax` and layer norm ran 2x slower
/// on the default target; why was not pinned down.
impl<T, F: FnOnce(&[Cell<T>])> Fill<T> for F {
    #[inline(always)]
    fn fill(self, cells: &[Cell<T>]) {
        self(cells)
    }
}

/// The last row a node computed, and its number (`usize::MAX`: none yet).
pub(crate) struct RowCache<T, S: Shape> {
    key: Cell<usize>,
    values: S::Row<Cell<T>>,
}

impl<T: Element, S: Shape> RowCache<T, S> {
    pub(crate) fn new() -> Self {
        RowCache {
            key: Cell::new(usize::MAX),
            values: S::row_from_fn(|_| Cell::new(T::ZERO)),
        }
    }

    /// Row `row`, `fill`ed into the cache first unless it is there already.
    #[inline(always)]
    pub(crate) fn row(&self, row: usize, fill: impl Fill<T>) -> &[Cell<T>] {
        if !self.holds(row) {
            self.fill(row, fill);
        }
        self.cells()
    }

    /// The cached row's cells.
    #[inline(always)]
    fn cells(&self) -> &[Cell<T>] {
        self.values.as_ref()
    }

    /// Whether the cache holds row `row`.
    #[inline(always)]
    fn holds(&self, row: usize) -> bool {
        self.key.get() == row
    }

    /// Makes the cache hold row `row`, computed by `fill`.
    #[inline(always)]
    fn fill(&self, row: usize, fill: impl Fill<T>) {
        fill.fill(self.cells());
        self.key.set(row);
    }
}

/// Two cached rows of a node: the row the present output row reads, and the
/// row that the next output row will read, computed ahead of time.
///
/// Why ahead: an output row's elementwise loop cannot start before the
/// reduction it reads is folded (`exp(x - max(x, [1], keepdim))` waits for
/// the row's max), and the out-of-order core cannot start the next row's fold
/// early either, since the loop's instructions fill its window. Computed while
/// the present row is read, the next row's fold overlaps that row's loop, so
/// `exp(x - max(..))` runs at about the speed of `exp(x - v)` with `v` given
/// (`cargo bench --bench reductions`). The cost is a second row of the result
/// in the node, on the stack while the expression runs: one element for a
/// reduction over the last axis with `keepdim`, a whole result row for one
/// over outer axes (`mean(x, [0])`), and more code per softmax.
pub(crate) struct RowPair<T, S: Shape> {
    slots: [RowCache<T, S>; 2],
    /// The slot the present output row reads.
    present: Cell<usize>,
}

impl<T: Element, S: Shape> RowPair<T, S> {
    pub(crate) fn new() -> Self {
        RowPair {
            slots: [RowCache::new(), RowCache::new()],
            present: Cell::new(0),
        }
    }

    /// Row `row`, from either slot, or `fill`ed into the slot the previous
    /// output row did not read. (No reader holds a row across output rows,
    /// so neither slot is borrowed when a new output row starts.)
    #[inline(always)]
    pub(crate) fn row(&self, row: usize, fill: impl Fill<T>) -> &[Cell<T>] {
        let present = match self.slot_of(row) {
            Some(slot) => slot,
            None => {
                let other = self.other();
                self.slots[other].fill(row, fill);
                other
            }
        };
        self.present.set(present);
        self.slots[present].cells()
    }

    /// Computes row `row` into the slot the present output row does not read,
    /// unless a slot holds it already.
    #[inline(always)]
    pub(crate) fn ahead(&self, row: usize, fill: impl Fill<T>) {
        if self.slot_of(row).is_none() {
            self.slots[self.other()].fill(row, fill);
        }
    }

    /// The slot that holds row `row`, if one does.
    #[inline(always)]
    fn slot_of(&self, row: usize) -> Option<usize> {
        (0..2).find(|&slot| self.slots[slot].holds(row))
    }

    /// The slot the present output row does not read.
    #[inline(always)]
    fn other(&self) -> usize {
        1 - self.present.get()
    }
}

/// A cached row of shape `S`'s last dim, read by output rows of `O`: along the
/// row (stride 1) or splat (stride 0, `S`'s last dim is broadcast).
pub(crate) struct CachedRow<'a, T, S, O> {
    cells: &'a [Cell<T>],
    /// The splat's value, read once: a register in the loop, where a read of
    /// the cell at every column was not hoisted (the cell may alias the
    /// output for all LLVM knows), so `x * (1 / sum(..))` divided per element.
    splat: T,
    /// The row's sum, where it was computed while the row was filled.
    sum: Option<T>,
    shape: PhantomData<(S, O)>,
}

impl<'a, T: Element, S: Shape, O: Shape> CachedRow<'a, T, S, O> {
    /// A reader of the computed row `cells`.
    #[inline(always)]
    pub(crate) fn new(cells: &'a [Cell<T>]) -> Self {
        Self::with_sum(cells, None)
    }

    /// A reader of the computed row `cells`, whose sum is `sum` if known.
    #[inline(always)]
    pub(crate) fn with_sum(cells: &'a [Cell<T>], sum: Option<T>) -> Self {
        let splat = match cells.first() {
            Some(cell) if BroadcastStrides::<S, O>::INNER == 0 => cell.get(),
            _ => T::ZERO,
        };
        CachedRow {
            cells,
            splat,
            sum,
            shape: PhantomData,
        }
    }
}

impl<T: Element, S: Shape, O: Shape> Row<T> for CachedRow<'_, T, S, O> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        if BroadcastStrides::<S, O>::INNER == 0 {
            self.splat
        } else {
            self.cells[j].get()
        }
    }
    #[inline(always)]
    fn known_sum(&self) -> Option<T> {
        // Read along the row, the sum is of these cells.
        if BroadcastStrides::<S, O>::INNER == 0 {
            None
        } else {
            self.sum
        }
    }
}

/// A computed row owned by its reader (a reduction read through `row_fresh`).
pub(crate) struct OwnedRow<T, S: Shape, O> {
    pub(crate) values: S::Row<T>,
    pub(crate) shape: PhantomData<O>,
}

impl<T: Element, S: Shape, O: Shape> Row<T> for OwnedRow<T, S, O> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        self.values.as_ref()[j * BroadcastStrides::<S, O>::INNER]
    }
}

/// A subexpression written more than once (`exp(x - m)` in a softmax), computed
/// once per row and read by each place it appears in through a reference.
///
/// `tensor_expr!` builds one for a repeated subexpression that calls a function
/// or multiplies matrices; repeated cheap arithmetic is recomputed instead.
pub struct Shared<T, E: Shaped> {
    expr: E,
    cache: RowCache<T, E::Shape>,
    /// The cached row's sum, folded when it was filled: a softmax's
    /// `sum(exp(..), [1], keepdim)` then reads the shared `exp(..)` row once
    /// fewer.
    sum: Cell<T>,
}

/// Wraps `e` for reading in several places (`&shared` is an expression).
#[inline(always)]
pub fn shared<T: Element, M, E: Shaped>(_context: super::Context<T, M>, e: E) -> Shared<T, E> {
    Shared {
        expr: e,
        cache: RowCache::new(),
        sum: Cell::new(T::ZERO),
    }
}

impl<T, E: Shaped> Shaped for Shared<T, E> {
    type Shape = E::Shape;
}

unsafe impl<T: Element, E: Expr<T>> Expr<T> for Shared<T, E> {
    type Children = (E,);
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) -> (&E,) {
        (&self.expr,)
    }
    /// Reads its expression one row at a time into its cache.
    const OWN: super::Own = super::Own::alone(super::Reading::CACHED_ROWS);
    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        #[allow(clippy::let_unit_value)]
        let () = RowOfConstantLength::<E::Shape>::CHECKED;
        let row = source_row::<E::Shape, O>(outer);
        let cells = self.cache.row(row, SharedFill { node: self, row });
        let sum = if T::IS_FLOAT {
            Some(self.sum.get())
        } else {
            None
        };
        CachedRow::<T, E::Shape, O>::with_sum(cells, sum)
    }
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.expr.row_fresh::<O>(outer)
    }
}

/// The check that a cached row of shape `S` has a constant length: not
/// `[Dyn]` alone, whose one row is counted at run time.
struct RowOfConstantLength<S>(PhantomData<S>);

impl<S: Shape> RowOfConstantLength<S> {
    const CHECKED: () = assert!(
        !S::RUN_TIME_ROW,
        "a part read twice (a softmax's `exp`) of shape `[Dyn]` alone has no row cache: give it an axis of 1 (`[Dyn, 1]`)"
    );
}

/// Row `row` of a [`Shared`] node's expression, computed into its cache
/// with the row's sum.
struct SharedFill<'a, T, E: Shaped> {
    node: &'a Shared<T, E>,
    row: usize,
}

impl<T: Element, E: Expr<T>> Fill<T> for SharedFill<'_, T, E> {
    #[inline(always)]
    fn fill(self, cells: &[Cell<T>]) {
        let row = self.row;
        let source = self
            .node
            .expr
            .row::<E::Shape>(outer_of_row::<E::Shape>(row));
        match const { fill_chunk(T::IS_FLOAT, E::Shape::ROW_LEN) } {
            8 => fill_in_chunks::<T, 8, 4>(cells, &source),
            4 => fill_in_chunks::<T, 4, 2>(cells, &source),
            _ => {
                for (j, cell) in cells.iter().enumerate() {
                    cell.set(source.get(j, T::ZERO));
                }
            }
        }
        if T::IS_FLOAT {
            // A second pass over the row just filled, in L1: folded
            // while filling, the lanes' sums stayed in memory wherever
            // the value was long to compute (an `exp`), and each step
            // waited for the store of the one before (a softmax ran at
            // 0.65 of Eigen's speed). An integer sum could overflow,
            // which must not panic where no `sum` was written.
            // The fold a `sum` of the row makes, so the two are equal.
            let sum = fold_row_with::<T, reducer_steps::Add>(&Filled(cells), cells.len());
            self.node.sum.set(sum);
        }
    }
}

/// The chunk a row of `len` elements is filled in ([`fill_in_chunks`]: 8,
/// the rest by 8 or 4; or 4, the rest by 4 or 2), or 0 for one loop over
/// the whole row: float rows of 4 to 31 elements.
/// From 32 on, LLVM vectorises the loop over the whole row as well (and
/// as wide as the nest's level allows, where a chunk is at most 8 lanes);
/// an integer row (an int8 softmax's) measured slower in chunks.
///
/// Not in a build of the dev profile (`cfg(dev_profile)`), whose
/// expressions are not optimised and ran the chunks slower than the one
/// loop, but with the feature `every-level-in-debug`, as the nests of
/// every level ([`crate::kernel`]'s dispatch), so that the tests of that
/// feature reach the chunks.
const fn fill_chunk(float: bool, len: usize) -> usize {
    let optimised = !cfg!(dev_profile) || cfg!(feature = "every-level-in-debug");
    match len {
        _ if !float || !optimised => 0,
        8..32 => 8,
        4..8 => 4,
        _ => 0,
    }
}

/// Fills `cells` from `source` in chunks of `W` elements, then the rest:
/// one chunk of `W` ending at the row's end, or of `H` where the rest is
/// no longer (each overlapping the chunk before where the row is not a
/// multiple of it: its elements are computed again, to the same values).
/// Each chunk is a loop of a constant count into a local array, which
/// LLVM vectorises; over a whole short row (a classifier's 10 logits) it
/// left the loop scalar, and a softmax's `exp`s then took most of its
/// time. A row of at least `W` elements; `H` at most `W`.
#[inline(always)]
fn fill_in_chunks<T: Element, const W: usize, const H: usize>(
    cells: &[Cell<T>],
    source: &impl Row<T>,
) {
    let len = cells.len();
    let mut start = 0;
    while len - start > W {
        fill_chunk_at::<T, W>(cells, source, start);
        start += W;
    }
    if len - start > H {
        fill_chunk_at::<T, W>(cells, source, len - W);
    } else {
        fill_chunk_at::<T, H>(cells, source, len - H);
    }
}

/// Fills the `C` cells from `start` (a loop of a constant count into a
/// local array, then its copy).
#[inline(always)]
fn fill_chunk_at<T: Element, const C: usize>(
    cells: &[Cell<T>],
    source: &impl Row<T>,
    start: usize,
) {
    let mut chunk = [T::ZERO; C];
    #[allow(clippy::needless_range_loop)] // counted: a constant trip count
    for l in 0..C {
        chunk[l] = source.get(start + l, T::ZERO);
    }
    for (cell, value) in cells[start..start + C].iter().zip(chunk) {
        cell.set(value);
    }
}

/// A [`Shared`] row just filled, read by the fold of its sum.
struct Filled<'a, T>(&'a [Cell<T>]);

impl<T: Copy> Read<T> for Filled<'_, T> {
    #[inline(always)]
    fn read(&self, j: usize) -> T {
        self.0[j].get()
    }
}

/// A node read through a reference: a [`Shared`] subexpression or a repeated
/// reduction, in each place it appears.
impl<E: Shaped> Shaped for &E {
    type Shape = E::Shape;
}

/// See the [`Shaped`] impl above.
unsafe impl<T, E: Expr<T>> Expr<T> for &E {
    type Children = (E,);
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) -> (&E,) {
        (*self,)
    }
    const OWN: super::Own = super::Own {
        stored: E::OWN.stored,
        int8: E::OWN.int8,
        ..super::Own::ELEMENTWISE
    };
    #[inline(always)]
    fn stored_row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<&[T]> {
        (**self).stored_row::<O>(outer)
    }
    #[inline(always)]
    fn int8_row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<super::Int8Row<'_>> {
        (**self).int8_row::<O>(outer)
    }
    #[inline(always)]
    fn stored_factors<O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<(&[T], &[T])> {
        (**self).stored_factors::<O>(outer)
    }
    #[inline(always)]
    fn stored_matrix<O: Shape>(
        &self,
        outer: [usize; MAX_RANK],
        axis: usize,
    ) -> Option<super::StoredMatrix<'_, T>> {
        (**self).stored_matrix::<O>(outer, axis)
    }
    #[inline(always)]
    fn int8_matrix<O: Shape>(
        &self,
        outer: [usize; MAX_RANK],
        axis: usize,
    ) -> Option<super::Int8Matrix<'_>> {
        (**self).int8_matrix::<O>(outer, axis)
    }
    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        (**self).row::<O>(outer)
    }
    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        (**self).flat_row()
    }
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        (**self).row_fresh::<O>(outer)
    }
    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl super::Tile<T> + '_ {
        (**self).tile::<O, R, C, FUSE>(at, j0)
    }
}
