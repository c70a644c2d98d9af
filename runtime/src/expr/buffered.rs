//! Nodes that compute a whole row before the loop reads it: the machinery shared
//! by [`Reduction`](super::Reduction) and [`Shared`].
//!
//! Such a node keeps the last row it computed in a one-row cache, keyed by the
//! row's number in the node's own shape. A node read by several output rows (a
//! reduction broadcast back over its input, `x - mean(x, [0], keepdim)`) or by
//! several parents in one row (`exp(..)` in both halves of a softmax) computes
//! the row once. Each reader gets its own copy of the row (a row of the node's
//! last dim, on the stack): a copy of a row already in L1 costs a fraction of
//! computing it, and a reader can never see the cache refilled under it, which
//! would happen when a reduction walks many rows of a node another parent is
//! reading (`c / sqrt(mean(c * c, [0], keepdim))`).

use super::{Expr, Row};
use crate::element::Element;
use crate::rules::broadcast::BroadcastStrides;
use crate::shape::{Shape, MAX_RANK};
use core::cell::Cell;
use core::marker::PhantomData;

/// The number of the row of `S` that output row `outer` of `O` reads (`S`
/// broadcast into `O`, right-aligned).
#[inline(always)]
pub(crate) fn source_row<S: Shape, O: Shape>(outer: [usize; MAX_RANK]) -> usize {
    if S::LEN == 0 {
        return 0;
    }
    let strides = BroadcastStrides::<S, O>::STRIDES;
    let mut offset = 0;
    for k in 0..O::RANK.saturating_sub(1) {
        offset += outer[k] * strides[k];
    }
    offset / S::ROW_LEN
}

/// The outer index (every dim but the last, padded with zeros) of row `row` of `S`.
#[inline(always)]
pub(crate) fn outer_of_row<S: Shape>(row: usize) -> [usize; MAX_RANK] {
    let mut outer = [0; MAX_RANK];
    let index = S::multi_index(row * S::ROW_LEN);
    outer[..S::RANK].copy_from_slice(index.as_ref());
    outer
}

/// The last row a node computed, and its number (`usize::MAX`: none yet).
pub(crate) struct RowCache<T, S: Shape> {
    key: Cell<usize>,
    values: S::Row<Cell<T>>,
}

impl<T: Element, S: Shape> RowCache<T, S> {
    pub(crate) fn new() -> Self {
        RowCache {
            key: Cell::new(usize::MAX),
            values: S::row_from_fn(|_| Cell::new(T::ZERO)),
        }
    }

    /// Row `row`: a copy of the cached one, or `compute`d into a new row and cached.
    #[inline(always)]
    pub(crate) fn row(&self, row: usize, compute: impl FnOnce(&mut [T])) -> S::Row<T> {
        let cells = self.values.as_ref();
        if self.key.get() == row {
            return S::row_from_fn(|j| cells[j].get());
        }
        let mut values = S::row_from_fn(|_| T::ZERO);
        compute(values.as_mut());
        for (cell, &value) in cells.iter().zip(values.as_ref()) {
            cell.set(value);
        }
        self.key.set(row);
        values
    }
}

/// A computed row of shape `S`'s last dim, read by output rows of `O`: along
/// the row (stride 1) or splat (stride 0, `S`'s last dim is broadcast).
pub(crate) struct BufferedRow<T, S: Shape, O> {
    pub(crate) values: S::Row<T>,
    pub(crate) shape: PhantomData<O>,
}

impl<T: Element, S: Shape, O: Shape> Row<T> for BufferedRow<T, S, O> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        self.values.as_ref()[j * BroadcastStrides::<S, O>::INNER]
    }
}

/// A subexpression written more than once (`exp(x - m)` in a softmax), computed
/// once per row and read by each place it appears in through a reference.
///
/// `tensor_expr!` builds one for a repeated subexpression that calls a function
/// or multiplies matrices; repeated cheap arithmetic is recomputed instead,
/// which costs less than the copies.
pub struct Shared<T, E: Expr<T>> {
    expr: E,
    cache: RowCache<T, E::Shape>,
}

/// Wraps `e` for reading in several places (`&shared` is an expression).
#[inline(always)]
pub fn shared<T: Element, M, E: Expr<T>>(_context: super::Context<T, M>, e: E) -> Shared<T, E> {
    Shared {
        expr: e,
        cache: RowCache::new(),
    }
}

impl<T: Element, E: Expr<T>> Expr<T> for Shared<T, E> {
    type Shape = E::Shape;
    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        let row = source_row::<E::Shape, O>(outer);
        let values = self.cache.row(row, |values| {
            let source = self.expr.row::<E::Shape>(outer_of_row::<E::Shape>(row));
            for (j, value) in values.iter_mut().enumerate() {
                *value = source.get(j, T::ZERO);
            }
        });
        BufferedRow::<T, E::Shape, O> {
            values,
            shape: PhantomData,
        }
    }
}

/// A node read through a reference: a [`Shared`] subexpression or a repeated
/// reduction, in each place it appears.
impl<T, E: Expr<T>> Expr<T> for &E {
    type Shape = E::Shape;
    const TILED: bool = E::TILED;
    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        (**self).row::<O>(outer)
    }
    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        outer: [usize; MAX_RANK],
        j0: usize,
    ) -> impl super::Tile<T> + '_ {
        (**self).tile::<O, R, C, FUSE>(outer, j0)
    }
}
