//! Element types: the arithmetic every tensor element has ([`Element`]), the
//! sign ([`Signed`]) and the float functions ([`Float`]).
//!
//! The float functions of `f32` and `f64` are the crate's own ([`crate::math`]):
//! plain arithmetic that LLVM vectorises inside the fused loop, in `core` only,
//! so the runtime stays `#![no_std]`. `sqrt` and `powf` come from std with
//! the `std` feature and from `libm` without it.

use crate::access::{ElementSource, Operand, RowMajor, Stack};
use crate::fixed_point;
use crate::lanes::{fold_lanes, Read, Step};
use core::fmt::{Debug, Display};
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ops::{Add, Div, Mul, Neg, Shl, Shr, Sub};

/// A tensor element: `f32`, `f64` or a primitive integer.
///
/// Every element is also a scalar operand of its own expressions (shape `()`),
/// a supertrait, so code generic over `T: Element` can write `x * a` with
/// `a: T`.
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
    + Operand<Self, Element = Self, Shape = (), Layout = RowMajor<()>, Placement = Stack>
    + ElementSource<Element = Self>
    + Send
    + Sync
    + 'static
{
    /// [`IsFloat`] for float types, [`NotFloat`] otherwise: whether the float
    /// functions of `tensor_expr!` apply (see [`crate::expr::Defined`]).
    type Floatness: FloatnessKind;
    /// Whether this is a float type ([`Element::Floatness`] as a value): a
    /// sum of floats cannot overflow into a panic, so the kernel may fold one
    /// that no expression asked for (see `Shared`).
    const IS_FLOAT: bool = <Self::Floatness as FloatnessKind>::IS_FLOAT;
    /// [`HasSign`] for signed types (floats included), [`NoSign`] otherwise:
    /// whether negation and `abs` apply.
    type Sign;
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
    /// The larger of two elements; for floats NaN if either is NaN (NumPy's
    /// `maximum`, PyTorch's `max`).
    fn max_element(self, other: Self) -> Self;
    /// The smaller of two elements; for floats NaN if either is NaN.
    fn min_element(self, other: Self) -> Self;
    /// `data` as `i8` values where `Self` is `i8`, for the widening
    /// product's kernel (`Expr::int8_row`); `None` for every other type.
    #[inline(always)]
    fn int8_slice(_data: &[Self]) -> Option<&[i8]> {
        None
    }
    /// `data` as `f32` values where `Self` is `f32`, for the float
    /// convolution's kernel (`ops::conv::float`); `None` for every other
    /// type.
    #[inline(always)]
    fn f32_slice(_data: &[Self]) -> Option<&[f32]> {
        None
    }
    /// `data` as `f32` values where `Self` is `f32`: where the float
    /// convolution's kernel writes its sums; `None` for every other type.
    #[inline(always)]
    fn f32_slice_mut(_data: &mut [Self]) -> Option<&mut [f32]> {
        None
    }
    /// `data` as `i32` values where `Self` is `i32`: where the widening
    /// product's kernel writes its sums; `None` for every other type.
    #[inline(always)]
    fn i32_slice_mut(_data: &mut [Self]) -> Option<&mut [i32]> {
        None
    }
    /// `slots` as `i8` slots where `Self` is `i8`: where an int8 layer's
    /// kernel stores its bytes (`expr::layer`); `None` for every other
    /// type.
    #[inline(always)]
    fn int8_slots(_slots: &mut [MaybeUninit<Self>]) -> Option<&mut [MaybeUninit<i8>]> {
        None
    }
    /// `data` as `i32` values where `Self` is `i32`: an int8 layer's
    /// per-channel parameters (`expr::layer`); `None` for every other type.
    #[inline(always)]
    fn i32_slice(_data: &[Self]) -> Option<&[i32]> {
        None
    }
    /// Folds `row` into `acc` element by element (`acc[j] = fold(acc[j],
    /// row[j])`): a reduction's step over an outer axis of stored rows.
    /// Compiled in this crate for each element type (`#[inline(never)]`),
    /// so that a debug build runs it at the runtime's own opt-level (the
    /// profile override the README gives), not at the caller's; the
    /// reduction calls it only in builds of the dev profile (`cfg(dev_profile)`,
    /// `build.rs`), where the loop inlined into the caller would run
    /// unoptimised.
    fn fold_rows_into(fold: RowFold, acc: &mut [Self], row: &[Self]) {
        fold_rows(fold, acc, row);
    }
    /// `row` folded by `fold` as a reduction along a row folds it (its
    /// lanes, in their order): a reduction's step over a stored row.
    /// Compiled in this crate, as [`Element::fold_rows_into`] is.
    fn fold_row(fold: RowFold, row: &[Self]) -> Self {
        fold_row_of(fold, row)
    }
    /// The row `a[j] * b[j]` (as long as the shorter) folded by `fold` as
    /// [`Element::fold_row`] folds a row: a debug build's sum of a product
    /// of two stored rows (an FIR filter's window times its taps), the same
    /// values in the same order as the fold of the computed row. Compiled
    /// in this crate, as [`Element::fold_rows_into`] is.
    fn fold_product_row(fold: RowFold, a: &[Self], b: &[Self]) -> Self {
        fold_product_row_of(fold, a, b)
    }
    /// Whether [`Element::int8_slice`] gives the data: `Self` is `i8`.
    const IS_INT8: bool = false;
    /// `self` as an `i32` where `Self` is `i32` (the widening product's
    /// accumulator and offsets), else `None`.
    #[inline(always)]
    fn to_i32(self) -> Option<i32> {
        None
    }
    /// Whether `Self` is `i32`.
    const IS_I32: bool = false;
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
pub trait Signed: Element<Sign = HasSign> + Neg<Output = Self> {
    /// The absolute value.
    fn abs_element(self) -> Self;
    /// -1, 0 or 1 as `self` is negative, zero or positive; NaN stays NaN
    /// (NumPy's and PyTorch's `sign`; a zero of either sign gives 0).
    #[inline(always)]
    #[allow(clippy::eq_op)]
    fn sign_element(self) -> Self {
        if self > Self::ZERO {
            Self::ONE
        } else if self < Self::ZERO {
            -Self::ONE
        } else if self == Self::ZERO {
            Self::ZERO
        } else {
            self
        }
    }
}

/// The mean of `count` elements whose sum is `sum`: the quotient for floats;
/// for integers rounded half away from zero, as TFLite's integer average
/// pool divides (`(sum +- count / 2) / count`, the division truncating).
///
/// ```
/// use tensor_expr_runtime::element::mean_of;
/// assert_eq!(mean_of(7.0f32, 2), 3.5);
/// assert_eq!((mean_of(7i32, 2), mean_of(-7i32, 2), mean_of(5i32, 4)), (4, -4, 1));
/// ```
#[inline(always)]
pub fn mean_of<T: Element>(sum: T, count: usize) -> T {
    let k = T::from_int_literal(count as i128);
    if T::IS_FLOAT {
        return sum / k;
    }
    let half = T::from_int_literal((count / 2) as i128);
    if sum > T::ZERO {
        (sum + half) / k
    } else {
        (sum - half) / k
    }
}

/// A floating-point element: the transcendental functions.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a float type: float literals and float functions need f32 or f64 elements",
    label = "a float in an expression over `{Self}`"
)]
pub trait Float: Signed + Element<Floatness = IsFloat> {
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

