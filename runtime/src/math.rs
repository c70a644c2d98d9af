//! Float functions written so that LLVM vectorises them inside the fused loop.
//!
//! A call to std's or libm's `expf` is opaque to the vectoriser: a loop that
//! calls it runs one element at a time. These functions are plain arithmetic
//! on the value and its bits, with no branches (every `if` below is a select
//! between two computed values) and no table lookups (which would become
//! gathers), so the inner loop of `tensor_expr!(exp(x) * w)` runs 8 or 16
//! lanes at a time. They use only `core`, so they also serve `no_std` builds.
//!
//! The technique is the classic one (Cody and Waite's range reduction, as in
//! Cephes and fdlibm): split the argument into an integer part handled through
//! the exponent bits and a small remainder handled by a short polynomial.
//!
//! - `exp(x) = 2^n e^r`, `n = round(x / ln 2)`, `r = x - n ln 2` (ln 2 split
//!   in two parts so `n ln 2` is exact), `e^r` by a polynomial on `|r| <= ln
//!   2 / 2` (f32: degree 6, fitted for least relative error; f64: Taylor to
//!   degree 13); `2^n` is one power of two, with a rescaling where it would
//!   be too small, so results reach the subnormals (rounded there by one
//!   multiply) and large `x` overflow to infinity.
//! - `ln(x) = k ln 2 + ln(1 + f)` with the mantissa normalised to
//!   `[sqrt(1/2), sqrt(2))`, and `ln(1 + f) = f - f^2/2 + f^3 P(f)` with
//!   Cephes' `P` for f32 (no division) and, for f64, `2 atanh(s)`, `s = f /
//!   (2 + f)`, by fdlibm's polynomial in `s^2`; the terms summed in fdlibm's
//!   order.
//! - `sin`/`cos`: reduction by multiples of pi/4 (pi/4 split in three parts),
//!   then Cephes' polynomials on `|r| <= pi/4`, the octant choosing which and
//!   the sign. The reduction is exact for `|x| <= 1e7` (f32, reduced in f64)
//!   and `|x| <= 1e9` (f64); beyond, it is not (an exact one, Payne-Hanek,
//!   needs a table of 2/pi's bits indexed by the exponent: a gather in every
//!   lane), so the result there is not `sin x`, but it is finite and in
//!   `[-1, 1]`, and `sin^2 + cos^2` stays 1 within the polynomials' error.
//! - `tanh`: `(1 - e^b) / (1 + e^b)` for `b = -2|x|`, numerator and
//!   denominator each one FMA from the reduced `e^r - 1` (no cancellation
//!   anywhere, so no separate polynomial for small `|x|`); the `-2` is
//!   folded into the reduction's constants and the polynomial's.
//! - `sigmoid`, `silu`, `gelu_tanh`: `e^-|x|` held scaled by `2^SHIFT`, so it
//!   stays normal; one division (for `sigmoid`, of two scaled values, so the
//!   quotient needs no scaling back), rounded once into the subnormals.
//!
//! # Accuracy
//!
//! The maximum error in ulp. f32: every one of the 2^32 inputs against std's
//! f64 function at the same input (`cargo run --release --example accuracy`).
//! f64: 20 million samples (half any bit pattern, half in [-64, 64)) against
//! std's f64 functions, which are themselves within about 1 ulp, so the f64
//! column bounds the distance between the two. The test suite checks about
//! 1.4 million f32 and 300,000 f64 inputs per function against the same
//! bounds (`tests/float_functions.rs`). The bounds are a contract: a change
//! that exceeds one fails the tests.
//!
//! | function | f32, every input | f64, sampled, against std |
//! | --- | ---: | ---: |
//! | `exp` | 1.02 | 1 |
//! | `exp2` | 1.02 | 1 |
//! | `expm1` | 1.89 | 2 |
//! | `ln` | 0.85 | 1 |
//! | `log2` | 1.89 | 2 |
//! | `log1p` | 2.47 | 2 |
//! | `sin` | 1.57 (\|x\| <= 1e7) | 2 (\|x\| <= 1e9) |
//! | `cos` | 1.58 (\|x\| <= 1e7) | 2 (\|x\| <= 1e9) |
//! | `tanh` | 2.40 | 3 |
//! | `sigmoid` | 2.40 | 2 |
//! | `softplus` | 2.81 | - |
//! | `silu` | 2.75 | - |
//! | `gelu_tanh` | 2.94 | - |
//! | `erf` | 1.38 | 1 (against libm) |
//! | `gelu` | 6.95 | 6 (against a libm-based reference) |
//! | `sqrt` | 0.50 | 0 |
//! | `rsqrt` | 1.49 | 0 |
//!
//! - The table is for the default target. With FMA (`-C target-cpu=native`)
//!   a result differs in its last bit here and there; over every f32 input
//!   with FMA: `exp` 1.04, `exp2` 1.04, `tanh` 2.23, `sigmoid` 2.40, `erf`
//!   1.10, `gelu` 5.83.
//! - `sin`, `cos`: beyond the stated ranges the reduction is inexact and the
//!   result is not `sin x`; it stays finite and in `[-1, 1]` for every finite
//!   input (tested over sampled bit patterns of the whole range).
//! - `tanh`'s f64 figure is a distance to std: at its worst input
//!   (0.5045881301250148) std's own result is 1.93 ulp from the 40-digit value
//!   and this one 1.07.
//! - `gelu` is GELU's erf form, `x/2 (1 + erf(x / sqrt 2))` (PyTorch's
//!   default), computed as `x erfc(|x| / sqrt 2) / 2` for x < 0, so nothing
//!   cancels in the left tail. For f64, `erf` and `erfc` are fdlibm's
//!   rational approximations, all pieces computed and one selected. For f32
//!   (fitted by `tests/vectors/fit_erf.py`), `erf` is a polynomial below 1
//!   and `1 - erfc(x)` above with `erfc` a rational function fitted for
//!   absolute error, no exponential; `gelu` is one path through `e^(-x^2/2)`
//!   and a rational `erfcx`, whose rounding in f32 arithmetic is its error,
//!   about as large across the whole left half, tail included, where the
//!   written-out `x/2 (1 + erf(..))` loses every digit. The f64 `gelu` figure
//!   is a distance to a libm-based reference that is itself up to about 3 ulp
//!   off in the left tail; against 50-digit values it is within 2 ulp.
//! - `gelu_tanh` is GELU's tanh form, computed as `x sigmoid(2u)`; for f32 its
//!   exponent `2u` is computed in f64. For f64 there is no wider type: its left
//!   tail (results below about 1e-30) is less accurate than the table says.
//!
//! # Special values
//!
//! NaN in, NaN out; `exp(0) = 1`, `ln(1) = 0`, `ln(0) = -inf`,
//! `ln(x < 0) = NaN`; `exp` overflows to inf and underflows through the
//! subnormals to 0; `tanh` saturates to exactly +-1 and `tanh(-0) = -0`;
//! `sigmoid` stays in [0, 1]; `silu`, `gelu_tanh` and `softplus` reach 0 at
//! -inf; `sin(-0) = -0`; `sin` and `cos` of an infinity are NaN.
//!
//! ```
//! use tensor_expr_runtime::math::{f32 as m32, f64 as m64};
//! assert_eq!(m32::exp(0.0), 1.0);
//! assert_eq!(m32::ln(0.0), f32::NEG_INFINITY);
//! assert!(m32::ln(-1.0).is_nan());
//! assert_eq!(m64::tanh(50.0), 1.0);
//! assert!(m32::sin(1e30).abs() <= 1.0);
//! assert!(m64::cos(f64::INFINITY).is_nan());
//! ```

