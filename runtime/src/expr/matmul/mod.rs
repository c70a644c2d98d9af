//! The matrix product node, `a @ b`, evaluated inside the output's loop nest.
//!
//! There is no temporary for `a @ b`. The kernel walks the output in tiles of
//! `R` rows by `C` columns; for each tile the product keeps its `R x C` block of
//! sums in registers across the whole `k` loop (one named accumulator array per
//! row, contiguous columns innermost: a register-tiled kernel), and the enclosing nodes (`+ b`, `relu`, `* alpha`) are applied to
//! that block before its single store.
//!
//! Elementwise operands (`(x * 2.0) @ w`) are recomputed where the product
//! reads them, never materialised: each element of the left operand is read
//! once per column tile and each element of the right operand once per row
//! tile, so an elementwise operand costs a few extra operations per
//! multiply-add and no memory. Measured (`cargo bench --bench matmul`, 64x64):
//! `(a * 0.5 + 1.0) @ b` recomputed runs at half the speed of materialising
//! the operand first; where that matters, write the operand into a tensor in a
//! statement of its own. Operands that hold a product or a reduction, right
//! operands read transposed, and products in expressions walked row by row
//! are evaluated into a buffer first by `tensor_expr!` (its stages), so the
//! dot-product path below ([`MatMul::dot`]) serves only products with a vector
//! on the right and the rare product whose operands share a subexpression.
//!
//! A product whose right operand is a vector (`(.., m, k) @ (k,)`) is read through
//! the same per-element dot product: its output columns run along `m`.

mod avx512;
mod dot;
mod float;
mod int8;
mod kernel;
#[cfg(feature = "alloc")]
mod packed;

#[cfg(feature = "alloc")]
pub(crate) use packed::{Packing, BLOCK_COLUMNS, BLOCK_ROWS};

use super::block::multiply_add;
use super::block::Block;
use super::block::RightBlock;
use super::fresh::Fresh;
use super::{
    reading, Context, Expr, Int8Matrix, Own, Reading, Row, Shaped, Tile, TileOrigin, SHORT_ROW,
};
use crate::element::Element;
use crate::kernel::MOST_TILE_ROWS;
use crate::rules::matmul::{MatmulRule, ProductLayout};
use crate::shape::{len_unless_run_time, Shape, MAX_RANK};
use core::marker::PhantomData;
use core::mem::size_of;
use dot::dot_of_rows;
use kernel::accumulate_block;

/// `a @ b` over elements `T`, of shape `S`, reading its operands as the
/// plan `P` says ([`ProductLayout`]).
#[derive(Clone, Copy, Debug)]
pub struct MatMul<T, A, B, S, P> {
    a: Fresh<A>,
    b: Fresh<B>,
    types: PhantomData<(T, S, P)>,
}

/// Builds `a @ b`: operands of rank >= 1, equal contracted dims, batch dims that
/// broadcast. The node's shape is [`MatmulRule::Output`], which is computed
/// through each part of the rule, so each mistake is one error at the `@`.
#[inline(always)]
#[rustfmt::skip]
pub fn matmul<T, M, A: Shaped, B: Shaped>(_context: Context<T, M>, a: A, b: B) -> MatMul<T, A, B, ProductOf<A, B>, PlanOf<A, B>> where A::Shape: MatmulRule<B::Shape> {
    MatMul { a: Fresh::new(a), b: Fresh::new(b), types: PhantomData }
}

/// The bytes of a right operand from which a product is computed in
/// blocks: 4 MiB, a 1024 x 1024 `f32` matrix. Measured on an AMD EPYC
/// with 1 MiB of second-level cache (PERFORMANCE.md, "Large products"): a
/// `[1024, 1024] @ [1024, 1024]` product runs twice as fast in blocks, a
/// `[256, 768] @ [768, 768]` one (2.25 MiB) 7% slower, as do products
/// whose right operand fits in the second-level cache.
const PACKED_RIGHT_BYTES: usize = 4 << 20;

/// The rows of a product's matrices from which it is computed in blocks:
/// with fewer, each packed element of the right operand serves too few
/// multiply-adds to pay for its copy.
const PACKED_ROWS: usize = 32;

/// The shape of the node [`matmul`] builds.
type ProductOf<A, B> = <<A as Shaped>::Shape as MatmulRule<<B as Shaped>::Shape>>::Output;

/// How the node [`matmul`] builds reads its operands.
type PlanOf<A, B> = <<A as Shaped>::Shape as MatmulRule<<B as Shaped>::Shape>>::Plan;

