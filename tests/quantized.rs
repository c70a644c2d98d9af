//! Int8 layers bit-exact with TFLite Micro: the vectors in
//! `tests/vectors/tflite_int8.txt` are TFLite Micro's outputs for models the
//! TFLite converter quantised (`tests/vectors/tflite_int8.py`), and each
//! layer here is one expression compared byte for byte. The dense layer is
//! also compared, in its float form, with desktop LiteRT's reference
//! kernels.

use tensor_expr::element::{
    quantize_multiplier, sigmoid_multiplier, softmax_multiplier, tanh_multiplier, Accumulator,
};
use tensor_expr::prelude::*;

/// The integer values of `key` in case `name` of the vectors.
fn values(name: &str, key: &str) -> Vec<i64> {
    text_values(name, key)
        .iter()
        .map(|v| v.parse().unwrap())
        .collect()
}

/// The values of `key` in case `name` of the vectors: the lines of values
/// as text (the floats are shortest round-trip text).
fn text_values(name: &str, key: &str) -> Vec<String> {
    let text = include_str!("vectors/tflite_int8.txt");
    let case = text
        .split("case ")
        .find(|case| case.lines().next() == Some(name))
        .unwrap_or_else(|| panic!("no case {name}"));
    let line = case
        .lines()
        .find(|line| line.split(' ').next() == Some(key))
        .unwrap_or_else(|| panic!("no {key} in {name}"));
    line.split(' ').skip(1).map(str::to_string).collect()
}

fn values_f64(name: &str, key: &str) -> Vec<f64> {
    text_values(name, key)
        .iter()
        .map(|v| v.parse().unwrap())
        .collect()
}

fn i8s(name: &str, key: &str) -> Vec<i8> {
    values(name, key)
        .into_iter()
        .map(|v| i8::try_from(v).unwrap())
        .collect()
}

fn i32s(name: &str, key: &str) -> Vec<i32> {
    values(name, key)
        .into_iter()
        .map(|v| i32::try_from(v).unwrap())
        .collect()
}

fn scalar(name: &str, key: &str) -> i32 {
    i32s(name, key)[0]
}

/// The layer's inputs: `x`, `w`, `bias`, multipliers and shifts, zero points.
macro_rules! layer {
    ($name:literal, $x:ty, $w:ty, $c:literal) => {{
        let x = Tensor::<i8, $x>::try_from_slice(&i8s($name, "x")).unwrap();
        let w = Tensor::<i8, $w>::try_from_slice(&i8s($name, "w")).unwrap();
        let bias = Tensor::<i32, Shape![$c]>::try_from_slice(&i32s($name, "bias")).unwrap();
        let m = Tensor::<i32, Shape![$c]>::try_from_slice(&i32s($name, "multiplier")).unwrap();
        let s = Tensor::<i32, Shape![$c]>::try_from_slice(&i32s($name, "shift")).unwrap();
        (x, w, bias, m, s, scalar($name, "zx"), scalar($name, "zy"))
    }};
}

#[test]
fn dense_layer_matches_tflite_micro() {
    let (x, w, bias, m, s, zx, zy) = layer!("dense", Shape![12, 64], Shape![64, 32], 32);
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize((cast::<i32>(x) - zx) @ cast::<i32>(w) + bias, m, s) + zy
    ));
    assert_eq!(y.as_slice(), &i8s("dense", "y")[..]);
}

/// `(x - zx) @ w` by its definition, `i32` sums wrapping.
fn int8_product_by_definition(x: &[i8], w: &[i8], zx: i32, k: usize, n: usize) -> Vec<i32> {
    x.chunks_exact(k)
        .flat_map(|row| {
            (0..n).map(move |j| {
                row.iter().enumerate().fold(0i32, |sum, (kk, &xv)| {
                    let term = (i32::from(xv) - zx).wrapping_mul(i32::from(w[kk * n + j]));
                    sum.wrapping_add(term)
                })
            })
        })
        .collect()
}

/// Products of one and of few rows: their tiles are one row wide (128
/// columns with AVX-512, 64 with AVX2), summed in the kernel's tiles of
/// 32 columns, with columns left over for narrower tiles.
#[test]
fn int8_products_of_few_rows_match_their_definition() {
    let (x, w) = (bytes::<Shape![1, 64]>(21), bytes::<Shape![64, 128]>(22));
    let zx = -3;
    let y = tensor_expr!((cast::<i32>(x) - zx) @ cast::<i32>(w));
    let expected = int8_product_by_definition(x.as_slice(), w.as_slice(), zx, 64, 128);
    assert_eq!(y.as_slice(), &expected[..], "[1, 64] @ [64, 128]");

    let (x, w) = (bytes::<Shape![3, 96]>(23), bytes::<Shape![96, 200]>(24));
    let zx = 128;
    let y = tensor_expr!((cast::<i32>(x) - zx) @ cast::<i32>(w));
    let expected = int8_product_by_definition(x.as_slice(), w.as_slice(), zx, 96, 200);
    assert_eq!(y.as_slice(), &expected[..], "[3, 96] @ [96, 200]");
}

/// The float form of the requantisation, `round(acc * scale)` in `f64`
/// (ties away from zero), is what LiteRT's reference kernels compute.
#[test]
fn dense_layer_in_float_matches_litert() {
    let (x, w, bias, _, _, zx, zy) = layer!("dense", Shape![12, 64], Shape![64, 32], 32);
    let scale = values_f64("dense", "scale");
    let scale = Tensor::<f64, Shape![32]>::try_from_slice(&scale).unwrap();
    let zy = f64::from(zy);
    let y = tensor_expr!(saturating_cast::<i8>(
        round(cast::<f64>((cast::<i32>(x) - zx) @ cast::<i32>(w) + bias) * scale) + zy
    ));
    assert_eq!(y.as_slice(), &i8s("dense", "y_litert")[..]);
}

/// TFLite's `QuantizeMultiplier` of the layer's real multipliers gives the
/// multipliers and shifts TFLite Micro ran with.
#[test]
fn quantize_multiplier_is_tflites() {
    let pairs: Vec<(i32, i32)> = values_f64("dense", "scale")
        .into_iter()
        .map(quantize_multiplier)
        .collect();
    let expected: Vec<(i32, i32)> = i32s("dense", "multiplier")
        .into_iter()
        .zip(i32s("dense", "shift"))
        .collect();
    assert_eq!(pairs, expected);
}

#[test]
fn conv2d_matches_tflite_micro() {
    let (x, w, bias, m, s, zx, zy) = layer!("conv2d", Shape![4, 9, 10, 4], Shape![8, 3, 3, 4], 8);
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(
                cast::<i32>(x) - zx,
                cast::<i32>(w),
                padding = same,
                layout = nhwc
            ) + bias,
            m,
            s
        ) + zy
    ));
    assert_eq!(y.as_slice(), &i8s("conv2d", "y")[..]);
}

