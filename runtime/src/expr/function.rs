//! The one table of elementwise functions, and the operators.
//!
//! Each entry is a zero-sized marker (`functions::exp`) implementing the function
//! trait of its arity for every element type in its domain. The same table
//! produces [`FUNCTIONS`], from which the `tensor_expr!` macro learns names and
//! arities (through the `tensor-expr-catalog` crate, which a test keeps equal
//! to it), so the macro and the runtime cannot disagree.
//!
//! Where a function is defined is [`Domain`], asked of the element type's
//! class ([`Defined`]); only the node constructors require it, so a mistake
//! is reported once, at the function's name, and never re-derived by an
//! enclosing node. The `apply` traits have blanket impls over the domain
//! trait, so code generic over `T: Float` (or `T: Element`) gets every
//! function of its domain from that bound alone.

use super::layer::LayerStep;
use crate::element::{Accumulator, Element, Float, HasSign, IsFloat, NotFloat, Signed};

/// The message carrier for a function outside its domain. Implemented for
/// each function marker where its domain holds: every element type, or those
/// whose class admits it ([`Admits`]).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not defined for elements of type `{T}`",
    label = "`{Self}` cannot take `{T}` elements"
)]
pub trait Defined<T> {
    /// The function marker itself.
    type Function;
}

/// The element classes that admit a function: the element type's
/// [`Element::Floatness`] for a float function (`exp`), its [`Element::Sign`]
/// for negation and `abs`, [`Integral`] of its floatness for the shifts.
/// [`IsFloat`], [`HasSign`] and `Integral<NotFloat>` admit every function;
/// the others none, so for a function outside its domain there is no impl
/// to select and its node's function type stays unresolved: nothing
/// reports the mistake a second time.
pub trait Admits<F> {
    /// `F` itself.
    type Function;
}

#[diagnostic::do_not_recommend]
impl<F> Admits<F> for IsFloat {
    type Function = F;
}

#[diagnostic::do_not_recommend]
impl<F> Admits<F> for HasSign {
    type Function = F;
}

/// The class of an integer function: [`Element::Floatness`] turned round,
/// so that `NotFloat` admits the function and `IsFloat` does not.
pub struct Integral<C>(core::marker::PhantomData<C>);

#[diagnostic::do_not_recommend]
impl<F> Admits<F> for Integral<NotFloat> {
    type Function = F;
}

/// `i32`, the one [`Accumulator`](crate::element::Accumulator), admits the
/// accumulator functions (`requantize`), whose class is the element type
/// itself.
#[diagnostic::do_not_recommend]
impl<F> Admits<F> for i32 {
    type Function = F;
}

/// What the node constructors state: one impl per function marker, requiring
/// [`Defined`] and computing `Function` through it. The constructors type their
/// node with `Function`, so rustc reports a type outside the domain while it
/// computes that type: once, by [`Defined`]'s message, with no note (an impl
/// per marker, rather than one blanket impl, is what makes it so; measured,
/// rustc 1.95). Code generic over `T: Float` gets the float functions, and
/// over `T: Signed` the signed ones, from its bound alone: those traits fix
/// the class.
pub trait Domain<T> {
    /// The function marker itself.
    type Function;
}

