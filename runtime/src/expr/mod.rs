//! Expression trees built by `tensor_expr!` and read row by row by the kernel.
//!
//! An [`Expr`] node has a type-level shape and evaluates row by row: for one row
//! of the output (all indices but the last) it returns a [`Row`] whose
//! `get(j, current)` gives the element at column `j`. Leaves read their data
//! through broadcast strides, which are constants of the monomorphised shapes, so
//! the innermost loop is a plain contiguous loop.
//!
//! The constructors in [`map`] carry the shape and element rules as bounds and are
//! called spanned on the user's operator, so rustc reports a violation there. Each
//! constructor's return type is built from projections of those same bounds, so a
//! violation turns the node's type into rustc's error type and every later use is
//! silent: one mistake, one error.

pub(crate) mod block;
pub(crate) mod buffered;
mod context;
mod fold;
pub(crate) mod fresh;
pub(crate) mod function;
pub mod layer;
mod leaf;
pub mod map;
pub(crate) mod matmul;
pub mod node;
mod strided;

pub use buffered::{shared, Shared};
pub use context::{
    after_reduction, context_of, inferred_context, shape_of, target_context, target_shape, Context,
};
pub use fold::{
    first_step, fold, left_step, right_step, unary_step, First, Fold, FoldSteps, Left, Only,
    Position, Right, Sides, SidesRow, SidesTile, Step, StepsRow, StepsTile, GROUP,
};
pub use function::{
    functions, operators, Admits, BinaryFunction, Defined, Domain, FunctionInfo, Integral,
    TernaryFunction, UnaryFunction, FUNCTIONS,
};
pub use layer::{Int8Layer, Int8Source, LayerStep, PerChannel, Requantization, Stage};
pub use leaf::{float_literal, target_leaf, FloatLiteral, IntLiteral, TargetLeaf};
pub use map::{map1, map2, map3, Map1, Map2, Map3};
#[cfg(feature = "alloc")]
pub(crate) use matmul::Packing;
pub use matmul::{matmul, MatMul};
pub use node::{
    reading, run_time_rows, visit_run_time_rows, Child, Children, OfElements, Own, StoredRows,
};
pub use strided::{operand, StridedLeaf, TensorLeaf};

use crate::shape::{Shape, MAX_RANK};
use core::any::Any;
pub use tensor_expr_catalog::walk::Holds;

/// A node's type-level shape, known from the node's type alone.
///
/// Split from [`Expr`] so that a constructor can read its children's shapes
/// without proving that they evaluate: every impl of `Shaped` has no bounds on
/// the children, so checking one node costs the same at any depth. (When a
/// constructor bounded its children by `Expr<T>`, rustc proved each child's
/// whole subtree again at every level, since node types borrow the operands
/// and so carry lifetimes that keep the proofs out of its cache: checking
/// time grew with the square of the nesting depth.) The one full `Expr<T>`
/// proof is at the root, when the kernel evaluates the tree.
pub trait Shaped {
    /// The node's shape.
    type Shape: Shape;
}

/// A shape as a witness: stands for a node already checked (the chain so far,
/// in [`fold()`]'s step-by-step checks; the other operand of an `in_dims`).
impl<S: Shape> Shaped for core::marker::PhantomData<S> {
    type Shape = S;
}