/// TensorFlow's `SAME` with a stride of 2: the keyword spotter's first
/// layer (10x4 over 49x10: 4 rows of padding on top, 5 below) and a
/// depthwise layer over an even height (none on top, one below).
#[test]
fn strided_same_convolutions_match_tflite_micro() {
    let name = "conv2d_same_stride2";
    let (x, w, bias, m, s, zx, zy) = layer!(
        "conv2d_same_stride2",
        Shape![4, 49, 10, 1],
        Shape![8, 10, 4, 1],
        8
    );
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(
                cast::<i32>(x) - zx,
                cast::<i32>(w),
                stride = 2,
                padding = same,
                layout = nhwc
            ) + bias,
            m,
            s
        ) + zy
    ));
    assert_eq!(y.shape(), [4, 25, 5, 8]);
    assert_eq!(y.as_slice(), &i8s(name, "y")[..]);

    let name = "depthwise_same_stride2";
    let (x, w, bias, m, s, zx, zy) = layer!(
        "depthwise_same_stride2",
        Shape![4, 12, 11, 8],
        Shape![8, 3, 3, 1],
        8
    );
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(
                cast::<i32>(x) - zx,
                cast::<i32>(w),
                stride = 2,
                padding = same,
                groups = 8,
                layout = nhwc
            ) + bias,
            m,
            s
        ) + zy
    ));
    assert_eq!(y.shape(), [4, 6, 6, 8]);
    assert_eq!(y.as_slice(), &i8s(name, "y")[..]);
}

/// A padding per side (TensorFlow's explicit padding, which the converter
/// turns into a PAD with the input's zero point before a VALID convolution)
/// as one expression: zeros after the zero point is subtracted.
#[test]
fn padding_per_side_matches_tflite_micro() {
    let name = "conv2d_padding_sides";
    let (x, w, bias, m, s, zx, zy) = layer!(
        "conv2d_padding_sides",
        Shape![4, 7, 6, 4],
        Shape![8, 3, 3, 4],
        8
    );
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(
                cast::<i32>(x) - zx,
                cast::<i32>(w),
                padding = [[2, 0], [0, 1]],
                layout = nhwc
            ) + bias,
            m,
            s
        ) + zy
    ));
    assert_eq!(y.shape(), [4, 7, 5, 8]);
    assert_eq!(y.as_slice(), &i8s(name, "y")[..]);
}

#[test]
fn depthwise_conv2d_matches_tflite_micro() {
    let (x, w, bias, m, s, zx, zy) = layer!(
        "depthwise_conv2d",
        Shape![4, 9, 10, 8],
        Shape![8, 3, 3, 1],
        8
    );
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(
                cast::<i32>(x) - zx,
                cast::<i32>(w),
                padding = same,
                groups = 8,
                layout = nhwc
            ) + bias,
            m,
            s
        ) + zy
    ));
    assert_eq!(y.as_slice(), &i8s("depthwise_conv2d", "y")[..]);
}

#[test]
fn pools_match_tflite_micro() {
    let x = Tensor::<i8, Shape![4, 8, 10, 4]>::try_from_slice(&i8s("max_pool2d", "x")).unwrap();
    let y = tensor_expr!(max_pool2d(x, [2, 2], layout = nhwc));
    assert_eq!(y.as_slice(), &i8s("max_pool2d", "y")[..]);
    // TFLite's int8 average rounds half away from zero, as `round` does;
    // the input and output share their scale and zero point.
    let x = Tensor::<i8, Shape![4, 8, 10, 4]>::try_from_slice(&i8s("avg_pool2d", "x")).unwrap();
    let y = tensor_expr!(cast::<i8>(round(avg_pool2d(
        cast::<f32>(x),
        [2, 2],
        layout = nhwc
    ))));
    assert_eq!(y.as_slice(), &i8s("avg_pool2d", "y")[..]);
    // The same in integers, as TFLite Micro computes it: the window's sum,
    // rounded half away from zero by the integer average itself.
    let y = tensor_expr!(saturating_cast::<i8>(avg_pool2d(
        cast::<i32>(x),
        [2, 2],
        layout = nhwc
    )));
    assert_eq!(y.as_slice(), &i8s("avg_pool2d", "y")[..]);
}

/// A pool over `cast::<i32>(x) - c` reads the bytes converted in place,
/// padding and channels first included: the same as over the converted
/// tensor stored first.
#[test]
fn pools_read_a_converted_input_as_its_stored_copy() {
    let x = Tensor::<i8, Shape![2, 3, 7, 9]>::from_fn(|[n, c, h, w]| {
        ((n * 131 + c * 37 + h * 11 + w * 5) % 255) as i8
    });
    let wide = tensor_expr!(cast::<i32>(x) - 5);
    let expected = tensor_expr!(max_pool2d(wide, [3, 3], stride = 2, padding = 1));
    let found = tensor_expr!(max_pool2d(
        cast::<i32>(x) - 5,
        [3, 3],
        stride = 2,
        padding = 1
    ));
    assert_eq!(found.as_slice(), expected.as_slice());
    let expected = tensor_expr!(avg_pool2d(wide, [2, 3], padding = [[1, 0], [1, 1]]));
    let found = tensor_expr!(avg_pool2d(
        cast::<i32>(x) - 5,
        [2, 3],
        padding = [[1, 0], [1, 1]]
    ));
    assert_eq!(found.as_slice(), expected.as_slice());
}

/// The inputs of a case of two int8 tensors (ADD, MUL): the tensors,
/// their zero points and the output's, and the three scales as TFLite
/// stores them (`f32`).
struct Binary {
    a: Tensor<i8, Shape![4, 6, 5, 8]>,
    b: Tensor<i8, Shape![4, 6, 5, 8]>,
    za: i32,
    zb: i32,
    zy: i32,
    scales: [f32; 3],
}

impl Binary {
    fn load(name: &str) -> Binary {
        let scales: Vec<f32> = text_values(name, "scales")
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        Binary {
            a: Tensor::try_from_slice(&i8s(name, "a")).unwrap(),
            b: Tensor::try_from_slice(&i8s(name, "b")).unwrap(),
            za: scalar(name, "za"),
            zb: scalar(name, "zb"),
            zy: scalar(name, "zy"),
            scales: scales.try_into().unwrap(),
        }
    }
}

/// A residual's int8 `ADD` of two tensors of different scales and zero
/// points, one expression with the parameters TFLite prepares
/// (`AddParameters`), byte for byte TFLite Micro's.
#[test]
fn int8_add_of_two_scales_matches_tflite_micro() {
    use tensor_expr::element::AddParameters;
    let Binary {
        a,
        b,
        za,
        zb,
        zy,
        scales,
    } = Binary::load("add");
    let p = AddParameters::int8(scales[0], scales[1], scales[2]);
    let ((ma, sa), (mb, sb), (mo, so)) = (p.a, p.b, p.output);
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize(
            requantize((cast::<i32>(a) - za) << 20, ma, sa)
                + requantize((cast::<i32>(b) - zb) << 20, mb, sb),
            mo,
            so
        ) + zy
    ));
    assert_eq!(y.as_slice(), &i8s("add", "y")[..]);
}

/// An int8 MUL of two scales: the product of the inputs less their zero
/// points, requantised by `QuantizeMultiplier(sa * sb / sy)` (computed in
/// `f64` from the `f32` scales, as TFLite Micro's `mul_common.cc` does).
#[test]
fn int8_mul_of_two_scales_matches_tflite_micro() {
    let Binary {
        a,
        b,
        za,
        zb,
        zy,
        scales,
    } = Binary::load("mul");
    let [sa, sb, sy] = scales.map(f64::from);
    let (m, s) = quantize_multiplier(sa * sb / sy);
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize((cast::<i32>(a) - za) * (cast::<i32>(b) - zb), m, s) + zy
    ));
    assert_eq!(y.as_slice(), &i8s("mul", "y")[..]);
}

