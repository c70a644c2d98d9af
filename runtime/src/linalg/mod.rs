//! Linear algebra on small square matrices and batches of them (`[B, n, n]`,
//! each matrix in turn, as NumPy's `linalg` broadcasts), as methods: [`Tensor::eye`],
//! [`Tensor::diag`], [`det`](Tensor::det), [`inv`](Tensor::inv),
//! [`solve`](Tensor::solve), [`cholesky`](Tensor::cholesky) and
//! [`cholesky_solve`](Tensor::cholesky_solve), for `f32`, `f64` and any
//! [`Float`] element, spelled as NumPy's `linalg` spells them.
//!
//! Everything works on the matrix's own nested array on the stack: nothing is
//! allocated, and for the sizes of robotics and control (2x2 to 8x8) the
//! loops unroll completely: `N` is a constant, and the factorisations'
//! columns are written out as steps of constant index (`try_each_index`).
//!
//! - `inv` and `det` of 2x2, 3x3 and 4x4 matrices are closed forms (the
//!   adjugate over the determinant, as glam, nalgebra and Eigen compute
//!   them; the 4x4 `f32` inverse in SSE vectors on x86-64); larger ones,
//!   and `solve` at every size, factor the matrix by LU decomposition with
//!   partial pivoting (LAPACK's `getrf`: in each column the row with the
//!   largest magnitude is the pivot).
//! - `cholesky` gives the lower factor `L` of `A = L L^T` (LAPACK's `potrf`),
//!   reading only the lower triangle of `A`, as NumPy does.
//!
//! # When a matrix is singular
//!
//! As NumPy and LAPACK: a matrix is singular when elimination meets a pivot
//! that is exactly zero; `inv` and `solve` then return
//! [`LinalgError::Singular`] naming the column, and `det` returns 0. A
//! matrix that is nearly singular factors, and its inverse has huge
//! elements, as NumPy's has: no threshold is applied, since any threshold
//! would refuse some matrices a user can legitimately invert.
//!
//! The closed forms never decide singularity themselves: the cofactor
//! determinant of an exactly singular matrix (two equal rows of
//! non-integer values) rounds to a tiny nonzero value, and dividing by it
//! gives an "inverse" of 1e7-sized garbage. Where the closed form's
//! determinant is within its rounding error of zero (below
//! `8 n eps prod_i |row_i|_1`, the Leibniz terms' total size), `det` and
//! `inv` factor the matrix instead, so `det`, `inv`, `solve` and the batched
//! forms make the one decision elimination makes. `cholesky`
//! returns [`LinalgError::NotPositiveDefinite`] when a diagonal pivot is not
//! positive (or is NaN).
//!
//! # Accuracy
//!
//! Partial pivoting is backward stable in practice: the computed solution
//! `x` of `A x = b` has a residual `|A x - b|` of the order of
//! `n eps |A| |x|` (`tests/linalg.rs` checks `8 n eps` on random matrices
//! against nalgebra and the residual on ill-conditioned ones); the error of
//! `x` itself grows with the condition number of `A`.
//!
//! ```
//! use tensor_expr_runtime::{Tensor, D};
//! type M = (D<2>, D<2>);
//! let a = Tensor::<f64, M>::new([[4.0, 7.0], [2.0, 6.0]]);
//! assert_eq!(a.det(), 10.0);
//! let inverse = a.inv()?;
//! for (x, want) in inverse.as_slice().iter().zip([0.6, -0.7, -0.2, 0.4]) {
//!     assert!((x - want).abs() < 1e-15);
//! }
//! let x = a.solve(&Tensor::<f64, (D<2>,)>::new([1.0, 2.0]))?;
//! assert!((x.as_slice()[0] - -0.8).abs() < 1e-15 && (x.as_slice()[1] - 0.6).abs() < 1e-15);
//! let singular = Tensor::<f64, M>::new([[1.0, 2.0], [2.0, 4.0]]);
//! assert_eq!(singular.inv().unwrap_err().to_string(), "the matrix is singular: column 1 has no non-zero pivot");
//! # Ok::<(), tensor_expr_runtime::error::LinalgError>(())
//! ```

// The loops index rows and columns as the formulas write them (`l[i][k]`,
// `lu[i][j]`); iterators over zipped rows would hide the algorithm.
#![allow(clippy::needless_range_loop)]

#[cfg(target_arch = "x86_64")]
mod inverse4_sse;
pub mod operations;

use crate::dim::D;
use crate::element::{Element, Float};
use crate::error::LinalgError;
use crate::shape::Shape;
use crate::tensor::Tensor;