// The coefficients are written as Cephes and fdlibm publish them (f32's
// `expm1_reduced` is fitted here, the same way); the compiler rounds each to the
// nearest float, the value they were fitted as.
#![allow(clippy::excessive_precision)]

/// Horner's rule over constant coefficients, highest degree first, with the
/// `fma` of the type in scope.
macro_rules! horner {
    ($x:expr; $c0:expr $(, $c:expr)* $(,)?) => {{
        let x = $x;
        let acc = $c0;
        $(let acc = fma(acc, x, $c);)*
        acc
    }};
}

/// The algorithms, once, for a float type `$f` whose bits are `$u` (signed
/// `$i`), with its constants in module `$k`.
macro_rules! float_math {
    ($f:ident, $u:ident, $i:ident, $k:ident) => {
        /// `a * b + c`: one fused multiply-add where the target has FMA and
        /// std provides it (`-C target-cpu=native` on x86-64), else a
        /// multiply and an add; never a call (`mul_add` without hardware FMA
        /// is a slow libm routine). The two differ in rounding only; the
        /// stated bounds hold for both.
        #[inline(always)]
        fn fma(a: $f, b: $f, c: $f) -> $f {
            #[cfg(all(feature = "std", target_feature = "fma"))]
            {
                a.mul_add(b, c)
            }
            #[cfg(not(all(feature = "std", target_feature = "fma")))]
            {
                a * b + c
            }
        }

        /// `if c { a } else { b }`, written so it stays a select.
        #[inline(always)]
        fn select(c: bool, a: $f, b: $f) -> $f {
            if c {
                a
            } else {
                b
            }
        }

        /// `x * m` rounded to the nearest integer (ties to even), for `|x
        /// m| < 2^(MANT-1)`: the integer `n` as a float, and `t = x m + 1.5
        /// 2^MANT`, whose bits hold `n` (their last bit has weight 1; read by
        /// [`pow2_of`], [`scale_by`] and f64's `integer_of`). The product and
        /// the shift into integer position are one FMA where the target has
        /// one.
        #[inline(always)]
        fn round_product(x: $f, m: $f) -> ($f, $f) {
            let t = fma(x, m, $k::ROUND);
            (t - $k::ROUND, t)
        }

        /// The sign bit.
        const SIGN: $u = 1 << ($u::BITS - 1);

        /// `(1 + u) 2^n` for the `n` that `t` of [`round_product`] holds
        /// (`n` up to the largest exponent plus one, where `e^x` is just
        /// below the largest float): `s u + s` (one FMA) times 2, with `s =
        /// 2^(n - 1)` shifted into exponent position straight from `t`'s bits
        /// (see [`pow2_of`]), so `s` itself never overflows. Where `2^(n -
        /// 1)` is small enough that `s u` could be subnormal (`n < -SHIFT`),
        /// `s` is `2^(n - 1 + SHIFT)` instead and the doubling a multiply by
        /// `2^(1 - SHIFT)`, which rounds the result into the subnormals (the
        /// only rounding after the FMA's). One power of two, not two halves
        /// of `2^n`, is two multiplies and a shift fewer. The rescaling is
        /// picked by a mask, not a select: on SSE2 a select is three
        /// operations, which cost more than the two halves save.
        #[inline(always)]
        fn scale_by(u: $f, t: $f) -> $f {
            // t = ROUND + n exactly, so this compares n with -SHIFT.
            let small = t < $k::ROUND - $k::SHIFT as $f;
            // SHIFT in exponent position where small, else 0: added to the
            // power of two, taken from the doubling.
            let rescale = (($k::SHIFT as $u) << $k::MANT) & (0 as $u).wrapping_sub(small as $u);
            let s = $f::from_bits(pow2_of(t, -1).to_bits().wrapping_add(rescale));
            fma(s, u, s) * $f::from_bits((2.0 as $f).to_bits().wrapping_sub(rescale))
        }

        /// `x = n ln 2 + r`, `|r| <= ln 2 / 2`, `n` an integer (held by the
        /// `t` returned, see [`round_product`]), for `|x|` below the clamps
        /// of [`exp_reduce`].
        #[inline(always)]
        fn reduce_ln2(x: $f) -> ($f, $f) {
            let (n, t) = round_product(x, $k::LOG2_E);
            (fma(-n, $k::LN2_LO, fma(-n, $k::LN2_HI, x)), t)
        }

        /// [`reduce_ln2`] for `x` clamped to where `e^x` is neither 0 nor
        /// infinite (NaN passes).
        #[inline(always)]
        fn exp_reduce(x: $f) -> ($f, $f) {
            // Beyond these, e^x is 0 or infinite; NaN fails both tests.
            let x = select(x > $k::EXP_HI, $k::EXP_HI, x);
            reduce_ln2(select(x < $k::UNDERFLOW, $k::UNDERFLOW, x))
        }

        /// `2^(n + shift)` for the `n` that `t` of [`round_product`] holds,
        /// with `n + shift` in the normal exponent range: `t`'s bits shifted
        /// into exponent position, where `ROUND`'s own bits shift out (its
        /// low bits are zero), two integer operations.
        #[inline(always)]
        fn pow2_of(t: $f, shift: $i) -> $f {
            let biased = ((shift + $k::BIAS) as $u) << $k::MANT;
            $f::from_bits((t.to_bits() << $k::MANT).wrapping_add(biased))
        }

        /// `e^-|x| = e^r 2^n`: the reduced argument `r` (see [`reduce_ln2`])
        /// and `2^(n + SHIFT)` (`SHIFT` in the constants), a normal number
        /// wherever `e^-|x|` is not below `x e^x`'s underflow, so a product
        /// or quotient built from `e^r 2^(n + SHIFT)` stays normal and
        /// rounds once, at the end: when scaled back into the subnormals by
        /// `DOWN = 2^-SHIFT`, or divided by another value scaled by `2^SHIFT`.
        #[inline(always)]
        fn exp_neg_parts(x: $f) -> ($f, $f) {
            // -|x|, clamped (NaN passes).
            let b = $f::from_bits(x.to_bits() | SIGN);
            let (r, t) = reduce_ln2(select(b < $k::UNDERFLOW, $k::UNDERFLOW, b));
            (r, pow2_of(t, $k::SHIFT))
        }

        /// e^x.
        #[inline(always)]
        pub fn exp(x: $f) -> $f {
            let (r, t) = exp_reduce(x);
            scale_by($k::expm1_reduced(r), t)
        }

        /// 2^x.
        #[inline(always)]
        pub fn exp2(x: $f) -> $f {
            let x = select(x > $k::EXP2_HI, $k::EXP2_HI, x);
            let x = select(x < $k::EXP2_LO, $k::EXP2_LO, x);
            let (n, t) = round_product(x, 1.0);
            scale_by($k::expm1_reduced((x - n) * $k::LN_2), t)
        }

        /// `e^x - 1`, accurate near 0.
        #[inline(always)]
        pub fn expm1(x: $f) -> $f {
            let small = $k::expm1_poly(x);
            select(x.abs() < 1.0, small, exp(x) - 1.0)
        }

        /// `x = 2^k (1 + f)` with `1 + f` in `[sqrt(1/2), sqrt(2))`, for
        /// finite `x > 0`: `k` as a float, `f` and `f^2`.
        /// The mantissa is normalised by integer operations on the bits
        /// (`x`'s bits minus `sqrt(1/2)`'s: the difference's exponent field
        /// is `k`, and taking it from `x`'s moves `1 + f` into range), with no
        /// compare or select.
        #[inline(always)]
        fn log_parts(x: $f) -> ($f, $f, $f) {
            // Subnormals: scale into the normal range first.
            let subnormal = x < $f::MIN_POSITIVE;
            let x = select(subnormal, x * $k::TWO_MANT, x);
            let offset = x
                .to_bits()
                .wrapping_sub(core::$f::consts::FRAC_1_SQRT_2.to_bits());
            let k = (offset as $i) >> $k::MANT;
            let m = $f::from_bits(x.to_bits().wrapping_sub(offset & !$k::MANT_MASK));
            let k = k as $f - select(subnormal, $k::MANT as $f, 0.0);
            let f = m - 1.0;
            (k, f, f * f)
        }

        /// `ln(1 + f) + extra` in fdlibm's order, `f - (f^2/2 - (tail +
        /// extra))`, with `tail` from the constants' `log1p_tail` (`extra`
        /// is `k` times the low part of `ln 2` for [`ln`], 0 for [`log2`]):
        /// the small terms are summed first, so `f` is added last, to a sum
        /// that carries one rounding.
        #[inline(always)]
        fn log_of(f: $f, f2: $f, extra: $f) -> $f {
            f - (0.5 * f2 - $k::log1p_tail(f, f2, extra))
        }

        /// The special values of a logarithm: NaN below 0 (and for NaN),
        /// -inf at 0, +inf at +inf.
        #[inline(always)]
        fn log_specials(x: $f, finite: $f) -> $f {
            let y = select(x == 0.0, $f::NEG_INFINITY, finite);
            let y = select(x == $f::INFINITY, x, y);
            select(x < 0.0 || x != x, $f::NAN, y)
        }

        /// The natural logarithm.
        #[inline(always)]
        pub fn ln(x: $f) -> $f {
            let (k, f, f2) = log_parts(x);
            log_specials(x, fma(k, $k::LN2_HI, log_of(f, f2, k * $k::LN2_LO)))
        }

        /// The base-2 logarithm.
        #[inline(always)]
        pub fn log2(x: $f) -> $f {
            let (k, f, f2) = log_parts(x);
            log_specials(x, k + log_of(f, f2, 0.0) * core::$f::consts::LOG2_E)
        }

        /// `ln(1 + x)`, accurate near 0.
        #[inline(always)]
        pub fn log1p(x: $f) -> $f {
            let u = 1.0 + x;
            // ln(u) * x / (u - 1) corrects the rounding of `1 + x` (Kahan).
            let corrected = ln(u) * (x / (u - 1.0));
            let y = select(u == 1.0, x, corrected);
            select(x == $f::INFINITY, x, select(x == -1.0, $f::NEG_INFINITY, y))
        }

        /// The sine and cosine of `x`, for the octant and reduced argument of `|x|`.
        ///
        /// Past the exact reduction's range (see the module doc) `r` can be
        /// far outside `[-pi/4, pi/4]`, where the polynomials grow without
        /// bound; it is clamped to `[-0.8, 0.8]` (just past pi/4, so exact
        /// reductions never move), which keeps every result for finite
        /// input in `[-1, 1]` at two selects.
        #[inline(always)]
        fn octant(x: $f) -> ($i, $f, $f) {
            let (q, r) = $k::reduce_pio4(x.abs());
            let r = select(r > 0.8, 0.8, select(r < -0.8, -0.8, r));
            let z = r * r;
            let sin = fma(r * z, $k::sin_poly(z), r);
            let cos = fma(z * z, $k::cos_poly(z), fma(-0.5, z, 1.0));
            (q & 3, sin, cos)
        }

        /// The sine (radians).
        #[inline(always)]
        pub fn sin(x: $f) -> $f {
            let (q, s, c) = octant(x);
            let y = select(q & 1 == 1, c, s);
            let y = select(q >= 2, -y, y);
            // sin is odd: flip the sign bit with x's (so sin(-0) = -0).
            let y = $f::from_bits(y.to_bits() ^ (x.to_bits() & SIGN));
            select(x.is_finite(), y, $f::NAN)
        }

        /// The cosine (radians).
        #[inline(always)]
        pub fn cos(x: $f) -> $f {
            let (q, s, c) = octant(x);
            let y = select(q & 1 == 1, s, c);
            let y = select(q == 1 || q == 2, -y, y);
            select(x.is_finite(), y, $f::NAN)
        }

        /// The hyperbolic tangent: `tanh a = (1 - e^-2a) / (1 + e^-2a)` for
        /// `a = |x|`, with `e^-2a = s + m p`, `s = 2^n` and `m p` the product
        /// `s (e^-2h - 1)` (see `tanh_factors` of the constants): numerator
        /// and denominator are each one FMA, `-+m p + (1 -+ s)`. Nothing
        /// cancels for small or large `a`, and there is one division. The
        /// quotient is never negative, so `x`'s sign bit is copied onto it:
        /// `tanh(-0)` is `-0`.
        ///
        /// `-2a` is never formed: `n = round(-2a / ln 2)` and the reduced
        /// argument `h = a + n ln2 / 2` (`-2h` is `exp`'s `r`) come from `a`
        /// with the factor folded into the constants, halving and doubling
        /// being exact. `ln 2` is one constant, not `exp`'s two parts: an
        /// error `d` in `h` is a relative error `2d` of `e^-2a`, which moves
        /// the result by at most `2d` times `2 e^-2a / (1 + e^-2a)^2`, far
        /// under an ulp where `n` is large (and `n` small keeps `d` small).
        /// One FMA fewer is 8% of the function's time.
        #[inline(always)]
        pub fn tanh(x: $f) -> $f {
            // Above TANH_HI, 1 -+ e^-2a rounds to 1 and the result to 1;
            // NaN passes.
            let a = x.abs();
            let a = select(a > $k::TANH_HI, $k::TANH_HI, a);
            let (n, t) = round_product(a, -2.0 * $k::LOG2_E);
            let h = fma(n, 0.5 * $k::LN_2, a);
            let s = pow2_of(t, 0);
            let (m, p) = $k::tanh_factors(s, h);
            let q = fma(-m, p, 1.0 - s) / fma(m, p, 1.0 + s);
            $f::from_bits(q.to_bits() | (x.to_bits() & SIGN))
        }

        /// The logistic function `1 / (1 + e^-x)`.
        #[inline(always)]
        pub fn sigmoid(x: $f) -> $f {
            // One exponential that cannot overflow, e = e^-|x|, held scaled
            // by UP = 2^SHIFT and formed as one FMA, 2^(n + SHIFT) (1 + u),
            // not with `1 + u` rounded first. The quotient is
            // `UP / (UP + e)` for x >= 0 and `e / (UP + e)` for x < 0: both
            // scaled by UP, so the quotient needs no scaling back and rounds
            // once, into the subnormals too. NaN passes.
            let (r, scale) = exp_neg_parts(x);
            let e = fma(scale, $k::expm1_reduced(r), scale);
            select(x < 0.0, e, $k::UP) / ($k::UP + e)
        }

        /// `ln(1 + e^x)`, without overflow for large `x`.
        #[inline(always)]
        pub fn softplus(x: $f) -> $f {
            let positive = select(x > 0.0, x, 0.0);
            let y = positive + log1p(exp(-x.abs()));
            select(x != x, x, y)
        }

        /// `x * sigmoid(t)` for `t = hi + lo` (`lo` a correction far below
        /// `hi`'s ulp), accurate down to the subnormals.
        #[inline(always)]
        fn times_sigmoid(x: $f, hi: $f, lo: $f) -> $f {
            // e^{-|t|} = e^{-|hi| + lo} for hi < 0, e^{-|hi| - lo} otherwise,
            // scaled by UP (see sigmoid).
            let left = hi < 0.0;
            let (r, scale) = exp_neg_parts(hi);
            let u = $k::expm1_reduced(r + select(left, lo, -lo));
            let e = fma(scale, u, scale);
            // x e / (1 + e) for t < 0, with x e one rounding (x scale is
            // exact), and rounded once into the subnormals by DOWN;
            // x / (1 + e) otherwise (x UP could overflow).
            let x_scale = x * scale;
            let y = select(left, fma(x_scale, u, x_scale), x) / fma(e, $k::DOWN, 1.0);
            let y = select(left, y * $k::DOWN, y);
            // The limit 0 where x e^t underflows (x = -inf included).
            select(hi < $k::UNDERFLOW, 0.0 * x.signum(), y)
        }

        /// `x * sigmoid(x)` (also called swish); 0 at -inf.
        #[inline(always)]
        pub fn silu(x: $f) -> $f {
            times_sigmoid(x, x, 0.0)
        }

        /// GELU in its tanh form: `x/2 (1 + tanh(u))`, `u = sqrt(2/pi) (x +
        /// 0.044715 x^3)`, computed as `x sigmoid(2u)` (the same function:
        /// `1 + tanh(u) = 2 sigmoid(2u)`), which does not cancel for x << 0.
        #[inline(always)]
        pub fn gelu_tanh(x: $f) -> $f {
            // For x << 0 the result is about x e^{2u}, and 2u ~ -0.07 x^3
            // magnifies any rounding of it: `gelu_arg` gives 2u as hi + lo.
            let (hi, lo) = $k::gelu_arg(x);
            times_sigmoid(x, hi, lo)
        }

        /// `1 / sqrt(x)`.
        #[inline(always)]
        pub fn rsqrt(x: $f) -> $f {
            1.0 / sqrt(x)
        }

        /// The square root: the hardware instruction.
        #[inline(always)]
        pub fn sqrt(x: $f) -> $f {
            $k::sqrt(x)
        }
    };
}

