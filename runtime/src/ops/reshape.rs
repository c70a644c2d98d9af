//! `reshape::<Shape![8, 8]>(x)`: `x`'s elements, in the same row-major order,
//! read in place as another shape with the same element count
//! (`rules::reshape`, whose error names both counts). An expression argument
//! is evaluated first, into a tensor of its own.

use super::{Build, Operation, Reads, RowOrder, Signature};
use crate::access::{Contiguous, Operand};
use crate::expr::{Context, TensorLeaf};
use crate::rules::reshape::{CountedShape, Reshape};
use crate::shape::Shape;
use core::marker::PhantomData;

/// The table entry of `reshape::<S>(x)`.
pub const OPERATION: Operation = Operation {
    name: "reshape",
    signature: Signature {
        dims_optional: true,
        type_arg: true,
        ..Signature::of(1)
    },
    reads: Reads::InPlace(RowOrder::Kept),
    build: Build::Node {
        constructor: "reshape::reshape",
        marker: None,
    },
    elements: "Element",
    summary:
        "The same elements in the same order as another shape of as many elements, read in place.",
    forms: &["reshape::<Shape![..]>(x)"],
};

/// `reshape::<R>(x)`: `x`'s elements, in the same row-major order, as shape `R`.
#[inline(always)]
#[rustfmt::skip]
pub fn reshape<'a, R, T, M, X: Operand<T> + ?Sized>(_context: Context<T, M>, _shape: PhantomData<R>, x: &'a X) -> TensorLeaf<'a, X::Element, <X::Shape as Reshape<R>>::Output> where X::Shape: CountedShape + Reshape<R>, R: Shape + CountedShape, X::Layout: Contiguous, X::Element: 'a {
    TensorLeaf::new(x.elements())
}
