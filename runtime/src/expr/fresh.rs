//! The child of a node that reads it at several rows.
//!
//! A product reads every row of its operands for each output tile, and a
//! reduction folds several input rows into one result row. Reading a child
//! through its row caches (`Expr::row`) there would refill a cache under a
//! reader that still borrows it, and give wrong values silently (see
//! `buffered`). Such a node holds the child as a [`Fresh`], whose field is
//! private to this module: the reads it offers are `Expr::row_fresh`, so the
//! rule cannot be forgotten, and the one cached read it allows is named for
//! the case where it is right.

use super::{node, Child, Expr, Int8Matrix, Int8Row, Reading, Row, StoredMatrix};
use crate::shape::{Shape, MAX_RANK};

/// A child read at several rows: only fresh reads reach it.
#[derive(Clone, Copy, Debug)]
pub struct Fresh<E>(E);

impl<E> Fresh<E> {
    /// Wraps a child that its node will read at several rows.
    #[inline(always)]
    pub(crate) fn new(child: E) -> Self {
        Fresh(child)
    }

    /// The child's rows counted at run time ([`node::run_time_rows`]).
    #[inline(always)]
    pub(crate) fn run_time_rows<T>(&self) -> Option<usize>
    where
        E: Expr<T>,
    {
        node::run_time_rows::<T, E>(&self.0)
    }

    /// Row `outer` of the child in output shape `O`, read past every row
    /// cache (`Expr::row_fresh`).
    #[inline(always)]
    pub(crate) fn row<T, O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_
    where
        E: Expr<T>,
    {
        self.0.row_fresh::<O>(outer)
    }

    /// Row `outer` of the child as stored `i8` values and an offset, where
    /// it is an int8 operand read widened (`Expr::int8_row`; leaves have no
    /// row cache to bypass).
    #[inline(always)]
    pub(crate) fn int8_row<T, O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<Int8Row<'_>>
    where
        E: Expr<T>,
    {
        self.0.int8_row::<O>(outer)
    }

    /// Row `outer` of the child and the rows after it along `axis` as
    /// stored `i8` values (`Expr::int8_matrix`; leaves have no row cache
    /// to bypass).
    #[inline(always)]
    pub(crate) fn int8_matrix<T, O: Shape>(
        &self,
        outer: [usize; MAX_RANK],
        axis: usize,
    ) -> Option<Int8Matrix<'_>>
    where
        E: Expr<T>,
    {
        self.0.int8_matrix::<O>(outer, axis)
    }

    /// Row `outer` of the child and the rows after it along `axis` as
    /// stored elements (`Expr::stored_matrix`; leaves have no row cache
    /// to bypass).
    #[inline(always)]
    pub(crate) fn stored_matrix<T, O: Shape>(
        &self,
        outer: [usize; MAX_RANK],
        axis: usize,
    ) -> Option<StoredMatrix<'_, T>>
    where
        E: Expr<T>,
    {
        self.0.stored_matrix::<O>(outer, axis)
    }

    /// Row `outer` of the child as its stored elements, where it is stored
    /// data read along its own rows (`Expr::stored_row`; leaves have no
    /// row cache to bypass). Read by the float product's kernel and the
    /// packing of large products.
    #[inline(always)]
    pub(crate) fn stored_row<T, O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<&[T]>
    where
        E: Expr<T>,
    {
        self.0.stored_row::<O>(outer)
    }

    /// Row `outer` of the child as the elementwise product of two stored
    /// rows (`Expr::stored_factors`; stored rows have no cache to bypass).
    #[inline(always)]
    pub(crate) fn stored_factors<T, O: Shape>(
        &self,
        outer: [usize; MAX_RANK],
    ) -> Option<(&[T], &[T])>
    where
        E: Expr<T>,
    {
        self.0.stored_factors::<O>(outer)
    }

    /// Row `outer` read through the child's caches: right only where the
    /// node reads, for each output row, exactly the child row that the
    /// output row itself reads (a reduction over the last axis with keepdim,
    /// as in softmax), so no other reader's cache moves under it. That is
    /// what lets a softmax's shared `exp(..)` be computed once.
    #[inline(always)]
    pub(crate) fn aligned_row<T, O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_
    where
        E: Expr<T>,
    {
        self.0.row::<O>(outer)
    }
}

/// A node's child that it reads fresh: the child's own reading and rows
/// (a product and a reduction keep their operands' rows counted at run
/// time; a product's walk is its own, [`super::Own::alone`]).
impl<T, E: Expr<T>> Child<T> for Fresh<E> {
    type Ref<'a>
        = &'a Fresh<E>
    where
        E: 'a;
    const READING: Reading = node::reading::<T, E>();
    #[inline(always)]
    fn visit_run_time_rows(child: &&Fresh<E>, visit: &mut impl FnMut(usize)) {
        node::visit_run_time_rows::<T, E>(&child.0, visit);
    }
}