/// The f32 functions.
pub mod f32 {
    float_math!(f32, u32, i32, k);

    /// The error function: `a + a (P(a^2) - 1)` for `a = |x| < 1`, `1 -
    /// erfc(a)` from 1 on with `erfc(a) = N(a - 1) / D(a - 1)` (no
    /// cancellation there since `erfc(1) < 0.16`, and no exponential: the
    /// rational function is fitted for least absolute error of `erfc`, which
    /// is what `1 - erfc` needs), both computed and one selected; from 4 on
    /// the result is 1 (`erfc(4)` is below half an ulp of 1). The
    /// coefficients are fitted by `tests/vectors/fit_erf.py`.
    #[inline(always)]
    pub fn erf(x: f32) -> f32 {
        // NaN passes the clamp and every step.
        let a = x.abs();
        let a = select(a > 4.0, 4.0, a);
        let small = fma(a, k::erf_ratio(a * a), a);
        let large = 1.0 - k::erfc_near(a - 1.0);
        let y = select(a < 1.0, small, large);
        // erf is odd: the sign of x (erf(-0) = -0).
        f32::from_bits(y.to_bits() | (x.to_bits() & SIGN))
    }

    /// GELU, `x/2 (1 + erf(x / sqrt 2))` (PyTorch's `gelu`), computed as
    /// `max(x, -0) - b`, `b = |x| erfc(t)/2`, `t = |x| / sqrt 2`: `x - b` for
    /// `x >= 0` and `-b` below, so nothing cancels for `x << 0`; one
    /// branch-free path, no selection between approximations.
    ///
    /// `erfc(t) = e^(-t^2) erfcx(t)`, with `erfcx(t) = P(|x|) / Q(|x|)`
    /// and `e^(-t^2) = 2^n e^(-h/2)` (see `k::reduce_half_square`): `b =
    /// (|x| 2^(n + SHIFT)) (P + P (e^(-h/2) - 1)) / (Q 2^SHIFT)`. Every
    /// factor is normal down to `|x| = 16`, where `b` is 0 in f32, and the
    /// division is the last operation, so a result in the subnormals is
    /// rounded once.
    #[inline(always)]
    pub fn gelu(x: f32) -> f32 {
        // |x| clamped at 16: beyond, b is 0 either way (x = -inf included),
        // and every step stays finite. NaN passes.
        let a = x.abs();
        let a = select(a > 16.0, 16.0, a);
        let (h, t) = k::reduce_half_square(a);
        let p = k::half_erfcx_numerator(a);
        let b = (a * pow2_of(t, k::SHIFT)) * fma(p, k::expm1_neg_half(h), p);
        // -0 below 0, so a result that underflows keeps the sign of x.
        select(x >= 0.0, x, -0.0) - b / k::erfcx_denominator_up(a)
    }