/// An integer mean or average pool rounds half away from zero (TFLite's
/// `(sum +- count / 2) / count`), where a float one would give the exact
/// quotient: checked against that definition on ties of both signs.
#[test]
fn integer_averages_round_half_away_from_zero() {
    let x = Tensor::<i32, Shape![4, 2]>::new([[3, 4], [-3, -4], [1, 1], [-1, 0]]);
    let mean = tensor_expr!(mean(x, [1]));
    assert_eq!(mean.as_slice(), &[4, -4, 1, -1]);
    let all = tensor_expr!(mean(x));
    assert_eq!(all[[]], 0); // 1 / 8 rounds to 0
    let row = Tensor::<i32, Shape![1, 6]>::new([[5, 6, -5, -6, 2, 3]]);
    let pooled = tensor_expr!(avg_pool1d(row, [2]));
    assert_eq!(pooled.as_slice(), &[6, -6, 3]);
    // Over a window of 3, 7 / 3 is 2.33 (2) and 8 / 3 is 2.67 (3).
    let triples = Tensor::<i32, Shape![1, 6]>::new([[2, 2, 3, 3, 3, 2]]);
    assert_eq!(tensor_expr!(avg_pool1d(triples, [3])).as_slice(), &[2, 3]);
}

/// gemmlowp's definitions, written as TFLite's C++ reads, in `i128`.
fn requantize_reference(x: i32, multiplier: i32, shift: i32) -> i32 {
    let (left, right) = (shift.max(0), (-shift).max(0));
    let x = x.wrapping_mul(1 << left);
    let high = if x == i32::MIN && multiplier == i32::MIN {
        i32::MAX
    } else {
        let product = i128::from(x) * i128::from(multiplier);
        let nudge = if product >= 0 { 1 << 30 } else { 1 - (1 << 30) };
        // C++ division truncates toward zero, as Rust's does.
        ((product + nudge) / (1i128 << 31)) as i32
    };
    let mask = ((1i64 << right) - 1) as i32;
    let remainder = high & mask;
    let threshold = (mask >> 1) + i32::from(high < 0);
    (high >> right) + i32::from(remainder > threshold)
}

/// `requantize` against the reference over every shift TFLite allows, the
/// extreme values and pseudo-random ones, inside an expression (so the
/// vectorised form is the one tested) and as the method.
#[test]
fn requantize_is_gemmlowps_rounding() {
    use tensor_expr::element::Accumulator;
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as i32
    };
    let edges = [
        i32::MIN,
        i32::MIN + 1,
        -1,
        0,
        1,
        i32::MAX,
        1 << 30,
        -(1 << 30),
    ];
    for shift in -31..=30 {
        let mut x = Tensor::<i32, Shape![64]>::zeros();
        let mut m = Tensor::<i32, Shape![64]>::zeros();
        for k in 0..64 {
            x.as_mut_slice()[k] = if k < 8 { edges[k] } else { next() >> (k % 24) };
            m.as_mut_slice()[k] = match k % 4 {
                0 => (1 << 30) + (next() & 0x3FFF_FFFF),
                1 => edges[k % 8],
                _ => next(),
            };
        }
        let y = tensor_expr!(requantize(x, m, shift));
        for k in 0..64 {
            let (xv, mv) = (x.as_slice()[k], m.as_slice()[k]);
            let expected = requantize_reference(xv, mv, shift);
            assert_eq!(y.as_slice()[k], expected, "requantize({xv}, {mv}, {shift})");
            assert_eq!(xv.requantize(mv, shift), expected);
        }
        // The high half's one overflow, which saturates.
        let expected = requantize_reference(i32::MIN, i32::MIN, shift);
        assert_eq!(
            i32::MIN.requantize(i32::MIN, shift),
            expected,
            "shift {shift}"
        );
    }
}

/// Pseudo-random `i32`s: the state's next value.
fn next_i32(state: &mut u64) -> i32 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 16) as i32
}

/// Per-channel requantisation parameters of `C` channels: channel 0's
/// bias `i32::MIN` and multiplier `i32::MIN` (for a channel of zero
/// weights, the one product that overflows), biases near both ends of the
/// `i32` range (a sum of a layer below 2^22 added to them does not
/// overflow, which a debug build would stop at), multipliers in TFLite's
/// range and at the edges, shifts from -31 to 10.
fn channel_params<const C: usize>(seed: u64) -> [Tensor<i32, Shape![C]>; 3] {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let bias = Tensor::<i32, Shape![C]>::from_fn(|[c]| match c % 5 {
        _ if c == 0 => i32::MIN,
        1 => i32::MAX - (1 << 22),
        2 => i32::MIN + (1 << 22),
        _ => next_i32(&mut state) >> 12,
    });
    let m = Tensor::<i32, Shape![C]>::from_fn(|[c]| match c % 7 {
        0 => i32::MIN,
        1 => i32::MAX,
        _ => (1 << 30) | (next_i32(&mut state) & 0x3FFF_FFFF),
    });
    let s = Tensor::<i32, Shape![C]>::from_fn(|[c]| (c as i32 * 7) % 42 - 31);
    [bias, m, s]
}

/// `sums` through an int8 layer's epilogue by the definitions of its steps
/// (`requantize_reference`, then `i32`'s wrapping add, the clamps in order,
/// the saturation), `channel` giving each index's channel (channels last,
/// the index modulo the channels).
fn layer_reference(
    sums: &[i32],
    channel: impl Fn(usize) -> usize,
    step: impl Fn(i32, usize) -> (i32, i32, i32),
    offset: i32,
    clamps: &[(i32, i32)],
) -> Vec<i8> {
    sums.iter()
        .enumerate()
        .map(|(i, &acc)| {
            let (bias, m, s) = step(acc, channel(i));
            let mut y = requantize_reference(acc.wrapping_add(bias), m, s).wrapping_add(offset);
            for &(lo, hi) in clamps {
                y = y.max(lo).min(hi);
            }
            y.clamp(-128, 127) as i8
        })
        .collect()
}