/// Implements [`Domain`] and [`Defined`] for a function marker of domain
/// `Element` (every element type), `Signed`, `Float` or `Integer`.
macro_rules! impl_domain {
    ($name:ident: Element) => {
        #[diagnostic::do_not_recommend]
        impl<T> $crate::expr::function::Defined<T> for $name {
            type Function = $name;
        }
        $crate::expr::function::impl_domain!(@domain $name);
    };
    ($name:ident: Signed) => {
        $crate::expr::function::impl_domain!(@class $name: T::Sign);
    };
    ($name:ident: Float) => {
        $crate::expr::function::impl_domain!(@class $name: T::Floatness);
    };
    ($name:ident: Accumulator) => {
        $crate::expr::function::impl_domain!(@class $name: T);
    };
    ($name:ident: Integer) => {
        $crate::expr::function::impl_domain!(@class $name: $crate::expr::function::Integral<T::Floatness>);
    };
    (@class $name:ident: $($class:tt)+) => {
        #[diagnostic::do_not_recommend]
        impl<T: $crate::element::Element> $crate::expr::function::Defined<T> for $name
        where
            $($class)+: $crate::expr::function::Admits<$name>,
        {
            type Function = <$($class)+ as $crate::expr::function::Admits<$name>>::Function;
        }
        $crate::expr::function::impl_domain!(@domain $name);
    };
    (@domain $name:ident) => {
        #[diagnostic::do_not_recommend]
        impl<T> $crate::expr::function::Domain<T> for $name
        where
            $name: $crate::expr::function::Defined<T>,
        {
            type Function = <$name as $crate::expr::function::Defined<T>>::Function;
        }
    };
}
pub(crate) use impl_domain;

/// A function of one element.
pub trait UnaryFunction<T> {
    /// Applies the function.
    fn apply(x: T) -> T;
    /// What the function is as a step of an int8 layer's epilogue
    /// (module [`layer`](super::layer)).
    const LAYER_STEP: LayerStep = LayerStep::None;
}

/// A function of two elements (the operands broadcast together).
pub trait BinaryFunction<T> {
    /// Applies the function.
    fn apply(a: T, b: T) -> T;
    /// 1 for `a + b`, -1 for `a - b`, else 0: where `b` is a constant, the
    /// function adds an offset to `a` (a zero point the widening product
    /// folds into its sums, `Expr::int8_row`).
    const OFFSET_SIGN: i32 = 0;
    /// Whether the function is `a * b`: where both operands' rows are
    /// stored, a sum along the row is a dot product of them
    /// (`Expr::stored_factors`).
    const IS_PRODUCT: bool = false;
    /// What the function is as a step of an int8 layer's epilogue
    /// (module [`layer`](super::layer); `+` and `-` by
    /// [`Self::OFFSET_SIGN`]).
    const LAYER_STEP: LayerStep = LayerStep::None;
}

/// A function of three elements (the operands broadcast together).
pub trait TernaryFunction<T> {
    /// Applies the function.
    fn apply(a: T, b: T, c: T) -> T;
    /// What the function is as a step of an int8 layer's epilogue
    /// (module [`layer`](super::layer)).
    const LAYER_STEP: LayerStep = LayerStep::None;
}

pub use tensor_expr_catalog::FunctionInfo;

/// Implements the function trait of the entry's arity for every element type
/// of the domain trait `$bound` (a blanket impl: code generic over `T: Float`
/// or `T: Element` gets it from its own bound).
macro_rules! impl_function {
    ($name:ident($x:ident): $bound:ident => $body:expr $(, step $step:ident)?) => {
        impl<T: $bound> UnaryFunction<T> for $name {
            #[inline(always)]
            fn apply($x: T) -> T {
                $body
            }
            $(const LAYER_STEP: LayerStep = $crate::expr::layer::LayerStep::$step;)?
        }
    };
    ($name:ident($a:ident, $b:ident): $bound:ident => $body:expr $(, offset $sign:expr)? $(, product $product:literal)? $(, step $step:ident)?) => {
        impl<T: $bound> BinaryFunction<T> for $name {
            #[inline(always)]
            fn apply($a: T, $b: T) -> T {
                $body
            }
            $(const OFFSET_SIGN: i32 = $sign;)?
            $(const IS_PRODUCT: bool = $product;)?
            $(const LAYER_STEP: LayerStep = $crate::expr::layer::LayerStep::$step;)?
        }
    };
    ($name:ident($a:ident, $b:ident, $c:ident): $bound:ident => $body:expr $(, step $step:ident)?) => {
        impl<T: $bound> TernaryFunction<T> for $name {
            #[inline(always)]
            fn apply($a: T, $b: T, $c: T) -> T {
                $body
            }
            $(const LAYER_STEP: LayerStep = $crate::expr::layer::LayerStep::$step;)?
        }
    };
}

