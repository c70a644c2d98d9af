//! Operands as leaves: a tensor, view or scalar read through broadcast
//! strides ([`operand`]). The operations that read one in another dim order
//! or shape (`ops::permute`, `ops::reshape`, `ops::in_dims`) give a leaf of
//! another [`Layout`].
//!
//! Nothing is moved: a [`StridedLeaf`] reads the operand's own elements through
//! the strides of a [`Layout`], which are constants of the monomorphised
//! shapes, composed with the broadcast strides of the output. A transposed
//! operand's rows are read with a stride (a gather), so its inner loop does not
//! vectorise the way a contiguous one does.

use super::context::Context;
use super::{Expr, Flat, Own, Row, Shaped, StoredMatrix, StoredRows, Tile, TileOrigin};
use crate::access::{Layout, Operand, RowMajor};
use crate::dim::DataLen;
use crate::element::Element;
use crate::rules::broadcast::aligned_strides;
use crate::shape::{len_unless_run_time, Shape, MAX_RANK};
use core::marker::PhantomData;
use core::ptr::NonNull;

/// How a leaf of layout `L` holds its data's length.
type DataLenOf<L> = <<L as Layout>::Shape as Shape>::DataLen;

/// An operand's elements read through the strides of layout `L`, broadcast
/// into the output (stride 0 on the dims it has as size 1 or lacks).
///
/// Held as where the elements start and, only where the layout's first dim
/// is [`RunTime`](crate::RunTime), how many there are ([`DataLen`]): a
/// tree's leaves are built in the caller's frame and passed to a walk out
/// of line, and a leaf of a static shape as a slice (pointer and constant
/// length) took twice the stack and a store of the constant per leaf.
pub struct StridedLeaf<'a, T, L: Layout> {
    /// The first of exactly `L::DATA_LEN` elements, or of `len` (every
    /// row's) where the layout's first dim is [`RunTime`](crate::RunTime)
    /// (see [`StridedLeaf::new`]); `row` relies on it.
    start: NonNull<T>,
    len: <L::Shape as Shape>::DataLen,
    /// The borrow `start` and `len` come from.
    data: PhantomData<&'a [T]>,
    layout: PhantomData<L>,
}

impl<T, L: Layout> Clone for StridedLeaf<'_, T, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, L: Layout> Copy for StridedLeaf<'_, T, L> {}

// SAFETY: a leaf is a shared borrow of `[T]` and a layout marker, as
// `(&[T], PhantomData<L>)` is.
unsafe impl<T: Sync, L: Layout + Send> Send for StridedLeaf<'_, T, L> {}
// SAFETY: as for `Send`.
unsafe impl<T: Sync, L: Layout + Sync> Sync for StridedLeaf<'_, T, L> {}

impl<T: core::fmt::Debug, L: Layout> core::fmt::Debug for StridedLeaf<'_, T, L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StridedLeaf")
            .field("data", &self.data())
            .finish()
    }
}

impl<'a, T, L: Layout> StridedLeaf<'a, T, L> {
    /// Wraps row-major data laid out as `L` describes. Panics if `data` is
    /// shorter than the layout needs: operands guarantee it, so this never fires.
    /// (`in_dims` and `reshape` wrap an operand's data as another shape with
    /// the same element count and row-major order.)
    #[inline]
    pub fn new(data: &'a [T]) -> Self {
        // Both follow from the first dim being `RunTime`.
        const { assert!(<DataLenOf<L> as DataLen>::HELD == Self::RUN_TIME_ROWS) };
        let data = if <DataLenOf<L> as DataLen>::HELD {
            data
        } else {
            &data[..L::DATA_LEN]
        };
        StridedLeaf {
            start: NonNull::from(data).cast(),
            len: DataLen::hold(data.len()),
            data: PhantomData,
            layout: PhantomData,
        }
    }