    // The functions below have defaults in terms of those above, so an element
    // type of your own needs only the seven; f32 and f64 override them with
    // more accurate and faster versions.

    /// 2^x.
    #[inline(always)]
    fn exp2(self) -> Self {
        (self * Self::from_float_literal(core::f64::consts::LN_2)).exp()
    }
    /// The base-2 logarithm.
    #[inline(always)]
    fn log2(self) -> Self {
        self.ln() * Self::from_float_literal(core::f64::consts::LOG2_E)
    }
    /// `ln(1 + x)`, accurate near 0 (the default is not).
    #[inline(always)]
    fn log1p(self) -> Self {
        (Self::ONE + self).ln()
    }
    /// `e^x - 1`, accurate near 0 (the default is not).
    #[inline(always)]
    fn expm1(self) -> Self {
        self.exp() - Self::ONE
    }
    /// The logistic function `1 / (1 + e^-x)`.
    #[inline(always)]
    fn sigmoid(self) -> Self {
        Self::ONE / (Self::ONE + (-self).exp())
    }
    /// `ln(1 + e^x)`.
    #[inline(always)]
    fn softplus(self) -> Self {
        self.exp().log1p()
    }
    /// `x * sigmoid(x)`.
    #[inline(always)]
    fn silu(self) -> Self {
        self * self.sigmoid()
    }
    /// GELU, tanh form: `x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`.
    #[inline(always)]
    fn gelu_tanh(self) -> Self {
        let half = Self::from_float_literal(0.5);
        let inner = Self::from_float_literal(0.797_884_560_802_865_4)
            * (self + Self::from_float_literal(0.044_715) * self * self * self);
        half * self * (Self::ONE + inner.tanh())
    }
    /// The error function. The default is Abramowitz and Stegun's 7.1.26
    /// (absolute error below 1.5e-7); f32 and f64 compute it to within an
    /// ulp or so.
    #[inline(always)]
    fn erf(self) -> Self {
        let c = Self::from_float_literal;
        let a = if self < Self::ZERO { -self } else { self };
        let t = Self::ONE / (Self::ONE + c(0.327_591_1) * a);
        let poly = ((((c(1.061_405_429) * t + c(-1.453_152_027)) * t + c(1.421_413_741)) * t
            + c(-0.284_496_736))
            * t
            + c(0.254_829_592))
            * t;
        let y = Self::ONE - poly * (-(a * a)).exp();
        if self < Self::ZERO {
            -y
        } else {
            y
        }
    }
    /// GELU, erf form (PyTorch's default `gelu`): `x/2 (1 + erf(x / sqrt 2))`.
    #[inline(always)]
    fn gelu(self) -> Self {
        let half = Self::from_float_literal(0.5);
        let t = self * Self::from_float_literal(core::f64::consts::FRAC_1_SQRT_2);
        half * self * (Self::ONE + t.erf())
    }
    /// `1 / sqrt(x)`.
    #[inline(always)]
    fn rsqrt(self) -> Self {
        Self::ONE / self.sqrt()
    }
    /// The magnitude from which every value is an integer: 2^52 (f64's
    /// default), 2^23 for f32. The rounding functions add and subtract it.
    #[inline(always)]
    fn integral_from() -> Self {
        Self::from_float_literal(4_503_599_627_370_496.0)
    }
    /// The nearest integer, ties to even (NumPy's `rint` and `round`, Rust's
    /// `round_ties_even`); a zero keeps its sign, NaN and infinities stay.
    /// Adding and subtracting [`Float::integral_from`] rounds in the FPU's
    /// own mode, in vector instructions.
    #[inline(always)]
    fn round_even(self) -> Self {
        with_sign_of(nearest_of_magnitude(self.abs_element()), self)
    }
    /// The largest integer not above `self` (Rust's and NumPy's `floor`).
    #[inline(always)]
    fn floor(self) -> Self {
        let rounded = self.round_even();
        if rounded > self {
            rounded - Self::ONE
        } else {
            rounded
        }
    }
    /// The smallest integer not below `self` (Rust's and NumPy's `ceil`).
    #[inline(always)]
    fn ceil(self) -> Self {
        let rounded = self.round_even();
        if rounded < self {
            let up = rounded + Self::ONE;
            if up == Self::ZERO {
                // ceil(-0.6) is -0.0.
                self * Self::ZERO
            } else {
                up
            }
        } else {
            rounded
        }
    }
    /// The integer part, toward zero (Rust's and NumPy's `trunc`).
    #[inline(always)]
    fn trunc(self) -> Self {
        with_sign_of(floor_of_magnitude(self.abs_element()), self)
    }
    /// The nearest integer, ties away from zero (Rust's `round`, C's
    /// `round`, TFLite's float rounding; NumPy's `round` is
    /// [`Float::round_even`]). The fraction `|x| - trunc(|x|)` is exact, so
    /// 0.49999997 rounds to 0.
    #[inline(always)]
    fn round(self) -> Self {
        let magnitude = self.abs_element();
        let whole = floor_of_magnitude(magnitude);
        let rounded = if magnitude - whole >= Self::from_float_literal(0.5) {
            whole + Self::ONE
        } else {
            whole
        };
        with_sign_of(rounded, self)
    }
    /// The larger of two values, ignoring a NaN operand (NumPy's `fmax`).
    #[inline(always)]
    #[allow(clippy::eq_op)]
    fn fmax_element(self, other: Self) -> Self {
        if other > self || self != self {
            other
        } else {
            self
        }
    }

