//! Run-time errors: data of the wrong length, matrices without an inverse or
//! factor, and (for the interop features) values of another shape or layout.

use core::fmt;

/// Data whose length does not fit a shape, or two run-time dims
/// ([`Dyn`](crate::Dyn)) of one expression that differ.
///
/// ```
/// use tensor_expr_runtime::{Dyn, Tensor, TensorView, D};
/// let err = Tensor::<f32, (D<2>, D<3>)>::try_from_slice(&[1.0; 5]).unwrap_err();
/// assert_eq!(err.to_string(), "shape [2, 3] needs 6 elements, got 5");
/// let err = TensorView::<f32, (Dyn, D<3>)>::try_from_slice(&[1.0; 5]).unwrap_err();
/// assert_eq!(err.to_string(), "shape [Dyn, 3] needs whole rows of 3 elements, got 5");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeError {
    /// The shape's dims ([`RUN_TIME`](crate::RUN_TIME) for a `Dyn` one).
    pub shape: &'static [usize],
    /// The element count the shape needs (per row, for a `Dyn` shape), or
    /// the rows of the first `Dyn` operand.
    pub expected: usize,
    /// The length that was given, or the rows of the operand that differs.
    pub actual: usize,
    /// Which of the three it is.
    pub kind: Mismatch,
}

/// What a [`ShapeError`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// Elements of a static shape: `expected` is its element count.
    Elements,
    /// Elements of a shape with a `Dyn` first dim: `expected` is a row's
    /// element count, of which the length must be a multiple.
    WholeRows,
    /// The `Dyn` dims of two operands (or an operand and the target):
    /// `expected` rows against `actual`.
    Rows,
}

/// The dims as a person writes them: `Dyn` for a run-time one.
struct Spelled(&'static [usize]);

impl fmt::Display for Spelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (k, &dim) in self.0.iter().enumerate() {
            let sep = if k > 0 { ", " } else { "" };
            if dim == crate::dim::RUN_TIME {
                write!(f, "{sep}Dyn")?;
            } else {
                write!(f, "{sep}{dim}")?;
            }
        }
        f.write_str("]")
    }
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (shape, expected, actual) = (Spelled(self.shape), self.expected, self.actual);
        match self.kind {
            Mismatch::Elements => {
                write!(f, "shape {shape} needs {expected} elements, got {actual}")
            }
            Mismatch::WholeRows => write!(
                f,
                "shape {shape} needs whole rows of {expected} elements, got {actual}"
            ),
            Mismatch::Rows => write!(
                f,
                "the `Dyn` dims differ: {expected} rows against {actual} (shape {shape})"
            ),
        }
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
            kind: Mismatch::Elements,
        })
    }
}

/// The rows of `actual` elements of the `Dyn` shape `S`, or the error if
/// they are not whole rows.
pub(crate) fn check_rows<S: crate::RowsShape>(actual: usize) -> Result<usize, ShapeError> {
    if actual.is_multiple_of(S::ITEM_LEN) {
        Ok(actual / S::ITEM_LEN)
    } else {
        Err(ShapeError {
            shape: <S::Nodes as crate::Shape>::DIMS,
            expected: S::ITEM_LEN,
            actual,
            kind: Mismatch::WholeRows,
        })
    }
}

/// A shape a tensor or view may have: a static [`Shape`](crate::Shape), or a
/// [`RowsShape`](crate::RowsShape) whose rows are counted at run time. What the constructors
/// that take data check its length against, so one `try_from_slice` serves
/// both (and a call whose shape is inferred finds one).
pub trait TensorShape: Copy + Default + fmt::Debug + 'static {
    /// `Ok` if `len` elements fill the shape: exactly its element count,
    /// or whole rows.
    fn check_len(len: usize) -> Result<(), ShapeError>;
}

impl<S: crate::Shape> TensorShape for S {
    #[inline]
    fn check_len(len: usize) -> Result<(), ShapeError> {
        check_len::<S>(len)
    }
}

macro_rules! impl_tensor_shape_of_rows {
    ($($d:ident)*) => {
        impl<$($d: crate::Dim),*> TensorShape for (crate::Dyn, $($d,)*) {
            #[inline]
            fn check_len(len: usize) -> Result<(), ShapeError> {
                check_rows::<Self>(len).map(|_| ())
            }
        }
    };
}

impl_tensor_shape_of_rows!();
impl_tensor_shape_of_rows!(A1);
impl_tensor_shape_of_rows!(A1 A2);
impl_tensor_shape_of_rows!(A1 A2 A3);
impl_tensor_shape_of_rows!(A1 A2 A3 A4);
impl_tensor_shape_of_rows!(A1 A2 A3 A4 A5);

/// `Ok(rows)` if two `Dyn` dims of shape `dims` agree, else the error
/// naming both.
pub(crate) fn check_same_rows(
    dims: &'static [usize],
    rows: usize,
    other: usize,
) -> Result<usize, ShapeError> {
    if rows == other {
        Ok(rows)
    } else {
        Err(ShapeError {
            shape: dims,
            expected: rows,
            actual: other,
            kind: Mismatch::Rows,
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