    /// The constants of `f32`.
    mod k {
        use super::{fma, round_product};

        /// `P(z) - 1` with `erf(a) = a P(a^2)` on `0 <= a < 1` (relative
        /// error of `P` 1.2e-9 before rounding; `tests/vectors/fit_erf.py`):
        /// `erf(a) = a + a (P - 1)` rounds once, at the result's magnitude,
        /// where `a P` would round the product of two rounded values.
        #[inline(always)]
        pub fn erf_ratio(z: f32) -> f32 {
            horner!(z; 7.854022e-5, -8.010246e-4, 5.188_334_3e-3, -2.685_381_7e-2, 1.128_358_5e-1,
                -3.761_262_6e-1, 1.283_791_7e-1)
        }

        /// `erfcx(a / sqrt 2) / 2 = P(a) / Q(a)` for `0 <= a <= 16`, of
        /// degrees 4 and 5, `erfcx(t) = e^(t^2) erfc(t)` (relative error 7e-9
        /// before rounding; `tests/vectors/fit_erf.py`): `P`, halved (which
        /// is exact). Every coefficient is positive, so Horner's steps do
        /// not cancel.
        #[inline(always)]
        pub fn half_erfcx_numerator(a: f32) -> f32 {
            horner!(a; 0.5 * 0.008444275, 0.5 * 0.0826835, 0.5 * 0.37065864, 0.5 * 0.8822176, 0.5)
        }

        /// `Q` of [`half_erfcx_numerator`], times `UP` (exact), so a
        /// quotient by it is scaled back from `UP` as it rounds.
        #[inline(always)]
        pub fn erfcx_denominator_up(a: f32) -> f32 {
            horner!(a; UP * 0.010583231, UP * 0.10363394, UP * 0.47500095, UP * 1.211181,
                UP * 1.6801027, UP)
        }

        /// `e^(-h/2) - 1` for `|h| <= ln 2`: [`expm1_reduced`]'s polynomial at
        /// `r = -h/2`, as `h` times the polynomial over `h` (its coefficients
        /// times powers of -1/2, exact), as [`tanh_factors`] does: the
        /// halving is never a step of its own.
        #[inline(always)]
        pub fn expm1_neg_half(h: f32) -> f32 {
            h * horner!(h; C6 / 64.0, -C5 / 32.0, C4 / 16.0, -C3 / 8.0, C2 / 4.0, -0.5)
        }

        /// `erfc(1 + w)` for `0 <= w <= 3` as `N(w) / D(w)`, each of degree 6
        /// (`D(0) = 1`), fitted for least absolute error (0.08 of 2^-24
        /// before rounding; `tests/vectors/fit_erf.py`). In `w = a - 1` the
        /// rounding of the coefficients and of Horner's steps stays within
        /// an ulp of `erf`; centred on the interval it grew to four.
        #[inline(always)]
        pub fn erfc_near(w: f32) -> f32 {
            let n = horner!(w; 0.00033943533, -0.005512371, 0.037652742, -0.13863282, 0.29051775,
                -0.32889533, 0.1572992);
            let d = horner!(w; 0.029615944, 0.04542688, 0.17458716, 0.27753147, 0.6544278,
                0.5480726, 1.0);
            n / d
        }

