//! Convolutions against hand-written loops and against im2col followed by
//! matrixmultiply's `sgemm`, in the same run: ns per call (median of timed
//! batches), GFLOP/s where it means something, and the ratio of the other's
//! time to tensor-expr's (above 1: tensor-expr is faster).
//!
//! `cargo bench --bench convolution` (and with
//! `RUSTFLAGS="-C target-cpu=native"`).
//!
//! The hand loops are the ones a careful user writes: output-stationary
//! planes, the column loop innermost and contiguous (it vectorises), the
//! padding handled by loop bounds, not by a branch per element; the FIR
//! filter tap-outer over the whole signal.

mod common;

use common::{compare, pseudo};
use std::hint::black_box;
use tensor_expr::prelude::*;

fn filled<S: Shape>(seed: usize) -> Box<Tensor<f32, S>> {
    let mut t = Box::new(Tensor::<f32, S>::zeros());
    for (i, v) in t.as_mut_slice().iter_mut().enumerate() {
        *v = pseudo(seed + i);
    }
    t
}

/// A stride-1 convolution with zero padding `pad`, channels first, one
/// image: each output plane accumulated tap by tap over contiguous rows.
#[allow(clippy::too_many_arguments)]
fn hand_conv2d(
    x: &[f32],
    w: &[f32],
    out: &mut [f32],
    c_in: usize,
    c_out: usize,
    groups: usize,
    [h, wd]: [usize; 2],
    k: usize,
    pad: usize,
) {
    let (oh_len, ow_len) = (h + 2 * pad - k + 1, wd + 2 * pad - k + 1);
    let per_group = c_in / groups;
    let out_per_group = c_out / groups;
    for co in 0..c_out {
        let plane = &mut out[co * oh_len * ow_len..][..oh_len * ow_len];
        plane.fill(0.0);
        let group = co / out_per_group;
        for ci in 0..per_group {
            let x_plane = &x[(group * per_group + ci) * h * wd..][..h * wd];
            for kh in 0..k {
                for kw in 0..k {
                    let wv = w[((co * per_group + ci) * k + kh) * k + kw];
                    for oh in 0..oh_len {
                        let Some(ih) = (oh + kh).checked_sub(pad).filter(|&ih| ih < h) else {
                            continue;
                        };
                        // Columns whose tap `kw` reads inside the row.
                        let first = pad.saturating_sub(kw);
                        let last = (wd + pad - kw).min(ow_len);
                        let x_row = &x_plane[ih * wd..][..wd];
                        let out_row = &mut plane[oh * ow_len..][..ow_len];
                        for ow in first..last {
                            out_row[ow] += wv * x_row[ow + kw - pad];
                        }
                    }
                }
            }
        }
    }
}