/// A square matrix of `N x N` elements, as `Tensor` stores it.
type Square<T, const N: usize> = Tensor<T, (D<N>, D<N>)>;

/// The right-hand side of [`Tensor::solve`] for an `N x N` matrix: a vector
/// of `N` elements or a matrix of `N` rows.
pub trait SolveRhs<const N: usize>: Shape {
    /// The number of right-hand sides: the columns of `b` (1 for a vector).
    const COLUMNS: usize;
}

impl<const N: usize> SolveRhs<N> for (D<N>,) {
    const COLUMNS: usize = 1;
}

impl<const N: usize, const M: usize> SolveRhs<N> for (D<N>, D<M>) {
    const COLUMNS: usize = M;
}

impl<const N: usize> SolveRhs<N> for (D<N>, crate::dim::One) {
    const COLUMNS: usize = 1;
}

impl<T: Element, const N: usize> Square<T, N> {
    /// The identity matrix (NumPy's `eye(N)`).
    ///
    /// ```
    /// use tensor_expr_runtime::{Tensor, D};
    /// let i = Tensor::<f32, (D<2>, D<2>)>::eye();
    /// assert_eq!(i.as_slice(), &[1.0, 0.0, 0.0, 1.0]);
    /// ```
    pub fn eye() -> Self {
        Self::from_fn(|[i, j]| if i == j { T::ONE } else { T::ZERO })
    }

    /// The matrix with `v` on its diagonal and zeros elsewhere (NumPy's
    /// `diag(v)`).
    ///
    /// ```
    /// use tensor_expr_runtime::{Tensor, D};
    /// let d = Tensor::<i32, (D<2>, D<2>)>::diag(&Tensor::new([3, 4]));
    /// assert_eq!(d.as_slice(), &[3, 0, 0, 4]);
    /// ```
    pub fn diag(v: &Tensor<T, (D<N>,)>) -> Self {
        let v = v.as_slice();
        Self::from_fn(|[i, j]| if i == j { v[i] } else { T::ZERO })
    }
}

impl<T: Float, const N: usize> Square<T, N> {
    /// The determinant (NumPy's `linalg.det`): the product of the LU
    /// factorisation's pivots, with the sign of its row swaps; 0 for a
    /// singular matrix.
    pub fn det(&self) -> T {
        if let Some(det) = closed_form::det::<T>(self.as_slice(), N) {
            if closed_form::clear_of_zero(det, self.as_slice(), N) {
                return det;
            }
        }
        let mut lu = Lu::<T, N>::of(self);
        match lu.factor() {
            Ok(()) => lu.det(),
            Err(_) => T::ZERO,
        }
    }

    /// The inverse (NumPy's `linalg.inv`), or [`LinalgError::Singular`].
    #[inline]
    pub fn inv(&self) -> Result<Self, LinalgError> {
        let mut inverse = Self::zeros();
        if closed_form::inverse::<T>(self.as_slice(), inverse.as_mut_slice(), N) {
            return Ok(inverse);
        }
        // A size without a closed form, or a determinant within rounding of
        // zero: LU decides, naming the column without a pivot.
        self.inv_by_lu()
    }

    /// The inverse by LU factorisation: every size above 4, and the rare
    /// small matrix whose determinant is within rounding of zero (kept out
    /// of line, so the closed forms stay small enough to inline).
    #[inline(never)]
    fn inv_by_lu(&self) -> Result<Self, LinalgError> {
        let mut lu = Lu::<T, N>::of(self);
        lu.factor()?;
        let inverse = lu.inverse();
        Ok(Self::new(inverse))
    }

    /// `x` with `self @ x = b` (NumPy's `linalg.solve`), for `b` a vector of
    /// `N` elements or a matrix of `N` rows; or [`LinalgError::Singular`].
    /// Cheaper and more accurate than `inv() @ b`.
    ///
    /// ```
    /// use tensor_expr_runtime::{Tensor, D};
    /// let a = Tensor::<f32, (D<2>, D<2>)>::new([[2.0, 0.0], [0.0, 4.0]]);
    /// let b = Tensor::<f32, (D<2>, D<3>)>::new([[2.0, 4.0, 6.0], [4.0, 8.0, 12.0]]);
    /// assert_eq!(a.solve(&b)?.as_slice(), &[1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
    /// # Ok::<(), tensor_expr_runtime::error::LinalgError>(())
    /// ```
    #[inline]
    pub fn solve<B: SolveRhs<N>>(&self, b: &Tensor<T, B>) -> Result<Tensor<T, B>, LinalgError> {
        let mut lu = Lu::<T, N>::of(self);
        lu.factor()?;
        let mut x = Tensor::<T, B>::from_flat_fn(|position| b.as_slice()[position]);
        lu.solve_in_place(x.as_mut_slice(), B::COLUMNS);
        Ok(x)
    }