/// An expression node evaluated over elements of type `T`.
///
/// A node states how it reads its rows (`row`, `row_fresh`, `tile`,
/// `flat_row`, and as an operand `stored_row`, `int8_row`), its children
/// and what it adds to them (`Children`, `children`, `OWN`); module
/// [`node`] derives the rest once for every node: how the tree reads
/// ([`reading`]) and its operands' rows counted at run time
/// ([`visit_run_time_rows`]).
///
/// # Safety
///
/// With the `rayon` feature the kernel reads one tree from several threads
/// at once where its [`reading`] holds no `cached_rows`. So a node whose
/// `row`, `tile` or `flat_row` changes state through `&self` (a row cache
/// in a `Cell`) must report `cached_rows` in its [`Expr::OWN`], and must
/// list every child it reads through those methods in [`Expr::Children`]
/// (whose readings [`reading`] combines); `row_fresh`, `stored_row` and
/// `int8_row` must change no state. A state set once through a thread-safe
/// cell, the same whichever thread sets it (the int8 convolution's packed
/// weights, a `OnceLock` with `std`, which `rayon` implies), needs neither.
/// Every impl is the crate's own; the macro builds trees of them.
#[diagnostic::on_unimplemented(
    message = "element types do not match: `{Self}` is not an expression over `{T}`",
    label = "expected elements of type `{T}` here",
    note = "an operand of other elements is converted with `cast::<{T}>(..)`"
)]
pub unsafe trait Expr<T>: Shaped {
    /// The nodes this one reads ([`Children`]): `()` for one that reads
    /// only stored data or constants, a tuple of [`Child`]ren, or
    /// [`StoredRows`] for a leaf whose rows may be counted at run time. No
    /// default: a node that left out a child would hide the child's row
    /// cache from the walk and its rows from the chunk walk's check.
    type Children: Children<T>;

    /// The scratch its kernels take ([`crate::scratch::KernelScratch`]),
    /// as a type without the tree's borrows, so that a program's plan can
    /// reserve it ([`crate::program`]): an int8 layer's, through the nodes
    /// of its chain; [`NoScratch`](crate::scratch::NoScratch) elsewhere.
    type KernelScratch: crate::scratch::KernelScratch;

    /// The children, borrowed in the order of [`Expr::Children`].
    fn children(&self) -> <Self::Children as Children<T>>::Refs<'_>;

    /// What the node adds to its children: a row cache, a product, a
    /// leaf's flat read; whether it is stored data or an int8 operand. No
    /// default: every node states it, so none can leave out the row cache
    /// it keeps.
    const OWN: Own;

    /// The reader for one output row. `outer` holds the output index of every
    /// dim but the last (the rest of the array is zero); `O` is the output shape.
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_;

    /// The same row, read without the row caches of reductions and shared
    /// subexpressions. A node that reads several rows of a child while other
    /// readers hold one (a reduction, a matrix product reading its operands)
    /// holds that child as a `Fresh` (module `fresh`), whose reads come
    /// here, so no cache is refilled under a reader that borrows it (see
    /// `buffered`). No default: a node with children forwards to their
    /// `row_fresh` (one that read them through `row` would refill their
    /// caches under such a reader, silently); a node that reads only
    /// stored data, with no cache, gives its `row`.
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_;

