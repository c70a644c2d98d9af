//! Run-time rows: an output whose first dim is [`Dyn`](crate::Dyn) walked in
//! chunks of static rows, each by the nest of a static shape.
//!
//! Only the first dim is counted at run time, so every stride is a constant
//! and a chunk of `B` rows is the static shape `(D<B>, ..)`: the same row
//! walk, tiles, dispatch and row caches as any static output, compiled for
//! each chunk size. The chunks are 64 rows (a block of the tiled walk), then
//! what is left by halves (32, 16, .., 1): at most one chunk of each smaller
//! size, so a batch of 7 is walked as 4 + 2 + 1 rows, never row by row.
//!
//! With `std` on x86-64, the whole walk of chunks is compiled a second and
//! third time with AVX2 and AVX-512 and picked once per evaluation (as
//! module `dispatch` picks each nest): a chunk is often too small for its
//! nest's own dispatch.
//!
//! With the `rayon` feature, a large output without row caches is split
//! across threads by whole chunks of 64 rows (`parallel`), so each thread
//! walks the serial walk's chunks and the result is the same bit for bit.
//!
//! The tree is built once over whole operands. A chunk reads it through
//! [`Rebased`], which adds the chunk's first row to the first output index
//! of every read: the leaves of `Dyn` operands read their rows there
//! (checked against their length), and every other leaf has the first dim
//! as `One` or not at all, so it reads the same elements at any row.

#[cfg(all(feature = "std", target_arch = "x86_64"))]
use super::tiles::VECTOR_LANES;
use super::{drive, Slot};
use crate::element::Element;
use crate::expr::{Expr, Flat, Int8Row, Reading, Row, Shaped, Tile, TileOrigin};
use crate::shape::{Shape, MAX_RANK};

/// The rows of a full chunk: a block of the tiled walk's rows.
const CHUNK_ROWS: usize = 64;

/// Evaluates `e` into `out`, of output shape `O`, each slot written once:
/// `run_time_rows` rows where `O`'s first dim is counted at run time, else
/// `O`'s own (a static result of an expression over run-time rows: a
/// reduction over them, walked in chunks all the same).
#[inline]
pub(crate) fn drive_rows<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    run_time_rows: usize,
) {
    let rows = if O::RUN_TIME_ROWS {
        run_time_rows
    } else if O::RANK == 0 {
        1
    } else {
        O::DIMS[0]
    };
    let out = &mut out[..rows * O::ITEM_LEN];
    #[cfg(feature = "rayon")]
    if super::splits_across_threads(rows * O::ITEM_LEN, E::READING)
        && super::parallel::drive_row_parts(
            out,
            e,
            rows,
            O::ITEM_LEN,
            CHUNK_ROWS,
            drive_chunks::<T, O, E, X>,
        )
    {
        return;
    }
    drive_chunks::<T, O, E, X>(out, e, 0, rows);
}

/// The chunks of an output whose rows are counted at run time
/// (this module), dispatched once for the whole output where it
/// has `DISPATCHED_ELEMENTS` or more: each chunk's nest is then compiled
/// inside the AVX-512 or AVX2 function, however few elements it has (a
/// chunk of 64 points of 3 has 192, below the threshold of its own
/// dispatch: walked by the compile-time target's nest, a point update runs
/// at a third of the static shape's speed).
/// `out` holds rows `start..start + rows` (all of them, or a thread's part).
#[inline(always)]
fn drive_chunks<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    start: usize,
    rows: usize,
) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if rows * O::ITEM_LEN >= super::dispatch::DISPATCHED_ELEMENTS {
        if VECTOR_LANES < 16 && std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F (checked on the line above).
            unsafe { x86::drive_chunks_avx512::<T, O, E, X>(out, e, start, rows) };
            return;
        }
        if VECTOR_LANES < 8
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has AVX2 and FMA (checked above).
            unsafe { x86::drive_chunks_avx2::<T, O, E, X>(out, e, start, rows) };
            return;
        }
    }
    walk_chunks::<T, O, E, X>(out, e, start, rows);
}

/// The chunks' walk recompiled with wider vectors than the compile-time
/// target's (as `dispatch` does for each nest).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod x86 {
    use super::super::Slot;
    use crate::element::Element;
    use crate::expr::Expr;
    use crate::shape::Shape;

    /// The chunks of run-time rows with AVX-512 (their own product nests
    /// dispatch as ever; the FMA is for the tiles of small products, which
    /// fuse only where the compile-time target has it).
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub(super) unsafe fn drive_chunks_avx512<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
        out: &mut [X],
        e: &E,
        start: usize,
        rows: usize,
    ) {
        super::walk_chunks::<T, O, E, X>(out, e, start, rows);
    }

    /// The chunks of run-time rows with AVX2.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn drive_chunks_avx2<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
        out: &mut [X],
        e: &E,
        start: usize,
        rows: usize,
    ) {
        super::walk_chunks::<T, O, E, X>(out, e, start, rows);
    }
}

/// The chunks of rows `start..start + rows`, held by `out`: 64 at a time,
/// then the rest by halves.
#[inline(always)]
fn walk_chunks<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    start: usize,
    rows: usize,
) {
    let mut done = 0;
    while rows - done >= CHUNK_ROWS {
        drive_chunk::<T, O, E, X, CHUNK_ROWS>(out, e, start, done);
        done += CHUNK_ROWS;
    }
    macro_rules! by_halves {
        ($($b:literal)*) => {$(
            if rows - done >= $b {
                drive_chunk::<T, O, E, X, $b>(out, e, start, done);
                done += $b;
            }
        )*};
    }
    by_halves!(32 16 8 4 2 1);
    debug_assert_eq!(done, rows);
}