/// Whole int8 layers (a convolution's sums, a bias, `requantize`, a zero
/// point, clamps, `saturating_cast::<i8>`), which the VNNI kernel stores in
/// one pass with the epilogue in registers and the other levels' nests
/// compute tile by tile: each form against the epilogue's definition over
/// the convolution's sums (checked against the convolution's definition by
/// the test above). Per-channel and per-tensor parameters, shifts left and
/// right, the multipliers' overflow, biases near both ends of `i32`, every
/// clamp, fewer than 8 positions and more, blocks of 16 channels cut by the
/// channel count; the pixels form and the rows form (one input channel,
/// stride 2), and depthwise layers (strides, dilation, a batch).
/// CI runs this at every instruction-set level.
#[test]
fn int8_layers_match_their_definition() {
    // The keyword spotter's pointwise layer: 125 positions, 64 channels,
    // channel 0's weights zero (its sums `i32::MIN` with the bias).
    let x = bytes::<Shape![1, 25, 5, 64]>(21);
    let mut w = bytes::<Shape![64, 1, 1, 64]>(22);
    w.as_mut_slice()[..64].fill(0);
    let [bias, m, s] = channel_params::<64>(1);
    let (zx, zy, lo) = (-3, -128, -128);
    let sums = tensor_expr!(conv2d(cast::<i32>(x) - zx, cast::<i32>(w), layout = nhwc));
    let y = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(cast::<i32>(x) - zx, cast::<i32>(w), layout = nhwc) + bias,
            m,
            s
        ) + zy,
        lo
    )));
    let per_channel = |_acc: i32, c: usize| (bias.as_slice()[c], m.as_slice()[c], s.as_slice()[c]);
    let expected = layer_reference(
        sums.as_slice(),
        |i| i % 64,
        per_channel,
        zy,
        &[(lo, i32::MAX)],
    );
    assert_eq!(y.as_slice(), &expected[..], "pointwise, per channel");

    // 24 channels (16 and 8), 5 positions (4 and 1), no bias, one
    // multiplier and a left shift, a zero point subtracted, `clamp`.
    let (x, w) = (
        bytes::<Shape![1, 1, 5, 16]>(23),
        bytes::<Shape![24, 1, 3, 16]>(24),
    );
    let (m, shift) = (1_518_500_250, 2);
    let sums = tensor_expr!(conv2d(
        cast::<i32>(x) + 128,
        cast::<i32>(w),
        padding = [[0, 0], [1, 1]],
        layout = nhwc
    ));
    let y = tensor_expr!(saturating_cast::<i8>(clamp(
        requantize(
            conv2d(
                cast::<i32>(x) + 128,
                cast::<i32>(w),
                padding = [[0, 0], [1, 1]],
                layout = nhwc
            ),
            m,
            shift
        ) - 128,
        -100,
        90
    )));
    let expected = layer_reference(
        sums.as_slice(),
        |i| i % 24,
        |_, _| (0, m, shift),
        -128,
        &[(-100, 90)],
    );
    assert_eq!(y.as_slice(), &expected[..], "24 channels, 5 positions");
    // Clamps that cross: `max` then `min` gives the `min`'s bound.
    let y = tensor_expr!(saturating_cast::<i8>(min(
        max(
            requantize(
                conv2d(
                    cast::<i32>(x) + 128,
                    cast::<i32>(w),
                    padding = [[0, 0], [1, 1]],
                    layout = nhwc
                ),
                m,
                shift
            ),
            20
        ),
        10
    )));
    assert_eq!(y.as_slice(), &[10; 5 * 24][..], "crossed clamps");

    // The rows form (one input channel), stride 2, SAME: 40 channels (32
    // and 8), a per-tensor bias, `relu` then `min` after the zero point.
    let (x, w) = (
        bytes::<Shape![2, 9, 7, 1]>(25),
        bytes::<Shape![40, 3, 3, 1]>(26),
    );
    let [_, m, s] = channel_params::<40>(2);
    let sums = tensor_expr!(conv2d(
        cast::<i32>(x) - 5,
        cast::<i32>(w),
        stride = 2,
        padding = same,
        layout = nhwc
    ));
    let y = tensor_expr!(saturating_cast::<i8>(min(
        relu(
            requantize(
                conv2d(
                    cast::<i32>(x) - 5,
                    cast::<i32>(w),
                    stride = 2,
                    padding = same,
                    layout = nhwc
                ) + 1000,
                m,
                s
            ) + 7
        ),
        100
    )));
    let expected = layer_reference(
        sums.as_slice(),
        |i| i % 40,
        |_, c| (1000, m.as_slice()[c], s.as_slice()[c]),
        7,
        &[(0, i32::MAX), (i32::MIN, 100)],
    );
    assert_eq!(y.as_slice(), &expected[..], "rows form");

    // The pixels form padded, band by band: 40 rows of 16 positions of 32
    // channels (a layer kernel copies 5 rows' windows at a time), a batch
    // of 2; then TensorFlow's SAME with a stride of 2 over 64 x 16 (bands
    // of 4 rows), whose padding is all after the input (its windows reach
    // past it: the input cannot be read in place).
    let (x, w) = (
        bytes::<Shape![2, 40, 16, 32]>(31),
        bytes::<Shape![16, 3, 3, 32]>(32),
    );
    // A bias of 1000: near the ends of `i32`, a debug build's nest (at
    // SSE2, no layer kernel) would overflow these larger sums.
    let [_, m, s] = channel_params::<16>(5);
    let sums = tensor_expr!(conv2d(
        cast::<i32>(x) + 9,
        cast::<i32>(w),
        padding = same,
        layout = nhwc
    ));
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(
                cast::<i32>(x) + 9,
                cast::<i32>(w),
                padding = same,
                layout = nhwc
            ) + 1000,
            m,
            s
        ) + 11
    ));
    let per_channel = |_acc: i32, c: usize| (1000, m.as_slice()[c], s.as_slice()[c]);
    let expected = layer_reference(sums.as_slice(), |i| i % 16, per_channel, 11, &[]);
    assert_eq!(y.as_slice(), &expected[..], "pixels form, bands of rows");
    let (x, w) = (
        bytes::<Shape![1, 64, 16, 32]>(33),
        bytes::<Shape![16, 3, 3, 32]>(34),
    );
    let sums = tensor_expr!(conv2d(
        cast::<i32>(x) - 2,
        cast::<i32>(w),
        stride = 2,
        padding = same,
        layout = nhwc
    ));
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(
                cast::<i32>(x) - 2,
                cast::<i32>(w),
                stride = 2,
                padding = same,
                layout = nhwc
            ) + 1000,
            m,
            s
        ) + 11
    ));
    let expected = layer_reference(sums.as_slice(), |i| i % 16, per_channel, 11, &[]);
    assert_eq!(y.as_slice(), &expected[..], "SAME, stride 2, padding after");

    // Depthwise layers (channel 0's weights zero, as above): 24 channels
    // (16 and 8), stride 2, SAME, 12 positions (the last tile
    // overlapping); 40 channels, dilation 2, a batch of 2; 5 positions of
    // 16 channels (one at a time).
    let x = bytes::<Shape![1, 7, 6, 24]>(27);
    let mut w = bytes::<Shape![24, 3, 3, 1]>(28);
    w.as_mut_slice()[..9].fill(0);
    let [bias, m, s] = channel_params::<24>(3);
    let sums = tensor_expr!(conv2d(
        cast::<i32>(x) + 7,
        cast::<i32>(w),
        stride = 2,
        padding = same,
        groups = 24,
        layout = nhwc
    ));
    let y = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(x) + 7,
                cast::<i32>(w),
                stride = 2,
                padding = same,
                groups = 24,
                layout = nhwc
            ) + bias,
            m,
            s
        ) - 3,
        -120
    )));
    let per_channel = |_acc: i32, c: usize| (bias.as_slice()[c], m.as_slice()[c], s.as_slice()[c]);
    let expected = layer_reference(
        sums.as_slice(),
        |i| i % 24,
        per_channel,
        -3,
        &[(-120, i32::MAX)],
    );
    assert_eq!(y.as_slice(), &expected[..], "depthwise, stride 2");

    let x = bytes::<Shape![2, 5, 5, 40]>(29);
    let mut w = bytes::<Shape![40, 3, 3, 1]>(30);
    w.as_mut_slice()[..9].fill(0);
    let [bias, m, s] = channel_params::<40>(4);
    let sums = tensor_expr!(conv2d(
        cast::<i32>(x) - 100,
        cast::<i32>(w),
        padding = 2,
        dilation = 2,
        groups = 40,
        layout = nhwc
    ));
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(
                cast::<i32>(x) - 100,
                cast::<i32>(w),
                padding = 2,
                dilation = 2,
                groups = 40,
                layout = nhwc
            ) + bias,
            m,
            s
        ) + 10
    ));
    let per_channel = |_acc: i32, c: usize| (bias.as_slice()[c], m.as_slice()[c], s.as_slice()[c]);
    let expected = layer_reference(sums.as_slice(), |i| i % 40, per_channel, 10, &[]);
    assert_eq!(y.as_slice(), &expected[..], "depthwise, dilation 2");

    let (x, w) = (
        bytes::<Shape![1, 1, 5, 16]>(31),
        bytes::<Shape![16, 1, 3, 1]>(32),
    );
    let sums = tensor_expr!(conv2d(
        cast::<i32>(x),
        cast::<i32>(w),
        padding = [[0, 0], [1, 1]],
        groups = 16,
        layout = nhwc
    ));
    let y = tensor_expr!(saturating_cast::<i8>(relu(requantize(
        conv2d(
            cast::<i32>(x),
            cast::<i32>(w),
            padding = [[0, 0], [1, 1]],
            groups = 16,
            layout = nhwc
        ),
        1_200_000_000,
        -3
    ))));
    let expected = layer_reference(
        sums.as_slice(),
        |i| i % 16,
        |_, _| (0, 1_200_000_000, -3),
        0,
        &[(0, i32::MAX)],
    );
    assert_eq!(y.as_slice(), &expected[..], "depthwise, 5 positions");
}

