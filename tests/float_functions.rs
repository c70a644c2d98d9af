//! The float functions: accuracy against a reference (a sample of every f32
//! exponent and mantissa region; `cargo run --release --example accuracy` checks
//! all 2^32 inputs), exact special values, and NumPy's NaN rules for `max`,
//! `min`, `relu`, `clamp` and the reductions.

#[path = "common/accuracy.rs"]
mod accuracy;

use accuracy::{f32_cases, f64_cases, f64_samples, worst_f32, worst_f64};
use tensor_expr::math::{f32 as m32, f64 as m64};
use tensor_expr::prelude::*;

/// About a million f32 inputs spread over every bit pattern (a prime stride),
/// plus every input in [-2, 2] at a finer stride, where the polynomials work.
fn f32_samples() -> impl Iterator<Item = f32> {
    let spread = (0..u32::MAX / 4099).map(|k| f32::from_bits(k * 4099));
    let near = (0..400_000).map(|k| -2.0 + k as f32 * 1e-5);
    spread.chain(near)
}

#[test]
fn every_f32_function_is_within_its_bound() {
    for case in f32_cases() {
        let (error, at) = worst_f32(&case, f32_samples());
        assert!(
            error <= case.bound,
            "{}: {error:.3} ulp at {at:e} (ours {:e}, reference {:e}); bound {}",
            case.name,
            accuracy::ours_at(&case, at),
            (case.reference)(at as f64),
            case.bound
        );
    }
}

#[test]
fn every_f64_function_is_within_its_bound_of_std() {
    for case in f64_cases() {
        let (error, at) = worst_f64(&case, f64_samples(300_000, 0x9e37_79b9_7f4a_7c15));
        assert!(
            error <= case.bound,
            "{}: {error:.3} ulp at {at:e}; bound {}",
            case.name,
            case.bound
        );
    }
}

