//! Dot products for the products whose right operand is a vector
//! (`(.., m, k) @ (k,)`): each output element is the dot product of a row
//! of the left operand with the vector, so the sums run along `k`, not
//! along the output's columns as in the register-tiled kernel.

use crate::element::Element;
use crate::expr::Row;

/// The partial sums of a long dot product ([`dot_of_rows`]): four 512-bit
/// vectors of `f32` (eight of 256 bits, sixteen of SSE's 128).
const PARTIAL_SUMS: usize = 64;

/// `sum a[kk] * b[kk]` over `kk < k`, where `a()` and `b()` give the two
/// rows: in [`PARTIAL_SUMS`] partial sums, added pairwise at the end, so the
/// loop vectorises and no add waits for the one before. Each block of
/// terms reads a window of the rows ([`Row::window`], a constant number of
/// columns and no bounds check): [`PARTIAL_SUMS`] columns, then a quarter of
/// that, then one term at a time. The partial sums are four named arrays: as
/// one array of 64, LLVM kept them in memory (each step a load and a store),
/// at a third of the speed natively. A matrix times a vector (`[128, 784] @
/// [784]`) ran at a seventh of a hand loop's speed as one chain.
///
/// A dot product shorter than a quarter of them (a Kalman filter's `[4, 2]
/// @ [2]`) is those terms one after another, which is what the partial
/// sums give it, without them: where the runtime is optimised for size
/// (`cfg(size_profile)`) the longer path is out of line, since there LLVM
/// keeps its arrays in the frame of the expression it is inlined into.
#[inline(always)]
pub(super) fn dot_of_rows<T: Element, Ra: Row<T>, Rb: Row<T>>(
    a: impl Fn() -> Ra,
    b: impl Fn() -> Rb,
    k: usize,
) -> T {
    // The count of terms is hidden from the optimiser (`long_dot_of_rows`
    // says why).
    let k = core::hint::black_box(k);
    if k < QUARTER {
        let (a, b) = (a(), b());
        let mut sum = T::ZERO;
        for kk in 0..k {
            sum = a.get(kk, T::ZERO).mul_add(b.get(kk, T::ZERO), sum);
        }
        return sum;
    }
    long_dot_of_rows(a, b, k)
}

/// A quarter of [`PARTIAL_SUMS`]: the length of each named array of them.
const QUARTER: usize = PARTIAL_SUMS / 4;

/// [`dot_of_rows`] of at least [`QUARTER`] terms.
#[cfg_attr(size_profile, inline(never))]
#[cfg_attr(not(size_profile), inline(always))]
fn long_dot_of_rows<T: Element, Ra: Row<T>, Rb: Row<T>>(
    a: impl Fn() -> Ra,
    b: impl Fn() -> Rb,
    k: usize,
) -> T {
    let (mut q0, mut q1, mut q2, mut q3) = (
        [T::ZERO; QUARTER],
        [T::ZERO; QUARTER],
        [T::ZERO; QUARTER],
        [T::ZERO; QUARTER],
    );
    let mut kk = 0;
    // The count of terms is hidden from the optimiser (by `dot_of_rows`),
    // so the loop stays a loop. Counted as a constant, LLVM's tuning for
    // this CPU unrolled it whole and, for a matrix times a vector, hoisted
    // every read of the vector out of the loop over rows, into 28 stack
    // slots: `[128, 784] @ [784]` ran at 0.75 of a hand loop natively, and
    // at 0.93 with the count hidden (`cargo bench --bench matmul --
    // vector`).
    while kk + PARTIAL_SUMS <= k {
        let (a, b) = (
            a().window::<PARTIAL_SUMS>(kk),
            b().window::<PARTIAL_SUMS>(kk),
        );
        for l in 0..QUARTER {
            q0[l] = a.get(l, T::ZERO).mul_add(b.get(l, T::ZERO), q0[l]);
            q1[l] = a
                .get(QUARTER + l, T::ZERO)
                .mul_add(b.get(QUARTER + l, T::ZERO), q1[l]);
            q2[l] = a
                .get(2 * QUARTER + l, T::ZERO)
                .mul_add(b.get(2 * QUARTER + l, T::ZERO), q2[l]);
            q3[l] = a
                .get(3 * QUARTER + l, T::ZERO)
                .mul_add(b.get(3 * QUARTER + l, T::ZERO), q3[l]);
        }
        kk += PARTIAL_SUMS;
    }
    // The rest: up to three blocks of a quarter, written out, each into
    // partial sums of its own. As a loop over blocks (windowed or not),
    // LLVM split each block into pairs of lanes and reassembled the sums
    // with two dozen shuffles per output element; as a closure given the
    // sums by reference, it kept them in memory. Natively `[128, 784] @
    // [784]`, whose last 16 terms are one block, ran at 0.95 of the hand
    // loop's speed with the loop and 0.78 with the closure, 1.01 as it is.
    let blocks = (k - kk) / QUARTER;
    macro_rules! quarter {
        ($block:literal, $sums:ident) => {
            if blocks > $block {
                let at = kk + $block * QUARTER;
                let (a, b) = (a().window::<QUARTER>(at), b().window::<QUARTER>(at));
                for l in 0..QUARTER {
                    $sums[l] = a.get(l, T::ZERO).mul_add(b.get(l, T::ZERO), $sums[l]);
                }
            }
        };
    }
    quarter!(0, q0);
    quarter!(1, q1);
    quarter!(2, q2);
    kk += blocks * QUARTER;
    let mut partial = [T::ZERO; QUARTER];
    for l in 0..QUARTER {
        partial[l] = (q0[l] + q1[l]) + (q2[l] + q3[l]);
    }
    let mut width = QUARTER;
    while width > 1 {
        width /= 2;
        for l in 0..width {
            partial[l] = partial[l] + partial[l + width];
        }
    }
    let mut sum = partial[0];
    let (a, b) = (a(), b());
    while kk < k {
        sum = a.get(kk, T::ZERO).mul_add(b.get(kk, T::ZERO), sum);
        kk += 1;
    }
    sum
}