/// Declares the markers, their impls and the [`FUNCTIONS`] list from one table.
macro_rules! elementwise_functions {
    ($(#[doc = $doc:literal] $name:ident($($arg:ident),+): $bound:ident => $body:expr $(, step $step:ident)?;)*) => {
        /// The named elementwise functions, one zero-sized marker each.
        #[allow(non_camel_case_types)]
        pub mod functions {
            use super::*;
            $(
                #[doc = $doc]
                #[derive(Clone, Copy, Debug, Default)]
                pub struct $name;
                impl_domain!($name: $bound);
                impl_function!($name($($arg),+): $bound => $body $(, step $step)?);
            )*
        }

        /// Every named function, in table order (read by the `tensor_expr!` macro).
        pub const FUNCTIONS: &[FunctionInfo] = &[$(FunctionInfo {
            name: stringify!($name),
            args: &[$(stringify!($arg)),+],
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
    sigmoid(x): Float => x.sigmoid();
    /// 2 raised to `x`.
    exp2(x): Float => x.exp2();
    /// The base-2 logarithm.
    log2(x): Float => x.log2();
    /// ln(1 + x), accurate near 0.
    log1p(x): Float => x.log1p();
    /// e^x - 1, accurate near 0.
    expm1(x): Float => x.expm1();
    /// ln(1 + e^x), without overflow.
    softplus(x): Float => x.softplus();
    /// x * sigmoid(x) (swish).
    silu(x): Float => x.silu();
    /// GELU, tanh approximation: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
    gelu_tanh(x): Float => x.gelu_tanh();
    /// The error function.
    erf(x): Float => x.erf();
    /// GELU, erf form (PyTorch's default): x/2 (1 + erf(x / sqrt 2)).
    gelu(x): Float => x.gelu();
    /// 1 / sqrt(x).
    rsqrt(x): Float => x.rsqrt();
    /// The nearest integer, ties away from zero (Rust's `round`, TFLite's float rounding).
    round(x): Float => x.round();
    /// The nearest integer, ties to even (NumPy's `rint` and `round`).
    round_even(x): Float => x.round_even();
    /// The largest integer not above `x`.
    floor(x): Float => x.floor();
    /// The smallest integer not below `x`.
    ceil(x): Float => x.ceil();
    /// The integer part of `x`, toward zero.
    trunc(x): Float => x.trunc();
    /// -1, 0 or 1 as `x` is negative, zero or positive; NaN stays NaN.
    sign(x): Signed => x.sign_element();
    /// max(x, 0); NaN stays NaN.
    relu(x): Element => x.max_element(T::ZERO), step Relu;
    /// `x * x`.
    square(x): Element => x * x;
    /// The larger of two values; NaN if either is NaN (NumPy's `maximum`).
    max(a, b): Element => a.max_element(b), step Max;
    /// The smaller of two values; NaN if either is NaN (NumPy's `minimum`).
    min(a, b): Element => a.min_element(b), step Min;
    /// The larger of two values, ignoring a NaN operand (NumPy's `fmax`).
    fmax(a, b): Float => a.fmax_element(b);
    /// The smaller of two values, ignoring a NaN operand (NumPy's `fmin`).
    fmin(a, b): Float => a.fmin_element(b);
    /// `a` raised to the float power `b`.
    pow(a, b): Float => a.powf(b);
    /// `x` limited to `[lo, hi]`: min(max(x, lo), hi); NaN stays NaN.
    clamp(x, lo, hi): Element => x.max_element(lo).min_element(hi), step Clamp;
    /// TFLite's `MultiplyByQuantizedMultiplier`: `acc * multiplier * 2^shift / 2^31`, rounded as TFLite Micro rounds (i32).
    requantize(acc, multiplier, shift): Accumulator => acc.requantize(multiplier, shift), step Requantize;
    /// `x / 2^n`, rounded half away from zero: gemmlowp's `RoundingDivideByPOT` (i32, `n` in [0, 31]).
    rounding_shr(x, n): Accumulator => x.rounding_shr(n);
    /// TFLite's int8 softmax exponential of `diff`, an element less its slice's maximum, in Q0.31 (`quantized_softmax`'s first step).
    softmax_exp(diff, multiplier, shift): Accumulator => diff.softmax_exp(multiplier, shift);
    /// TFLite's int8 softmax output, in units of 1/256, of a `softmax_exp` whose slice sums to `sum` (`quantized_softmax`'s last step).
    softmax_scale(e, sum): Accumulator => e.softmax_scale(sum);
    /// TFLite's int8 `LOGISTIC` of `x`, an int8 input less its zero point, scaled by `sigmoid_multiplier(input_scale)`: the int8 output (scale 1/256, zero point -128) as `i32` (`quantized_sigmoid`'s step).
    sigmoid_int8(x, multiplier, shift): Accumulator => x.sigmoid_int8(multiplier, shift);
    /// TFLite's int8 `TANH` of `x`, an int8 input less its zero point, scaled by `tanh_multiplier(input_scale)`: the int8 output (scale 1/128, zero point 0) as `i32` (`quantized_tanh`'s step).
    tanh_int8(x, multiplier, shift): Accumulator => x.tanh_int8(multiplier, shift);
    /// `a` where `mask` is non-zero (NaN included), else `b`: NumPy's `where`, with a mask from a comparison (`x > 0`).
    select(mask, a, b): Element => if mask != T::ZERO { a } else { b };
}

/// The operators `+ - * /`, the comparisons and unary `-`, as function
/// markers. A comparison gives 1 where it holds and 0 elsewhere, in the
/// expression's element type: a mask that `select` reads, and that arithmetic
/// can use directly (`(x > 0) * g`). Comparisons with NaN are false (`!=`
/// true), as in IEEE 754 and NumPy.
#[allow(non_camel_case_types)]
pub mod operators {
    use super::{BinaryFunction, UnaryFunction};
    use crate::element::{Element, Integer, Signed};

    /// The operators whose function is the Rust operator itself, on the
    /// elements of `$domain`.
    macro_rules! binary_operators {
        ($domain:ident: $($(#[$doc:meta])* $name:ident => $op:tt $(offset $sign:literal)? $(product $product:literal)?;)*) => {$(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug, Default)]
            pub struct $name;
            impl_domain!($name: $domain);
            impl_function!($name(a, b): $domain => a $op b $(, offset $sign)? $(, product $product)?);
        )*};
    }
    binary_operators! { Element:
        /// `a + b`.
        add => + offset 1;
        /// `a - b`.
        sub => - offset -1;
        /// `a * b`.
        mul => * product true;
        /// `a / b` (integer division by zero panics, as in Rust).
        div => /;
    }

    macro_rules! comparisons {
        ($($(#[$doc:meta])* $name:ident => $op:tt;)*) => {$(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug, Default)]
            pub struct $name;
            impl_domain!($name: Element);
            impl_function!($name(a, b): Element => if a $op b { T::ONE } else { T::ZERO });
        )*};
    }
    comparisons! {
        /// `a < b`: 1 where it holds, else 0.
        lt => <;
        /// `a <= b`: 1 where it holds, else 0.
        le => <=;
        /// `a > b`: 1 where it holds, else 0.
        gt => >;
        /// `a >= b`: 1 where it holds, else 0.
        ge => >=;
        /// `a == b`: 1 where it holds, else 0.
        eq => ==;
        /// `a != b`: 1 where it holds (NaN against anything), else 0.
        ne => !=;
    }

    // `a >> b` and `a << b` for integers (an arithmetic shift for signed
    // ones), as Rust's: a shift by the bit width or more panics in debug
    // builds.
    binary_operators! { Integer:
        /// `a >> b`.
        shr => >>;
        /// `a << b`.
        shl => <<;
    }

    /// Unary `-x` (signed elements only).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct neg;
    impl_domain!(neg: Signed);
    impl_function!(neg(x): Signed => -x);
}