/// Whole int8 layers channels first (PyTorch's layout, the default), which
/// the layer kernels store through copies channels last: each kind
/// against the epilogue's definition over the convolution's sums (the
/// general path's, channels first). A 1x1 layer and a depthwise one (their
/// weights the same bytes in both layouts), a 3x3 layer of 8 input
/// channels with stride 2 and a batch (its weights reordered), the rows
/// form (one input channel, the keyword spotter's first layer; three
/// input channels), and a 1-D layer; channel 0's weights zero (its bias
/// `i32::MIN`, as above). CI runs this at every
/// instruction-set level.
#[test]
fn int8_layers_channels_first_match_their_definition() {
    /// Asserts the layer over `conv` (its sums `sums`, `channels` output
    /// channels of `positions` each, per image) with `bias`, `m`, `s`
    /// per channel, zero point `zy` and a floor `lo`.
    fn check<const C: usize>(
        what: &str,
        y: &[i8],
        sums: &[i32],
        positions: usize,
        [bias, m, s]: &[Tensor<i32, Shape![C]>; 3],
        zy: i32,
        lo: i32,
    ) {
        let per_channel =
            |_acc: i32, c: usize| (bias.as_slice()[c], m.as_slice()[c], s.as_slice()[c]);
        let channel = |i: usize| (i / positions) % C;
        let expected = layer_reference(sums, channel, per_channel, zy, &[(lo, i32::MAX)]);
        assert_eq!(y, &expected[..], "{what}");
    }

    let x = bytes::<Shape![1, 64, 25, 5]>(41);
    let mut w = bytes::<Shape![64, 64, 1, 1]>(42);
    w.as_mut_slice()[..64].fill(0);
    let params = channel_params::<64>(5);
    let [bias, m, s] = &params;
    let (mc, sc) = (
        m.view().reshaped::<Shape![64, 1, 1]>(),
        s.view().reshaped::<Shape![64, 1, 1]>(),
    );
    let sums = tensor_expr!(conv2d(cast::<i32>(x) + 128, cast::<i32>(w)));
    let y = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(cast::<i32>(x) + 128, cast::<i32>(w)) + in_dims(bias, [1]),
            mc,
            sc
        ) - 128,
        -128
    )));
    check(
        "pointwise",
        y.as_slice(),
        sums.as_slice(),
        125,
        &params,
        -128,
        -128,
    );

    // A bias along the rows (the last dim, longer than the channels), not
    // the channels: the layer reads it per position, as the general path's
    // sums with it do.
    let (x4, w4) = (
        bytes::<Shape![1, 8, 6, 16]>(52),
        bytes::<Shape![4, 8, 1, 1]>(53),
    );
    let along_rows = Tensor::<i32, Shape![16]>::from_fn(|[i]| i as i32 * 1000 - 2000);
    let sums = tensor_expr!(conv2d(cast::<i32>(x4) + 128, cast::<i32>(w4)) + along_rows);
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(cast::<i32>(x4) + 128, cast::<i32>(w4)) + along_rows,
            1 << 30,
            -6
        ) - 128
    ));
    let none = [
        Tensor::<i32, Shape![4]>::zeros(),
        Tensor::full(1 << 30),
        Tensor::full(-6),
    ];
    check(
        "a bias along the rows",
        y.as_slice(),
        sums.as_slice(),
        96,
        &none,
        -128,
        -128,
    );

    let mut w = bytes::<Shape![64, 1, 3, 3]>(43);
    w.as_mut_slice()[..9].fill(0);
    let sums = tensor_expr!(conv2d(
        cast::<i32>(x) - 3,
        cast::<i32>(w),
        padding = same,
        groups = 64
    ));
    let y = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(x) - 3,
                cast::<i32>(w),
                padding = same,
                groups = 64
            ) + in_dims(bias, [1]),
            mc,
            sc
        ) + 5,
        -100
    )));
    check(
        "depthwise",
        y.as_slice(),
        sums.as_slice(),
        125,
        &params,
        5,
        -100,
    );

    let x = bytes::<Shape![2, 8, 7, 6]>(44);
    let mut w = bytes::<Shape![24, 8, 3, 3]>(45);
    w.as_mut_slice()[..72].fill(0);
    let params = channel_params::<24>(6);
    let [bias, m, s] = &params;
    let (mc, sc) = (
        m.view().reshaped::<Shape![24, 1, 1]>(),
        s.view().reshaped::<Shape![24, 1, 1]>(),
    );
    let sums = tensor_expr!(conv2d(
        cast::<i32>(x) + 9,
        cast::<i32>(w),
        stride = 2,
        padding = 1
    ));
    let y = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(cast::<i32>(x) + 9, cast::<i32>(w), stride = 2, padding = 1)
                + in_dims(bias, [1]),
            mc,
            sc
        ) - 7,
        -128
    )));
    check(
        "3x3, 8 input channels, stride 2",
        y.as_slice(),
        sums.as_slice(),
        12,
        &params,
        -7,
        -128,
    );

    let x = bytes::<Shape![1, 1, 49, 10]>(46);
    let mut w = bytes::<Shape![64, 1, 10, 4]>(47);
    w.as_mut_slice()[..40].fill(0);
    let params = channel_params::<64>(7);
    let [bias, m, s] = &params;
    let (mc, sc) = (
        m.view().reshaped::<Shape![64, 1, 1]>(),
        s.view().reshaped::<Shape![64, 1, 1]>(),
    );
    let sums = tensor_expr!(conv2d(
        cast::<i32>(x) - 83,
        cast::<i32>(w),
        stride = 2,
        padding = [[4, 5], [1, 1]]
    ));
    let y = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(x) - 83,
                cast::<i32>(w),
                stride = 2,
                padding = [[4, 5], [1, 1]]
            ) + in_dims(bias, [1]),
            mc,
            sc
        ) - 128,
        -128
    )));
    check(
        "rows, one input channel",
        y.as_slice(),
        sums.as_slice(),
        125,
        &params,
        -128,
        -128,
    );

    let x = bytes::<Shape![1, 3, 9, 9]>(48);
    let mut w = bytes::<Shape![16, 3, 3, 3]>(49);
    w.as_mut_slice()[..27].fill(0);
    let params = channel_params::<16>(8);
    let [bias, m, s] = &params;
    let (mc, sc) = (
        m.view().reshaped::<Shape![16, 1, 1]>(),
        s.view().reshaped::<Shape![16, 1, 1]>(),
    );
    let sums = tensor_expr!(conv2d(cast::<i32>(x) + 1, cast::<i32>(w), padding = same));
    let y = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(cast::<i32>(x) + 1, cast::<i32>(w), padding = same) + in_dims(bias, [1]),
            mc,
            sc
        ) + 1,
        -128
    )));
    check(
        "rows, three input channels",
        y.as_slice(),
        sums.as_slice(),
        81,
        &params,
        1,
        -128,
    );

    let x = bytes::<Shape![2, 16, 9]>(50);
    let mut w = bytes::<Shape![24, 16, 3]>(51);
    w.as_mut_slice()[..48].fill(0);
    let params = channel_params::<24>(9);
    let [bias, m, s] = &params;
    let (mc, sc) = (
        m.view().reshaped::<Shape![24, 1]>(),
        s.view().reshaped::<Shape![24, 1]>(),
    );
    let sums = tensor_expr!(conv1d(cast::<i32>(x) - 2, cast::<i32>(w), padding = 1));
    let y = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv1d(cast::<i32>(x) - 2, cast::<i32>(w), padding = 1) + in_dims(bias, [1]),
            mc,
            sc
        ) - 1,
        -128
    )));
    check("1-D", y.as_slice(), sums.as_slice(), 9, &params, -1, -128);
}