    /// The whole output read as one row of `O::LEN` columns, element `i` at
    /// column `i`. The kernel calls it only where [`Reading::flat`] covers the
    /// output ([`Flat::covers`]). The default, for nodes that are never read
    /// so, is the node's first row in its own shape (still compiled, as the
    /// kernel's other branch, so it must be a valid read).
    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        self.row::<Self::Shape>([0; MAX_RANK])
    }

    /// The elements every position of `O` reads along its dim `axis`, as
    /// the stored elements themselves, where the node is stored data
    /// broadcast along every other dim of `O` and contiguous along `axis`
    /// (a bias, or a per-channel multiplier, against a layer's channels:
    /// the last dim channels last, `in_dims(b, [1])` channels first): what
    /// an int8 layer's epilogue reads per channel ([`Expr::int8_layer`]).
    #[inline(always)]
    fn broadcast_along<O: Shape>(&self, axis: usize) -> Option<&[T]> {
        let _ = axis;
        None
    }

    /// The int8 layer the tree is, over output `O`, where its stage
    /// ([`Own::layer`]) is not [`Stage::None`]: the int8 convolution whose
    /// sums it reads and the steps of the epilogue up to this node
    /// ([`layer`]); `None` where an operand is not what the kernels read
    /// (a bias that varies along the rows, a zero point that is not a
    /// constant).
    #[inline(always)]
    fn int8_layer<O: Shape>(&self) -> Option<Int8Layer<'_>> {
        None
    }

    /// Row `outer` of `O` as the stored elements themselves, where the node
    /// is stored data ([`Own::stored`]) read along its own contiguous rows (a leaf that is not
    /// broadcast along the row), else `None`: what lets a cast of it expose
    /// its narrow data to the widening product ([`Int8Row`]).
    #[inline(always)]
    fn stored_row<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> Option<&[T]> {
        None
    }

    /// Row `outer` of `O` as stored `i8` values and the constant added to
    /// each, where [`Own::int8`] holds and the row is contiguous.
    #[inline(always)]
    fn int8_row<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> Option<Int8Row<'_>> {
        None
    }

    /// Row `outer` of `O` and the rows after it along `axis`, as the stored
    /// elements themselves ([`StoredMatrix`]), where [`Expr::stored_row`]
    /// would give each of them: what lets a cast of it expose a whole
    /// matrix of narrow data to the widening product's kernel, compiled
    /// once in this crate ([`Int8Matrix`]).
    #[inline(always)]
    fn stored_matrix<O: Shape>(
        &self,
        _outer: [usize; MAX_RANK],
        _axis: usize,
    ) -> Option<StoredMatrix<'_, T>> {
        None
    }

    /// Row `outer` of `O` as the elementwise product of two rows of
    /// stored elements, where the node is `a * b` of operands whose rows
    /// [`Expr::stored_row`] gives: what lets a debug build's sum along the
    /// row run as a dot product compiled in this crate
    /// ([`Element::fold_product_row`](crate::element::Element::fold_product_row)).
    #[inline(always)]
    fn stored_factors<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> Option<(&[T], &[T])> {
        None
    }

    /// Row `outer` of `O` and the rows after it along `axis` as stored
    /// `i8` values, where [`Expr::int8_row`] would give each of them with
    /// no constant added.
    #[inline(always)]
    fn int8_matrix<O: Shape>(
        &self,
        _outer: [usize; MAX_RANK],
        _axis: usize,
    ) -> Option<Int8Matrix<'_>> {
        None
    }

    /// The reader for one `R x C` tile of the output: `R` rows from `at`
    /// along the axis [`Reading::tile_rows`] picks (all other outer indices
    /// fixed), columns `j0` to `j0 + C`. The
    /// default reads `R` rows; interior nodes forward to their children, and the
    /// matrix product computes its block here. `FUSE` asks the product for
    /// fused multiply-adds (the kernel sets it where it enabled FMA at run time).
    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl Tile<T> + '_ {
        RowsTile {
            rows: crate::arrays::from_index_fn::<_, R>(|r| {
                self.row::<O>(at.row::<O>(r)).window::<C>(j0)
            }),
        }
    }
}

/// A row of an int8 operand read widened ([`Expr::int8_row`]): element `k`
/// is `bytes[k] + offset`.
#[derive(Clone, Copy, Debug)]
pub struct Int8Row<'a> {
    /// The stored values.
    pub bytes: &'a [i8],
    /// The constant added to each (minus a zero point).
    pub offset: i32,
}

/// Stored rows of an operand ([`Expr::stored_matrix`]): the row `m` after
/// the first along the axis asked for starts at `data[m * stride]`, its
/// elements contiguous. `data` runs to the end of the operand's storage,
/// so a reader checks the rows it reads against its length.
#[derive(Debug)]
pub struct StoredMatrix<'a, T> {
    /// The elements from the first row's first on.
    pub data: &'a [T],
    /// The elements from one row's start to the next's (0 where the
    /// operand is broadcast along the axis).
    pub stride: usize,
}

/// Stored `i8` rows of an operand read widened ([`Expr::int8_matrix`]),
/// laid out as [`StoredMatrix`] says.
#[derive(Clone, Copy, Debug)]
pub struct Int8Matrix<'a> {
    /// The bytes from the first row's first on.
    pub bytes: &'a [i8],
    /// The bytes from one row's start to the next's.
    pub stride: usize,
}

