//! What a register-tiled kernel (the matrix product's, a convolution's)
//! shares: the multiply-add, the dispatch that gives each row of a tile a
//! named accumulator array, the reader of a product's right rows
//! ([`RightBlock`]), and the computed [`Block`] the enclosing expression
//! reads before the tile's one store.
//!
//! The rows are named (`acc0`, `acc1`, ...) because a generic `[[T; C]; R]`
//! accumulator made LLVM vectorise across rows with gathers, 60x slower
//! (measured on the product): each named row keeps every update a packed
//! multiply-add.

use super::Tile;
use crate::element::Element;

/// `a * b + c`, fused into one FMA if `FUSE` (see [`Element::fused_mul_add`];
/// the kernel sets it where it enabled FMA at run time).
#[inline(always)]
pub(crate) fn multiply_add<T: Element, const FUSE: bool>(a: T, b: T, c: T) -> T {
    if FUSE {
        a.fused_mul_add(b, c)
    } else {
        a.mul_add(b, c)
    }
}

/// Calls the local macro `$each!` with a named accumulator and its row
/// index for each of `$rows` rows (`$each!(acc0 0 acc1 1)` for 2), for the
/// row counts the tiled nest uses (1, 2, 4, 8); evaluates `$other` for any
/// other count.
macro_rules! with_named_rows {
    ($rows:expr, $each:ident, $other:expr) => {
        match $rows {
            1 => $each!(acc0 0),
            2 => $each!(acc0 0 acc1 1),
            4 => $each!(acc0 0 acc1 1 acc2 2 acc3 3),
            8 => $each!(acc0 0 acc1 1 acc2 2 acc3 3 acc4 4 acc5 5 acc6 6 acc7 7),
            _ => $other,
        }
    };
}
pub(crate) use with_named_rows;

/// A computed `R x C` tile.
pub(crate) struct Block<T, const R: usize, const C: usize>(pub(crate) [[T; C]; R]);

impl<T: Copy, const R: usize, const C: usize> Tile<T> for Block<T, R, C> {
    #[inline(always)]
    fn get(&self, r: usize, j: usize, _current: T) -> T {
        self.0[r][j]
    }
}

/// Reads `C` consecutive elements of a row of the right operand of a product.
/// (A struct with an always-inlined method rather than a closure: LLVM did not
/// always inline the closure into the `k` loop, which cost 10x, measured.)
pub(crate) trait RightBlock<T, const C: usize> {
    /// Elements `j0 .. j0 + C` of row `kk`.
    fn load(&self, kk: usize) -> [T; C];

    /// `sums[j] += a * b[j]` over those elements. By default [`Self::load`]
    /// then the multiply-adds; a reader of the operand's rows reads them
    /// in the same loop, with no copy of the row (the one-row integer tile
    /// of a runtime optimised for size, where LLVM keeps the copies).
    #[inline(always)]
    fn multiply_add_into<const FUSE: bool>(&self, kk: usize, a: T, sums: &mut [T; C])
    where
        T: Element,
    {
        let b_row = self.load(kk);
        for j in 0..C {
            sums[j] = multiply_add::<T, FUSE>(a, b_row[j], sums[j]);
        }
    }
}
