//! Index reductions: `argmax` and `argmin` along a static axis, as NumPy's
//! `argmax(x, axis)`: the first position of the largest (smallest) value, and
//! the first NaN's position where the line holds a NaN (NaN propagates, as in
//! `max`). Along an axis of size 0 there is no answer: an error when the code
//! is built, where NumPy raises.

use crate::rules::axes::NonEmptyAxis;
use crate::shape::Shape;

/// Which extreme an index reduction looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Extreme {
    Largest,
    Smallest,
}

/// For each line of row-major `data` (shape `S`) along `AXIS`, in row-major
/// order of the remaining dims, the position of its extreme.
pub(crate) fn arg_extreme<T: PartialOrd, S: Shape, const AXIS: usize>(
    data: &[T],
    extreme: Extreme,
) -> impl FnMut(usize) -> usize + '_ {
    #[allow(clippy::let_unit_value)]
    let () = NonEmptyAxis::<S, AXIS>::CHECKED;
    arg_extreme_along::<T, S, AXIS>(data, S::DIMS[AXIS], extreme)
}

/// [`arg_extreme`] where `AXIS` has `len` positions: its size, or the rows
/// of a shape whose first dim is counted at run time (`len > 0`).
pub(crate) fn arg_extreme_along<T: PartialOrd, S: Shape, const AXIS: usize>(
    data: &[T],
    len: usize,
    extreme: Extreme,
) -> impl FnMut(usize) -> usize + '_ {
    debug_assert!(len > 0);
    let strides = crate::shape::row_major_strides(S::DIMS);
    let stride = strides[AXIS];
    let inner: usize = S::DIMS[AXIS + 1..].iter().product();
    move |line| {
        // Line `line` counts the other dims row-major: outer blocks of `inner`.
        let start = (line / inner) * len * inner + line % inner;
        let at = |k: usize| &data[start + k * stride];
        let is_nan = |x: &T| x.partial_cmp(x).is_none();
        let mut best = 0;
        for k in 0..len {
            let x = at(k);
            if is_nan(x) {
                return k;
            }
            let better = match extreme {
                Extreme::Largest => x > at(best),
                Extreme::Smallest => x < at(best),
            };
            if better {
                best = k;
            }
        }
        best
    }
}