/// How a tree reads its operands, as [`reading`] derives it: what the
/// kernel needs to pick its walk, combined over the tree's nodes.
///
/// ```
/// use tensor_expr_runtime::expr::{Flat, Reading, Walk};
/// // A product under an elementwise function: walked in tiles.
/// let product = Reading::PRODUCT.and(Reading::leaf(Flat::Run(64)));
/// assert_eq!(product.walk(64, 2, 8), Walk::Tiles);
/// // With a reduction beside it, rows (a cached row is read whole).
/// assert_eq!(product.and(Reading::CACHED_ROWS).walk(64, 2, 8), Walk::Rows);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Whether a node borrows a row cache (a reduction, a shared
    /// subexpression: the output is then walked row by row, never several
    /// rows at once), and how many nodes are matrix products (convolutions
    /// count: with any, and no row cache, the output is walked in tiles of
    /// `R` rows by `C` columns, so a product keeps its block of results in
    /// registers across its whole `k` loop). The macro's staging reads the
    /// same two facts from the syntax ([`Holds`]).
    pub holds: Holds,
    /// The output length of a matrix product that can be computed in
    /// cache-sized blocks from packed copies of its operands (module
    /// `matmul`'s `packed`), 0 if there is none: where it is the only
    /// product and as long as the output, a large one is walked so.
    pub packed: usize,
    /// How the leaves read the output's elements: where every leaf is a
    /// scalar or has the output's shape and row-major data, the output is
    /// read as one row ([`Expr::flat_row`]), one loop where there would be
    /// a loop per row.
    pub flat: Flat,
    /// Which output axis the rows of a tile step along.
    pub tile_rows: TileRows,
    /// The longest contraction of a product in the tree (a matrix
    /// product's `k`, a convolution's taps times input channels a group),
    /// 0 where there is none: with the output's size, what tells a product
    /// too small for the run-time choice of instruction set to pay off.
    pub contraction: usize,
}

/// Which output axis the rows of a tile step along ([`Reading::tile_rows`]):
/// a matrix product's rows, or a channels-first 2-D convolution's channels
/// (each input row it loads then serves several output channels).
///
/// ```
/// use tensor_expr_runtime::expr::TileRows;
/// assert_eq!(TileRows::Any.and(TileRows::Channels), TileRows::Channels);
/// // A product beside a convolution: the product's rows.
/// assert_eq!(TileRows::Channels.and(TileRows::Matrix), TileRows::Matrix);
/// assert_eq!(TileRows::Channels.axis(4), 1);
/// assert_eq!(TileRows::Channels.axis(2), 0);
/// // Positions merge every axis but the last: rows counted from axis 0.
/// assert_eq!(TileRows::Positions.and(TileRows::Any), TileRows::Positions);
/// assert_eq!(TileRows::Positions.and(TileRows::Matrix), TileRows::Matrix);
/// assert!(TileRows::Positions.merges(4) && !TileRows::Positions.merges(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileRows {
    /// Any axis: elementwise nodes and leaves read any row alike.
    Any,
    /// The second-to-last axis: a matrix's rows.
    Matrix,
    /// The third-to-last axis: the channels of `[N, C, H, W]` or `[C, H, W]`.
    Channels,
    /// Every axis but the last, merged into one: the output positions of a
    /// channels-last convolution whose tiles compute each position on its
    /// own (the int8 kernel), so that a tile of 8 rows may cross from one
    /// image row to the next (a 5-wide image is not cut into tiles of 4
    /// and 1).
    Positions,
}

impl TileRows {
    /// What a node whose parts ask for `self` and `other` asks for: a
    /// product's rows where two parts disagree (the convolution reads any
    /// rows, only slower).
    pub const fn and(self, other: TileRows) -> TileRows {
        match (self, other) {
            (TileRows::Any, other) | (other, TileRows::Any) => other,
            (TileRows::Channels, TileRows::Channels) => TileRows::Channels,
            (TileRows::Positions, TileRows::Positions) => TileRows::Positions,
            _ => TileRows::Matrix,
        }
    }

    /// The axis of an output of rank `rank` that the rows step along (the
    /// second-to-last where the output has too few dims for the channels').
    pub const fn axis(self, rank: usize) -> usize {
        match self {
            TileRows::Channels if rank >= 3 => rank - 3,
            TileRows::Positions => 0,
            _ => rank.saturating_sub(2),
        }
    }

    /// Whether an output of rank `rank` is walked with its rows merged
    /// ([`TileRows::Positions`] over more than one axis besides the last).
    pub const fn merges(self, rank: usize) -> bool {
        matches!(self, TileRows::Positions) && rank >= 3
    }
}

/// The longest row, and the longest contraction, of a matrix that
/// [`Reading::walk`] walks by rows although it has a product.
pub(crate) const SHORT_ROW: usize = 8;

