//! Borrowed views: `TensorView` and `TensorViewMut` give a shape to a slice the
//! user already owns (a `Vec`, a DMA buffer, a memory-mapped file). They are
//! operands and assignment targets exactly like tensors, and the way to work with
//! data too large for the stack.

use crate::element::Element;
use crate::error::{check_len, ShapeError};
use crate::shape::Shape;
use crate::tensor::Tensor;
use core::marker::PhantomData;

/// A shared view of `S::LEN` row-major elements with shape `S`.
///
/// ```
/// use tensor_expr_runtime::{TensorView, D};
/// let data = [1., 2., 3., 4., 5., 6.];
/// let v = TensorView::<f64, (D<2>, D<3>)>::try_from_slice(&data)?;
/// assert_eq!(v[[1, 0]], 4.0);
/// let err = TensorView::<f64, (D<4>,)>::try_from_slice(&data).unwrap_err();
/// assert_eq!((err.expected, err.actual), (4, 6));
/// # Ok::<(), tensor_expr_runtime::ShapeError>(())
/// ```
pub struct TensorView<'a, T, S> {
    data: &'a [T],
    shape: PhantomData<S>,
}

/// A mutable view of `S::LEN` row-major elements with shape `S`; it can be the
/// target of `tensor_expr!(out = ...)` and `out += ...`.
pub struct TensorViewMut<'a, T, S> {
    data: &'a mut [T],
    shape: PhantomData<S>,
}

impl<'a, T, S: Shape> TensorView<'a, T, S> {
    /// Views `data`, which must hold exactly `S::LEN` elements.
    pub fn try_from_slice(data: &'a [T]) -> Result<Self, ShapeError> {
        check_len::<S>(data.len())?;
        Ok(Self::from_exact(data))
    }

    pub(crate) fn from_exact(data: &'a [T]) -> Self {
        TensorView {
            data,
            shape: PhantomData,
        }
    }

    /// The dims, outermost first.
    #[inline]
    pub const fn shape(&self) -> &'static [usize] {
        S::DIMS
    }

    /// The elements in row-major order.
    #[inline]
    pub fn as_slice(&self) -> &'a [T] {
        self.data
    }

    /// Copies the viewed elements into an owned tensor.
    pub fn to_tensor(&self) -> Tensor<T, S>
    where
        T: Copy,
    {
        Tensor::from_fn(|index| self.data[position_or_panic::<S>(index)])
    }

    /// Copies the viewed elements into a tensor on the heap (features
    /// `alloc`, `std`).
    #[cfg(feature = "alloc")]
    pub fn to_heap(&self) -> crate::HeapTensor<T, S>
    where
        T: Clone,
    {
        crate::HeapTensor::from_vec_exact(self.data.to_vec())
    }

    /// The same elements viewed as shape `S2`, which must have as many
    /// (checked when the code is built): no copy.
    pub fn reshaped<S2: Shape>(&self) -> TensorView<'a, T, S2> {
        #[allow(clippy::let_unit_value)]
        let () = crate::shape::SameLen::<S, S2>::CHECKED;
        TensorView::from_exact(self.data)
    }
}

/// A view of the whole tensor.
impl<'a, T, S: Shape> From<&'a Tensor<T, S>> for TensorView<'a, T, S> {
    fn from(tensor: &'a Tensor<T, S>) -> Self {
        tensor.view()
    }
}

/// A shared view of the same elements.
impl<'a, T, S: Shape> From<&'a TensorViewMut<'_, T, S>> for TensorView<'a, T, S> {
    fn from(view: &'a TensorViewMut<'_, T, S>) -> Self {
        view.as_view()
    }
}

impl<T, S> Clone for TensorView<'_, T, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, S> Copy for TensorView<'_, T, S> {}

impl<'a, T, S: Shape> TensorViewMut<'a, T, S> {
    /// Views `data` mutably; it must hold exactly `S::LEN` elements.
    ///
    /// ```
    /// use tensor_expr_runtime::{TensorViewMut, D};
    /// let mut buffer = vec![0.0f32; 6];
    /// let mut v = TensorViewMut::<f32, (D<3>, D<2>)>::try_from_slice(&mut buffer)?;
    /// v[[2, 1]] = 1.0;
    /// assert_eq!(buffer[5], 1.0);
    /// # Ok::<(), tensor_expr_runtime::ShapeError>(())
    /// ```
    pub fn try_from_slice(data: &'a mut [T]) -> Result<Self, ShapeError> {
        check_len::<S>(data.len())?;
        Ok(Self::from_exact(data))
    }