    /// The lower-triangular `L` with `self = L @ L^T` (NumPy's
    /// `linalg.cholesky`), reading only the lower triangle of `self`; or
    /// [`LinalgError::NotPositiveDefinite`].
    ///
    /// ```
    /// use tensor_expr_runtime::{Tensor, D};
    /// let a = Tensor::<f64, (D<2>, D<2>)>::new([[4.0, 2.0], [2.0, 5.0]]);
    /// assert_eq!(a.cholesky()?.as_slice(), &[2.0, 0.0, 1.0, 2.0]);
    /// # Ok::<(), tensor_expr_runtime::error::LinalgError>(())
    /// ```
    #[inline]
    pub fn cholesky(&self) -> Result<Self, LinalgError> {
        // In place: `L` overwrites the lower triangle of a copy of `self`
        // as it is computed (each element is read before it is written),
        // the upper triangle is zeroed at the end, and the copy becomes the
        // result as it is. (Built element by element through `from_fn`,
        // whose fill stays out of line, a 2x2 factorisation is several
        // times slower, `benches/linalg.rs`.)
        // Nested arrays, so every index is checked against a constant
        // (the loops unroll with no bounds checks left).
        let mut copy = rows(self);
        let l = &mut copy;
        // Column by column: from 5x5 on each column's index a constant
        // (`try_each_index`); below, a plain loop, which LLVM unrolls
        // itself, and faster than through `try_each_index` at 3x3 and 4x4.
        if const { N < 5 } {
            for j in 0..N {
                cholesky_column(l, j)?;
            }
        } else {
            try_each_index::<N, _>(false, |j| cholesky_column(l, j))?;
        }
        for (i, row) in l.iter_mut().enumerate() {
            for value in &mut row[i + 1..] {
                *value = T::ZERO;
            }
        }
        Ok(Self::new(copy))
    }

    /// `x` with `L @ L^T @ x = b`, where `self` is the lower factor `L` that
    /// [`cholesky`](Self::cholesky) gives (SciPy's `cho_solve`): two
    /// triangular solves. Reads only the lower triangle of `self`.
    #[inline]
    pub fn cholesky_solve<B: SolveRhs<N>>(&self, b: &Tensor<T, B>) -> Tensor<T, B> {
        let l = self.as_slice();
        let mut x = Tensor::<T, B>::from_flat_fn(|position| b.as_slice()[position]);
        let columns = B::COLUMNS;
        let x_data = x.as_mut_slice();
        for c in 0..columns {
            // L y = b, forward.
            for i in 0..N {
                let mut sum = x_data[i * columns + c];
                for k in 0..i {
                    sum = sum - l[i * N + k] * x_data[k * columns + c];
                }
                x_data[i * columns + c] = sum / l[i * N + i];
            }
            // L^T x = y, backward.
            for i in (0..N).rev() {
                let mut sum = x_data[i * columns + c];
                for k in i + 1..N {
                    sum = sum - l[k * N + i] * x_data[k * columns + c];
                }
                x_data[i * columns + c] = sum / l[i * N + i];
            }
        }
        x
    }
}

/// A batch of `B` square matrices, `[B, N, N]`: NumPy's `linalg` applied to
/// each matrix of the leading dim, and a failure names the matrix.
type Batch<T, const B: usize, const N: usize> = Tensor<T, (D<B>, D<N>, D<N>)>;

/// The methods of one matrix applied to each of a batch, `[B, N, N]`, as
/// NumPy's `linalg` broadcasts over a leading dim. Each matrix is copied to
/// the stack and back: nothing is allocated.
///
/// ```
/// use tensor_expr_runtime::error::LinalgError;
/// use tensor_expr_runtime::{Tensor, D};
/// let a = Tensor::<f64, (D<2>, D<2>, D<2>)>::new([[[2.0, 0.0], [0.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]]]);
/// assert_eq!(a.det().as_slice(), &[8.0, 0.0]);
/// assert_eq!(a.inv().unwrap_err(), LinalgError::Singular { matrix: Some(1), column: 1 });
/// ```
impl<T: Float, const B: usize, const N: usize> Batch<T, B, N> {
    /// Matrix `b` of the batch, copied.
    fn matrix(&self, b: usize) -> Square<T, N> {
        let start = b * N * N;
        Square::from_flat_fn(|position| self.as_slice()[start + position])
    }