/// The fewest rows of a matrix that [`Reading::walk`] walks by rows
/// although it has a product: below, a small product (a Kalman filter's
/// 4 x 4) keeps its register tiles.
const SHORT_ROW_COUNT: usize = 64;

/// How the kernel walks an output, as [`Reading::walk`] decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// The whole output as one row.
    Flat,
    /// Row by row.
    Rows,
    /// In register tiles of several rows.
    Tiles,
}

impl Reading {
    /// A leaf (or a node with no child) that reads the output as `flat`.
    pub const fn leaf(flat: Flat) -> Reading {
        Reading {
            holds: Holds::NOTHING,
            packed: 0,
            flat,
            tile_rows: TileRows::Any,
            contraction: 0,
        }
    }

    /// A node that caches rows (a reduction, a shared subexpression).
    pub const CACHED_ROWS: Reading = Reading {
        holds: Holds::CACHED_ROWS,
        packed: 0,
        flat: Flat::No,
        tile_rows: TileRows::Any,
        contraction: 0,
    };

    /// A matrix product.
    pub const PRODUCT: Reading = Reading {
        holds: Holds::PRODUCT,
        packed: 0,
        flat: Flat::No,
        tile_rows: TileRows::Matrix,
        contraction: 0,
    };

    /// The same reading with a product contracting over `k` elements.
    pub const fn contracting(self, k: usize) -> Reading {
        Reading {
            contraction: if k > self.contraction {
                k
            } else {
                self.contraction
            },
            ..self
        }
    }

    /// The same reading with a product of `len` elements computed in
    /// cache-sized blocks where it is large ([`Reading::packed`]; 0: not).
    pub const fn packing(self, len: usize) -> Reading {
        Reading {
            packed: len,
            ..self
        }
    }

    /// A product whose tiles are best read as `tile_rows` says (a
    /// convolution).
    pub const fn product_along(tile_rows: TileRows) -> Reading {
        Reading {
            tile_rows,
            ..Reading::PRODUCT
        }
    }

    /// How a node whose parts read as `self` and `other` reads.
    pub const fn and(self, other: Reading) -> Reading {
        Reading {
            holds: self.holds.and(other.holds),
            packed: if self.packed > other.packed {
                self.packed
            } else {
                other.packed
            },
            flat: self.flat.and(other.flat),
            tile_rows: self.tile_rows.and(other.tile_rows),
            contraction: if self.contraction > other.contraction {
                self.contraction
            } else {
                other.contraction
            },
        }
    }

    /// The one place the walk is decided, for an output of `len` elements,
    /// rank `rank` and rows of `row_len`: tiles where a product is read and
    /// no row cache is (a cached row is read whole, one row at a time),
    /// one flat row where every leaf reads the output's own order, rows
    /// otherwise: the rule `tensor_expr_catalog::walk` states, which the
    /// macro's staging applies too (it evaluates the products of an
    /// expression with a row cache first, on tiles in a nest of their own). A matrix
    /// of many short rows whose products are short too (`[N, 3] @ [3,
    /// 3]`, points rotated) is walked by rows: each row is a few
    /// multiply-adds, which the row walk vectorises across rows, where a
    /// tile of 8 rows by 1 column does not.
    pub const fn walk(self, len: usize, rank: usize, row_len: usize) -> Walk {
        let short_rows = rank == 2
            && row_len < SHORT_ROW
            && self.contraction <= SHORT_ROW
            && len >= SHORT_ROW_COUNT * row_len;
        if self.holds.tiles_products() && !short_rows {
            Walk::Tiles
        } else if rank > 1 && self.flat.covers(len) {
            Walk::Flat
        } else {
            Walk::Rows
        }
    }
}

/// How an expression's leaves read its elements ([`Reading::flat`]).
///
/// ```
/// use tensor_expr_runtime::expr::Flat;
/// // An operand of the output's 64 x 1024 shape, scaled by a scalar:
/// let read = Flat::Run(64 * 1024).and(Flat::Splat);
/// assert!(read.covers(64 * 1024));
/// // A row broadcast over the 64 rows is not one run of the output:
/// assert!(!read.and(Flat::Run(1024)).covers(64 * 1024));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flat {
    /// One value everywhere: a literal, or an operand of one element.
    Splat,
    /// Element `i` of the output from position `i` of `len` row-major
    /// elements: an operand of the output's shape (up to leading size-1
    /// dims, since a broadcast that stretches a dim changes the count), or
    /// the assignment target.
    Run(usize),
    /// Anything else: an operand broadcast along a dim or read with strides,
    /// a reduction, a shared subexpression, a product.
    No,
}

