//! Large products in cache-sized blocks, from packed copies of their
//! operands: the BLIS scheme, which matrixmultiply and every BLAS follow.
//!
//! A register tile reads `k` rows of the right operand, each a full output
//! row apart. Once the operands outgrow the caches, every tile fetches them
//! from memory again (rows 4 KiB apart also share a handful of cache sets),
//! and a 2048 product runs at a third of the speed of a 256 one. So, for a
//! large product, the walk (`kernel/blocks.rs`) visits the output in blocks
//! of [`BLOCK_ROWS`] x [`BLOCK_COLUMNS`], and the tile that opens a block
//! computes all of it here, into the walk's [`Packing`]:
//!
//! - the right operand's columns of the block are copied once, per
//!   [`BLOCK_DEPTH`] terms and per tile width, into contiguous panels, read
//!   in order by every row of tiles (a panel of 256 terms by 32 `f32`
//!   columns is 32 KiB, in the first-level cache);
//! - per [`BLOCK_DEPTH`] terms, the block's left rows are copied into
//!   panels of a tile's rows, each term's values side by side;
//! - each tile is summed by the register-tiled kernel over the two panels
//!   and added into the block's sums.
//!
//! The tiles of the block, the first included, then read their sums from
//! there, and the enclosing expression applies to them as to any tile: the
//! epilogue stays fused. The sums of `k` are grouped by [`BLOCK_DEPTH`]
//! terms, so they can differ from the unblocked order by rounding.
//!
//! Packing reads the operands through their rows, so an elementwise operand
//! (`(x * 0.5) @ w`) is computed once per block of columns instead of once
//! per tile.

use super::kernel::accumulate_block;
use super::MatMul;
use crate::element::Element;
use crate::expr::block::RightBlock;
use crate::expr::{Expr, Row, TileOrigin};
use crate::rules::matmul::ProductLayout;
use crate::shape::{Shape, MAX_RANK};
use alloc::vec::Vec;
use core::cell::RefCell;

/// The output rows of a block: a multiple of every tile's rows (8, 4, 1).
pub(crate) const BLOCK_ROWS: usize = 64;

/// The output columns of a block: a multiple of every tile's width.
pub(crate) const BLOCK_COLUMNS: usize = 1024;

/// The terms of `k` summed per pass over a block: a right panel of this
/// many rows of a 32-column tile is 32 KiB of `f32`.
pub(crate) const BLOCK_DEPTH: usize = 256;

/// The buffers of one walk of a large product, made by the walk and filled
/// by the product ([`MatMul`]) as the walk's tiles open its blocks.
pub(crate) struct Packing<T> {
    /// The rows and columns of the walk's full tiles, which compute the
    /// blocks; a block opened by a smaller tile (an edge narrower than a
    /// full tile) is computed tile by tile as without packing.
    tile: (usize, usize),
    state: RefCell<Packed<T>>,
}

/// Which block's operands and sums the buffers hold.
struct Packed<T> {
    /// The batch indices and first column of the packed right panels, and
    /// how many passes of [`BLOCK_DEPTH`] terms are packed (each is packed
    /// by the first block that reads it, while it is in the cache).
    right_at: Option<([usize; MAX_RANK], usize)>,
    right_passes: usize,
    /// The right operand's columns of a block: per [`BLOCK_DEPTH`] terms,
    /// per tile width of columns, a `[[T; C]; BLOCK_DEPTH]` panel.
    right: Vec<T>,
    /// The left rows of a block for one pass: per tile of rows, a
    /// `[[T; R]; BLOCK_DEPTH]` panel.
    left: Vec<T>,
    /// The batch and row indices of the block's first row, and its first
    /// column.
    sums_at: Option<([usize; MAX_RANK], usize)>,
    /// The block's sums, [`BLOCK_ROWS`] rows of [`BLOCK_COLUMNS`].
    sums: Vec<T>,
}

impl<T> Packing<T> {
    /// Empty buffers for a walk whose full tiles are `rows x columns`.
    pub(crate) fn new(rows: usize, columns: usize) -> Packing<T> {
        Packing {
            tile: (rows, columns),
            state: RefCell::new(Packed {
                right_at: None,
                right_passes: 0,
                right: Vec::new(),
                left: Vec::new(),
                sums_at: None,
                sums: Vec::new(),
            }),
        }
    }
}

