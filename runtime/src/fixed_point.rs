//! gemmlowp's fixed-point arithmetic on `i32`, as TFLite's int8 kernels
//! compute with it: the rounding multiply and shifts that requantise an
//! accumulator, and the exponential and reciprocal of TFLite's int8
//! softmax. Matching TFLite Micro byte for byte needs its exact roundings,
//! so each function here is the gemmlowp operation of the same name,
//! written without branches where the fused loop should vectorise it.
//!
//! A value `FixedPoint<i32, I>` of gemmlowp (`I` integer bits, `31 - I`
//! fractional ones) is its raw `i32` here; each function says the format
//! of its arguments and result (Q0.31 is `I = 0`: `2^31 - 1` stands for 1).
//!
//! ```
//! use tensor_expr_runtime::fixed_point::{doubling_high_mul, rounding_divide_by_pot};
//! // 0.5 * 0.5 = 0.25 in Q0.31.
//! assert_eq!(doubling_high_mul(1 << 30, 1 << 30), 1 << 29);
//! // -12 / 4 = -3 exactly; -6 / 4 = -1.5 rounds away from zero.
//! assert_eq!(rounding_divide_by_pot(-12, 2), -3);
//! assert_eq!(rounding_divide_by_pot(-6, 2), -2);
//! ```

/// TFLite's `QuantizeMultiplier`: a real multiplier (a layer's
/// `input_scale * weight_scale / output_scale`, in `f64` as TFLite Micro
/// computes it) as the Q31 multiplier and the shift that
/// [`Accumulator::requantize`](crate::element::Accumulator::requantize) takes, `real = multiplier * 2^shift / 2^31`.
/// The multiplier is in `[2^30, 2^31)`, rounded half away from zero; a
/// real multiplier of 0, or below `2^-31`, gives `(0, 0)`.
///
/// ```
/// use tensor_expr_runtime::element::{quantize_multiplier, Accumulator};
/// let (multiplier, shift) = quantize_multiplier(0.375);
/// assert_eq!((multiplier, shift), (1_610_612_736, -1));
/// assert_eq!(1000.requantize(multiplier, shift), 375);
/// ```
pub fn quantize_multiplier(real: f64) -> (i32, i32) {
    if real == 0.0 {
        return (0, 0);
    }
    let (fraction, mut shift) = libm::frexp(real);
    // `fraction` is in [0.5, 1): times 2^31 is exact, its rounding TFLite's.
    let mut fixed = libm::round(fraction * (1u64 << 31) as f64) as i64;
    if fixed == 1 << 31 {
        fixed /= 2;
        shift += 1;
    }
    if shift < -31 {
        return (0, 0);
    }
    (fixed as i32, shift)
}

/// TFLite's `MultiplyByQuantizedMultiplier`: `x` shifted left by
/// `max(shift, 0)` (wrapping), then [`doubling_high_mul`] by `multiplier`,
/// then [`rounding_divide_by_pot`] by `clamp(-shift, 0, 31)`: TFLite's two
/// roundings, in that order. Only the high half's product is 64-bit: the
/// rest is `i32` arithmetic, which a tile's epilogue vectorises at twice
/// the lanes of `i64`'s.
///
/// ```
/// use tensor_expr_runtime::fixed_point::multiply_by_quantized_multiplier;
/// // 1000 * 0.375 (multiplier 0.75 in Q31, shift -1).
/// assert_eq!(multiply_by_quantized_multiplier(1000, 1 << 30 | 1 << 29, -1), 375);
/// assert_eq!(multiply_by_quantized_multiplier(i32::MIN, i32::MIN, 0), i32::MAX);
/// ```
#[inline(always)]
pub fn multiply_by_quantized_multiplier(x: i32, multiplier: i32, shift: i32) -> i32 {
    let left = shift.max(0) as u32;
    let right = shift.wrapping_neg().clamp(0, 31);
    rounding_divide_by_pot(doubling_high_mul(x.wrapping_shl(left), multiplier), right)
}

