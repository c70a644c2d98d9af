//! Expression trees built by `tensor_expr!` and read row by row by the kernel.
//!
//! An [`Expr`] node has a type-level shape and evaluates row by row: for one row
//! of the output (all indices but the last) it returns a [`Row`] whose
//! `get(j, current)` gives the element at column `j`. Leaves read their data
//! through broadcast strides, which are constants of the monomorphised shapes, so
//! the innermost loop is a plain contiguous loop.
//!
//! The constructors in [`map`] carry the shape and element rules as bounds and are
//! called spanned on the user's operator, so rustc reports a violation there. Each
//! constructor's return type is built from projections of those same bounds, so a
//! violation turns the node's type into rustc's error type and every later use is
//! silent: one mistake, one error.

mod function;
mod leaf;
pub mod map;

pub use function::{
    functions, operators, BinaryFunction, DefinedFor, FunctionInfo, TernaryFunction, UnaryFunction,
    FUNCTIONS,
};
pub use leaf::{
    context_of, float_literal, inferred_context, operand, shape_of, target_context, target_leaf,
    target_shape, Context, FloatLiteral, IntLiteral, Operand, TargetLeaf, TensorLeaf,
};
pub use map::{map1, map2, map3, Map1, Map2, Map3};

use crate::shape::{Shape, MAX_RANK};

/// An expression node evaluated over elements of type `T`.
#[diagnostic::on_unimplemented(
    message = "element types do not match: `{Self}` is not an expression over `{T}`",
    label = "expected elements of type `{T}` here",
    note = "tensor expressions never convert element types; convert the operand first"
)]
pub trait Expr<T> {
    /// The node's shape.
    type Shape: Shape;
    /// The reader for one output row. `outer` holds the output index of every
    /// dim but the last (the rest of the array is zero); `O` is the output shape.
    fn row<O: Shape>(&self, outer: &[usize; MAX_RANK]) -> impl Row<T> + '_;
}

/// One output row of an expression, read column by column.
pub trait Row<T> {
    /// The value at column `j`; `current` is the target's present value there
    /// (read only by [`TargetLeaf`], for `out = out * 2 + 1` and `out += e`).
    fn get(&self, j: usize, current: T) -> T;
}