    /// The smaller of two values, ignoring a NaN operand (NumPy's `fmin`).
    #[inline(always)]
    #[allow(clippy::eq_op)]
    fn fmin_element(self, other: Self) -> Self {
        if other < self || self != self {
            other
        } else {
            self
        }
    }
}

/// The nearest integer to `magnitude` (not negative, or NaN), ties to
/// even: adding and subtracting [`Float::integral_from`] makes the FPU
/// round (NaN and values already integral are returned as they are).
#[inline(always)]
fn nearest_of_magnitude<T: Float>(magnitude: T) -> T {
    let big = T::integral_from();
    if magnitude < big {
        (magnitude + big) - big
    } else {
        magnitude
    }
}

/// The largest integer not above `magnitude` (not negative, or NaN).
#[inline(always)]
fn floor_of_magnitude<T: Float>(magnitude: T) -> T {
    let nearest = nearest_of_magnitude(magnitude);
    if nearest > magnitude {
        nearest - T::ONE
    } else {
        nearest
    }
}

/// `magnitude` (not negative, or NaN) with the sign of `x`, a zero
/// included (`x * 0` is a zero of `x`'s sign for the finite `x` that
/// round to zero).
#[inline(always)]
fn with_sign_of<T: Float>(magnitude: T, x: T) -> T {
    if magnitude == T::ZERO {
        x * T::ZERO
    } else if x < T::ZERO {
        -magnitude
    } else {
        magnitude
    }
}

/// What an [`Element::Floatness`] marker says, as a value.
pub trait FloatnessKind {
    /// Whether the element type is a float type.
    const IS_FLOAT: bool;
}

impl FloatnessKind for IsFloat {
    const IS_FLOAT: bool = true;
}

impl FloatnessKind for NotFloat {
    const IS_FLOAT: bool = false;
}

/// The [`Element::Floatness`] of float types.
#[derive(Clone, Copy, Debug)]
pub struct IsFloat;
/// The [`Element::Floatness`] of integer types.
#[derive(Clone, Copy, Debug)]
pub struct NotFloat;
/// The [`Element::Sign`] of signed types.
#[derive(Clone, Copy, Debug)]
pub struct HasSign;
/// The [`Element::Sign`] of unsigned types.
#[derive(Clone, Copy, Debug)]
pub struct NoSign;

/// Calls `$callback!(f32, f64, i8, ..)` with every built-in element type, or
/// with one group of them (`signed_integers`, `unsigned_integers`), each list
/// after the optional `prefix` tokens: the one macro, and the one list, that
/// impls per element type are written from.
macro_rules! for_each_element {
    ($callback:ident) => {
        $crate::element::for_each_element!(@select all, $callback, []);
    };
    ($group:ident, $callback:ident $(, $($prefix:tt)*)?) => {
        $crate::element::for_each_element!(@select $group, $callback, [$($($prefix)*)?]);
    };
    (@select $group:ident, $callback:ident, $prefix:tt) => {
        $crate::element::for_each_element!(@lists $group, $callback, $prefix,
            floats [f32, f64]
            signed [i8, i16, i32, i64, i128, isize]
            unsigned [u8, u16, u32, u64, u128, usize]);
    };
    (@lists all, $callback:ident, [$($p:tt)*], floats [$($f:ty),*] signed [$($s:ty),*] unsigned [$($u:ty),*]) => {
        $callback!($($p)* $($f,)* $($s,)* $($u),*);
    };
    (@lists signed_integers, $callback:ident, [$($p:tt)*], floats $f:tt signed [$($s:ty),*] unsigned $u:tt) => {
        $callback!($($p)* $($s),*);
    };
    (@lists unsigned_integers, $callback:ident, [$($p:tt)*], floats $f:tt signed $s:tt unsigned [$($u:ty),*]) => {
        $callback!($($p)* $($u),*);
    };
}
pub(crate) use for_each_element;

/// A numeric conversion with the semantics of Rust's `as`, between every pair
/// of element types (`Tensor::cast`): a float to an integer rounds toward zero
/// and saturates at the integer's range (NaN gives 0); an integer to a
/// narrower integer keeps the low bits (wraps); anything to a float rounds to
/// the nearest float.
///
/// ```
/// use tensor_expr_runtime::element::Cast;
/// assert_eq!(Cast::<i8>::cast(-200.5f32), -128);
/// assert_eq!(Cast::<u8>::cast(300i32), 44);
/// assert_eq!(Cast::<f32>::cast(16_777_217i64), 16_777_216.0);
/// ```
pub trait Cast<U> {
    /// `self as U`.
    fn cast(self) -> U;
}