/// gemmlowp's `SaturatingRoundingDoublingHighMul`: `a * b / 2^31`, rounded
/// to nearest with ties away from zero; the one overflow, `MIN * MIN`,
/// saturates to `MAX`. For two Q0.31 numbers it is their product.
///
/// gemmlowp adds `2^30` to the product `p` (`1 - 2^30` where it is
/// negative) and divides by `2^31` toward zero: for a negative sum that is
/// `ceil((p + 1 - 2^30) / 2^31) = floor((p + 2^30) / 2^31)`, so both signs
/// are one add and one arithmetic shift, with no comparison to vectorise.
#[inline(always)]
pub fn doubling_high_mul(a: i32, b: i32) -> i32 {
    let product = i64::from(a) * i64::from(b);
    let high = ((product + (1 << 30)) >> 31) as i32;
    // `MIN * MIN` gives 2^31, which wraps to MIN: one less is MAX.
    let overflow = (a == i32::MIN) & (b == i32::MIN);
    high.wrapping_sub(i32::from(overflow))
}

/// gemmlowp's `RoundingDivideByPOT`: `x / 2^exponent`, rounded to nearest
/// with ties away from zero, for `exponent` in `[0, 31]` (outside it, the
/// shifts wrap their count as Rust's `wrapping_shl` does).
#[inline(always)]
pub fn rounding_divide_by_pot(x: i32, exponent: i32) -> i32 {
    let exponent = exponent as u32;
    let mask = 1i32.wrapping_shl(exponent).wrapping_sub(1);
    let remainder = x & mask;
    let threshold = (mask >> 1) - (x >> 31);
    x.wrapping_shr(exponent) + i32::from(remainder > threshold)
}

/// gemmlowp's `SaturatingRoundingMultiplyByPOT` for a non-negative
/// `exponent` below 31 (it is clamped there): `x * 2^exponent`, saturated
/// to `[MIN, MAX]`.
///
/// ```
/// use tensor_expr_runtime::fixed_point::saturating_shift_left;
/// assert_eq!(saturating_shift_left(3, 2), 12);
/// assert_eq!(saturating_shift_left(1 << 29, 2), i32::MAX);
/// assert_eq!(saturating_shift_left(-(1 << 29) - 1, 2), i32::MIN);
/// assert_eq!(saturating_shift_left(-5, 0), -5);
/// ```
#[inline(always)]
pub fn saturating_shift_left(x: i32, exponent: u32) -> i32 {
    let exponent = exponent.min(30);
    let threshold = (1i32 << (31 - exponent)).wrapping_sub(1);
    if x > threshold {
        i32::MAX
    } else if x < -threshold {
        i32::MIN
    } else {
        x << exponent
    }
}

/// gemmlowp's `RoundingHalfSum`: `(a + b) / 2`, ties away from zero.
#[inline(always)]
fn rounding_half_sum(a: i32, b: i32) -> i32 {
    let sum = i64::from(a) + i64::from(b);
    let sign = if sum >= 0 { 1 } else { -1 };
    ((sum + sign) / 2) as i32
}

/// gemmlowp's `exp_on_interval_between_negative_one_quarter_and_0_excl`:
/// `e^a` for a Q0.31 `a` in `[-1/4, 0)`, by its Taylor polynomial of
/// degree 4 around `-1/8`; the result is Q0.31.
#[inline(always)]
fn exp_on_negative_quarter(a: i32) -> i32 {
    /// `e^(-1/8)` in Q0.31.
    const EXP_MINUS_ONE_EIGHTH: i32 = 1_895_147_668;
    /// `1/3` in Q0.31.
    const ONE_THIRD: i32 = 715_827_883;
    let x = a.wrapping_add(1 << 28);
    let x2 = doubling_high_mul(x, x);
    let x3 = doubling_high_mul(x2, x);
    let x4 = doubling_high_mul(x2, x2);
    let x4_over_4 = rounding_divide_by_pot(x4, 2);
    let terms = rounding_divide_by_pot(
        doubling_high_mul(x4_over_4.wrapping_add(x3), ONE_THIRD).wrapping_add(x2),
        1,
    );
    EXP_MINUS_ONE_EIGHTH.wrapping_add(doubling_high_mul(
        EXP_MINUS_ONE_EIGHTH,
        x.wrapping_add(terms),
    ))
}

/// gemmlowp's `exp_on_negative_values` for a Q5.26 `a` in `[-32, 0]` (the
/// format of TFLite's int8 softmax): `e^a` in Q0.31 (gemmlowp's instance
/// for 5 integer bits).
///
/// ```
/// use tensor_expr_runtime::fixed_point::exp_on_negative_values;
/// assert_eq!(exp_on_negative_values(0), i32::MAX);
/// // e^-1 = 0.3679 in Q0.31.
/// let e = exp_on_negative_values(-(1 << 26));
/// assert!((e as f64 / 2f64.powi(31) - (-1f64).exp()).abs() < 5e-7);
/// ```
#[inline(always)]
pub fn exp_on_negative_values(a: i32) -> i32 {
    exp_on_negative(a, SOFTMAX_INPUT_INTEGER_BITS as u32)
}