        /// `a^2 / 2 = -n ln 2 + h / 2`, `n` an integer (held by the `t`
        /// returned, see `round_product`) and `|h| <= ln 2`, for `0 <= a <=
        /// 16`: `(h, t)`. `e^(-a^2/2)` magnifies an error in `a^2` by `a^2/2`
        /// relative, so `h` is `a^2 + 2n ln 2` with one rounding at its own
        /// magnitude, the product `a^2` never rounded: where FMA is
        /// available, one FMA of `a * a` and `2n LN2_HI` (exact: `n` and
        /// `LN2_HI` have 8 bits); else `a` is cut to its leading 12 bits,
        /// `hi`, so `hi^2 + 2n LN2_HI` is exact, and `a^2 - hi^2 = (a - hi)
        /// (a + hi)` is added (its rounding is 2^-35 of `a^2`).
        #[inline(always)]
        pub fn reduce_half_square(a: f32) -> (f32, f32) {
            #[cfg(all(feature = "std", target_feature = "fma"))]
            let (n, t, h) = {
                let (n, t) = round_product(a * a, -0.5 * LOG2_E);
                (n, t, a.mul_add(a, n * (2.0 * LN2_HI)))
            };
            #[cfg(not(all(feature = "std", target_feature = "fma")))]
            let (n, t, h) = {
                let hi = f32::from_bits(a.to_bits() & !0xfff);
                let square = hi * hi;
                let (n, t) = round_product(square, -0.5 * LOG2_E);
                (n, t, (square + n * (2.0 * LN2_HI)) + (a - hi) * (a + hi))
            };
            (fma(n, 2.0 * LN2_LO, h), t)
        }
        pub const MANT: u32 = 23;
        pub const BIAS: i32 = 127;
        pub const MANT_MASK: u32 = (1 << MANT) - 1;
        pub const TWO_MANT: f32 = (1u32 << MANT) as f32;
        pub const ROUND: f32 = 12_582_912.0; // 1.5 * 2^23
        pub const LOG2_E: f32 = core::f32::consts::LOG2_E;
        pub const LN_2: f32 = core::f32::consts::LN_2;
        // ln 2 = LN2_HI + LN2_LO, LN2_HI with 8 significant bits.
        pub const LN2_HI: f32 = 0.693_359_4;
        pub const LN2_LO: f32 = -2.121_944_4e-4;
        // Above this e^x is infinite (from 88.73 on); n is at most 128.
        pub const EXP_HI: f32 = 89.0;
        // Below this x e^x rounds to 0 (it is under half the least
        // subnormal), so e^x does too; e^x 2^SHIFT is normal down to here.
        pub const UNDERFLOW: f32 = -120.0;
        pub const SHIFT: i32 = 64;
        pub const UP: f32 = f32::from_bits(((SHIFT + BIAS) as u32) << MANT);
        pub const DOWN: f32 = 1.0 / UP;
        // Above this e^-2x - 1 rounds to -1, so tanh(x) to 1.
        pub const TANH_HI: f32 = 10.0;
        // 2^128 is infinite; n is at most 128 (see `scale_by`).
        pub const EXP2_HI: f32 = 128.0;
        pub const EXP2_LO: f32 = -151.0;
        // pi/4 = PIO4_HI + PIO4_LO in f64, PIO4_HI with 28 significant bits.
        const PIO4_HI: f64 = 0.785_398_162_901_401_5;
        const PIO4_LO: f64 = 4.960_467_898_402_702e-10;

        /// `|x| = q pi/2 + r`, `|r| <= pi/4`, reduced in f64, so `r` is exact
        /// to f32 precision while `2q PIO4_HI` is (|x| up to 2^25 pi/4); only
        /// `q mod 4` is returned (the quadrant).
        #[inline(always)]
        pub fn reduce_pio4(a: f32) -> (i32, f32) {
            const ROUND: f64 = 6_755_399_441_055_744.0; // 1.5 * 2^52
            let a = a as f64;
            let t = a * core::f64::consts::FRAC_2_PI + ROUND;
            let y = 2.0 * (t - ROUND);
            let q = (t.to_bits() & 3) as i32; // ROUND's last bits are 0
            (q, ((a - y * PIO4_HI) - y * PIO4_LO) as f32)
        }

        /// `2 sqrt(2/pi) (x + 0.044715 x^3)` as `hi + lo`, computed in f64.
        #[inline(always)]
        pub fn gelu_arg(x: f32) -> (f32, f32) {
            let t = super::super::f64::gelu_exponent(x as f64);
            let hi = t as f32;
            let lo = (t - hi as f64) as f32;
            // The correction matters only where e^hi is neither 0 nor 1.
            (hi, if hi.abs() < 1e3 { lo } else { 0.0 })
        }

        /// e^r - 1 on |r| <= ln 2 / 2: a degree-6 polynomial fitted for
        /// least maximum relative error of `e^r` (2^-28 before rounding), `r
        /// + r^2 Q(r)`, so `1 + r` is exact and the sum `1 + (r + r^2 Q)`
        /// rounds only at the result's magnitude. (Horner's rule, not
        /// Estrin's scheme: Estrin's shorter chain gains a few percent but
        /// takes `exp2` with FMA past its stated bound.)
        #[inline(always)]
        pub fn expm1_reduced(r: f32) -> f32 {
            let q = horner!(r; C6, C5, C4, C3, C2);
            fma(r * r, q, r)
        }

        /// The coefficients of [`expm1_reduced`], `e^r - 1 = r + C2 r^2 +
        /// ... + C6 r^6`.
        const C2: f32 = 4.999_999_7e-1;
        const C3: f32 = 1.666_652_1e-1;
        const C4: f32 = 4.166_722_7e-2;
        const C5: f32 = 8.368_693_3e-3;
        const C6: f32 = 1.387_969_0e-3;

        /// `s (e^-2h - 1)` for `tanh`, `|h| <= ln 2 / 4`, `s` a power of
        /// two, as two factors: `s h` (exact) and `(e^-2h - 1) / h`,
        /// [`expm1_reduced`]'s polynomial at `r = -2h` over `h`, its
        /// coefficients times powers of -2 (exact). Against `s` and `e^r -
        /// 1` as `exp` forms them: no `-2h`, and `s h` beside the polynomial
        /// rather than after it, so two multiplies fewer on the chain. It
        /// costs up to half an ulp of `tanh` (the bound in the module doc
        /// includes it), since the ratio rounds near -2 where `e^r - 1`
        /// rounds once at its own magnitude.
        #[inline(always)]
        pub fn tanh_factors(s: f32, h: f32) -> (f32, f32) {
            let ratio = horner!(h; 64.0 * C6, -32.0 * C5, 16.0 * C4, -8.0 * C3, 4.0 * C2, -2.0);
            (s * h, ratio)
        }

        /// e^x - 1 on |x| < 1: Taylor to degree 11.
        #[inline(always)]
        pub fn expm1_poly(x: f32) -> f32 {
            x * horner!(x; 1.0 / 479_001_600.0, 1.0 / 39_916_800.0, 1.0 / 3_628_800.0,
                1.0 / 362_880.0, 1.0 / 40_320.0, 1.0 / 5040.0, 1.0 / 720.0, 1.0 / 120.0,
                1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0)
        }

