//! Run-time errors: data of the wrong length, matrices without an inverse or
//! factor, and (for the interop features) values of another shape or layout.

use core::fmt;

/// Data whose length does not match a shape's element count.
///
/// ```
/// use tensor_expr_runtime::{Tensor, D};
/// let err = Tensor::<f32, (D<2>, D<3>)>::try_from_slice(&[1.0; 5]).unwrap_err();
/// assert_eq!(err.to_string(), "shape [2, 3] needs 6 elements, got 5");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeError {
    /// The shape's dims.
    pub shape: &'static [usize],
    /// The element count the shape needs.
    pub expected: usize,
    /// The length that was given.
    pub actual: usize,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "shape {:?} needs {} elements, got {}",
            self.shape, self.expected, self.actual
        )
    }
}

impl core::error::Error for ShapeError {}

/// `Ok` if `actual` is the element count of `S`, else the error naming both.
pub(crate) fn check_len<S: crate::Shape>(actual: usize) -> Result<(), ShapeError> {
    if actual == S::LEN {
        Ok(())
    } else {
        Err(ShapeError {
            shape: S::DIMS,
            expected: S::LEN,
            actual,
        })
    }
}

/// A value from another library or a byte buffer that cannot become (or be
/// viewed as) a tensor of the wanted shape: the interop features' error.
///
/// ```
/// use tensor_expr_runtime::error::{ConversionError, Dims};
/// let error = ConversionError::Shape { expected: &[2, 3], actual: Dims::new(&[3, 2]) };
/// assert_eq!(error.to_string(), "expected shape [2, 3], got shape [3, 2]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConversionError {
    /// The other value's dims differ from the tensor's.
    Shape {
        /// The tensor's dims.
        expected: &'static [usize],
        /// The other value's dims.
        actual: Dims,
    },
    /// An array view whose elements are not contiguous in row-major order
    /// (a transposed or sliced `ndarray` view): a zero-copy view needs them
    /// so; copy it into a tensor instead.
    NotRowMajor {
        /// The array's dims.
        shape: Dims,
    },
    /// A byte buffer of the wrong length.
    ByteLength {
        /// The tensor's dims.
        shape: &'static [usize],
        /// The bytes the shape's elements take.
        expected: usize,
        /// The buffer's length.
        actual: usize,
    },
    /// A byte buffer that does not start at a multiple of the element's
    /// alignment, so it cannot be viewed in place.
    Misaligned {
        /// The alignment the element type needs.
        align: usize,
        /// The buffer's address modulo `align`.
        offset: usize,
    },
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConversionError::Shape { expected, actual } => {
                write!(f, "expected shape {expected:?}, got shape {actual}")
            }
            ConversionError::NotRowMajor { shape } => write!(
                f,
                "the array of shape {shape} is not contiguous in row-major order; \
                 view a standard-layout array or copy it into a tensor"
            ),
            ConversionError::ByteLength {
                shape,
                expected,
                actual,
            } => write!(
                f,
                "shape {shape:?} needs {expected} bytes, got {actual} bytes"
            ),
            ConversionError::Misaligned { align, offset } => write!(
                f,
                "the bytes start {offset} bytes past a multiple of the element's \
                 alignment {align}; view an aligned buffer or copy the bytes"
            ),
        }
    }
}

impl core::error::Error for ConversionError {}

/// The dims of a value from another library, kept without an allocator: up
/// to [`MAX_RANK`](crate::MAX_RANK) of them, and the rank.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Dims {
    rank: usize,
    dims: [usize; crate::MAX_RANK],
}

impl Dims {
    /// Keeps `dims`; past [`MAX_RANK`](crate::MAX_RANK) only the rank and
    /// the first dims are kept.
    pub fn new(dims: &[usize]) -> Dims {
        let mut kept = [0; crate::MAX_RANK];
        let shown = dims.len().min(crate::MAX_RANK);
        kept[..shown].copy_from_slice(&dims[..shown]);
        Dims {
            rank: dims.len(),
            dims: kept,
        }
    }

    /// The number of dims.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The kept dims, outermost first.
    pub fn as_slice(&self) -> &[usize] {
        &self.dims[..self.rank.min(crate::MAX_RANK)]
    }
}

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[")?;
        for (k, dim) in self.as_slice().iter().enumerate() {
            let separator = if k == 0 { "" } else { ", " };
            write!(f, "{separator}{dim}")?;
        }
        if self.rank > crate::MAX_RANK {
            write!(f, ", ... ({} dims)", self.rank)?;
        }
        write!(f, "]")
    }
}

impl fmt::Debug for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a matrix has no inverse, solution or Cholesky factor: the error of
/// the [`linalg`](crate::linalg) methods.
///
/// ```
/// use tensor_expr_runtime::error::LinalgError;
/// let error = LinalgError::Singular { matrix: None, column: 2 };
/// assert_eq!(error.to_string(), "the matrix is singular: column 2 has no non-zero pivot");
/// let in_batch = LinalgError::Singular { matrix: Some(3), column: 2 };
/// assert_eq!(in_batch.to_string(), "matrix 3 of the batch is singular: column 2 has no non-zero pivot");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinalgError {
    /// LU elimination found no non-zero pivot in this column (`inv`, `solve`):
    /// the matrix is singular, as NumPy's `LinAlgError("Singular matrix")`.
    Singular {
        /// Which matrix of a batch (`[B, n, n]`), counted from 0; `None`
        /// for a single matrix.
        matrix: Option<usize>,
        /// The column, counted from 0.
        column: usize,
    },
    /// The Cholesky pivot of this column is not positive (or is NaN): the
    /// matrix is not symmetric positive definite.
    NotPositiveDefinite {
        /// Which matrix of a batch (`[B, n, n]`), counted from 0; `None`
        /// for a single matrix.
        matrix: Option<usize>,
        /// The column, counted from 0.
        column: usize,
    },
}

impl LinalgError {
    /// The same error, for matrix `matrix` of a batch.
    pub fn in_matrix(self, matrix: usize) -> LinalgError {
        match self {
            LinalgError::Singular { column, .. } => LinalgError::Singular {
                matrix: Some(matrix),
                column,
            },
            LinalgError::NotPositiveDefinite { column, .. } => LinalgError::NotPositiveDefinite {
                matrix: Some(matrix),
                column,
            },
        }
    }
}

/// "the matrix" or "matrix 3 of the batch", the subject of an error message.
struct Subject(Option<usize>);

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(matrix) => write!(f, "matrix {matrix} of the batch"),
            None => write!(f, "the matrix"),
        }
    }
}

impl fmt::Display for LinalgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinalgError::Singular { matrix, column } => write!(
                f,
                "{} is singular: column {column} has no non-zero pivot",
                Subject(*matrix)
            ),
            LinalgError::NotPositiveDefinite { matrix, column } => write!(
                f,
                "{} is not positive definite: the pivot of column {column} is not positive",
                Subject(*matrix)
            ),
        }
    }
}

impl core::error::Error for LinalgError {}
