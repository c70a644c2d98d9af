//! Run-time rows: an output whose first dim is [`Dyn`](crate::Dyn) walked in
//! chunks of static rows, each by the nest of a static shape.
//!
//! Only the first dim is counted at run time, so every stride is a constant
//! and a chunk of `B` rows is the static shape `(D<B>, ..)`: the same row
//! walk, tiles, dispatch and row caches as any static output, compiled for
//! each chunk size. The chunks are 64 rows (a block of the tiled walk), then
//! what is left in chunks of 16, 4 and 1 rows (at most three of each), so a
//! batch of 7 is walked as 4 + 1 + 1 + 1 rows. Each chunk size is a static
//! nest compiled per level, so an expression over run-time rows is four
//! nests a level: a few more chunks per walk buy fewer nests to compile.
//!
//! With `std` on x86-64, the whole walk of chunks is compiled once per
//! instruction-set level and picked once per evaluation (module
//! `dispatch`): a chunk is often too small for a nest's own choice, and
//! each chunk's nest is compiled only at the level of the walk around it.
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

use super::dispatch::Nest;
use super::Slot;
use crate::element::Element;
use crate::expr::{
    reading, visit_run_time_rows, Expr, Flat, Holds, Int8Row, Own, Reading, Row, Shaped, Tile,
    TileOrigin,
};
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// The rows of a full chunk: a block of the tiled walk's rows.
const CHUNK_ROWS: usize = 64;

/// The rows of a chunk where an expression's nests are compiled once,
/// unoptimised (a build of the dev profile, [`EVERY_LEVEL`](crate::isa::EVERY_LEVEL)),
/// the rest in single rows: two nests to compile, not four.
const DEV_CHUNK_ROWS: usize = 16;

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
    if super::splits_across_threads(rows * O::ITEM_LEN, const { reading::<T, E>() })
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
/// (this module), at the selected level where a static output of as many
/// rows would run there ([`super::runs_at_selected_level`]; a batch of one
/// image through a layer of 784 inputs is a product that is not small).
/// Each chunk's nest is then compiled at that
/// level, however few elements it has (a chunk of 64 points of 3 has 192,
/// below the threshold of its own dispatch: walked by the compile-time
/// target's nest, a point update runs at a third of the static shape's
/// speed), and chosen once for the whole walk.
/// `out` holds rows `start..start + rows` (all of them, or a thread's part).
#[inline(always)]
fn drive_chunks<T: Element, O: Shape, E: Expr<T>, X: Slot<T>>(
    out: &mut [X],
    e: &E,
    start: usize,
    rows: usize,
) {
    let nest = ChunksNest::<T, O> {
        rows,
        types: PhantomData,
    };
    let elements = rows * O::ITEM_LEN;
    let walk = const { reading::<T, E>() }.walk(elements, O::RANK, O::ROW_LEN);
    if super::runs_at_selected_level(elements, const { reading::<T, E>() }, walk) {
        super::dispatch::at_expression_level(nest, out, e, start);
    } else {
        nest.run_target(out, e, start);
    }
}

/// The walk of chunks over `rows` rows from the walk's first
/// ([`drive_chunks`]).
struct ChunksNest<T, O> {
    rows: usize,
    types: PhantomData<(T, O)>,
}

