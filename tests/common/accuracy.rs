//! The float functions' accuracy check, shared by the sampled test
//! (`tests/float_functions.rs`) and the exhaustive run (`examples/accuracy.rs`):
//! each function of [`tensor_expr::math`] against a reference, the error in
//! units in the last place (ulp) of the reference.
//!
//! f32 functions are compared with std's f64 functions at the same input
//! (accurate to far below an f32 ulp); f64 functions with std's f64 functions
//! (within about 1 ulp themselves), so an f64 figure bounds the distance
//! between two implementations, not to the exact value.
#![allow(dead_code)]

use tensor_expr::math::{f32 as m32, f64 as m64};

/// One function: its name, the bound the tests hold it to (ulp), where that
/// bound applies, and the implementations.
pub struct Case<F, R> {
    pub name: &'static str,
    pub bound: f64,
    /// The inputs the bound covers (sin and cos: a range of |x|).
    pub covers: fn(R) -> bool,
    /// Ours over a batch of inputs (a loop the function is inlined into).
    pub ours: fn(&[F], &mut [F]),
    pub reference: fn(R) -> R,
}

/// Our function `$f` as a batch: a loop over a slice, so it runs vectorised.
macro_rules! batch {
    ($f:path) => {
        |x, out| {
            for (o, &v) in out.iter_mut().zip(x) {
                *o = $f(v);
            }
        }
    };
}

fn everywhere(_: f64) -> bool {
    true
}

/// sin/cos of f32: the bound holds while the reduction by pi/4 is exact.
fn trig_range_f32(x: f64) -> bool {
    x.abs() <= 1e7
}

/// sin/cos of f64: the bound holds while the reduction by pi/4 is exact.
fn trig_range_f64(x: f64) -> bool {
    x.abs() <= 1e9
}

fn sigmoid(x: f64) -> f64 {
    if x < 0.0 {
        let e = x.exp();
        e / (1.0 + e)
    } else {
        1.0 / (1.0 + (-x).exp())
    }
}

fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// `x sigmoid(x)`, with its limit 0 at -inf (where the product is `-inf * 0`).
fn silu(x: f64) -> f64 {
    if x == f64::NEG_INFINITY {
        0.0
    } else {
        x * sigmoid(x)
    }
}

/// GELU's tanh form as `x sigmoid(2u)` (the same function; no cancellation).
/// (With its limit 0 at -inf.)
fn gelu_tanh(x: f64) -> f64 {
    if x == f64::NEG_INFINITY {
        return 0.0;
    }
    x * sigmoid(2.0 * 0.797_884_560_802_865_4 * (x + 0.044_715 * x * x * x))
}

/// GELU's erf form as `x erfc(-x / sqrt 2) / 2` (libm's `erfc`, which does
/// not cancel for x << 0), with the rounding of `-x / sqrt 2` corrected to
/// first order: erfc magnifies it for x << 0 (for f32 it is far below an ulp
/// anyway).
fn gelu(x: f64) -> f64 {
    if x.is_infinite() {
        return x.max(0.0);
    }
    let t = -x * core::f64::consts::FRAC_1_SQRT_2;
    let lo = (-x).mul_add(core::f64::consts::FRAC_1_SQRT_2, -t) + -x * -4.833_646_656_726_457e-17;
    // erfc(t + lo) = erfc(t) - 2/sqrt(pi) e^(-t^2) lo, to first order.
    let derivative = core::f64::consts::FRAC_2_SQRT_PI * (-t * t).exp();
    x * ((libm::erfc(t) - derivative * lo) / 2.0)
}

/// f64 GELU where its result is normal: below, libm's `erfc` (the reference)
/// rounds an intermediate into the subnormals and is off by tens of ulp. Above,
/// the reference is itself up to about 3 ulp off in the left tail (its two
/// exponentials), so the f64 bound is a distance between the two; the tests
/// check a few values against 50-digit ones instead.
fn gelu_normal_f64(x: f64) -> bool {
    x >= -37.5
}

fn rsqrt(x: f64) -> f64 {
    1.0 / x.sqrt()
}

/// A case whose bound holds for every input.
fn case<F>(
    name: &'static str,
    bound: f64,
    ours: fn(&[F], &mut [F]),
    reference: fn(f64) -> f64,
) -> Case<F, f64> {
    Case {
        name,
        bound,
        covers: everywhere,
        ours,
        reference,
    }
}

/// Every f32 function with its reference and bound.
pub fn f32_cases() -> Vec<Case<f32, f64>> {
    vec![
        case("exp", 1.05, batch!(m32::exp), f64::exp),
        case("exp2", 1.05, batch!(m32::exp2), f64::exp2),
        case("expm1", 2.0, batch!(m32::expm1), f64::exp_m1),
        case("ln", 1.0, batch!(m32::ln), f64::ln),
        case("log2", 2.0, batch!(m32::log2), f64::log2),
        case("log1p", 2.5, batch!(m32::log1p), f64::ln_1p),
        Case {
            covers: trig_range_f32,
            ..case("sin", 2.0, batch!(m32::sin), f64::sin)
        },
        Case {
            covers: trig_range_f32,
            ..case("cos", 2.0, batch!(m32::cos), f64::cos)
        },
        case("tanh", 2.5, batch!(m32::tanh), f64::tanh),
        case("sigmoid", 2.5, batch!(m32::sigmoid), sigmoid),
        case("softplus", 3.0, batch!(m32::softplus), softplus),
        case("silu", 3.0, batch!(m32::silu), silu),
        case("gelu_tanh", 3.0, batch!(m32::gelu_tanh), gelu_tanh),
        case("erf", 1.5, batch!(m32::erf), libm::erf),
        case("gelu", 7.0, batch!(m32::gelu), gelu),
        case("sqrt", 0.5, batch!(m32::sqrt), f64::sqrt),
        case("rsqrt", 1.5, batch!(m32::rsqrt), rsqrt),
    ]
}

