//! How a row is folded: [`LANES`] partial results in [`GROUPS`] groups, in
//! one fixed order. Every fold along a row (a reduction, a shared row's
//! sum) and the element types' compiled folds of stored rows (`element`'s
//! `Element::fold_row`) go through
//! [`fold_lanes`], so a result does not depend on which of them computed it.

/// The number of partial results in each group of a fold along a row.
pub(crate) const LANES: usize = 16;

/// The number of groups of [`LANES`] partial results: four vectors of sums
/// in flight on AVX-512 (one group of `f32` is one 512-bit vector), two
/// groups on AVX2, one on SSE (four 128-bit vectors already). A default
/// build's folds run in code of its base target (SSE), where four groups
/// left no register for the values: its layer norm took 1.4x as long.
const GROUPS: usize = if cfg!(target_feature = "avx512f") {
    4
} else if cfg!(target_feature = "avx2") {
    2
} else {
    1
};

/// What a fold along a row reads: its element `j`. Implemented by
/// readers whose `read` is `#[inline(always)]` (a closure's call is not,
/// and a long row fold then called it for every element).
pub(crate) trait Read<T> {
    /// Element `j`.
    fn read(&self, j: usize) -> T;
}

impl<T: Copy> Read<T> for [T] {
    #[inline(always)]
    fn read(&self, j: usize) -> T {
        self[j]
    }
}

/// A fold's step: the accumulator with one more element folded in.
pub(crate) trait Step<T> {
    /// `acc` with `x` folded in.
    fn step(&self, acc: T, x: T) -> T;
}

/// A fold along a row (`len` elements, read by `row`) from `identity` with
/// `combine`, and whether an element is NaN if `find_nan` (flags of their
/// own, off the accumulators' dependency chain).
///
/// The partial results are [`GROUPS`] groups of [`LANES`], so several steps
/// are in flight, not one waiting on the latency of the one before. The
/// groups are named arrays, as in the dot product's partial sums: as one
/// array of 32 or 64 lanes, a `max` along `[64, 1024]` rows ran 1.4x and 5x
/// slower natively. With four groups and the lanes combined pairwise, a
/// native build's softmax over those rows takes 0.91x the time of one group
/// combined lane after lane, and its layer norm 0.87x.
#[inline(always)]
pub(crate) fn fold_lanes<T: Copy + PartialEq>(
    row: &(impl Read<T> + ?Sized),
    len: usize,
    identity: T,
    combine: &impl Step<T>,
    find_nan: bool,
) -> (T, bool) {
    fold_in_groups::<T, GROUPS>(row, len, identity, combine, find_nan)
}

/// [`fold_lanes`] with `G` groups (1, 2 or 4), every one of which the unit
/// tests run whatever the build's target.
#[inline(always)]
#[allow(clippy::eq_op)]
fn fold_in_groups<T: Copy + PartialEq, const G: usize>(
    row: &(impl Read<T> + ?Sized),
    len: usize,
    identity: T,
    combine: &impl Step<T>,
    find_nan: bool,
) -> (T, bool) {
    if len < LANES {
        // What the lanes give a row shorter than one group of them (the
        // identities folded, then each element in order), without filling
        // and folding the `G * LANES` identities, which a debug build does
        // for every element of a short-row reduction (an `[N, 3]` norm).
        let (mut acc, mut found) = (identity, false);
        for j in 0..len {
            let x = row.read(j);
            acc = combine.step(acc, x);
            found |= find_nan && x != x;
        }
        return (acc, found);
    }
    let (mut q0, mut q1, mut q2, mut q3) = (
        [identity; LANES],
        [identity; LANES],
        [identity; LANES],
        [identity; LANES],
    );
    let mut nan = [false; LANES];
    let mut j = 0;
    while j + G * LANES <= len {
        for l in 0..LANES {
            let x0 = row.read(j + l);
            q0[l] = combine.step(q0[l], x0);
            let mut seen = x0 != x0;
            if G > 1 {
                let x1 = row.read(j + LANES + l);
                q1[l] = combine.step(q1[l], x1);
                seen |= x1 != x1;
            }
            if G > 2 {
                let x2 = row.read(j + 2 * LANES + l);
                let x3 = row.read(j + 3 * LANES + l);
                q2[l] = combine.step(q2[l], x2);
                q3[l] = combine.step(q3[l], x3);
                seen |= (x2 != x2) | (x3 != x3);
            }
            if find_nan {
                nan[l] |= seen;
            }
        }
        j += G * LANES;
    }
    while j + LANES <= len {
        for l in 0..LANES {
            let x = row.read(j + l);
            q0[l] = combine.step(q0[l], x);
            if find_nan {
                nan[l] |= x != x;
            }
        }
        j += LANES;
    }
    let mut partial = q0;
    if G > 1 {
        for l in 0..LANES {
            partial[l] = if G > 2 {
                combine.step(combine.step(q0[l], q1[l]), combine.step(q2[l], q3[l]))
            } else {
                combine.step(q0[l], q1[l])
            };
        }
    }
    // The lanes pairwise, four steps deep, where the build has AVX2 or
    // AVX-512. On SSE (where a default build's folds run) that made a `max`
    // over rows of 1024 slower (`cargo bench --bench reductions`), so
    // the lanes are combined one after another there.
    let mut acc = if G > 1 {
        let mut width = LANES;
        while width > 1 {
            width /= 2;
            for l in 0..width {
                partial[l] = combine.step(partial[l], partial[l + width]);
            }
        }
        partial[0]
    } else {
        partial
            .into_iter()
            .fold(identity, |acc, x| combine.step(acc, x))
    };
    let mut found = nan.iter().any(|&n| n);
    for j in j..len {
        let x = row.read(j);
        acc = combine.step(acc, x);
        found |= find_nan && x != x;
    }
    (acc, found)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Add;
    impl Step<f32> for Add {
        fn step(&self, acc: f32, x: f32) -> f32 {
            acc + x
        }
    }

    struct Max;
    impl Step<f32> for Max {
        fn step(&self, acc: f32, x: f32) -> f32 {
            acc.max(x)
        }
    }

    /// Every group count, over rows that end in each part of the walk (whole
    /// rounds of every group, a round of one group, a tail): the sum of
    /// small integers (exact in any order), the maximum, and a NaN found
    /// wherever it sits.
    #[test]
    fn every_group_count_folds_every_element() {
        fn check<const G: usize>() {
            for len in [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 80, 150, 257] {
                let mut buffer = [0.0f32; 257];
                for (k, v) in buffer.iter_mut().enumerate() {
                    *v = ((k * 37) % 101) as f32;
                }
                let values = &buffer[..len];
                let (sum, nan) = fold_in_groups::<f32, G>(values, len, 0.0, &Add, true);
                assert_eq!(
                    sum,
                    values.iter().sum::<f32>(),
                    "sum, {G} groups, {len} long"
                );
                assert!(!nan);
                let (max, _) = fold_in_groups::<f32, G>(values, len, f32::MIN, &Max, false);
                assert_eq!(
                    max,
                    values.iter().copied().fold(f32::MIN, f32::max),
                    "max, {G} groups, {len} long"
                );
                for at in 0..len {
                    let mut with_nan = buffer;
                    with_nan[at] = f32::NAN;
                    let (_, nan) = fold_in_groups::<f32, G>(&with_nan[..len], len, 0.0, &Add, true);
                    assert!(nan, "NaN at {at}, {G} groups, {len} long");
                }
            }
        }
        check::<1>();
        check::<2>();
        check::<4>();
    }
}
