//! What the `tensor_expr!` macro knows of the language it expands: the
//! operations ([`OPERATIONS`]), the named elementwise functions
//! ([`FUNCTIONS`]), the limits the runtime's impls go to ([`MAX_RANK`],
//! [`GROUP`]), and the rule both apply to decide whether an expression's
//! products keep their tiles ([`walk`]).
//!
//! The runtime crate defines each of them next to the code that evaluates
//! it (an operation's entry in its `ops` module, a function's in the
//! function table, the limits beside the impls they bound). `tables.rs` is
//! written from those definitions by the runtime's test `catalog_is_current`
//! (`runtime/tests/catalog.rs`), which fails and rewrites the file when it is
//! out of date. The macro reads this crate, so it builds without linking the
//! runtime and its generated impls; the types here are the runtime's own,
//! re-exported there. The runtime takes the types without the tables
//! (feature `tables`, on by default), so that test builds even where the
//! old file no longer compiles.
#![no_std]
#![warn(missing_docs)]

pub mod function;
pub mod operation;
pub mod walk;
#[cfg(feature = "tables")]
#[rustfmt::skip]
mod tables;

pub use function::FunctionInfo;
pub use operation::Operation;
#[cfg(feature = "tables")]
pub use tables::{FUNCTIONS, GROUP, MAX_RANK, OPERATIONS};