    /// The operand's elements: exactly those `new` was given, or the first
    /// `L::DATA_LEN` of them.
    #[inline(always)]
    pub(crate) fn data(self) -> &'a [T] {
        // SAFETY: `start` and `limit()` are those of a `&'a [T]` that `new`
        // took (where the length is not held, `new` cut the slice to
        // `L::DATA_LEN`, the constant `limit` returns), and the leaf keeps
        // that borrow for `'a`.
        unsafe { core::slice::from_raw_parts(self.start.as_ptr(), self.limit()) }
    }

    /// Whether the layout's first dim is [`RunTime`](crate::RunTime): its data is
    /// as long as its rows, all of them read.
    const RUN_TIME_ROWS: bool = <L::Shape as Shape>::RUN_TIME_ROWS;

    /// The rows of data whose first dim is counted at run time: whole items
    /// of the layout's other dims.
    #[inline(always)]
    fn rows(&self) -> usize {
        self.limit() / <L::Shape as Shape>::ITEM_LEN
    }

    /// The data's length, which a row may read up to: the constant
    /// `DATA_LEN`, or the length held where the rows are counted at run
    /// time.
    #[inline(always)]
    fn limit(&self) -> usize {
        self.len.len(L::DATA_LEN)
    }
}

/// The strides of layout `L` read within output shape `O`.
struct ReadStrides<L, O>(PhantomData<(L, O)>);

impl<L: Layout, O: Shape> ReadStrides<L, O> {
    const STRIDES: [usize; MAX_RANK] =
        aligned_strides(L::STRIDES, <L::Shape as Shape>::DIMS, O::DIMS);
    const INNER: usize = if O::RANK == 0 {
        0
    } else {
        Self::STRIDES[O::RANK - 1]
    };
    /// Whether every row of `O` reads the same elements, all of them
    /// static: the leaf is broadcast along every dim but the last (a bias,
    /// or a per-channel multiplier, against a product's rows), and the row
    /// is not as long as rows counted at run time.
    const ONE_ROW: bool = {
        let mut k = 0;
        while k + 1 < O::RANK && Self::STRIDES[k] == 0 {
            k += 1;
        }
        k + 1 >= O::RANK && !O::RUN_TIME_ROW
    };
    /// Whether each row read within `O` lies inside the item (the element
    /// of the layout's first dim) that `outer[0]` names, given `outer[k] <
    /// O::DIMS[k]` for the dims between the first and the last: the first
    /// dim's stride is the item's length, and the rest of a row's offset
    /// plus its span stays within it. (Not for an `O` with an empty dim
    /// between, which has no rows to read.)
    const WITHIN_ITEMS: bool = {
        let item = <L::Shape as Shape>::ITEM_LEN;
        if O::RANK < 2 || Self::STRIDES[0] != item {
            false
        } else {
            let mut reach = span(O::ROW_LEN, Self::INNER);
            let mut within = true;
            let mut k = 1;
            while k + 1 < O::RANK {
                if O::DIMS[k] == 0 {
                    within = false;
                    break;
                }
                reach += (O::DIMS[k] - 1) * Self::STRIDES[k];
                k += 1;
            }
            within && reach <= item
        }
    };
}

impl<T, L: Layout> Shaped for StridedLeaf<'_, T, L> {
    type Shape = L::Shape;
}

/// How a layout's elements are read in a flat walk: one element is a splat,
/// row-major data a run, anything strided neither.
struct FlatRead<L>(PhantomData<L>);

impl<L: Layout> FlatRead<L> {
    const FLAT: Flat = {
        let dims = <L::Shape as Shape>::DIMS;
        let len = len_unless_run_time(dims);
        if <L::Shape as Shape>::RUN_TIME_ROWS {
            // Walked by rows: a chunk of the output is never the whole data.
            Flat::No
        } else if len == 1 {
            Flat::Splat
        } else if is_row_major(&L::STRIDES, dims) {
            Flat::Run(len)
        } else {
            Flat::No
        }
    };
    /// The distance between the flat row's columns, and the elements it reads.
    const STEP: usize = match Self::FLAT {
        Flat::Splat => 0,
        _ => 1,
    };
    const SPAN: usize = span(len_unless_run_time(<L::Shape as Shape>::DIMS), Self::STEP);
}