    /// The determinant of each matrix ([`Tensor::det`]).
    pub fn det(&self) -> Tensor<T, (D<B>,)> {
        Tensor::from_fn(|[b]: [usize; 1]| self.matrix(b).det())
    }

    /// The batch with each matrix replaced by `f` of it, or the first
    /// error, naming its matrix.
    fn each_matrix(
        &self,
        f: impl Fn(&Square<T, N>) -> Result<Square<T, N>, LinalgError>,
    ) -> Result<Self, LinalgError> {
        let mut out = Self::zeros();
        for (b, chunk) in out.as_mut_slice().chunks_exact_mut(N * N).enumerate() {
            let result = f(&self.matrix(b)).map_err(|e| e.in_matrix(b))?;
            chunk.copy_from_slice(result.as_slice());
        }
        Ok(out)
    }

    /// The inverse of each matrix ([`Tensor::inv`]), or the first singular
    /// one's error.
    pub fn inv(&self) -> Result<Self, LinalgError> {
        self.each_matrix(Square::inv)
    }

    /// The lower Cholesky factor of each matrix ([`Tensor::cholesky`]), or
    /// the first error, naming its matrix.
    pub fn cholesky(&self) -> Result<Self, LinalgError> {
        self.each_matrix(Square::cholesky)
    }

    /// `x` with `self[b] @ x[b] = rhs[b]` for each matrix ([`Tensor::solve`]),
    /// a vector of `N` per matrix (`rhs` of shape `[B, N]`).
    pub fn solve(
        &self,
        rhs: &Tensor<T, (D<B>, D<N>)>,
    ) -> Result<Tensor<T, (D<B>, D<N>)>, LinalgError> {
        let mut out = Tensor::<T, (D<B>, D<N>)>::zeros();
        for (b, chunk) in out.as_mut_slice().chunks_exact_mut(N).enumerate() {
            let column = Tensor::<T, (D<N>,)>::from_flat_fn(|i| rhs.as_slice()[b * N + i]);
            let x = self.matrix(b).solve(&column).map_err(|e| e.in_matrix(b))?;
            chunk.copy_from_slice(x.as_slice());
        }
        Ok(out)
    }
}

/// The matrix as an array of rows.
#[inline(always)]
fn rows<T: Float, const N: usize>(a: &Square<T, N>) -> [[T; N]; N] {
    let a = a.as_slice();
    core::array::from_fn(|i| core::array::from_fn(|j| a[i * N + j]))
}

/// Column `j` of the Cholesky factor, in place in `l` (columns before `j`
/// already factored): `l[j][j]`, then `l[i][j]` below it.
#[inline(always)]
fn cholesky_column<T: Float, const N: usize>(
    l: &mut [[T; N]; N],
    j: usize,
) -> Result<(), LinalgError> {
    let mut diagonal = l[j][j];
    for k in 0..j {
        diagonal = diagonal - l[j][k] * l[j][k];
    }
    // Not greater than zero, or NaN (which compares to nothing).
    if diagonal.partial_cmp(&T::ZERO) != Some(core::cmp::Ordering::Greater) {
        return Err(LinalgError::NotPositiveDefinite {
            matrix: None,
            column: j,
        });
    }
    let root = diagonal.sqrt();
    l[j][j] = root;
    let inverse = T::ONE / root;
    for i in j + 1..N {
        let mut sum = l[i][j];
        for k in 0..j {
            sum = sum - l[i][k] * l[j][k];
        }
        l[i][j] = sum * inverse;
    }
    Ok(())
}

/// Swaps `items[k]` with `items[pivot]` (`pivot >= k`), indexing only with
/// constants once `N` is: `slice::swap` at a run-time index keeps a small
/// matrix or vector in memory, and reading it back after narrower stores
/// stalls (store forwarding fails).
#[inline(always)]
fn swap_with<X, const N: usize>(items: &mut [X; N], k: usize, pivot: usize) {
    for i in k + 1..N {
        if i == pivot {
            items.swap(k, i);
        }
    }
}