        /// `ln(1 + f) - f + f^2/2 + extra` for `f` in `[sqrt(1/2) - 1,
        /// sqrt(2) - 1)`: Cephes' `logf` polynomial, `f^3 P(f)` with `P` of
        /// degree 8, evaluated in three parts (Estrin's scheme, as Eigen
        /// does): the loop around it is bound by the chain's latency, and
        /// with Horner's nine steps `ln` took 13% longer. No division, which
        /// fdlibm's `atanh` form needs.
        #[inline(always)]
        pub fn log1p_tail(f: f32, f2: f32, extra: f32) -> f32 {
            let f3 = f2 * f;
            let high = horner!(f; 7.037_683_6e-2, -1.151_461_0e-1, 1.167_699_9e-1);
            let middle = horner!(f; -1.242_014_1e-1, 1.424_932_3e-1, -1.666_805_8e-1);
            let low = horner!(f; 2.000_071_5e-1, -2.499_999_4e-1, 3.333_333_1e-1);
            fma(f3, fma(fma(high, f3, middle), f3, low), extra)
        }

        /// Cephes' sinf: sin(r) = r + r z P(z).
        #[inline(always)]
        pub fn sin_poly(z: f32) -> f32 {
            horner!(z; -1.951_529_6e-4, 8.332_161e-3, -1.666_665_5e-1)
        }

        /// Cephes' cosf: cos(r) = 1 - z/2 + z^2 Q(z).
        #[inline(always)]
        pub fn cos_poly(z: f32) -> f32 {
            horner!(z; 2.443_315_7e-5, -1.388_731_6e-3, 4.166_664_6e-2)
        }

        #[inline(always)]
        pub fn sqrt(x: f32) -> f32 {
            #[cfg(feature = "std")]
            {
                x.sqrt()
            }
            #[cfg(not(feature = "std"))]
            {
                libm::sqrtf(x)
            }
        }
    }
}

/// The f64 functions.
pub mod f64 {
    /// GELU's `2u = 2 sqrt(2/pi) (x + 0.044715 x^3)`, the argument of its
    /// sigmoid (the f32 version computes it here too, in f64).
    #[inline(always)]
    pub(super) fn gelu_exponent(x: f64) -> f64 {
        2.0 * 0.797_884_560_802_865_4 * (x + 0.044715 * x * x * x)
    }

    float_math!(f64, u64, i64, k);

    // The exponential's pieces that only erf and gelu (f64, which the f32
    // versions call) use.

    /// The integer `n` that `t` of `round_product` holds, read from its
    /// bits, not converted with `as`: a saturating float-to-int `as` does
    /// not vectorise, it becomes one scalar conversion per lane.
    #[inline(always)]
    fn integer_of(t: f64) -> i64 {
        (t.to_bits() as i64).wrapping_sub(k::ROUND.to_bits() as i64)
    }

    /// 2^n for an integer `n` in the normal exponent range.
    #[inline(always)]
    fn pow2(n: i64) -> f64 {
        f64::from_bits(((n + k::BIAS) as u64) << k::MANT)
    }

    /// `magnitude` with the sign of `sign`.
    #[inline(always)]
    fn with_sign_of(magnitude: f64, sign: f64) -> f64 {
        f64::from_bits((magnitude.to_bits() & !SIGN) | (sign.to_bits() & SIGN))
    }

    /// `p * 2^n` for `n` within `[2 - 2 BIAS, 2 BIAS]` (each half of
    /// `2^n` a normal number), for any `p`.
    #[inline(always)]
    fn scale(p: f64, n: i64) -> f64 {
        let half = n >> 1;
        p * pow2(half) * pow2(n - half)
    }

    /// `e^(x + lo) = p 2^n`, `p` in `[sqrt(1/2), sqrt(2)]`, `n` an
    /// integer; `lo` is a correction far below `x`'s ulp, added to the
    /// reduced argument, where it is exact enough.
    #[inline(always)]
    fn exp_parts(x: f64, lo: f64) -> (f64, i64) {
        let (r, t) = exp_reduce(x);
        (k::exp_poly(r + lo), integer_of(t))
    }

    /// The error function: fdlibm's rational approximations (Sun, 1993), on
    /// `|x| < 0.84375`, `< 1.25` and beyond, all three computed and one
    /// selected, so the loop stays branch-free.
    #[inline(always)]
    pub fn erf(x: f64) -> f64 {
        let a = x.abs();
        let small = fma(a, erf::small_ratio(a * a), a);
        let middle = erf::ERX + erf::middle(a - 1.0);
        let (tail, n) = erf::erfc_tail_parts(a);
        let tail = 1.0 - scale(tail, n);
        let y = select(a < 0.84375, small, select(a < 1.25, middle, tail));
        // erf is odd (erf(-0) = -0); NaN stays NaN.
        select(x.is_nan(), x, with_sign_of(y, x))
    }

    /// `erfc(a) = m 2^n` for `a >= 0`, accurate relative to its value (no
    /// cancellation for large `a`; `2^n` left apart, so a result in the
    /// subnormals is rounded once, after any further factor).
    #[inline(always)]
    fn erfc_nonnegative(a: f64) -> (f64, i64) {
        let r = erf::small_ratio(a * a);
        let below_quarter = 1.0 - fma(a, r, a);
        let to_small_end = 0.5 + ((0.5 - a) - a * r);
        let small = select(a < 0.25, below_quarter, to_small_end);
        let middle = (1.0 - erf::ERX) - erf::middle(a - 1.0);
        let (tail, n) = erf::erfc_tail_parts(a);
        let m = select(a < 0.84375, small, select(a < 1.25, middle, tail));
        (m, if a < 1.25 { 0 } else { n })
    }

    /// GELU, `x/2 (1 + erf(x / sqrt 2))` (PyTorch's `gelu`), computed as `x
    /// (1 - erfc(t)/2)` for `x >= 0` and `x erfc(t)/2` below, `t = |x| / sqrt
    /// 2`, so nothing cancels for `x << 0`. There `erfc` magnifies the
    /// rounding of `t` (its relative slope is about `2t`): the rounding
    /// error of `t` is computed exactly and corrected for to first order.
    #[inline(always)]
    pub fn gelu(x: f64) -> f64 {
        // From 64 on, erfc(t) is 0 and so is the correction: clamped there,
        // `t` and its rounding error stay finite.
        let a = select(x.abs() < 64.0, x.abs(), 64.0);
        let t = a * core::f64::consts::FRAC_1_SQRT_2;
        let t_lo = erf::product_error(a, t) + a * erf::FRAC_1_SQRT_2_LO;
        let (m, n) = erfc_nonnegative(t);
        let half_m = 0.5 * m * fma(-2.0 * t, t_lo, 1.0);
        let below = scale(x * half_m, n);
        let above = x * (1.0 - scale(half_m, n));
        let y = select(x < 0.0, below, above);
        select(x == f64::NEG_INFINITY, -0.0, y)
    }

    /// The coefficients and pieces of `erf`.
    mod erf {
        use super::{exp_parts, fma, select};

        /// erf(1) rounded to 24 bits: the middle piece approximates erf(1 + s) - ERX.
        pub const ERX: f64 = 8.450_629_115_104_675_292_97e-1;
        /// `1/sqrt(2) - FRAC_1_SQRT_2`, the constant's rounding error.
        pub const FRAC_1_SQRT_2_LO: f64 = -4.833_646_656_726_457e-17;
        /// `FRAC_1_SQRT_2` split in two halves of 26 significant bits (for
        /// Dekker's product, where there is no fused multiply-add).
        #[cfg(not(all(feature = "std", target_feature = "fma")))]
        const C_HI: f64 = 0.707_106_769_084_930_4;
        #[cfg(not(all(feature = "std", target_feature = "fma")))]
        const C_LO: f64 = core::f64::consts::FRAC_1_SQRT_2 - C_HI;