/// How a convolution slides: stride, padding before the first element and
/// dilation, per spatial dim (one of 1 for a 1-D convolution).
#[derive(Clone, Copy)]
struct Slide {
    stride: [usize; 2],
    pad: [usize; 2],
    dilation: [usize; 2],
}

const PLAIN: Slide = Slide {
    stride: [1, 1],
    pad: [0, 0],
    dilation: [1, 1],
};

/// Asserts that `y` is `conv2d(cast::<i32>(x) + c, cast::<i32>(w) + d, ..)`
/// channels last (`[N, H, W, C_in]` by `[C_out, kH, kW, C_in / groups]`;
/// `[N, W, C_in]` by `[C_out, kW, C_in / groups]` in 1-D) as its
/// definition states it: the
/// sum over the taps inside the input of `(x + c) * (w + d)`, a tap in the
/// padding contributing zero. The sizes are the tensors' own.
fn assert_conv_nhwc<X: Shape, W: Shape, Y: Shape>(
    y: &Tensor<i32, Y>,
    x: &Tensor<i8, X>,
    w: &Tensor<i8, W>,
    slide: Slide,
    (c, d): (i32, i32),
    case: &str,
) {
    // A 1-D convolution is a 2-D one of height 1.
    let spatial = |dims: &[usize]| -> Vec<usize> {
        let mut dims = dims.to_vec();
        if dims.len() == 3 {
            dims.insert(1, 1);
        }
        dims
    };
    let (xd, wd, yd) = (spatial(X::DIMS), spatial(W::DIMS), spatial(Y::DIMS));
    let ([n, h, w_len, c_in], [c_out, kh_len, kw_len, per_group]) =
        ([xd[0], xd[1], xd[2], xd[3]], [wd[0], wd[1], wd[2], wd[3]]);
    // Groups as the shapes say: each output channel reads `per_group`
    // input channels, those of its group.
    let out_per_group = c_out / (c_in / per_group);
    let (x, w) = (x.as_slice(), w.as_slice());
    let Slide {
        stride,
        pad,
        dilation,
    } = slide;
    let mut expected = Vec::new();
    for b in 0..n {
        for oh in 0..yd[1] {
            for ow in 0..yd[2] {
                for co in 0..c_out {
                    let mut sum = 0i32;
                    for kh in 0..kh_len {
                        for kw in 0..kw_len {
                            let ih = (oh * stride[0] + kh * dilation[0]).wrapping_sub(pad[0]);
                            let iw = (ow * stride[1] + kw * dilation[1]).wrapping_sub(pad[1]);
                            if ih >= h || iw >= w_len {
                                continue;
                            }
                            for ci in 0..per_group {
                                let channel = co / out_per_group * per_group + ci;
                                // Wrapping, as `i32` arithmetic does in
                                // a release build.
                                let xv = i32::from(x[((b * h + ih) * w_len + iw) * c_in + channel])
                                    .wrapping_add(c);
                                let wv = i32::from(
                                    w[((co * kh_len + kh) * kw_len + kw) * per_group + ci],
                                )
                                .wrapping_add(d);
                                sum = sum.wrapping_add(xv.wrapping_mul(wv));
                            }
                        }
                    }
                    expected.push(sum);
                }
            }
        }
    }
    assert_eq!(y.as_slice(), &expected[..], "{case}");
}

/// Pseudo-random bytes over the whole `i8` range.
fn bytes<S: Shape>(seed: u32) -> Tensor<i8, S> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    Tensor::from_fn(|_| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state >> 24) as u8 as i8
    })
}

