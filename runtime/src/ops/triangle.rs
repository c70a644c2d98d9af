//! `tril(x)` and `triu(x)`: the lower and the upper triangle of each matrix
//! of `x` (its last two dims), the other elements zero, as `torch.tril` and
//! `torch.triu` (and `numpy.tril`/`triu`) define them. `diagonal = k`
//! moves the boundary: element `[i, j]` is kept by `tril` where `j - i <= k`
//! and by `triu` where `j - i >= k` (default 0, the main diagonal; `triu(x,
//! diagonal = 1)` is the strictly upper triangle, what a causal mask
//! hides). The shape is `x`'s, of rank 2 or more.
//!
//! Nothing is copied: each output row reads `x`'s row where it is stored
//! and keeps the columns on its side of the boundary, a select that
//! vectorises. It is read like any elementwise node, so it fuses
//! (`tril(a) * b` has no temporary); an expression argument is evaluated
//! first, into a tensor of its own.

use super::{Build, NamedOption, OffsetValue, Operation, Reads, Signature};
use crate::access::{Contiguous, Operand};
use crate::element::Element;
use crate::expr::{Context, Expr, Flat, Own, Row, Shaped};
use crate::rules::broadcast::aligned_strides;
use crate::rules::matrices::Matrices;
use crate::shape::{row_major_strides, Shape, MAX_RANK};
use core::marker::PhantomData;

/// `diagonal = k`: any integer, default 0.
const DIAGONAL: NamedOption = NamedOption::offset("diagonal");

/// The table entry of an operation keeping the side `constructor` keeps.
const fn entry(
    name: &'static str,
    constructor: &'static str,
    summary: &'static str,
    forms: &'static [&'static str],
) -> Operation {
    Operation {
        name,
        signature: Signature {
            dims_optional: true,
            options: &[DIAGONAL],
            ..Signature::of(1)
        },
        reads: Reads::Windows,
        build: Build::Node {
            constructor,
            marker: None,
        },
        elements: "Element",
        summary,
        forms,
    }
}

/// The table entry of `tril`.
pub const TRIL: Operation = entry(
    "tril",
    "triangle::tril",
    "The lower triangle of each matrix, on and below diagonal `k` (default 0), the rest zero (`torch.tril`).",
    &["tril(x)", "tril(x, diagonal = k)"],
);

/// The table entry of `triu`.
pub const TRIU: Operation = entry(
    "triu",
    "triangle::triu",
    "The upper triangle of each matrix, on and above diagonal `k` (default 0), the rest zero (`torch.triu`).",
    &["triu(x)", "triu(x, diagonal = k)"],
);

/// Which side of the boundary a [`Triangle`] keeps.
pub trait Side {
    /// Whether column `j` of row `i` is kept, with the boundary at
    /// diagonal `k`.
    fn keeps(i: isize, j: isize, k: isize) -> bool;
}

/// `tril`'s side: `j - i <= k`.
#[derive(Clone, Copy, Debug)]
pub struct Lower;

/// `triu`'s side: `j - i >= k`.
#[derive(Clone, Copy, Debug)]
pub struct Upper;

impl Side for Lower {
    #[inline(always)]
    fn keeps(i: isize, j: isize, k: isize) -> bool {
        j - i <= k
    }
}

impl Side for Upper {
    #[inline(always)]
    fn keeps(i: isize, j: isize, k: isize) -> bool {
        j - i >= k
    }
}

/// `x` (shape `X`) with the elements off side `S` of diagonal `K` zeroed.
pub struct Triangle<'a, T, X, S, K> {
    /// Exactly `X::LEN` elements.
    x: &'a [T],
    types: PhantomData<(X, S, K)>,
}

/// Builds `tril(x)`; `diagonal` is the option's witness.
#[inline(always)]
#[rustfmt::skip]
pub fn tril<'a, T, M, K: OffsetValue, X: Operand<T> + ?Sized>(_context: Context<T, M>, _diagonal: PhantomData<K>, x: &'a X) -> Triangle<'a, X::Element, <X::Shape as Matrices>::Checked, Lower, K> where X::Layout: Contiguous, X::Shape: Matrices {
    Triangle { x: &x.elements()[..<X::Shape as Shape>::LEN], types: PhantomData }
}

/// Builds `triu(x)`; `diagonal` is the option's witness.
#[inline(always)]
#[rustfmt::skip]
pub fn triu<'a, T, M, K: OffsetValue, X: Operand<T> + ?Sized>(_context: Context<T, M>, _diagonal: PhantomData<K>, x: &'a X) -> Triangle<'a, X::Element, <X::Shape as Matrices>::Checked, Upper, K> where X::Layout: Contiguous, X::Shape: Matrices {
    Triangle { x: &x.elements()[..<X::Shape as Shape>::LEN], types: PhantomData }
}

impl<T, X: Shape, S, K> Shaped for Triangle<'_, T, X, S, K> {
    type Shape = X;
}

/// How a triangle of `X` reads within output shape `O`: `X`'s strides
/// aligned to `O` (0 where `X` is broadcast), and where its rows and
/// columns lie among `O`'s dims.
struct MatrixRead<X, O>(PhantomData<(X, O)>);

impl<X: Shape, O: Shape> MatrixRead<X, O> {
    const STRIDES: [usize; MAX_RANK] =
        aligned_strides(row_major_strides(X::DIMS), X::DIMS, O::DIMS);
    /// The output dim of `X`'s rows.
    const ROW_DIM: usize = O::RANK - 2;
    /// Whether `X`'s rows are one row broadcast (its row dim is 1).
    const ONE_ROW: bool = X::DIMS[X::RANK - 2] == 1;
    /// The length of `X`'s rows read along `O`'s: 1 where broadcast.
    const ROW: usize = if X::DIMS[X::RANK - 1] == 1 {
        1
    } else {
        X::DIMS[X::RANK - 1]
    };
}

unsafe impl<T: Element, X: Shape, S: Side, K: OffsetValue> Expr<T> for Triangle<'_, T, X, S, K> {
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
        let strides = &MatrixRead::<X, O>::STRIDES;
        let mut offset = 0;
        for k in 0..O::RANK.saturating_sub(1) {
            offset += outer[k] * strides[k];
        }
        // The row index within `x`'s matrix: 0 where its one row is
        // broadcast along the output's rows.
        let i = if MatrixRead::<X, O>::ONE_ROW {
            0
        } else {
            outer[MatrixRead::<X, O>::ROW_DIM]
        };
        TriangleRow::<T, X, S, K, O> {
            row: &self.x[offset..][..MatrixRead::<X, O>::ROW],
            i: i as isize,
            types: PhantomData,
        }
    }
}

/// One row of a triangle: `x`'s row `i`, its columns off the side zeroed.
struct TriangleRow<'a, T, X, S, K, O> {
    /// Exactly `MatrixRead::ROW` elements.
    row: &'a [T],
    i: isize,
    types: PhantomData<(X, S, K, O)>,
}

impl<T: Element, X: Shape, S: Side, K: OffsetValue, O: Shape> Row<T>
    for TriangleRow<'_, T, X, S, K, O>
{
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        let value = if MatrixRead::<X, O>::ROW == 1 {
            self.row[0]
        } else {
            self.row[j]
        };
        // Column `j` of the output is column `j` of `x`'s matrix, or its
        // one column broadcast (column 0).
        let column = if MatrixRead::<X, O>::ROW == 1 { 0 } else { j };
        if S::keeps(self.i, column as isize, K::VALUE) {
            value
        } else {
            T::ZERO
        }
    }
}