/// [`Cast`] from each of the given types to each.
macro_rules! impl_cast {
    ($($t:ty),*) => { impl_cast!(@from [$($t),*] $($t),*); };
    (@from $all:tt $($from:ty),*) => { $( impl_cast!(@to $from => $all); )* };
    (@to $from:ty => [$($to:ty),*]) => {$(
        impl Cast<$to> for $from {
            #[inline(always)]
            #[allow(clippy::unnecessary_cast, trivial_numeric_casts)]
            fn cast(self) -> $to { self as $to }
        }
    )*};
}
/// A numeric conversion that clamps to the target's range, between every
/// pair of element types (`saturating_cast::<U>(e)` in `tensor_expr!`,
/// what quantised code wants when it narrows an accumulator): an integer
/// out of `U`'s range gives `U`'s nearest bound; a float to an integer is
/// Rust's `as`, which already saturates (NaN gives 0); to a float it is
/// `as` (an `f64` beyond `f32`'s range gives an infinity, a float's bound).
///
/// ```
/// use tensor_expr_runtime::element::SaturatingCast;
/// assert_eq!(SaturatingCast::<i8>::saturating_cast(300i32), 127);
/// assert_eq!(SaturatingCast::<u8>::saturating_cast(-5i32), 0);
/// assert_eq!(SaturatingCast::<i8>::saturating_cast(-200.5f32), -128);
/// assert_eq!(SaturatingCast::<i128>::saturating_cast(u128::MAX), i128::MAX);
/// ```
pub trait SaturatingCast<U> {
    /// `self` clamped to `U`'s range, then `as U`.
    fn saturating_cast(self) -> U;
}

/// [`SaturatingCast`] from each of the given types to each.
macro_rules! impl_saturating_cast {
    (floats [$($f:ty),*] integers [$($i:ty),*]) => {
        impl_saturating_cast!(@as [$($f),*] => [$($f,)* $($i),*]);
        impl_saturating_cast!(@as [$($i),*] => [$($f),*]);
        impl_saturating_cast!(@clamp [$($i),*] => [$($i),*]);
    };
    (@as [$($from:ty),*] => $to:tt) => { $( impl_saturating_cast!(@as_one $from => $to); )* };
    (@as_one $from:ty => [$($to:ty),*]) => {$(
        impl SaturatingCast<$to> for $from {
            #[inline(always)]
            #[allow(clippy::unnecessary_cast, trivial_numeric_casts)]
            fn saturating_cast(self) -> $to { self as $to }
        }
    )*};
    (@clamp [$($from:ty),*] => $to:tt) => { $( impl_saturating_cast!(@clamp_one $from => $to); )* };
    (@clamp_one $from:ty => [$($to:ty),*]) => {$(
        impl SaturatingCast<$to> for $from {
            #[inline(always)]
            #[allow(clippy::unnecessary_cast, trivial_numeric_casts)]
            fn saturating_cast(self) -> $to {
                // The bounds in `$from`, constants: the maxima compared as
                // u128 and the minima as i128, where each is exact.
                const HIGH: $from = if (<$to>::MAX as u128) < (<$from>::MAX as u128) {
                    <$to>::MAX as $from
                } else {
                    <$from>::MAX
                };
                const LOW: $from = if (<$to>::MIN as i128) > (<$from>::MIN as i128) {
                    <$to>::MIN as $from
                } else {
                    <$from>::MIN
                };
                (if self > HIGH { HIGH } else if self < LOW { LOW } else { self }) as $to
            }
        }
    )*};
}
impl_saturating_cast!(
    floats [f32, f64]
    integers [i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize]
);

/// Each element type is a scalar operand of its own expressions (shape `()`).
macro_rules! scalar_operands {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl Operand<$t> for $t {
            type Element = $t;
            type Shape = ();
            type Layout = RowMajor<()>;
            type Placement = Stack;
            #[inline]
            fn elements(&self) -> &[$t] { core::slice::from_ref(self) }
        }
        impl ElementSource for $t {
            type Element = $t;
        }
    )*};
}
/// A reduction's step as a value: `sum` and `mean` add, `prod` multiplies,
/// `max` and `min` keep NaN (as [`Element::max_element`] does). What the
/// compiled folds of stored rows ([`Element::fold_rows_into`],
/// [`Element::fold_row`]) are told to do; each variant is one of the step
/// types in [`reducer_steps`], where the step is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFold {
    /// [`reducer_steps::Add`].
    Add,
    /// [`reducer_steps::Mul`].
    Mul,
    /// [`reducer_steps::Max`].
    Max,
    /// [`reducer_steps::Min`].
    Min,
}

impl RowFold {
    /// The start of every fold, and the value of an empty one.
    pub const fn identity<T: Element>(self) -> T {
        match self {
            RowFold::Add => T::ZERO,
            RowFold::Mul => T::ONE,
            RowFold::Max => T::LOWEST,
            RowFold::Min => T::HIGHEST,
        }
    }

    /// Whether the step has a quiet form ([`FoldStep::combine_quiet`]).
    pub const fn has_quiet(self) -> bool {
        matches!(self, RowFold::Max | RowFold::Min)
    }
}