/// Whether `strides` are the row-major strides of `dims` (on every dim of
/// more than one element: a size-1 dim's stride is never used).
const fn is_row_major(strides: &[usize; MAX_RANK], dims: &[usize]) -> bool {
    let own = crate::shape::row_major_strides(dims);
    let mut k = 0;
    while k < dims.len() {
        if dims[k] > 1 && strides[k] != own[k] {
            return false;
        }
        k += 1;
    }
    true
}

unsafe impl<T: Element, L: Layout> Expr<T> for StridedLeaf<'_, T, L> {
    /// Its data's rows, where they are counted at run time.
    type Children = StoredRows;
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) -> Option<usize> {
        Self::RUN_TIME_ROWS.then(|| self.rows())
    }
    /// Stored where its rows are contiguous (its last dim's stride is 1):
    /// a transposed view is not.
    const OWN: Own = Own {
        stored: {
            let rank = <L::Shape as Shape>::RANK;
            rank == 0 || L::STRIDES[rank - 1] == 1
        },
        ..Own::leaf(FlatRead::<L>::FLAT)
    };

    #[inline(always)]
    fn broadcast_along<O: Shape>(&self, axis: usize) -> Option<&[T]> {
        // Every other dim's stride 0 (or its size 1): each position reads
        // the element of its index along `axis`.
        let strides = ReadStrides::<L, O>::STRIDES;
        let along = axis < O::RANK
            && !O::RUN_TIME_ROW
            && (0..O::RANK).all(|k| strides[k] == usize::from(k == axis) || O::DIMS[k] == 1);
        if !along {
            return None;
        }
        self.data().get(..O::DIMS[axis])
    }

    #[inline(always)]
    fn stored_row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<&[T]> {
        if const { ReadStrides::<L, O>::INNER != 1 } {
            return None;
        }
        let offset = row_offset::<O>(&ReadStrides::<L, O>::STRIDES, outer);
        self.data().get(offset..offset + O::ROW_LEN)
    }

    #[inline(always)]
    fn stored_matrix<O: Shape>(
        &self,
        outer: [usize; MAX_RANK],
        axis: usize,
    ) -> Option<StoredMatrix<'_, T>> {
        if const { ReadStrides::<L, O>::INNER != 1 } || axis + 1 >= O::RANK {
            return None;
        }
        let offset = row_offset::<O>(&ReadStrides::<L, O>::STRIDES, outer);
        Some(StoredMatrix {
            data: self.data().get(offset..)?,
            stride: ReadStrides::<L, O>::STRIDES[axis],
        })
    }

    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        FlatRow::<T, L> {
            data: &self.data()[..FlatRead::<L>::SPAN],
            layout: PhantomData,
        }
    }

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.strided_row::<O>(outer)
    }

    /// A tile of `R` rows of windows of `C` columns; where every row reads
    /// the same integers (`ReadStrides::ONE_ROW`), the one window's
    /// values, read once for the tile (`LeafTile` says why integers).
    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl Tile<T> + '_ {
        if LeafTile::<T, L, O, R, C>::READ_ONCE {
            let window = self.strided_row::<O>(at.row::<O>(0)).columns::<C>(j0);
            LeafTile::<T, L, O, R, C>::Values(crate::arrays::from_index_fn(|j| {
                window.get(j, T::ZERO)
            }))
        } else {
            LeafTile::Rows(crate::arrays::from_index_fn(|r| {
                self.strided_row::<O>(at.row::<O>(r)).columns::<C>(j0)
            }))
        }
    }
}

