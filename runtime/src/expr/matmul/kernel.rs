//! The register-tiled product kernel: an `R x C` block of `a @ b` kept in
//! registers across the whole `k` loop, one named accumulator array per row,
//! contiguous columns innermost. The node ([`super::MatMul`]) gives it the
//! rows of the left operand and a reader of the right one, and applies the
//! enclosing expression to the block before its single store.

use super::avx512;
use crate::element::Element;
use crate::expr::block::{multiply_add, with_named_rows, RightBlock};
use crate::expr::Row;
use core::mem::size_of;

/// Sums `a_rows[r][kk] * b(kk)[j]` over `kk < k` into `block[r][j]`, each
/// row of the block in its own named accumulator array
/// ([`with_named_rows`]), contiguous columns innermost.
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
    if const { R == 1 } {
        accumulate_one_row::<T, Ra, C, FUSE>(&a_rows[0], k, &mut block[0], b);
        return;
    }
    // The AVX-512 nests' full tile of `f32`, in 512-bit registers whatever
    // width LLVM's tuning prefers.
    if const { R == 8 && C == 32 && FUSE } && avx512::accumulate(a_rows, k, block, b) {
        return;
    }
    if const { R * C * size_of::<T>() <= SHORT_TILE_BYTES } && (2..=SHORT_CONTRACTION).contains(&k)
    {
        accumulate_short::<T, Ra, R, C, FUSE>(a_rows, k, block, b);
        return;
    }
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
    with_named_rows!(R, named_rows, {
        for kk in 0..k {
            let b_row = b.load(kk);
            for (sums, a_row) in block.iter_mut().zip(a_rows) {
                let a = a_row.get(kk, T::ZERO);
                for j in 0..C {
                    sums[j] = multiply_add::<T, FUSE>(a, b_row[j], sums[j]);
                }
            }
        }
    })
}

/// The longest contraction summed by [`accumulate_short`]: 8, the products
/// of 2x2 to 8x8 matrices.
pub(super) const SHORT_CONTRACTION: usize = 8;

/// The largest tile, in bytes, summed by [`accumulate_short`]: 4 x 4 `f32`,
/// whose two sets of accumulators take half of SSE's 16 registers (the
/// kernel is generic over the instruction set, so it counts for the
/// narrowest). A wider tile has enough independent chains already.
const SHORT_TILE_BYTES: usize = 64;

/// The block of a product with a short contraction (2 to
/// [`SHORT_CONTRACTION`] terms), where the time is the latency of one
/// chain of adds, not the throughput of many: the even and the odd terms are
/// two chains, each starting from its first product (no add of zero), joined
/// by one add at the end. A 4x4 @ 4x4 whose result the next statement reads
/// (a filter's covariance update) waits for 2 adds after the products
/// instead of 5. Two chains per row need twice the accumulators: tiles of
/// at most [`SHORT_TILE_BYTES`].
// Always inlined where optimised (a call per tile slows the Kalman step of
// `benches/linalg.rs` markedly); only hinted in a debug
// build, where an always-inlined body puts its accumulators in the frame of
// every tile kernel, even those whose tiles never take this path (an 8 x 32
// AVX-512 tile), and `tests/heap.rs`'s big product overflowed its stack.
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
fn accumulate_short<T: Element, Ra: Row<T>, const R: usize, const C: usize, const FUSE: bool>(
    a_rows: &[Ra; R],
    k: usize,
    block: &mut [[T; C]; R],
    b: &impl RightBlock<T, C>,
) {
    let (mut even, mut odd) = (products(a_rows, 0, b), products(a_rows, 1, b));
    for kk in 2..k {
        let b_row = b.load(kk);
        let chain = if kk % 2 == 0 { &mut even } else { &mut odd };
        for (sums, a_row) in chain.iter_mut().zip(a_rows) {
            let a = a_row.get(kk, T::ZERO);
            for j in 0..C {
                sums[j] = multiply_add::<T, FUSE>(a, b_row[j], sums[j]);
            }
        }
    }
    for ((sums, even), odd) in block.iter_mut().zip(even).zip(odd) {
        for j in 0..C {
            sums[j] = even[j] + odd[j];
        }
    }
}

/// The products of term `kk`: `a_rows[r][kk] * b(kk)[j]`.
#[inline(always)]
fn products<T: Element, Ra: Row<T>, const R: usize, const C: usize>(
    a_rows: &[Ra; R],
    kk: usize,
    b: &impl RightBlock<T, C>,
) -> [[T; C]; R] {
    let b_row = b.load(kk);
    let mut block = [[T::ZERO; C]; R];
    for (sums, a_row) in block.iter_mut().zip(a_rows) {
        let a = a_row.get(kk, T::ZERO);
        for j in 0..C {
            sums[j] = a * b_row[j];
        }
    }
    block
}

/// The block of a tile of one row (a row vector times a matrix, the last
/// row of an odd count): four chains of multiply-adds over `kk` in turn,
/// added at the end. One chain per column vector waits out the latency of
/// each multiply-add (4 cycles) where the CPU can start two a cycle.
/// Integers in a runtime optimised for size (`cfg(size_profile)`, set by
/// `build.rs` for `opt-level = "s"` or `"z"`) take one chain: the same
/// sums (integer sums do not depend on their order; floats' do, so they
/// keep the four chains in every build), in a third of the code.
#[inline(always)]
fn accumulate_one_row<T: Element, Ra: Row<T>, const C: usize, const FUSE: bool>(
    a_row: &Ra,
    k: usize,
    sums: &mut [T; C],
    b: &impl RightBlock<T, C>,
) {
    if const { cfg!(size_profile) && !T::IS_FLOAT } {
        *sums = [T::ZERO; C];
        for kk in 0..k {
            b.multiply_add_into::<FUSE>(kk, a_row.get(kk, T::ZERO), sums);
        }
        return;
    }
    let (mut chain0, mut chain1, mut chain2, mut chain3) =
        ([T::ZERO; C], [T::ZERO; C], [T::ZERO; C], [T::ZERO; C]);
    let mut kk = 0;
    while kk + 4 <= k {
        for (offset, chain) in [&mut chain0, &mut chain1, &mut chain2, &mut chain3]
            .into_iter()
            .enumerate()
        {
            let (a, b_row) = (a_row.get(kk + offset, T::ZERO), b.load(kk + offset));
            for j in 0..C {
                chain[j] = multiply_add::<T, FUSE>(a, b_row[j], chain[j]);
            }
        }
        kk += 4;
    }
    while kk < k {
        let (a, b_row) = (a_row.get(kk, T::ZERO), b.load(kk));
        for j in 0..C {
            chain0[j] = multiply_add::<T, FUSE>(a, b_row[j], chain0[j]);
        }
        kk += 1;
    }
    for j in 0..C {
        sums[j] = (chain0[j] + chain1[j]) + (chain2[j] + chain3[j]);
    }
}
