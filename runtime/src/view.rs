//! Borrowed views: `TensorView` and `TensorViewMut` give a shape to a slice the
//! user already owns (a `Vec`, a DMA buffer, a memory-mapped file). They are
//! operands and assignment targets exactly like tensors, and the way to work with
//! data too large for the stack.

use crate::error::ShapeError;
use crate::error::TensorShape;
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

/// The check of [`TensorView::from_array`]: an array of `N` elements holds
/// a shape `S`.
struct ArrayFits<S, const N: usize>(PhantomData<S>);

impl<S: Shape, const N: usize> ArrayFits<S, N> {
    const CHECKED: () = assert!(
        N == S::LEN,
        "`TensorView::from_array`: the array's length is not the shape's element count"
    );
}

/// A mutable view of `S::LEN` row-major elements with shape `S`; it can be the
/// target of `tensor_expr!(out = ...)` and `out += ...`.
pub struct TensorViewMut<'a, T, S> {
    data: &'a mut [T],
    shape: PhantomData<S>,
}

impl<'a, T, S: Shape> TensorView<'a, T, S> {
    pub(crate) fn from_exact(data: &'a [T]) -> Self {
        TensorView {
            data,
            shape: PhantomData,
        }
    }

    /// Views a flat array of exactly `S::LEN` elements, with no run-time
    /// check: a `const fn`, so weights a converter wrote as a flat `static`
    /// array become a tensor operand in a `static` or `const` of their own,
    /// in flash on a microcontroller. An array of another length is a
    /// compile error: in a `static` or `const` as soon as it is checked,
    /// elsewhere when the program is built (`cargo check` does not evaluate
    /// the assertion there).
    ///
    /// ```
    /// use tensor_expr_runtime::{TensorView, D};
    /// static WEIGHTS: [i8; 6] = [1, -2, 3, -4, 5, -6];
    /// static W: TensorView<'static, i8, (D<2>, D<3>)> = TensorView::from_array(&WEIGHTS);
    /// assert_eq!(W[[1, 2]], -6);
    /// ```
    pub const fn from_array<const N: usize>(data: &'a [T; N]) -> Self {
        let () = ArrayFits::<S, N>::CHECKED;
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
}

impl<'a, S: Shape> TensorView<'a, i8, S> {
    /// Views `S::LEN` bytes of `bytes` from `offset` as `i8` elements, no
    /// copy: a `const fn`, so int8 weights that a generator wrote to a file
    /// become tensor operands in `static`s over one
    /// `include_bytes!` (what `tensor-expr-tflite` writes). A range past the
    /// end panics, at compile time in a `static` or `const`.
    ///
    /// ```
    /// use tensor_expr_runtime::{TensorView, D};
    /// static BYTES: [u8; 5] = [9, 1, 0xFF, 0x80, 2];
    /// static W: TensorView<'static, i8, (D<2>, D<2>)> = TensorView::from_i8_bytes(&BYTES, 1);
    /// assert_eq!(W.as_slice(), [1, -1, -128, 2]);
    /// ```
    pub const fn from_i8_bytes(bytes: &'a [u8], offset: usize) -> Self {
        assert!(
            offset <= bytes.len() && bytes.len() - offset >= S::LEN,
            "the bytes end before the tensor's last element"
        );
        let (_, tail) = bytes.split_at(offset);
        let (elements, _) = tail.split_at(S::LEN);
        // SAFETY: `i8` has the size and alignment of `u8`, and every byte is
        // a valid `i8`; the slice borrows `bytes` for `'a`.
        let data = unsafe { core::slice::from_raw_parts(elements.as_ptr().cast::<i8>(), S::LEN) };
        TensorView {
            data,
            shape: PhantomData,
        }
    }
}

impl<'a, T, S: Shape> TensorView<'a, T, S> {
    /// Copies the viewed elements into an owned tensor.
    pub fn to_tensor(&self) -> Tensor<T, S>
    where
        T: Copy,
    {
        Tensor::from_flat_fn(|position| self.data[position])
    }

    /// The same elements viewed as shape `S2`, which must have as many
    /// (checked when the code is built): no copy.
    pub fn reshaped<S2: Shape>(&self) -> TensorView<'a, T, S2> {
        #[allow(clippy::let_unit_value)]
        let () = crate::shape::SameLen::<S, S2>::CHECKED;
        TensorView::from_exact(self.data)
    }
}

/// Views of a whole tensor.
impl<T, S: Shape> Tensor<T, S> {
    /// A borrowed view of the whole tensor.
    #[inline]
    pub fn view(&self) -> TensorView<'_, T, S> {
        TensorView::from_exact(self.as_slice())
    }

    /// A mutable borrowed view of the whole tensor.
    #[inline]
    pub fn view_mut(&mut self) -> TensorViewMut<'_, T, S> {
        TensorViewMut::from_exact(self.as_mut_slice())
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

impl<'a, T, S: TensorShape> TensorView<'a, T, S> {
    /// Views `data`, which must hold exactly `S::LEN` elements, or, for a
    /// shape whose first dim is [`Dyn`](crate::Dyn), whole rows.
    pub fn try_from_slice(data: &'a [T]) -> Result<Self, ShapeError> {
        S::check_len(data.len())?;
        Ok(Self::wrap(data))
    }

    /// The elements in row-major order.
    #[inline]
    pub fn as_slice(&self) -> &'a [T] {
        self.data
    }
}

impl<'a, T, S: TensorShape> TensorViewMut<'a, T, S> {
    /// Views `data` mutably; it must hold exactly `S::LEN` elements, or,
    /// for a shape whose first dim is [`Dyn`](crate::Dyn), whole rows.
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
        S::check_len(data.len())?;
        Ok(Self::wrap(data))
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
        TensorView::wrap(self.data)
    }
}

impl<'a, T, S> TensorView<'a, T, S> {
    /// Views `data` as it is, unchecked (for a shape whose element count is
    /// known at run time, checked by the caller).
    pub(crate) const fn wrap(data: &'a [T]) -> Self {
        TensorView {
            data,
            shape: PhantomData,
        }
    }

    /// The elements, whatever the shape.
    #[inline]
    pub(crate) const fn elements(&self) -> &'a [T] {
        self.data
    }
}

impl<'a, T, S> TensorViewMut<'a, T, S> {
    /// Views `data` mutably as it is, unchecked (for a shape whose element
    /// count is known at run time, checked by the caller).
    pub(crate) fn wrap(data: &'a mut [T]) -> Self {
        TensorViewMut {
            data,
            shape: PhantomData,
        }
    }

    /// The elements, whatever the shape.
    #[inline]
    pub(crate) fn elements(&self) -> &[T] {
        self.data
    }

    /// The elements, mutably, whatever the shape.
    #[inline]
    pub(crate) fn elements_mut(&mut self) -> &mut [T] {
        self.data
    }
}

impl<T, S> Clone for TensorView<'_, T, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, S> Copy for TensorView<'_, T, S> {}

impl<'a, T, S: Shape> TensorViewMut<'a, T, S> {
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
}
