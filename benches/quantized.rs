//! Int8 inference against hand-written widening loops and against this
//! library's own f32 product, in the same run: ns per call (median of
//! timed batches) and the ratio of the other's time to tensor-expr's (above
//! 1: tensor-expr is faster).
//!
//! `cargo bench --bench quantized` (and with
//! `RUSTFLAGS="-C target-cpu=native"`); words after `--` keep only the
//! cases whose names contain one (`dense`, `kws`, `pointwise`,
//! `depthwise`, `resnet`, `product`, `softmax`).
//!
//! The hand loops are the ones a careful C port has: i8 data widened as it
//! is read, i32 sums with the output columns innermost and contiguous (they
//! vectorise), the zero point subtracted once per input element, then
//! TFLite's requantisation per output.

mod common;

use common::{compare, pseudo};
use std::hint::black_box;
use tensor_expr::element::Accumulator;
use tensor_expr::prelude::*;

fn int8<S: Shape>(seed: usize) -> Box<Tensor<i8, S>> {
    let mut t = Box::new(Tensor::<i8, S>::zeros());
    for (i, v) in t.as_mut_slice().iter_mut().enumerate() {
        *v = (pseudo(seed + i) * 127.0) as i8;
    }
    t
}

fn print(case: &str, times: &[f64], names: &[&str]) {
    let mut line = format!("{case:<40} {:>10.0} ns", times[0]);
    for (time, name) in times[1..].iter().zip(&names[1..]) {
        line += &format!("   {name} {time:>10.0} ({:.2}x)", time / times[0]);
    }
    println!("{line}");
}

/// One requantised output: TFLite's `MultiplyByQuantizedMultiplier`, the
/// output zero point, the int8 range.
#[inline(always)]
fn requantize_one(acc: i32, m: i32, s: i32, zy: i32) -> i8 {
    (acc.requantize(m, s) + zy).clamp(-128, 127) as i8
}

/// The keyword spotter's `[1, 25, 5, 64]` activations channels first
/// (`[1, 64, 25, 5]`), an output for them, and the per-channel bias,
/// multiplier and shift as `[64, 1, 1]` columns.
#[allow(clippy::type_complexity)]
fn channels_first(
    x: &Tensor<i8, Shape![1, 25, 5, 64]>,
    bias: &Tensor<i32, Shape![64]>,
    m: &Tensor<i32, Shape![64]>,
    s: &Tensor<i32, Shape![64]>,
) -> (
    Tensor<i8, Shape![1, 64, 25, 5]>,
    Tensor<i8, Shape![1, 64, 25, 5]>,
    [Tensor<i32, Shape![64, 1, 1]>; 3],
) {
    let x_first = Tensor::<i8, Shape![1, 64, 25, 5]>::from_fn(|[_, c, h, w]| {
        x.as_slice()[(h * 5 + w) * 64 + c]
    });
    let column = |v: &Tensor<i32, Shape![64]>| {
        Tensor::<i32, Shape![64, 1, 1]>::from_fn(|[c, _, _]| v.as_slice()[c])
    };
    (
        x_first,
        Tensor::zeros(),
        [column(bias), column(m), column(s)],
    )
}

/// `y` (`[1, 64, 25, 5]`) channels last, as a `Vec`.
fn channels_last(y: &Tensor<i8, Shape![1, 64, 25, 5]>) -> Vec<i8> {
    (0..125 * 64)
        .map(|i| y.as_slice()[(i % 64) * 125 + i / 64])
        .collect()
}

