//! The gathers: values read at positions that another tensor holds.
//! - `embedding(ids, table)`: row `id` of `table` (`[V, D]`) for each id, as
//!   `torch.nn.functional.embedding(ids, weight)`: the result is the ids'
//!   shape with `D` appended (`table[ids]` in NumPy).
//! - `index_select(x, ids, [axis])`: the slices of `x` at the listed
//!   positions along `axis`, in the ids' order, as `torch.index_select(x,
//!   axis, ids)` (`numpy.take(x, ids, axis)`): the result is `x`'s shape
//!   with dim `axis` replaced by the ids' count. (Inputs come first, then
//!   the list, as in every operation of two inputs.)
//! - `gather(x, index, [axis])`: for each element of `index` (the input's
//!   rank, each dim at most the input's but along `axis`), the input's
//!   element at the same position but at the index's value along `axis`,
//!   as `torch.gather(x, axis, index)` (`numpy.take_along_axis`): the
//!   result has the index's shape.
//!
//! Ids are a stored tensor of any integer type (`usize`, `i32`, `u8`, ...)
//! of their own, whatever the expression's element type; an expression of
//! ids must be bound to a tensor first. Every id is checked against its
//! range once, when the node is built: an id out of range (or negative)
//! panics, naming the id and the range, as indexing a slice does and as
//! PyTorch raises `IndexError`. A `Result` would make every expression that
//! gathers fallible, while an out-of-range id is a bug in the caller's
//! data, as an out-of-range `x[[i, j]]` is.
//!
//! Nothing is copied: each output row reads the row of the table (or of
//! `x`) its position names where it is stored, so a gather fuses into the
//! expression around it (`embedding(ids, table) * scale + position` has no
//! temporary). The shape rules are in [`crate::rules::gather`].

use super::{Build, Dims, Operation, Reads, Signature};
use crate::access::{Contiguous, ElementSource, Operand};
use crate::element::Element;
use crate::expr::{Context, Expr, Flat, Own, Row, Shaped};
use crate::rules::broadcast::aligned_strides;
use crate::rules::gather::{Embedded, GatherIndex, Ids, Selected, Table};
use crate::shape::{row_major_strides, Shape, MAX_RANK};
use core::marker::PhantomData;

/// The table entry of a gather of two inputs built by `constructor`: its
/// dim list `dims` (none, or the one axis), its positions in input
/// `positions`.
const fn entry(
    name: &'static str,
    dims: Dims,
    positions: usize,
    constructor: &'static str,
    summary: &'static str,
    forms: &'static [&'static str],
) -> Operation {
    Operation {
        name,
        signature: Signature {
            dims,
            dims_optional: matches!(dims, Dims::None),
            ..Signature::of(2)
        },
        reads: Reads::Gathers { positions },
        build: Build::Node {
            constructor,
            marker: None,
        },
        elements: "Element",
        summary,
        forms,
    }
}

/// The table entry of `embedding`.
pub const EMBEDDING: Operation = entry(
    "embedding",
    Dims::None,
    0,
    "gather::embedding",
    "Row `id` of a `[V, D]` table for each id, shaped as the ids with `D` appended (`torch.nn.functional.embedding`).",
    &["embedding(ids, table)"],
);

/// The table entry of `index_select`.
pub const INDEX_SELECT: Operation = entry(
    "index_select",
    Dims::SingleAxis,
    1,
    "gather::index_select",
    "The slices of `x` along an axis at the listed positions, in their order (`torch.index_select`, `numpy.take`).",
    &["index_select(x, ids, [axis])"],
);

/// The table entry of `gather`.
pub const GATHER: Operation = entry(
    "gather",
    Dims::SingleAxis,
    1,
    "gather::gather",
    "Element `index[..]` along an axis for each element of the index, shaped as the index (`torch.gather`, `numpy.take_along_axis`).",
    &["gather(x, index, [axis])"],
);

/// An integer that names a position: every primitive integer type.
#[diagnostic::on_unimplemented(
    message = "ids of type `{Self}`: a gather's positions are integers",
    label = "ids must have an integer element type",
    note = "convert them with `cast::<i32>(..)` into a tensor of their own first"
)]
pub trait Id: Copy + core::fmt::Display {
    /// The position, or `None` for a negative value or one beyond `usize`.
    fn position(self) -> Option<usize>;
}

