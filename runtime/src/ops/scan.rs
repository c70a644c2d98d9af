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

/// Writes the scan along `axis` of row-major `source` (shape `dims`), or of
/// `out` itself where `source` is `None`, into `out`: each slice at index
/// `i` along the axis becomes `combine(out's slice i - 1, the source's
/// slice i)`, the slices of `inner` contiguous elements (the dims after the
/// axis), so along an inner axis each step is a loop over a row that
/// vectorises. Along the last axis each row is one dependency chain;
/// [`CHAINS`] rows are scanned together, so their chains overlap.
pub(crate) fn scan_axis<T: Copy>(
    source: Option<&[T]>,
    out: &mut [T],
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
            scan_rows::<T, CHAINS>(source.map(|s| &s[g * group..][..group]), out, combine);
        }
        for (b, out) in rest.chunks_exact_mut(len).enumerate() {
            scan_rows::<T, 1>(source.map(|s| &s[whole + b * len..][..len]), out, combine);
        }
        return;
    }
    for (b, out) in out.chunks_exact_mut(block).enumerate() {
        let source = source.map(|s| &s[b * block..][..block]);
        if let Some(source) = source {
            out[..inner].copy_from_slice(&source[..inner]);
        }
        for i in 1..len {
            let (before, rest) = out.split_at_mut(i * inner);
            let previous = &before[(i - 1) * inner..];
            let row = &mut rest[..inner];
            match source {
                Some(source) => {
                    let own = &source[i * inner..][..inner];
                    for ((value, &p), &x) in row.iter_mut().zip(previous).zip(own) {
                        *value = combine(p, x);
                    }
                }
                None => {
                    for (value, &p) in row.iter_mut().zip(previous) {
                        *value = combine(p, *value);
                    }
                }
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
#[inline(always)]
fn scan_rows<T: Copy, const R: usize>(
    source: Option<&[T]>,
    out: &mut [T],
    combine: impl Fn(T, T) -> T,
) {
    let len = out.len() / R;
    let mut chunks = out.chunks_exact_mut(len);
    let rows: [&mut [T]; R] = core::array::from_fn(|_| chunks.next().unwrap_or_default());
    let sources: [&[T]; R] = match source {
        Some(source) => core::array::from_fn(|r| &source[r * len..][..len]),
        None => core::array::from_fn(|_| &[][..]),
    };
    let mut acc: [T; R] =
        core::array::from_fn(|r| sources[r].first().copied().unwrap_or(rows[r][0]));
    for r in 0..R {
        rows[r][0] = acc[r];
    }
    for j in 1..len {
        for r in 0..R {
            let x = match source {
                Some(_) => sources[r][j],
                None => rows[r][j],
            };
            acc[r] = combine(acc[r], x);
            rows[r][j] = acc[r];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_axis_is_scanned() {
        let x = [1, 2, 3, 4, 5, 6];
        let mut out = [0; 6];
        scan_axis(Some(&x), &mut out, &[2, 3], 1, |a, b| a + b);
        assert_eq!(out, [1, 3, 6, 4, 9, 15]);
        scan_axis(Some(&x), &mut out, &[2, 3], 0, |a, b| a + b);
        assert_eq!(out, [1, 2, 3, 5, 7, 9]);
        // In place: the summed-area table of `x`.
        scan_axis(None, &mut out, &[2, 3], 1, |a, b| a + b);
        assert_eq!(out, [1, 3, 6, 5, 12, 21]);
        scan_axis(None, &mut [0; 0], &[0, 3], 1, |a: i32, b| a + b);
    }
}