/// An int8 dense layer `[1, 64] @ [64, 32]` (TFLite's, per-channel).
fn dense_layer() {
    let x = int8::<Shape![1, 64]>(1);
    let w = int8::<Shape![64, 32]>(2);
    let bias = Tensor::<i32, Shape![32]>::from_fn(|[j]| (j as i32 - 16) * 37);
    let m = Tensor::<i32, Shape![32]>::from_fn(|[j]| 1_200_000_000 + j as i32 * 9_000_000);
    let s = Tensor::<i32, Shape![32]>::full(-8);
    let (zx, zy) = (-5i32, 3i32);
    let mut out = Tensor::<i8, Shape![1, 32]>::zeros();
    let mut hand = [0i8; 32];
    let times = compare(
        1,
        100_000,
        &mut [
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(&*x),
                    black_box(&*w),
                    black_box(&bias),
                    black_box(&m),
                    black_box(&s),
                );
                tensor_expr!(
                    out = saturating_cast::<i8>(
                        requantize((cast::<i32>(x) - zx) @ cast::<i32>(w) + bias, m, s) + zy
                    )
                );
                black_box(&out);
            },
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(x.as_slice()),
                    black_box(w.as_slice()),
                    black_box(bias.as_slice()),
                    black_box(m.as_slice()),
                    black_box(s.as_slice()),
                );
                let mut acc = [0i32; 32];
                acc.copy_from_slice(bias);
                for (&xk, w_row) in x.iter().zip(w.chunks_exact(32)) {
                    let xk = i32::from(xk) - zx;
                    for (a, &wv) in acc.iter_mut().zip(w_row) {
                        *a += xk * i32::from(wv);
                    }
                }
                for (((y, &a), &m), &s) in hand.iter_mut().zip(&acc).zip(m).zip(s) {
                    *y = requantize_one(a, m, s, zy);
                }
                black_box(&hand);
            },
        ],
    );
    assert_eq!(out.as_slice(), &hand, "the hand loop disagrees");
    print(
        "int8 dense [1,64]@[64,32] requantized",
        &times,
        &["", "hand"],
    );
}

/// `[256, 256] @ [256, 256]`: int8 operands summed in i32, against the
/// hand widening loop and against this library's f32 product.
fn product_256() {
    let a = int8::<Shape![256, 256]>(3);
    let b = int8::<Shape![256, 256]>(4);
    let af = Box::new(a.cast::<f32>());
    let bf = Box::new(b.cast::<f32>());
    let mut out = Box::new(Tensor::<i32, Shape![256, 256]>::zeros());
    let mut out_f32 = Box::new(Tensor::<f32, Shape![256, 256]>::zeros());
    let mut hand = vec![0i32; 256 * 256];
    let times = compare(
        1,
        20,
        &mut [
            &mut || {
                let (a, b) = (black_box(&*a), black_box(&*b));
                tensor_expr!(out = cast::<i32>(a) @ cast::<i32>(b));
                black_box(&out);
            },
            &mut || {
                let (a, b) = (black_box(a.as_slice()), black_box(b.as_slice()));
                for (row, a_row) in hand.chunks_exact_mut(256).zip(a.chunks_exact(256)) {
                    row.fill(0);
                    for (&av, b_row) in a_row.iter().zip(b.chunks_exact(256)) {
                        let av = i32::from(av);
                        for (o, &bv) in row.iter_mut().zip(b_row) {
                            *o += av * i32::from(bv);
                        }
                    }
                }
                black_box(&hand);
            },
            &mut || {
                let (a, b) = (black_box(&*af), black_box(&*bf));
                tensor_expr!(out_f32 = a @ b);
                black_box(&out_f32);
            },
        ],
    );
    assert_eq!(out.as_slice(), &hand[..], "the hand loop disagrees");
    print(
        "int8 [256,256]@[256,256] -> i32",
        &times,
        &["", "hand", "own f32"],
    );
}