macro_rules! ids {
    ($($t:ty),*) => {$(
        impl Id for $t {
            #[inline(always)]
            fn position(self) -> Option<usize> {
                usize::try_from(self).ok()
            }
        }
    )*};
}

ids!(usize, u8, u16, u32, u64, u128, isize, i8, i16, i32, i64, i128);

/// The positions of `ids`, each checked to be below `len`; panics naming
/// the first that is not, and what it indexes.
#[track_caller]
fn checked_positions<P: Id>(ids: &[P], len: usize, what: &str) {
    for &id in ids {
        match id.position() {
            Some(position) if position < len => {}
            _ => panic!("{what}: id {id} is out of range for {len} rows (0..{len})"),
        }
    }
}

/// A stored tensor of ids: any container (or reference to one) whose
/// elements are an integer type, read over that type, whatever the
/// expression's. What each gather's positions input is.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a gather's positions",
    label = "expected a stored tensor of integers",
    note = "ids are a `Tensor`, `HeapTensor` or view of any integer type (`usize`, `i32`, `u8`, ..)"
)]
pub trait StoredIds {
    /// The ids' integer type.
    type Id: Id;
    /// The ids' shape.
    type Shape: Shape;
    /// The ids, exactly `Self::Shape::LEN` of them.
    fn ids(&self) -> &[Self::Id];
}

impl<I> StoredIds for I
where
    I: ElementSource
        + Operand<<I as ElementSource>::Element, Element = <I as ElementSource>::Element>
        + ?Sized,
    <I as ElementSource>::Element: Id,
    <I as Operand<<I as ElementSource>::Element>>::Layout: Contiguous,
{
    type Id = <I as ElementSource>::Element;
    type Shape = <I as Operand<<I as ElementSource>::Element>>::Shape;
    #[inline(always)]
    fn ids(&self) -> &[Self::Id] {
        &self.elements()[..<Self::Shape as Shape>::LEN]
    }
}

/// `embedding(ids, table)`: for each id (shape `I`, elements `P`), the row
/// of `table` (shape `W`, `[V, D]`) it names.
pub struct Embedding<'a, T, P, I, W> {
    /// Exactly `I::LEN` ids, each below `V` (checked when built).
    ids: &'a [P],
    /// Exactly `W::LEN` elements.
    table: &'a [T],
    shapes: PhantomData<(I, W)>,
}

/// Builds `embedding(ids, table)`, checking every id against the table's
/// rows (a panic naming the first out of range).
#[inline(always)]
#[track_caller]
#[allow(clippy::type_complexity)]
#[rustfmt::skip]
pub fn embedding<'a, T, M, I, W>(_context: Context<T, M>, ids: &'a I, table: &'a W) -> Embedding<'a, W::Element, I::Id, I::Shape, W::Shape>
where
    I: StoredIds + ?Sized,
    W: Operand<T> + ?Sized,
    W::Layout: Contiguous,
    W::Shape: Table,
    I::Shape: Embedded<<W::Shape as Table>::Width>,
{
    let ids = ids.ids();
    checked_positions(ids, <<W::Shape as Table>::Rows as crate::dim::Dim>::SIZE, "embedding");
    Embedding { ids, table: &table.elements()[..<W::Shape as Shape>::LEN], shapes: PhantomData }
}

impl<T, P, I: Embedded<<W as Table>::Width>, W: Table> Shaped for Embedding<'_, T, P, I, W> {
    type Shape = <I as Embedded<W::Width>>::Output;
}

/// How an embedding of ids `I` (output `X`, `I` with the width appended)
/// reads within output shape `O`: the ids' strides aligned to `O`'s outer
/// dims (0 where broadcast), and the length of the table rows read.
struct EmbeddingRead<I, X, O>(PhantomData<(I, X, O)>);