/// Calls `step(0)`, ..., `step(N - 1)` in order, or in reverse order if
/// `reverse`, stopping at the first error. Up to `N = 8` each call is
/// written out, so that once `step` is inlined its index is a constant and
/// the loops inside it have constant bounds, which LLVM unrolls fully. As
/// loops over a run-time index, a 6x6 factorisation keeps its inner loops,
/// and the native build vectorises their short rows behind run-time alias
/// checks, slower than written out (`benches/linalg.rs`). The smallest sizes,
/// which LLVM unrolls as plain loops, keep those where that measured
/// faster (the LU below 4x4, Cholesky below 5x5).
#[inline(always)]
fn try_each_index<const N: usize, E>(
    reverse: bool,
    mut step: impl FnMut(usize) -> Result<(), E>,
) -> Result<(), E> {
    if const { N > 8 } {
        for k in 0..N {
            step(if reverse { N - 1 - k } else { k })?;
        }
        return Ok(());
    }
    // Written out, not a loop: LLVM does not unroll a loop whose body is
    // a whole elimination step.
    macro_rules! steps {
        ($($k:literal)*) => {$(
            let k = if reverse { 7 - $k } else { $k };
            if k < N {
                step(k)?;
            }
        )*};
    }
    steps!(0 1 2 3 4 5 6 7);
    Ok(())
}

/// [`try_each_index`] for a step that cannot fail.
#[inline(always)]
fn each_index<const N: usize>(reverse: bool, mut step: impl FnMut(usize)) {
    let _ = try_each_index::<N, core::convert::Infallible>(reverse, |k| {
        step(k);
        Ok(())
    });
}

/// An LU factorisation with partial pivoting, in place: `P A = L U`, with `L`
/// unit lower triangular below the diagonal of `lu` and `U` on and above it.
struct Lu<T, const N: usize> {
    /// `L` below the diagonal and `U` on and above it, as rows.
    lu: [[T; N]; N],
    /// `1 / U[k][k]`, which the factorisation computes anyway: the
    /// substitutions multiply by it, so a solve's chain of dependent steps
    /// holds no division (dividing there made a 3x3 solve take a quarter
    /// longer).
    reciprocals: [T; N],
    /// Step `k` swapped rows `k` and `pivots[k]` (LAPACK's `ipiv`).
    pivots: [usize; N],
    /// Whether the number of row swaps is odd.
    odd_swaps: bool,
}

// The methods here and the public ones that call them are `#[inline]`:
// instantiated in the caller's crate, whose release build has 16 codegen
// units by default, they were otherwise compiled apart and called, with the
// factors passed through memory, several times slower for a 3x3 solve
// (`cargo bench --bench linalg`, which builds with the default units).
impl<T: Float, const N: usize> Lu<T, N> {
    #[inline]
    fn of(a: &Square<T, N>) -> Self {
        Lu {
            lu: rows(a),
            reciprocals: [T::ONE; N],
            pivots: core::array::from_fn(|i| i),
            odd_swaps: false,
        }
    }

    /// Factors in place; `Err` at the first column without a non-zero pivot.
    #[inline]
    fn factor(&mut self) -> Result<(), LinalgError> {
        // Below 4x4 LLVM unrolls the plain loop itself, which is faster
        // than `try_each_index` there.
        if const { N < 4 } {
            for k in 0..N {
                self.eliminate(k)?;
            }
            return Ok(());
        }
        try_each_index::<N, _>(false, |k| self.eliminate(k))
    }

    /// Step `k` of the factorisation: picks the pivot of column `k`, swaps
    /// its row up, and eliminates the column below it.
    #[inline(always)]
    fn eliminate(&mut self, k: usize) -> Result<(), LinalgError> {
        let mut pivot = k;
        let mut largest = self.lu[k][k].abs_element();
        for i in k + 1..N {
            let magnitude = self.lu[i][k].abs_element();
            if magnitude > largest {
                largest = magnitude;
                pivot = i;
            }
        }
        // `largest` is the pivot's magnitude (read without a run-time
        // index): zero exactly when the pivot is.
        if largest == T::ZERO {
            return Err(LinalgError::Singular {
                matrix: None,
                column: k,
            });
        }
        self.pivots[k] = pivot;
        if pivot != k {
            swap_with(&mut self.lu, k, pivot);
            self.odd_swaps = !self.odd_swaps;
        }
        let pivot_value = self.lu[k][k];
        self.reciprocals[k] = T::ONE / pivot_value;
        for i in k + 1..N {
            // Divided, not multiplied by the reciprocal: a row equal to the
            // pivot's gets a factor of exactly 1 and becomes exactly zero, so
            // a repeated row is singular (`x * (1 / x)` is not always 1).
            let factor = self.lu[i][k] / pivot_value;
            self.lu[i][k] = factor;
            for j in k + 1..N {
                self.lu[i][j] = self.lu[i][j] - factor * self.lu[k][j];
            }
        }
        Ok(())
    }