        /// `a * FRAC_1_SQRT_2 - t` exactly, for `t` that product rounded
        /// (`|a| < 2^900`): one fused multiply-add with FMA, else Dekker's
        /// product of the halves.
        #[inline(always)]
        pub fn product_error(a: f64, t: f64) -> f64 {
            #[cfg(all(feature = "std", target_feature = "fma"))]
            {
                a.mul_add(core::f64::consts::FRAC_1_SQRT_2, -t)
            }
            #[cfg(not(all(feature = "std", target_feature = "fma")))]
            {
                let split = a * 134_217_729.0; // 2^27 + 1
                let a_hi = split - (split - a);
                let a_lo = a - a_hi;
                ((a_hi * C_HI - t) + a_hi * C_LO + a_lo * C_HI) + a_lo * C_LO
            }
        }

        /// `R(z)` with `erf(a) = a + a R(a^2)` on `|a| < 0.84375`.
        #[inline(always)]
        pub fn small_ratio(z: f64) -> f64 {
            let p = horner!(z; -2.376_301_665_665_016_260_84e-5, -5.770_270_296_489_441_591_57e-3,
                -2.848_174_957_559_851_047_66e-2, -3.250_421_072_470_014_993_70e-1,
                1.283_791_670_955_125_585_61e-1);
            let q = horner!(z; -3.960_228_278_775_368_123_20e-6, 1.324_947_380_043_216_445_26e-4,
                5.081_306_281_875_765_627_76e-3, 6.502_224_998_876_729_444_85e-2,
                3.979_172_239_591_553_528_19e-1, 1.0);
            p / q
        }

        /// `erf(1 + s) - ERX` on `|x|` in `[0.84375, 1.25)`.
        #[inline(always)]
        pub fn middle(s: f64) -> f64 {
            let p = horner!(s; -2.166_375_594_868_790_843_00e-3, 3.547_830_432_561_823_593_71e-2,
                -1.108_946_942_823_966_774_76e-1, 3.183_466_199_011_617_536_74e-1,
                -3.722_078_760_357_013_238_47e-1, 4.148_561_186_837_483_316_66e-1,
                -2.362_118_560_752_659_440_77e-3);
            let q = horner!(s; 1.198_449_984_679_910_741_70e-2, 1.363_708_391_202_905_073_62e-2,
                1.261_712_198_087_616_421_12e-1, 7.182_865_441_419_626_628_68e-2,
                5.403_979_177_021_710_489_37e-1, 1.064_208_804_008_442_282_86e-1, 1.0);
            p / q
        }

        /// `erfc(a) = m 2^n` for `a >= 1.25`: `e^(-a^2 - 0.5625 +
        /// R(1/a^2)/S(1/a^2)) / a`, with one pair of rational functions below
        /// `1/0.35` and another above; 0 from 28 on (where it underflows).
        #[inline(always)]
        pub fn erfc_tail_parts(a: f64) -> (f64, i64) {
            let beyond = a >= 28.0;
            let a = select(beyond, 28.0, a);
            let s = 1.0 / (a * a);
            let r_near = horner!(s; -9.814_329_344_169_145_485_92, -8.128_743_550_630_659_342_46e1,
                -1.846_050_929_067_110_359_94e2, -1.623_966_694_625_734_703_55e2,
                -6.237_533_245_032_600_603_96e1, -1.055_862_622_532_329_098_14e1,
                -6.938_585_727_071_817_643_72e-1, -9.864_944_034_847_148_227_05e-3);
            let s_near = horner!(s; -6.042_441_521_485_809_874_38e-2, 6.570_249_770_319_281_701_35,
                1.086_350_055_417_794_351_34e2, 4.290_081_400_275_678_333_86e2,
                6.453_872_717_332_678_803_36e2, 4.345_658_774_752_292_288_21e2,
                1.376_577_541_435_190_426_00e2, 1.965_127_166_743_925_712_92e1, 1.0);
            let r_far = horner!(s; -4.835_191_916_086_513_970_19e2, -1.025_095_131_611_077_249_54e3,
                -6.375_664_433_683_896_277_22e2, -1.606_363_848_558_219_160_62e2,
                -1.775_795_491_775_475_198_89e1, -7.992_832_376_805_230_065_74e-1,
                -9.864_942_924_700_099_285_97e-3);
            let s_far = horner!(s; -2.244_095_244_658_581_833_62e1, 4.745_285_412_069_553_672_15e2,
                2.553_050_406_433_164_425_83e3, 3.199_858_219_508_595_539_08e3,
                1.536_729_586_084_436_959_94e3, 3.257_925_129_965_739_188_26e2,
                3.033_806_074_348_245_829_24e1, 1.0);
            let near = a < 1.0 / 0.35;
            let ratio = select(near, r_near / s_near, r_far / s_far);
            // e^(-a^2) as e^(-z^2) e^((z - a)(z + a)), `z` a with its low
            // 32 bits cleared, so `z^2` is exact.
            let z = f64::from_bits(a.to_bits() & 0xffff_ffff_0000_0000);
            // One exponential of `hi + lo`, the exponent summed exactly
            // (Fast2Sum: `-z^2 - 0.5625` is exact and the larger).
            let head = -z * z - 0.5625;
            let rest = (z - a) * (z + a) + ratio;
            let hi = head + rest;
            let lo = (head - hi) + rest;
            let (p, n) = exp_parts(hi, lo);
            let m = p / a;
            (select(beyond, 0.0, m), n)
        }
    }

    /// The constants of `f64`.
    mod k {
        use super::fma;
        pub const MANT: u32 = 52;
        pub const BIAS: i64 = 1023;
        pub const MANT_MASK: u64 = (1 << MANT) - 1;
        pub const TWO_MANT: f64 = (1u64 << MANT) as f64;
        pub const ROUND: f64 = 6_755_399_441_055_744.0; // 1.5 * 2^52
        pub const LOG2_E: f64 = core::f64::consts::LOG2_E;
        pub const LN_2: f64 = core::f64::consts::LN_2;
        // fdlibm's split of ln 2: LN2_HI has 32 significant bits.
        pub const LN2_HI: f64 = 6.931_471_803_691_238_2e-1;
        pub const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
        // Above this e^x is infinite (from 709.79 on); n is at most 1024.
        pub const EXP_HI: f64 = 710.0;
        // Below this x e^x rounds to 0 (it is under half the least
        // subnormal); e^x 2^SHIFT is normal down to here.
        pub const UNDERFLOW: f64 = -800.0;
        pub const SHIFT: i64 = 256;
        pub const UP: f64 = f64::from_bits(((SHIFT + BIAS) as u64) << MANT);
        pub const DOWN: f64 = 1.0 / UP;
        // Above this e^-2x - 1 rounds to -1, so tanh(x) to 1.
        pub const TANH_HI: f64 = 20.0;
        // 2^1024 is infinite; n is at most 1024 (see `scale_by`).
        pub const EXP2_HI: f64 = 1024.0;
        pub const EXP2_LO: f64 = -1076.0;
        // pi/4 = PIO4_1 + PIO4_2 + PIO4_3 (Cephes).
        const PIO4_1: f64 = 7.853_981_256_484_985_4e-1;
        const PIO4_2: f64 = 3.774_894_707_930_798e-8;
        const PIO4_3: f64 = 2.695_151_429_079_059_5e-15;

        /// `|x| = q pi/2 + r`, `|r| <= pi/4`: Cephes' three-part reduction,
        /// exact while `2q PIO4_1` is (|x| up to about 2^30); only `q mod 4`
        /// is returned (the quadrant).
        #[inline(always)]
        pub fn reduce_pio4(a: f64) -> (i64, f64) {
            let t = a * core::f64::consts::FRAC_2_PI + ROUND;
            let y = 2.0 * (t - ROUND);
            let q = (t.to_bits() & 3) as i64; // ROUND's last bits are 0
            (q, ((a - y * PIO4_1) - y * PIO4_2) - y * PIO4_3)
        }
        /// `2 sqrt(2/pi) (x + 0.044715 x^3)`, rounded (f64 has no wider type
        /// to compute it in: the far left tail is less accurate, see the README).
        #[inline(always)]
        pub fn gelu_arg(x: f64) -> (f64, f64) {
            (super::gelu_exponent(x), 0.0)
        }