#[test]
fn special_values_are_exact() {
    let inf = f32::INFINITY;
    for f in [
        m32::exp,
        m32::exp2,
        m32::ln,
        m32::log2,
        m32::log1p,
        m32::expm1,
        m32::sin,
    ] {
        assert!(f(f32::NAN).is_nan(), "NaN in, NaN out");
    }
    for f in [
        m32::cos,
        m32::tanh,
        m32::sigmoid,
        m32::softplus,
        m32::silu,
        m32::gelu_tanh,
    ] {
        assert!(f(f32::NAN).is_nan(), "NaN in, NaN out");
    }
    assert_eq!(m32::exp(0.0), 1.0);
    assert_eq!(m32::exp(-0.0), 1.0);
    assert_eq!(m32::exp(inf), inf);
    assert_eq!(m32::exp(-inf), 0.0);
    assert_eq!(m32::exp(89.0), inf, "overflow");
    let (x, near_overflow) = (88.72f32, m32::exp(88.72));
    let reference = (x as f64).exp();
    assert!(
        near_overflow.is_finite(),
        "the largest finite results stay finite"
    );
    assert!((near_overflow as f64 - reference).abs() <= accuracy::ulp_f32(reference));
    assert_eq!(
        m32::exp(-103.0),
        (-103f64).exp() as f32,
        "underflow into the subnormals"
    );
    assert!(m32::exp(-103.0) > 0.0 && m32::exp(-103.0) < f32::MIN_POSITIVE);
    assert_eq!(m32::exp(-104.0), 0.0);
    assert_eq!(
        m32::exp2(-149.0),
        f32::from_bits(1),
        "the smallest subnormal"
    );
    assert_eq!(m32::exp2(128.0), inf);
    assert_eq!(m32::ln(1.0), 0.0);
    assert_eq!(m32::ln(0.0), -inf);
    assert_eq!(m32::ln(-0.0), -inf);
    assert!(m32::ln(-1.0).is_nan());
    assert_eq!(m32::ln(inf), inf);
    assert_eq!(
        m32::ln(f32::from_bits(1)),
        (-149.0 * std::f64::consts::LN_2) as f32
    );
    assert_eq!(m32::log2(8.0), 3.0);
    assert_eq!(m32::log1p(-1.0), -inf);
    assert_eq!(m32::log1p(1e-30), 1e-30);
    assert_eq!(m32::expm1(1e-30), 1e-30);
    assert_eq!(m32::expm1(-inf), -1.0);
    assert_eq!(m32::tanh(inf), 1.0);
    assert_eq!(m32::tanh(-inf), -1.0);
    assert_eq!(m32::tanh(20.0), 1.0, "tanh saturates to exactly 1");
    assert_eq!(m32::tanh(-0.0).to_bits(), (-0.0f32).to_bits());
    assert!(m32::sin(inf).is_nan() && m32::cos(-inf).is_nan());
    assert_eq!(m32::sin(0.0), 0.0);
    assert_eq!(m32::sin(-0.0).to_bits(), (-0.0f32).to_bits());
    assert_eq!(m32::cos(0.0), 1.0);
    assert_eq!(m32::sigmoid(inf), 1.0);
    assert_eq!(m32::sigmoid(-inf), 0.0);
    assert_eq!(m32::softplus(inf), inf);
    assert_eq!(m32::softplus(-inf), 0.0);
    assert_eq!(m32::silu(-inf), 0.0);
    assert_eq!(m32::gelu_tanh(-inf), 0.0);
    assert_eq!(m32::gelu_tanh(inf), inf);
    assert_eq!(m32::rsqrt(0.0), inf);
    // erf and GELU (erf form).
    assert!(m32::erf(f32::NAN).is_nan() && m32::gelu(f32::NAN).is_nan());
    assert!(m64::erf(f64::NAN).is_nan() && m64::gelu(f64::NAN).is_nan());
    assert_eq!((m32::erf(inf), m32::erf(-inf)), (1.0, -1.0));
    assert_eq!(m32::erf(-0.0).to_bits(), (-0.0f32).to_bits());
    assert_eq!(m32::erf(0.0), 0.0);
    assert_eq!((m64::erf(30.0), m64::erf(-30.0)), (1.0, -1.0));
    assert_eq!((m32::gelu(inf), m32::gelu(-inf)), (inf, 0.0));
    assert_eq!(
        (m64::gelu(f64::INFINITY), m64::gelu(f64::NEG_INFINITY)),
        (f64::INFINITY, 0.0)
    );
    assert_eq!(m32::gelu(0.0), 0.0);
    assert_eq!(m64::gelu(-40.0), 0.0, "erfc underflows");
    // f64 GELU in its left tail against 50-digit values (mpmath: x/2 erfc(-x/sqrt 2)):
    // within 2 ulp (a relative 4.5e-16), and 1 ulp of a subnormal result.
    for (x, exact) in [
        (-5.222_179_238_138_366_5, -4.617_181_551_023_948_6e-7),
        (-3.535_781_018_411_522e1, -1.344_521_191_615_471_7e-272),
    ] {
        let relative = ((m64::gelu(x) - exact) / exact).abs();
        assert!(relative <= 4.5e-16, "gelu({x:e}) = {:e}", m64::gelu(x));
    }
    let (x, exact) = (-3.770_222_025_934_743e1, -8.610_925_315_119e-310);
    assert!(
        (m64::gelu(x) - exact).abs() <= 1.0 * 4.94e-324,
        "{:e}",
        m64::gelu(x)
    );
    assert_eq!(m64::exp(0.0), 1.0);
    assert_eq!(m64::exp(710.0), f64::INFINITY);
    let (x, near_overflow) = (709.78f64, m64::exp(709.78));
    assert!(
        near_overflow.is_finite(),
        "the largest finite results stay finite"
    );
    assert!((near_overflow - x.exp()).abs() <= accuracy::ulp_f64(x.exp()));
    assert_eq!(
        m64::exp(-745.0),
        f64::from_bits(1) * 1.0,
        "the smallest subnormal"
    );
    assert_eq!(m64::ln(1.0), 0.0);
    assert_eq!(m64::tanh(f64::INFINITY), 1.0);
    assert!(m64::ln(-1.0).is_nan() && m64::exp(f64::NAN).is_nan());
}

/// `exp2` of an integer is that power of two exactly, over the whole range:
/// the normal powers, the subnormal ones (where the scaling switches to its
/// rescaled power of two and rounds into the subnormals) and the largest
/// (where the scaling starts from `2^(n - 1)` so it does not overflow; the
/// largest finite `exp` results are checked with the special values).
#[test]
fn exp2_of_every_integer_is_its_power_of_two() {
    for k in -149..=127 {
        let exact = 2f64.powi(k) as f32;
        assert_eq!(m32::exp2(k as f32), exact, "2^{k} (f32)");
    }
    assert_eq!(
        m32::exp2(-150.0),
        0.0,
        "half the least subnormal rounds to even"
    );
    for k in -1074..=1023 {
        let exact = f64::from_bits(if k >= -1022 {
            ((k + 1023) as u64) << 52
        } else {
            1 << (k + 1074)
        });
        assert_eq!(m64::exp2(k as f64), exact, "2^{k} (f64)");
    }
}

#[test]
fn sigmoid_stays_in_the_unit_interval_and_tanh_in_minus_one_to_one() {
    for x in f32_samples() {
        let (s, t) = (m32::sigmoid(x), m32::tanh(x));
        assert!(
            x.is_nan() || (0.0..=1.0).contains(&s),
            "sigmoid({x:e}) = {s:e}"
        );
        assert!(
            x.is_nan() || (-1.0..=1.0).contains(&t),
            "tanh({x:e}) = {t:e}"
        );
    }
}