/// A reduction's step as a type: a fold over it is compiled for that step
/// alone. (Over a [`RowFold`] value, a build without optimisation compiled
/// all four steps at every step of the fold.)
pub trait FoldStep<T: Element> {
    /// The step as a value.
    const FOLD: RowFold;
    /// Folds one more element in.
    fn combine(acc: T, x: T) -> T;
    /// `combine` for the lanes of a fold along a row, allowed to lose a
    /// NaN: for `max` and `min` one compare-and-select (x86's `maxps`),
    /// where `combine` needs three more operations on the accumulator's
    /// dependency chain to keep a NaN. The fold then looks for NaN apart
    /// and, if it finds one, folds again with `combine`.
    #[inline(always)]
    fn combine_quiet(acc: T, x: T) -> T {
        Self::combine(acc, x)
    }
}

/// The reductions' steps, each defined once.
pub mod reducer_steps {
    use super::{Element, FoldStep, RowFold};

    /// `acc + x`, from 0.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Add;
    /// `acc * x`, from 1.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Mul;
    /// `acc.max_element(x)`, from the lowest value.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Max;
    /// `acc.min_element(x)`, from the highest value.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Min;

    impl<T: Element> FoldStep<T> for Add {
        const FOLD: RowFold = RowFold::Add;
        #[inline(always)]
        fn combine(acc: T, x: T) -> T {
            acc + x
        }
    }

    impl<T: Element> FoldStep<T> for Mul {
        const FOLD: RowFold = RowFold::Mul;
        #[inline(always)]
        fn combine(acc: T, x: T) -> T {
            acc * x
        }
    }

    impl<T: Element> FoldStep<T> for Max {
        const FOLD: RowFold = RowFold::Max;
        #[inline(always)]
        fn combine(acc: T, x: T) -> T {
            acc.max_element(x)
        }
        #[inline(always)]
        fn combine_quiet(acc: T, x: T) -> T {
            if acc > x {
                acc
            } else {
                x
            }
        }
    }

    impl<T: Element> FoldStep<T> for Min {
        const FOLD: RowFold = RowFold::Min;
        #[inline(always)]
        fn combine(acc: T, x: T) -> T {
            acc.min_element(x)
        }
        #[inline(always)]
        fn combine_quiet(acc: T, x: T) -> T {
            if acc < x {
                acc
            } else {
                x
            }
        }
    }
}

/// `acc[j] = S::combine(acc[j], row[j])` for every `j`.
#[inline(always)]
fn fold_rows_with<T: Element, S: FoldStep<T>>(acc: &mut [T], row: &[T]) {
    assert_eq!(acc.len(), row.len(), "rows of one length");
    for (a, &x) in acc.iter_mut().zip(row) {
        *a = S::combine(*a, x);
    }
}

/// [`Element::fold_rows_into`]'s loop for the step `fold` names.
#[inline(always)]
fn fold_rows<T: Element>(fold: RowFold, acc: &mut [T], row: &[T]) {
    match fold {
        RowFold::Add => fold_rows_with::<T, reducer_steps::Add>(acc, row),
        RowFold::Mul => fold_rows_with::<T, reducer_steps::Mul>(acc, row),
        RowFold::Max => fold_rows_with::<T, reducer_steps::Max>(acc, row),
        RowFold::Min => fold_rows_with::<T, reducer_steps::Min>(acc, row),
    }
}

/// A step type's `combine` as a fold's step.
struct Exact<S>(PhantomData<S>);

impl<T: Element, S: FoldStep<T>> Step<T> for Exact<S> {
    #[inline(always)]
    fn step(&self, acc: T, x: T) -> T {
        S::combine(acc, x)
    }
}

/// A step type's `combine_quiet` as a fold's step.
struct Quiet<S>(PhantomData<S>);

impl<T: Element, S: FoldStep<T>> Step<T> for Quiet<S> {
    #[inline(always)]
    fn step(&self, acc: T, x: T) -> T {
        S::combine_quiet(acc, x)
    }
}

/// The `len` elements `row` reads folded by the step `S` in the lanes'
/// order ([`fold_lanes`]): `max` and `min` first with their quiet step,
/// again with `combine` only where an element is NaN. The one fold along a
/// row, for computed rows and stored ones alike.
#[inline(always)]
pub(crate) fn fold_row_with<T: Element, S: FoldStep<T>>(
    row: &(impl Read<T> + ?Sized),
    len: usize,
) -> T {
    let identity = const { S::FOLD.identity::<T>() };
    if const { S::FOLD.has_quiet() } {
        let quiet = Quiet::<S>(PhantomData);
        let (acc, nan) = fold_lanes(row, len, identity, &quiet, true);
        if !nan {
            return acc;
        }
    }
    fold_lanes(row, len, identity, &Exact::<S>(PhantomData), false).0
}

/// [`Element::fold_row`]'s fold for the step `fold` names.
#[inline(always)]
fn fold_row_of<T: Element>(fold: RowFold, row: &[T]) -> T {
    fold_read_of(fold, row, row.len())
}

/// The `len` elements `row` reads folded by the step `fold` names
/// ([`fold_row_with`]): the one match from a step's name to its type.
#[inline(always)]
fn fold_read_of<T: Element>(fold: RowFold, row: &(impl Read<T> + ?Sized), len: usize) -> T {
    match fold {
        RowFold::Add => fold_row_with::<T, reducer_steps::Add>(row, len),
        RowFold::Mul => fold_row_with::<T, reducer_steps::Mul>(row, len),
        RowFold::Max => fold_row_with::<T, reducer_steps::Max>(row, len),
        RowFold::Min => fold_row_with::<T, reducer_steps::Min>(row, len),
    }
}

/// [`Element::fold_product_row`]'s fold for the step `fold` names.
#[inline(always)]
fn fold_product_row_of<T: Element>(fold: RowFold, a: &[T], b: &[T]) -> T {
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    fold_read_of(fold, &ProductRead { a, b }, len)
}

/// Two rows read as their elementwise product.
struct ProductRead<'a, T> {
    a: &'a [T],
    b: &'a [T],
}