/// gemmlowp's `exp_on_negative_values` for a non-positive `a` of
/// `integer_bits` integer bits (at most 5; gemmlowp's instance for that
/// format): `e^a` in Q0.31. The fraction of `a` modulo 1/4 goes through
/// the polynomial; each set bit of the rest multiplies by `e^(-2^k)`, `k`
/// from -2 to the format's largest (4 for Q5.26).
#[inline(always)]
fn exp_on_negative(a: i32, integer_bits: u32) -> i32 {
    /// `e^(-2^k)` in Q0.31 for `k` from -2 to 4, as gemmlowp rounds them.
    const BARREL: [i32; 7] = [
        1_672_461_947,
        1_302_514_674,
        790_015_084,
        290_630_308,
        39_332_535,
        720_401,
        242,
    ];
    let fractional_bits = 31 - integer_bits;
    let quarter = 1i32 << (fractional_bits - 2);
    let a_mod_quarter_minus_quarter = (a & (quarter - 1)).wrapping_sub(quarter);
    // gemmlowp's `Rescale<0>`: a saturating shift by the integer bits.
    let mut result = exp_on_negative_quarter(saturating_shift_left(
        a_mod_quarter_minus_quarter,
        integer_bits,
    ));
    let remainder = a_mod_quarter_minus_quarter.wrapping_sub(a);
    // The bit of weight 2^k, for each k the format holds (`k < integer_bits`).
    let held = integer_bits as usize + 2;
    for (index, multiplier) in BARREL.into_iter().enumerate().take(held) {
        let bit = 1 << (fractional_bits - 2 + index as u32);
        let multiplied = doubling_high_mul(result, multiplier);
        result = if remainder & bit != 0 {
            multiplied
        } else {
            result
        };
    }
    if a == 0 {
        i32::MAX
    } else {
        result
    }
}

/// gemmlowp's Newton-Raphson division of `one_over_one_plus_x_for_x_in_0_1`
/// and `one_minus_x_over_one_plus_x_for_x_in_0_1`: `2 / (1 + a)` in Q2.29
/// for a Q0.31 `a` in `[0, 1)`, by three steps from `48/17 - 32/17 d` (`d
/// = (1 + a) / 2`, whose reciprocal it is).
#[inline(always)]
fn two_over_one_plus_x(a: i32) -> i32 {
    /// `48/17` in Q2.29.
    const FORTY_EIGHT_SEVENTEENTHS: i32 = 1_515_870_810;
    /// `-32/17` in Q2.29.
    const MINUS_THIRTY_TWO_SEVENTEENTHS: i32 = -1_010_580_540;
    let half_denominator = rounding_half_sum(a, i32::MAX);
    let mut x = FORTY_EIGHT_SEVENTEENTHS.wrapping_add(doubling_high_mul(
        half_denominator,
        MINUS_THIRTY_TWO_SEVENTEENTHS,
    ));
    for _ in 0..3 {
        let one_minus_half_denominator_times_x =
            Q2_ONE.wrapping_sub(doubling_high_mul(half_denominator, x));
        // Q2.29 times Q2.29 is Q4.27; back to Q2.29 by a saturating shift.
        let correction = doubling_high_mul(x, one_minus_half_denominator_times_x);
        x = x.wrapping_add(saturating_shift_left(correction, 2));
    }
    x
}

/// 1 in Q2.29.
const Q2_ONE: i32 = 1 << 29;

/// gemmlowp's `one_over_one_plus_x_for_x_in_0_1`: `1 / (1 + a)` for a
/// Q0.31 `a` in `[0, 1)`; the result is Q0.31.
#[inline(always)]
pub fn one_over_one_plus_x(a: i32) -> i32 {
    // Half of 2 / (1 + a) (Q1.30 with the same bits) in Q0.31.
    saturating_shift_left(two_over_one_plus_x(a), 1)
}

/// gemmlowp's `one_minus_x_over_one_plus_x_for_x_in_0_1`: `(1 - a) / (1 +
/// a)` for a Q0.31 `a` in `[0, 1)`, as `2 / (1 + a) - 1`; the result is
/// Q0.31.
#[inline(always)]
fn one_minus_x_over_one_plus_x(a: i32) -> i32 {
    saturating_shift_left(two_over_one_plus_x(a).wrapping_sub(Q2_ONE), 2)
}