/// Int8 convolutions channels last of every form the int8 kernels take
/// (pixels: 16, 32 and 48 output channels, input channels 4 to 64,
/// dilation down and along the rows; rows: 1, 3 and 5 input channels, 24
/// output channels; with strides, padding, dilation, a batch, 1-D, zero
/// points at both ends of the range, input constants at the edge of
/// `i16`, weights with an offset), and of forms they leave to the general
/// path (dilation along a row of few channels; depthwise, 8 to 48
/// channels, and with a depth multiplier), against the definition. CI runs
/// this at every instruction-set level, so each kernel and the general
/// path are checked.
#[test]
fn int8_convolutions_channels_last_match_their_definition() {
    let same = Slide {
        pad: [1, 1],
        ..PLAIN
    };

    let (x, w) = (
        bytes::<Shape![1, 6, 11, 8]>(1),
        bytes::<Shape![16, 3, 3, 8]>(2),
    );
    let zx = -128;
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - zx,
        cast::<i32>(w),
        padding = same,
        layout = nhwc
    ));
    assert_conv_nhwc(&y, &x, &w, same, (128, 0), "3x3 same, zx = -128");

    let (x, w) = (
        bytes::<Shape![2, 7, 9, 4]>(3),
        bytes::<Shape![32, 3, 3, 4]>(4),
    );
    let zx = 5;
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - zx,
        cast::<i32>(w),
        stride = 2,
        padding = 1,
        layout = nhwc
    ));
    let slide = Slide {
        stride: [2, 2],
        pad: [1, 1],
        ..PLAIN
    };
    assert_conv_nhwc(&y, &x, &w, slide, (-5, 0), "stride 2, batch 2");

    let (x, w) = (
        bytes::<Shape![1, 5, 13, 64]>(5),
        bytes::<Shape![48, 1, 1, 64]>(6),
    );
    let zx = 127;
    let y = tensor_expr!(conv2d(cast::<i32>(x) - zx, cast::<i32>(w), layout = nhwc));
    assert_conv_nhwc(&y, &x, &w, PLAIN, (-127, 0), "pointwise, zx = 127");
    // A zero point whose negation wraps: `x - i32::MIN` is `x + i32::MIN`
    // in the kernels' sums (with an allocator; without one, the general
    // path computes in `i32` arithmetic, which a debug build checks).
    if cfg!(feature = "alloc") {
        let zx = i32::MIN;
        let y = tensor_expr!(conv2d(cast::<i32>(x) - zx, cast::<i32>(w), layout = nhwc));
        assert_conv_nhwc(&y, &x, &w, PLAIN, (i32::MIN, 0), "pointwise, zx = i32::MIN");
    }
    // The largest constants whose values still fit `i16` (the pairs
    // kernel's, with AVX2), and the first past them (the portable one's).
    for c in [32_640, -32_640, 32_641] {
        let y = tensor_expr!(conv2d(cast::<i32>(x) + c, cast::<i32>(w), layout = nhwc));
        assert_conv_nhwc(
            &y,
            &x,
            &w,
            PLAIN,
            (c, 0),
            "pointwise, a constant at i16's edge",
        );
    }

    let (x, w) = (
        bytes::<Shape![1, 9, 10, 16]>(7),
        bytes::<Shape![16, 3, 2, 16]>(8),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) + 7,
        cast::<i32>(w),
        padding = [2, 1],
        dilation = [2, 1],
        layout = nhwc
    ));
    let slide = Slide {
        pad: [2, 1],
        dilation: [2, 1],
        ..PLAIN
    };
    assert_conv_nhwc(&y, &x, &w, slide, (7, 0), "dilation, padding per dim, + 7");

    // Dilation along a row of pixels: its taps are apart in the input.
    let (x, w) = (
        bytes::<Shape![1, 6, 9, 8]>(19),
        bytes::<Shape![16, 2, 3, 8]>(20),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - 3,
        cast::<i32>(w),
        padding = 2,
        dilation = [1, 2],
        layout = nhwc
    ));
    let slide = Slide {
        pad: [2, 2],
        dilation: [1, 2],
        ..PLAIN
    };
    assert_conv_nhwc(&y, &x, &w, slide, (-3, 0), "dilation along the row");

    let (x, w) = (bytes::<Shape![2, 30, 8]>(9), bytes::<Shape![16, 5, 8]>(10));
    let y = tensor_expr!(conv1d(
        cast::<i32>(x),
        cast::<i32>(w),
        stride = 2,
        padding = 2,
        layout = nwc
    ));
    let slide = Slide {
        stride: [1, 2],
        pad: [0, 2],
        ..PLAIN
    };
    assert_conv_nhwc(&y, &x, &w, slide, (0, 0), "conv1d");

    // Input channels not a multiple of 4, each row of a window one tap: a
    // keyword spotter's first layer (TensorFlow's SAME with a stride), an
    // image's three channels with dilation down the rows, five channels.
    let (x, w) = (
        bytes::<Shape![2, 9, 10, 1]>(13),
        bytes::<Shape![32, 10, 4, 1]>(14),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - 83,
        cast::<i32>(w),
        stride = 2,
        padding = [[4, 5], [1, 1]],
        layout = nhwc
    ));
    let slide = Slide {
        stride: [2, 2],
        pad: [4, 1],
        ..PLAIN
    };
    assert_conv_nhwc(&y, &x, &w, slide, (-83, 0), "one channel, 10x4 stride 2");
    let (x, w) = (
        bytes::<Shape![1, 11, 12, 3]>(15),
        bytes::<Shape![24, 3, 3, 3]>(16),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) + 128,
        cast::<i32>(w),
        stride = 2,
        padding = 1,
        dilation = [2, 1],
        layout = nhwc
    ));
    let slide = Slide {
        stride: [2, 2],
        pad: [1, 1],
        dilation: [2, 1],
    };
    assert_conv_nhwc(&y, &x, &w, slide, (128, 0), "three channels, dilation");
    let (x, w) = (
        bytes::<Shape![1, 7, 8, 5]>(17),
        bytes::<Shape![48, 3, 3, 5]>(18),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - 127,
        cast::<i32>(w),
        padding = same,
        layout = nhwc
    ));
    assert_conv_nhwc(&y, &x, &w, same, (-127, 0), "five channels");

    // Depthwise, which the general path sums: 32 and 48 channels, a
    // stride, dilation and a batch, 24 channels, 1-D.
    let (x, w) = (
        bytes::<Shape![1, 9, 7, 32]>(19),
        bytes::<Shape![32, 3, 3, 1]>(20),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) + 128,
        cast::<i32>(w),
        padding = same,
        groups = 32,
        layout = nhwc
    ));
    assert_conv_nhwc(&y, &x, &w, same, (128, 0), "depthwise");
    let (x, w) = (
        bytes::<Shape![2, 10, 9, 48]>(21),
        bytes::<Shape![48, 3, 3, 1]>(22),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - 5,
        cast::<i32>(w),
        stride = 2,
        padding = 2,
        dilation = 2,
        groups = 48,
        layout = nhwc
    ));
    let slide = Slide {
        stride: [2, 2],
        pad: [2, 2],
        dilation: [2, 2],
    };
    assert_conv_nhwc(
        &y,
        &x,
        &w,
        slide,
        (-5, 0),
        "depthwise, stride, dilation, batch",
    );
    let (x, w) = (
        bytes::<Shape![1, 5, 6, 24]>(23),
        bytes::<Shape![24, 5, 5, 1]>(24),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x),
        cast::<i32>(w),
        padding = 2,
        groups = 24,
        layout = nhwc
    ));
    let slide = Slide {
        pad: [2, 2],
        ..PLAIN
    };
    assert_conv_nhwc(&y, &x, &w, slide, (0, 0), "depthwise, 24 channels");
    let (x, w) = (
        bytes::<Shape![1, 20, 16]>(25),
        bytes::<Shape![16, 3, 1]>(26),
    );
    let y = tensor_expr!(conv1d(
        cast::<i32>(x) - 1,
        cast::<i32>(w),
        padding = 1,
        groups = 16,
        layout = nwc
    ));
    let slide = Slide {
        pad: [0, 1],
        ..PLAIN
    };
    assert_conv_nhwc(&y, &x, &w, slide, (-1, 0), "depthwise conv1d");

    // Outside the kernel's forms: the general path.
    let (x, w) = (
        bytes::<Shape![1, 6, 9, 3]>(27),
        bytes::<Shape![16, 3, 3, 3]>(28),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x),
        cast::<i32>(w),
        dilation = 2,
        layout = nhwc
    ));
    let slide = Slide {
        dilation: [2, 2],
        ..PLAIN
    };
    assert_conv_nhwc(
        &y,
        &x,
        &w,
        slide,
        (0, 0),
        "three channels, dilation along the row",
    );
    let (x, w) = (
        bytes::<Shape![1, 6, 11, 8]>(11),
        bytes::<Shape![16, 3, 3, 8]>(12),
    );
    let zx = -200;
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - zx,
        cast::<i32>(w) - 1,
        padding = same,
        layout = nhwc
    ));
    assert_conv_nhwc(
        &y,
        &x,
        &w,
        same,
        (200, -1),
        "input constant 200, weights offset",
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - zx,
        cast::<i32>(w),
        padding = same,
        layout = nhwc
    ));
    assert_conv_nhwc(&y, &x, &w, same, (200, 0), "input constant 200");

    // 140 channels: a single position's tile is 128 wide with AVX-512 (the
    // kernel sums it 32 channels at a time), the last 12 are tiles of 8
    // and 4; 15 positions are tiles of 8, 4 and 1.
    let (x, w) = (
        bytes::<Shape![1, 5, 3, 24]>(29),
        bytes::<Shape![140, 3, 3, 24]>(30),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - 3,
        cast::<i32>(w),
        padding = 1,
        layout = nhwc
    ));
    let slide = Slide {
        pad: [1, 1],
        ..PLAIN
    };
    assert_conv_nhwc(&y, &x, &w, slide, (-3, 0), "140 channels");
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - 3,
        cast::<i32>(w) + 2,
        padding = 1,
        layout = nhwc
    ));
    assert_conv_nhwc(&y, &x, &w, slide, (-3, 2), "140 channels, weights offset");
    let (x, w) = (
        bytes::<Shape![1, 5, 3, 6]>(31),
        bytes::<Shape![140, 3, 3, 6]>(32),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) + 9,
        cast::<i32>(w),
        padding = 1,
        layout = nhwc
    ));
    assert_conv_nhwc(&y, &x, &w, slide, (9, 0), "140 channels, six inputs");

    // At most 8 output channels, whose weights the kernel without VNNI
    // packs 8 channels a block.
    let (x, w) = (
        bytes::<Shape![1, 6, 7, 3]>(33),
        bytes::<Shape![5, 3, 3, 3]>(34),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - 11,
        cast::<i32>(w),
        padding = 1,
        layout = nhwc
    ));
    assert_conv_nhwc(&y, &x, &w, slide, (-11, 0), "five channels out");
    let (x, w) = (
        bytes::<Shape![1, 4, 5, 8]>(35),
        bytes::<Shape![8, 1, 1, 8]>(36),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) + 1,
        cast::<i32>(w) - 4,
        layout = nhwc
    ));
    assert_conv_nhwc(
        &y,
        &x,
        &w,
        PLAIN,
        (1, -4),
        "eight channels out, weights offset",
    );

    // Depthwise, past the cases above: 20 channels with weights offset
    // and an input constant past a byte; 8 channels with a stride and a
    // window of 3 by 2; 2 channels out per input channel (a depth
    // multiplier).
    let (x, w) = (
        bytes::<Shape![2, 5, 7, 20]>(37),
        bytes::<Shape![20, 3, 3, 1]>(38),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) + 300,
        cast::<i32>(w) - 7,
        padding = 1,
        groups = 20,
        layout = nhwc
    ));
    assert_conv_nhwc(
        &y,
        &x,
        &w,
        slide,
        (300, -7),
        "depthwise, 20 channels, weights offset",
    );
    let (x, w) = (
        bytes::<Shape![1, 9, 8, 8]>(39),
        bytes::<Shape![8, 3, 2, 1]>(40),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) - 2,
        cast::<i32>(w),
        stride = 2,
        padding = 1,
        groups = 8,
        layout = nhwc
    ));
    let slide = Slide {
        stride: [2, 2],
        pad: [1, 1],
        ..PLAIN
    };
    assert_conv_nhwc(&y, &x, &w, slide, (-2, 0), "depthwise, 8 channels, stride");
    let (x, w) = (
        bytes::<Shape![1, 6, 5, 16]>(41),
        bytes::<Shape![32, 3, 3, 1]>(42),
    );
    let y = tensor_expr!(conv2d(
        cast::<i32>(x) + 4,
        cast::<i32>(w),
        padding = 1,
        groups = 16,
        layout = nhwc
    ));
    let slide = Slide {
        pad: [1, 1],
        ..PLAIN
    };
    assert_conv_nhwc(&y, &x, &w, slide, (4, 0), "depth multiplier 2");
}