impl<T: Element> Read<T> for ProductRead<'_, T> {
    #[inline(always)]
    fn read(&self, j: usize) -> T {
        self.a[j] * self.b[j]
    }
}

for_each_element!(scalar_operands);

for_each_element!(impl_cast);

macro_rules! impl_integer {
    ($sign:ident: $($t:ty),*) => {$(
        impl Element for $t {
            type Floatness = NotFloat;
            type Sign = $sign;
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
            #[inline(never)]
            fn fold_rows_into(fold: RowFold, acc: &mut [Self], row: &[Self]) { fold_rows(fold, acc, row) }
            #[inline(never)]
            fn fold_row(fold: RowFold, row: &[Self]) -> Self { fold_row_of(fold, row) }
            #[inline(never)]
            fn fold_product_row(fold: RowFold, a: &[Self], b: &[Self]) -> Self { fold_product_row_of(fold, a, b) }
            const IS_INT8: bool = <$t as NarrowHooks>::IS_INT8;
            const IS_I32: bool = <$t as NarrowHooks>::IS_I32;
            #[inline(always)]
            fn int8_slice(data: &[Self]) -> Option<&[i8]> { <$t as NarrowHooks>::int8_slice(data) }
            #[inline(always)]
            fn i32_slice_mut(data: &mut [Self]) -> Option<&mut [i32]> { <$t as NarrowHooks>::i32_slice_mut(data) }
            #[inline(always)]
            fn i32_slice(data: &[Self]) -> Option<&[i32]> { <$t as NarrowHooks>::i32_slice(data) }
            #[inline(always)]
            fn int8_slots(slots: &mut [MaybeUninit<Self>]) -> Option<&mut [MaybeUninit<i8>]> { <$t as NarrowHooks>::int8_slots(slots) }
            #[inline(always)]
            fn to_i32(self) -> Option<i32> { <$t as NarrowHooks>::to_i32(self) }
        }
    )*};
}
for_each_element!(signed_integers, impl_integer, HasSign:);

/// The widening product's hooks ([`Element::int8_slice`],
/// [`Element::i32_slice_mut`], [`Element::to_i32`]) of each integer type: the overrides of `i8` and
/// `i32`, the defaults for the others. (A trait of its own, implemented
/// by name, since the types `for_each_element!` passes are opaque to a
/// macro's matching.)
trait NarrowHooks: Sized {
    const IS_INT8: bool = false;
    const IS_I32: bool = false;
    #[inline(always)]
    fn int8_slice(_data: &[Self]) -> Option<&[i8]> {
        None
    }
    #[inline(always)]
    fn i32_slice_mut(_data: &mut [Self]) -> Option<&mut [i32]> {
        None
    }
    #[inline(always)]
    fn i32_slice(_data: &[Self]) -> Option<&[i32]> {
        None
    }
    #[inline(always)]
    fn int8_slots(_slots: &mut [MaybeUninit<Self>]) -> Option<&mut [MaybeUninit<i8>]> {
        None
    }
    #[inline(always)]
    fn to_i32(self) -> Option<i32> {
        None
    }
}

impl NarrowHooks for i8 {
    const IS_INT8: bool = true;
    #[inline(always)]
    fn int8_slice(data: &[i8]) -> Option<&[i8]> {
        Some(data)
    }
    #[inline(always)]
    fn int8_slots(slots: &mut [MaybeUninit<i8>]) -> Option<&mut [MaybeUninit<i8>]> {
        Some(slots)
    }
}

impl NarrowHooks for i32 {
    const IS_I32: bool = true;
    #[inline(always)]
    fn i32_slice_mut(data: &mut [i32]) -> Option<&mut [i32]> {
        Some(data)
    }
    #[inline(always)]
    fn i32_slice(data: &[i32]) -> Option<&[i32]> {
        Some(data)
    }
    #[inline(always)]
    fn to_i32(self) -> Option<i32> {
        Some(self)
    }
}

impl NarrowHooks for i16 {}
impl NarrowHooks for i64 {}
impl NarrowHooks for i128 {}
impl NarrowHooks for isize {}
impl NarrowHooks for u8 {}
impl NarrowHooks for u16 {}
impl NarrowHooks for u32 {}
impl NarrowHooks for u64 {}
impl NarrowHooks for u128 {}
impl NarrowHooks for usize {}
for_each_element!(unsigned_integers, impl_integer, NoSign:);

/// An integer element: the shifts.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an integer type: `>>` and `<<` need integer elements"
)]
pub trait Integer: Element<Floatness = NotFloat> + Shl<Output = Self> + Shr<Output = Self> {}

/// An integer accumulator with TFLite's fixed-point requantisation: `i32`,
/// the accumulator of TFLite's and CMSIS-NN's int8 kernels.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an `i32` accumulator: `requantize` takes `i32` elements"
)]
pub trait Accumulator: Integer {
    /// TFLite's `MultiplyByQuantizedMultiplier(self, multiplier, shift)`:
    /// `self * multiplier * 2^shift / 2^31`, rounded as TFLite rounds. The
    /// multiplier is a Q31 fixed-point number (TFLite's `QuantizeMultiplier`
    /// gives one in `[2^30, 2^31)`, or 0) and `shift` lies in `[-31, 30]`.
    /// It is gemmlowp's two roundings: a saturating rounding doubling high
    /// multiply (`self` shifted left by a positive `shift` first, wrapping
    /// as TFLite's does; ties rounded up), then a rounding divide by
    /// `2^-shift` (ties away from zero).
    ///
    /// ```
    /// use tensor_expr_runtime::element::Accumulator;
    /// // 0.75 as a Q31 multiplier, times 2^-1: 1000 * 0.375.
    /// assert_eq!(1000.requantize(1_610_612_736, -1), 375);
    /// // The multiply rounds ties up: 5 * 0.5 = 2.5 and -2.5.
    /// assert_eq!(5.requantize(1 << 30, 0), 3);
    /// assert_eq!((-5).requantize(1 << 30, 0), -2);
    /// // The divide rounds ties away from zero: -12 * 0.5 / 4 = -1.5.
    /// assert_eq!((-12).requantize(1 << 30, -2), -2);
    /// ```
    fn requantize(self, multiplier: Self, shift: Self) -> Self;

