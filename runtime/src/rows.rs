//! Tensors with run-time rows: views and `HeapTensor`s of a shape whose first
//! dim is [`Dyn`] (`Shape![Dyn, 784]`), their constructors, row access, and
//! their impls as operands and targets.
//!
//! A `(Dyn, ..)` shape is a [`RowsShape`], not a [`Shape`]: it has no
//! compile-time element count, so the containers' methods over `Shape` do
//! not apply to it, and these are written for it alone (one set per rank, by
//! `impl_rows_containers!`; rustc tells the two apart since `Dyn` is no
//! [`Dim`]). Where a static container's method would take the same
//! arguments, one generic method serves both (`try_from_slice`,
//! `try_from_vec`, `as_slice`, `view`, `into_vec`, .., over
//! [`TensorShape`](crate::error::TensorShape)), so a call whose shape is
//! inferred still finds one; the constructors that need
//! a row count are named for it (`zeros_rows`, `from_fn_rows`). The length
//! of the data gives the rows: a constructor checks that it is whole rows,
//! and a row is never empty (`RowsShape::ITEM_LEN`).
//!
//! In an expression such an operand is a leaf of shape `(RunTime, ..)`
//! whose placement carries its row count ([`Rows`]), so the result has as
//! many rows, on the heap; two of them are checked against each other
//! (`crate::placement`).

use crate::access::{Operand, RowMajor, Rows};
use crate::dim::{Dim, Dyn, RunTime};
use crate::element::Element;
use crate::rules::elements::SameElement;
use crate::shape::{RowsShape, Shape};
use crate::view::{TensorView, TensorViewMut};
#[cfg(feature = "alloc")]
use crate::{aligned::AlignedBox, heap::HeapTensor};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// The rows of `len` elements of shape `S`.
#[inline]
fn rows_of<S: RowsShape>(len: usize) -> usize {
    len / S::ITEM_LEN
}

/// Where `index` (`[row, ..]`) is in row-major data of `rows` rows of
/// shape `S`; panics, naming the index and the shape, if it is out of range.
#[track_caller]
fn position<S: RowsShape>(index: &[usize], rows: usize) -> usize {
    let mut item = <S::Item as Shape>::Index::default();
    item.as_mut().copy_from_slice(&index[1..]);
    match <S::Item as Shape>::flat_position(item) {
        Some(within) if index[0] < rows => index[0] * S::ITEM_LEN + within,
        _ => panic!(
            "index {index:?} is out of bounds for {rows} rows of shape {:?}",
            <S::Item as Shape>::DIMS
        ),
    }
}

/// Row `i` of `rows` rows; panics if it is out of range.
#[track_caller]
fn row_range<S: RowsShape>(i: usize, rows: usize) -> core::ops::Range<usize> {
    assert!(i < rows, "row {i} is out of range for {rows} rows");
    i * S::ITEM_LEN..(i + 1) * S::ITEM_LEN
}

/// `argmax` or `argmin` along `AXIS` of `rows` rows of row-major `data`
/// whose node shape is `N`: one position per line along the axis.
#[cfg(feature = "alloc")]
#[track_caller]
fn arg_of<T: PartialOrd, N: Shape, const AXIS: usize, S>(
    data: &[T],
    rows: usize,
    extreme: crate::arg::Extreme,
) -> HeapTensor<usize, S> {
    let len = if AXIS == 0 { rows } else { N::DIMS[AXIS] };
    assert!(
        len > 0,
        "`argmax` / `argmin` over an axis of size 0: there is no position to give"
    );
    let line = crate::arg::arg_extreme_along::<T, N, AXIS>(data, len, extreme);
    HeapTensor::from_aligned(AlignedBox::from_fn(data.len() / len, line))
}

/// The constructors that count rows, one for every rank (a call whose shape
/// is inferred finds one).
#[cfg(feature = "alloc")]
impl<T, S: RowsShape> HeapTensor<T, S> {
    /// `rows` rows of zeros.
    ///
    /// ```
    /// use tensor_expr_runtime::{Dyn, HeapTensor, D};
    /// let batch = HeapTensor::<f32, (Dyn, D<784>)>::zeros_rows(7);
    /// assert_eq!((batch.rows(), batch.as_slice().len()), (7, 7 * 784));
    /// ```
    pub fn zeros_rows(rows: usize) -> Self
    where
        T: Element,
    {
        Self::full_rows(rows, T::ZERO)
    }

