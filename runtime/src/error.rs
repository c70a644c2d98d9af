//! Run-time errors: the only run-time failure is data of the wrong length.

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