impl<'a, T: Element, L: Layout> StridedLeaf<'a, T, L> {
    /// Row `outer` of `O` ([`Expr::row`]).
    #[inline(always)]
    fn strided_row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> StridedRow<'_, T, L, O> {
        let offset = row_offset::<O>(&ReadStrides::<L, O>::STRIDES, outer);
        // Re-slicing to exactly the elements the row touches lets LLVM drop the
        // bounds checks of the inner loop: j < ROW_LEN implies j * INNER < span.
        // (An empty row, as in a product contracting over a size-0 dim, reads nothing.)
        let limit = self.limit();
        let span = if O::RUN_TIME_ROW {
            // A row as long as the rows counted at run time (a `[Dyn]`
            // result's one row): all the data from `offset` on.
            limit
                .saturating_sub(offset)
                .min(match ReadStrides::<L, O>::INNER {
                    0 => 1,
                    _ => usize::MAX,
                })
        } else {
            const { span(O::ROW_LEN, ReadStrides::<L, O>::INNER) }
        };
        if const { Self::RUN_TIME_ROWS && !O::RUN_TIME_ROW && ReadStrides::<L, O>::WITHIN_ITEMS } {
            // Rows counted at run time, each within one item, are checked by
            // row number against `rows()`, which a chunk of the walk asserts
            // once for all its rows (`kernel/run_time.rs`): LLVM then drops
            // the check and vectorises across short rows. Against the data's
            // length, as below, it could not (`v * dt + g` over points of 3
            // ran at 0.47 of the static shape's speed).
            let mut inside = outer[0] < self.rows();
            let mut k = 1;
            while k + 1 < O::RANK {
                inside &= outer[k] < O::DIMS[k];
                k += 1;
            }
            assert!(inside, "row out of range");
        } else {
            // The range is checked against the constant `DATA_LEN`, not the
            // slice's length, which LLVM loads per leaf: then every leaf of one
            // layout checks the same condition of `outer`, which LLVM tests once.
            // Where the driver is not inlined (an expression of hundreds of
            // terms), one distinct check per leaf and row gives LLVM's loop and
            // register passes hundreds of branches, which they handle in
            // quadratic time.
            assert!(span <= limit && offset <= limit - span, "row out of range");
        }
        // SAFETY: `new` sliced `data` to exactly `L::DATA_LEN` elements (or
        // kept all of it, `limit()` long, for run-time rows). Either `offset +
        // span <= limit` was just checked (without overflow), or the row lies
        // within one item: the rest of the offset plus `span` is at most the
        // item's length (`WITHIN_ITEMS`, given the indices just checked), so
        // `offset + span <= (outer[0] + 1) * ITEM_LEN <= rows() * ITEM_LEN
        // <= data.len()`.
        let row = unsafe { self.data().get_unchecked(offset..offset + span) };
        StridedRow::<T, L, O> {
            row,
            layout: PhantomData,
        }
    }
}

/// The elements `len` columns read `inner` apart touch (0 for none): the
/// one-dim [`strided_span`](crate::access::strided_span), in closed form so that LLVM folds it inside a
/// row's reads (through `strided_span`'s loop, a bounds check stayed in the
/// `ln` kernel: `.ci/asm_check`).
const fn span(len: usize, inner: usize) -> usize {
    match len {
        0 => 0,
        len => (len - 1) * inner + 1,
    }
}

/// Where output row `outer` of `O` starts, for a reader whose strides within
/// `O` are `strides`.
#[inline(always)]
pub(crate) fn row_offset<O: Shape>(strides: &[usize; MAX_RANK], outer: [usize; MAX_RANK]) -> usize {
    let mut offset = 0;
    for k in 0..O::RANK.saturating_sub(1) {
        offset += outer[k] * strides[k];
    }
    offset
}

/// One row of a [`StridedLeaf`]: contiguous, strided (a transpose) or a splat.
struct StridedRow<'a, T, L, O> {
    row: &'a [T],
    layout: PhantomData<(L, O)>,
}

impl<T: Element, L: Layout, O: Shape> Row<T> for StridedRow<'_, T, L, O> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        self.row[j * ReadStrides::<L, O>::INNER]
    }

    #[inline(always)]
    fn window<'w, const C: usize>(self, j0: usize) -> impl Row<T> + 'w
    where
        Self: 'w,
    {
        self.columns::<C>(j0)
    }
}