    /// `rows` rows with every element `value`.
    pub fn full_rows(rows: usize, value: T) -> Self
    where
        T: Clone,
    {
        HeapTensor::from_aligned(AlignedBox::from_fn(
            rows * <S as RowsShape>::ITEM_LEN,
            |_| value.clone(),
        ))
    }

    /// `rows` rows, each element built from its multi-index in
    /// row-major order (the row first).
    ///
    /// ```
    /// use tensor_expr_runtime::{Dyn, HeapTensor, D};
    /// let t = HeapTensor::<usize, (Dyn, D<3>)>::from_fn_rows(2, |[i, j]| 10 * i + j);
    /// assert_eq!(t.as_slice(), &[0, 1, 2, 10, 11, 12]);
    /// ```
    pub fn from_fn_rows(rows: usize, mut f: impl FnMut(<S::Nodes as Shape>::Index) -> T) -> Self {
        let item = <S as RowsShape>::ITEM_LEN;
        HeapTensor::from_aligned(AlignedBox::from_fn(rows * item, |p| {
            let within = <<S as RowsShape>::Item as Shape>::multi_index(p % item);
            let mut index = <S::Nodes as Shape>::Index::default();
            index.as_mut()[0] = p / item;
            index.as_mut()[1..].copy_from_slice(within.as_ref());
            f(index)
        }))
    }

    /// The rows an iterator gives, each as nested arrays of the row's
    /// shape (`[f32; 3]` for a point of `(Dyn, D<3>)`).
    ///
    /// ```
    /// use tensor_expr_runtime::{Dyn, HeapTensor, D};
    /// let points = HeapTensor::<f32, (Dyn, D<3>)>::from_rows([[0., 1., 2.], [3., 4., 5.]]);
    /// assert_eq!(points.rows(), 2);
    /// assert_eq!(points[[1, 2]], 5.);
    /// ```
    pub fn from_rows(
        rows: impl IntoIterator<Item = <<S as RowsShape>::Item as Shape>::Storage<T>>,
    ) -> Self
    where
        T: Clone,
    {
        let mut data = Vec::new();
        for row in rows {
            data.extend_from_slice(<<S as RowsShape>::Item as Shape>::flat(&row));
        }
        HeapTensor::from_aligned(AlignedBox::from_vec(data))
    }
}