/// Where one output row of a product reads its operands.
#[derive(Clone, Copy)]
struct ProductRow {
    /// The batch indices (in the broadcast batch), then the row `i` of the left
    /// operand at position `BATCH_RANK` (unused if `i` comes from the column).
    left: [usize; MAX_RANK],
}

impl<T, A, B, S, P> MatMul<T, A, B, S, P>
where
    T: Element,
    A: Expr<T>,
    B: Expr<T>,
    S: Shape,
    P: ProductLayout,
{
    const BATCH_RANK: usize = P::BATCH_RANK;
    const K: usize = P::K;
    const RHS_VECTOR: bool = P::RHS_VECTOR;
    const LHS_VECTOR: bool = P::LHS_VECTOR;

    /// Maps an output index (every dim but the last) of the whole expression,
    /// shape `O`, to this product's batch indices and left row.
    #[inline(always)]
    fn product_row<O: Shape>(outer: [usize; MAX_RANK]) -> ProductRow {
        let mut left = [0; MAX_RANK];
        // `S` is right-aligned in `O`; its own outer dims are all but its last.
        let offset = O::RANK - S::RANK;
        let own_outer = S::RANK.saturating_sub(1);
        let mut k = 0;
        while k < own_outer {
            // A size-1 dim of the product is read at 0 wherever the output is.
            left[k] = if S::DIMS[k] == 1 {
                0
            } else {
                outer[offset + k]
            };
            k += 1;
        }
        // `own_outer` ended with `i` (matrix @ matrix); a promoted left vector
        // keeps row 0; for matrix @ vector `i` is the column, set by `dot`.
        ProductRow { left }
    }

    /// Whether consecutive output rows belong to different matrices of the
    /// batch: a promoted left vector (`(k,) @ (.., b, k, n)`) has no row dim,
    /// so the output's rows run along the last batch dim.
    const ROWS_CROSS_BATCHES: bool = Self::LHS_VECTOR && Self::BATCH_RANK > 0;

    /// Whether the product is read at column 0 for every output column: it is
    /// broadcast along the output's last dim, or has no dims.
    const COLUMNS_BROADCAST: bool = S::RANK == 0 || S::DIMS[S::RANK - 1] == 1;

    /// The product's own column index for output column `j`.
    #[inline(always)]
    fn own_column(j: usize) -> usize {
        if Self::COLUMNS_BROADCAST {
            0
        } else {
            j
        }
    }

    /// Row `kk` of the right operand, read along `n`.
    #[inline(always)]
    fn right_row(&self, batch: [usize; MAX_RANK], kk: usize) -> impl Row<T> + '_ {
        let mut index = batch;
        index[Self::BATCH_RANK] = kk;
        self.b.row::<T, P::RhsView>(index)
    }

    /// Row `i` (set in `left`) of the left operand, read along `k`.
    #[inline(always)]
    fn left_row(&self, left: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.a.row::<T, P::LhsView>(left)
    }

    /// Whether tiles may be summed from stored bytes ([`int8`]): both
    /// operands are int8 data read widened, a matrix on the right, the
    /// rows of a tile in one matrix, `K` a multiple of 4.
    const INT8_TILES: bool = A::OWN.int8
        && B::OWN.int8
        && !Self::RHS_VECTOR
        && !Self::ROWS_CROSS_BATCHES
        && !Self::COLUMNS_BROADCAST
        && Self::K.is_multiple_of(4);

    /// Whether tiles are summed by the float kernel compiled in this crate
    /// ([`float::sums`]): in a build of the dev profile (`cfg(dev_profile)`,
    /// `build.rs`), for `f32` or `f64` operands that are stored rows
    /// (tensors and their contiguous views), a matrix on the right, the
    /// rows of a tile in one matrix, a contraction of at least
    /// [`float::SHORTEST_CONTRACTION`]. The expression then compiles no
    /// `k` loop of its own, and its tiles run at the runtime's opt-level.
    /// A release build keeps the loop inlined in each tile: the call and
    /// its operands' setup are as much code as the loop, and small
    /// products ran at half their speed through it (PERFORMANCE.md,
    /// "Products in a debug build").
    const FLOAT_TILES: bool = cfg!(dev_profile)
        && T::IS_FLOAT
        && A::OWN.stored
        && B::OWN.stored
        && !Self::RHS_VECTOR
        && !Self::ROWS_CROSS_BATCHES
        && !Self::COLUMNS_BROADCAST
        && Self::K >= float::SHORTEST_CONTRACTION;

    /// Whether the product is large enough to be computed in cache-sized
    /// blocks from packed operands (module [`packed`]), and of a form that
    /// can: a matrix times a matrix, read plainly, with an allocator for
    /// the buffers. A block pays for its copies where it has rows and
    /// columns to reuse them and a contraction long enough to leave the
    /// caches.
    const PACKED: bool = cfg!(feature = "alloc")
        && !Self::RHS_VECTOR
        && !Self::LHS_VECTOR
        && !Self::COLUMNS_BROADCAST
        && !Self::INT8_TILES
        && reading::<T, A>().holds.products == 0
        && reading::<T, B>().holds.products == 0
        && S::RANK >= 2
        // Rows counted at run time are walked in chunks of static rows,
        // each too short for the blocks.
        && !S::RUN_TIME_ROWS
        && S::DIMS[S::RANK - 2] >= PACKED_ROWS
        && Self::K * S::DIMS[S::RANK - 1] * size_of::<T>() >= PACKED_RIGHT_BYTES;

    /// Fills `block` with the tile at `at`, `j0`, summed from stored bytes
    /// by the int8 kernel ([`int8::sums`], compiled once in this crate):
    /// where the tile is 16 columns wide or a multiple of 32 (a single
    /// row's wide tile, a matrix-vector product's: 128 columns with
    /// AVX-512), the operands' rows are stored `i8` and the CPU has the
    /// instructions. False, `block` untouched, elsewhere.
    #[inline(always)]
    fn int8_columns<O: Shape, const R: usize, const C: usize>(
        &self,
        at: TileOrigin,
        j0: usize,
        block: &mut [[T; C]; R],
    ) -> bool {
        if const { !int8::KERNEL || (C != 16 && !C.is_multiple_of(32)) } {
            return false;
        }
        let lefts: [_; R] =
            crate::arrays::from_index_fn(|r| Self::product_row::<O>(at.row::<O>(r)).left);
        let mut rows: [&[i8]; R] = [&[]; R];
        let mut offsets = [0i32; R];
        for ((row, offset), left) in rows.iter_mut().zip(&mut offsets).zip(lefts) {
            let Some(read) = self.a.int8_row::<T, P::LhsView>(left) else {
                return false;
            };
            (*row, *offset) = (read.bytes, read.offset);
        }
        let mut first_right_row = lefts[0];
        first_right_row[Self::BATCH_RANK] = 0;
        let right = self
            .b
            .int8_matrix::<T, P::RhsView>(first_right_row, Self::BATCH_RANK);
        let (Some(right), Some(out)) = (right, T::i32_slice_mut(block.as_flattened_mut())) else {
            return false;
        };
        let Some(bytes) = right.bytes.get(j0..) else {
            return false;
        };
        let tile = int8::ProductTile {
            left: &rows,
            offsets: &offsets,
            right: Int8Matrix {
                bytes,
                stride: right.stride,
            },
            k: Self::K,
        };
        int8::sums(&tile, C, out, C)
    }

    /// Fills `out` with the `rows` rows of the tile at `at` from column
    /// `j0` on, as many columns as `out` holds for each, summed by the
    /// float kernel ([`float::sums`], compiled once in this crate), with
    /// fused multiply-adds where `fused`. False, `out` untouched, where an
    /// operand gives no stored rows or the kernel declines. The tile's
    /// sizes are counted at run time, so that a product compiles this
    /// once, not once per tile shape.
    fn float_columns<O: Shape>(
        &self,
        at: TileOrigin,
        rows: usize,
        j0: usize,
        fused: bool,
        out: &mut [T],
    ) -> bool {
        let mut left_rows: [&[T]; MOST_TILE_ROWS] = [&[]; MOST_TILE_ROWS];
        let Some(left_rows) = left_rows.get_mut(..rows) else {
            return false;
        };
        let mut first = [0; MAX_RANK];
        for (r, row) in left_rows.iter_mut().enumerate() {
            let left = Self::product_row::<O>(at.row::<O>(r)).left;
            if r == 0 {
                first = left;
            }
            let Some(read) = self.a.stored_row::<T, P::LhsView>(left) else {
                return false;
            };
            *row = read;
        }
        first[Self::BATCH_RANK] = 0;
        let Some(right) = self
            .b
            .stored_matrix::<T, P::RhsView>(first, Self::BATCH_RANK)
        else {
            return false;
        };
        let Some(data) = right.data.get(j0..) else {
            return false;
        };
        let tile = float::FloatTile {
            left: left_rows,
            right: data,
            right_stride: right.stride,
            k: Self::K,
        };
        let columns = out.len() / rows.max(1);
        float::sums(&tile, columns, fused, out, columns)
    }

    /// The `rows` rows of the tile at `at` from column `j0` on by plain
    /// dot products, as many columns as `out` holds for each, rows one
    /// after the other. Out of line, with its sizes counted at run time,
    /// so that a product compiles it once, not once per tile shape.
    #[inline(never)]
    fn dots<O: Shape>(&self, at: TileOrigin, rows: usize, j0: usize, out: &mut [T]) {
        let columns = out.len() / rows.max(1);
        for (r, sums) in out.chunks_mut(columns.max(1)).enumerate() {
            let row = Self::product_row::<O>(at.row::<O>(r));
            for (j, sum) in sums.iter_mut().enumerate() {
                *sum = self.dot(&row, j0 + j);
            }
        }
    }

    /// One element by a plain dot product: the general path (right vectors and
    /// operands that are themselves products).
    #[inline(always)]
    fn dot(&self, row: &ProductRow, j: usize) -> T {
        let column = Self::own_column(j);
        let mut left = row.left;
        if Self::RHS_VECTOR {
            // Output column `j` is row `j` of the left matrix; a vector
            // `(k,)` is read along its only dim.
            if const { !Self::LHS_VECTOR } {
                left[Self::BATCH_RANK] = column;
            }
            return dot_of_rows(
                || self.left_row(left),
                || self.b.row::<T, B::Shape>([0; MAX_RANK]),
                Self::K,
            );
        }
        let a = self.left_row(left);
        let term = |kk: usize| {
            (
                a.get(kk, T::ZERO),
                self.right_row(left, kk).get(column, T::ZERO),
            )
        };
        // Two chains, even and odd terms, each from its first product. A
        // few terms (`[N, 3] @ [3, 3]`, walked by rows and vectorised
        // across them) are multiplied and added apart: with fused
        // multiply-adds the native rotation ran at 0.89 of a hand loop's
        // speed, unfused at 1.00 (`cargo bench --bench short_rows`).
        let step = |x: T, y: T, sum: T| {
            if const { Self::K < SHORT_ROW } {
                x * y + sum
            } else {
                x.mul_add(y, sum)
            }
        };
        let (mut even, mut odd) = (T::ZERO, T::ZERO);
        for kk in 0..Self::K {
            let (x, y) = term(kk);
            match kk {
                0 => even = x * y,
                1 => odd = x * y,
                _ if kk % 2 == 0 => even = step(x, y, even),
                _ => odd = step(x, y, odd),
            }
        }
        even + odd
    }
}