    pub(crate) fn from_exact(data: &'a mut [T]) -> Self {
        TensorViewMut {
            data,
            shape: PhantomData,
        }
    }

    /// The dims, outermost first.
    #[inline]
    pub const fn shape(&self) -> &'static [usize] {
        S::DIMS
    }

    /// The elements in row-major order.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        self.data
    }

    /// The elements in row-major order, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self.data
    }

    /// A shared view of the same elements.
    #[inline]
    pub fn as_view(&self) -> TensorView<'_, T, S> {
        TensorView::from_exact(self.data)
    }
}

impl<T: Element, S: Shape> crate::kernel::Target for TensorViewMut<'_, T, S> {
    type Element = T;
    type Shape = S;
    #[inline]
    fn target_slice(&mut self) -> &mut [T] {
        self.data
    }
}

/// The flat position of `index`, panicking with both the index and the shape.
pub(crate) fn position_or_panic<S: Shape>(index: S::Index) -> usize {
    match S::flat_position(index) {
        Some(position) => position,
        None => out_of_bounds::<S>(index),
    }
}

/// The panic of an index outside shape `S`, naming both.
pub(crate) fn out_of_bounds<S: Shape>(index: S::Index) -> ! {
    panic!("index {:?} is out of bounds for shape {:?}", index, S::DIMS)
}