/// The methods and impls of the containers of one rank of `(Dyn, $a..)`.
macro_rules! impl_rows_containers {
    ($($a:ident)*) => {
        impl_rows_containers!(@view [$($a)*] (Dyn, $($a,)*) (RunTime, $($a,)*));
        #[cfg(feature = "alloc")]
        impl_rows_containers!(@heap [$($a)*] (Dyn, $($a,)*) (RunTime, $($a,)*));
    };
    (@view [$($a:ident)*] $s:tt $nodes:tt) => {
        impl<'a, T, $($a: Dim),*> TensorView<'a, T, $s> {
            /// The number of rows: the size of the `Dyn` dim.
            #[inline]
            pub fn rows(&self) -> usize {
                rows_of::<$s>(self.elements().len())
            }

            /// The dims, outermost first, the rows first.
            #[inline]
            pub fn shape(&self) -> <$nodes as Shape>::Index {
                let mut dims = <$nodes as Shape>::Index::default();
                dims.as_mut().copy_from_slice(<$nodes as Shape>::DIMS);
                dims.as_mut()[0] = self.rows();
                dims
            }

            /// Row `i`, a view of static shape; panics if `i` is out of range.
            #[track_caller]
            pub fn at(&self, i: usize) -> TensorView<'a, T, <$s as RowsShape>::Item> {
                TensorView::wrap(&self.elements()[row_range::<$s>(i, self.rows())])
            }

            /// [`Self::at`], or `None` if `i` is out of range.
            pub fn try_at(&self, i: usize) -> Option<TensorView<'a, T, <$s as RowsShape>::Item>> {
                (i < self.rows()).then(|| self.at(i))
            }

            /// The rows in order, each a view of static shape.
            pub fn iter_rows(&self) -> impl ExactSizeIterator<Item = TensorView<'a, T, <$s as RowsShape>::Item>> + 'a {
                self.elements().chunks_exact(<$s as RowsShape>::ITEM_LEN).map(TensorView::wrap)
            }

            /// A copy on the heap.
            #[cfg(feature = "alloc")]
            pub fn to_heap(&self) -> HeapTensor<T, $s>
            where
                T: Clone,
            {
                HeapTensor::from_aligned(AlignedBox::from_fn(self.elements().len(), |p| self.elements()[p].clone()))
            }
        }

        impl<T, $($a: Dim),*> core::ops::Index<<$nodes as Shape>::Index> for TensorView<'_, T, $s> {
            type Output = T;
            #[track_caller]
            fn index(&self, index: <$nodes as Shape>::Index) -> &T {
                &self.elements()[position::<$s>(index.as_ref(), self.rows())]
            }
        }

        impl<T: core::fmt::Debug, $($a: Dim),*> core::fmt::Debug for TensorView<'_, T, $s> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct("TensorView")
                    .field("shape", &self.shape())
                    .field("data", &self.elements())
                    .finish()
            }
        }

        impl_rows_containers!(@operand [$($a)*] impl['a] TensorView<'a, T, $s>, $nodes);
        impl_rows_containers!(@operand [$($a)*] impl['a] TensorViewMut<'a, T, $s>, $nodes);
        impl_rows_containers!(@target [$($a)*] impl['a] TensorViewMut<'a, T, $s>, $nodes);
        impl_rows_containers!(@writable [$($a)*] impl['a] TensorViewMut<'a, T, $s>, $s, $nodes);
        #[cfg(feature = "alloc")]
        impl_rows_containers!(@read [$($a)*] impl['a] TensorView<'a, T, $s>, $nodes);
        #[cfg(feature = "alloc")]
        impl_rows_containers!(@read [$($a)*] impl['a] TensorViewMut<'a, T, $s>, $nodes);
    };
    (@heap [$($a:ident)*] $s:tt $nodes:tt) => {
        impl<T, $($a: Dim),*> HeapTensor<T, $s> {
            /// The dims, outermost first, the rows first.
            #[inline]
            pub fn shape(&self) -> <$nodes as Shape>::Index {
                self.view().shape()
            }

        }

        impl<T: PartialEq, $($a: Dim),*> PartialEq for HeapTensor<T, $s> {
            fn eq(&self, other: &Self) -> bool {
                self.elements() == other.elements()
            }
        }

        impl<T: core::fmt::Debug, $($a: Dim),*> core::fmt::Debug for HeapTensor<T, $s> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct("HeapTensor")
                    .field("shape", &self.shape())
                    .field("data", &self.elements())
                    .finish()
            }
        }

        impl_rows_containers!(@operand [$($a)*] impl[] HeapTensor<T, $s>, $nodes);
        impl_rows_containers!(@target [$($a)*] impl[] HeapTensor<T, $s>, $nodes);
        impl_rows_containers!(@writable [$($a)*] impl[] HeapTensor<T, $s>, $s, $nodes);
        impl_rows_containers!(@read [$($a)*] impl[] HeapTensor<T, $s>, $nodes);
    };
    (@writable [$($a:ident)*] impl[$($life:lifetime)?] $ty:ty, $s:ty, $nodes:ty) => {
        /// Row access of a writable container of run-time rows.
        impl<$($life,)? T, $($a: Dim),*> $ty {
            /// The number of rows: the size of the `Dyn` dim.
            #[inline]
            pub fn rows(&self) -> usize {
                rows_of::<$s>(self.elements().len())
            }

            /// Row `i`, a view of static shape; panics if `i` is out of range.
            #[track_caller]
            pub fn at(&self, i: usize) -> TensorView<'_, T, <$s as RowsShape>::Item> {
                TensorView::wrap(&self.elements()[row_range::<$s>(i, self.rows())])
            }

            /// Row `i`, mutably; panics if `i` is out of range.
            #[track_caller]
            pub fn at_mut(&mut self, i: usize) -> TensorViewMut<'_, T, <$s as RowsShape>::Item> {
                let range = row_range::<$s>(i, self.rows());
                TensorViewMut::wrap(&mut self.elements_mut()[range])
            }

            /// The rows in order, each a view of static shape.
            pub fn iter_rows(&self) -> impl ExactSizeIterator<Item = TensorView<'_, T, <$s as RowsShape>::Item>> {
                self.elements().chunks_exact(<$s as RowsShape>::ITEM_LEN).map(TensorView::wrap)
            }

            /// The rows in order, mutably, each a view of static shape.
            pub fn iter_rows_mut(&mut self) -> impl ExactSizeIterator<Item = TensorViewMut<'_, T, <$s as RowsShape>::Item>> {
                self.elements_mut().chunks_exact_mut(<$s as RowsShape>::ITEM_LEN).map(TensorViewMut::wrap)
            }
        }

        impl<$($life,)? T, $($a: Dim),*> core::ops::Index<<$nodes as Shape>::Index> for $ty {
            type Output = T;
            #[track_caller]
            fn index(&self, index: <$nodes as Shape>::Index) -> &T {
                &self.elements()[position::<$s>(index.as_ref(), self.rows())]
            }
        }

        impl<$($life,)? T, $($a: Dim),*> core::ops::IndexMut<<$nodes as Shape>::Index> for $ty {
            #[track_caller]
            fn index_mut(&mut self, index: <$nodes as Shape>::Index) -> &mut T {
                let position = position::<$s>(index.as_ref(), self.rows());
                &mut self.elements_mut()[position]
            }
        }
    };
    (@read [$($a:ident)*] impl[$($life:lifetime)?] $ty:ty, $nodes:ty) => {
        impl<$($life,)? T: PartialOrd, $($a: Dim),*> $ty {
            /// The position of the largest element along `AXIS` (NumPy's
            /// `argmax`: the first of equal ones, a NaN's if there is one),
            /// a `HeapTensor` of the other dims: still `Dyn` first for an
            /// `AXIS` after the rows, static along the rows (which panics
            /// where there are none: there is no position to give).
            ///
            /// ```
            /// use tensor_expr_runtime::{Dyn, HeapTensor, D};
            /// let scores = HeapTensor::<f32, (Dyn, D<3>)>::from_rows([[0., 5., 1.], [7., 2., 3.]]);
            /// assert_eq!(scores.argmax::<1>().as_slice(), &[1, 0]);
            /// assert_eq!(scores.argmax::<0>().as_slice(), &[1, 0, 1]);
            /// ```
            #[track_caller]
            pub fn argmax<const AXIS: usize>(&self) -> HeapTensor<usize, <<$nodes as crate::slice::RemoveAxis<AXIS>>::Removed as Shape>::Spelled>
            where
                $nodes: crate::slice::RemoveAxis<AXIS>,
            {
                arg_of::<T, $nodes, AXIS, _>(self.as_slice(), self.rows(), crate::arg::Extreme::Largest)
            }

            /// The position of the smallest element along `AXIS` (NumPy's
            /// `argmin`), with [`Self::argmax`]'s rules.
            #[track_caller]
            pub fn argmin<const AXIS: usize>(&self) -> HeapTensor<usize, <<$nodes as crate::slice::RemoveAxis<AXIS>>::Removed as Shape>::Spelled>
            where
                $nodes: crate::slice::RemoveAxis<AXIS>,
            {
                arg_of::<T, $nodes, AXIS, _>(self.as_slice(), self.rows(), crate::arg::Extreme::Smallest)
            }
        }
    };
    (@target [$($a:ident)*] impl[$($life:lifetime)?] $ty:ty, $nodes:ty) => {
        /// A target of shape `(RunTime, ..)` whose placement is its rows.
        impl<$($life,)? T: Element, $($a: Dim),*> crate::access::Target for $ty {
            type Element = T;
            type Shape = $nodes;
            type Placement = Rows;
            #[inline]
            fn target_slice(&mut self) -> &mut [T] {
                self.as_mut_slice()
            }
            #[inline]
            fn placement(&self) -> Rows {
                Rows {
                    rows: self.rows(),
                    dims: <$nodes as Shape>::DIMS,
                }
            }
        }
    };
    (@operand [$($a:ident)*] impl[$($life:lifetime)?] $ty:ty, $nodes:ty) => {
        /// An operand of shape `(RunTime, ..)` whose placement is its rows.
        #[diagnostic::do_not_recommend]
        impl<$($life,)? T, X, $($a: Dim),*> Operand<X> for $ty
        where
            T: Element + SameElement<X>,
        {
            type Element = T::Checked;
            type Shape = $nodes;
            type Layout = RowMajor<$nodes>;
            type Placement = Rows;
            #[inline]
            fn elements(&self) -> &[T::Checked] {
                T::data(self.as_slice())
            }
            #[inline]
            fn placement(&self) -> Rows {
                Rows {
                    rows: self.rows(),
                    dims: <$nodes as Shape>::DIMS,
                }
            }
        }

        impl<$($life,)? T: Element, $($a: Dim),*> crate::access::ElementSource for $ty {
            type Element = T;
        }
    };
}

impl_rows_containers!();
impl_rows_containers!(A1);
impl_rows_containers!(A1 A2);
impl_rows_containers!(A1 A2 A3);
impl_rows_containers!(A1 A2 A3 A4);
impl_rows_containers!(A1 A2 A3 A4 A5);