impl Flat {
    /// How a node with children read as `self` and `other` reads.
    pub const fn and(self, other: Flat) -> Flat {
        match (self, other) {
            (Flat::Splat, other) | (other, Flat::Splat) => other,
            (Flat::Run(a), Flat::Run(b)) if a == b => Flat::Run(a),
            _ => Flat::No,
        }
    }

    /// Whether an output of `len` elements can be read as one row.
    pub const fn covers(self, len: usize) -> bool {
        match self {
            Flat::Splat => true,
            Flat::Run(n) => n == len,
            Flat::No => false,
        }
    }
}

/// A tile of an expression's output, read by row and column within the tile.
pub trait Tile<T> {
    /// The value at row `r`, column `j` of the tile; `current` is the target's
    /// present value there.
    fn get(&self, r: usize, j: usize, current: T) -> T;
}

/// Where a tile of the output lies: the outer index of its first row (every
/// dim but the last) and the axis its rows step along, which the walk takes
/// from [`Reading::tile_rows`]; and, in the cache-blocked walk of a large
/// product, the buffers its blocks are computed into ([`Reading::packed`]).
#[derive(Clone, Copy, Debug)]
pub struct TileOrigin<'p> {
    outer: [usize; MAX_RANK],
    axis: usize,
    /// The product's packing buffers (a `Packing<T>` of module `matmul`),
    /// typed as `Any` so that no node but the product needs their type.
    packing: Option<&'p dyn Any>,
}

/// The `axis` of a [`TileOrigin`] whose rows are merged
/// ([`TileRows::Positions`]): `outer[0]` is then its first row counted
/// across every axis but the last. (A value of the field the origin has,
/// not a field of its own: a larger origin, or a test of an `Option` in
/// [`TileOrigin::row`], slowed every tiled walk to half its speed.)
const MERGED_AXIS: usize = usize::MAX;

impl<'p> TileOrigin<'p> {
    /// The tile whose first row is at `outer`, its rows stepping along
    /// `axis` of the output.
    #[inline(always)]
    pub(crate) const fn new(outer: [usize; MAX_RANK], axis: usize) -> TileOrigin<'p> {
        TileOrigin {
            outer,
            axis,
            packing: None,
        }
    }

    /// The tile whose first row is row `row` of an output whose rows are
    /// merged ([`TileRows::Positions`]): counted across every axis but the
    /// last.
    #[inline(always)]
    pub(crate) const fn merged(row: usize) -> TileOrigin<'p> {
        let mut outer = [0; MAX_RANK];
        outer[0] = row;
        TileOrigin {
            outer,
            axis: MERGED_AXIS,
            packing: None,
        }
    }

    /// The same tile, in a walk whose product computes its blocks into
    /// `packing`.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn with_packing(self, packing: &'p dyn Any) -> TileOrigin<'p> {
        TileOrigin {
            packing: Some(packing),
            ..self
        }
    }

    /// The walk's packing buffers, where it has them and they are a `P`.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn packing<P: 'static>(self) -> Option<&'p P> {
        self.packing?.downcast_ref::<P>()
    }

    /// The same tile in a tree read from row `first` of its first dim on
    /// (a chunk of run-time rows, `kernel`'s `run_time`).
    #[inline(always)]
    pub(crate) fn rebased<O: Shape>(self, first: usize) -> TileOrigin<'p> {
        let mut outer = self.outer;
        outer[0] += if self.axis == MERGED_AXIS {
            // A row of the first dim is this many merged rows.
            let mut rows = first;
            let mut k = 1;
            while k + 1 < O::RANK {
                rows *= O::DIMS[k];
                k += 1;
            }
            rows
        } else {
            first
        };
        TileOrigin { outer, ..self }
    }

    /// The tile `rows` further along the axis.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn shifted<O: Shape>(self, rows: usize) -> TileOrigin<'p> {
        if self.axis == MERGED_AXIS {
            let mut outer = self.outer;
            outer[0] += rows;
            return TileOrigin { outer, ..self };
        }
        TileOrigin {
            outer: self.row::<O>(rows),
            ..self
        }
    }

    /// The outer index of row `r` of the tile. (Added to every index
    /// where the axis matches, not written at `outer[axis]`: where this is
    /// not inlined into the walk, whose axis is a constant, a write at a
    /// run-time index goes through memory.)
    #[inline(always)]
    pub(crate) fn row<O: Shape>(self, r: usize) -> [usize; MAX_RANK] {
        if self.axis == MERGED_AXIS {
            // The merged row's index over every axis but the last.
            // (The first dim takes the quotient: it may be `Dyn`.)
            let (mut row, mut index) = (self.outer[0] + r, [0; MAX_RANK]);
            for k in (1..O::RANK.saturating_sub(1)).rev() {
                index[k] = row % O::DIMS[k];
                row /= O::DIMS[k];
            }
            index[0] = row;
            return index;
        }
        let mut shifted = self.outer;
        for (k, index) in shifted.iter_mut().enumerate() {
            *index += if k == self.axis { r } else { 0 };
        }
        shifted
    }
}