/// The keyword-spotting convolution in int8, channels last: `[1, 49, 10, 1]`
/// by 8 filters of 3x3, padding `same`, per-channel requantisation and
/// relu (the output zero point as the lower bound), as TFLite Micro runs it.
fn kws_conv() {
    let x = int8::<Shape![1, 49, 10, 1]>(5);
    let w = int8::<Shape![8, 3, 3, 1]>(6);
    let bias = Tensor::<i32, Shape![8]>::from_fn(|[c]| (c as i32 - 4) * 101);
    let m = Tensor::<i32, Shape![8]>::from_fn(|[c]| 1_300_000_000 + c as i32 * 7_000_000);
    let s = Tensor::<i32, Shape![8]>::full(-9);
    let (zx, zy) = (3i32, -128i32);
    let mut out = Tensor::<i8, Shape![1, 49, 10, 8]>::zeros();
    let mut hand = [0i8; 49 * 10 * 8];
    // The hand loop's weights `[kh][kw][C_out]`, transposed once, outside
    // the timed loop, so its channel loop reads them contiguously.
    let mut w_taps = [[0i8; 8]; 9];
    for (c, taps) in w.as_slice().chunks_exact(9).enumerate() {
        for (tap, &v) in taps.iter().enumerate() {
            w_taps[tap][c] = v;
        }
    }
    let times = compare(
        1,
        20_000,
        &mut [
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(&*x),
                    black_box(&*w),
                    black_box(&bias),
                    black_box(&m),
                    black_box(&s),
                );
                tensor_expr!(
                    out = saturating_cast::<i8>(max(
                        requantize(
                            conv2d(
                                cast::<i32>(x) - zx,
                                cast::<i32>(w),
                                padding = same,
                                layout = nhwc
                            ) + bias,
                            m,
                            s
                        ) + zy,
                        zy
                    ))
                );
                black_box(&out);
            },
            &mut || {
                let (x, w_taps, bias, m, s) = (
                    black_box(x.as_slice()),
                    black_box(&w_taps),
                    black_box(bias.as_slice()),
                    black_box(m.as_slice()),
                    black_box(s.as_slice()),
                );
                for oh in 0..49usize {
                    for ow in 0..10usize {
                        let mut acc = [0i32; 8];
                        acc.copy_from_slice(bias);
                        for kh in 0..3usize {
                            let ih = (oh + kh).wrapping_sub(1);
                            if ih >= 49 {
                                continue;
                            }
                            for kw in 0..3usize {
                                let iw = (ow + kw).wrapping_sub(1);
                                if iw >= 10 {
                                    continue;
                                }
                                let xv = i32::from(x[ih * 10 + iw]) - zx;
                                for (a, &wv) in acc.iter_mut().zip(&w_taps[kh * 3 + kw]) {
                                    *a += xv * i32::from(wv);
                                }
                            }
                        }
                        let pixel = &mut hand[(oh * 10 + ow) * 8..][..8];
                        for (c, y) in pixel.iter_mut().enumerate() {
                            *y = requantize_one(acc[c], m[c], s[c], zy).max(zy as i8);
                        }
                    }
                }
                black_box(&hand);
            },
        ],
    );
    assert_eq!(out.as_slice(), &hand, "the hand loop disagrees");
    print("int8 kws conv2d 1->8 3x3 49x10 nhwc", &times, &["", "hand"]);
}

