//! `flip(x, [axes])`: `x` with the order of its elements reversed along
//! each listed axis, as `torch.flip` and `numpy.flip` define it; without a
//! list every axis is reversed (`numpy.flip(x)`). Negative axes count from
//! the end, and an axis may be listed once. The shape is `x`'s.
//!
//! Nothing is copied: the node reads `x` where it is stored, each output
//! row from the mirrored row of `x`, and a row of a flipped last axis from
//! its end backwards (a reversed load, which vectorises). It is read like
//! any elementwise node, so it fuses (`flip(x, [0]) * w` has no temporary);
//! an expression argument is evaluated first, into a tensor of its own.
//!
//! The axes rule is the reductions' (in range, each once), checked by the
//! local trait the macro writes for the list: it gives `K`, `x`'s shape with
//! the listed dims set to 1, from which the node reads which axes flip (an
//! axis of one element flips to itself).

use super::{Build, Dims, Operation, Reads, Signature};
use crate::access::{Contiguous, Operand};
use crate::element::Element;
use crate::expr::{Context, Expr, Flat, Own, Row, Shaped};
use crate::rules::broadcast::aligned_strides;
use crate::shape::{row_major_strides, Shape, MAX_RANK};
use core::marker::PhantomData;

/// The table entry of `flip`.
pub const OPERATION: Operation = Operation {
    name: "flip",
    signature: Signature {
        dims: Dims::AxisList,
        dims_optional: true,
        ..Signature::of(1)
    },
    reads: Reads::Windows,
    build: Build::Node {
        constructor: "flip::flip",
        marker: None,
    },
    elements: "Element",
    summary: "The elements in reverse order along each listed axis, every axis without a list (`torch.flip`, `numpy.flip`).",
    forms: &["flip(x)", "flip(x, [axes])"],
};

/// `x` (shape `X`) flipped along the axes where `K` has 1 and `X` more.
pub struct Flip<'a, T, X, K> {
    /// Exactly `X::LEN` elements.
    x: &'a [T],
    shapes: PhantomData<(X, K)>,
}

/// Builds the flip of `x`; `shapes` is the axes rule's witness, `(K, R)`
/// (the shape with the listed dims set to 1, and the reduced shape, which
/// a flip does not use).
#[inline(always)]
#[rustfmt::skip]
pub fn flip<'a, T, M, K: Shape, R, X: Operand<T> + ?Sized>(_context: Context<T, M>, _shapes: PhantomData<(K, R)>, x: &'a X) -> Flip<'a, X::Element, X::Shape, K> where X::Layout: Contiguous {
    Flip {
        x: &x.elements()[..<X::Shape as Shape>::LEN],
        shapes: PhantomData,
    }
}

impl<T, X: Shape, K> Shaped for Flip<'_, T, X, K> {
    type Shape = X;
}

/// How a flip of `X` reads within output shape `O`: per output dim, the
/// stride of `x`'s data (0 where `x` is broadcast) and, where the dim is
/// flipped, the index its positions mirror from (its size minus 1).
struct Mirror<X, K, O>(PhantomData<(X, K, O)>);

impl<X: Shape, K: Shape, O: Shape> Mirror<X, K, O> {
    const STRIDES: [usize; MAX_RANK] =
        aligned_strides(row_major_strides(X::DIMS), X::DIMS, O::DIMS);
    /// Per output dim: `X`'s size minus 1 where that dim is flipped, else 0.
    const LAST: [usize; MAX_RANK] = {
        let mut last = [0; MAX_RANK];
        let pad = O::RANK - X::RANK;
        let mut k = 0;
        while k < X::RANK {
            if K::DIMS[k] != X::DIMS[k] {
                last[pad + k] = X::DIMS[k] - 1;
            }
            k += 1;
        }
        last
    };
    /// The length of `x`'s rows read along the output's last dim: 1 where
    /// it is broadcast (or `O` has no dims), else `X`'s last dim.
    const ROW: usize = if O::RANK == 0 || Self::STRIDES[O::RANK - 1] == 0 {
        1
    } else {
        X::DIMS[X::RANK - 1]
    };
    /// Whether rows are read from their end.
    const REVERSED: bool = O::RANK > 0 && Self::LAST[O::RANK - 1] > 0;
}

unsafe impl<T: Element, X: Shape, K: Shape> Expr<T> for Flip<'_, T, X, K> {
    /// Its input has a static shape (`X: Shape`): no run-time rows.
    type Children = ();
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) {}

    /// Reads stored data at positions of its own, keeping no row cache: read as a leaf with strides.
    const OWN: Own = Own::leaf(Flat::No);

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        let strides = &Mirror::<X, K, O>::STRIDES;
        let last = &Mirror::<X, K, O>::LAST;
        let mut offset = 0;
        for k in 0..O::RANK.saturating_sub(1) {
            // A flipped dim reads index `last - i` for output index `i`; a
            // broadcast one has stride 0, whatever the index.
            let i = if last[k] > 0 {
                last[k] - outer[k]
            } else {
                outer[k]
            };
            offset += i * strides[k];
        }
        FlipRow::<T, X, K, O> {
            row: &self.x[offset..][..Mirror::<X, K, O>::ROW],
            shapes: PhantomData,
        }
    }
}

/// One row of a flip: `x`'s row, read forwards, backwards or as one
/// broadcast element.
struct FlipRow<'a, T, X, K, O> {
    /// Exactly `Mirror::ROW` elements.
    row: &'a [T],
    shapes: PhantomData<(X, K, O)>,
}

impl<T: Element, X: Shape, K: Shape, O: Shape> Row<T> for FlipRow<'_, T, X, K, O> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        if Mirror::<X, K, O>::ROW == 1 {
            self.row[0]
        } else if Mirror::<X, K, O>::REVERSED {
            self.row[Mirror::<X, K, O>::ROW - 1 - j]
        } else {
            self.row[j]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{context_of, Row};
    use crate::rules::rank::Numpy;
    use crate::{Tensor, D};

    #[test]
    fn rows_are_mirrored_and_read_backwards_along_flipped_axes() {
        let m = Tensor::<i32, (D<2>, D<3>)>::from_fn(|[i, j]| (10 * i + j) as i32);
        // Both axes flipped: K is [1, 1].
        let both = flip(context_of(Numpy, &m), PhantomData::<((D<1>, D<1>), ())>, &m);
        let row = both.row::<(D<2>, D<3>)>([0; MAX_RANK]);
        assert_eq!([row.get(0, 0), row.get(1, 0), row.get(2, 0)], [12, 11, 10]);
        // Only the rows: K is [1, 3].
        let rows = flip(context_of(Numpy, &m), PhantomData::<((D<1>, D<3>), ())>, &m);
        let row = rows.row::<(D<2>, D<3>)>([1, 0, 0, 0, 0, 0]);
        assert_eq!([row.get(0, 0), row.get(2, 0)], [0, 2]);
    }
}
