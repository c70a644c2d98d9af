//! Element types: the arithmetic every tensor element has ([`Element`]), the
//! sign ([`Signed`]) and the float functions ([`Float`]).
//!
//! Float functions come from std's intrinsics with the `std` feature (faster) and
//! from `libm` without it, so the runtime stays `#![no_std]`.

use core::fmt::{Debug, Display};
use core::ops::{Add, Div, Mul, Neg, Sub};

/// A tensor element: `f32`, `f64` or a primitive integer.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tensor element type",
    note = "tensor elements are f32, f64 and the primitive integer types"
)]
pub trait Element:
    Copy
    + PartialEq
    + PartialOrd
    + Debug
    + Display
    + Default
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + 'static
{
    /// The additive identity.
    const ZERO: Self;
    /// The multiplicative identity.
    const ONE: Self;
    /// The lowest value (`-inf` for floats): the start of a `max` reduction.
    const LOWEST: Self;
    /// The highest value (`+inf` for floats): the start of a `min` reduction.
    const HIGHEST: Self;
    /// The smallest integer literal that converts into this type.
    const LITERAL_MIN: i128;
    /// The largest integer literal that converts into this type.
    const LITERAL_MAX: i128;
    /// Converts an integer literal written in an expression (`x * 2`). The range
    /// is checked at compile time by [`crate::expr::IntLiteral`].
    fn from_int_literal(value: i128) -> Self;
    /// Converts a float literal written in an expression (`x * 0.5`). Only float
    /// elements reach it: `float_literal` rejects other types at compile time.
    fn from_float_literal(value: f64) -> Self;
    /// The larger of two elements (for floats, a NaN operand is ignored).
    fn max_element(self, other: Self) -> Self;
    /// The smaller of two elements (for floats, a NaN operand is ignored).
    fn min_element(self, other: Self) -> Self;
    /// `self * b + c`, the step of a dot product. Floats fuse it into one FMA
    /// instruction where the target has one and `std` provides it; elsewhere it
    /// is a multiply and an add (rustc never contracts them by itself).
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        self * b + c
    }
    /// `self * b + c` rounded once (an FMA) for floats with `std`, whatever the
    /// compile-time target: the kernel calls it only inside functions compiled
    /// for FMA after detecting it at run time. Otherwise [`Element::mul_add`].
    #[inline(always)]
    fn fused_mul_add(self, b: Self, c: Self) -> Self {
        self.mul_add(b, c)
    }
}

/// An element with a sign: negation and `abs`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no sign: negation and `abs` need a signed element type"
)]
pub trait Signed: Element + Neg<Output = Self> {
    /// The absolute value.
    fn abs_element(self) -> Self;
}

/// A floating-point element: the transcendental functions.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a float type: float literals and float functions need f32 or f64 elements",
    label = "a float in an expression over `{Self}`"
)]
pub trait Float: Signed {
    /// e^x.
    fn exp(self) -> Self;
    /// The natural logarithm.
    fn ln(self) -> Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// The sine.
    fn sin(self) -> Self;
    /// The cosine.
    fn cos(self) -> Self;
    /// The hyperbolic tangent.
    fn tanh(self) -> Self;
    /// `self` raised to a float power.
    fn powf(self, exponent: Self) -> Self;
}

macro_rules! impl_integer {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;
            const LITERAL_MIN: i128 = if (<$t>::MIN as i128) < 0 { <$t>::MIN as i128 } else { 0 };
            const LITERAL_MAX: i128 = if <$t>::MAX as u128 > i128::MAX as u128 { i128::MAX } else { <$t>::MAX as i128 };
            #[inline(always)]
            fn from_int_literal(value: i128) -> Self { value as $t }
            #[inline(always)]
            fn from_float_literal(value: f64) -> Self { value as $t }
            #[inline(always)]
            fn max_element(self, other: Self) -> Self { Ord::max(self, other) }
            #[inline(always)]
            fn min_element(self, other: Self) -> Self { Ord::min(self, other) }
        }
    )*};
}
impl_integer!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

macro_rules! impl_signed_integer {
    ($($t:ty),*) => {$(
        impl Signed for $t {
            #[inline(always)]
            fn abs_element(self) -> Self { self.abs() }
        }
    )*};
}
impl_signed_integer!(i8, i16, i32, i64, i128, isize);

/// One float function: std's inherent method with the `std` feature (inherent
/// methods take precedence over this trait's), else libm's.
macro_rules! float_fn {
    ($t:ident, $name:ident, $libm:path) => {
        #[inline(always)]
        fn $name(self) -> Self {
            #[cfg(feature = "std")]
            {
                <$t>::$name(self)
            }
            #[cfg(not(feature = "std"))]
            {
                $libm(self)
            }
        }
    };
}

macro_rules! impl_float {
    ($t:ident; exp $exp:path, ln $ln:path, sqrt $sqrt:path, sin $sin:path,
     cos $cos:path, tanh $tanh:path, pow $pow:path) => {
        impl Element for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const LOWEST: Self = <$t>::NEG_INFINITY;
            const HIGHEST: Self = <$t>::INFINITY;
            const LITERAL_MIN: i128 = i128::MIN;
            const LITERAL_MAX: i128 = i128::MAX;
            #[inline(always)]
            fn from_int_literal(value: i128) -> Self {
                value as $t
            }
            #[inline(always)]
            fn from_float_literal(value: f64) -> Self {
                value as $t
            }
            #[inline(always)]
            fn max_element(self, other: Self) -> Self {
                <$t>::max(self, other)
            }
            #[inline(always)]
            fn min_element(self, other: Self) -> Self {
                <$t>::min(self, other)
            }
            #[cfg(all(feature = "std", target_feature = "fma"))]
            #[inline(always)]
            fn mul_add(self, b: Self, c: Self) -> Self {
                <$t>::mul_add(self, b, c)
            }
            #[cfg(feature = "std")]
            #[inline(always)]
            fn fused_mul_add(self, b: Self, c: Self) -> Self {
                <$t>::mul_add(self, b, c)
            }
        }
        impl Signed for $t {
            #[inline(always)]
            fn abs_element(self) -> Self {
                <$t>::abs(self)
            }
        }
        #[diagnostic::do_not_recommend]
        impl Float for $t {
            float_fn!($t, exp, $exp);
            float_fn!($t, ln, $ln);
            float_fn!($t, sqrt, $sqrt);
            float_fn!($t, sin, $sin);
            float_fn!($t, cos, $cos);
            float_fn!($t, tanh, $tanh);
            #[inline(always)]
            fn powf(self, exponent: Self) -> Self {
                #[cfg(feature = "std")]
                {
                    <$t>::powf(self, exponent)
                }
                #[cfg(not(feature = "std"))]
                {
                    $pow(self, exponent)
                }
            }
        }
    };
}

impl_float!(f32; exp libm::expf, ln libm::logf, sqrt libm::sqrtf, sin libm::sinf,
    cos libm::cosf, tanh libm::tanhf, pow libm::powf);
impl_float!(f64; exp libm::exp, ln libm::log, sqrt libm::sqrt, sin libm::sin,
    cos libm::cos, tanh libm::tanh, pow libm::pow);
