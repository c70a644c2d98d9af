//! The float product's kernel: `a @ b` over stored `f32` or `f64`
//! operands, compiled once in this crate per element type and
//! instruction-set level, for every product of a build of the dev profile.
//!
//! A product whose operands are stored rows (tensors and their contiguous
//! views, not elementwise expressions) hands a tile's left rows and its
//! right operand, as a matrix of stored elements, to [`sums`]; what the
//! product expression compiles of its own is its reads and its epilogue.
//! In a debug build the kernel runs at the runtime's opt-level (the
//! profile override the README gives), where the tile's loop inlined into
//! the user's crate would run unoptimised. A release build inlines the
//! loop instead (`MatMul::FLOAT_TILES` says why).
//!
//! The sums are those of the tile the expression's nest computes inline
//! ([`accumulate_block`], the same function), so a debug build gives the
//! bits of a release build: every element's terms in the same order, on
//! every level. An element's chain of multiply-adds does not depend on
//! the tile's width or on how many of its rows are summed together, only
//! on whether the tile has one row (four chains, added at the end) or
//! several (one chain), on whether its multiply-adds are fused, and on
//! the short contractions' two chains, which the kernel never sums
//! ([`SHORTEST_CONTRACTION`]). So the kernel cuts a tile into blocks of
//! its own level's geometry, and is told `fused` by the nest.

use super::kernel::accumulate_block;
use crate::element::Element;
use crate::expr::block::RightBlock;
use crate::expr::Row;
use core::any::TypeId;
use core::mem::size_of;

/// The shortest contraction whose tiles the kernel sums: longer than those
/// a small tile sums in two chains (`kernel::accumulate_short`), whose
/// order depends on the tile's size.
pub(super) const SHORTEST_CONTRACTION: usize = super::kernel::SHORT_CONTRACTION + 1;

/// A tile of a float product as the kernel reads it.
#[derive(Debug)]
pub(super) struct FloatTile<'a, T> {
    /// The tile's rows of the left operand: 1, 4 or 8, each of at
    /// least `k` elements.
    pub(super) left: &'a [&'a [T]],
    /// The right operand from the tile's first column on: row `kk` from
    /// `kk * right_stride`.
    pub(super) right: &'a [T],
    /// The elements from one row of the right operand to the next.
    pub(super) right_stride: usize,
    /// The length of the contraction.
    pub(super) k: usize,
}

impl<T> FloatTile<'_, T> {
    /// Whether the tile's operands hold what [`sums`] reads for `columns`
    /// columns, and `out` (rows `stride` apart) what it writes.
    fn fits(&self, columns: usize, out: &[T], stride: usize) -> bool {
        let rows = self.left.len();
        let right_len = match self.k.checked_sub(1) {
            None => Some(0),
            Some(last) => last
                .checked_mul(self.right_stride)
                .and_then(|start| start.checked_add(columns)),
        };
        matches!(rows, 1 | 4 | 8)
            && columns > 0
            && self.left.iter().all(|row| row.len() >= self.k)
            && right_len.is_some_and(|len| len <= self.right.len())
            && stride >= columns
            && (rows - 1)
                .checked_mul(stride)
                .and_then(|last| last.checked_add(columns))
                .is_some_and(|len| len <= out.len())
    }
}

/// Writes `sum_k left[r][k] * right[k][j]` for the tile's rows by
/// `columns` columns into `out`, row `r` at `out[r * stride..][..columns]`,
/// with fused multiply-adds where `fused` (the nest's `FUSE`), and says
/// true; false, `out` untouched, where `T` is neither `f32` nor `f64`, the
/// tile does not fit its operands or `out`, or this build has no code for
/// `fused` at the level it runs. The kernel itself is not generic
/// ([`sums_f32`], [`sums_f64`]), so it is compiled once, here.
#[inline(always)]
pub(super) fn sums<T: Element>(
    tile: &FloatTile<T>,
    columns: usize,
    fused: bool,
    out: &mut [T],
    stride: usize,
) -> bool {
    if let (Some(tile), Some(out)) = (same_type(tile), same_type_mut(out)) {
        return sums_f32(tile, columns, fused, out, stride);
    }
    if let (Some(tile), Some(out)) = (same_type(tile), same_type_mut(out)) {
        return sums_f64(tile, columns, fused, out, stride);
    }
    false
}

/// [`sums`] over `f32`.
#[inline(never)]
fn sums_f32(
    tile: &FloatTile<f32>,
    columns: usize,
    fused: bool,
    out: &mut [f32],
    stride: usize,
) -> bool {
    sums_at_level(tile, columns, fused, out, stride)
}

