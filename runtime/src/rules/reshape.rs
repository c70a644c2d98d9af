//! The reshape rule: `reshape::<R>(x)` keeps `x`'s elements in row-major order
//! and needs `R` to have as many as `x`'s shape.
//!
//! Equal element counts is arithmetic on dims, which stable Rust cannot do on
//! const generics in a bound; typenum does it on types, so `cargo check` (and
//! rust-analyzer) reports a mismatch. Each dim maps to a typenum number
//! through [`TypeSize`], which covers sizes up to
//! 4096 and powers of 2 and of 10; a dim outside those cannot be reshaped.
//! The messages read:
//!
//! ``cannot reshape `(D<8>, D<64>)` into `(D<8>, D<8>, D<9>)`: the element counts differ``
//!
//! ``reshape` cannot count the elements of `(D<5000>,)` at compile time: a dim is not 0..=4096, a power of 2 or a power of 10``
//! (a target shape out of range, [`CountedShape`]; an operand out of range
//! gets the first message, whose note names the range).

use super::size::TypeSize;
use crate::shape::Shape;
use core::ops::Mul;
use typenum::{Prod, Same, U1};

/// A shape's element count as a typenum unsigned.
pub trait TypeLen {
    /// The product of the dims' sizes.
    type Len;
}

/// `impl TypeLen` for one rank: the product folded left to right, each step a bound.
macro_rules! impl_type_len {
    (@fold [$($d:ident)*] [$($bounds:tt)*] $acc:ty;) => {
        impl<$($d: TypeSize),*> TypeLen for ($($d,)*) where $($bounds)* {
            type Len = $acc;
        }
    };
    (@fold [$($d:ident)*] [$($bounds:tt)*] $acc:ty; $next:ident $($rest:ident)*) => {
        impl_type_len!(@fold [$($d)*] [$($bounds)* $acc: Mul<<$next as TypeSize>::Size>,]
            Prod<$acc, <$next as TypeSize>::Size>; $($rest)*);
    };
    ($($d:ident)*) => { impl_type_len!(@fold [$($d)*] [] U1; $($d)*); };
}

impl_type_len!();
impl_type_len!(A0);
impl_type_len!(A0 A1);
impl_type_len!(A0 A1 A2);
impl_type_len!(A0 A1 A2 A3);
impl_type_len!(A0 A1 A2 A3 A4);
impl_type_len!(A0 A1 A2 A3 A4 A5);

/// A shape whose element count typenum can compute: every dim is 0..=4096,
/// a power of 2 or a power of 10 (the sizes [`TypeSize`] covers).
#[diagnostic::on_unimplemented(
    message = "`reshape` cannot count the elements of `{Self}` at compile time: a dim is not 0..=4096, a power of 2 or a power of 10",
    label = "a dim of `{Self}` is outside the sizes `reshape` counts",
    note = "the count is typenum arithmetic, which covers dims up to 4096 and powers of 2 and 10; reshape in steps through such dims, or copy the elements (`Tensor::try_from_slice(x.as_slice())`), which checks the count when the program runs"
)]
pub trait CountedShape: Shape {
    /// The element count as a typenum unsigned.
    type Count;
}

#[diagnostic::do_not_recommend]
impl<S: Shape + TypeLen> CountedShape for S {
    type Count = S::Len;
}

/// `Self` can be reshaped into `R`: both have the same number of elements.
#[diagnostic::on_unimplemented(
    message = "cannot reshape `{Self}` into `{R}`: the element counts differ",
    label = "reshaping `{Self}` into `{R}`",
    note = "`reshape` keeps every element in row-major order, so the product of the dims must stay the same; the products are computed with typenum, which covers dims up to 4096 and powers of 2 and 10, and an operand with a dim outside those is reported here too"
)]
pub trait ReshapeInto<R: Shape>: Shape {
    /// `R`, once the counts are known equal.
    type Output: Shape;
}

#[diagnostic::do_not_recommend]
impl<S: CountedShape, R: CountedShape> ReshapeInto<R> for S
where
    S::Count: Same<R::Count>,
{
    type Output = R;
}

/// The rule the `reshape` constructor states: one impl per rank of the
/// operand, each requiring the message carrier [`ReshapeInto`] and computing
/// `Output` through it. With the carrier behind an impl for a concrete rank
/// (rather than bound directly), rustc reports a count mismatch while it
/// computes the node's type, by [`ReshapeInto`]'s message, with no note
/// (measured, rustc 1.95).
pub trait Reshape<R: Shape>: Shape {
    /// `R`, when the counts agree.
    type Output: Shape;
}

macro_rules! impl_reshape {
    ($($d:ident)*) => {
        #[diagnostic::do_not_recommend]
        impl<$($d: crate::dim::Dim,)* R: Shape> Reshape<R> for ($($d,)*)
        where
            Self: CountedShape,
            R: CountedShape,
            Self: ReshapeInto<R>,
        {
            type Output = <Self as ReshapeInto<R>>::Output;
        }
    };
}

impl_reshape!();
impl_reshape!(A0);
impl_reshape!(A0 A1);
impl_reshape!(A0 A1 A2);
impl_reshape!(A0 A1 A2 A3);
impl_reshape!(A0 A1 A2 A3 A4);
impl_reshape!(A0 A1 A2 A3 A4 A5);
