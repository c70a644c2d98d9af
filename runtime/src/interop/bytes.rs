//! `bytemuck` interop (feature `bytemuck`): tensors of plain-old-data
//! elements as bytes and back, for DMA buffers, files and GPU uploads.
//!
//! - `as_bytes()` / `as_bytes_mut()` on every container: the elements'
//!   memory, no copy.
//! - [`TensorView::try_from_bytes`] / [`TensorViewMut::try_from_bytes_mut`]:
//!   an aligned buffer of exactly the shape's bytes viewed in place;
//!   [`Tensor::try_from_bytes`]: a copy from any buffer, aligned or not.
//! - `Tensor<T, S>` is itself `Pod` when `T` is (it is `repr(transparent)`
//!   over its nested arrays), so `bytemuck::cast_slice` reads a whole file of
//!   tensors.

use crate::error::ConversionError;
use crate::shape::Shape;
use crate::{Tensor, TensorView, TensorViewMut};
use bytemuck::{Pod, Zeroable};

macro_rules! impl_as_bytes {
    (impl[$($g:tt)*] $ty:ty { $($_:tt)* }) => {
        impl<$($g)*> $ty where S: Shape, T: Pod {
            /// The elements' memory as bytes, in row-major order, no copy.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<u16, (D<2>,)>::new([1, 0x0203]);
            /// assert_eq!(x.as_bytes(), [1u16.to_ne_bytes(), 0x0203u16.to_ne_bytes()].concat());
            /// ```
            pub fn as_bytes(&self) -> &[u8] {
                bytemuck::cast_slice(self.as_slice())
            }
        }
    };
}
crate::containers::for_each_container!(impl_as_bytes);

macro_rules! impl_as_bytes_mut {
    (impl[$($g:tt)*] $ty:ty { $($_:tt)* }) => {
        impl<$($g)*> $ty where S: Shape, T: Pod {
            /// The elements' memory as mutable bytes, no copy.
            pub fn as_bytes_mut(&mut self) -> &mut [u8] {
                bytemuck::cast_slice_mut(self.as_mut_slice())
            }
        }
    };
}
crate::containers::for_each_container!(writable impl_as_bytes_mut);

/// `Ok` if `bytes` holds exactly the elements of `S`, else the error naming
/// both lengths.
fn check_byte_len<T, S: Shape>(bytes: &[u8]) -> Result<(), ConversionError> {
    let expected = S::LEN * core::mem::size_of::<T>();
    if bytes.len() == expected {
        Ok(())
    } else {
        Err(ConversionError::ByteLength {
            shape: S::DIMS,
            expected,
            actual: bytes.len(),
        })
    }
}

/// The error for bytes that do not start at a multiple of `T`'s alignment.
fn misaligned<T>(bytes: &[u8]) -> ConversionError {
    let align = core::mem::align_of::<T>();
    ConversionError::Misaligned {
        align,
        offset: bytes.as_ptr() as usize % align,
    }
}

impl<'a, T: Pod, S: Shape> TensorView<'a, T, S> {
    /// Views `S::LEN` elements' bytes in place; the buffer must have exactly
    /// that length and start at a multiple of `T`'s alignment.
    ///
    /// ```
    /// use tensor_expr_runtime::{TensorView, D, error::ConversionError};
    /// let words: [u32; 4] = [1, 2, 3, 4]; // aligned for u32
    /// let bytes: &[u8] = bytemuck::cast_slice(&words);
    /// let v = TensorView::<u32, (D<2>, D<2>)>::try_from_bytes(bytes)?;
    /// assert_eq!(v[[1, 0]], 3);
    /// let short = TensorView::<u32, (D<3>, D<2>)>::try_from_bytes(bytes).unwrap_err();
    /// assert_eq!(short.to_string(), "shape [3, 2] needs 24 bytes, got 16 bytes");
    /// let shifted = TensorView::<u32, (D<3>,)>::try_from_bytes(&bytes[1..13]).unwrap_err();
    /// assert!(matches!(shifted, ConversionError::Misaligned { align: 4, offset: 1 }));
    /// # Ok::<(), ConversionError>(())
    /// ```
    pub fn try_from_bytes(bytes: &'a [u8]) -> Result<Self, ConversionError> {
        check_byte_len::<T, S>(bytes)?;
        let elements = bytemuck::try_cast_slice(bytes).map_err(|_| misaligned::<T>(bytes))?;
        Ok(TensorView::from_exact(elements))
    }
}

impl<'a, T: Pod, S: Shape> TensorViewMut<'a, T, S> {
    /// Views `S::LEN` elements' bytes in place, mutably (a DMA buffer the
    /// expression writes into); same checks as
    /// [`TensorView::try_from_bytes`].
    pub fn try_from_bytes_mut(bytes: &'a mut [u8]) -> Result<Self, ConversionError> {
        check_byte_len::<T, S>(bytes)?;
        let error = misaligned::<T>(bytes);
        let elements = bytemuck::try_cast_slice_mut(bytes).map_err(|_| error)?;
        Ok(TensorViewMut::from_exact(elements))
    }
}

impl<T: Pod, S: Shape> Tensor<T, S> {
    /// Copies `S::LEN` elements from bytes at any alignment (a file read
    /// into a `Vec<u8>`); the length must match exactly.
    ///
    /// ```
    /// use tensor_expr_runtime::{Tensor, D};
    /// let bytes: Vec<u8> = [1.5f32, -2.0].iter().flat_map(|x| x.to_ne_bytes()).collect();
    /// let t = Tensor::<f32, (D<2>,)>::try_from_bytes(&bytes)?;
    /// assert_eq!(t.as_slice(), &[1.5, -2.0]);
    /// # Ok::<(), tensor_expr_runtime::error::ConversionError>(())
    /// ```
    pub fn try_from_bytes(bytes: &[u8]) -> Result<Self, ConversionError> {
        check_byte_len::<T, S>(bytes)?;
        let mut tensor = Tensor::from_flat_fn(|_| T::zeroed());
        tensor.as_bytes_mut().copy_from_slice(bytes);
        Ok(tensor)
    }
}

// SAFETY: `Tensor` is `repr(transparent)` over `S::Storage<T>`, nested arrays
// of `T`, which have no padding: `Shape` and `Dim` are sealed, and the only
// dims, `D<N>` and `One`, store `[X; N]` and `[X; 1]` (`dim.rs`). All-zero
// bytes are a valid `T` when `T: Zeroable`.
unsafe impl<T: Zeroable, S: Shape> Zeroable for Tensor<T, S> {}

// SAFETY: as above, and every bit pattern is a valid `T` when `T: Pod`; the
// tensor is `Copy` and `'static` exactly when its nested arrays are.
unsafe impl<T: Pod, S: Shape> Pod for Tensor<T, S> where S::Storage<T>: Copy + 'static {}