/// [`sums`] over `f64`.
#[inline(never)]
fn sums_f64(
    tile: &FloatTile<f64>,
    columns: usize,
    fused: bool,
    out: &mut [f64],
    stride: usize,
) -> bool {
    sums_at_level(tile, columns, fused, out, stride)
}

/// `tile` as a tile of `U`, where `U` is its element type `T`.
#[inline(always)]
fn same_type<'t, 'a, T: 'static, U: 'static>(
    tile: &'t FloatTile<'a, T>,
) -> Option<&'t FloatTile<'a, U>> {
    // SAFETY: `T` and `U` are the same type.
    (TypeId::of::<T>() == TypeId::of::<U>())
        .then(|| unsafe { &*(tile as *const FloatTile<'a, T>).cast::<FloatTile<'a, U>>() })
}

/// `out` as a slice of `U`, where `U` is its element type `T`.
#[inline(always)]
fn same_type_mut<T: 'static, U: 'static>(out: &mut [T]) -> Option<&mut [U]> {
    // SAFETY: `T` and `U` are the same type.
    (TypeId::of::<T>() == TypeId::of::<U>()).then(|| unsafe { &mut *(out as *mut [T] as *mut [U]) })
}

/// [`sums`] for one element type, at the level the CPU and the nest allow.
#[inline(always)]
fn sums_at_level<T: Element>(
    tile: &FloatTile<T>,
    columns: usize,
    fused: bool,
    out: &mut [T],
    stride: usize,
) -> bool {
    if !tile.fits(columns, out, stride) {
        return false;
    }
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if fused {
        use crate::isa::{selected, Level};
        if const { (Level::TARGET as u8) < (Level::Avx512 as u8) } && selected() >= Level::Avx512 {
            // SAFETY: the selected level is at most the CPU's
            // (`isa::selected`): it has AVX-512 F and BW, AVX2 and FMA.
            unsafe { x86::avx512(tile, columns, out, stride) };
            return true;
        }
        if const { (Level::TARGET as u8) < (Level::Avx2 as u8) } && selected() >= Level::Avx2 {
            // SAFETY: as above, with AVX2 and FMA.
            unsafe { x86::avx2(tile, columns, out, stride) };
            return true;
        }
    }
    // The compile-time target's nest fuses where the target has FMA
    // (`kernel::dispatch::at_target`).
    if fused != cfg!(target_feature = "fma") {
        return false;
    }
    const FUSED: bool = cfg!(target_feature = "fma");
    if cfg!(target_feature = "avx512f") {
        by_vector_bytes::<T, FUSED, 64>(tile, columns, out, stride);
    } else if cfg!(target_feature = "avx") {
        by_vector_bytes::<T, FUSED, 32>(tile, columns, out, stride);
    } else {
        by_vector_bytes::<T, FUSED, 16>(tile, columns, out, stride);
    }
    true
}

/// The levels above the compile-time target's, each in a function with its
/// one feature set (those of `kernel::dispatch`'s nests).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod x86 {
    use super::{by_vector_bytes, FloatTile};
    use crate::element::Element;

    /// AVX-512: 512-bit vectors, fused multiply-adds.
    #[target_feature(enable = "avx512f,avx512bw,avx2,fma")]
    pub(super) unsafe fn avx512<T: Element>(
        tile: &FloatTile<T>,
        columns: usize,
        out: &mut [T],
        stride: usize,
    ) {
        by_vector_bytes::<T, true, 64>(tile, columns, out, stride);
    }

    /// AVX2: 256-bit vectors, fused multiply-adds.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn avx2<T: Element>(
        tile: &FloatTile<T>,
        columns: usize,
        out: &mut [T],
        stride: usize,
    ) {
        by_vector_bytes::<T, true, 32>(tile, columns, out, stride);
    }
}

/// The tile in blocks sized for vectors of `BYTES` bytes, `LANES`
/// elements to a vector: blocks of two vectors per row (eight rows with 32
/// registers, four with 16), a single row's of four.
#[inline(always)]
fn by_vector_bytes<T: Element, const FUSE: bool, const BYTES: usize>(
    tile: &FloatTile<T>,
    columns: usize,
    out: &mut [T],
    stride: usize,
) {
    match (BYTES, size_of::<T>()) {
        (64, 4) => by_blocks::<T, FUSE, 8, 64, 32, 16>(tile, columns, out, stride),
        (64, _) => by_blocks::<T, FUSE, 8, 32, 16, 8>(tile, columns, out, stride),
        (32, 4) => by_blocks::<T, FUSE, 4, 32, 16, 8>(tile, columns, out, stride),
        (32, _) | (16, 4) => by_blocks::<T, FUSE, 4, 16, 8, 4>(tile, columns, out, stride),
        _ => by_blocks::<T, FUSE, 4, 8, 4, 2>(tile, columns, out, stride),
    }
}