/// gemmlowp's `logistic` of a Q4.27 `a`: `1 / (1 + e^-a)` in Q0.31, from
/// `e^-|a|`, reflected as `1 - logistic(|a|)` below 0 (exactly 1/2 at 0).
///
/// ```
/// use tensor_expr_runtime::fixed_point::logistic;
/// assert_eq!(logistic(0), 1 << 30);
/// // logistic(1) = 0.7311 in Q0.31.
/// let y = logistic(1 << 27) as f64 / 2f64.powi(31);
/// assert!((y - 1.0 / (1.0 + (-1f64).exp())).abs() < 1e-6);
/// ```
#[inline(always)]
pub fn logistic(a: i32) -> i32 {
    let magnitude = if a > 0 { a } else { a.wrapping_neg() };
    let if_positive = one_over_one_plus_x(exp_on_negative(magnitude.wrapping_neg(), 4));
    let if_negative = i32::MAX.wrapping_sub(if_positive);
    if a == 0 {
        1 << 30
    } else if a > 0 {
        if_positive
    } else {
        if_negative
    }
}

/// gemmlowp's `tanh` of a Q4.27 `a`: `tanh a` in Q0.31, as `(1 - e^-2|a|)
/// / (1 + e^-2|a|)` with the sign of `a` (`e^-2|a|` is `-|a|`'s bits read
/// with 5 integer bits, gemmlowp's `ExactMulByPot<1>`).
///
/// ```
/// use tensor_expr_runtime::fixed_point::tanh;
/// assert_eq!(tanh(0), 0);
/// let y = tanh(-(1 << 26)) as f64 / 2f64.powi(31);
/// assert!((y - (-0.5f64).tanh()).abs() < 1e-6);
/// ```
#[inline(always)]
pub fn tanh(a: i32) -> i32 {
    let non_positive = if a < 0 { a } else { a.wrapping_neg() };
    let magnitude = one_minus_x_over_one_plus_x(exp_on_negative(non_positive, 5));
    if a == 0 {
        0
    } else if a < 0 {
        magnitude.wrapping_neg()
    } else {
        magnitude
    }
}

/// TFLite's `CalculateInputRadius`: the largest input whose value scaled
/// left by `shift` (to a format of `integer_bits` integer bits) fits that
/// format, `floor((2^integer_bits - 1) 2^(31 - integer_bits) / 2^shift)`.
#[inline(always)]
fn input_radius(integer_bits: i32, shift: i32) -> i32 {
    let max_magnitude = ((1i64 << integer_bits) - 1) << (31 - integer_bits);
    (max_magnitude >> shift.clamp(0, 63)).min(i64::from(i32::MAX)) as i32
}

/// The integer bits of the input of TFLite's int8 `LOGISTIC` and `TANH`,
/// Q4.27.
const ACTIVATION_INPUT_INTEGER_BITS: i32 = 4;

/// TFLite Micro's Prepare for an int8 `LOGISTIC`: the input's scale in
/// units of the Q4.27 input (`2^27`), as a Q31 multiplier and a left shift
/// (`frexp` and TFLite's rounding, as [`quantize_multiplier`] gives them;
/// where the multiplier rounds to `2^31`, TFLite Micro's cast to `i32`
/// overflows, and this halves it and adds one to the shift).
///
/// # Panics
/// If `input_scale` is not positive (TFLite's quantisation never gives one
/// that is not).
///
/// ```
/// use tensor_expr_runtime::fixed_point::sigmoid_multiplier;
/// // A scale of 1/16: 2^23, a multiplier of 1/2 shifted left by 24.
/// assert_eq!(sigmoid_multiplier(0.0625), (1 << 30, 24));
/// ```
pub fn sigmoid_multiplier(input_scale: f32) -> (i32, i32) {
    assert!(
        input_scale > 0.0,
        "an int8 logistic or tanh needs a positive input scale; found {input_scale}"
    );
    let unit = f64::from(1u32 << (31 - ACTIVATION_INPUT_INTEGER_BITS));
    quantize_multiplier(f64::from(input_scale) * unit)
}

/// TFLite Micro's Prepare for an int8 `TANH`: the same as for `LOGISTIC`
/// ([`sigmoid_multiplier`]).
pub fn tanh_multiplier(input_scale: f32) -> (i32, i32) {
    sigmoid_multiplier(input_scale)
}