impl<'a, T, L: Layout, O: Shape> StridedRow<'a, T, L, O> {
    /// Columns `j0..j0 + C` ([`Row::window`]).
    #[inline(always)]
    fn columns<const C: usize>(self, j0: usize) -> StridedWindow<'a, T, L, O, C> {
        StridedWindow {
            start: &self.row[j0 * ReadStrides::<L, O>::INNER..],
            layout: PhantomData,
        }
    }
}

/// A [`StridedLeaf`]'s tile ([`Expr::tile`]): each row's window, or,
/// where every row reads the same integers, their values read once. Read
/// once, they are values LLVM keeps out of the loop over the tile's rows,
/// with whatever the epilogue computes from them alone (an int8
/// requantisation's shifts from its per-channel shift): through one window
/// per row, it reloads them and recomputes that for each row, since the
/// tile's stores may alias them. Floats keep the windows: their epilogue
/// (a bias) reads them as memory operands, so there is nothing to save,
/// and values held across a product's `k` loop measured slower
/// (PERFORMANCE.md, "Per-channel parameters read once per tile").
enum LeafTile<'a, T, L, O, const R: usize, const C: usize> {
    /// Each row's window.
    Rows([StridedWindow<'a, T, L, O, C>; R]),
    /// The one row's values, where [`Self::READ_ONCE`]. (One or the
    /// other, not both: a tile's leaves sit in the frame of a walk that
    /// is not always inlined, where both fields took more stack.)
    Values([T; C]),
}

impl<T: Element, L: Layout, O: Shape, const R: usize, const C: usize> LeafTile<'_, T, L, O, R, C> {
    /// Whether the tile holds the one row's values: read once for its
    /// rows, where it has more than one (for one row, a copy of the window
    /// is only code, and stack).
    const READ_ONCE: bool = ReadStrides::<L, O>::ONE_ROW && !T::IS_FLOAT && R > 1;
}

impl<T: Element, L: Layout, O: Shape, const R: usize, const C: usize> Tile<T>
    for LeafTile<'_, T, L, O, R, C>
{
    #[inline(always)]
    fn get(&self, r: usize, j: usize, current: T) -> T {
        match self {
            LeafTile::Values(values) => values[j],
            LeafTile::Rows(rows) => rows[r].get(j, current),
        }
    }
}

/// A [`StridedLeaf`] read in a flat walk: its elements in order, or a splat.
struct FlatRow<'a, T, L> {
    data: &'a [T],
    layout: PhantomData<L>,
}

impl<T: Element, L: Layout> Row<T> for FlatRow<'_, T, L> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        self.data[j * FlatRead::<L>::STEP]
    }
}

/// Columns `j0..j0 + C` of a [`StridedRow`], from the first on.
struct StridedWindow<'a, T, L, O, const C: usize> {
    start: &'a [T],
    layout: PhantomData<(L, O)>,
}

impl<T, L: Layout, O: Shape, const C: usize> StridedWindow<'_, T, L, O, C> {
    /// The elements the window touches: a constant, so a read at a column
    /// below `C` needs no bounds check once this one is passed.
    const SPAN: usize = span(C, ReadStrides::<L, O>::INNER);
}

impl<T: Element, L: Layout, O: Shape, const C: usize> Row<T> for StridedWindow<'_, T, L, O, C> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        self.start[..Self::SPAN][j * ReadStrides::<L, O>::INNER]
    }
}

/// Borrows an operand as a leaf over the context's element type `T`. One of
/// another element type is reported here, once, while rustc computes
/// [`Operand::Element`], and the leaf's type is then unknown, so no enclosing
/// node reports it again.
#[inline(always)]
#[rustfmt::skip]
pub fn operand<'a, T, M, X: Operand<T> + ?Sized>(_context: Context<T, M>, x: &'a X) -> StridedLeaf<'a, X::Element, X::Layout> where X::Element: 'a {
    StridedLeaf::new(x.elements())
}