    /// gemmlowp's `RoundingDivideByPOT`: `self / 2^exponent` rounded to
    /// nearest, ties away from zero, for `exponent` in `[0, 31]` (clamped
    /// there).
    ///
    /// ```
    /// use tensor_expr_runtime::element::Accumulator;
    /// assert_eq!(10.rounding_shr(2), 3);
    /// assert_eq!((-10).rounding_shr(2), -3);
    /// ```
    fn rounding_shr(self, exponent: Self) -> Self;

    /// TFLite's int8 softmax exponential of `self`, an element less its
    /// slice's maximum, in Q0.31 ([`crate::fixed_point::softmax_exp`]).
    fn softmax_exp(self, multiplier: Self, shift: Self) -> Self;

    /// TFLite's int8 softmax output of the exponential `self` in a slice
    /// whose exponentials sum to `sum`, in units of 1/256
    /// ([`crate::fixed_point::softmax_scale`]).
    fn softmax_scale(self, sum: Self) -> Self;

    /// TFLite's int8 `LOGISTIC` of `self`, an int8 input less its zero
    /// point: the int8 output, scale 1/256, zero point -128
    /// ([`crate::fixed_point::sigmoid_int8`]).
    fn sigmoid_int8(self, multiplier: Self, shift: Self) -> Self;

    /// TFLite's int8 `TANH` of `self`, an int8 input less its zero point:
    /// the int8 output, scale 1/128, zero point 0
    /// ([`crate::fixed_point::tanh_int8`]).
    fn tanh_int8(self, multiplier: Self, shift: Self) -> Self;
}

pub use crate::fixed_point::{
    quantize_multiplier, sigmoid_multiplier, softmax_multiplier, tanh_multiplier,
};

/// TFLite's int8 `ADD` of two tensors of their own scales, prepared as its
/// kernels prepare it: each input, less its zero point, is shifted left by
/// [`left_shift`](Self::left_shift) (20) and rescaled by its own multiplier
/// to a common scale (twice the larger input scale, over `2^left_shift`);
/// the sum is requantised to the output's scale and its zero point added.
/// The multipliers are TFLite's, computed in `f64` from the `f32` scales
/// (TFLite Micro's `add_common.cc`). A ResNet's residual is one expression:
///
/// ```
/// use tensor_expr_runtime::element::{AddParameters, Accumulator};
/// let p = AddParameters::int8(0.05, 0.1, 0.125);
/// assert_eq!(p.left_shift, 20);
/// // (a - za) 0.05 + (b - zb) 0.1 in units of 0.125, plus zy: for a - za =
/// // 40 and b - zb = -10, (2.0 - 1.0) / 0.125 = 8.
/// let scaled = |x: i32, (m, s): (i32, i32)| (x << p.left_shift).requantize(m, s);
/// let sum = scaled(40, p.a) + scaled(-10, p.b);
/// assert_eq!(sum.requantize(p.output.0, p.output.1), 8);
/// ```
///
/// Inside `tensor_expr!`, with zero points `za`, `zb`, `zy`:
/// `saturating_cast::<i8>(requantize(requantize((cast::<i32>(a) - za) << 20,
/// ma, sa) + requantize((cast::<i32>(b) - zb) << 20, mb, sb), mo, so) + zy)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddParameters {
    /// The left shift of each input before its rescaling (20 for int8).
    pub left_shift: i32,
    /// The first input's multiplier and shift (for
    /// [`Accumulator::requantize`]): its scale over twice the larger one.
    pub a: (i32, i32),
    /// The second input's multiplier and shift.
    pub b: (i32, i32),
    /// The sum's multiplier and shift to the output's scale: twice the
    /// larger input scale over `2^left_shift` times the output's.
    pub output: (i32, i32),
}

impl AddParameters {
    /// The parameters of an int8 `ADD` of inputs of scales `scale_a` and
    /// `scale_b` into an output of scale `scale_output`.
    pub fn int8(scale_a: f32, scale_b: f32, scale_output: f32) -> Self {
        let left_shift = 20;
        let twice_max = 2.0 * f64::from(scale_a.max(scale_b));
        AddParameters {
            left_shift,
            a: quantize_multiplier(f64::from(scale_a) / twice_max),
            b: quantize_multiplier(f64::from(scale_b) / twice_max),
            output: quantize_multiplier(
                twice_max / (f64::from(1u32 << left_shift) * f64::from(scale_output)),
            ),
        }
    }
}

impl Accumulator for i32 {
    // gemmlowp's operations in `fixed_point` are written without branches
    // (shifts of the sign instead of comparisons), so that LLVM vectorises
    // them in a tile's epilogue: with `if`s it keeps the code scalar.
    #[inline(always)]
    fn requantize(self, multiplier: i32, shift: i32) -> i32 {
        fixed_point::multiply_by_quantized_multiplier(self, multiplier, shift)
    }

    #[inline(always)]
    fn rounding_shr(self, exponent: i32) -> i32 {
        fixed_point::rounding_divide_by_pot(self, exponent.clamp(0, 31))
    }

    #[inline(always)]
    fn softmax_exp(self, multiplier: i32, shift: i32) -> i32 {
        fixed_point::softmax_exp(self, multiplier, shift)
    }

