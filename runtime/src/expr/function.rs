//! The one table of elementwise functions, and the operators.
//!
//! Each entry is a zero-sized marker (`functions::exp`) implementing the function
//! trait of its arity for every element type in its domain. The same table
//! produces [`FUNCTIONS`], from which the `tensor_expr!` macro learns names and
//! arities, so the macro and the runtime cannot disagree.
//!
//! The impls are per concrete element type (`exp` for `f32` and `f64`), not
//! `impl<T: Float>`: then `exp` on `i32` has no impl at all, the error names the
//! function and the element type, and the node's type becomes rustc's error type
//! so the mistake is reported once (see [`crate::expr::map`]).

use crate::element::{Element, Float, Signed};

/// A function of one element.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not defined for elements of type `{T}`",
    label = "`{Self}` cannot take `{T}` elements"
)]
pub trait UnaryFunction<T> {
    /// The element type, `T` (named so a constructor's return type can mention it).
    type Output;
    /// Applies the function.
    fn apply(x: T) -> T;
}

/// A function of two elements (the operands broadcast together).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not defined for elements of type `{T}`",
    label = "`{Self}` cannot take `{T}` elements"
)]
pub trait BinaryFunction<T> {
    /// The element type, `T` (named so a constructor's return type can mention it).
    type Output;
    /// Applies the function.
    fn apply(a: T, b: T) -> T;
}

/// A function of three elements (the operands broadcast together).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not defined for elements of type `{T}`",
    label = "`{Self}` cannot take `{T}` elements"
)]
pub trait TernaryFunction<T> {
    /// The element type, `T` (named so a constructor's return type can mention it).
    type Output;
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

/// Calls `$callback!($($args)* [types])` with the element types of a domain.
macro_rules! with_domain_types {
    (Element, $callback:ident!($($args:tt)*)) => {
        $callback!($($args)* [f32 f64 i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize]);
    };
    (Signed, $callback:ident!($($args:tt)*)) => {
        $callback!($($args)* [f32 f64 i8 i16 i32 i64 i128 isize]);
    };
    (Float, $callback:ident!($($args:tt)*)) => {
        $callback!($($args)* [f32 f64]);
    };
}

/// Implements the function trait of the entry's arity for each listed type. The
/// body is checked once, generically, against the domain's trait `$bound`.
macro_rules! impl_function {
    ($name:ident($x:ident): $bound:ident => $body:expr; [$($t:ty)*]) => {
        impl $name {
            #[inline(always)]
            fn generic<T: $bound>($x: T) -> T { $body }
        }
        $(impl UnaryFunction<$t> for $name {
            type Output = $t;
            #[inline(always)]
            fn apply(x: $t) -> $t { Self::generic(x) }
        })*
    };
    ($name:ident($a:ident, $b:ident): $bound:ident => $body:expr; [$($t:ty)*]) => {
        impl $name {
            #[inline(always)]
            fn generic<T: $bound>($a: T, $b: T) -> T { $body }
        }
        $(impl BinaryFunction<$t> for $name {
            type Output = $t;
            #[inline(always)]
            fn apply(a: $t, b: $t) -> $t { Self::generic(a, b) }
        })*
    };
    ($name:ident($a:ident, $b:ident, $c:ident): $bound:ident => $body:expr; [$($t:ty)*]) => {
        impl $name {
            #[inline(always)]
            fn generic<T: $bound>($a: T, $b: T, $c: T) -> T { $body }
        }
        $(impl TernaryFunction<$t> for $name {
            type Output = $t;
            #[inline(always)]
            fn apply(a: $t, b: $t, c: $t) -> $t { Self::generic(a, b, c) }
        })*
    };
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
                with_domain_types!($bound, impl_function!($name($($arg),+): $bound => $body;));
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
            with_domain_types!(Element, impl_function!($name(a, b): Element => a $op b;));
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

    /// Unary `-x` (signed elements only).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct neg;
    with_domain_types!(Signed, impl_function!(neg(x): Signed => -x;));
}