/// One element of an int8 `LOGISTIC` or `TANH` as TFLite Micro's reference
/// kernels compute it: `input` (an int8 value less its zero point) scaled
/// by `(multiplier, shift)` to Q4.27, through `function` (Q0.31), divided
/// by `2^(31 - output_bits)` with TFLite's rounding, plus `zero_point`,
/// saturated to int8. Beyond TFLite's `CalculateInputRadius` (where the
/// scaled input would leave Q4.27) the result is -128 or 127.
#[inline(always)]
fn activation_int8(
    input: i32,
    (multiplier, shift): (i32, i32),
    function: impl Fn(i32) -> i32,
    output_bits: i32,
    zero_point: i32,
) -> i32 {
    let radius = input_radius(ACTIVATION_INPUT_INTEGER_BITS, shift);
    let scaled = multiply_by_quantized_multiplier(input, multiplier, shift);
    let output = rounding_divide_by_pot(function(scaled), 31 - output_bits) + zero_point;
    if input <= -radius {
        -128
    } else if input >= radius {
        127
    } else {
        output.clamp(-128, 127)
    }
}

/// TFLite's int8 `LOGISTIC` of one element, `input` its int8 value less
/// the input's zero point, scaled by the [`sigmoid_multiplier`]
/// `(multiplier, shift)`: the int8 output of scale 1/256 and zero point
/// -128 (the output TFLite requires), as an `i32` in `[-128, 127]`.
///
/// ```
/// use tensor_expr_runtime::fixed_point::{sigmoid_int8, sigmoid_multiplier};
/// let (m, s) = sigmoid_multiplier(0.0625);
/// // logistic(0) = 1/2: 128 units of 1/256, less 128.
/// assert_eq!(sigmoid_int8(0, m, s), 0);
/// // logistic(16 * 0.0625 = 1) = 0.7311: 187 units, less 128.
/// assert_eq!(sigmoid_int8(16, m, s), 59);
/// ```
#[inline(always)]
pub fn sigmoid_int8(input: i32, multiplier: i32, shift: i32) -> i32 {
    activation_int8(input, (multiplier, shift), logistic, 8, -128)
}

/// TFLite's int8 `TANH` of one element, `input` its int8 value less the
/// input's zero point, scaled by the [`tanh_multiplier`] `(multiplier,
/// shift)`: the int8 output of scale 1/128 and zero point 0 (the output
/// TFLite requires), as an `i32` in `[-128, 127]`.
///
/// ```
/// use tensor_expr_runtime::fixed_point::{tanh_int8, tanh_multiplier};
/// let (m, s) = tanh_multiplier(0.0625);
/// assert_eq!(tanh_int8(0, m, s), 0);
/// // tanh(-8 * 0.0625 = -0.5) = -0.4621: -59 units of 1/128.
/// assert_eq!(tanh_int8(-8, m, s), -59);
/// ```
#[inline(always)]
pub fn tanh_int8(input: i32, multiplier: i32, shift: i32) -> i32 {
    activation_int8(input, (multiplier, shift), tanh, 7, 0)
}

/// The number of integer bits of TFLite's int8 softmax input, Q5.26.
const SOFTMAX_INPUT_INTEGER_BITS: i32 = 5;

/// The integer bits of the sum of a softmax row's exponentials, Q12.19.
pub const SOFTMAX_ACCUMULATION_INTEGER_BITS: i32 = 12;

/// TFLite's `PreprocessSoftmaxScaling` for an int8 softmax: the input's
/// scale times `beta`, in units of the Q5.26 difference (`2^26`), capped
/// at `2^31 - 1`, as a Q31 multiplier and a left shift (as
/// [`quantize_multiplier`] gives
/// them), computed in `f64` as TFLite Micro's Prepare computes it.
///
/// # Panics
/// If `input_scale * beta` is not above `2^-26` (TFLite Micro's Prepare
/// rejects the model there too): the difference of two int8 inputs would
/// not reach one unit of the exponential's input.
///
/// ```
/// use tensor_expr_runtime::fixed_point::softmax_multiplier;
/// // A scale of 1/16: 2^22, a multiplier of 1/2 shifted left by 23.
/// assert_eq!(softmax_multiplier(0.0625, 1.0), (1 << 30, 23));
/// ```
pub fn softmax_multiplier(input_scale: f32, beta: f32) -> (i32, i32) {
    let unit = f64::from(1u32 << (31 - SOFTMAX_INPUT_INTEGER_BITS));
    let real = (f64::from(beta) * f64::from(input_scale) * unit).min(f64::from(i32::MAX));
    assert!(
        real > 1.0,
        "an int8 softmax needs input_scale * beta above 2^-26; found {input_scale} * {beta}"
    );
    quantize_multiplier(real)
}

