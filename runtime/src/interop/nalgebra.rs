//! `nalgebra` interop (feature `nalgebra`) for statically sized matrices
//! and vectors, whose sizes map onto `D<R>` dims one to one.
//!
//! nalgebra stores a matrix column by column, a tensor row by row, so
//! `SMatrix<T, R, C>` <-> `Tensor<T, (D<R>, D<C>)>` copies (transposing the
//! storage, keeping every `m[(i, j)] == t[[i, j]]`). Without a copy, each
//! side reads the other's storage as the transpose: a tensor as a `C x R`
//! `MatrixView` ([`Tensor::as_matrix_transposed`]), and an `SMatrix` as a
//! `C x R` tensor view ([`TensorView::of_matrix_transposed`]).

use crate::{Tensor, TensorView, D};
use nalgebra::{Const, MatrixView, SMatrix, SVector, Scalar};

/// Copies a matrix into a tensor with the same `[i, j]` elements.
///
/// ```
/// use nalgebra::Matrix2x3;
/// use tensor_expr_runtime::{Tensor, D};
/// let m = Matrix2x3::new(1., 2., 3., 4., 5., 6.);
/// let t: Tensor<f64, (D<2>, D<3>)> = m.into();
/// assert_eq!(t, Tensor::new([[1., 2., 3.], [4., 5., 6.]]));
/// assert_eq!(nalgebra::Matrix2x3::from(t), m);
/// ```
impl<T: Scalar, const R: usize, const C: usize> From<SMatrix<T, R, C>> for Tensor<T, (D<R>, D<C>)> {
    fn from(matrix: SMatrix<T, R, C>) -> Self {
        Tensor::from_fn(|[i, j]: [usize; 2]| matrix[(i, j)].clone())
    }
}

/// Copies a tensor into a matrix with the same `[i, j]` elements.
impl<T: Scalar, const R: usize, const C: usize> From<Tensor<T, (D<R>, D<C>)>> for SMatrix<T, R, C> {
    fn from(tensor: Tensor<T, (D<R>, D<C>)>) -> Self {
        SMatrix::from_fn(|i, j| tensor[[i, j]].clone())
    }
}

/// Copies a column vector into a rank-1 tensor.
///
/// ```
/// use nalgebra::Vector3;
/// use tensor_expr_runtime::{Tensor, D};
/// let t: Tensor<f32, (D<3>,)> = Vector3::new(1., 2., 3.).into();
/// assert_eq!(t.as_slice(), &[1., 2., 3.]);
/// ```
impl<T: Scalar, const N: usize> From<SVector<T, N>> for Tensor<T, (D<N>,)> {
    fn from(vector: SVector<T, N>) -> Self {
        Tensor::from_fn(|[i]: [usize; 1]| vector[i].clone())
    }
}

/// Copies a rank-1 tensor into a column vector.
impl<T: Scalar, const N: usize> From<Tensor<T, (D<N>,)>> for SVector<T, N> {
    fn from(tensor: Tensor<T, (D<N>,)>) -> Self {
        SVector::from_fn(|i, _| tensor[[i]].clone())
    }
}

impl<T: Scalar, const R: usize, const C: usize> Tensor<T, (D<R>, D<C>)> {
    /// The tensor's row-major storage read by nalgebra, no copy, as the
    /// column-major `C x R` matrix it is: the transpose. (A strided `R x C`
    /// view would also be possible, but nalgebra 0.33's matrix-vector product
    /// over a view with a row stride above 1 reads out of bounds, its issue
    /// 1616; this view is contiguous.)
    ///
    /// ```
    /// use nalgebra::Vector2;
    /// use tensor_expr_runtime::{Tensor, D};
    /// let t = Tensor::<f64, (D<2>, D<3>)>::new([[1., 2., 3.], [4., 5., 6.]]);
    /// let m = t.as_matrix_transposed(); // 3 x 2
    /// assert_eq!(m[(2, 0)], t[[0, 2]]);
    /// // t @ [1, 1, 1] without a copy: m^T * v.
    /// let v = nalgebra::Vector3::new(1., 1., 1.);
    /// assert_eq!(m.tr_mul(&v), Vector2::new(6., 15.));
    /// ```
    pub fn as_matrix_transposed(&self) -> MatrixView<'_, T, Const<C>, Const<R>> {
        MatrixView::from_slice_generic(self.as_slice(), Const::<C>, Const::<R>)
    }
}

impl<'a, T: Scalar, const R: usize, const C: usize> TensorView<'a, T, (D<C>, D<R>)> {
    /// An `R x C` matrix's column-major storage viewed, no copy, as the
    /// row-major `C x R` tensor it is: the matrix's transpose. Inside
    /// `tensor_expr!`, `transpose(v)` reads it back as `R x C`, still
    /// without a copy.
    ///
    /// ```
    /// use nalgebra::Matrix2x3;
    /// use tensor_expr_runtime::{TensorView, D};
    /// let m = Matrix2x3::new(1., 2., 3., 4., 5., 6.);
    /// let columns = TensorView::of_matrix_transposed(&m);
    /// assert_eq!(columns.shape(), &[3, 2]);
    /// assert_eq!(columns[[2, 1]], m[(1, 2)]);
    /// ```
    pub fn of_matrix_transposed(matrix: &'a SMatrix<T, R, C>) -> Self {
        TensorView::from_exact(matrix.as_slice())
    }
}
