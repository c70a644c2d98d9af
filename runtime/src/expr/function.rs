//! The one table of elementwise functions, and the operators.
//!
//! Each entry is a zero-sized marker (`functions::exp`) implementing the function
//! trait of its arity for the element types it is defined on. The same table
//! produces [`FUNCTIONS`], from which the `tensor_expr!` macro learns names and
//! arities, so the macro and the runtime cannot disagree.

use crate::element::{Element, Float, Signed};

/// A function of one element.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not defined for elements of type `{T}`",
    label = "`{Self}` cannot take `{T}` elements"
)]
pub trait UnaryFunction<T> {
    /// Applies the function.
    fn apply(x: T) -> T;
}

/// A function of two elements (the operands broadcast together).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not defined for elements of type `{T}`",
    label = "`{Self}` cannot take `{T}` elements"
)]
pub trait BinaryFunction<T> {
    /// Applies the function.
    fn apply(a: T, b: T) -> T;
}

/// A function of three elements (the operands broadcast together).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not defined for elements of type `{T}`",
    label = "`{Self}` cannot take `{T}` elements"
)]
pub trait TernaryFunction<T> {
    /// Applies the function.
    fn apply(a: T, b: T, c: T) -> T;
}

/// What the macro needs to know about a function: its name, its arity, which
/// element types it accepts, and a one-line description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FunctionInfo {
    /// The name written in expressions.
    pub name: &'static str,
    /// The number of arguments.
    pub arity: usize,
    /// The element trait it needs: `"Element"` (any), `"Signed"` or `"Float"`.
    pub elements: &'static str,
    /// What it computes.
    pub summary: &'static str,
}

/// Declares the markers, their impls and the [`FUNCTIONS`] list from one table.
macro_rules! elementwise_functions {
    ($(#[doc = $doc:literal] $name:ident($($arg:ident),+): $bound:ident => $body:expr;)*) => {
        /// The named elementwise functions, one zero-sized marker each.
        #[allow(non_camel_case_types)]
        pub mod functions {
            use super::*;
            $(
                #[doc = $doc]
                #[derive(Clone, Copy, Debug, Default)]
                pub struct $name;
                elementwise_functions!(@impl $name($($arg),+): $bound => $body);
            )*
        }

        /// Every named function, in table order (read by the `tensor_expr!` macro).
        pub const FUNCTIONS: &[FunctionInfo] = &[$(FunctionInfo {
            name: stringify!($name),
            arity: [$(stringify!($arg)),+].len(),
            elements: stringify!($bound),
            summary: $doc,
        }),*];
    };
    (@impl $name:ident($x:ident): $bound:ident => $body:expr) => {
        impl<T: $bound> UnaryFunction<T> for $name {
            #[inline(always)]
            fn apply($x: T) -> T { $body }
        }
    };
    (@impl $name:ident($a:ident, $b:ident): $bound:ident => $body:expr) => {
        impl<T: $bound> BinaryFunction<T> for $name {
            #[inline(always)]
            fn apply($a: T, $b: T) -> T { $body }
        }
    };
    (@impl $name:ident($a:ident, $b:ident, $c:ident): $bound:ident => $body:expr) => {
        impl<T: $bound> TernaryFunction<T> for $name {
            #[inline(always)]
            fn apply($a: T, $b: T, $c: T) -> T { $body }
        }
    };
}

elementwise_functions! {
    /// The absolute value.
    abs(x): Signed => x.abs_element();
    /// e raised to `x`.
    exp(x): Float => x.exp();
    /// The natural logarithm.
    ln(x): Float => x.ln();
    /// The square root.
    sqrt(x): Float => x.sqrt();
    /// The sine (radians).
    sin(x): Float => x.sin();
    /// The cosine (radians).
    cos(x): Float => x.cos();
    /// The hyperbolic tangent.
    tanh(x): Float => x.tanh();
    /// The logistic function 1 / (1 + e^-x).
    sigmoid(x): Float => T::ONE / (T::ONE + (-x).exp());
    /// max(x, 0).
    relu(x): Element => x.max_element(T::ZERO);
    /// `x * x`.
    square(x): Element => x * x;
    /// The larger of two values (for floats, a NaN operand is ignored).
    max(a, b): Element => a.max_element(b);
    /// The smaller of two values (for floats, a NaN operand is ignored).
    min(a, b): Element => a.min_element(b);
    /// `a` raised to the float power `b`.
    pow(a, b): Float => a.powf(b);
    /// `x` limited to `[lo, hi]`: min(max(x, lo), hi).
    clamp(x, lo, hi): Element => x.max_element(lo).min_element(hi);
}

/// The arithmetic operators `+ - * /` and unary `-`, as function markers.
#[allow(non_camel_case_types)]
pub mod operators {
    use super::{BinaryFunction, UnaryFunction};
    use crate::element::{Element, Signed};

    macro_rules! binary_operators {
        ($($(#[$doc:meta])* $name:ident => $op:tt;)*) => {$(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug, Default)]
            pub struct $name;
            impl<T: Element> BinaryFunction<T> for $name {
                #[inline(always)]
                fn apply(a: T, b: T) -> T { a $op b }
            }
        )*};
    }
    binary_operators! {
        /// `a + b`.
        add => +;
        /// `a - b`.
        sub => -;
        /// `a * b`.
        mul => *;
        /// `a / b` (integer division by zero panics, as in Rust).
        div => /;
    }

    /// Unary `-x`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct neg;
    impl<T: Signed> UnaryFunction<T> for neg {
        #[inline(always)]
        fn apply(x: T) -> T {
            -x
        }
    }
}