/// The read-only impls every tensor-like type shares, over its `as_slice`:
/// iteration, `Index`, `PartialEq`, `Debug`, `Display` and `IntoIterator` for
/// a reference.
macro_rules! impl_read_access {
    (impl[$($g:tt)*] $ty:ty => $owned:ident) => {
        impl<$($g)*> $ty where S: $crate::Shape {
            /// A tensor of the same shape holding `f` of each element (a new
            #[doc = concat!("`", stringify!($owned), "`).")]
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<f32, (D<3>,)>::new([0.5, -1.0, 2.0]);
            /// assert_eq!(x.map(|v| *v > 0.0).as_slice(), &[true, false, true]);
            /// ```
            pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> $crate::$owned<U, S> {
                let data = self.as_slice();
                $crate::$owned::from_flat_fn(|position| f(&data[position]))
            }

            /// Every element converted to `U` as Rust's `as` converts numbers
            /// ([`Cast`](crate::element::Cast)): floats to integers round
            /// toward zero and saturate (NaN gives 0), integers wrap into a
            /// narrower integer type, and anything to a float rounds to
            /// nearest.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<f32, (D<4>,)>::new([1.7, -1.7, 300.0, f32::NAN]);
            /// assert_eq!(x.cast::<u8>().as_slice(), &[1, 0, 255, 0]);
            /// assert_eq!(x.cast::<i32>().as_slice(), &[1, -1, 300, 0]);
            /// ```
            pub fn cast<U>(&self) -> $crate::$owned<U, S>
            where
                T: $crate::element::Cast<U> + Copy,
            {
                self.map(|&x| x.cast())
            }

            /// The elements in row-major order.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<i32, (D<2>, D<2>)>::new([[1, 2], [3, 4]]);
            /// assert_eq!(x.iter().sum::<i32>(), 10);
            /// ```
            #[inline]
            pub fn iter(&self) -> core::slice::Iter<'_, T> {
                self.as_slice().iter()
            }

            /// Each element with its multi-index, in row-major order.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<i32, (D<2>, D<2>)>::new([[1, 2], [3, 4]]);
            /// let (index, _) = x.iter_indexed().find(|&(_, &v)| v == 3).unwrap();
            /// assert_eq!(index, [1, 0]);
            /// ```
            pub fn iter_indexed(&self) -> impl Iterator<Item = (S::Index, &T)> + '_ {
                self.as_slice()
                    .iter()
                    .enumerate()
                    .map(|(position, x)| (S::multi_index(position), x))
            }

            /// The position of the largest element along `AXIS` (NumPy's
            /// `argmax(x, axis=AXIS)`), for each line along it: the first
            /// on ties, the first NaN's where a line holds one. An empty
            /// axis is an error when the code is built.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<f32, (D<2>, D<3>)>::new([[1., 5., 5.], [f32::NAN, 9., 0.]]);
            /// assert_eq!(x.argmax::<1>().as_slice(), &[1, 0]);
            /// assert_eq!(x.argmax::<0>().as_slice(), &[1, 1, 0]);
            /// ```
            pub fn argmax<const AXIS: usize>(&self) -> $crate::Tensor<usize, <S as $crate::slice::RemoveAxis<AXIS>>::Removed>
            where
                S: $crate::slice::RemoveAxis<AXIS>,
                T: PartialOrd,
            {
                $crate::Tensor::from_flat_fn($crate::arg::arg_extreme::<T, S, AXIS>(self.as_slice(), $crate::arg::Extreme::Largest))
            }

            /// The position of the smallest element along `AXIS` (NumPy's
            /// `argmin`), with [`Self::argmax`]'s rules.
            pub fn argmin<const AXIS: usize>(&self) -> $crate::Tensor<usize, <S as $crate::slice::RemoveAxis<AXIS>>::Removed>
            where
                S: $crate::slice::RemoveAxis<AXIS>,
                T: PartialOrd,
            {
                $crate::Tensor::from_flat_fn($crate::arg::arg_extreme::<T, S, AXIS>(self.as_slice(), $crate::arg::Extreme::Smallest))
            }

            /// [`Self::argmax`] with the axis kept as a size-1 `One`
            /// (`keepdims=True`), so the result broadcasts against `self`.
            pub fn argmax_keepdim<const AXIS: usize>(&self) -> $crate::Tensor<usize, <S as $crate::slice::KeepAxis<AXIS>>::Kept>
            where
                S: $crate::slice::KeepAxis<AXIS>,
                T: PartialOrd,
            {
                $crate::Tensor::from_flat_fn($crate::arg::arg_extreme::<T, S, AXIS>(self.as_slice(), $crate::arg::Extreme::Largest))
            }

            /// [`Self::argmin`] with the axis kept as a size-1 `One`.
            pub fn argmin_keepdim<const AXIS: usize>(&self) -> $crate::Tensor<usize, <S as $crate::slice::KeepAxis<AXIS>>::Kept>
            where
                S: $crate::slice::KeepAxis<AXIS>,
                T: PartialOrd,
            {
                $crate::Tensor::from_flat_fn($crate::arg::arg_extreme::<T, S, AXIS>(self.as_slice(), $crate::arg::Extreme::Smallest))
            }

            /// The elements in row-major order, copied into a vector
            /// (features `alloc`, `std`).
            #[cfg(feature = "alloc")]
            pub fn to_vec(&self) -> alloc::vec::Vec<T>
            where
                T: Clone,
            {
                self.as_slice().to_vec()
            }
        }
        impl<'r, $($g)*> IntoIterator for &'r $ty where S: $crate::Shape {
            type Item = &'r T;
            type IntoIter = core::slice::Iter<'r, T>;
            fn into_iter(self) -> Self::IntoIter {
                self.as_slice().iter()
            }
        }
        impl<$($g)*> core::ops::Index<S::Index> for $ty where S: $crate::Shape {
            type Output = T;
            fn index(&self, index: S::Index) -> &T {
                &self.as_slice()[$crate::view::position_or_panic::<S>(index)]
            }
        }
        impl<$($g)*> PartialEq for $ty where S: $crate::Shape, T: PartialEq {
            fn eq(&self, other: &Self) -> bool {
                self.as_slice() == other.as_slice()
            }
        }
        impl<$($g)*> core::fmt::Display for $ty
        where S: $crate::Shape, T: $crate::fmt::DisplayElement {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                $crate::fmt::write_display(f, self.as_slice(), S::DIMS)
            }
        }
        impl<$($g)*> core::fmt::Debug for $ty
        where S: $crate::Shape, T: core::fmt::Debug {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                $crate::fmt::write_debug(f, self.as_slice(), S::DIMS)
            }
        }
    };
}
pub(crate) use impl_read_access;