        /// e^r on |r| <= ln 2 / 2: Taylor to degree 13 (error below 2^-55),
        /// summed as `1 + (r + r^2 Q(r))`.
        #[inline(always)]
        pub fn exp_poly(r: f64) -> f64 {
            1.0 + expm1_reduced(r)
        }

        /// e^r - 1 on |r| <= ln 2 / 2: [`exp_poly`] without its `1 +`.
        #[inline(always)]
        pub fn expm1_reduced(r: f64) -> f64 {
            let q = horner!(r; 1.0 / 6_227_020_800.0, 1.0 / 479_001_600.0, 1.0 / 39_916_800.0,
                1.0 / 3_628_800.0, 1.0 / 362_880.0, 1.0 / 40_320.0, 1.0 / 5040.0, 1.0 / 720.0,
                1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5);
            fma(r * r, q, r)
        }

        /// `s (e^-2h - 1)` for `tanh`, `|h| <= ln 2 / 4`, as two factors:
        /// `s` and [`expm1_reduced`] at `r = -2h` (exact), as `exp` forms
        /// them. (f32's factoring, one multiply fewer, costs f64 about one
        /// ulp more against std: accuracy first for f64.)
        #[inline(always)]
        pub fn tanh_factors(s: f64, h: f64) -> (f64, f64) {
            (s, expm1_reduced(-2.0 * h))
        }

        /// e^x - 1 on |x| < 1: Taylor to degree 19.
        #[inline(always)]
        pub fn expm1_poly(x: f64) -> f64 {
            x * horner!(x; 1.0 / 121_645_100_408_832_000.0, 1.0 / 6_402_373_705_728_000.0,
                1.0 / 355_687_428_096_000.0, 1.0 / 20_922_789_888_000.0,
                1.0 / 1_307_674_368_000.0, 1.0 / 87_178_291_200.0, 1.0 / 6_227_020_800.0,
                1.0 / 479_001_600.0, 1.0 / 39_916_800.0, 1.0 / 3_628_800.0, 1.0 / 362_880.0,
                1.0 / 40_320.0, 1.0 / 5040.0, 1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0,
                0.5, 1.0)
        }

        /// `ln(1 + f) - f + f^2/2 + extra` by fdlibm's `log`: `2 atanh(s)`
        /// for `s = f / (2 + f)`, as `s (f^2/2 + R(s^2))` with fdlibm's `R`.
        #[inline(always)]
        pub fn log1p_tail(f: f64, f2: f64, extra: f64) -> f64 {
            let s = f / (2.0 + f);
            let z = s * s;
            let r = z * horner!(z; 1.479_819_860_511_658_6e-1, 1.531_383_769_920_937_3e-1,
                1.818_357_216_161_805e-1, 2.222_219_843_214_978_4e-1, 2.857_142_874_366_239e-1,
                3.999_999_999_940_942e-1, 6.666_666_666_666_735e-1);
            fma(s, 0.5 * f2 + r, extra)
        }

        /// Cephes' sin: sin(r) = r + r z P(z).
        #[inline(always)]
        pub fn sin_poly(z: f64) -> f64 {
            horner!(z; 1.589_623_015_765_465_7e-10, -2.505_074_776_285_780_7e-8,
                2.755_731_362_138_572_4e-6, -1.984_126_982_958_954e-4, 8.333_333_333_322_118e-3,
                -1.666_666_666_666_663_1e-1)
        }

        /// Cephes' cos: cos(r) = 1 - z/2 + z^2 Q(z).
        #[inline(always)]
        pub fn cos_poly(z: f64) -> f64 {
            horner!(z; -1.135_853_652_138_768_2e-11, 2.087_570_084_197_473_2e-9,
                -2.755_731_417_929_673_8e-7, 2.480_158_728_885_170_5e-5,
                -1.388_888_888_887_305_6e-3, 4.166_666_666_666_659_3e-2)
        }

        #[inline(always)]
        pub fn sqrt(x: f64) -> f64 {
            #[cfg(feature = "std")]
            {
                x.sqrt()
            }
            #[cfg(not(feature = "std"))]
            {
                libm::sqrt(x)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The identities the algorithms rely on; accuracy against a reference is
    //! measured in the facade's `tests/float_functions.rs`.
    use super::{f32 as m32, f64 as m64};
    use std::vec;

    #[test]
    fn exact_points() {
        assert_eq!(m32::exp(0.0), 1.0);
        assert_eq!(m32::ln(1.0), 0.0);
        assert_eq!(m32::exp2(10.0), 1024.0);
        assert_eq!(m32::log2(1024.0), 10.0);
        assert_eq!(m64::exp2(-1074.0), f64::from_bits(1));
        assert_eq!(m64::log2(0.5), -1.0);
    }

    #[test]
    fn exp_and_ln_invert_each_other() {
        // exp(ln x) scales ln's rounding by |ln x|: the bound grows with it.
        let mut x = 1e-30f32;
        while x < 1e30 {
            let back = m32::exp(m32::ln(x));
            let bound = 2.0 * f32::EPSILON * (1.0 + m32::ln(x).abs());
            assert!((back - x).abs() <= bound * x, "{x}: {back}");
            x *= 1.7;
        }
    }

    #[test]
    fn sin_and_cos_of_any_finite_input_stay_in_the_unit_interval() {
        // Past the exact reduction's range, including the inputs whose
        // unclamped reduction leaves [-1, 1] (f32 sin(1e18), sin(1e30),
        // cos(3e38); f64 sin(1e17), sin(1e300)), and a sweep over every
        // exponent.
        let mut f32s = vec![1e18f32, 1e30, 3e38, f32::MAX, 1.0e7, 3.0e7];
        let mut f64s = vec![1e17f64, 1e300, f64::MAX, 1.0e9, 1.0e16];
        for bits in (0..u32::MAX).step_by(65_537) {
            f32s.push(f32::from_bits(bits));
        }
        for k in 0..200_000u64 {
            f64s.push(f64::from_bits(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        }
        let unit = |y: f64| (-1.0..=1.0).contains(&y);
        for x in f32s.into_iter().filter(|x| x.is_finite()) {
            for x in [x, -x] {
                let (s, c) = (m32::sin(x), m32::cos(x));
                assert!(
                    unit(s as f64) && unit(c as f64),
                    "f32 {x:e}: sin {s}, cos {c}"
                );
                assert!(
                    (s * s + c * c - 1.0).abs() < 4.0 * f32::EPSILON,
                    "f32 {x:e}"
                );
            }
        }
        for x in f64s.into_iter().filter(|x| x.is_finite()) {
            for x in [x, -x] {
                let (s, c) = (m64::sin(x), m64::cos(x));
                assert!(unit(s) && unit(c), "f64 {x:e}: sin {s}, cos {c}");
                assert!(
                    (s * s + c * c - 1.0).abs() < 4.0 * f64::EPSILON,
                    "f64 {x:e}"
                );
            }
        }
    }

    #[test]
    fn sin_and_cos_lie_on_the_unit_circle() {
        for k in -2000..2000 {
            let x = k as f64 * 0.0137;
            let (s, c) = (m64::sin(x), m64::cos(x));
            assert!((s * s + c * c - 1.0).abs() < 4.0 * f64::EPSILON, "{x}");
            let (s, c) = (m32::sin(x as f32), m32::cos(x as f32));
            assert!((s * s + c * c - 1.0).abs() < 4.0 * f32::EPSILON, "{x}");
        }
    }
}