/// A keyword-spotting DS-CNN's pointwise layer in int8, channels last:
/// `[1, 25, 5, 64]` by 64 filters of 1x1, requantised per channel, written
/// as the convolution TFLite runs, against the same arithmetic written as
/// a product (`[125, 64] @ [64, 64]`, the weights transposed once outside
/// the timed loop) and against a hand loop over the weights in place.
fn pointwise_conv() {
    let x = int8::<Shape![1, 25, 5, 64]>(7);
    let w = int8::<Shape![64, 1, 1, 64]>(8);
    let x_rows = Tensor::<i8, Shape![125, 64]>::try_from_slice(x.as_slice()).unwrap();
    let w_t = Tensor::<i8, Shape![64, 64]>::from_fn(|[ci, co]| w.as_slice()[co * 64 + ci]);
    let bias = Tensor::<i32, Shape![64]>::from_fn(|[c]| (c as i32 - 32) * 53);
    let m = Tensor::<i32, Shape![64]>::from_fn(|[c]| 1_100_000_000 + c as i32 * 5_000_000);
    let s = Tensor::<i32, Shape![64]>::full(-10);
    let (zx, zy) = (-128i32, 4i32);
    let mut out = Tensor::<i8, Shape![1, 25, 5, 64]>::zeros();
    let mut out_product = Tensor::<i8, Shape![125, 64]>::zeros();
    let mut hand = vec![0i8; 125 * 64];
    let (x_first, mut out_first, [bias_c, m_c, s_c]) = channels_first(&x, &bias, &m, &s);
    let w_first = w.view().reshaped::<Shape![64, 64, 1, 1]>();
    let times = compare(
        1,
        5_000,
        &mut [
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(&*x),
                    black_box(&*w),
                    black_box(&bias),
                    black_box(&m),
                    black_box(&s),
                );
                tensor_expr!(
                    out = saturating_cast::<i8>(
                        requantize(
                            conv2d(cast::<i32>(x) - zx, cast::<i32>(w), layout = nhwc) + bias,
                            m,
                            s
                        ) + zy
                    )
                );
                black_box(&out);
            },
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(&x_rows),
                    black_box(&w_t),
                    black_box(&bias),
                    black_box(&m),
                    black_box(&s),
                );
                tensor_expr!(
                    out_product = saturating_cast::<i8>(
                        requantize((cast::<i32>(x) - zx) @ cast::<i32>(w) + bias, m, s) + zy
                    )
                );
                black_box(&out_product);
            },
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(&x_first),
                    black_box(&w_first),
                    black_box(&bias_c),
                    black_box(&m_c),
                    black_box(&s_c),
                );
                tensor_expr!(
                    out_first = saturating_cast::<i8>(
                        requantize(conv2d(cast::<i32>(x) - zx, cast::<i32>(w)) + bias, m, s) + zy
                    )
                );
                black_box(&out_first);
            },
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(x.as_slice()),
                    black_box(w.as_slice()),
                    black_box(bias.as_slice()),
                    black_box(m.as_slice()),
                    black_box(s.as_slice()),
                );
                for (pixel, y) in x.chunks_exact(64).zip(hand.chunks_exact_mut(64)) {
                    for (co, y) in y.iter_mut().enumerate() {
                        let w_co = &w[co * 64..][..64];
                        let acc = pixel.iter().zip(w_co).fold(bias[co], |acc, (&xv, &wv)| {
                            acc + (i32::from(xv) - zx) * i32::from(wv)
                        });
                        *y = requantize_one(acc, m[co], s[co], zy);
                    }
                }
                black_box(&hand);
            },
        ],
    );
    assert_eq!(out.as_slice(), &hand[..], "the hand loop disagrees");
    assert_eq!(out_product.as_slice(), &hand[..], "the product disagrees");
    assert_eq!(channels_last(&out_first), hand, "channels first disagrees");
    print(
        "int8 pointwise conv2d 64->64 1x1 25x5 nhwc",
        &times,
        &["", "as @", "nchw", "hand"],
    );
}