impl_read_access!(impl['a, T, S] TensorView<'a, T, S> => Tensor);
impl_read_access!(impl['a, T, S] TensorViewMut<'a, T, S> => Tensor);

/// What every mutable tensor-like type adds, over its `as_mut_slice`:
/// `iter_mut`, `IndexMut` and `IntoIterator` for a mutable reference.
macro_rules! impl_write_access {
    (impl[$($g:tt)*] $ty:ty) => {
        impl<$($g)*> $ty where S: $crate::Shape {
            /// The elements in row-major order, mutably.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let mut x = Tensor::<i32, (D<3>,)>::new([1, 2, 3]);
            /// x.iter_mut().for_each(|v| *v *= 10);
            /// assert_eq!(x.as_slice(), &[10, 20, 30]);
            /// ```
            #[inline]
            pub fn iter_mut(&mut self) -> core::slice::IterMut<'_, T> {
                self.as_mut_slice().iter_mut()
            }
        }
        impl<'r, $($g)*> IntoIterator for &'r mut $ty where S: $crate::Shape {
            type Item = &'r mut T;
            type IntoIter = core::slice::IterMut<'r, T>;
            fn into_iter(self) -> Self::IntoIter {
                self.as_mut_slice().iter_mut()
            }
        }
        impl<$($g)*> core::ops::IndexMut<S::Index> for $ty where S: $crate::Shape {
            fn index_mut(&mut self, index: S::Index) -> &mut T {
                let position = $crate::view::position_or_panic::<S>(index);
                &mut self.as_mut_slice()[position]
            }
        }
    };
}
pub(crate) use impl_write_access;

impl_write_access!(impl['a, T, S] TensorViewMut<'a, T, S>);
crate::slice::impl_slicing!(impl['a, T, S] TensorView<'a, T, S>, 'a);
crate::slice::impl_slicing!(impl['a, T, S] TensorViewMut<'a, T, S>, '_);

/// Calls `$mac!(impl[generics] Type)` for every container: the one list that
/// features adding methods to all of them (the interop modules) go through,
/// so a new container is one line here.
#[allow(unused_macros)] // used by the optional features only
macro_rules! for_each_container {
    ($mac:ident) => {
        $mac!(impl[T, S] $crate::Tensor<T, S>);
        #[cfg(feature = "alloc")]
        $mac!(impl[T, S] $crate::HeapTensor<T, S>);
        $mac!(impl['a, T, S] $crate::TensorView<'a, T, S>);
        $mac!(impl['a, T, S] $crate::TensorViewMut<'a, T, S>);
    };
}
#[allow(unused_imports)]
pub(crate) use for_each_container;

/// Calls `$mac!(impl[generics] Type)` for every container that can be written.
#[allow(unused_macros)] // used by the optional features only
macro_rules! for_each_mutable_container {
    ($mac:ident) => {
        $mac!(impl[T, S] $crate::Tensor<T, S>);
        #[cfg(feature = "alloc")]
        $mac!(impl[T, S] $crate::HeapTensor<T, S>);
        $mac!(impl['a, T, S] $crate::TensorViewMut<'a, T, S>);
    };
}
#[allow(unused_imports)]
pub(crate) use for_each_mutable_container;

macro_rules! view_operand {
    ($($view:ident),*) => {$(
        /// An operand of any expression: one over another element type than
        /// `U` is rejected through
        /// [`SameElement`](crate::rules::elements::SameElement).
        #[diagnostic::do_not_recommend]
        impl<T, U: Element + crate::rules::elements::SameElement<T>, S: Shape> crate::expr::Operand<T> for $view<'_, U, S> {
            type Element = U::Checked;
            type Shape = S;
            type Layout = crate::expr::RowMajor<S>;
            type Placement = crate::placement::Stack;
            #[inline]
            fn elements(&self) -> &[U::Checked] {
                U::data(self.as_slice())
            }
        }

        impl<T: Element, S: Shape> crate::expr::ElementSource for $view<'_, T, S> {
            type Element = T;
        }
    )*};
}
view_operand!(TensorView, TensorViewMut);