/// A tile read as `R` rows of an expression without a matrix product, each
/// row a window of the tile's columns.
struct RowsTile<Rw, const R: usize> {
    rows: [Rw; R],
}

impl<T, Rw: Row<T>, const R: usize> Tile<T> for RowsTile<Rw, R> {
    #[inline(always)]
    fn get(&self, r: usize, j: usize, current: T) -> T {
        self.rows[r].get(j, current)
    }
}

/// One output row of an expression, read column by column.
pub trait Row<T> {
    /// The value at column `j`; `current` is the target's present value there
    /// (read only by [`TargetLeaf`], for `out = out * 2 + 1` and `out += e`).
    fn get(&self, j: usize, current: T) -> T;

    /// The sum of the row's elements, where it is already known (a shared
    /// row sums itself while it is filled), so a `sum` need not fold it.
    #[inline(always)]
    fn known_sum(&self) -> Option<T> {
        None
    }

    /// The row's columns `j0..j0 + C`, read at `0..C`. A leaf re-slices its
    /// data to exactly those columns, with their count a constant, so the
    /// tile's reads need no bounds check. (With one per element, LLVM
    /// vectorised a bias read in a product's epilogue as a gather.)
    #[inline(always)]
    fn window<'w, const C: usize>(self, j0: usize) -> impl Row<T> + 'w
    where
        Self: Sized + 'w,
    {
        Shifted { row: self, j0 }
    }
}

/// A row read from column `j0` on: the default [`Row::window`].
struct Shifted<Rw> {
    row: Rw,
    j0: usize,
}

impl<T, Rw: Row<T>> Row<T> for Shifted<Rw> {
    #[inline(always)]
    fn get(&self, j: usize, current: T) -> T {
        self.row.get(self.j0 + j, current)
    }
}

#[cfg(test)]
mod tests {
    use super::TileOrigin;
    use crate::dim::D;

    type Maps = (D<2>, D<3>, D<4>, D<5>);

    /// A merged origin's rows unravel over every dim but the last, and a
    /// rebased one (a chunk of run-time rows) starts a whole first index
    /// later.
    #[test]
    fn merged_rows_unravel_across_axes() {
        let at = TileOrigin::merged(3);
        assert_eq!(at.row::<Maps>(0)[..3], [0, 0, 3]);
        // Row 3 + 2 = 5 of [2, 3, 4]: index [0, 1, 1].
        assert_eq!(at.row::<Maps>(2)[..3], [0, 1, 1]);
        // One first index is 3 * 4 rows: 3 + 12 + 2 = 17 is [1, 1, 1].
        assert_eq!(at.rebased::<Maps>(1).row::<Maps>(2)[..3], [1, 1, 1]);
        assert_eq!(at.shifted::<Maps>(4).row::<Maps>(0)[..3], [0, 1, 3]);
    }
}
