//! `cumsum(x, [axis])` and `cumprod(x, [axis])`: the running sum and
//! product along an axis, as `torch.cumsum(x, dim)` and `numpy.cumsum(x,
//! axis)` define them (element `i` along the axis combines elements `0..=i`;
//! the shape is `x`'s). A negative axis counts from the end. Listing several
//! axes scans along each in turn: `cumsum(x, [0, 1])` of a matrix is its
//! summed-area table (scans along different axes commute).
//!
//! A scan reads its whole input before its last element is known, so it is
//! computed first, as a stage of its own, into a `Tensor` (the macro treats
//! it as it treats `inv`); an expression input is evaluated before it, and
//! the rest of the expression reads the result; as the whole value of `out
//! = cumsum(x, ..)` it is written straight into `out` where the shapes
//! agree (`staged::cumsum_into`). The scan itself is a plain loop over the
//! data: along an inner axis each step adds a whole contiguous row to the
//! next (a loop that vectorises); along the last axis each row is the one
//! dependency chain a scan is, and four rows are scanned together so their
//! chains overlap.
//!
//! This module holds the table entries and the scan over a slice; the
//! constructors, which build `Tensor`s, are in `crate::staged` (a layer
//! above the operations).
//!
//! The axes rule is the reductions' (in range, each once), checked by the
//! local trait the macro writes for the list: it gives `K`, `x`'s shape with
//! the listed dims set to 1, from which the scan reads its axes (an axis of
//! one element scans to itself). Integers wrap on overflow only where Rust's
//! release arithmetic does; in a debug build an overflowing sum panics, as
//! `+` does.

use super::{axes_signature, Build, Operation, Reads};
use core::mem::MaybeUninit;

/// The table entry of an operation built by `constructor`.
const fn entry(
    name: &'static str,
    constructor: &'static str,
    summary: &'static str,
    forms: &'static [&'static str],
) -> Operation {
    Operation {
        name,
        signature: axes_signature(false, false),
        reads: Reads::Matrices {
            fallible: false,
            into_target: true,
        },
        build: Build::Node {
            constructor,
            marker: None,
        },
        elements: "Element",
        summary,
        forms,
    }
}

/// The table entry of `cumsum`.
pub const CUMSUM: Operation = entry(
    "cumsum",
    "crate::staged::cumsum",
    "The running sum along the listed axis (`torch.cumsum`, `numpy.cumsum`); along each in turn where several are listed.",
    &["cumsum(x, [axis])"],
);

/// The table entry of `cumprod`.
pub const CUMPROD: Operation = entry(
    "cumprod",
    "crate::staged::cumprod",
    "The running product along the listed axis (`torch.cumprod`, `numpy.cumprod`); along each in turn where several are listed.",
    &["cumprod(x, [axis])"],
);

/// Writes row-major `source` (shape `dims`) scanned along each of `axes`
/// in turn into `out`, whose slots may be uninitialised (one per element):
/// every slot is written, and only slots already written are read, so a
/// new tensor is scanned without being zeroed first. The first axis reads
/// `source` as it writes (one pass); the others scan `out` in place.
///
/// Along an axis, each slice at index `i` becomes `combine(out's slice i -
/// 1, the source's slice i)`, the slices of `inner` contiguous elements
/// (the dims after the axis), so along an inner axis each step is a loop
/// over a row that vectorises. Along the last axis each row is one
/// dependency chain; [`CHAINS`] rows are scanned together, so their chains
/// overlap.
///
/// Always inlined, so that the axes are constants of the caller's shapes:
/// out of line, the value form down the columns measured 0.88-0.93x of a
/// loop against 1.02-1.09x (`benches/reductions.rs`).
#[inline(always)]
pub(crate) fn scan_into<T: Copy>(
    source: &[T],
    out: &mut [MaybeUninit<T>],
    dims: &[usize],
    mut axes: impl Iterator<Item = usize>,
    combine: impl Fn(T, T) -> T + Copy,
) {
    // Every slot is then in one of the slices the first scan writes.
    assert!(
        out.len() == source.len() && out.len() == dims.iter().product::<usize>(),
        "a slot for each element of the dims"
    );
    let Some(first) = axes.next() else {
        for (slot, &x) in out.iter_mut().zip(source) {
            slot.write(x);
        }
        return;
    };
    // SAFETY: with a source, `scan_slots` reads only slots it wrote.
    unsafe { scan_slots(Some(source), out, dims, first, combine) };
    for axis in axes {
        // SAFETY: the first scan wrote every slot.
        unsafe { scan_slots(None, out, dims, axis, combine) };
    }
}

/// [`scan_into`] over initialised elements (an assignment's target).
#[inline(always)]
pub(crate) fn scan_over<T: Copy>(
    source: &[T],
    out: &mut [T],
    dims: &[usize],
    axes: impl Iterator<Item = usize>,
    combine: impl Fn(T, T) -> T + Copy,
) {
    // SAFETY: `MaybeUninit<T>` has `T`'s layout, and `scan_into` writes
    // only values of `T`, so `out` stays initialised.
    let slots = unsafe {
        core::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<MaybeUninit<T>>(), out.len())
    };
    scan_into(source, slots, dims, axes, combine);
}