/// Every f64 function with its reference (std's f64) and bound.
pub fn f64_cases() -> Vec<Case<f64, f64>> {
    vec![
        case("exp", 1.0, batch!(m64::exp), f64::exp),
        case("exp2", 1.0, batch!(m64::exp2), f64::exp2),
        case("expm1", 2.0, batch!(m64::expm1), f64::exp_m1),
        case("ln", 1.0, batch!(m64::ln), f64::ln),
        case("log2", 2.0, batch!(m64::log2), f64::log2),
        case("log1p", 2.0, batch!(m64::log1p), f64::ln_1p),
        Case {
            covers: trig_range_f64,
            ..case("sin", 2.0, batch!(m64::sin), f64::sin)
        },
        Case {
            covers: trig_range_f64,
            ..case("cos", 2.0, batch!(m64::cos), f64::cos)
        },
        case("tanh", 3.0, batch!(m64::tanh), f64::tanh),
        case("sigmoid", 3.0, batch!(m64::sigmoid), sigmoid),
        case("erf", 1.0, batch!(m64::erf), libm::erf),
        Case {
            covers: gelu_normal_f64,
            ..case("gelu", 6.0, batch!(m64::gelu), gelu)
        },
        case("sqrt", 0.0, batch!(m64::sqrt), f64::sqrt),
        case("rsqrt", 1.0, batch!(m64::rsqrt), rsqrt),
    ]
}

/// The f32 ulp at `r` (the spacing of f32 values around it).
pub fn ulp_f32(r: f64) -> f64 {
    let e = (r.abs() as f32).to_bits() >> 23;
    let ulp = if e == 0 {
        f32::from_bits(1)
    } else if e > 23 {
        f32::from_bits((e - 23) << 23)
    } else {
        f32::from_bits(1 << (e - 1))
    };
    ulp as f64
}

/// The f64 ulp at `r`.
pub fn ulp_f64(r: f64) -> f64 {
    let e = r.abs().to_bits() >> 52;
    if e == 0 {
        f64::from_bits(1)
    } else if e > 52 {
        f64::from_bits((e - 52) << 52)
    } else {
        f64::from_bits(1 << (e - 1))
    }
}

/// The error of `ours` against `reference` in ulp of `reference`, where a
/// NaN, an infinity or an overflow must match exactly (else infinite error).
pub fn ulp_error(ours: f64, reference: f64, ulp: impl Fn(f64) -> f64, max: f64) -> f64 {
    if reference.is_nan() || ours.is_nan() {
        return if reference.is_nan() && ours.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if reference.abs() > max || ours.is_infinite() {
        // The reference overflows the type: ours must be that infinity.
        let expected = if reference.abs() > max {
            f64::INFINITY.copysign(reference)
        } else {
            reference
        };
        return if ours == expected { 0.0 } else { f64::INFINITY };
    }
    (ours - reference).abs() / ulp(reference)
}

/// The largest error of `case` over `inputs`, and the input where it is;
/// ours runs over batches of 4096 inputs.
fn worst<F: Copy + Default + Into<f64>>(
    case: &Case<F, f64>,
    inputs: impl Iterator<Item = F>,
    ulp: impl Fn(f64) -> f64 + Copy,
    max: f64,
) -> (f64, F) {
    let mut worst = (0.0, F::default());
    let (mut batch, mut out) = (Vec::with_capacity(4096), vec![F::default(); 4096]);
    let mut inputs = inputs.filter(|&x| (case.covers)(x.into())).peekable();
    while inputs.peek().is_some() {
        batch.clear();
        batch.extend(inputs.by_ref().take(4096));
        (case.ours)(&batch, &mut out[..batch.len()]);
        for (&x, &ours) in batch.iter().zip(&out) {
            let error = ulp_error(ours.into(), (case.reference)(x.into()), ulp, max);
            if error > worst.0 {
                worst = (error, x);
            }
        }
    }
    worst
}

/// The largest error of an f32 case over `inputs`, and the input where it is.
pub fn worst_f32(case: &Case<f32, f64>, inputs: impl Iterator<Item = f32>) -> (f64, f32) {
    // f32's largest value plus half an ulp: beyond, rounding overflows.
    let max = f32::MAX as f64 * (1.0 + f64::EPSILON * 2f64.powi(27));
    worst(case, inputs, ulp_f32, max)
}

/// The largest error of an f64 case over `inputs`, and the input where it is.
pub fn worst_f64(case: &Case<f64, f64>, inputs: impl Iterator<Item = f64>) -> (f64, f64) {
    worst(case, inputs, ulp_f64, f64::MAX)
}

/// Ours at one input (for messages).
pub fn ours_at<F: Copy + Default>(case: &Case<F, f64>, x: F) -> F {
    let mut out = [F::default()];
    (case.ours)(&[x], &mut out);
    out[0]
}

/// Pseudo-random f64 inputs: alternately any bit pattern and uniform in
/// [-64, 64), where the functions change most.
pub fn f64_samples(count: usize, seed: u64) -> impl Iterator<Item = f64> {
    let mut state = seed | 1;
    (0..count).map(move |k| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if k % 2 == 0 {
            f64::from_bits(state)
        } else {
            (state >> 11) as f64 / (1u64 << 53) as f64 * 128.0 - 64.0
        }
    })
}