    /// The determinant of the factored matrix.
    #[inline]
    fn det(&self) -> T {
        let mut det = T::ONE;
        for k in 0..N {
            det = det * self.lu[k][k];
        }
        if self.odd_swaps {
            -det
        } else {
            det
        }
    }

    /// Overwrites the vector `b` with `A^-1 b`: one column, substituted in
    /// a local array whose indices are all checked against the constant `N`.
    #[inline]
    fn solve_vector_in_place(&self, b: &mut [T]) {
        let mut x: [T; N] = core::array::from_fn(|i| b[i]);
        for (k, &pivot) in self.pivots.iter().enumerate() {
            swap_with(&mut x, k, pivot);
        }
        for i in 1..N {
            for k in 0..i {
                x[i] = x[i] - self.lu[i][k] * x[k];
            }
        }
        for i in (0..N).rev() {
            for k in i + 1..N {
                x[i] = x[i] - self.lu[i][k] * x[k];
            }
            x[i] = x[i] * self.reciprocals[i];
        }
        b[..N].copy_from_slice(&x);
    }

    /// `A^-1`: the identity's rows permuted and substituted as
    /// [`solve_in_place`](Self::solve_in_place) does, in a local array whose
    /// indices are all constants once `N` is (the slice form, with run-time
    /// indices, took 40% longer at 6x6, `benches/linalg.rs`).
    #[inline]
    fn inverse(&self) -> [[T; N]; N] {
        let mut x: [[T; N]; N] = core::array::from_fn(|i| {
            core::array::from_fn(|j| if i == j { T::ONE } else { T::ZERO })
        });
        for (k, &pivot) in self.pivots.iter().enumerate() {
            swap_with(&mut x, k, pivot);
        }
        // Row by row, each row's index a constant (`each_index`).
        each_index::<N>(false, |i| {
            for k in 0..i {
                let factor = self.lu[i][k];
                for j in 0..N {
                    x[i][j] = x[i][j] - factor * x[k][j];
                }
            }
        });
        each_index::<N>(true, |i| {
            for k in i + 1..N {
                let factor = self.lu[i][k];
                for j in 0..N {
                    x[i][j] = x[i][j] - factor * x[k][j];
                }
            }
            for j in 0..N {
                x[i][j] = x[i][j] * self.reciprocals[i];
            }
        });
        x
    }

    /// Overwrites `b` (row-major, `N` rows of `columns`) with `A^-1 b`,
    /// row by row: each step subtracts a multiple of one row of `b` from
    /// another, a loop over the columns that vectorises when there are
    /// several (an inverse's `N`).
    #[inline]
    fn solve_in_place(&self, b: &mut [T], columns: usize) {
        if columns == 1 {
            return self.solve_vector_in_place(b);
        }
        let b = &mut b[..N * columns];
        // P b: the factorisation's row swaps, in the order they were made.
        for (k, &pivot) in self.pivots.iter().enumerate() {
            if pivot != k {
                for c in 0..columns {
                    b.swap(k * columns + c, pivot * columns + c);
                }
            }
        }
        // L y = P b, forward (L has a unit diagonal).
        for i in 1..N {
            let (above, rest) = b.split_at_mut(i * columns);
            let row = &mut rest[..columns];
            for k in 0..i {
                let factor = self.lu[i][k];
                let source = &above[k * columns..(k + 1) * columns];
                for (x, &y) in row.iter_mut().zip(source) {
                    *x = *x - factor * y;
                }
            }
        }
        // U x = y, backward.
        for i in (0..N).rev() {
            let (upto, below) = b.split_at_mut((i + 1) * columns);
            let row = &mut upto[i * columns..];
            for k in i + 1..N {
                let factor = self.lu[i][k];
                let source = &below[(k - i - 1) * columns..(k - i) * columns];
                for (x, &y) in row.iter_mut().zip(source) {
                    *x = *x - factor * y;
                }
            }
            let reciprocal = self.reciprocals[i];
            for x in row.iter_mut() {
                *x = *x * reciprocal;
            }
        }
    }
}

/// Determinants and inverses of 2x2, 3x3 and 4x4 matrices by cofactors, on
/// row-major data: straight-line code that LLVM schedules freely, several
/// times faster than elimination at these sizes.
mod closed_form {
    use crate::element::Float;