#[test]
fn the_expression_functions_are_these_functions() {
    let x = Tensor::<f32, Shape![4, 9]>::from_fn(|[i, j]: [usize; 2]| {
        (i as f32 - 1.5) * 3.1 + j as f32 * 0.77 - 2.0
    });
    type Case = (Tensor<f32, Shape![4, 9]>, fn(f32) -> f32);
    let cases: [Case; 12] = [
        (tensor_expr!(erf(x)), m32::erf),
        (tensor_expr!(gelu(x)), m32::gelu),
        (tensor_expr!(exp2(x)), m32::exp2),
        (tensor_expr!(log2(abs(x))), |v| m32::log2(v.abs())),
        (tensor_expr!(log1p(abs(x))), |v| m32::log1p(v.abs())),
        (tensor_expr!(expm1(x)), m32::expm1),
        (tensor_expr!(softplus(x)), m32::softplus),
        (tensor_expr!(silu(x)), m32::silu),
        (tensor_expr!(gelu_tanh(x)), m32::gelu_tanh),
        (tensor_expr!(rsqrt(abs(x))), |v| m32::rsqrt(v.abs())),
        (tensor_expr!(sigmoid(x)), m32::sigmoid),
        (tensor_expr!(tanh(x)), m32::tanh),
    ];
    for (k, (actual, f)) in cases.iter().enumerate() {
        for (a, &v) in actual.as_slice().iter().zip(x.as_slice()) {
            assert_eq!(a.to_bits(), f(v).to_bits(), "case {k} at {v}");
        }
    }
}

#[test]
fn max_min_relu_and_clamp_propagate_nan_as_numpy() {
    let nan = f32::NAN;
    let x: Tensor<f32, Shape![2, 3]> = tensor![[1., nan, -3.], [4., 5., -6.]];
    let two = 2.0f32;
    let m = tensor_expr!(max(x, two));
    assert_eq!(m.as_slice()[..1], [2.0]);
    assert!(m.as_slice()[1].is_nan(), "np.maximum(nan, 2) is nan");
    let m = tensor_expr!(max(two, x));
    assert!(m.as_slice()[1].is_nan(), "either side");
    assert!(tensor_expr!(min(x, two)).as_slice()[1].is_nan());
    assert!(
        tensor_expr!(relu(x)).as_slice()[1].is_nan(),
        "torch.relu(nan) is nan"
    );
    assert_eq!(tensor_expr!(relu(x)).as_slice()[2], 0.0);
    assert!(tensor_expr!(clamp(x, -1.0, 1.0)).as_slice()[1].is_nan());
    let rows = tensor_expr!(max(x, [1]));
    assert!(
        rows.as_slice()[0].is_nan(),
        "np.max of a row holding nan is nan"
    );
    assert_eq!(rows.as_slice()[1], 5.0);
    let cols = tensor_expr!(min(x, [0]));
    assert_eq!((cols.as_slice()[0], cols.as_slice()[2]), (1.0, -6.0));
    assert!(cols.as_slice()[1].is_nan());
    // NumPy's fmax / fmin ignore a NaN operand.
    assert_eq!(
        tensor_expr!(fmax(x, two)).as_slice(),
        &[2., 2., 2., 4., 5., 2.]
    );
    assert_eq!(
        tensor_expr!(fmin(x, two)).as_slice(),
        &[1., 2., -3., 2., 2., -6.]
    );
}

