//! The constructors of the operations that are computed whole, first, into
//! a `Tensor` of their own which the rest of the expression reads: the scans
//! (`cumsum`, `cumprod`; `ops::scan` holds their table entries and the scan
//! itself). They build tensors, so they sit in the tensors' layer, above the
//! operations, as `linalg::operations` does for `inv` and `solve`.

use crate::access::{Contiguous, Operand};
use crate::element::Element;
use crate::expr::Context;
use crate::ops::scan::scan_axis;
use crate::shape::Shape;
use crate::tensor::Tensor;
use core::marker::PhantomData;

/// The running sum of `x` along the axes where `K` has 1 and `x` more;
/// `shapes` is the axes rule's witness, `(K, R)`. (Always inlined, as
/// `scanned` is: the result is then built where the caller keeps it, not
/// moved there.)
#[inline(always)]
#[rustfmt::skip]
pub fn cumsum<T, M, K: Shape, R, X: Operand<T> + ?Sized>(_context: Context<T, M>, _shapes: PhantomData<(K, R)>, x: &X) -> Tensor<X::Element, X::Shape> where X::Layout: Contiguous, X::Element: Element {
    scanned::<X::Shape, K, _>(x.elements(), |a, b| a + b)
}

/// The running product of `x` along the axes where `K` has 1 and `x` more;
/// `shapes` is the axes rule's witness, `(K, R)`. (Always inlined, as
/// `scanned` is: the result is then built where the caller keeps it, not
/// moved there.)
#[inline(always)]
#[rustfmt::skip]
pub fn cumprod<T, M, K: Shape, R, X: Operand<T> + ?Sized>(_context: Context<T, M>, _shapes: PhantomData<(K, R)>, x: &X) -> Tensor<X::Element, X::Shape> where X::Layout: Contiguous, X::Element: Element {
    scanned::<X::Shape, K, _>(x.elements(), |a, b| a * b)
}

/// `x`'s elements (shape `S`) scanned with `combine` along each axis where
/// `K` differs from `S`: the first such axis read from `x` as it is
/// written (one pass), the others in place. (One tensor, never reassigned,
/// so it is built where the caller keeps it.)
#[inline(always)]
fn scanned<S: Shape, K: Shape, T: Element>(
    x: &[T],
    combine: impl Fn(T, T) -> T + Copy,
) -> Tensor<T, S> {
    let data = &x[..S::LEN];
    let mut axes = (0..S::RANK).filter(|&axis| K::DIMS[axis] != S::DIMS[axis]);
    let Some(first) = axes.next() else {
        return Tensor::from_flat_fn(|i| data[i]);
    };
    let mut out = Tensor::<T, S>::zeros();
    scan_axis(Some(data), out.as_mut_slice(), S::DIMS, first, combine);
    for axis in axes {
        scan_axis(None, out.as_mut_slice(), S::DIMS, axis, combine);
    }
    out
}
