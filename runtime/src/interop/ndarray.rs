//! `ndarray` interop (feature `ndarray`): a tensor's elements are row-major
//! and contiguous, which is ndarray's standard layout, so views convert both
//! ways without a copy; an ndarray view in another layout (transposed,
//! sliced with a step) cannot be a `TensorView` and gives an error, but any
//! array can be copied into a tensor.
//!
//! | from | to | how |
//! | ---- | -- | --- |
//! | any container | `ArrayView` / `ArrayViewMut` | `as_array_view()`, `as_array_view_mut()`: no copy |
//! | any container | `Array` | `to_ndarray()`; `HeapTensor` → `Array` by `From`, one copy of the bytes (the tensor's block is 64-byte aligned, an `Array` owns a `Vec`) |
//! | `ArrayView` / `ArrayViewMut` | `TensorView` / `TensorViewMut` | `TryFrom`: no copy; shape and layout checked |
//! | any `ArrayBase` | `Tensor` / `HeapTensor` | `try_from_ndarray(&array)`: a copy in logical order, any layout |
//!
//! The ndarray dimension type follows the rank: `Ix2` for a rank-2 shape
//! ([`NdShape::NdDim`]).

use crate::error::{ConversionError, Dims};
use crate::shape::Shape;
use crate::{HeapTensor, Tensor, TensorView, TensorViewMut};
use ndarray::{Array, ArrayBase, ArrayView, ArrayViewMut, Data, Dimension};

/// A shape's ndarray dimension type: `Ix0` for a scalar up to `Ix6`.
pub trait NdShape: Shape {
    /// The ndarray dimension of the same rank.
    type NdDim: Dimension;

    /// This shape's dims as an ndarray dimension.
    fn nd_dim() -> Self::NdDim {
        let mut dim = Self::NdDim::zeros(Self::RANK);
        dim.slice_mut().copy_from_slice(Self::DIMS);
        dim
    }
}

macro_rules! impl_nd_shape {
    ($($nd:ident: ($($d:ident),*);)*) => {$(
        impl<$($d: crate::Dim),*> NdShape for ($($d,)*) {
            type NdDim = ndarray::$nd;
        }
    )*};
}
impl_nd_shape! {
    Ix0: ();
    Ix1: (A0);
    Ix2: (A0, A1);
    Ix3: (A0, A1, A2);
    Ix4: (A0, A1, A2, A3);
    Ix5: (A0, A1, A2, A3, A4);
    Ix6: (A0, A1, A2, A3, A4, A5);
}

macro_rules! impl_to_ndarray {
    (impl[$($g:tt)*] $ty:ty { $($_:tt)* }) => {
        impl<$($g)*> $ty where S: NdShape {
            /// An ndarray view of the same elements, no copy.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<f32, (D<2>, D<3>)>::new([[1., 2., 3.], [4., 5., 6.]]);
            /// let a: ndarray::ArrayView2<f32> = x.as_array_view();
            /// assert_eq!(a.sum_axis(ndarray::Axis(0)).to_vec(), vec![5., 7., 9.]);
            /// ```
            pub fn as_array_view(&self) -> ArrayView<'_, T, S::NdDim> {
                array_view::<T, S>(self.as_slice())
            }

            /// A copy of the elements as an ndarray `Array` of the same shape.
            pub fn to_ndarray(&self) -> Array<T, S::NdDim>
            where
                T: Clone,
            {
                self.as_array_view().to_owned()
            }
        }
    };
}
crate::containers::for_each_container!(impl_to_ndarray);

macro_rules! impl_to_ndarray_mut {
    (impl[$($g:tt)*] $ty:ty { $($_:tt)* }) => {
        impl<$($g)*> $ty where S: NdShape {
            /// A mutable ndarray view of the same elements, no copy.
            pub fn as_array_view_mut(&mut self) -> ArrayViewMut<'_, T, S::NdDim> {
                ArrayViewMut::from_shape(S::nd_dim(), self.as_mut_slice())
                    .expect("a tensor holds exactly its shape's elements")
            }
        }
    };
}
crate::containers::for_each_container!(writable impl_to_ndarray_mut);

/// `Ok` if `actual` are the dims of `S`, else the error naming both.
fn check_dims<S: Shape>(actual: &[usize]) -> Result<(), ConversionError> {
    if actual == S::DIMS {
        Ok(())
    } else {
        Err(ConversionError::Shape {
            expected: S::DIMS,
            actual: Dims::new(actual),
        })
    }
}

/// The elements of an array of shape `S`, in logical (row-major) order, as
/// the `from_flat_fn` of a tensor copying it; the error if its shape differs.
fn elements_in_order<S: Shape, A: Data, D: Dimension>(
    array: &ArrayBase<A, D>,
) -> Result<impl FnMut(usize) -> A::Elem + '_, ConversionError>
where
    A::Elem: Clone,
{
    check_dims::<S>(array.shape())?;
    let mut elements = array.iter();
    Ok(move |_| {
        elements
            .next()
            .expect("an array of the same shape has as many elements")
            .clone()
    })
}