/// A stride-1 convolution channels last, one image, `groups` groups (1, or
/// one channel each): for each output pixel and tap, the pixel's input
/// channels times the weights laid out `[kh, kw, C_in / groups, C_out]`
/// (transposed once, outside the timed loop), output channels innermost
/// and contiguous (it vectorises).
#[allow(clippy::too_many_arguments)]
fn hand_conv2d_nhwc(
    x: &[f32],
    w_hwio: &[f32],
    out: &mut [f32],
    c_in: usize,
    c_out: usize,
    depthwise: bool,
    [h, wd]: [usize; 2],
    k: usize,
    pad: usize,
) {
    let per_group = if depthwise { 1 } else { c_in };
    for oh in 0..h {
        for ow in 0..wd {
            let pixel = &mut out[(oh * wd + ow) * c_out..][..c_out];
            pixel.fill(0.0);
            for kh in 0..k {
                let Some(ih) = (oh + kh).checked_sub(pad).filter(|&ih| ih < h) else {
                    continue;
                };
                for kw in 0..k {
                    let Some(iw) = (ow + kw).checked_sub(pad).filter(|&iw| iw < wd) else {
                        continue;
                    };
                    let x_pixel = &x[(ih * wd + iw) * c_in..][..c_in];
                    let taps = &w_hwio[(kh * k + kw) * per_group * c_out..][..per_group * c_out];
                    if depthwise {
                        for ((y, &xv), &wv) in pixel.iter_mut().zip(x_pixel).zip(taps) {
                            *y += xv * wv;
                        }
                    } else {
                        for (&xv, weights) in x_pixel.iter().zip(taps.chunks_exact(c_out)) {
                            for (y, &wv) in pixel.iter_mut().zip(weights) {
                                *y += xv * wv;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A weight `[C_out, kh, kw, C_in / groups]` as `[kh, kw, C_in / groups, C_out]`.
fn ohwi_to_hwio(w: &[f32], c_out: usize, taps: usize, per_group: usize) -> Vec<f32> {
    let mut t = vec![0.0; w.len()];
    for co in 0..c_out {
        for tap in 0..taps {
            for ci in 0..per_group {
                t[(tap * per_group + ci) * c_out + co] = w[(co * taps + tap) * per_group + ci];
            }
        }
    }
    t
}

/// im2col then `sgemm`: the column matrix `[C_in k k, H W]` built each call
/// (stride 1, padding `pad`, output as large as the input), then
/// `W [C_out, C_in k k] @ cols`.
#[allow(clippy::too_many_arguments)]
fn im2col_sgemm(
    x: &[f32],
    w: &[f32],
    out: &mut [f32],
    cols: &mut [f32],
    c_in: usize,
    c_out: usize,
    [h, wd]: [usize; 2],
    k: usize,
    pad: usize,
) {
    let n = h * wd;
    for ci in 0..c_in {
        for kh in 0..k {
            for kw in 0..k {
                let row = &mut cols[((ci * k + kh) * k + kw) * n..][..n];
                for oh in 0..h {
                    for ow in 0..wd {
                        let (ih, iw) = ((oh + kh).wrapping_sub(pad), (ow + kw).wrapping_sub(pad));
                        row[oh * wd + ow] = if ih < h && iw < wd {
                            x[(ci * h + ih) * wd + iw]
                        } else {
                            0.0
                        };
                    }
                }
            }
        }
    }
    let depth = c_in * k * k;
    unsafe {
        matrixmultiply::sgemm(
            c_out,
            depth,
            n,
            1.0,
            w.as_ptr(),
            depth as isize,
            1,
            cols.as_ptr(),
            n as isize,
            1,
            0.0,
            out.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

/// A transposed convolution as a careful user writes it, channels first,
/// one image: each input row scatters each tap's products into the output
/// row it reaches (`stride` apart), the column range clipped by loop bounds.
#[allow(clippy::too_many_arguments)]
fn hand_conv_transpose2d(
    x: &[f32],
    w: &[f32],
    out: &mut [f32],
    c_in: usize,
    c_out: usize,
    [h, wd]: [usize; 2],
    k: usize,
    stride: usize,
    pad: usize,
) {
    let (oh_len, ow_len) = (
        (h - 1) * stride + k - 2 * pad,
        (wd - 1) * stride + k - 2 * pad,
    );
    out.fill(0.0);
    for ci in 0..c_in {
        for co in 0..c_out {
            let plane = &mut out[co * oh_len * ow_len..][..oh_len * ow_len];
            for kh in 0..k {
                for ih in 0..h {
                    let Some(oh) = (ih * stride + kh)
                        .checked_sub(pad)
                        .filter(|&oh| oh < oh_len)
                    else {
                        continue;
                    };
                    let x_row = &x[(ci * h + ih) * wd..][..wd];
                    let out_row = &mut plane[oh * ow_len..][..ow_len];
                    for kw in 0..k {
                        let wv = w[((ci * c_out + co) * k + kh) * k + kw];
                        for (iw, &xv) in x_row.iter().enumerate() {
                            if let Some(ow) = (iw * stride + kw)
                                .checked_sub(pad)
                                .filter(|&ow| ow < ow_len)
                            {
                                out_row[ow] += wv * xv;
                            }
                        }
                    }
                }
            }
        }
    }
}

fn print(case: &str, flops: f64, times: &[f64], names: &[&str]) {
    let mut line = format!("{case:<34} {:>10.0} ns", times[0]);
    if flops > 0.0 {
        line += &format!(" {:>6.1} GFLOP/s", flops / times[0]);
    }
    for (time, name) in times[1..].iter().zip(&names[1..]) {
        line += &format!("   {name} {time:>10.0} ({:.2}x)", time / times[0]);
    }
    println!("{line}");
}

fn main() {
    // matrixmultiply (a dev-dependency with its `threading` feature, for
    // benches/parallel.rs) uses every physical core unless told otherwise:
    // the baselines here run on one thread, as tensor-expr does.
    std::env::set_var("MATMUL_NUM_THREADS", "1");
    println!("convolution (ns per call; ratio = other / tensor-expr)");

    // 64 -> 64 channels, 3x3, 56x56, batch 1 (a ResNet stage).
    {
        let x = filled::<Shape![1, 64, 56, 56]>(1);
        let w = filled::<Shape![64, 64, 3, 3]>(2);
        let mut out = Box::new(Tensor::<f32, Shape![1, 64, 56, 56]>::zeros());
        let mut hand = vec![0.0f32; 64 * 56 * 56];
        let mut gemm = vec![0.0f32; 64 * 56 * 56];
        let mut cols = vec![0.0f32; 64 * 9 * 56 * 56];
        im2col_sgemm(
            x.as_slice(),
            w.as_slice(),
            &mut gemm,
            &mut cols,
            64,
            64,
            [56, 56],
            3,
            1,
        );
        let w_matrix =
            Box::new(Tensor::<f32, Shape![64, 576]>::try_from_slice(w.as_slice()).unwrap());
        let columns = HeapTensor::<f32, Shape![576, 3136]>::try_from_slice(&cols).unwrap();
        let mut product = HeapTensor::<f32, Shape![64, 3136]>::zeros();
        let times = compare(
            1,
            20,
            &mut [
                &mut || {
                    let (x, w) = (black_box(&*x), black_box(&*w));
                    tensor_expr!(out = conv2d(x, w, padding = 1));
                    black_box(&out);
                },
                &mut || {
                    hand_conv2d(
                        black_box(x.as_slice()),
                        black_box(w.as_slice()),
                        &mut hand,
                        64,
                        64,
                        1,
                        [56, 56],
                        3,
                        1,
                    );
                    black_box(&hand);
                },
                &mut || {
                    im2col_sgemm(
                        black_box(x.as_slice()),
                        black_box(w.as_slice()),
                        &mut gemm,
                        &mut cols,
                        64,
                        64,
                        [56, 56],
                        3,
                        1,
                    );
                    black_box(&gemm);
                },
                &mut || {
                    // tensor-expr's own `@` on the same product, the column
                    // matrix built beforehand (not timed).
                    let (wm, cm) = (black_box(&*w_matrix), black_box(&columns));
                    tensor_expr!(product = wm @ cm);
                    black_box(&product);
                },
            ],
        );
        let flops = 2.0 * 64.0 * 64.0 * 9.0 * 56.0 * 56.0;
        print(
            "conv2d 64->64 3x3 56x56",
            flops,
            &times,
            &["", "hand", "im2col+sgemm", "@ on im2col"],
        );
        for (a, b) in out.as_slice().iter().zip(&hand) {
            assert!((a - b).abs() < 1e-3, "the hand loop disagrees");
        }
    }

    // Keyword spotting: [1, 1, 49, 10] -> 8 channels, 3x3, 'same'.
    {
        let x = filled::<Shape![1, 1, 49, 10]>(3);
        let w = filled::<Shape![8, 1, 3, 3]>(4);
        let b = filled::<Shape![8]>(5);
        let mut out = Box::new(Tensor::<f32, Shape![1, 8, 49, 10]>::zeros());
        let mut hand = vec![0.0f32; 8 * 49 * 10];
        let times = compare(
            1,
            20_000,
            &mut [
                &mut || {
                    let (x, w, b) = (black_box(&*x), black_box(&*w), black_box(&*b));
                    tensor_expr!(out = relu(conv2d(x, w, padding = same) + in_dims(b, [1])));
                    black_box(&out);
                },
                &mut || {
                    hand_conv2d(
                        black_box(x.as_slice()),
                        black_box(w.as_slice()),
                        &mut hand,
                        1,
                        8,
                        1,
                        [49, 10],
                        3,
                        1,
                    );
                    for (co, plane) in hand.chunks_exact_mut(490).enumerate() {
                        for v in plane {
                            *v = (*v + b.as_slice()[co]).max(0.0);
                        }
                    }
                    black_box(&hand);
                },
            ],
        );
        print(
            "kws conv2d 1->8 3x3 49x10 +b relu",
            2.0 * 8.0 * 9.0 * 490.0,
            &times,
            &["", "hand"],
        );
    }

    // Depthwise 3x3 over 64 channels of 56x56.
    {
        let x = filled::<Shape![1, 64, 56, 56]>(6);
        let w = filled::<Shape![64, 1, 3, 3]>(7);
        let mut out = Box::new(Tensor::<f32, Shape![1, 64, 56, 56]>::zeros());
        let mut hand = vec![0.0f32; 64 * 56 * 56];
        let times = compare(
            1,
            200,
            &mut [
                &mut || {
                    let (x, w) = (black_box(&*x), black_box(&*w));
                    tensor_expr!(out = conv2d(x, w, padding = 1, groups = 64));
                    black_box(&out);
                },
                &mut || {
                    hand_conv2d(
                        black_box(x.as_slice()),
                        black_box(w.as_slice()),
                        &mut hand,
                        64,
                        64,
                        64,
                        [56, 56],
                        3,
                        1,
                    );
                    black_box(&hand);
                },
            ],
        );
        print(
            "depthwise 3x3 64x56x56",
            2.0 * 64.0 * 9.0 * 3136.0,
            &times,
            &["", "hand"],
        );
    }

    // Channels last (TFLite's layout): the 64-channel case and the
    // depthwise one, against the best hand loop over the same layout and
    // against tensor-expr's channels-first convolution of the same data.
    for depthwise in [false, true] {
        let c_in = 64;
        let per_group = if depthwise { 1 } else { c_in };
        let x = filled::<Shape![1, 56, 56, 64]>(16);
        let x_first = filled::<Shape![1, 64, 56, 56]>(16);
        let w = filled::<Shape![64, 3, 3, 64]>(17);
        let w_depthwise = filled::<Shape![64, 3, 3, 1]>(17);
        let w_first = filled::<Shape![64, 64, 3, 3]>(17);
        let w_first_depthwise = filled::<Shape![64, 1, 3, 3]>(17);
        let w_slice = if depthwise {
            w_depthwise.as_slice()
        } else {
            w.as_slice()
        };
        let w_hwio = ohwi_to_hwio(w_slice, 64, 9, per_group);
        let mut out = Box::new(Tensor::<f32, Shape![1, 56, 56, 64]>::zeros());
        let mut out_first = Box::new(Tensor::<f32, Shape![1, 64, 56, 56]>::zeros());
        let mut hand = vec![0.0f32; 64 * 56 * 56];
        let times = compare(
            1,
            if depthwise { 200 } else { 10 },
            &mut [
                &mut || {
                    let x = black_box(&*x);
                    if depthwise {
                        let w = black_box(&*w_depthwise);
                        tensor_expr!(out = conv2d(x, w, padding = 1, groups = 64, layout = nhwc));
                    } else {
                        let w = black_box(&*w);
                        tensor_expr!(out = conv2d(x, w, padding = 1, layout = nhwc));
                    }
                    black_box(&out);
                },
                &mut || {
                    let (x, w) = (black_box(x.as_slice()), black_box(&w_hwio));
                    hand_conv2d_nhwc(x, w, &mut hand, 64, 64, depthwise, [56, 56], 3, 1);
                    black_box(&hand);
                },
                &mut || {
                    let x = black_box(&*x_first);
                    if depthwise {
                        let w = black_box(&*w_first_depthwise);
                        tensor_expr!(out_first = conv2d(x, w, padding = 1, groups = 64));
                    } else {
                        let w = black_box(&*w_first);
                        tensor_expr!(out_first = conv2d(x, w, padding = 1));
                    }
                    black_box(&out_first);
                },
            ],
        );
        let flops = 2.0 * 64.0 * per_group as f64 * 9.0 * 3136.0;
        let case = if depthwise {
            "depthwise nhwc 3x3 64x56x56"
        } else {
            "conv2d nhwc 64->64 3x3 56x56"
        };
        print(case, flops, &times, &["", "hand", "te channels first"]);
        for (a, b) in out.as_slice().iter().zip(&hand) {
            assert!((a - b).abs() < 1e-3, "the hand loop disagrees");
        }
    }

    // A 64-tap FIR filter over 4096 samples (no padding: 4033 outputs).
    {
        let x = filled::<Shape![1, 1, 4096]>(8);
        let h = filled::<Shape![1, 1, 64]>(9);
        let mut out = Box::new(Tensor::<f32, Shape![1, 1, 4033]>::zeros());
        let mut by_windows = Box::new(Tensor::<f32, Shape![4033]>::zeros());
        let signal = Tensor::<f32, Shape![4096]>::try_from_slice(x.as_slice()).unwrap();
        let taps = Tensor::<f32, Shape![64]>::try_from_slice(h.as_slice()).unwrap();
        let mut hand = vec![0.0f32; 4033];
        let times = compare(
            1,
            2_000,
            &mut [
                &mut || {
                    let (x, h) = (black_box(&*x), black_box(&*h));
                    tensor_expr!(out = conv1d(x, h));
                    black_box(&out);
                },
                &mut || {
                    let (x, h) = (black_box(&signal), black_box(&taps));
                    tensor_expr!(by_windows = sum(x.windows::<0, 64, 1>() * h, [1]));
                    black_box(&by_windows);
                },
                &mut || {
                    let (x, h) = (black_box(x.as_slice()), black_box(h.as_slice()));
                    hand.fill(0.0);
                    for (k, &tap) in h.iter().enumerate() {
                        for (y, &v) in hand.iter_mut().zip(&x[k..k + 4033]) {
                            *y += tap * v;
                        }
                    }
                    black_box(&hand);
                },
            ],
        );
        print(
            "FIR 64 taps over 4096",
            2.0 * 64.0 * 4033.0,
            &times,
            &["", "windows", "hand tap-outer"],
        );
    }

    // A 2x2 max pool of 64 channels of 56x56.
    {
        let x = filled::<Shape![1, 64, 56, 56]>(10);
        let mut out = Box::new(Tensor::<f32, Shape![1, 64, 28, 28]>::zeros());
        let mut hand = vec![0.0f32; 64 * 28 * 28];
        let times = compare(
            1,
            500,
            &mut [
                &mut || {
                    let x = black_box(&*x);
                    tensor_expr!(out = max_pool2d(x, [2, 2]));
                    black_box(&out);
                },
                &mut || {
                    let x = black_box(x.as_slice());
                    for (c, plane) in hand.chunks_exact_mut(28 * 28).enumerate() {
                        let input = &x[c * 3136..][..3136];
                        for (i, row) in plane.chunks_exact_mut(28).enumerate() {
                            let (top, bottom) =
                                (&input[2 * i * 56..][..56], &input[(2 * i + 1) * 56..][..56]);
                            for (j, y) in row.iter_mut().enumerate() {
                                *y = top[2 * j]
                                    .max(top[2 * j + 1])
                                    .max(bottom[2 * j])
                                    .max(bottom[2 * j + 1]);
                            }
                        }
                    }
                    black_box(&hand);
                },
            ],
        );
        print("max_pool2d 2x2 64x56x56", 0.0, &times, &["", "hand"]);
    }

    // The whole keyword-spotting model: conv 3x3 to 8 channels with bias and
    // relu, 2x2 max pool, dense to 12, softmax; against the straightforward
    // hand loops (one nested loop per layer, as a C port would be written).
    {
        let x = filled::<Shape![1, 1, 49, 10]>(11);
        let w1 = filled::<Shape![8, 1, 3, 3]>(12);
        let b1 = filled::<Shape![8]>(13);
        let w2 = filled::<Shape![960, 12]>(14);
        let b2 = filled::<Shape![12]>(15);
        let mut p = Box::new(Tensor::<f32, Shape![1, 12]>::zeros());
        let mut hand = [0.0f32; 12];
        let times = compare(
            1,
            20_000,
            &mut [
                &mut || {
                    let (x, w1, b1, w2, b2) = (
                        black_box(&*x),
                        black_box(&*w1),
                        black_box(&*b1),
                        black_box(&*w2),
                        black_box(&*b2),
                    );
                    let features = tensor_expr!(max_pool2d(
                        relu(conv2d(x, w1, padding = same) + in_dims(b1, [1])),
                        [2, 2]
                    ));
                    tensor_expr!(p = softmax(reshape::<Shape![1, 960]>(features) @ w2 + b2, [1]));
                    black_box(&p);
                },
                &mut || {
                    let (x, w1, b1, w2, b2) = (
                        black_box(x.as_slice()),
                        black_box(w1.as_slice()),
                        black_box(b1.as_slice()),
                        black_box(w2.as_slice()),
                        black_box(b2.as_slice()),
                    );
                    let mut conv = [0.0f32; 8 * 49 * 10];
                    for o in 0..8 {
                        for i in 0..49usize {
                            for j in 0..10usize {
                                let mut sum = b1[o];
                                for kh in 0..3usize {
                                    for kw in 0..3usize {
                                        let (ih, iw) =
                                            ((i + kh).wrapping_sub(1), (j + kw).wrapping_sub(1));
                                        if ih < 49 && iw < 10 {
                                            sum += x[ih * 10 + iw] * w1[(o * 3 + kh) * 3 + kw];
                                        }
                                    }
                                }
                                conv[(o * 49 + i) * 10 + j] = sum.max(0.0);
                            }
                        }
                    }
                    let mut pooled = [0.0f32; 960];
                    for o in 0..8 {
                        for i in 0..24 {
                            for j in 0..5 {
                                let at = |a: usize, b: usize| {
                                    conv[(o * 49 + 2 * i + a) * 10 + 2 * j + b]
                                };
                                pooled[(o * 24 + i) * 5 + j] =
                                    at(0, 0).max(at(0, 1)).max(at(1, 0)).max(at(1, 1));
                            }
                        }
                    }
                    for (k, logit) in hand.iter_mut().enumerate() {
                        *logit = b2[k] + (0..960).map(|f| pooled[f] * w2[f * 12 + k]).sum::<f32>();
                    }
                    let max = hand.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
                    let total: f32 = hand.iter().map(|l| (l - max).exp()).sum();
                    for logit in &mut hand {
                        *logit = (*logit - max).exp() / total;
                    }
                    black_box(&hand);
                },
            ],
        );
        print("keyword-spotting model", 0.0, &times, &["", "hand loops"]);
        for (a, b) in p.as_slice().iter().zip(&hand) {
            assert!((a - b).abs() < 1e-5, "the hand loops disagree");
        }
    }

    // A decoder's 2x upsampling: 64 -> 32 channels, 4x4, stride 2, padding
    // 1, 28x28 -> 56x56 (DCGAN's and U-Net's transposed convolution).
    {
        let x = filled::<Shape![1, 64, 28, 28]>(10);
        let w = filled::<Shape![64, 32, 4, 4]>(11);
        let mut out = Box::new(Tensor::<f32, Shape![1, 32, 56, 56]>::zeros());
        let mut hand = vec![0.0f32; 32 * 56 * 56];
        let times = compare(
            1,
            20,
            &mut [
                &mut || {
                    let (x, w) = (black_box(&*x), black_box(&*w));
                    tensor_expr!(out = conv_transpose2d(x, w, stride = 2, padding = 1));
                    black_box(&out);
                },
                &mut || {
                    hand_conv_transpose2d(
                        black_box(x.as_slice()),
                        black_box(w.as_slice()),
                        &mut hand,
                        64,
                        32,
                        [28, 28],
                        4,
                        2,
                        1,
                    );
                    black_box(&hand);
                },
            ],
        );
        let worst = out
            .as_slice()
            .iter()
            .zip(&hand)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(
            worst < 1e-3,
            "conv_transpose2d differs from the hand loop by {worst}"
        );
        // Every output takes 64 channels x 4 of the 16 taps at stride 2.
        let flops = 2.0 * 32.0 * 64.0 * 4.0 * 3136.0;
        print(
            "conv_transpose2d 64->32 4x4 s2 28->56",
            flops,
            &times,
            &["tensor-expr", "hand loop"],
        );
    }
}
