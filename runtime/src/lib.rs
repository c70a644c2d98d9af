//! The `#![no_std]` runtime of `tensor-expr`: type-level shapes, the shape rules,
//! tensors and views, expression nodes and the fused loop-nest driver.
//!
//! Users reach all of this through the `tensor-expr` facade crate and its macros.
//! The facade's documented items are the stable API; this crate's other
//! public items exist for the macro's expansion and the compile-time error
//! messages, and change with them (the facade pins this crate's exact
//! version, so the pair always matches).
//! Without default features this crate names only `core`, `libm` (`sqrt`
//! and `powf` without `std`) and `typenum` (`reshape`'s element counts), and
//! needs no allocator; the interop features add their own crate each.
//!
//! The modules form layers, each using only its own and those before it:
//! [`dim`], [`shape`], [`error`], [`rules`] (the shape rules), [`isa`],
//! `arrays` (arrays built by a loop) and [`scratch`] (kernel scratch lent by
//! a caller); [`access`]
//! (how expressions read and write containers); [`element`], [`fixed_point`], [`math`],
//! [`fmt`], `lanes` (the order of a fold along a row) and the element-type rule; [`expr`] (the nodes), [`ops`] (the operations
//! besides operators and functions) and [`kernel`] (the loop nest); the containers ([`tensor`], [`view`], `heap` over its
//! `aligned` block, [`rows`] for a `Dyn` first dim, [`slice`](mod@slice)), [`join`], [`linalg`] and
//! [`staged`] (operations computed whole into a tensor); [`placement`] (where
//! `tensor_expr!(e)` puts its result) and [`program`] (a program's arena); `containers`, which gives every
//! container its shared methods; and [`interop`]. `tests/module_layers.rs`
//! checks this order, and that no cycle but `shape` <-> `rules` (see
//! [`shape`]) appears.
#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod access;
#[cfg(feature = "alloc")]
mod aligned;
mod arg;
mod arrays;
mod containers;
pub mod dim;
pub mod element;
pub mod error;
pub mod expr;
pub mod fixed_point;
pub mod fmt;
#[cfg(feature = "alloc")]
pub mod heap;
pub mod interop;
pub mod isa;
pub mod join;
pub mod kernel;
pub(crate) mod lanes;
pub mod linalg;
pub mod math;
pub mod ops;
pub mod placement;
pub mod program;
pub mod rows;
pub mod rules;
pub mod scratch;
pub mod shape;
pub mod slice;
pub mod staged;
pub mod tensor;
pub mod view;

pub use access::Target;
pub use dim::{Dim, Dyn, One, RunTime, D, RUN_TIME};
pub use element::{Accumulator, Element, Float, Integer, Signed};
pub use error::{ConversionError, LinalgError, ShapeError};
pub use expr::{FunctionInfo, FUNCTIONS};
#[cfg(feature = "alloc")]
pub use heap::HeapTensor;
pub use program::Arena;
pub use rules::broadcast::Broadcast;
pub use rules::in_place::BroadcastInto;
pub use shape::{RowsShape, Shape, MAX_RANK};
pub use slice::StridedView;
pub use tensor::Tensor;
pub use view::{TensorView, TensorViewMut};