/// Values where rounding goes wrong: ties of both parities, the largest
/// float below one half (whose `x + 0.5` rounds up to 1), both zeros, the
/// first floats that are all integers, infinities and NaN.
fn rounding_cases_f32() -> Vec<f32> {
    let mut cases = vec![
        0.0,
        -0.0,
        0.3,
        -0.3,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        0.499_999_97,
        -0.499_999_97,
        1.0,
        -1.0,
        8_388_607.5,
        -8_388_607.5,
        8_388_608.0,
        16_777_215.0,
        1e30,
        -1e30,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    cases.extend(f32_samples().step_by(7));
    cases
}

#[test]
fn rounding_functions_are_rusts_bit_for_bit() {
    // Each of `round`, `round_even`, `floor`, `ceil`, `trunc` against std's,
    // the sign of a zero included (NaN compared as NaN).
    let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
    type Pair = (&'static str, fn(f32) -> f32, fn(f32) -> f32);
    let functions: [Pair; 5] = [
        ("round", Float::round, f32::round),
        ("round_even", Float::round_even, f32::round_ties_even),
        ("floor", Float::floor, f32::floor),
        ("ceil", Float::ceil, f32::ceil),
        ("trunc", Float::trunc, f32::trunc),
    ];
    for x in rounding_cases_f32() {
        for (name, ours, std) in functions {
            assert!(
                same(ours(x), std(x)),
                "{name}({x:e}): {} against {}",
                ours(x),
                std(x)
            );
        }
    }
    for x in f64_samples(200_000, 0x2545_f491_4f6c_dd1d).chain([
        0.5,
        -0.5,
        2.5,
        -0.0,
        0.499_999_999_999_999_94,
        4_503_599_627_370_495.5,
    ]) {
        let cases: [(f64, f64); 5] = [
            (Float::round(x), x.round()),
            (Float::round_even(x), x.round_ties_even()),
            (Float::floor(x), x.floor()),
            (Float::ceil(x), x.ceil()),
            (Float::trunc(x), x.trunc()),
        ];
        for (ours, std) in cases {
            assert!(
                ours.to_bits() == std.to_bits() || (ours.is_nan() && std.is_nan()),
                "{x:e}: {ours} against {std}"
            );
        }
    }
}

#[test]
fn rounding_and_sign_in_expressions() {
    let x: Tensor<f32, Shape![6]> = tensor![-2.5, -0.5, 0.5, 1.5, 2.5, f32::NAN];
    assert_eq!(
        tensor_expr!(round(x)).as_slice()[..5],
        [-3.0, -1.0, 1.0, 2.0, 3.0]
    );
    assert_eq!(
        tensor_expr!(round_even(x)).as_slice()[..5],
        [-2.0, -0.0, 0.0, 2.0, 2.0]
    );
    assert_eq!(
        tensor_expr!(floor(x)).as_slice()[..5],
        [-3.0, -1.0, 0.0, 1.0, 2.0]
    );
    assert_eq!(
        tensor_expr!(ceil(x)).as_slice()[..5],
        [-2.0, -0.0, 1.0, 2.0, 3.0]
    );
    assert_eq!(
        tensor_expr!(trunc(x)).as_slice()[..5],
        [-2.0, -0.0, 0.0, 1.0, 2.0]
    );
    // TFLite's float requantisation: round(acc * scale) + zero point.
    let acc: Tensor<f32, Shape![3]> = tensor![100.0, -37.0, 5.0];
    let (scale, zero_point) = (0.05f32, 3.0f32);
    assert_eq!(
        tensor_expr!(round(acc * scale) + zero_point).as_slice(),
        &[8.0, 1.0, 3.0]
    );
    // NumPy's sign: -1, 0 or 1, NaN for NaN; integers too.
    let s = tensor_expr!(sign(x));
    assert_eq!(s.as_slice()[..5], [-1.0, -1.0, 1.0, 1.0, 1.0]);
    assert!(s.as_slice()[5].is_nan());
    // Both zeros give +0 (bits compared: `-0.0 == 0.0`).
    let z: Tensor<f64, Shape![2]> = tensor![-0.0, 0.0];
    let signs = tensor_expr!(sign(z));
    let bits: Vec<u64> = signs.as_slice().iter().map(|v| v.to_bits()).collect();
    assert_eq!(bits, [0.0f64.to_bits(); 2]);
    let i: Tensor<i32, Shape![3]> = tensor![-7, 0, 9];
    assert_eq!(tensor_expr!(sign(i)).as_slice(), &[-1, 0, 1]);
}

/// An output of 1024 elements or more may run the nest compiled with
/// AVX-512 or AVX2 (picked at run time, with `std` on x86-64); a smaller
/// one runs the compile-time target's. Both give the same bits: every
/// value of the long expression equals the same expression over pieces of
/// 512.
#[test]
fn a_dispatched_nest_gives_the_compile_time_nest_bits() {
    const N: usize = 4096;
    let x = Tensor::<f32, Shape![N]>::from_flat_fn(|k| ((k as f32) * 0.618).sin() * 9.0);
    let long = tensor_expr!(sin(x) * exp(x) + tanh(x) - ln(abs(x) + 0.5) / sigmoid(x));
    for (k, piece) in x.as_slice().chunks_exact(512).enumerate() {
        let p = TensorView::<f32, Shape![512]>::try_from_slice(piece).unwrap();
        let short = tensor_expr!(sin(p) * exp(p) + tanh(p) - ln(abs(p) + 0.5) / sigmoid(p));
        for (j, (a, b)) in long.as_slice()[k * 512..][..512]
            .iter()
            .zip(short.as_slice())
            .enumerate()
        {
            assert_eq!(
                a.to_bits(),
                b.to_bits(),
                "element {}: {a} against {b}",
                k * 512 + j
            );
        }
    }
}