/// `quantized_softmax` over the last dim, TFLite Micro's outputs byte for
/// byte: the keyword spotter's 12 classes, and 40 of a wider input scale,
/// where differences fall below TFLite's `diff_min`; each with a row of
/// equal logits and a row of one large logit.
#[test]
fn quantized_softmax_matches_tflite_micro() {
    let (m, s) = softmax_multiplier(scale_of("softmax"), 1.0);
    let x = Tensor::<i8, Shape![30, 12]>::try_from_slice(&i8s("softmax", "x")).unwrap();
    let y = tensor_expr!(quantized_softmax(x, m, s, [1]));
    assert_eq!(y.as_slice(), &i8s("softmax", "y")[..]);

    let (m, s) = softmax_multiplier(scale_of("softmax_wide"), 1.0);
    let x = Tensor::<i8, Shape![30, 3, 40]>::try_from_slice(&i8s("softmax_wide", "x")).unwrap();
    let y = tensor_expr!(quantized_softmax(x, m, s, [-1]));
    assert_eq!(y.as_slice(), &i8s("softmax_wide", "y")[..]);
}

/// `quantized_sigmoid` and `quantized_tanh`, TFLite Micro's outputs byte
/// for byte over every int8 input, at two input scales and zero points
/// each; written with `out = ..` as well, and as the functions of one `i32`
/// element that they are made of.
#[test]
fn quantized_sigmoid_and_tanh_match_tflite_micro() {
    type Row = Tensor<i8, Shape![1, 256]>;
    for case in ["logistic", "logistic_wide", "tanh", "tanh_wide"] {
        let x = Row::try_from_slice(&i8s(case, "x")).unwrap();
        let zx = scalar(case, "zx");
        let expected = i8s(case, "y");
        let (m, s) = sigmoid_multiplier(scale_of(case));
        let (y, by_element): (Row, Vec<i8>) = if case.starts_with("tanh") {
            assert_eq!(
                (text_values(case, "y_scale")[0].as_str(), scalar(case, "zy")),
                ("0.0078125", 0)
            );
            assert_eq!(tanh_multiplier(scale_of(case)), (m, s));
            let mut y = Row::zeros();
            tensor_expr!(y = quantized_tanh(cast::<i32>(x) - zx, m, s));
            (
                y,
                x.as_slice()
                    .iter()
                    .map(|&v| (i32::from(v) - zx).tanh_int8(m, s) as i8)
                    .collect(),
            )
        } else {
            assert_eq!(
                (text_values(case, "y_scale")[0].as_str(), scalar(case, "zy")),
                ("0.00390625", -128)
            );
            let y = tensor_expr!(quantized_sigmoid(cast::<i32>(x) - zx, m, s));
            (
                y,
                x.as_slice()
                    .iter()
                    .map(|&v| (i32::from(v) - zx).sigmoid_int8(m, s) as i8)
                    .collect(),
            )
        };
        assert_eq!(y.as_slice(), &expected[..], "{case}");
        assert_eq!(by_element, expected, "{case}, element by element");
    }
}

/// The input scale of case `name`, as TFLite stores it.
fn scale_of(name: &str) -> f32 {
    text_values(name, "scale")[0].parse().unwrap()
}