impl<I: Shape, X: Shape, O: Shape> EmbeddingRead<I, X, O> {
    /// The ids' row-major strides as `X`'s (the width's dim last, 0).
    const STRIDES: [usize; MAX_RANK] =
        aligned_strides(row_major_strides(I::DIMS), X::DIMS, O::DIMS);
    /// The table row's length as read along `O`'s last dim: 1 where it is
    /// broadcast (a width of 1).
    const ROW: usize = X::DIMS[X::RANK - 1];
}

unsafe impl<T: Element, P: Id, I, W> Expr<T> for Embedding<'_, T, P, I, W>
where
    I: Embedded<<W as Table>::Width>,
    W: Table,
{
    /// Its ids and table have static shapes: no run-time rows.
    type Children = ();
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) {}

    /// Reads stored data at positions of its own, keeping no row cache: read as a leaf with strides.
    const OWN: Own = Own::leaf(Flat::No);

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        let strides = &EmbeddingRead::<I, <I as Embedded<W::Width>>::Output, O>::STRIDES;
        let mut at = 0;
        for k in 0..O::RANK.saturating_sub(1) {
            at += outer[k] * strides[k];
        }
        // Checked when built: every id is a position below the rows.
        let id = self.ids[at].position().unwrap_or(0);
        let width = EmbeddingRead::<I, <I as Embedded<W::Width>>::Output, O>::ROW;
        GatheredRow {
            row: &self.table[id * width..][..width],
        }
    }
}

/// A row read where it is stored, contiguous or one element broadcast.
struct GatheredRow<'a, T> {
    row: &'a [T],
}

impl<T: Element> Row<T> for GatheredRow<'_, T> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        self.row[if self.row.len() == 1 { 0 } else { j }]
    }
}

/// The number of ids of an `index_select` (its ids' one dim).
type IdCount<I> = <<I as StoredIds>::Shape as Ids>::Count;

/// `index_select(x, ids, [A])`: `x` (shape `X`) at the positions `ids`
/// (elements `P`) along axis `A`; the result has shape `Y`.
pub struct IndexSelect<'a, T, P, X, Y, const A: usize> {
    /// Exactly `X::LEN` elements.
    x: &'a [T],
    /// As many ids as `Y`'s dim `A`, each below `X`'s (checked when built).
    ids: &'a [P],
    shapes: PhantomData<(X, Y)>,
}

/// Builds `index_select(x, ids, [axis])`, checking every id against the
/// axis (a panic naming the first out of range). The result shape comes
/// through the rule's projection, so an axis beyond the rank is reported by
/// the rule's message where the node is built.
#[inline(always)]
#[track_caller]
#[allow(clippy::type_complexity)]
#[rustfmt::skip]
pub fn index_select<'a, T, M, const A: usize, X, I>(_context: Context<T, M>, _axis: PhantomData<super::Axis<A>>, x: &'a X, ids: &'a I) -> IndexSelect<'a, X::Element, I::Id, X::Shape, <X::Shape as Selected<A>>::Output<IdCount<I>>, A>
where
    X: Operand<T> + ?Sized,
    X::Layout: Contiguous,
    I: StoredIds + ?Sized,
    I::Shape: Ids,
    X::Shape: Selected<A>,
{
    let ids = ids.ids();
    checked_positions(ids, <X::Shape as Shape>::DIMS[A], "index_select");
    IndexSelect { x: &x.elements()[..<X::Shape as Shape>::LEN], ids, shapes: PhantomData }
}

impl<T, P, X, Y: Shape, const A: usize> Shaped for IndexSelect<'_, T, P, X, Y, A> {
    type Shape = Y;
}

/// How `index_select` of `X` along `A` (output `Y`) reads within output
/// shape `O`.
struct SelectRead<X, Y, O, const A: usize>(PhantomData<(X, Y, O)>);

impl<X: Shape, Y: Shape, O: Shape, const A: usize> SelectRead<X, Y, O, A> {
    /// `x`'s row-major strides.
    const STRIDES: [usize; MAX_RANK] = row_major_strides(X::DIMS);
    /// Where `Y`'s dims start among `O`'s.
    const PAD: usize = O::RANK - Y::RANK;
    /// Whether the selection is along the last axis: each row then reads
    /// `x`'s row at the ids' positions.
    const ALONG_ROWS: bool = A + 1 == Y::RANK;
    /// The length of `x`'s rows read along `O`'s last dim: 1 where `Y`'s
    /// last dim is 1 (broadcast).
    const ROW: usize = if Y::DIMS[Y::RANK - 1] == 1 {
        1
    } else {
        X::DIMS[X::RANK - 1]
    };
    /// The length of `x`'s row a row of the result reads.
    const READ: usize = if Self::ALONG_ROWS {
        X::DIMS[X::RANK - 1]
    } else {
        Self::ROW
    };
}