/// The keyword spotter's depthwise layer in int8, channels last: `[1, 25,
/// 5, 64]`, one 3x3 filter per channel, padding `same`, requantised per
/// channel, against a hand loop (channels innermost, the padding's taps
/// skipped).
fn depthwise_conv() {
    let x = int8::<Shape![1, 25, 5, 64]>(11);
    let w = int8::<Shape![64, 3, 3, 1]>(12);
    let bias = Tensor::<i32, Shape![64]>::from_fn(|[c]| (c as i32 - 32) * 41);
    let m = Tensor::<i32, Shape![64]>::from_fn(|[c]| 1_150_000_000 + c as i32 * 6_000_000);
    let s = Tensor::<i32, Shape![64]>::full(-7);
    let (zx, zy) = (-128i32, -2i32);
    let mut out = Tensor::<i8, Shape![1, 25, 5, 64]>::zeros();
    let mut hand = vec![0i8; 25 * 5 * 64];
    let (x_first, mut out_first, [bias_c, m_c, s_c]) = channels_first(&x, &bias, &m, &s);
    let w_first = w.view().reshaped::<Shape![64, 1, 3, 3]>();
    let times = compare(
        1,
        5_000,
        &mut [
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(&*x),
                    black_box(&*w),
                    black_box(&bias),
                    black_box(&m),
                    black_box(&s),
                );
                tensor_expr!(
                    out = saturating_cast::<i8>(
                        requantize(
                            conv2d(
                                cast::<i32>(x) - zx,
                                cast::<i32>(w),
                                padding = same,
                                groups = 64,
                                layout = nhwc
                            ) + bias,
                            m,
                            s
                        ) + zy
                    )
                );
                black_box(&out);
            },
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(&x_first),
                    black_box(&w_first),
                    black_box(&bias_c),
                    black_box(&m_c),
                    black_box(&s_c),
                );
                tensor_expr!(
                    out_first = saturating_cast::<i8>(
                        requantize(
                            conv2d(
                                cast::<i32>(x) - zx,
                                cast::<i32>(w),
                                padding = same,
                                groups = 64
                            ) + bias,
                            m,
                            s
                        ) + zy
                    )
                );
                black_box(&out_first);
            },
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(x.as_slice()),
                    black_box(w.as_slice()),
                    black_box(bias.as_slice()),
                    black_box(m.as_slice()),
                    black_box(s.as_slice()),
                );
                for oh in 0..25usize {
                    for ow in 0..5usize {
                        let mut acc = [0i32; 64];
                        acc.copy_from_slice(bias);
                        for kh in 0..3 {
                            let Some(ih) = (oh + kh).checked_sub(1).filter(|&ih| ih < 25) else {
                                continue;
                            };
                            for kw in 0..3 {
                                let Some(iw) = (ow + kw).checked_sub(1).filter(|&iw| iw < 5) else {
                                    continue;
                                };
                                let pixel = &x[(ih * 5 + iw) * 64..][..64];
                                for (c, acc) in acc.iter_mut().enumerate() {
                                    *acc += (i32::from(pixel[c]) - zx)
                                        * i32::from(w[c * 9 + kh * 3 + kw]);
                                }
                            }
                        }
                        let y = &mut hand[(oh * 5 + ow) * 64..][..64];
                        for (c, y) in y.iter_mut().enumerate() {
                            *y = requantize_one(acc[c], m[c], s[c], zy);
                        }
                    }
                }
                black_box(&hand);
            },
        ],
    );
    assert_eq!(out.as_slice(), &hand[..], "the hand loop disagrees");
    assert_eq!(channels_last(&out_first), hand, "channels first disagrees");
    print(
        "int8 depthwise conv2d 64 3x3 25x5 nhwc",
        &times,
        &["", "nchw", "hand"],
    );
}

/// A ResNet-8 block's convolution in int8, channels last: `[1, 16, 16,
/// 32]` by 32 filters of 3x3, padding `same`, requantised per channel,
/// against a hand loop.
fn resnet_conv() {
    let x = int8::<Shape![1, 16, 16, 32]>(9);
    let w = int8::<Shape![32, 3, 3, 32]>(10);
    let bias = Tensor::<i32, Shape![32]>::from_fn(|[c]| (c as i32 - 16) * 71);
    let m = Tensor::<i32, Shape![32]>::from_fn(|[c]| 1_250_000_000 + c as i32 * 3_000_000);
    let s = Tensor::<i32, Shape![32]>::full(-11);
    let (zx, zy) = (-7i32, -128i32);
    let mut out = Box::new(Tensor::<i8, Shape![1, 16, 16, 32]>::zeros());
    let mut hand = vec![0i8; 16 * 16 * 32];
    let times = compare(
        1,
        500,
        &mut [
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(&*x),
                    black_box(&*w),
                    black_box(&bias),
                    black_box(&m),
                    black_box(&s),
                );
                tensor_expr!(
                    out = saturating_cast::<i8>(max(
                        requantize(
                            conv2d(
                                cast::<i32>(x) - zx,
                                cast::<i32>(w),
                                padding = same,
                                layout = nhwc
                            ) + bias,
                            m,
                            s
                        ) + zy,
                        zy
                    ))
                );
                black_box(&out);
            },
            &mut || {
                let (x, w, bias, m, s) = (
                    black_box(x.as_slice()),
                    black_box(w.as_slice()),
                    black_box(bias.as_slice()),
                    black_box(m.as_slice()),
                    black_box(s.as_slice()),
                );
                for oh in 0..16usize {
                    for ow in 0..16usize {
                        for co in 0..32usize {
                            let mut acc = bias[co];
                            for kh in 0..3usize {
                                let ih = (oh + kh).wrapping_sub(1);
                                if ih >= 16 {
                                    continue;
                                }
                                for kw in 0..3usize {
                                    let iw = (ow + kw).wrapping_sub(1);
                                    if iw >= 16 {
                                        continue;
                                    }
                                    let pixel = &x[(ih * 16 + iw) * 32..][..32];
                                    let taps = &w[((co * 3 + kh) * 3 + kw) * 32..][..32];
                                    for (&xv, &wv) in pixel.iter().zip(taps) {
                                        acc += (i32::from(xv) - zx) * i32::from(wv);
                                    }
                                }
                            }
                            hand[(oh * 16 + ow) * 32 + co] =
                                requantize_one(acc, m[co], s[co], zy).max(zy as i8);
                        }
                    }
                }
                black_box(&hand);
            },
        ],
    );
    assert_eq!(out.as_slice(), &hand[..], "the hand loop disagrees");
    print("int8 conv2d 32->32 3x3 16x16 nhwc", &times, &["", "hand"]);
}