fn array_view<T, S: NdShape>(data: &[T]) -> ArrayView<'_, T, S::NdDim> {
    ArrayView::from_shape(S::nd_dim(), data).expect("a tensor holds exactly its shape's elements")
}

/// The same elements as an ndarray view of the same lifetime, no copy.
impl<'a, T, S: NdShape> From<TensorView<'a, T, S>> for ArrayView<'a, T, S::NdDim> {
    fn from(view: TensorView<'a, T, S>) -> Self {
        array_view::<T, S>(view.as_slice())
    }
}

/// Views a standard-layout ndarray view as a tensor view, no copy.
///
/// ```
/// use tensor_expr_runtime::{TensorView, D, error::ConversionError};
/// let a = ndarray::arr2(&[[1., 2., 3.], [4., 5., 6.]]);
/// let v = TensorView::<f64, (D<2>, D<3>)>::try_from(a.view())?;
/// assert_eq!(v[[1, 2]], 6.);
/// // Another shape, or a transposed (column-major) view: an error naming why.
/// let wrong = TensorView::<f64, (D<3>, D<2>)>::try_from(a.view()).unwrap_err();
/// assert_eq!(wrong.to_string(), "expected shape [3, 2], got shape [2, 3]");
/// let transposed = TensorView::<f64, (D<3>, D<2>)>::try_from(a.t()).unwrap_err();
/// assert!(matches!(transposed, ConversionError::NotRowMajor { .. }));
/// # Ok::<(), ConversionError>(())
/// ```
impl<'a, T, S: Shape, D: Dimension> TryFrom<ArrayView<'a, T, D>> for TensorView<'a, T, S> {
    type Error = ConversionError;
    fn try_from(array: ArrayView<'a, T, D>) -> Result<Self, ConversionError> {
        check_dims::<S>(array.shape())?;
        let data = array.to_slice().ok_or(ConversionError::NotRowMajor {
            shape: Dims::new(array.shape()),
        })?;
        Ok(TensorView::from_exact(data))
    }
}

/// Views a standard-layout mutable ndarray view as a mutable tensor view, no
/// copy: the target of `tensor_expr!(out = ...)` over an ndarray's memory.
impl<'a, T, S: Shape, D: Dimension> TryFrom<ArrayViewMut<'a, T, D>> for TensorViewMut<'a, T, S> {
    type Error = ConversionError;
    fn try_from(array: ArrayViewMut<'a, T, D>) -> Result<Self, ConversionError> {
        check_dims::<S>(array.shape())?;
        let shape = Dims::new(array.shape());
        let data = array
            .into_slice()
            .ok_or(ConversionError::NotRowMajor { shape })?;
        Ok(TensorViewMut::from_exact(data))
    }
}

impl<T: Clone, S: Shape> Tensor<T, S> {
    /// Copies any ndarray array of the same shape, in any layout, in its
    /// logical (row-major) order.
    ///
    /// ```
    /// use tensor_expr_runtime::{Tensor, D};
    /// let a = ndarray::arr2(&[[1, 2, 3], [4, 5, 6]]);
    /// let t = Tensor::<i32, (D<3>, D<2>)>::try_from_ndarray(&a.t())?;
    /// assert_eq!(t, Tensor::new([[1, 4], [2, 5], [3, 6]]));
    /// # Ok::<(), tensor_expr_runtime::error::ConversionError>(())
    /// ```
    pub fn try_from_ndarray<A, D>(array: &ArrayBase<A, D>) -> Result<Self, ConversionError>
    where
        A: Data<Elem = T>,
        D: Dimension,
    {
        Ok(Tensor::from_flat_fn(elements_in_order::<S, _, _>(array)?))
    }
}

impl<T: Clone, S: Shape> HeapTensor<T, S> {
    /// Copies any ndarray array of the same shape, in any layout, in its
    /// logical (row-major) order, directly to the heap.
    pub fn try_from_ndarray<A, D>(array: &ArrayBase<A, D>) -> Result<Self, ConversionError>
    where
        A: Data<Elem = T>,
        D: Dimension,
    {
        Ok(HeapTensor::from_flat_fn(elements_in_order::<S, _, _>(
            array,
        )?))
    }
}

/// Moves a heap tensor's elements into an ndarray `Array` (one copy of their
/// bytes: an `Array` owns a `Vec`, whose block is not 64-byte aligned).
///
/// ```
/// use tensor_expr_runtime::{HeapTensor, D};
/// let t = HeapTensor::<f32, (D<2>, D<2>)>::from_fn(|[i, j]| (2 * i + j) as f32);
/// let a: ndarray::Array2<f32> = t.into();
/// assert_eq!(a, ndarray::arr2(&[[0., 1.], [2., 3.]]));
/// ```
impl<T, S: NdShape> From<HeapTensor<T, S>> for Array<T, S::NdDim> {
    fn from(tensor: HeapTensor<T, S>) -> Self {
        Array::from_shape_vec(S::nd_dim(), tensor.into_vec())
            .expect("a tensor holds exactly its shape's elements")
    }
}