/// TFLite's int8 softmax exponential of one element: `diff`, the element
/// less its slice's maximum (so `<= 0`), scaled by the
/// [`softmax_multiplier`] `(multiplier, shift)` to Q5.26, then
/// [`exp_on_negative_values`]; Q0.31. A `diff` below TFLite's `diff_min`
/// (where the scaled value would overflow Q5.26) gives 0, which the
/// softmax treats exactly as TFLite's reference kernel treats the
/// element it skips.
#[inline(always)]
pub fn softmax_exp(diff: i32, multiplier: i32, shift: i32) -> i32 {
    let radius = input_radius(SOFTMAX_INPUT_INTEGER_BITS, shift);
    // TFLite's `MultiplyByQuantizedMultiplierGreaterThanOne`.
    let scaled = doubling_high_mul(diff.wrapping_shl(shift as u32), multiplier);
    let exp = exp_on_negative_values(scaled);
    if diff >= -radius {
        exp
    } else {
        0
    }
}

/// TFLite's `GetReciprocal` of a softmax slice's sum of exponentials
/// (Q12.19): the sum normalised to `[1, 2)`, [`one_over_one_plus_x`] of it
/// (Q0.31), and the exponent that [`softmax_scale`] divides by to give
/// units of 1/256 (`31 - 8` plus the sum's bits above 1).
#[inline(always)]
pub fn softmax_reciprocal(sum: i32) -> (i32, i32) {
    let headroom_plus_one = (sum as u32).leading_zeros();
    let bits_over_unit = SOFTMAX_ACCUMULATION_INTEGER_BITS - headroom_plus_one as i32;
    let normalised = (sum as u32).checked_shl(headroom_plus_one).unwrap_or(0);
    let shifted_sum_minus_one = normalised.wrapping_sub(1 << 31) as i32;
    (
        one_over_one_plus_x(shifted_sum_minus_one),
        bits_over_unit + 31 - 8,
    )
}

/// One element of TFLite's int8 softmax output before its zero point:
/// `exp / sum` in units of 1/256, for `exp` a [`softmax_exp`] and `sum`
/// its slice's sum of `rounding_divide_by_pot(exp, 12)` (Q12.19): the
/// exponential times the sum's [`softmax_reciprocal`], rounded as TFLite
/// rounds. Add -128 and saturate to `i8` for TFLite's output (scale 1/256,
/// zero point -128).
///
/// A sum above 2^28 (more than 512 equal maxima in a slice) makes TFLite's
/// shift 32 or more, whose result C++ leaves undefined; it is 0 here, the
/// exact quotient's rounding.
#[inline(always)]
pub fn softmax_scale(exp: i32, sum: i32) -> i32 {
    let (reciprocal, exponent) = softmax_reciprocal(sum);
    let quotient = doubling_high_mul(reciprocal, exp);
    if exponent > 31 {
        0
    } else {
        rounding_divide_by_pot(quotient, exponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exponential is within 5e-7 of `e^a` over its range (the
    /// polynomial's error on a quarter; gemmlowp's bound).
    #[test]
    fn exp_on_negative_values_tracks_exp() {
        for step in 0..=4000 {
            let a = -(step << 19) - step;
            let exact = (f64::from(a) / f64::from(1 << 26)).exp() * 2f64.powi(31);
            let found = f64::from(exp_on_negative_values(a));
            assert!(
                (found - exact).abs() < 1024.0,
                "{a}: {found} against {exact}"
            );
        }
    }

    /// The reciprocal is within a few units of `1 / (1 + a)`.
    #[test]
    fn one_over_one_plus_x_tracks_the_quotient() {
        for step in 0..1000 {
            let a = step * (i32::MAX / 1000);
            let exact = 2f64.powi(31) / (1.0 + f64::from(a) / 2f64.powi(31));
            let found = f64::from(one_over_one_plus_x(a));
            assert!((found - exact).abs() < 16.0, "{a}: {found} against {exact}");
        }
    }

    /// A slice of two equal logits is one half each: 128 - 128 = 0.
    #[test]
    fn two_equal_logits_share_the_unit() {
        let (m, s) = softmax_multiplier(0.1, 1.0);
        let e = softmax_exp(0, m, s);
        let sum = 2 * rounding_divide_by_pot(e, SOFTMAX_ACCUMULATION_INTEGER_BITS);
        assert_eq!(softmax_scale(e, sum), 128);
    }
}
