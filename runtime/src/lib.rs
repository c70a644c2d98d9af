//! The `#![no_std]` runtime of `tensor-expr`: type-level shapes, the shape rules,
//! tensors and views, expression nodes and the fused loop-nest driver.
//!
//! Users reach all of this through the `tensor-expr` facade crate and its macros.
//! Without default features this crate names only `core`, `libm` (float
//! functions without `std`) and `typenum` (`reshape`'s element counts), and
//! needs no allocator; the interop features add their own crate each.
#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod arg;
pub mod dim;
pub mod element;
pub mod error;
pub mod expr;
pub mod fmt;
#[cfg(feature = "alloc")]
pub mod heap;
pub mod interop;
pub mod join;
pub mod kernel;
pub mod math;
pub mod placement;
pub mod rules;
pub mod shape;
pub mod slice;
pub mod tensor;
pub mod view;

pub use dim::{Dim, One, D};
pub use element::{Element, Float, Signed};
pub use error::ShapeError;
pub use expr::{FunctionInfo, FUNCTIONS};
#[cfg(feature = "alloc")]
pub use heap::HeapTensor;
pub use kernel::Target;
pub use rules::broadcast::Broadcast;
pub use rules::in_place::BroadcastInto;
pub use shape::{Shape, MAX_RANK};
pub use slice::StridedView;
pub use tensor::Tensor;
pub use view::{TensorView, TensorViewMut};
