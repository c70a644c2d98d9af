//! The register-tiled product kernel: an `R x C` block of `a @ b` kept in
//! registers across the whole `k` loop, one named accumulator array per row,
//! contiguous columns innermost. The node ([`super::MatMul`]) gives it the
//! rows of the left operand and a reader of the right one, and applies the
//! enclosing expression to the block before its single store.

use crate::element::Element;
use crate::expr::Row;

/// `a * b + c`, fused into one FMA if `FUSE` (see [`Element::fused_mul_add`]).
#[inline(always)]
fn multiply_add<T: Element, const FUSE: bool>(a: T, b: T, c: T) -> T {
    if FUSE {
        a.fused_mul_add(b, c)
    } else {
        a.mul_add(b, c)
    }
}

/// Reads `C` consecutive elements of a row of the right operand of a product.
/// (A struct with an always-inlined method rather than a closure: LLVM did not
/// always inline the closure into the `k` loop, which cost 10x, measured.)
pub(super) trait RightBlock<T, const C: usize> {
    /// Elements `j0 .. j0 + C` of row `kk`.
    fn load(&self, kk: usize) -> [T; C];
}

/// Sums `a_rows[r][kk] * b(kk)[j]` over `kk < k` into `block[r][j]`.
///
/// Each row of the block is its own named accumulator array (`acc0`, `acc1`,
/// ...), updated with contiguous columns innermost. A generic `[[T; C]; R]`
/// accumulator makes LLVM vectorise across rows with gathers (60x slower,
/// measured); the named rows keep every update a packed multiply-add.
#[inline(always)]
pub(super) fn accumulate_block<
    T: Element,
    Ra: Row<T>,
    const R: usize,
    const C: usize,
    const FUSE: bool,
>(
    a_rows: &[Ra; R],
    k: usize,
    block: &mut [[T; C]; R],
    b: &impl RightBlock<T, C>,
) {
    macro_rules! named_rows {
        ($($acc:ident $r:literal)+) => {{
            $(let mut $acc = [T::ZERO; C];)+
            for kk in 0..k {
                let b_row = b.load(kk);
                $(
                    let a = a_rows[$r].get(kk, T::ZERO);
                    for j in 0..C {
                        $acc[j] = multiply_add::<T, FUSE>(a, b_row[j], $acc[j]);
                    }
                )+
            }
            $(block[$r] = $acc;)+
        }};
    }
    match R {
        1 => named_rows!(acc0 0),
        2 => named_rows!(acc0 0 acc1 1),
        4 => named_rows!(acc0 0 acc1 1 acc2 2 acc3 3),
        8 => named_rows!(acc0 0 acc1 1 acc2 2 acc3 3 acc4 4 acc5 5 acc6 6 acc7 7),
        _ => {
            for kk in 0..k {
                let b_row = b.load(kk);
                for (sums, a_row) in block.iter_mut().zip(a_rows) {
                    let a = a_row.get(kk, T::ZERO);
                    for j in 0..C {
                        sums[j] = multiply_add::<T, FUSE>(a, b_row[j], sums[j]);
                    }
                }
            }
        }
    }
}
