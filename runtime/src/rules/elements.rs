//! One element type per expression (a cast's input has its own, see
//! `ops::convert`): an operand of another element type than the
//! expression's is an error, reported once, on the operand, by
//! [`ElementsDiffer`].
//!
//! The layout is that of the shape rules (see [`super`]): the rule
//! [`SameElement`] has an impl for every pair of the built-in element types,
//! the identity for equal ones and, for different ones, an impl that requires
//! the message carrier of a verdict that implements nothing; and an operand's
//! leaf is typed through the rule's output. (With no impl for the mismatched
//! pair, rustc gave a 19-line error: a "but `Operand<f64>` is implemented"
//! help quoting the library's impl, and a note on the constructor's bound.)

use super::NeverHolds;

/// The element type `Self` of an operand read in an expression over `T`.
/// (`Anchor`, always `()`, only gives the rejecting impls a type parameter:
/// with none, their bound would be trivially false, which rustc rejects.)
pub trait SameElement<T, Anchor = ()>: Sized {
    /// `T`, when the types agree.
    type Checked;
    /// The operand's data as the expression's element type (only ever
    /// called when they agree).
    fn data(data: &[Self]) -> &[Self::Checked];
}

/// The identity: one impl for every type, so generic code over `T` has it.
impl<T> SameElement<T> for T {
    type Checked = T;
    #[inline(always)]
    fn data(data: &[T]) -> &[T] {
        data
    }
}

/// The message carrier of an operand with elements `A` in an expression over
/// `T`.
#[diagnostic::on_unimplemented(
    message = "this operand has `{A}` elements, but the expression is over `{T}`",
    label = "`{A}` elements in an expression over `{T}`",
    note = "the first operand (or the assignment's target) sets the element type and every operand must have it; convert one with `cast::<{T}>(..)`"
)]
pub trait ElementsDiffer<A, T, Anchor = ()> {
    /// `T`.
    type Checked;
    /// Never called: no type implements [`NeverHolds`].
    fn data(data: &[A]) -> &[Self::Checked];
}

/// The verdict on an operand of another element type; implements nothing.
pub struct MixedElements;

#[diagnostic::do_not_recommend]
impl<A, T, Anchor, X: NeverHolds> ElementsDiffer<A, T, Anchor> for X {
    type Checked = T;
    fn data(_data: &[A]) -> &[T] {
        &[]
    }
}

/// The rejecting impls for every ordered pair of different element types.
macro_rules! impl_mixed_elements {
    ($first:ty $(, $rest:ty)*) => {
        $(
            impl_mixed_elements!(@pair $first, $rest);
            impl_mixed_elements!(@pair $rest, $first);
        )*
        impl_mixed_elements!($($rest),*);
    };
    () => {};
    (@pair $a:ty, $t:ty) => {
        impl<Anchor> SameElement<$t, Anchor> for $a
        where
            MixedElements: ElementsDiffer<$a, $t, Anchor>,
        {
            type Checked = <MixedElements as ElementsDiffer<$a, $t, Anchor>>::Checked;
            #[inline(always)]
            fn data(data: &[$a]) -> &[Self::Checked] {
                <MixedElements as ElementsDiffer<$a, $t, Anchor>>::data(data)
            }
        }
    };
}
crate::element::for_each_element!(impl_mixed_elements);