    #[inline(always)]
    fn softmax_scale(self, sum: i32) -> i32 {
        fixed_point::softmax_scale(self, sum)
    }

    #[inline(always)]
    fn sigmoid_int8(self, multiplier: i32, shift: i32) -> i32 {
        fixed_point::sigmoid_int8(self, multiplier, shift)
    }

    #[inline(always)]
    fn tanh_int8(self, multiplier: i32, shift: i32) -> i32 {
        fixed_point::tanh_int8(self, multiplier, shift)
    }
}

macro_rules! impl_integer_trait {
    ($($t:ty),*) => {$(
        impl Integer for $t {}
    )*};
}
for_each_element!(signed_integers, impl_integer_trait);
for_each_element!(unsigned_integers, impl_integer_trait);

macro_rules! impl_signed_integer {
    ($($t:ty),*) => {$(
        impl Signed for $t {
            #[inline(always)]
            fn abs_element(self) -> Self { self.abs() }
        }
    )*};
}
for_each_element!(signed_integers, impl_signed_integer);

/// Float functions from [`crate::math`], by name.
macro_rules! math_fns {
    ($t:ident: $($name:ident),*) => {$(
        #[inline(always)]
        fn $name(self) -> Self {
            crate::math::$t::$name(self)
        }
    )*};
}

/// The rounding functions as std's, for targets that round in one
/// instruction.
#[cfg(all(
    feature = "std",
    any(
        target_feature = "sse4.1",
        not(any(target_arch = "x86", target_arch = "x86_64"))
    )
))]
macro_rules! std_rounding {
    ($t:ident) => {
        #[inline(always)]
        fn round_even(self) -> Self {
            <$t>::round_ties_even(self)
        }
        #[inline(always)]
        fn floor(self) -> Self {
            <$t>::floor(self)
        }
        #[inline(always)]
        fn ceil(self) -> Self {
            <$t>::ceil(self)
        }
        #[inline(always)]
        fn trunc(self) -> Self {
            <$t>::trunc(self)
        }
        #[inline(always)]
        fn round(self) -> Self {
            <$t>::round(self)
        }
    };
}

macro_rules! impl_float {
    ($t:ident; pow $pow:path) => {
        impl Element for $t {
            type Floatness = IsFloat;
            type Sign = HasSign;
            #[inline(always)]
            fn f32_slice(data: &[Self]) -> Option<&[f32]> {
                <$t as FloatHooks>::f32_slice(data)
            }
            #[inline(always)]
            fn f32_slice_mut(data: &mut [Self]) -> Option<&mut [f32]> {
                <$t as FloatHooks>::f32_slice_mut(data)
            }
            #[inline(never)]
            fn fold_rows_into(fold: RowFold, acc: &mut [Self], row: &[Self]) {
                fold_rows(fold, acc, row)
            }
            #[inline(never)]
            fn fold_row(fold: RowFold, row: &[Self]) -> Self {
                fold_row_of(fold, row)
            }
            #[inline(never)]
            fn fold_product_row(fold: RowFold, a: &[Self], b: &[Self]) -> Self {
                fold_product_row_of(fold, a, b)
            }
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
            // NaN-propagating in three vector instructions: the comparison
            // keeps `self` where either is NaN (one `maxps`), and a NaN
            // `other` sets every bit of the result (a NaN) through the mask
            // of an unordered compare.
            #[inline(always)]
            #[allow(clippy::eq_op)]
            fn max_element(self, other: Self) -> Self {
                let larger = if other > self { other } else { self };
                <$t>::from_bits(larger.to_bits() | if other != other { !0 } else { 0 })
            }
            #[inline(always)]
            #[allow(clippy::eq_op)]
            fn min_element(self, other: Self) -> Self {
                let smaller = if other < self { other } else { self };
                <$t>::from_bits(smaller.to_bits() | if other != other { !0 } else { 0 })
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
            #[inline(always)]
            fn integral_from() -> Self {
                // 2^(significand bits): 2^23 for f32, 2^52 for f64.
                (1u64 << (<$t>::MANTISSA_DIGITS - 1)) as $t
            }
            // Where the target rounds in one instruction (SSE4.1's `roundps`,
            // every AArch64 core's `frint*`), std's functions compile to it;
            // on x86 without SSE4.1 they are calls, and the defaults above
            // are several times faster.
            #[cfg(all(
                feature = "std",
                any(target_feature = "sse4.1", not(any(target_arch = "x86", target_arch = "x86_64")))
            ))]
            std_rounding!($t);
            math_fns!($t: exp, ln, sqrt, sin, cos, tanh, exp2, log2, log1p, expm1, sigmoid,
                softplus, silu, gelu_tanh, erf, gelu, rsqrt);
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

/// The float convolution's hooks ([`Element::f32_slice`],
/// [`Element::f32_slice_mut`]) of each float type: `f32`'s overrides,
/// `f64`'s defaults (a trait of its own for the reason of
/// [`NarrowHooks`]).
trait FloatHooks: Sized {
    #[inline(always)]
    fn f32_slice(_data: &[Self]) -> Option<&[f32]> {
        None
    }
    #[inline(always)]
    fn f32_slice_mut(_data: &mut [Self]) -> Option<&mut [f32]> {
        None
    }
}

impl FloatHooks for f32 {
    #[inline(always)]
    fn f32_slice(data: &[f32]) -> Option<&[f32]> {
        Some(data)
    }
    #[inline(always)]
    fn f32_slice_mut(data: &mut [f32]) -> Option<&mut [f32]> {
        Some(data)
    }
}

impl FloatHooks for f64 {}

impl_float!(f32; pow libm::powf);
impl_float!(f64; pow libm::pow);