impl<T, A, B, S: Shape, P> Shaped for MatMul<T, A, B, S, P> {
    type Shape = S;
}

unsafe impl<T, A, B, S, P> Expr<T> for MatMul<T, A, B, S, P>
where
    T: Element,
    A: Expr<T>,
    B: Expr<T>,
    S: Shape,
    P: ProductLayout,
{
    type Children = (Fresh<A>, Fresh<B>);
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) -> (&Fresh<A>, &Fresh<B>) {
        (&self.a, &self.b)
    }

    /// Walked in tiles, whatever its operands (it reads them fresh).
    const OWN: Own = Own::alone(
        Reading::PRODUCT
            .contracting(Self::K)
            .packing(if Self::PACKED {
                len_unless_run_time(S::DIMS)
            } else {
                0
            }),
    );

    /// Reads its operands fresh (`Fresh`) however it is read: its fresh
    /// rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        DotRow {
            node: self,
            row: Self::product_row::<O>(outer),
        }
    }

    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl Tile<T> + '_ {
        #[cfg(feature = "alloc")]
        if Self::PACKED {
            if let Some(packing) = at.packing::<Packing<T>>() {
                if let Some(block) = self.packed_tile::<O, R, C, FUSE>(packing, at, j0) {
                    return Block(block);
                }
            }
        }
        let mut block = [[T::ZERO; C]; R];
        if Self::INT8_TILES && self.int8_columns::<O, R, C>(at, j0, &mut block) {
            return Block(block);
        }
        if const { Self::FLOAT_TILES } {
            if !self.float_columns::<O>(at, R, j0, FUSE, block.as_flattened_mut()) {
                // Not reached for operands whose `OWN` says they are
                // stored: plain dot products, in a loop of its own.
                self.dots::<O>(at, R, j0, block.as_flattened_mut());
            }
        } else if const {
            Self::RHS_VECTOR
                || reading::<T, A>().holds.products > 0
                || reading::<T, B>().holds.products > 0
        } {
            for (r, sums) in block.iter_mut().enumerate() {
                let row = Self::product_row::<O>(at.row::<O>(r));
                for (j, sum) in sums.iter_mut().enumerate() {
                    *sum = self.dot(&row, j0 + j);
                }
            }
        } else if Self::ROWS_CROSS_BATCHES {
            // Each row of the tile is a different matrix of the batch: one
            // row at a time, each with its own right operand.
            for (r, sums) in block.iter_mut().enumerate() {
                let left = Self::product_row::<O>(at.row::<O>(r)).left;
                let right = RightRows {
                    node: self,
                    batch: left,
                    j0,
                };
                let mut one = [*sums];
                accumulate_block::<T, _, 1, C, FUSE>(
                    &[self.left_row(left)],
                    Self::K,
                    &mut one,
                    &right,
                );
                *sums = one[0];
            }
        } else {
            // The rows of a tile are rows `i` of one matrix: they share its
            // batch. (Each row's index found where its row is read: an
            // array of them stays in the frame at opt-level `s`.)
            let batch = Self::product_row::<O>(at.row::<O>(0)).left;
            let a_rows: [_; R] = crate::arrays::from_index_fn(|r| {
                self.left_row(Self::product_row::<O>(at.row::<O>(r)).left)
            });
            let right = RightRows {
                node: self,
                batch,
                j0,
            };
            accumulate_block::<T, _, R, C, FUSE>(&a_rows, Self::K, &mut block, &right);
        }
        Block(block)
    }
}

