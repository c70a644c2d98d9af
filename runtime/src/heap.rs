//! `HeapTensor`: a tensor whose elements live on the heap (feature `alloc`).
//!
//! A `Tensor` stores its elements inline, which is right for the small shapes
//! of embedded and real-time code and wrong for a `[4096, 4096]` matrix (64 MiB
//! on the stack). A `HeapTensor` holds the same row-major elements in one
//! block starting on a 64-byte boundary (see `aligned`), allocated directly on
//! the heap (never built on the stack first), and is an operand and an
//! assignment target like a tensor, so `tensor_expr!(big = relu(a * 2.0 + b))`
//! runs with a small stack: the nest itself keeps nothing but indices and a
//! few accumulators there.

use crate::aligned::AlignedBox;
use crate::element::Element;
use crate::error::ShapeError;
use crate::error::TensorShape;
use crate::shape::Shape;
use crate::tensor::Tensor;
use crate::view::{TensorView, TensorViewMut};
use alloc::vec::Vec;
use core::marker::PhantomData;

/// A tensor of shape `S` with its elements on the heap, the first on a
/// 64-byte boundary (one cache line, the widest x86 vector), as PyTorch and
/// Eigen align theirs: the fused loop's vector loads never straddle two
/// cache lines at a row's start.
///
/// ```
/// use tensor_expr_runtime::{HeapTensor, D};
/// let mut big = HeapTensor::<f32, (D<1024>, D<1024>)>::zeros();
/// big[[3, 4]] = 1.5;
/// assert_eq!(big.as_slice()[3 * 1024 + 4], 1.5);
/// assert_eq!(big.shape(), &[1024, 1024]);
/// assert_eq!(big.as_slice().as_ptr() as usize % 64, 0);
/// ```
#[derive(Clone)]
pub struct HeapTensor<T, S> {
    data: AlignedBox<T>,
    shape: PhantomData<S>,
}

impl<T: Clone, S: Shape> HeapTensor<T, S> {
    /// Every element set to `value`.
    pub fn full(value: T) -> Self {
        Self::from_flat_fn(|_| value.clone())
    }

    /// Clones `S::LEN` row-major elements (a length already checked).
    fn cloned(elements: &[T]) -> Self {
        Self::from_flat_fn(|position| elements[position].clone())
    }
}

impl<T: Element, S: Shape> HeapTensor<T, S> {
    /// Every element zero.
    pub fn zeros() -> Self {
        Self::full(T::ZERO)
    }
}

impl<T, S: Shape> HeapTensor<T, S> {
    /// Moves nested-array storage (`[[T; 3]; 2]` for a 2x3 shape) to the heap,
    /// as [`Tensor::new`] takes it. The array passes through the stack on its
    /// way: for big shapes, build with [`Self::from_fn`] or
    /// [`Self::try_from_vec`].
    pub fn new(data: S::Storage<T>) -> Self
    where
        T: Copy,
    {
        Tensor::<T, S>::new(data).to_heap()
    }

    /// Builds a tensor from each element's multi-index, in row-major order,
    /// like [`Tensor::from_fn`], directly on the heap. If `f` panics, the
    /// block is freed and the elements built so far are leaked, not
    /// dropped.
    ///
    /// ```
    /// use tensor_expr_runtime::{HeapTensor, D};
    /// let t = HeapTensor::<usize, (D<2>, D<3>)>::from_fn(|[i, j]| 10 * i + j);
    /// assert_eq!(t.as_slice(), &[0, 1, 2, 10, 11, 12]);
    /// ```
    pub fn from_fn(f: impl FnMut(S::Index) -> T) -> Self {
        // SAFETY: `fill_indexed` writes every one of the `LEN` slots.
        unsafe { Self::from_uninit(|slots| crate::shape::fill_indexed::<T, S>(slots, f)) }
    }

    /// Builds each element from its row-major position.
    pub fn from_flat_fn(f: impl FnMut(usize) -> T) -> Self {
        HeapTensor {
            data: AlignedBox::from_fn(S::LEN, f),
            shape: PhantomData,
        }
    }

    /// The same elements as shape `S2`, which must have as many (checked when
    /// the code is built): no copy. This is how a batch of one, `Shape![1,
    /// 16]` (whose first dim is [`One`](crate::One)), becomes a
    /// `Shape![B, 16]` for code generic over `const B: usize`.
    pub fn into_shape<S2: Shape>(self) -> HeapTensor<T, S2> {
        #[allow(clippy::let_unit_value)]
        let () = crate::shape::SameLen::<S, S2>::CHECKED;
        HeapTensor {
            data: self.data,
            shape: PhantomData,
        }
    }

    /// The same tensor with every `One` dim written `D<1>`, as
    /// [`Tensor::into_exact_dims`] (no copy).
    pub fn into_exact_dims(self) -> HeapTensor<T, S::ExactDims> {
        self.into_shape()
    }

    /// The element at `index`, or `None` if it is out of bounds.
    #[inline]
    pub fn get(&self, index: S::Index) -> Option<&T> {
        S::flat_position(index).map(|p| &self.data[p])
    }

    /// A tensor whose elements `fill` writes into uninitialised slots.
    ///
    /// # Safety
    /// `fill` writes every one of the `S::LEN` slots.
    pub(crate) unsafe fn from_uninit(fill: impl FnOnce(&mut [core::mem::MaybeUninit<T>])) -> Self {
        HeapTensor {
            // SAFETY: passed on from the caller.
            data: unsafe { AlignedBox::from_uninit(S::LEN, fill) },
            shape: PhantomData,
        }
    }