unsafe impl<T: Element, P: Id, X: Shape, Y: Shape, const A: usize> Expr<T>
    for IndexSelect<'_, T, P, X, Y, A>
{
    /// Its input and ids have static shapes (`X`, `Y: Shape`): no run-time rows.
    type Children = ();
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) {}

    /// Reads stored data at positions of its own, keeping no row cache: read as a leaf with strides.
    const OWN: Own = Own::leaf(Flat::No);

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        let pad = SelectRead::<X, Y, O, A>::PAD;
        let strides = &SelectRead::<X, Y, O, A>::STRIDES;
        let mut offset = 0;
        for k in 0..Y::RANK.saturating_sub(1) {
            // A dim of 1 is broadcast along the output's: index 0.
            let i = if Y::DIMS[k] == 1 { 0 } else { outer[pad + k] };
            // Checked when built: every id is a position along the axis.
            let i = if k == A {
                self.ids[i].position().unwrap_or(0)
            } else {
                i
            };
            offset += i * strides[k];
        }
        SelectRow::<T, P, X, Y, O, A> {
            row: &self.x[offset..][..SelectRead::<X, Y, O, A>::READ],
            ids: self.ids,
            shapes: PhantomData,
        }
    }
}

/// One row of an `index_select`: `x`'s row, read directly, or at the ids'
/// positions where the selection is along the last axis.
struct SelectRow<'a, T, P, X, Y, O, const A: usize> {
    row: &'a [T],
    ids: &'a [P],
    shapes: PhantomData<(X, Y, O)>,
}

impl<T: Element, P: Id, X: Shape, Y: Shape, O: Shape, const A: usize> Row<T>
    for SelectRow<'_, T, P, X, Y, O, A>
{
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        let j = if SelectRead::<X, Y, O, A>::ROW == 1 {
            0
        } else {
            j
        };
        if SelectRead::<X, Y, O, A>::ALONG_ROWS {
            // Checked when built: every id is a position along the row.
            self.row[self.ids[j].position().unwrap_or(0)]
        } else {
            self.row[j]
        }
    }
}

/// `gather(x, index, [A])`: for each element of `index` (shape `I`,
/// elements `P`), the element of `x` (shape `X`) at the same position but
/// along axis `A`, where the index's value is.
pub struct Gather<'a, T, P, X, I, const A: usize> {
    /// Exactly `X::LEN` elements.
    x: &'a [T],
    /// Exactly `I::LEN` positions, each below `X`'s dim `A` (checked when
    /// built).
    index: &'a [P],
    shapes: PhantomData<(X, I)>,
}

/// Builds `gather(x, index, [axis])`, checking every position against the
/// axis (a panic naming the first out of range) and, when the code is
/// built, that each dim of the index but the gathered one is at most the
/// input's.
#[inline(always)]
#[track_caller]
#[allow(clippy::type_complexity)]
#[rustfmt::skip]
pub fn gather<'a, T, M, const A: usize, X, I>(_context: Context<T, M>, _axis: PhantomData<super::Axis<A>>, x: &'a X, index: &'a I) -> Gather<'a, X::Element, I::Id, X::Shape, <I::Shape as GatherIndex<X::Shape>>::Output, A>
where
    X: Operand<T> + ?Sized,
    X::Layout: Contiguous,
    I: StoredIds + ?Sized,
    I::Shape: GatherIndex<X::Shape>,
    X::Shape: Selected<A>,
{
    let () = IndexFits::<X::Shape, I::Shape, A>::CHECKED;
    let index = index.ids();
    checked_positions(index, <X::Shape as Shape>::DIMS[A], "gather");
    Gather { x: &x.elements()[..<X::Shape as Shape>::LEN], index, shapes: PhantomData }
}