    /// The determinant of the `n x n` matrix `a`, for `n` of 2 to 4.
    #[inline(always)]
    pub(super) fn det<T: Float>(a: &[T], n: usize) -> Option<T> {
        match n {
            2 => Some(a[0] * a[3] - a[1] * a[2]),
            3 => Some(det3(a)),
            4 => Some(Minors4::of(a).det()),
            _ => None,
        }
    }

    /// Whether `det`, the closed form's determinant of the `n x n` matrix
    /// `a`, is clear of zero by more than its rounding error: above
    /// `8 n eps prod_i |row_i|_1`. The product of the rows' 1-norms bounds
    /// the sum of the Leibniz expansion's terms' magnitudes, and the
    /// cofactor forms round each term by a few `eps`; a matrix that
    /// elimination finds singular lies within that distance of zero. False
    /// for a NaN determinant.
    #[inline(always)]
    pub(super) fn clear_of_zero<T: Float>(det: T, a: &[T], n: usize) -> bool {
        det.abs_element() > rounding_bound(a, n)
    }

    /// `8 n eps prod_i |row_i|_1` for the `n x n` matrix `a` ([`clear_of_zero`];
    /// the SSE 4x4 inverse computes the same in vectors).
    #[inline(always)]
    pub(super) fn rounding_bound<T: Float>(a: &[T], n: usize) -> T {
        // eps, 2^-(significand bits), is the reciprocal of the magnitude from
        // which every value is an integer; both are constants.
        let epsilon = T::ONE / T::integral_from();
        let mut bound = epsilon * T::from_float_literal(8.0 * n as f64);
        for row in a[..n * n].chunks_exact(n) {
            let mut norm = T::ZERO;
            for &x in row {
                norm = norm + x.abs_element();
            }
            bound = bound * norm;
        }
        bound
    }

    /// Writes the inverse of the `n x n` matrix `a` (n of 2 to 4) into `out`;
    /// `false` (and `out` untouched) if the determinant is not clear of zero
    /// ([`clear_of_zero`]).
    #[inline(always)]
    pub(super) fn inverse<T: Float>(a: &[T], out: &mut [T], n: usize) -> bool {
        match n {
            2 => {
                let det = a[0] * a[3] - a[1] * a[2];
                if !clear_of_zero(det, a, 2) {
                    return false;
                }
                let r = T::ONE / det;
                out[..4].copy_from_slice(&[a[3] * r, -a[1] * r, -a[2] * r, a[0] * r]);
                true
            }
            3 => {
                let c00 = a[4] * a[8] - a[5] * a[7];
                let c01 = a[5] * a[6] - a[3] * a[8];
                let c02 = a[3] * a[7] - a[4] * a[6];
                let det = a[0] * c00 + a[1] * c01 + a[2] * c02;
                if !clear_of_zero(det, a, 3) {
                    return false;
                }
                let r = T::ONE / det;
                out[..9].copy_from_slice(&[
                    c00 * r,
                    (a[2] * a[7] - a[1] * a[8]) * r,
                    (a[1] * a[5] - a[2] * a[4]) * r,
                    c01 * r,
                    (a[0] * a[8] - a[2] * a[6]) * r,
                    (a[2] * a[3] - a[0] * a[5]) * r,
                    c02 * r,
                    (a[1] * a[6] - a[0] * a[7]) * r,
                    (a[0] * a[4] - a[1] * a[3]) * r,
                ]);
                true
            }
            4 => {
                #[cfg(target_arch = "x86_64")]
                if let Some(inverted) = inverse4_f32(a, out) {
                    return inverted;
                }
                Minors4::of(a).inverse(a, out)
            }
            _ => false,
        }
    }

    /// The scalar 4x4 inverse, which the SSE one is tested against.
    #[cfg(all(test, target_arch = "x86_64"))]
    pub(super) fn scalar_inverse4<T: Float>(a: &[T], out: &mut [T]) -> bool {
        Minors4::of(a).inverse(a, out)
    }

