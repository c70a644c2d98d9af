//! `HeapTensor`: a tensor whose elements live on the heap (feature `alloc`).
//!
//! A `Tensor` stores its elements inline, which is right for the small shapes
//! of embedded and real-time code and wrong for a `[4096, 4096]` matrix (64 MiB
//! on the stack). A `HeapTensor` holds the same row-major elements in one boxed
//! slice, allocated directly on the heap (never built on the stack first), and
//! is an operand and an assignment target like a tensor, so
//! `tensor_expr!(big = relu(a * 2.0 + b))` runs with a small stack: the nest
//! itself keeps nothing but indices and a few accumulators there.

use crate::element::Element;
use crate::error::{check_len, ShapeError};
use crate::shape::Shape;
use crate::view::{impl_read_access, position_or_panic, TensorView, TensorViewMut};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::marker::PhantomData;

/// A tensor of shape `S` with its elements on the heap.
///
/// ```
/// use tensor_expr_runtime::{HeapTensor, D};
/// let mut big = HeapTensor::<f32, (D<1024>, D<1024>)>::zeros();
/// big[[3, 4]] = 1.5;
/// assert_eq!(big.as_slice()[3 * 1024 + 4], 1.5);
/// assert_eq!(big.shape(), &[1024, 1024]);
/// ```
#[derive(Clone)]
pub struct HeapTensor<T, S> {
    data: Box<[T]>,
    shape: PhantomData<S>,
}

impl<T: Clone, S: Shape> HeapTensor<T, S> {
    /// Every element set to `value`.
    pub fn full(value: T) -> Self {
        Self::from_exact(alloc::vec![value; S::LEN])
    }

    /// Copies the row-major elements of a slice; its length must be `S::LEN`.
    ///
    /// ```
    /// use tensor_expr_runtime::{HeapTensor, D};
    /// let error = HeapTensor::<f32, (D<2>, D<3>)>::try_from_slice(&[1.0; 5]).unwrap_err();
    /// assert_eq!((error.expected, error.actual), (6, 5));
    /// ```
    pub fn try_from_slice(data: &[T]) -> Result<Self, ShapeError> {
        check_len::<S>(data.len())?;
        Ok(Self::from_exact(data.to_vec()))
    }
}

impl<T: Element, S: Shape> HeapTensor<T, S> {
    /// Every element zero.
    pub fn zeros() -> Self {
        Self::full(T::ZERO)
    }
}

impl<T, S: Shape> HeapTensor<T, S> {
    /// Takes the row-major elements of a vector; its length must be `S::LEN`.
    pub fn try_from_vec(data: Vec<T>) -> Result<Self, ShapeError> {
        check_len::<S>(data.len())?;
        Ok(Self::from_exact(data))
    }

    /// Builds each element from its row-major position.
    pub fn from_flat_fn(f: impl FnMut(usize) -> T) -> Self {
        Self::from_exact((0..S::LEN).map(f).collect())
    }

    fn from_exact(data: Vec<T>) -> Self {
        debug_assert_eq!(data.len(), S::LEN);
        HeapTensor {
            data: data.into_boxed_slice(),
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
        &self.data
    }

    /// The elements in row-major order, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data
    }

    /// The elements as a vector (no copy).
    pub fn into_vec(self) -> Vec<T> {
        self.data.into_vec()
    }

    /// A borrowed view of the same shape.
    #[inline]
    pub fn view(&self) -> TensorView<'_, T, S> {
        TensorView::from_exact(&self.data)
    }

    /// A mutable borrowed view of the same shape.
    #[inline]
    pub fn view_mut(&mut self) -> TensorViewMut<'_, T, S> {
        TensorViewMut::from_exact(&mut self.data)
    }
}

impl<T, S: Shape> core::ops::IndexMut<S::Index> for HeapTensor<T, S> {
    fn index_mut(&mut self, index: S::Index) -> &mut T {
        &mut self.data[position_or_panic::<S>(index)]
    }
}

impl_read_access!(impl[T, S] HeapTensor<T, S>);

#[diagnostic::do_not_recommend]
impl<T: Element, S: Shape> crate::expr::Operand<T> for HeapTensor<T, S> {
    type Shape = S;
    #[inline]
    fn elements(&self) -> &[T] {
        &self.data
    }
}

impl<T: Element, S: Shape> crate::kernel::Target for HeapTensor<T, S> {
    type Element = T;
    type Shape = S;
    #[inline]
    fn target_slice(&mut self) -> &mut [T] {
        &mut self.data
    }
}