/// The build-time check that each dim of index shape `I` but `A` is at most
/// input shape `X`'s (`torch.gather`'s rule).
struct IndexFits<X, I, const A: usize>(PhantomData<(X, I)>);

impl<X: Shape, I: Shape, const A: usize> IndexFits<X, I, A> {
    const CHECKED: () = {
        let mut k = 0;
        while k < I::RANK {
            assert!(
                k == A || I::DIMS[k] <= X::DIMS[k],
                "`gather(x, index, [axis])`: each dim of the index but the axis must be at most the input's"
            );
            k += 1;
        }
    };
}

impl<T, P, X, I, const A: usize> Shaped for Gather<'_, T, P, X, I, A>
where
    I: GatherIndex<X>,
{
    type Shape = <I as GatherIndex<X>>::Output;
}

/// How a gather of `X` by index `I` along `A` reads within output shape `O`.
struct GatherRead<X, I, O, const A: usize>(PhantomData<(X, I, O)>);

impl<X: Shape, I: Shape, O: Shape, const A: usize> GatherRead<X, I, O, A> {
    /// The index's row-major strides aligned to `O` (0 where broadcast).
    const INDEX_STRIDES: [usize; MAX_RANK] =
        aligned_strides(row_major_strides(I::DIMS), I::DIMS, O::DIMS);
    /// `x`'s row-major strides.
    const X_STRIDES: [usize; MAX_RANK] = row_major_strides(X::DIMS);
    /// Where the index's dims start among `O`'s.
    const PAD: usize = O::RANK - I::RANK;
    /// The index's row length as read along `O`'s last dim: 1 where it is
    /// broadcast.
    const ROW: usize = I::DIMS[I::RANK - 1];
    /// Whether the gather is along the last axis (each row of the result
    /// then reads one row of `x` at the index's positions).
    const ALONG_ROWS: bool = A + 1 == I::RANK;
}

unsafe impl<T: Element, P: Id, X: Shape, I: GatherIndex<X>, const A: usize> Expr<T>
    for Gather<'_, T, P, X, I, A>
{
    /// Its input and index have static shapes: no run-time rows.
    type Children = ();
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) {}

    /// Reads stored data at positions of its own, keeping no row cache: read as a leaf with strides.
    const OWN: Own = Own::leaf(Flat::No);

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        let index_strides = &GatherRead::<X, I, O, A>::INDEX_STRIDES;
        let x_strides = &GatherRead::<X, I, O, A>::X_STRIDES;
        let pad = GatherRead::<X, I, O, A>::PAD;
        let (mut at, mut base) = (0, 0);
        for k in 0..O::RANK.saturating_sub(1) {
            at += outer[k] * index_strides[k];
        }
        for k in 0..I::RANK - 1 {
            // The gathered axis's position comes from the index, element by
            // element; a dim of 1 of the index is broadcast (position 0).
            if k != A && I::DIMS[k] != 1 {
                base += outer[pad + k] * x_strides[k];
            }
        }
        GatherRow::<T, P, X, I, O, A> {
            index: &self.index[at..][..GatherRead::<X, I, O, A>::ROW],
            x: self.x,
            base,
            shapes: PhantomData,
        }
    }
}

/// One row of a gather: for column `j`, `x` at `base`, plus the index's
/// position `index[j]` along the axis, plus `j` along the last dim unless
/// that is the axis.
struct GatherRow<'a, T, P, X, I, O, const A: usize> {
    index: &'a [P],
    x: &'a [T],
    base: usize,
    shapes: PhantomData<(X, I, O)>,
}

impl<T: Element, P: Id, X: Shape, I: Shape, O: Shape, const A: usize> Row<T>
    for GatherRow<'_, T, P, X, I, O, A>
{
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        let j = if GatherRead::<X, I, O, A>::ROW == 1 {
            0
        } else {
            j
        };
        // Checked when built: every position is below the axis's size.
        let position = self.index[j].position().unwrap_or(0);
        let column = if GatherRead::<X, I, O, A>::ALONG_ROWS {
            0
        } else {
            j
        };
        self.x[self.base + position * GatherRead::<X, I, O, A>::X_STRIDES[A] + column]
    }
}