    /// The dims, outermost first.
    #[inline]
    pub const fn shape(&self) -> &'static [usize] {
        S::DIMS
    }
}

impl<T, S: TensorShape> HeapTensor<T, S> {
    /// The elements in row-major order.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }

    /// The elements in row-major order, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data
    }

    /// The elements as a vector (one copy of their bytes: a vector's block is
    /// not 64-byte aligned).
    pub fn into_vec(self) -> Vec<T> {
        self.data.into_vec()
    }

    /// A borrowed view of the same shape.
    #[inline]
    pub fn view(&self) -> TensorView<'_, T, S> {
        TensorView::wrap(&self.data)
    }

    /// A mutable borrowed view of the same shape.
    #[inline]
    pub fn view_mut(&mut self) -> TensorViewMut<'_, T, S> {
        TensorViewMut::wrap(&mut self.data)
    }

    /// Copies the row-major elements of a slice; its length must be
    /// `S::LEN`, or whole rows for a shape whose first dim is
    /// [`Dyn`](crate::Dyn).
    ///
    /// ```
    /// use tensor_expr_runtime::{HeapTensor, D};
    /// let error = HeapTensor::<f32, (D<2>, D<3>)>::try_from_slice(&[1.0; 5]).unwrap_err();
    /// assert_eq!((error.expected, error.actual), (6, 5));
    /// ```
    pub fn try_from_slice(data: &[T]) -> Result<Self, ShapeError>
    where
        T: Clone,
    {
        S::check_len(data.len())?;
        Ok(Self::from_aligned(AlignedBox::from_fn(data.len(), |p| {
            data[p].clone()
        })))
    }

    /// Takes the row-major elements of a vector; its length must be
    /// `S::LEN`, or whole rows for a shape whose first dim is
    /// [`Dyn`](crate::Dyn).
    /// They move into aligned storage: one copy of their bytes, and the
    /// vector's block is freed.
    ///
    /// ```
    /// use tensor_expr_runtime::{HeapTensor, D};
    /// let t = HeapTensor::<f32, (D<2>, D<2>)>::try_from_vec(vec![1., 2., 3., 4.])?;
    /// assert_eq!(t[[1, 0]], 3.);
    /// let error = HeapTensor::<f32, (D<2>, D<2>)>::try_from_vec(vec![1.]).unwrap_err();
    /// assert_eq!((error.expected, error.actual), (4, 1));
    /// # Ok::<(), tensor_expr_runtime::ShapeError>(())
    /// ```
    pub fn try_from_vec(data: Vec<T>) -> Result<Self, ShapeError> {
        S::check_len(data.len())?;
        Ok(Self::from_aligned(AlignedBox::from_vec(data)))
    }
}

impl<T, S> HeapTensor<T, S> {
    /// A tensor of `len` elements that `fill` writes into uninitialised
    /// slots (for a shape whose element count is known at run time).
    ///
    /// # Safety
    /// `fill` writes every one of the `len` slots.
    pub(crate) unsafe fn from_uninit_len(
        len: usize,
        fill: impl FnOnce(&mut [core::mem::MaybeUninit<T>]),
    ) -> Self {
        HeapTensor {
            // SAFETY: passed on from the caller.
            data: unsafe { AlignedBox::from_uninit(len, fill) },
            shape: PhantomData,
        }
    }

    /// Takes `data` as the elements, unchecked (for a shape whose element
    /// count is known at run time, checked by the caller).
    pub(crate) fn from_aligned(data: AlignedBox<T>) -> Self {
        HeapTensor {
            data,
            shape: PhantomData,
        }
    }

    /// The elements, whatever the shape.
    #[inline]
    pub(crate) fn elements(&self) -> &[T] {
        &self.data
    }

    /// The elements, mutably, whatever the shape.
    #[inline]
    pub(crate) fn elements_mut(&mut self) -> &mut [T] {
        &mut self.data
    }
}

impl<T, S: Shape> Tensor<T, S> {
    /// A copy of the elements on the heap (features `alloc`, `std`).
    pub fn to_heap(&self) -> HeapTensor<T, S>
    where
        T: Copy,
    {
        self.view().to_heap()
    }
}

impl<T, S: Shape> TensorView<'_, T, S> {
    /// Copies the viewed elements into a tensor on the heap (features
    /// `alloc`, `std`).
    pub fn to_heap(&self) -> HeapTensor<T, S>
    where
        T: Clone,
    {
        HeapTensor::cloned(self.as_slice())
    }
}

impl<T: Default + Clone, S: Shape> Default for HeapTensor<T, S> {
    fn default() -> Self {
        Self::full(T::default())
    }
}

/// A view of the whole tensor.
impl<'a, T, S: Shape> From<&'a HeapTensor<T, S>> for TensorView<'a, T, S> {
    fn from(tensor: &'a HeapTensor<T, S>) -> Self {
        tensor.view()
    }
}

/// Moves a stack tensor's elements to the heap (one copy).
impl<T: Copy, S: Shape> From<Tensor<T, S>> for HeapTensor<T, S> {
    fn from(tensor: Tensor<T, S>) -> Self {
        tensor.to_heap()
    }
}

/// [`HeapTensor::try_from_vec`].
impl<T, S: Shape> TryFrom<Vec<T>> for HeapTensor<T, S> {
    type Error = ShapeError;
    fn try_from(data: Vec<T>) -> Result<Self, ShapeError> {
        Self::try_from_vec(data)
    }
}
