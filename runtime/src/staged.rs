//! The constructors of the operations that are computed whole, first, into
//! a `Tensor` of their own which the rest of the expression reads: the scans
//! (`cumsum`, `cumprod`; `ops::scan` holds their table entries and the scan
//! itself), and their `_into` forms, which write an assignment's target
//! itself where the scan is its whole value. They build tensors, so they
//! sit in the tensors' layer, above the operations, as `linalg::operations`
//! does for `inv` and `solve`.

use crate::access::{Contiguous, Operand, Target};
use crate::element::Element;
use crate::expr::Context;
use crate::ops::scan::{scan_into, scan_over};
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

/// [`cumsum`] as the whole value of `out = ..`: written straight into
/// `target` where its shape is `x`'s (`None`), else returned for the
/// statement to assign, broadcast, as it assigns any stage.
#[inline(always)]
#[rustfmt::skip]
pub fn cumsum_into<T, M, K: Shape, R, X: Operand<T> + ?Sized, O: Target<Element = X::Element> + ?Sized>(_context: Context<T, M>, _shapes: PhantomData<(K, R)>, x: &X, target: &mut O) -> Option<Tensor<X::Element, X::Shape>> where X::Layout: Contiguous, X::Element: Element {
    scanned_into::<X::Shape, K, _, O>(x.elements(), target, |a, b| a + b)
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

/// [`cumprod`] as the whole value of `out = ..` (see [`cumsum_into`]).
#[inline(always)]
#[rustfmt::skip]
pub fn cumprod_into<T, M, K: Shape, R, X: Operand<T> + ?Sized, O: Target<Element = X::Element> + ?Sized>(_context: Context<T, M>, _shapes: PhantomData<(K, R)>, x: &X, target: &mut O) -> Option<Tensor<X::Element, X::Shape>> where X::Layout: Contiguous, X::Element: Element {
    scanned_into::<X::Shape, K, _, O>(x.elements(), target, |a, b| a * b)
}

/// `x`'s elements (shape `S`) scanned with `combine` along each axis where
/// `K` differs from `S`, into a new tensor whose slots the first scan
/// writes (never zeroed first). (One tensor, never reassigned, so it is
/// built where the caller keeps it.)
#[inline(always)]
fn scanned<S: Shape, K: Shape, T: Element>(
    x: &[T],
    combine: impl Fn(T, T) -> T + Copy,
) -> Tensor<T, S> {
    let (data, axes) = (&x[..S::LEN], scanned_axes::<S, K>());
    // SAFETY: `scan_into` writes every slot.
    unsafe { Tensor::from_uninit(|slots| scan_into(data, slots, S::DIMS, axes, combine)) }
}

/// [`scanned`] into `target` where its shape is `S` (so its elements are
/// `S`'s, row-major), returning `None`; else the tensor.
#[inline(always)]
fn scanned_into<S: Shape, K: Shape, T: Element, O: Target<Element = T> + ?Sized>(
    x: &[T],
    target: &mut O,
    combine: impl Fn(T, T) -> T + Copy,
) -> Option<Tensor<T, S>> {
    if !const { same_dims(O::Shape::DIMS, S::DIMS) } {
        return Some(scanned::<S, K, T>(x, combine));
    }
    let axes = scanned_axes::<S, K>();
    scan_over(&x[..S::LEN], target.target_slice(), S::DIMS, axes, combine);
    None
}

/// The axes scanned: those where `K` differs from `S`.
fn scanned_axes<S: Shape, K: Shape>() -> impl Iterator<Item = usize> {
    (0..S::RANK).filter(|&axis| K::DIMS[axis] != S::DIMS[axis])
}

/// Whether two shapes' dims are equal (a static shape's are sizes; a
/// run-time dim's sentinel equals no size).
const fn same_dims(a: &[usize], b: &[usize]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
