//! # tensor-expr
//!
//! Statically shaped tensors whose shape rules are checked at compile time, and
//! tensor expressions that compile to one fused loop nest.
//!
//! ```
//! use tensor_expr::prelude::*;
//!
//! let x: Tensor<f32, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
//! let v: Tensor<f32, Shape![3]> = Tensor::try_from_slice(&[7., 8., 9.])?;
//! let y = tensor_expr!(x + v); // NumPy broadcasting, shape [2, 3] inferred
//! assert_eq!(y, tensor![[8., 10., 12.], [11., 13., 15.]]);
//!
//! let z: Tensor<f32, Shape![2, 3]> = tensor_expr!(relu(x * 2 - v) / 4.0);
//! assert_eq!(z.as_slice(), &[0., 0., 0., 0.25, 0.5, 0.75]);
//!
//! let mut acc = Tensor::<f32, Shape![2, 3]>::zeros();
//! tensor_expr!(acc += x * v);          // in place: `x * v` must not grow `acc`
//! tensor_expr!(acc = acc * 0.5 + 1.0); // the target may appear on the right
//! assert_eq!(acc[[1, 2]], 6. * 9. * 0.5 + 1.);
//! # Ok::<(), tensor_expr::ShapeError>(())
//! ```
//!
//! A shape mistake is a compile error on the operator, naming both shapes:
//!
//! ```compile_fail
//! use tensor_expr::prelude::*;
//! let x = Tensor::<f32, Shape![2, 3]>::zeros();
//! let w = Tensor::<f32, Shape![4]>::zeros();
//! let bad = tensor_expr!(x + w); // shapes `(D<2>, D<3>)` and `(D<4>,)` cannot be broadcast together
//! ```
//!
//! See the README for the whole tour: the grammar, broadcasting, in-place rules,
//! views over borrowed data, and `no_std` use.
#![no_std]

pub use tensor_expr_macros::{tensor, tensor_expr, Shape};
pub use tensor_expr_runtime::{
    Broadcast, BroadcastDim, BroadcastInto, Dim, DimInto, Element, Float, One, Shape, ShapeError,
    Signed, Target, Tensor, TensorView, TensorViewMut, D, FUNCTIONS, MAX_RANK,
};

/// A tensor with its elements on the heap, for shapes too big for the stack
/// (features `alloc` or `std`).
#[cfg(feature = "alloc")]
pub use tensor_expr_runtime::HeapTensor;

/// The shape rules as types and as `const fn` reference rules.
pub use tensor_expr_runtime::rules;

/// Everything an expression needs: `use tensor_expr::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "alloc")]
    pub use crate::HeapTensor;
    pub use crate::{tensor, tensor_expr, Shape, Tensor, TensorView, TensorViewMut};
}

/// Used by the code `tensor_expr!` generates; not a public API.
#[doc(hidden)]
pub use tensor_expr_runtime as __private;