    /// For `f32`, the 4x4 inverse in SSE vectors ([`super::inverse4_sse`]):
    /// whether it was invertible; `None` for other element types (the type
    /// test is a constant, so only one path is compiled).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn inverse4_f32<T: Float>(a: &[T], out: &mut [T]) -> Option<bool> {
        use core::any::Any;
        let a = <&[T; 16]>::try_from(&a[..16]).ok()?;
        let a = (a as &dyn Any).downcast_ref::<[f32; 16]>()?;
        let out = <&mut [T; 16]>::try_from(&mut out[..16]).ok()?;
        let out = (out as &mut dyn Any).downcast_mut::<[f32; 16]>()?;
        // SAFETY: SSE is part of x86-64's baseline; every x86-64 CPU has it.
        Some(unsafe { super::inverse4_sse::inverse(a, out) })
    }

    fn det3<T: Float>(a: &[T]) -> T {
        a[0] * (a[4] * a[8] - a[5] * a[7])
            + a[1] * (a[5] * a[6] - a[3] * a[8])
            + a[2] * (a[3] * a[7] - a[4] * a[6])
    }

    /// The 2x2 minors of a 4x4 matrix's top two rows (`s`) and bottom two
    /// rows (`c`), from which its determinant and adjugate follow (Laplace
    /// expansion along the first two rows).
    struct Minors4<T> {
        s: [T; 6],
        c: [T; 6],
    }

    impl<T: Float> Minors4<T> {
        #[inline(always)]
        fn of(a: &[T]) -> Self {
            let m = |i: usize, j: usize| a[i * 4 + j];
            Minors4 {
                s: [
                    m(0, 0) * m(1, 1) - m(1, 0) * m(0, 1),
                    m(0, 0) * m(1, 2) - m(1, 0) * m(0, 2),
                    m(0, 0) * m(1, 3) - m(1, 0) * m(0, 3),
                    m(0, 1) * m(1, 2) - m(1, 1) * m(0, 2),
                    m(0, 1) * m(1, 3) - m(1, 1) * m(0, 3),
                    m(0, 2) * m(1, 3) - m(1, 2) * m(0, 3),
                ],
                c: [
                    m(2, 0) * m(3, 1) - m(3, 0) * m(2, 1),
                    m(2, 0) * m(3, 2) - m(3, 0) * m(2, 2),
                    m(2, 0) * m(3, 3) - m(3, 0) * m(2, 3),
                    m(2, 1) * m(3, 2) - m(3, 1) * m(2, 2),
                    m(2, 1) * m(3, 3) - m(3, 1) * m(2, 3),
                    m(2, 2) * m(3, 3) - m(3, 2) * m(2, 3),
                ],
            }
        }

        #[inline(always)]
        fn det(&self) -> T {
            let (s, c) = (&self.s, &self.c);
            s[0] * c[5] - s[1] * c[4] + s[2] * c[3] + s[3] * c[2] - s[4] * c[1] + s[5] * c[0]
        }

        #[inline(always)]
        fn inverse(&self, a: &[T], out: &mut [T]) -> bool {
            let det = self.det();
            if !clear_of_zero(det, a, 4) {
                return false;
            }
            let r = T::ONE / det;
            let m = |i: usize, j: usize| a[i * 4 + j];
            let (s, c) = (&self.s, &self.c);
            out[..16].copy_from_slice(&[
                (m(1, 1) * c[5] - m(1, 2) * c[4] + m(1, 3) * c[3]) * r,
                (-m(0, 1) * c[5] + m(0, 2) * c[4] - m(0, 3) * c[3]) * r,
                (m(3, 1) * s[5] - m(3, 2) * s[4] + m(3, 3) * s[3]) * r,
                (-m(2, 1) * s[5] + m(2, 2) * s[4] - m(2, 3) * s[3]) * r,
                (-m(1, 0) * c[5] + m(1, 2) * c[2] - m(1, 3) * c[1]) * r,
                (m(0, 0) * c[5] - m(0, 2) * c[2] + m(0, 3) * c[1]) * r,
                (-m(3, 0) * s[5] + m(3, 2) * s[2] - m(3, 3) * s[1]) * r,
                (m(2, 0) * s[5] - m(2, 2) * s[2] + m(2, 3) * s[1]) * r,
                (m(1, 0) * c[4] - m(1, 1) * c[2] + m(1, 3) * c[0]) * r,
                (-m(0, 0) * c[4] + m(0, 1) * c[2] - m(0, 3) * c[0]) * r,
                (m(3, 0) * s[4] - m(3, 1) * s[2] + m(3, 3) * s[0]) * r,
                (-m(2, 0) * s[4] + m(2, 1) * s[2] - m(2, 3) * s[0]) * r,
                (-m(1, 0) * c[3] + m(1, 1) * c[1] - m(1, 2) * c[0]) * r,
                (m(0, 0) * c[3] - m(0, 1) * c[1] + m(0, 2) * c[0]) * r,
                (-m(3, 0) * s[3] + m(3, 1) * s[1] - m(3, 2) * s[0]) * r,
                (m(2, 0) * s[3] - m(2, 1) * s[1] + m(2, 2) * s[0]) * r,
            ]);
            true
        }
    }
}