/// One output row of a product, element by element.
struct DotRow<'a, N> {
    node: &'a N,
    row: ProductRow,
}

impl<T, N: Product<T>> Row<T> for DotRow<'_, N> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        self.node.dot(&self.row, j)
    }
}

/// What the readers of a product ask of its node; implemented once, for
/// [`MatMul`], so the readers need none of its bounds.
trait Product<T> {
    /// One element by a plain dot product.
    fn dot(&self, row: &ProductRow, j: usize) -> T;
    /// Elements `j0 .. j0 + C` of row `kk` of the right operand at `batch`.
    fn load_right<const C: usize>(&self, batch: [usize; MAX_RANK], kk: usize, j0: usize) -> [T; C];
    /// `sums[j] += a * b[j]` over those elements, read in the same loop
    /// ([`RightBlock::multiply_add_into`]).
    fn multiply_add_right<const C: usize, const FUSE: bool>(
        &self,
        batch: [usize; MAX_RANK],
        kk: usize,
        j0: usize,
        a: T,
        sums: &mut [T; C],
    );
}

impl<T, A, B, S, P> Product<T> for MatMul<T, A, B, S, P>
where
    T: Element,
    A: Expr<T>,
    B: Expr<T>,
    S: Shape,
    P: ProductLayout,
{
    #[inline(always)]
    fn dot(&self, row: &ProductRow, j: usize) -> T {
        MatMul::dot(self, row, j)
    }

    #[inline(always)]
    fn load_right<const C: usize>(&self, batch: [usize; MAX_RANK], kk: usize, j0: usize) -> [T; C] {
        let row = self.right_row(batch, kk);
        let mut values = [T::ZERO; C];
        for (j, value) in values.iter_mut().enumerate() {
            *value = row.get(Self::own_column(j0 + j), T::ZERO);
        }
        values
    }

    #[inline(always)]
    fn multiply_add_right<const C: usize, const FUSE: bool>(
        &self,
        batch: [usize; MAX_RANK],
        kk: usize,
        j0: usize,
        a: T,
        sums: &mut [T; C],
    ) {
        let row = self.right_row(batch, kk);
        for (j, sum) in sums.iter_mut().enumerate() {
            let b = row.get(Self::own_column(j0 + j), T::ZERO);
            *sum = multiply_add::<T, FUSE>(a, b, *sum);
        }
    }
}

/// The right operand of `node` at fixed batch indices and first column `j0`.
struct RightRows<'a, N> {
    node: &'a N,
    batch: [usize; MAX_RANK],
    j0: usize,
}

impl<T, N: Product<T>, const C: usize> RightBlock<T, C> for RightRows<'_, N> {
    #[inline(always)]
    fn load(&self, kk: usize) -> [T; C] {
        self.node.load_right(self.batch, kk, self.j0)
    }

    #[inline(always)]
    fn multiply_add_into<const FUSE: bool>(&self, kk: usize, a: T, sums: &mut [T; C])
    where
        T: Element,
    {
        self.node
            .multiply_add_right::<C, FUSE>(self.batch, kk, self.j0, a, sums);
    }
}