/// Rows `start + done..` of the output, `B` of them (`out` holds those from
/// `start` on): the static nest of a chunk.
#[inline(always)]
fn drive_chunk<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const B: usize>(
    out: &mut [X],
    e: &E,
    start: usize,
    done: usize,
) {
    let chunk = &mut out[done * O::ITEM_LEN..(done + B) * O::ITEM_LEN];
    let first = start + done;
    let rebased = Rebased::<E, B>::new(e, first);
    drive::<T, O::Chunk<B>, Rebased<'_, E, B>, X>(chunk, &rebased);
}

/// A tree read from row `first` on: output row `i` of a chunk is row
/// `first + i` of the whole. An output of rank 1 is one row, whose rows
/// are columns: the chunk's column `j` is the whole's `first + j`, read from
/// the tree's row in its own shape (whose length is counted at run time,
/// which its leaves read up to their data's end).
struct Rebased<'e, E, const B: usize> {
    e: &'e E,
    first: usize,
}

impl<'e, E, const B: usize> Rebased<'e, E, B> {
    /// The chunk of `B` rows from row `first` of `e`'s output. Asserts that
    /// every operand of `e` whose rows are counted at run time holds them
    /// (the placement checked that they all hold the output's): once here,
    /// so that LLVM can drop each row's check in the leaves
    /// (`StridedLeaf::row`) and vectorise across short rows.
    #[inline(always)]
    fn new<T: Element>(e: &'e E, first: usize) -> Self
    where
        E: Expr<T>,
    {
        let end = first.checked_add(B).expect("a chunk of rows");
        e.visit_run_time_rows(&mut |rows| {
            assert!(
                end <= rows,
                "a `Dyn` operand has fewer rows than the output"
            );
        });
        Rebased { e, first }
    }

    /// `outer` (a row of the chunk, `outer[0] < B`) with the chunk's first
    /// row added to the first index. The add must not wrap as far as LLVM
    /// knows, or it cannot bound the rows read by the assertion in `new`.
    #[inline(always)]
    fn shift(&self, mut outer: [usize; MAX_RANK]) -> [usize; MAX_RANK] {
        assert!(outer[0] < B, "a row of the chunk");
        // SAFETY: `outer[0] < B` (checked above; the chunk's nest walks
        // `0..B`, so LLVM drops the check) and `first + B` did not overflow
        // (`new`), so the sum is at most `first + B - 1`.
        outer[0] = unsafe { outer[0].unchecked_add(self.first) };
        outer
    }
}

/// A row of a chunk: the tree's row at shifted rows, or, for an output of
/// rank 1, the tree's one row from column `first` on.
enum ChunkRow<R, C> {
    Rows(R),
    Columns { row: C, first: usize },
}

impl<T, R: Row<T>, C: Row<T>> Row<T> for ChunkRow<R, C> {
    #[inline(always)]
    fn get(&self, j: usize, current: T) -> T {
        match self {
            ChunkRow::Rows(row) => row.get(j, current),
            ChunkRow::Columns { row, first } => row.get(first + j, current),
        }
    }

    #[inline(always)]
    fn known_sum(&self) -> Option<T> {
        match self {
            ChunkRow::Rows(row) => row.known_sum(),
            ChunkRow::Columns { .. } => None,
        }
    }
}

impl<E: Shaped, const B: usize> Shaped for Rebased<'_, E, B> {
    type Shape = E::Shape;
}

// SAFETY: every read is the tree's own, at shifted rows, and its reading is
// the tree's (with the flat walk off), so it keeps or reports state as the
// tree does.
unsafe impl<T: Element, E: Expr<T>, const B: usize> Expr<T> for Rebased<'_, E, B> {
    /// The tree's, walked by rows or tiles: a chunk is never the whole data
    /// of an operand (its leaves read no flat row). A result of rank 1
    /// (`[Dyn]`, a matrix-vector product's) is walked by rows, its one row
    /// read from column `first` on.
    const READING: Reading = if <E::Shape as Shape>::RANK == 1 {
        Reading {
            flat: Flat::No,
            products: 0,
            packed: 0,
            ..E::READING
        }
    } else {
        Reading {
            flat: Flat::No,
            ..E::READING
        }
    };
    const STORED: bool = E::STORED;
    const INT8: bool = E::INT8;

    #[inline(always)]
    fn visit_run_time_rows(&self, visit: &mut impl FnMut(usize)) {
        self.e.visit_run_time_rows(visit);
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        if O::RANK == 1 {
            ChunkRow::Columns {
                row: self.e.row::<E::Shape>(outer),
                first: self.first,
            }
        } else {
            ChunkRow::Rows(self.e.row::<O>(self.shift(outer)))
        }
    }

    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        if O::RANK == 1 {
            ChunkRow::Columns {
                row: self.e.row_fresh::<E::Shape>(outer),
                first: self.first,
            }
        } else {
            ChunkRow::Rows(self.e.row_fresh::<O>(self.shift(outer)))
        }
    }

    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        self.e.flat_row()
    }

    #[inline(always)]
    fn stored_row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<&[T]> {
        if O::RANK == 1 {
            return None;
        }
        self.e.stored_row::<O>(self.shift(outer))
    }

    #[inline(always)]
    fn int8_row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<Int8Row<'_>> {
        if O::RANK == 1 {
            return None;
        }
        self.e.int8_row::<O>(self.shift(outer))
    }

    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl Tile<T> + '_ {
        self.e.tile::<O, R, C, FUSE>(at.rebased(self.first), j0)
    }
}