impl<T, A, B, S, P> MatMul<T, A, B, S, P>
where
    T: Element,
    A: Expr<T>,
    B: Expr<T>,
    S: Shape,
    P: ProductLayout,
{
    /// The `R x C` tile at `at`, `j0`, read from its block's sums in
    /// `packing`, the block computed first where this tile opens it; `None`
    /// where the tile is computed directly (a block opened by a tile
    /// smaller than the walk's full one).
    #[inline(always)]
    pub(super) fn packed_tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        packing: &Packing<T>,
        at: TileOrigin,
        j0: usize,
    ) -> Option<[[T; C]; R]> {
        let mut first = Self::product_row::<O>(at.row::<O>(0)).left;
        let i = first[Self::BATCH_RANK];
        let (row, column) = (i % BLOCK_ROWS, j0 % BLOCK_COLUMNS);
        if row + R > BLOCK_ROWS || column + C > BLOCK_COLUMNS {
            return None;
        }
        first[Self::BATCH_RANK] = i - row;
        let at = (first, j0 - column);
        let mut state = packing.state.borrow_mut();
        if state.sums_at != Some(at) {
            // Only the walk's full tile computes blocks (and only tiles of
            // 4 or 8 rows and 8 or more columns compile the code for it).
            if const { !(R >= 4 && C >= 8) } || packing.tile != (R, C) {
                return None;
            }
            self.compute_block::<R, C, FUSE>(&mut state, at);
        }
        let mut tile = [[T::ZERO; C]; R];
        for (r, values) in tile.iter_mut().enumerate() {
            let start = (row + r) * BLOCK_COLUMNS + column;
            values.copy_from_slice(&state.sums[start..start + C]);
        }
        Some(tile)
    }

    /// Computes the block whose first row is `first` (batch and row
    /// indices) and first column `j0` into `state.sums`, in tiles of `R x C`.
    // Always inlined where optimised, so that it is compiled with the
    // instruction set of the walk that calls it (a call once per block
    // costs nothing); only hinted in a debug build, where an always-inlined
    // body puts its locals in the frame of every tile kernel and
    // `tests/heap.rs`'s product overflowed its stack.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn compute_block<const R: usize, const C: usize, const FUSE: bool>(
        &self,
        state: &mut Packed<T>,
        (first, j0): ([usize; MAX_RANK], usize),
    ) {
        let (m, n, k) = (S::DIMS[S::RANK - 2], S::DIMS[S::RANK - 1], Self::K);
        let i0 = first[Self::BATCH_RANK];
        let row_tiles = (m - i0).min(BLOCK_ROWS).div_ceil(R);
        let column_tiles = (n - j0).min(BLOCK_COLUMNS).div_ceil(C);
        let mut batch = first;
        batch[Self::BATCH_RANK] = 0;
        if state.right_at != Some((batch, j0)) {
            state.right.clear();
            let passes = k.div_ceil(BLOCK_DEPTH);
            state
                .right
                .resize(passes * column_tiles * BLOCK_DEPTH * C, T::ZERO);
            state.right_at = Some((batch, j0));
            state.right_passes = 0;
        }
        state.sums.clear();
        state.sums.resize(BLOCK_ROWS * BLOCK_COLUMNS, T::ZERO);
        state.sums_at = Some((first, j0));
        let Packed {
            right,
            right_passes,
            left,
            sums,
            ..
        } = state;
        let mut k0 = 0;
        let mut pass = 0;
        while k0 < k {
            let depth = (k - k0).min(BLOCK_DEPTH);
            let passes = &mut right[pass * column_tiles * BLOCK_DEPTH * C..];
            if pass == *right_passes {
                self.pack_right::<C>(passes, batch, j0, column_tiles, k0, depth);
                *right_passes += 1;
            }
            self.pack_left::<R>(left, first, row_tiles, k0, depth);
            for column_tile in 0..column_tiles {
                let start = column_tile * BLOCK_DEPTH * C;
                let right = PackedRight::<T, C> {
                    panel: &passes[start..start + BLOCK_DEPTH * C].as_chunks::<C>().0[..depth],
                };
                for row_tile in 0..row_tiles {
                    let start = row_tile * BLOCK_DEPTH * R;
                    let panel = &left[start..start + BLOCK_DEPTH * R].as_chunks::<R>().0[..depth];
                    let rows: [_; R] = crate::arrays::from_index_fn(|r| PackedLeft { panel, r });
                    let mut tile = [[T::ZERO; C]; R];
                    accumulate_block::<T, _, R, C, FUSE>(&rows, depth, &mut tile, &right);
                    for (r, values) in tile.iter().enumerate() {
                        let start = (row_tile * R + r) * BLOCK_COLUMNS + column_tile * C;
                        for (sum, value) in sums[start..start + C].iter_mut().zip(values) {
                            *sum = *sum + *value;
                        }
                    }
                }
            }
            k0 += depth;
            pass += 1;
        }
    }

    /// Copies terms `k0..k0 + depth` of columns `j0..` (`column_tiles` of
    /// `C`) of the right operand at `batch` into the panels of one pass,
    /// `BLOCK_DEPTH` rows of `C` per tile of columns. Columns past the last
    /// repeat it: their sums are never read.
    #[inline(always)]
    fn pack_right<const C: usize>(
        &self,
        pass: &mut [T],
        batch: [usize; MAX_RANK],
        j0: usize,
        column_tiles: usize,
        k0: usize,
        depth: usize,
    ) {
        let n = S::DIMS[S::RANK - 1];
        let panels = pass.as_chunks_mut::<C>().0;
        let full_tiles = (n - j0) / C;
        // Panel by panel, each written in order: term by term across the
        // panels, every write went to another page, and packing took as
        // long as the products natively.
        for (column_tile, panel) in panels
            .chunks_exact_mut(BLOCK_DEPTH)
            .take(column_tiles)
            .enumerate()
        {
            let first = j0 + column_tile * C;
            for (term, values) in panel[..depth].iter_mut().enumerate() {
                let mut index = batch;
                index[Self::BATCH_RANK] = k0 + term;
                // Stored data is copied as it is.
                match self.b.stored_row::<T, P::RhsView>(index) {
                    Some(row) if column_tile < full_tiles => {
                        values.copy_from_slice(&row[first..first + C]);
                    }
                    None if column_tile < full_tiles => {
                        let window = self.right_row(batch, k0 + term).window::<C>(first);
                        for (j, value) in values.iter_mut().enumerate() {
                            *value = window.get(j, T::ZERO);
                        }
                    }
                    _ => {
                        let row = self.right_row(batch, k0 + term);
                        for (j, value) in values.iter_mut().enumerate() {
                            *value = row.get((first + j).min(n - 1), T::ZERO);
                        }
                    }
                }
            }
        }
    }

    /// Copies terms `k0..k0 + depth` of the `row_tiles * R` left rows from
    /// `first` into panels of `R` rows, each term's `R` values side by
    /// side. Rows past the last repeat it: their sums are never read.
    #[inline(always)]
    fn pack_left<const R: usize>(
        &self,
        left: &mut Vec<T>,
        first: [usize; MAX_RANK],
        row_tiles: usize,
        k0: usize,
        depth: usize,
    ) {
        let m = S::DIMS[S::RANK - 2];
        left.clear();
        left.resize(row_tiles * BLOCK_DEPTH * R, T::ZERO);
        let i0 = first[Self::BATCH_RANK];
        for (row_tile, panel) in left
            .as_chunks_mut::<R>()
            .0
            .chunks_exact_mut(BLOCK_DEPTH)
            .enumerate()
        {
            let rows: [_; R] = crate::arrays::from_index_fn(|r| {
                let mut index = first;
                index[Self::BATCH_RANK] = (i0 + row_tile * R + r).min(m - 1);
                self.left_row(index)
            });
            for (term, values) in panel[..depth].iter_mut().enumerate() {
                for (value, row) in values.iter_mut().zip(&rows) {
                    *value = row.get(k0 + term, T::ZERO);
                }
            }
        }
    }
}

/// Row `r` of a packed left panel, read along `k`.
struct PackedLeft<'a, T, const R: usize> {
    panel: &'a [[T; R]],
    r: usize,
}

impl<T: Copy, const R: usize> Row<T> for PackedLeft<'_, T, R> {
    #[inline(always)]
    fn get(&self, kk: usize, _current: T) -> T {
        self.panel[kk][self.r]
    }
}

/// A packed right panel: term `kk`'s `C` columns side by side.
struct PackedRight<'a, T, const C: usize> {
    panel: &'a [[T; C]],
}

impl<T: Copy, const C: usize> RightBlock<T, C> for PackedRight<'_, T, C> {
    #[inline(always)]
    fn load(&self, kk: usize) -> [T; C] {
        self.panel[kk]
    }
}