/// The scan along `axis` of [`scan_into`], from `source` or, where it is
/// `None`, from `out` itself.
///
/// # Safety
/// Where `source` is `None`, every slot of `out` is initialised. (With a
/// source, each slot is written before it is read.)
#[inline(always)]
unsafe fn scan_slots<T: Copy>(
    source: Option<&[T]>,
    out: &mut [MaybeUninit<T>],
    dims: &[usize],
    axis: usize,
    combine: impl Fn(T, T) -> T + Copy,
) {
    let inner: usize = dims[axis + 1..].iter().product();
    let len = dims[axis];
    let block = len * inner;
    if block == 0 {
        return;
    }
    if inner == 1 {
        let group = CHAINS * len;
        let whole = out.len() / group * group;
        let (grouped, rest) = out.split_at_mut(whole);
        for (g, out) in grouped.chunks_exact_mut(group).enumerate() {
            let source = source.map(|s| &s[g * group..][..group]);
            // SAFETY: the caller's promise, for this part of `out`.
            unsafe { scan_rows::<T, CHAINS>(source, out, combine) };
        }
        for (b, out) in rest.chunks_exact_mut(len).enumerate() {
            let source = source.map(|s| &s[whole + b * len..][..len]);
            // SAFETY: as above.
            unsafe { scan_rows::<T, 1>(source, out, combine) };
        }
        return;
    }
    for (b, out) in out.chunks_exact_mut(block).enumerate() {
        let source = source.map(|s| &s[b * block..][..block]);
        if let Some(source) = source {
            for (slot, &x) in out[..inner].iter_mut().zip(source) {
                slot.write(x);
            }
        }
        for i in 1..len {
            let (before, rest) = out.split_at_mut(i * inner);
            let previous = &before[(i - 1) * inner..];
            let row = &mut rest[..inner];
            for (k, (slot, p)) in row.iter_mut().zip(previous).enumerate() {
                // SAFETY: slice `i - 1` is written (the first from the
                // source or by the caller, each later one by this loop), and
                // without a source slice `i` is initialised (the caller's
                // promise).
                let (p, x) = unsafe {
                    let x = match source {
                        Some(source) => source[i * inner + k],
                        None => slot.assume_init(),
                    };
                    (p.assume_init(), x)
                };
                slot.write(combine(p, x));
            }
        }
    }
}

/// The rows scanned together along the last axis: each row's chain keeps
/// its own order (the results are the one-row scan's, bit for bit), and
/// four chains hide most of an addition's latency.
const CHAINS: usize = 4;

/// Scans each of the `R` rows of `out` (of `source`, where given) along
/// itself, the rows' chains interleaved step by step.
///
/// # Safety
/// As [`scan_slots`]: without a source, every slot of `out` is initialised.
#[inline(always)]
unsafe fn scan_rows<T: Copy, const R: usize>(
    source: Option<&[T]>,
    out: &mut [MaybeUninit<T>],
    combine: impl Fn(T, T) -> T,
) {
    let len = out.len() / R;
    let mut chunks = out.chunks_exact_mut(len);
    let rows: [&mut [MaybeUninit<T>]; R] =
        crate::arrays::from_index_fn(|_| chunks.next().unwrap_or_default());
    let sources: [&[T]; R] = match source {
        Some(source) => crate::arrays::from_index_fn(|r| &source[r * len..][..len]),
        None => crate::arrays::from_index_fn(|_| &[][..]),
    };
    // SAFETY (each `assume_init` below): without a source, the caller's
    // promise; with one, the slot is not read.
    let own = |rows: &[&mut [MaybeUninit<T>]; R], r: usize, j: usize| match source {
        Some(_) => sources[r][j],
        None => unsafe { rows[r][j].assume_init() },
    };
    let mut acc: [T; R] = crate::arrays::from_index_fn(|r| own(&rows, r, 0));
    for r in 0..R {
        rows[r][0].write(acc[r]);
    }
    for j in 1..len {
        for r in 0..R {
            acc[r] = combine(acc[r], own(&rows, r, j));
            rows[r][j].write(acc[r]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_axis_is_scanned() {
        let x = [1, 2, 3, 4, 5, 6];
        let scanned = |dims: &[usize], axes: &[usize]| {
            let mut slots = [MaybeUninit::uninit(); 6];
            scan_into(&x, &mut slots, dims, axes.iter().copied(), |a, b| a + b);
            // SAFETY: `scan_into` wrote every slot.
            slots.map(|slot| unsafe { slot.assume_init() })
        };
        assert_eq!(scanned(&[2, 3], &[1]), [1, 3, 6, 4, 9, 15]);
        assert_eq!(scanned(&[6, 1], &[0]), [1, 3, 6, 10, 15, 21]);
        assert_eq!(scanned(&[2, 3], &[0]), [1, 2, 3, 5, 7, 9]);
        assert_eq!(scanned(&[2, 3], &[]), x);
        // Both axes, the second in place: the summed-area table of `x`.
        assert_eq!(scanned(&[2, 3], &[0, 1]), [1, 3, 6, 5, 12, 21]);
        let mut out = [0; 6];
        scan_over(&x, &mut out, &[2, 3], [1, 0].into_iter(), |a, b| a + b);
        assert_eq!(out, [1, 3, 6, 5, 12, 21]);
        scan_over(&[], &mut [0; 0], &[0, 3], [1].into_iter(), |a: i32, b| {
            a + b
        });
    }
}