/// The tile in blocks of `ROWS` rows (or 4) by `WIDE` columns, then
/// `LANES` (the last block perhaps fewer); a single row by `ROW_WIDE`
/// columns first.
#[inline(always)]
fn by_blocks<
    T: Element,
    const FUSE: bool,
    const ROWS: usize,
    const ROW_WIDE: usize,
    const WIDE: usize,
    const LANES: usize,
>(
    tile: &FloatTile<T>,
    columns: usize,
    out: &mut [T],
    stride: usize,
) {
    let rows = tile.left.len();
    if rows == 1 {
        let mut column = 0;
        while column + ROW_WIDE <= columns {
            block::<T, FUSE, 1, ROW_WIDE>(tile, 0, column, ROW_WIDE, out, stride);
            column += ROW_WIDE;
        }
        across::<T, FUSE, 1, WIDE, LANES>(tile, 0, column, columns, out, stride);
        return;
    }
    // `fits` allows 4 and 8 rows: `ROWS` is 4 or 8.
    let mut first = 0;
    while first < rows {
        let out = &mut out[first * stride..];
        if rows - first >= ROWS {
            across::<T, FUSE, ROWS, WIDE, LANES>(tile, first, 0, columns, out, stride);
            first += ROWS;
        } else {
            across::<T, FUSE, 4, WIDE, LANES>(tile, first, 0, columns, out, stride);
            first += 4;
        }
    }
}

/// Rows `first..first + R` of the tile across columns `column..columns`:
/// blocks of `WIDE` columns, then of `LANES`, the last of them perhaps
/// fewer (its right operand's rows copied into a buffer of `LANES`, the
/// columns past the tile's summed and not stored), into `out` from its
/// first element.
#[inline(always)]
fn across<T: Element, const FUSE: bool, const R: usize, const WIDE: usize, const LANES: usize>(
    tile: &FloatTile<T>,
    first: usize,
    mut column: usize,
    columns: usize,
    out: &mut [T],
    stride: usize,
) {
    while column + WIDE <= columns {
        block::<T, FUSE, R, WIDE>(tile, first, column, WIDE, out, stride);
        column += WIDE;
    }
    while column < columns {
        let width = (columns - column).min(LANES);
        block::<T, FUSE, R, LANES>(tile, first, column, width, out, stride);
        column += width;
    }
}

/// The `R x C` block at rows `first..`, columns `column..` of a tile that
/// fits, summed by the product's register-tiled kernel, and its first
/// `width` columns (at most `C`) stored into `out`, its row `r` from
/// `out[r * stride + column]`. Inlined up to the level's function, whose
/// features it is compiled with.
#[inline(always)]
fn block<T: Element, const FUSE: bool, const R: usize, const C: usize>(
    tile: &FloatTile<T>,
    first: usize,
    column: usize,
    width: usize,
    out: &mut [T],
    stride: usize,
) {
    let k = tile.k;
    let a_rows: [_; R] = crate::arrays::from_index_fn(|r| LeftRow(&tile.left[first + r][..k]));
    let right = RightColumns {
        data: &tile.right[column..],
        stride: tile.right_stride,
        width,
    };
    let mut sums = [[T::ZERO; C]; R];
    accumulate_block::<T, _, R, C, FUSE>(&a_rows, k, &mut sums, &right);
    for (r, values) in sums.iter().enumerate() {
        out[r * stride + column..][..width].copy_from_slice(&values[..width]);
    }
}

/// A stored row of the left operand, `k` elements long.
struct LeftRow<'a, T>(&'a [T]);

impl<T: Copy> Row<T> for LeftRow<'_, T> {
    #[inline(always)]
    fn get(&self, kk: usize, _current: T) -> T {
        self.0[kk]
    }
}

/// The right operand's columns `0..width` of each row, rows `stride`
/// apart, read as `C` columns (zeros past `width`).
struct RightColumns<'a, T> {
    data: &'a [T],
    stride: usize,
    width: usize,
}

impl<T: Element, const C: usize> RightBlock<T, C> for RightColumns<'_, T> {
    #[inline(always)]
    fn load(&self, kk: usize) -> [T; C] {
        let start = kk * self.stride;
        if self.width == C {
            let Ok(row) = <[T; C]>::try_from(&self.data[start..][..C]) else {
                unreachable!("a slice of `C` elements")
            };
            return row;
        }
        let mut row = [T::ZERO; C];
        row[..self.width].copy_from_slice(&self.data[start..][..self.width]);
        row
    }
}