/// TFLite's int8 softmax as its reference kernel loops: a pass for the
/// row's maximum, one summing the exponentials, the reciprocal of the sum
/// once per row, and a pass writing the outputs.
fn softmax_hand(x: &[i8], y: &mut [i8], depth: usize, m: i32, s: i32) {
    use tensor_expr::fixed_point::*;
    for (row, out) in x.chunks_exact(depth).zip(y.chunks_exact_mut(depth)) {
        let max = i32::from(*row.iter().max().unwrap());
        let sum: i32 = row
            .iter()
            .map(|&v| rounding_divide_by_pot(softmax_exp(i32::from(v) - max, m, s), 12))
            .sum();
        let (reciprocal, exponent) = softmax_reciprocal(sum);
        for (o, &v) in out.iter_mut().zip(row) {
            let e = softmax_exp(i32::from(v) - max, m, s);
            let p = rounding_divide_by_pot(doubling_high_mul(reciprocal, e), exponent);
            *o = (p - 128).clamp(-128, 127) as i8;
        }
    }
}

/// `quantized_softmax` over rows of 12 (a keyword spotter's classes) and
/// of 256, against [`softmax_hand`].
fn softmax() {
    fn case<const ROWS: usize, const DEPTH: usize>(name: &str, batch: usize)
    where
        Shape![ROWS, DEPTH]: Shape,
    {
        let x = int8::<Shape![ROWS, DEPTH]>(7);
        let (m, s) = tensor_expr::element::softmax_multiplier(0.1, 1.0);
        let mut out = Box::new(Tensor::<i8, Shape![ROWS, DEPTH]>::zeros());
        let mut hand = vec![0i8; ROWS * DEPTH];
        let times = compare(
            1,
            batch,
            &mut [
                &mut || {
                    let x = black_box(&*x);
                    tensor_expr!(*out = quantized_softmax(x, m, s, [1]));
                    black_box(&out);
                },
                &mut || {
                    softmax_hand(black_box(x.as_slice()), &mut hand, DEPTH, m, s);
                    black_box(&hand);
                },
            ],
        );
        assert_eq!(out.as_slice(), &hand[..], "the hand loop disagrees");
        print(name, &times, &["", "hand"]);
    }
    case::<1, 12>("int8 quantized_softmax [1, 12]", 100_000);
    case::<64, 256>("int8 quantized_softmax [64, 256]", 100);
}

fn main() {
    println!("quantized (ns per call; ratio = other / tensor-expr)");
    // `cargo bench --bench quantized -- product dense`: only the cases
    // whose names contain one of the words.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let cases: [(&str, fn()); 7] = [
        ("dense", dense_layer),
        ("kws", kws_conv),
        ("pointwise", pointwise_conv),
        ("depthwise", depthwise_conv),
        ("resnet", resnet_conv),
        ("product", product_256),
        ("softmax", softmax),
    ];
    for (name, case) in cases {
        if only.is_empty() || only.iter().any(|word| name.contains(word.as_str())) {
            case();
        }
    }
}