/// An operand's elements read through broadcast strides: its data in
/// row-major order, as shape `S` (a [`StridedLeaf`] of the row-major layout).
pub type TensorLeaf<'a, T, S> = StridedLeaf<'a, T, RowMajor<S>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Tensor, D};

    type M = Tensor<f32, (D<2>, D<3>)>;

    #[test]
    fn a_row_reads_its_own_elements() {
        let m = M::from_fn(|[i, j]| (10 * i + j) as f32);
        let leaf = operand(crate::expr::context_of(crate::rules::rank::Numpy, &m), &m);
        let row = leaf.row::<(D<2>, D<3>)>([1, 0, 0, 0, 0, 0]);
        assert_eq!([row.get(0, 0.0), row.get(2, 0.0)], [10.0, 12.0]);
    }

    /// A tile reads each row's own window, and a leaf broadcast along
    /// every dim but the last reads its one row for every row of the tile
    /// (read once, for integers).
    #[test]
    fn a_tile_reads_each_row_or_the_one_row() {
        type Out = (D<2>, D<3>);
        let m = Tensor::<i32, Out>::from_fn(|[i, j]| (10 * i + j) as i32);
        let v = Tensor::<i32, (D<3>,)>::from_fn(|[j]| 100 + j as i32);
        let context = crate::expr::context_of(crate::rules::rank::Numpy, &m);
        let (m_leaf, v_leaf) = (operand(context, &m), operand(context, &v));
        const {
            assert!(!ReadStrides::<RowMajor<(D<2>, D<3>)>, Out>::ONE_ROW);
            assert!(ReadStrides::<RowMajor<(D<3>,)>, Out>::ONE_ROW);
            assert!(ReadStrides::<RowMajor<(D<1>, D<3>)>, Out>::ONE_ROW);
        }
        let at = TileOrigin::new([0; MAX_RANK], 0);
        let (m_tile, v_tile) = (
            m_leaf.tile::<Out, 2, 2, false>(at, 1),
            v_leaf.tile::<Out, 2, 2, false>(at, 1),
        );
        // Rows 0 and 1 from column 1: (0, 0), (1, 0), (1, 1).
        let read = |tile: &dyn Tile<i32>| [[0, 0], [1, 0], [1, 1]].map(|[r, j]| tile.get(r, j, 0));
        assert_eq!(read(&m_tile), [1, 11, 12]);
        assert_eq!(read(&v_tile), [101, 101, 102]);
    }

    /// A leaf of a static shape is one pointer; one whose first dim is
    /// counted at run time holds the data's length too. The data it gives
    /// back is exactly the operand's, cut to the layout's length.
    #[test]
    fn a_leaf_holds_a_length_only_where_it_is_counted_at_run_time() {
        use crate::dim::RunTime;
        use core::mem::size_of;
        assert_eq!(
            size_of::<StridedLeaf<'_, f32, RowMajor<(D<2>, D<3>)>>>(),
            size_of::<usize>()
        );
        assert_eq!(
            size_of::<StridedLeaf<'_, f32, RowMajor<()>>>(),
            size_of::<usize>()
        );
        assert_eq!(
            size_of::<StridedLeaf<'_, f32, RowMajor<(RunTime, D<3>)>>>(),
            2 * size_of::<usize>()
        );
        let data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
        let fixed = StridedLeaf::<'_, f32, RowMajor<(D<2>, D<3>)>>::new(&data);
        assert_eq!(fixed.data(), &data[..6]);
        let rows = StridedLeaf::<'_, f32, RowMajor<(RunTime, D<3>)>>::new(&data[..6]);
        assert_eq!((rows.data(), rows.rows()), (&data[..6], 2));
    }

    /// `row` is safe to call with any index: one past the last row panics
    /// instead of reading past the data (its slice is taken unchecked).
    #[test]
    #[should_panic(expected = "row out of range")]
    fn a_row_past_the_end_panics() {
        let m = M::zeros();
        let leaf = operand(crate::expr::context_of(crate::rules::rank::Numpy, &m), &m);
        let _ = leaf.row::<(D<2>, D<3>)>([2, 0, 0, 0, 0, 0]);
    }
}