impl<T: Element, O: Shape, E: Expr<T>, X: Slot<T>> Nest<X, E> for ChunksNest<T, O> {
    #[inline(always)]
    #[rustfmt::skip]
    fn run<const LANES: usize, const ROWS: usize, const WIDE: usize, const ROW_WIDE: usize, const FUSE: bool>(self, out: &mut [X], e: &E, start: usize) {
        let rows = self.rows;
        let mut done = 0;
        if const { !crate::isa::EVERY_LEVEL } {
            while rows - done >= DEV_CHUNK_ROWS {
                drive_chunk::<T, O, E, X, DEV_CHUNK_ROWS, LANES, ROWS, WIDE, ROW_WIDE, FUSE>(out, e, start, done);
                done += DEV_CHUNK_ROWS;
            }
            while rows - done >= 1 {
                drive_chunk::<T, O, E, X, 1, LANES, ROWS, WIDE, ROW_WIDE, FUSE>(out, e, start, done);
                done += 1;
            }
            return;
        }
        while rows - done >= CHUNK_ROWS {
            drive_chunk::<T, O, E, X, CHUNK_ROWS, LANES, ROWS, WIDE, ROW_WIDE, FUSE>(out, e, start, done);
            done += CHUNK_ROWS;
        }
        macro_rules! by_quarters {
            ($($b:literal)*) => {$(
                while rows - done >= $b {
                    drive_chunk::<T, O, E, X, $b, LANES, ROWS, WIDE, ROW_WIDE, FUSE>(out, e, start, done);
                    done += $b;
                }
            )*};
        }
        by_quarters!(16 4 1);
        debug_assert_eq!(done, rows);
    }

    #[inline(always)]
    fn run_target(self, out: &mut [X], e: &E, start: usize) {
        super::dispatch::at_target(self, out, e, start);
    }

    const FUSES: bool = T::IS_FLOAT && reading::<T, E>().contraction > 0;
}

/// Rows `start + done..` of the output, `B` of them (`out` holds those from
/// `start` on): the static nest of a chunk at the walk's level. (With the
/// `rayon` feature, a chunk with enough work is split across threads as
/// any static output is.)
#[inline(always)]
#[rustfmt::skip]
fn drive_chunk<T: Element, O: Shape, E: Expr<T>, X: Slot<T>, const B: usize, const LANES: usize, const ROWS: usize, const WIDE: usize, const ROW_WIDE: usize, const FUSE: bool>(out: &mut [X], e: &E, start: usize, done: usize) {
    let chunk = &mut out[done * O::ITEM_LEN..(done + B) * O::ITEM_LEN];
    let first = start + done;
    let rebased = Rebased::<E, B>::new(e, first);
    #[cfg(feature = "rayon")]
    if super::Plan::<T, O::Chunk<B>, Rebased<'_, E, B>>::PARALLEL {
        super::drive::<T, O::Chunk<B>, Rebased<'_, E, B>, X>(chunk, &rebased);
        return;
    }
    let chunk = &mut chunk[..<O::Chunk<B> as Shape>::LEN];
    super::dispatch::drive_at::<T, O::Chunk<B>, Rebased<'_, E, B>, X, LANES, ROWS, WIDE, ROW_WIDE, FUSE>(chunk, &rebased, 0);
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
        visit_run_time_rows(e, &mut |rows| {
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
    type Children = (E,);
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) -> (&E,) {
        (self.e,)
    }

    /// The tree's, walked by rows or tiles: a chunk is never the whole data
    /// of an operand (its leaves read no flat row). A result of rank 1
    /// (`[Dyn]`, a matrix-vector product's) is walked by rows, its one row
    /// read from column `first` on.
    const OWN: Own = {
        let tree = reading::<T, E>();
        Own {
            stored: E::OWN.stored,
            int8: E::OWN.int8,
            ..Own::alone(if <E::Shape as Shape>::RANK == 1 {
                Reading {
                    flat: Flat::No,
                    holds: Holds {
                        products: 0,
                        ..tree.holds
                    },
                    packed: 0,
                    ..tree
                }
            } else {
                Reading {
                    flat: Flat::No,
                    ..tree
                }
            })
        }
    };

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        if const { O::RANK == 1 } {
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
        if const { O::RANK == 1 } {
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
        if const { O::RANK == 1 } {
            return None;
        }
        self.e.stored_row::<O>(self.shift(outer))
    }

    #[inline(always)]
    fn int8_row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<Int8Row<'_>> {
        if const { O::RANK == 1 } {
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
        self.e
            .tile::<O, R, C, FUSE>(at.rebased::<O>(self.first), j0)
    }
}
