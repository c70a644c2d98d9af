//! `conv1d` and `conv2d` against ONNX Runtime's `Conv`
//! (`tests/vectors/convolution.py` writes the values), which computes what
//! `torch.nn.functional` defines: stride, padding (`same` included),
//! dilation, groups and depthwise, batched and unbatched, both layouts; and
//! fused with the expression around them.

use tensor_expr::prelude::*;

/// One case of `tests/vectors/convolution.txt`: input, weight (empty for a
/// pool, written `-`), output.
fn case(name: &str) -> [Vec<f32>; 3] {
    let text = include_str!("vectors/convolution.txt");
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line == format!("case {name}") {
            let mut values = || -> Vec<f32> {
                let line = lines.next().expect("a line of values");
                if line == "-" {
                    return Vec::new();
                }
                line.split(' ')
                    .map(|v| v.parse().expect("a float"))
                    .collect()
            };
            return [values(), values(), values()];
        }
    }
    panic!("no case {name}");
}

/// Asserts `actual` is the reference within float32 rounding of sums of
/// up to a few hundred products.
fn assert_close(name: &str, actual: &[f32], expected: &[f32]) {
    assert_eq!(actual.len(), expected.len(), "{name}: element count");
    for (i, (&a, &e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            (a - e).abs() <= 1e-4 + 1e-5 * e.abs(),
            "{name}: element {i} is {a}, ONNX Runtime gives {e}"
        );
    }
}

/// Loads case `$name` as an input of shape `$x` and a weight of shape
/// `$w`, evaluates `$e` (over `x` and `w`) and compares.
macro_rules! check {
    ($name:literal, $x:ty, $w:ty, |$xi:ident, $wi:ident| $e:expr) => {{
        let [x, w, y] = case($name);
        let $xi = Tensor::<f32, $x>::try_from_slice(&x).unwrap();
        let $wi = Tensor::<f32, $w>::try_from_slice(&w).unwrap();
        let result = $e;
        assert_close($name, result.as_slice(), &y);
    }};
}

#[test]
fn conv2d_matches_onnx_runtime() {
    check!(
        "conv2d_plain",
        Shape![1, 3, 8, 9],
        Shape![4, 3, 3, 3],
        |x, w| { tensor_expr!(conv2d(x, w)) }
    );
    check!(
        "conv2d_stride_padding",
        Shape![2, 3, 9, 10],
        Shape![5, 3, 3, 2],
        |x, w| { tensor_expr!(conv2d(x, w, stride = [2, 1], padding = [1, 2])) }
    );
    check!(
        "conv2d_dilation",
        Shape![1, 2, 12, 11],
        Shape![3, 2, 3, 3],
        |x, w| { tensor_expr!(conv2d(x, w, dilation = [2, 3], padding = 1)) }
    );
    check!(
        "conv2d_groups",
        Shape![1, 4, 7, 7],
        Shape![6, 2, 3, 3],
        |x, w| { tensor_expr!(conv2d(x, w, groups = 2)) }
    );
    check!(
        "conv2d_depthwise",
        Shape![1, 4, 8, 8],
        Shape![4, 1, 3, 3],
        |x, w| { tensor_expr!(conv2d(x, w, groups = 4, padding = 1)) }
    );
    check!(
        "conv2d_same_even_kernel",
        Shape![1, 2, 7, 6],
        Shape![3, 2, 4, 3],
        |x, w| { tensor_expr!(conv2d(x, w, padding = same)) }
    );
    check!(
        "conv2d_unbatched",
        Shape![3, 6, 6],
        Shape![2, 3, 3, 3],
        |x, w| { tensor_expr!(conv2d(x, w)) }
    );
    check!(
        "conv2d_wide",
        Shape![1, 3, 12, 70],
        Shape![4, 3, 3, 3],
        |x, w| { tensor_expr!(conv2d(x, w, padding = 1)) }
    );
    check!(
        "conv2d_wide_strided",
        Shape![2, 2, 11, 90],
        Shape![3, 2, 3, 3],
        |x, w| { tensor_expr!(conv2d(x, w, stride = 2, padding = [1, 1])) }
    );
    check!(
        "conv2d_keyword_spotting",
        Shape![1, 1, 49, 10],
        Shape![8, 1, 3, 3],
        |x, w| { tensor_expr!(conv2d(x, w)) }
    );
}

#[test]
fn conv2d_channels_last_matches_onnx_runtime() {
    check!(
        "conv2d_channels_last",
        Shape![1, 6, 7, 3],
        Shape![4, 3, 3, 3],
        |x, w| { tensor_expr!(conv2d(x, w, stride = 2, padding = 1, layout = nhwc)) }
    );
    check!(
        "conv2d_channels_last_depthwise",
        Shape![2, 5, 5, 4],
        Shape![4, 3, 3, 1],
        |x, w| { tensor_expr!(conv2d(x, w, groups = 4, padding = 1, layout = nhwc)) }
    );
}

#[test]
fn conv1d_matches_onnx_runtime() {
    check!(
        "conv1d_stride_padding",
        Shape![2, 3, 20],
        Shape![4, 3, 5],
        |x, w| { tensor_expr!(conv1d(x, w, stride = 2, padding = 2)) }
    );
    check!(
        "conv1d_dilation_groups",
        Shape![1, 4, 30],
        Shape![8, 2, 3],
        |x, w| { tensor_expr!(conv1d(x, w, groups = 2, dilation = 3)) }
    );
    check!(
        "conv1d_unbatched_same",
        Shape![2, 16],
        Shape![3, 2, 4],
        |x, w| { tensor_expr!(conv1d(x, w, padding = same)) }
    );
    check!("conv1d_wide", Shape![1, 4, 100], Shape![8, 4, 5], |x, w| {
        tensor_expr!(conv1d(x, w, padding = 2))
    });
    check!(
        "conv1d_channels_last",
        Shape![2, 12, 3],
        Shape![4, 3, 3],
        |x, w| { tensor_expr!(conv1d(x, w, layout = nwc)) }
    );
    // Both read element by element (channels last; tiles of output channels
    // that cross groups), where padding is checked on every tap.
    check!(
        "conv1d_channels_last_padded",
        Shape![2, 12, 3],
        Shape![4, 3, 3],
        |x, w| { tensor_expr!(conv1d(x, w, stride = 2, padding = 1, layout = nwc)) }
    );
    check!(
        "conv1d_groups_padded",
        Shape![1, 6, 20],
        Shape![6, 2, 3],
        |x, w| { tensor_expr!(conv1d(x, w, groups = 3, padding = 1)) }
    );
}

/// [`naive_conv`] of one image `x` ([3, 12, 70]) by `w` ([4, 3, 3, 3]) with
/// padding 1, in f64, as f32: the reference for the fused forms below.
fn padded_reference(x: &[f32], w: &[f32]) -> Vec<f32> {
    let wide = |v: &[f32]| v.iter().map(|&e| f64::from(e)).collect::<Vec<f64>>();
    let o = Options {
        stride: [1, 1],
        padding: [1, 1],
        dilation: [1, 1],
        groups: 1,
    };
    naive_conv(&wide(x), [1, 3, 12, 70], &wide(w), [4, 3, 3], o)
        .into_iter()
        .map(|e| e as f32)
        .collect()
}

#[test]
fn a_convolution_fuses_its_bias_and_activation_and_reads_expressions_evaluated() {
    let [x, w, _] = case("conv2d_wide");
    let x = Tensor::<f32, Shape![1, 3, 12, 70]>::try_from_slice(&x).unwrap();
    let w = Tensor::<f32, Shape![4, 3, 3, 3]>::try_from_slice(&w).unwrap();
    let b = Tensor::<f32, Shape![4]>::from([0.5, -1.0, 0.25, 2.0]);
    let y = tensor_expr!(relu(conv2d(x, w, padding = 1) + in_dims(b, [1])));
    let plain = padded_reference(x.as_slice(), w.as_slice());
    let plane = 12 * 70;
    for (i, (&value, &sum)) in y.as_slice().iter().zip(&plain).enumerate() {
        let expected = (sum + b[[i / plane]]).max(0.0);
        assert!(
            (value - expected).abs() <= 1e-4,
            "element {i}: {value} against {expected}"
        );
    }
    // An expression input is evaluated first, then read by the taps.
    let doubled = tensor_expr!(conv2d(x * 2.0, w - 1.0, padding = 1));
    let x2 = tensor_expr!(x * 2.0);
    let w1 = tensor_expr!(w - 1.0);
    let plain = padded_reference(x2.as_slice(), w1.as_slice());
    assert_close("conv2d of expressions", doubled.as_slice(), &plain);
    // Into a target, and as an operand of a reduction (staged first).
    let mut out = Tensor::<f32, Shape![1, 4, 12, 70]>::zeros();
    tensor_expr!(out = conv2d(x, w, padding = 1));
    assert_close(
        "conv2d into a target",
        out.as_slice(),
        &padded_reference(x.as_slice(), w.as_slice()),
    );
    let pooled = tensor_expr!(mean(conv2d(x, w, padding = 1), [2, 3]));
    let sums = padded_reference(x.as_slice(), w.as_slice());
    for o in 0..4 {
        let expected = sums[o * plane..(o + 1) * plane].iter().sum::<f32>() / plane as f32;
        assert!((pooled[[0, o]] - expected).abs() <= 1e-4);
    }
}

/// Loads pool case `$name` as an input of shape `$x`, evaluates `$e` (over
/// `x`) and compares.
macro_rules! check_pool {
    ($name:literal, $x:ty, |$xi:ident| $e:expr) => {{
        let [x, _, y] = case($name);
        let $xi = Tensor::<f32, $x>::try_from_slice(&x).unwrap();
        let result = $e;
        assert_close($name, result.as_slice(), &y);
    }};
}

/// A padding per side (`[[top, bottom], [left, right]]`, ONNX's `pads`)
/// and TensorFlow's `SAME` with a stride (ONNX's `SAME_UPPER`: `ceil(L /
/// stride)` outputs, the odd padding row or column at the end).
#[test]
fn padding_per_side_and_strided_same_match_onnx_runtime() {
    check!(
        "conv2d_padding_sides",
        Shape![1, 2, 7, 8],
        Shape![3, 2, 3, 3],
        |x, w| { tensor_expr!(conv2d(x, w, stride = [2, 1], padding = [[1, 2], [0, 1]])) }
    );
    check!(
        "conv1d_padding_sides",
        Shape![2, 3, 15],
        Shape![4, 3, 4],
        |x, w| { tensor_expr!(conv1d(x, w, padding = [[0, 2]])) }
    );
    check!(
        "conv2d_same_stride2",
        Shape![1, 2, 9, 8],
        Shape![3, 2, 3, 3],
        |x, w| {
            let y = tensor_expr!(conv2d(x, w, stride = 2, padding = same));
            assert_eq!(y.shape(), [1, 3, 5, 4]);
            y
        }
    );
    check!(
        "conv2d_same_stride2_even_kernel",
        Shape![1, 2, 10, 7],
        Shape![3, 2, 4, 4],
        |x, w| { tensor_expr!(conv2d(x, w, stride = [2, 3], padding = same)) }
    );
    check!(
        "conv2d_channels_last_same_stride2",
        Shape![1, 9, 9, 4],
        Shape![4, 3, 3, 1],
        |x, w| {
            tensor_expr!(conv2d(
                x,
                w,
                stride = 2,
                padding = same,
                groups = 4,
                layout = nhwc
            ))
        }
    );
    check_pool!("max_pool2d_padding_sides", Shape![1, 2, 7, 8], |x| {
        tensor_expr!(max_pool2d(
            x,
            [3, 2],
            stride = 2,
            padding = [[1, 0], [0, 1]]
        ))
    });
}

#[test]
fn pools_match_onnx_runtime() {
    check_pool!("max_pool2d_plain", Shape![1, 3, 8, 8], |x| {
        tensor_expr!(max_pool2d(x, [2, 2]))
    });
    check_pool!(
        "max_pool2d_stride_padding_dilation",
        Shape![2, 2, 9, 10],
        |x| {
            tensor_expr!(max_pool2d(
                x,
                [3, 2],
                stride = [2, 1],
                padding = 1,
                dilation = [2, 1]
            ))
        }
    );
    check_pool!("avg_pool2d_padded", Shape![1, 2, 7, 7], |x| {
        tensor_expr!(avg_pool2d(x, [3], stride = 2, padding = 1))
    });
    check_pool!("max_pool1d_padded", Shape![2, 3, 20], |x| {
        tensor_expr!(max_pool1d(x, [3], stride = 2, padding = 1))
    });
    check_pool!("avg_pool1d_unbatched", Shape![3, 16], |x| {
        tensor_expr!(avg_pool1d(x, [4]))
    });
    check_pool!("max_pool2d_channels_last", Shape![1, 6, 6, 4], |x| {
        tensor_expr!(max_pool2d(x, [2, 2], layout = nhwc))
    });
    check_pool!("avg_pool2d_wide", Shape![1, 2, 8, 64], |x| {
        tensor_expr!(avg_pool2d(x, [2, 2]))
    });
}

#[test]
fn averages_over_the_taps_inside_match_onnx_runtime() {
    check_pool!("avg_pool2d_exclude_pad", Shape![1, 2, 7, 7], |x| {
        tensor_expr!(avg_pool2d(
            x,
            [3],
            stride = 2,
            padding = 1,
            count_include_pad = false
        ))
    });
    check_pool!("avg_pool2d_exclude_pad_sides", Shape![1, 2, 6, 7], |x| {
        tensor_expr!(avg_pool2d(
            x,
            [3, 2],
            stride = [1, 2],
            padding = [[1, 1], [0, 1]],
            count_include_pad = false
        ))
    });
    check_pool!(
        "avg_pool2d_exclude_pad_channels_last",
        Shape![1, 5, 5, 3],
        |x| {
            tensor_expr!(avg_pool2d(
                x,
                [3, 3],
                stride = 1,
                padding = 1,
                layout = nhwc,
                count_include_pad = false
            ))
        }
    );
    check_pool!("avg_pool1d_exclude_pad", Shape![2, 3, 11], |x| {
        tensor_expr!(avg_pool1d(
            x,
            [4],
            stride = 3,
            padding = 2,
            count_include_pad = false
        ))
    });
    // TensorFlow's SAME with a stride, the odd padding row and column
    // last, as TFLite's pools take it.
    check_pool!("avg_pool2d_same_stride2", Shape![1, 2, 9, 8], |x| {
        tensor_expr!(avg_pool2d(
            x,
            [2, 3],
            stride = 2,
            padding = same,
            count_include_pad = false
        ))
    });
    check_pool!(
        "max_pool2d_same_stride2_channels_last",
        Shape![1, 7, 9, 3],
        |x| {
            tensor_expr!(max_pool2d(
                x,
                [3, 2],
                stride = 2,
                padding = same,
                layout = nhwc
            ))
        }
    );
    // `true` is the default.
    check_pool!("avg_pool2d_padded", Shape![1, 2, 7, 7], |x| {
        tensor_expr!(avg_pool2d(
            x,
            [3],
            stride = 2,
            padding = 1,
            count_include_pad = true
        ))
    });
}

#[test]
fn a_pool_fuses_and_propagates_nan_as_pytorch() {
    let [x, w, _] = case("conv2d_wide");
    let x = Tensor::<f32, Shape![1, 3, 12, 70]>::try_from_slice(&x).unwrap();
    let w = Tensor::<f32, Shape![4, 3, 3, 3]>::try_from_slice(&w).unwrap();
    // The keyword-spotting block: conv, relu, then a 2x2 max pool of it
    // (the convolution is evaluated first, the pool and relu fused).
    let pooled = tensor_expr!(max_pool2d(relu(conv2d(x, w, padding = 1)), [2, 2]) * 2.0);
    let c = tensor_expr!(relu(conv2d(x, w, padding = 1)));
    for ([n, o, i, j], &value) in pooled.iter_indexed() {
        let window = [(0, 0), (0, 1), (1, 0), (1, 1)].map(|(a, b)| c[[n, o, 2 * i + a, 2 * j + b]]);
        let expected = 2.0 * window.into_iter().fold(f32::MIN, f32::max);
        assert_eq!(value, expected);
    }
    let mut v = Tensor::<f32, Shape![1, 4]>::from([[1.0, f32::NAN, 3.0, 2.0]]);
    let m = tensor_expr!(max_pool1d(v, [2]));
    assert!(m[[0, 0]].is_nan());
    assert_eq!(m[[0, 1]], 3.0);
    v[[0, 1]] = 0.0;
    let m = tensor_expr!(max_pool1d(v, [2]));
    assert_eq!(m.as_slice(), &[1.0, 3.0]);
}

#[test]
fn windows_are_sliding_window_views_and_an_fir_filter_is_a_sum_over_them() {
    let [x, _, expected] = case("windows_with_a_step");
    let x = Tensor::<f32, Shape![2, 3, 12]>::try_from_slice(&x).unwrap();
    // As an operand (and copied, for the flat comparison).
    let windows = tensor_expr!(x.windows::<2, 4, 3>() * 1.0);
    assert_eq!(windows.shape(), &[2, 3, 3, 4]);
    assert_eq!(windows.as_slice(), &expected[..]);
    // NumPy: sliding_window_view(x, 4, axis=1)[:, ::3] of a [2, 12] array.
    let x = Tensor::<f32, Shape![2, 12]>::from_fn(|[i, j]| (100 * i + j) as f32);
    let w = x.windows::<1, 4, 3>();
    assert_eq!(w.shape(), &[2, 3, 4]);
    for i in 0..2 {
        for s in 0..3 {
            for k in 0..4 {
                assert_eq!(w[[i, s, k]], x[[i, 3 * s + k]]);
            }
        }
    }
    // An STFT's framing: 256-sample frames every 128 samples, windowed.
    let signal = Tensor::<f32, Shape![1024]>::from_fn(|[n]| (n as f32 * 0.1).sin());
    let hann = Tensor::<f32, Shape![256]>::from_fn(|[k]| {
        0.5 - 0.5 * (2.0 * std::f32::consts::PI * k as f32 / 256.0).cos()
    });
    let frames = tensor_expr!(signal.windows::<0, 256, 128>() * hann);
    assert_eq!(frames.shape(), &[7, 256]);
    assert_eq!(frames[[3, 10]], signal[[3 * 128 + 10]] * hann[[10]]);
    // A 64-tap FIR filter as a sum over windows, against conv1d (checked
    // against ONNX Runtime above) and a plain tap-outer loop.
    let [x, _, _] = case("conv1d_wide");
    let x = Tensor::<f32, Shape![400]>::try_from_slice(&x).unwrap();
    let h = Tensor::<f32, Shape![64]>::from_fn(|[k]| 1.0 / (k as f32 + 1.0));
    let fir = tensor_expr!(sum(x.windows::<0, 64, 1>() * h, [1]));
    let x3 = Tensor::<f32, Shape![1, 1, 400]>::try_from_slice(x.as_slice()).unwrap();
    let h3 = Tensor::<f32, Shape![1, 1, 64]>::try_from_slice(h.as_slice()).unwrap();
    let conv = tensor_expr!(conv1d(x3, h3));
    let mut plain = vec![0.0f32; 337];
    for (k, &tap) in h.as_slice().iter().enumerate() {
        for (y, &v) in plain.iter_mut().zip(&x.as_slice()[k..]) {
            *y += tap * v;
        }
    }
    assert_close("FIR over windows", fir.as_slice(), &plain);
    assert_close("FIR as conv1d", conv.as_slice(), &plain);
}

/// One second of 16 kHz audio (16000 samples, beyond the sizes `windows`
/// counts at compile time) framed by 480 samples every 320, as the limits
/// in the README say: in parts of at most 4096 samples, each a `narrow`
/// starting at a multiple of the hop, whose windows are the signal's.
#[test]
fn a_signal_beyond_the_computed_sizes_is_framed_in_parts() {
    let audio =
        Tensor::<f32, Shape![16000]>::from_fn(|[n]| ((n * 7919) % 1000) as f32 / 500.0 - 1.0);
    let hann = Tensor::<f32, Shape![480]>::from_fn(|[k]| {
        0.5 - 0.5 * (2.0 * std::f32::consts::PI * k as f32 / 480.0).cos()
    });
    // 11 frames per part of 3680 samples: 10 hops and one frame.
    let a = audio.narrow::<0, 0, 3680>();
    let b = audio.narrow::<0, 3520, 3680>();
    let c = audio.narrow::<0, 7040, 3680>();
    let d = audio.narrow::<0, 10560, 3680>();
    let e = audio.narrow::<0, 14080, 1760>(); // the last 5 frames
    let parts = [
        tensor_expr!(sum(a.windows::<0, 480, 320>() * hann, [1]))
            .as_slice()
            .to_vec(),
        tensor_expr!(sum(b.windows::<0, 480, 320>() * hann, [1]))
            .as_slice()
            .to_vec(),
        tensor_expr!(sum(c.windows::<0, 480, 320>() * hann, [1]))
            .as_slice()
            .to_vec(),
        tensor_expr!(sum(d.windows::<0, 480, 320>() * hann, [1]))
            .as_slice()
            .to_vec(),
        tensor_expr!(sum(e.windows::<0, 480, 320>() * hann, [1]))
            .as_slice()
            .to_vec(),
    ];
    let framed: Vec<f32> = parts.concat();
    let frames = (16000 - 480) / 320 + 1;
    let plain: Vec<f32> = (0..frames)
        .map(|f| (0..480).map(|k| audio[[f * 320 + k]] * hann[[k]]).sum())
        .collect();
    assert_eq!(framed.len(), 49);
    assert_close("framed in parts", &framed, &plain);
}

/// The options of [`naive_conv`], PyTorch's names.
#[derive(Clone, Copy)]
struct Options {
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    groups: usize,
}

/// A convolution by its definition, channels first, batched: `x`
/// `[n, c_in, h, w]`, `w` `[c_out, c_in / groups, kh, kw]`, integer-valued
/// floats so that every order of summation gives the same exact result.
fn naive_conv(
    x: &[f64],
    [n, c_in, h, wd]: [usize; 4],
    w: &[f64],
    [c_out, kh, kw]: [usize; 3],
    o: Options,
) -> Vec<f64> {
    let out = |len: usize, k: usize, a: usize| {
        (len + 2 * o.padding[a] - o.dilation[a] * (k - 1) - 1) / o.stride[a] + 1
    };
    let (oh_len, ow_len) = (out(h, kh, 0), out(wd, kw, 1));
    let per_group = c_in / o.groups;
    let mut y = Vec::new();
    for b in 0..n {
        for co in 0..c_out {
            let group = co / (c_out / o.groups);
            for oh in 0..oh_len {
                for ow in 0..ow_len {
                    let mut sum = 0.0;
                    for ci in 0..per_group {
                        for i in 0..kh {
                            for j in 0..kw {
                                let ih = (oh * o.stride[0] + i * o.dilation[0])
                                    .wrapping_sub(o.padding[0]);
                                let iw = (ow * o.stride[1] + j * o.dilation[1])
                                    .wrapping_sub(o.padding[1]);
                                if ih < h && iw < wd {
                                    let c = group * per_group + ci;
                                    sum += x[((b * c_in + c) * h + ih) * wd + iw]
                                        * w[((co * per_group + ci) * kh + i) * kw + j];
                                }
                            }
                        }
                    }
                    y.push(sum);
                }
            }
        }
    }
    y
}

/// `x` `[n, c, h, w]` as `[n, h, w, c]` (and so a weight
/// `[c_out, c_in / groups, kh, kw]` as `[c_out, kh, kw, c_in / groups]`).
fn channels_last(x: &[f64], [n, c, h, w]: [usize; 4]) -> Vec<f64> {
    let mut y = Vec::with_capacity(x.len());
    for b in 0..n {
        for i in 0..h {
            for j in 0..w {
                for k in 0..c {
                    y.push(x[((b * c + k) * h + i) * w + j]);
                }
            }
        }
    }
    y
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]
    /// Channels last (the pixel dot products and the depthwise tiles, with
    /// padding, stride, dilation and groups) equals the definition exactly
    /// on integer-valued inputs.
    #[test]
    fn channels_last_convolutions_match_their_definition(values in proptest::collection::vec(-4i32..5, 3000)) {
        let values: Vec<f64> = values.into_iter().map(f64::from).collect();
        let take = |len: usize, from: usize| values[from..from + len].to_vec();
        let plain = Options { stride: [1, 1], padding: [0, 0], dilation: [1, 1], groups: 1 };

        // 20 input channels (a vector of 16 and a tail of 4), 12 outputs.
        let (x, w) = (take(2 * 20 * 5 * 11, 0), take(12 * 20 * 3 * 3, 0));
        let xt = Tensor::<f64, Shape![2, 5, 11, 20]>::try_from_slice(&channels_last(&x, [2, 20, 5, 11])).unwrap();
        let wt = Tensor::<f64, Shape![12, 3, 3, 20]>::try_from_slice(&channels_last(&w, [12, 20, 3, 3])).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, padding = 1, layout = nhwc));
        let o = Options { padding: [1, 1], ..plain };
        let expected = channels_last(&naive_conv(&x, [2, 20, 5, 11], &w, [12, 3, 3], o), [2, 12, 5, 11]);
        proptest::prop_assert_eq!(y.as_slice(), &expected[..]);
        let y = tensor_expr!(conv2d(xt, wt, stride = [2, 1], dilation = [1, 2], padding = [1, 2], layout = nhwc));
        let o = Options { stride: [2, 1], dilation: [1, 2], padding: [1, 2], ..plain };
        let expected = channels_last(&naive_conv(&x, [2, 20, 5, 11], &w, [12, 3, 3], o), [2, 12, 3, 11]);
        proptest::prop_assert_eq!(y.as_slice(), &expected[..]);

        // Groups of 10 input and 3 output channels (a pair of columns may
        // cross a group), and a depthwise convolution.
        let wt = Tensor::<f64, Shape![12, 3, 3, 5]>::try_from_slice(&channels_last(&w[..540], [12, 5, 3, 3])).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, groups = 4, padding = 1, layout = nhwc));
        let o = Options { padding: [1, 1], groups: 4, ..plain };
        let expected = channels_last(&naive_conv(&x, [2, 20, 5, 11], &w[..540], [12, 3, 3], o), [2, 12, 5, 11]);
        proptest::prop_assert_eq!(y.as_slice(), &expected[..]);
        let wt = Tensor::<f64, Shape![20, 3, 3, 1]>::try_from_slice(&channels_last(&w[..180], [20, 1, 3, 3])).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, groups = 20, padding = 1, layout = nhwc));
        let o = Options { padding: [1, 1], groups: 20, ..plain };
        let expected = channels_last(&naive_conv(&x, [2, 20, 5, 11], &w[..180], [20, 3, 3], o), [2, 20, 5, 11]);
        proptest::prop_assert_eq!(y.as_slice(), &expected[..]);

        // Depthwise over rows narrower than a tile (merged positions):
        // with a stride and a dilation, and in one dim with a kernel of
        // more than 64 taps.
        let y = tensor_expr!(conv2d(xt, wt, groups = 20, padding = 1, stride = [1, 3], dilation = [2, 1], layout = nhwc));
        let o = Options { padding: [1, 1], stride: [1, 3], dilation: [2, 1], groups: 20 };
        let expected = channels_last(&naive_conv(&x, [2, 20, 5, 11], &w[..180], [20, 3, 3], o), [2, 20, 3, 4]);
        proptest::prop_assert_eq!(y.as_slice(), &expected[..]);
        let (xd, wd) = (take(2 * 4 * 72, 0), take(4 * 70, 2000));
        let xdt = Tensor::<f64, Shape![2, 72, 4]>::try_from_slice(&channels_last(&xd, [2, 4, 1, 72])).unwrap();
        let wdt = Tensor::<f64, Shape![4, 70, 1]>::try_from_slice(&wd).unwrap();
        let y = tensor_expr!(conv1d(xdt, wdt, groups = 4, padding = 1, layout = nwc));
        let o = Options { padding: [0, 1], groups: 4, ..plain };
        let expected = channels_last(&naive_conv(&xd, [2, 4, 1, 72], &wd, [4, 1, 70], o), [2, 4, 1, 5]);
        proptest::prop_assert_eq!(y.as_slice(), &expected[..]);

        // One spatial dim.
        let (x, w) = (take(3 * 18 * 30, 0), take(8 * 18 * 5, 1000));
        let xt = Tensor::<f64, Shape![3, 30, 18]>::try_from_slice(&channels_last(&x, [3, 18, 1, 30])).unwrap();
        let wt = Tensor::<f64, Shape![8, 5, 18]>::try_from_slice(&channels_last(&w, [8, 18, 1, 5])).unwrap();
        let y = tensor_expr!(conv1d(xt, wt, padding = 2, stride = 3, layout = nwc));
        let o = Options { padding: [0, 2], stride: [1, 3], ..plain };
        let expected = channels_last(&naive_conv(&x, [3, 18, 1, 30], &w, [8, 1, 5], o), [3, 8, 1, 10]);
        proptest::prop_assert_eq!(y.as_slice(), &expected[..]);
    }

    /// Integer-valued inputs, so the tiled kernels (interior and border
    /// tiles, rows along the output rows or channels) must agree exactly
    /// with the definition.
    #[test]
    fn convolutions_match_their_definition(values in proptest::collection::vec(-4i32..5, 3000)) {
        let values: Vec<f64> = values.into_iter().map(f64::from).collect();
        let take = |len: usize, from: usize| values[from..from + len].to_vec();
        let plain = Options { stride: [1, 1], padding: [0, 0], dilation: [1, 1], groups: 1 };

        let (x, w) = (take(2 * 3 * 9 * 40, 0), take(5 * 3 * 3 * 3, 2200));
        let xt = Tensor::<f64, Shape![2, 3, 9, 40]>::try_from_slice(&x).unwrap();
        let wt = Tensor::<f64, Shape![5, 3, 3, 3]>::try_from_slice(&w).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, padding = 1));
        let o = Options { padding: [1, 1], ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv(&x, [2, 3, 9, 40], &w, [5, 3, 3], o)[..]);
        let y = tensor_expr!(conv2d(xt, wt, stride = [2, 3], dilation = [1, 2], padding = [0, 2]));
        let o = Options { stride: [2, 3], dilation: [1, 2], padding: [0, 2], ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv(&x, [2, 3, 9, 40], &w, [5, 3, 3], o)[..]);

        // Groups: 8 output channels a group (tiles of channels, none
        // crossing a group), then 3 (tiles of rows of one channel).
        let (x, w) = (take(4 * 7 * 20, 0), take(16 * 2 * 3 * 3, 2200));
        let xt = Tensor::<f64, Shape![4, 7, 20]>::try_from_slice(&x).unwrap();
        let wt = Tensor::<f64, Shape![16, 2, 3, 3]>::try_from_slice(&w).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, groups = 2, padding = 1));
        let o = Options { padding: [1, 1], groups: 2, ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv(&x, [1, 4, 7, 20], &w, [16, 3, 3], o)[..]);
        let wt = Tensor::<f64, Shape![6, 2, 3, 3]>::try_from_slice(&w[..6 * 2 * 3 * 3]).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, groups = 2, padding = 1));
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv(&x, [1, 4, 7, 20], &w[..108], [6, 3, 3], o)[..]);

        let (x, w) = (take(4 * 6 * 35, 0), take(9 * 2 * 3, 1000));
        let xt = Tensor::<f64, Shape![4, 6, 35]>::try_from_slice(&x).unwrap();
        let wt = Tensor::<f64, Shape![9, 2, 3]>::try_from_slice(&w).unwrap();
        let y = tensor_expr!(conv1d(xt, wt, groups = 3, padding = 2, dilation = 2));
        // conv1d as conv2d over a height of 1.
        let o = Options { padding: [0, 2], dilation: [1, 2], groups: 3, ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv(&x, [4, 6, 1, 35], &w, [9, 1, 3], o)[..]);
        let y = tensor_expr!(conv1d(xt, wt, groups = 3, stride = 2));
        let o = Options { stride: [1, 2], groups: 3, ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv(&x, [4, 6, 1, 35], &w, [9, 1, 3], o)[..]);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]
    /// `f32`, where the runtime's float kernels sum the AVX-512 tiles
    /// (channels first: 8 channels by 32 columns, inputs read through
    /// masked loads at both borders; channels last: positions by channels
    /// with 32 or 20 input channels): equal to the definition on integer-valued
    /// inputs, with padding on either side, dilation and strides, groups,
    /// a batch, and in one dim. At the levels below AVX-512 the same cases
    /// check the general paths.
    #[test]
    fn float_convolutions_match_their_definition(values in proptest::collection::vec(-4i32..5, 3000)) {
        let values: Vec<f64> = values.into_iter().map(f64::from).collect();
        let take = |len: usize, from: usize| values[from..from + len].to_vec();
        let as_f32 = |v: &[f64]| v.iter().map(|&v| v as f32).collect::<Vec<f32>>();
        let plain = Options { stride: [1, 1], padding: [0, 0], dilation: [1, 1], groups: 1 };

        // Rows of 32 columns: the one whole tile reads past both borders.
        let (x, w) = (take(2 * 3 * 5 * 32, 0), take(8 * 3 * 3 * 3, 2000));
        let xt = Tensor::<f32, Shape![2, 3, 5, 32]>::try_from_slice(&as_f32(&x)).unwrap();
        let wt = Tensor::<f32, Shape![8, 3, 3, 3]>::try_from_slice(&as_f32(&w)).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, padding = 1));
        let o = Options { padding: [1, 1], ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&naive_conv(&x, [2, 3, 5, 32], &w, [8, 3, 3], o))[..]);
        let y = tensor_expr!(conv2d(xt, wt, stride = [2, 1], dilation = [1, 3], padding = [1, 4]));
        let o = Options { stride: [2, 1], dilation: [1, 3], padding: [1, 4], ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&naive_conv(&x, [2, 3, 5, 32], &w, [8, 3, 3], o))[..]);

        // Two groups of 8 channels; rows of 45 (a whole tile, then narrower ones).
        let (x, w) = (take(4 * 3 * 45, 0), take(16 * 2 * 3 * 3, 2200));
        let xt = Tensor::<f32, Shape![4, 3, 45]>::try_from_slice(&as_f32(&x)).unwrap();
        let wt = Tensor::<f32, Shape![16, 2, 3, 3]>::try_from_slice(&as_f32(&w)).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, groups = 2, padding = [0, 2]));
        let o = Options { padding: [0, 2], groups: 2, ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&naive_conv(&x, [1, 4, 3, 45], &w, [16, 3, 3], o))[..]);

        // Channels last, 32 input channels: tiles of 8 positions by 4 to
        // 32 channels (rows of 11: 8 positions, then fewer), each position's
        // taps in the padding skipped; a stride and a dilation; two groups
        // of 16 input and 8 output channels.
        let (x, w) = (take(2 * 32 * 4 * 11, 0), take(8 * 32 * 3 * 3, 200));
        let xt = Tensor::<f32, Shape![2, 4, 11, 32]>::try_from_slice(&as_f32(&channels_last(&x, [2, 32, 4, 11]))).unwrap();
        let wt = Tensor::<f32, Shape![8, 3, 3, 32]>::try_from_slice(&as_f32(&channels_last(&w, [8, 32, 3, 3]))).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, padding = 1, layout = nhwc));
        let o = Options { padding: [1, 1], ..plain };
        let expected = channels_last(&naive_conv(&x, [2, 32, 4, 11], &w, [8, 3, 3], o), [2, 8, 4, 11]);
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&expected)[..]);
        let y = tensor_expr!(conv2d(xt, wt, stride = [1, 2], dilation = [2, 1], padding = [2, 3], layout = nhwc));
        let o = Options { stride: [1, 2], dilation: [2, 1], padding: [2, 3], ..plain };
        let expected = channels_last(&naive_conv(&x, [2, 32, 4, 11], &w, [8, 3, 3], o), [2, 8, 4, 8]);
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&expected)[..]);
        let wt = Tensor::<f32, Shape![16, 3, 3, 16]>::try_from_slice(&as_f32(&channels_last(&w[..2304], [16, 16, 3, 3]))).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, groups = 2, padding = 1, layout = nhwc));
        let o = Options { padding: [1, 1], groups: 2, ..plain };
        let expected = channels_last(&naive_conv(&x, [2, 32, 4, 11], &w[..2304], [16, 3, 3], o), [2, 16, 4, 11]);
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&expected)[..]);

        // 20 input channels: a vector of 16 and a tail of 4.
        let (x, w) = (take(20 * 3 * 12, 0), take(12 * 20 * 3 * 3, 700));
        let xt = Tensor::<f32, Shape![1, 3, 12, 20]>::try_from_slice(&as_f32(&channels_last(&x, [1, 20, 3, 12]))).unwrap();
        let wt = Tensor::<f32, Shape![12, 3, 3, 20]>::try_from_slice(&as_f32(&channels_last(&w, [12, 20, 3, 3]))).unwrap();
        let y = tensor_expr!(conv2d(xt, wt, padding = 1, layout = nhwc));
        let o = Options { padding: [1, 1], ..plain };
        let expected = channels_last(&naive_conv(&x, [1, 20, 3, 12], &w, [12, 3, 3], o), [1, 12, 3, 12]);
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&expected)[..]);

        // One dim: a signal of 70, 8 output channels.
        let (x, w) = (take(3 * 70, 0), take(8 * 3 * 5, 1000));
        let xt = Tensor::<f32, Shape![3, 70]>::try_from_slice(&as_f32(&x)).unwrap();
        let wt = Tensor::<f32, Shape![8, 3, 5]>::try_from_slice(&as_f32(&w)).unwrap();
        let y = tensor_expr!(conv1d(xt, wt, padding = 2));
        let o = Options { padding: [0, 2], ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&naive_conv(&x, [1, 3, 1, 70], &w, [8, 1, 5], o))[..]);
        // Channels last: 16 input channels, unbatched.
        let (x, w) = (take(16 * 30, 0), take(8 * 16 * 3, 1000));
        let xt = Tensor::<f32, Shape![30, 16]>::try_from_slice(&as_f32(&channels_last(&x, [1, 16, 1, 30]))).unwrap();
        let wt = Tensor::<f32, Shape![8, 3, 16]>::try_from_slice(&as_f32(&channels_last(&w, [8, 16, 1, 3]))).unwrap();
        let y = tensor_expr!(conv1d(xt, wt, padding = 1, layout = nwc));
        let o = Options { padding: [0, 1], ..plain };
        let expected = channels_last(&naive_conv(&x, [1, 16, 1, 30], &w, [8, 1, 3], o), [1, 8, 1, 30]);
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&expected)[..]);
    }
}

/// Loads case `$name`, evaluates `$e` into a tensor of shape `$y` (so the
/// result's shape is checked too) and compares.
macro_rules! check_transposed {
    ($name:literal, $x:ty, $w:ty, $y:ty, |$xi:ident, $wi:ident| $e:expr) => {
        check!($name, $x, $w, |$xi, $wi| {
            let y: Tensor<f32, $y> = $e;
            y
        })
    };
}

/// `conv_transpose1d` and `conv_transpose2d` against ONNX Runtime's
/// `ConvTranspose` (PyTorch's definition): stride, padding per dim and per
/// side, output padding, groups, depthwise, dilation, unbatched.
#[test]
fn transposed_convolutions_match_onnx_runtime() {
    check_transposed!(
        "conv_transpose2d_plain",
        Shape![1, 3, 5, 6],
        Shape![3, 4, 3, 3],
        Shape![1, 4, 7, 8],
        |x, w| { tensor_expr!(conv_transpose2d(x, w)) }
    );
    check_transposed!(
        "conv_transpose2d_stride_padding",
        Shape![2, 3, 5, 4],
        Shape![3, 2, 3, 3],
        Shape![2, 2, 10, 8],
        |x, w| {
            tensor_expr!(conv_transpose2d(
                x,
                w,
                stride = 2,
                padding = 1,
                output_padding = 1
            ))
        }
    );
    check_transposed!(
        "conv_transpose2d_dilation_groups",
        Shape![1, 4, 6, 5],
        Shape![4, 3, 3, 2],
        Shape![1, 6, 10, 8],
        |x, w| {
            tensor_expr!(conv_transpose2d(
                x,
                w,
                groups = 2,
                dilation = [2, 1],
                stride = [1, 2],
                padding = [0, 1]
            ))
        }
    );
    check_transposed!(
        "conv_transpose2d_unbatched",
        Shape![2, 4, 4],
        Shape![2, 3, 2, 2],
        Shape![3, 8, 8],
        |x, w| { tensor_expr!(conv_transpose2d(x, w, stride = 2)) }
    );
    check_transposed!(
        "conv_transpose2d_wide",
        Shape![1, 4, 8, 40],
        Shape![4, 8, 3, 3],
        Shape![1, 8, 16, 80],
        |x, w| {
            tensor_expr!(conv_transpose2d(
                x,
                w,
                stride = [2, 2],
                padding = [1, 1],
                output_padding = [1, 1]
            ))
        }
    );
    check_transposed!(
        "conv_transpose2d_padding_sides",
        Shape![1, 2, 5, 5],
        Shape![2, 3, 3, 4],
        Shape![1, 3, 10, 14],
        |x, w| {
            tensor_expr!(conv_transpose2d(
                x,
                w,
                stride = [2, 3],
                padding = [[1, 0], [0, 2]]
            ))
        }
    );
    check_transposed!(
        "conv_transpose2d_depthwise",
        Shape![1, 8, 7, 7],
        Shape![8, 1, 4, 4],
        Shape![1, 8, 14, 14],
        |x, w| { tensor_expr!(conv_transpose2d(x, w, groups = 8, stride = 2, padding = 1)) }
    );
    check_transposed!(
        "conv_transpose1d_stride_padding",
        Shape![2, 3, 10],
        Shape![3, 4, 4],
        Shape![2, 4, 31],
        |x, w| {
            tensor_expr!(conv_transpose1d(
                x,
                w,
                stride = 3,
                padding = 1,
                output_padding = 2
            ))
        }
    );
    check_transposed!(
        "conv_transpose1d_groups_dilation",
        Shape![1, 6, 12],
        Shape![6, 2, 3],
        Shape![1, 6, 28],
        |x, w| {
            tensor_expr!(conv_transpose1d(
                x,
                w,
                groups = 3,
                dilation = 2,
                stride = 2,
                output_padding = 1
            ))
        }
    );
    check_transposed!(
        "conv_transpose1d_unbatched",
        Shape![4, 9],
        Shape![4, 5, 2],
        Shape![5, 18],
        |x, w| { tensor_expr!(conv_transpose1d(x, w, stride = 2)) }
    );
    check_transposed!(
        "conv_transpose1d_wide",
        Shape![2, 8, 70],
        Shape![8, 8, 5],
        Shape![2, 8, 70],
        |x, w| { tensor_expr!(conv_transpose1d(x, w, padding = 2)) }
    );
}

/// The options of [`naive_conv_transpose`], PyTorch's names (padding as
/// the crop before and after each dim).
#[derive(Clone, Copy)]
struct TransposedOptions {
    stride: [usize; 2],
    padding: [[usize; 2]; 2],
    output_padding: [usize; 2],
    dilation: [usize; 2],
    groups: usize,
}

/// A transposed convolution by its definition, each input element
/// scattering its weights: `x` `[n, c_in, h, w]`, `w`
/// `[c_in, c_out / groups, kh, kw]`, channels first, integer-valued floats.
fn naive_conv_transpose(
    x: &[f64],
    [n, c_in, h, wd]: [usize; 4],
    w: &[f64],
    [per_group_out, kh, kw]: [usize; 3],
    o: TransposedOptions,
) -> Vec<f64> {
    let len = |input: usize, k: usize, a: usize| {
        (input - 1) * o.stride[a] + o.dilation[a] * (k - 1) + o.output_padding[a] + 1
            - o.padding[a][0]
            - o.padding[a][1]
    };
    let (oh_len, ow_len) = (len(h, kh, 0), len(wd, kw, 1));
    let c_out = per_group_out * o.groups;
    let per_group_in = c_in / o.groups;
    let mut y = vec![0.0; n * c_out * oh_len * ow_len];
    for b in 0..n {
        for ci in 0..c_in {
            let group = ci / per_group_in;
            for ih in 0..h {
                for iw in 0..wd {
                    let value = x[((b * c_in + ci) * h + ih) * wd + iw];
                    for co in 0..per_group_out {
                        for i in 0..kh {
                            for j in 0..kw {
                                let oh = (ih * o.stride[0] + i * o.dilation[0])
                                    .wrapping_sub(o.padding[0][0]);
                                let ow = (iw * o.stride[1] + j * o.dilation[1])
                                    .wrapping_sub(o.padding[1][0]);
                                if oh < oh_len && ow < ow_len {
                                    let c = group * per_group_out + co;
                                    y[((b * c_out + c) * oh_len + oh) * ow_len + ow] +=
                                        value * w[((ci * per_group_out + co) * kh + i) * kw + j];
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    y
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]
    /// Transposed convolutions (tiles of 8, 4 and 1 output channels, rows
    /// wider than a tile, strides that skip taps, crops on each side,
    /// groups, depthwise, fused with a bias and an activation; in `f64`,
    /// and in `f32` where the AVX-512 kernel sums the tiles) equal the
    /// scatter definition exactly on integer-valued inputs. CI runs it at
    /// every instruction-set level, so the kernel and the general path are
    /// both checked.
    #[test]
    fn transposed_convolutions_match_their_definition(values in proptest::collection::vec(-4i32..5, 3000)) {
        let values: Vec<f64> = values.into_iter().map(f64::from).collect();
        let take = |len: usize, from: usize| values[from..from + len].to_vec();
        let plain = TransposedOptions { stride: [1, 1], padding: [[0, 0]; 2], output_padding: [0, 0], dilation: [1, 1], groups: 1 };

        let (x, w) = (take(2 * 3 * 6 * 21, 0), take(3 * 12 * 3 * 3, 1000));
        let xt = Tensor::<f64, Shape![2, 3, 6, 21]>::try_from_slice(&x).unwrap();
        let wt = Tensor::<f64, Shape![3, 12, 3, 3]>::try_from_slice(&w).unwrap();
        let y = tensor_expr!(conv_transpose2d(xt, wt, padding = 1));
        let o = TransposedOptions { padding: [[1, 1]; 2], ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv_transpose(&x, [2, 3, 6, 21], &w, [12, 3, 3], o)[..]);
        let y = tensor_expr!(conv_transpose2d(xt, wt, stride = [2, 3], padding = [[0, 1], [2, 0]], output_padding = [1, 2], dilation = [1, 2]));
        let o = TransposedOptions { stride: [2, 3], padding: [[0, 1], [2, 0]], output_padding: [1, 2], dilation: [1, 2], ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv_transpose(&x, [2, 3, 6, 21], &w, [12, 3, 3], o)[..]);

        // Fused: a bias per output channel and an activation, applied to
        // each tile before its store.
        let b = Tensor::<f64, Shape![12]>::try_from_slice(&take(12, 2000)).unwrap();
        let y = tensor_expr!(relu(conv_transpose2d(xt, wt, stride = 2) + in_dims(b, [1])));
        let o = TransposedOptions { stride: [2, 2], ..plain };
        let sums = naive_conv_transpose(&x, [2, 3, 6, 21], &w, [12, 3, 3], o);
        let plane = 13 * 43;
        let expected: Vec<f64> = sums.iter().enumerate().map(|(i, &s)| (s + b[[i / plane % 12]]).max(0.0)).collect();
        proptest::prop_assert_eq!(y.as_slice(), &expected[..]);

        // Groups of 2 input and 4 output channels, and depthwise.
        let (x, w) = (take(6 * 5 * 9, 0), take(6 * 4 * 2 * 3, 1500));
        let xt = Tensor::<f64, Shape![6, 5, 9]>::try_from_slice(&x).unwrap();
        let wt = Tensor::<f64, Shape![6, 4, 2, 3]>::try_from_slice(&w).unwrap();
        let y = tensor_expr!(conv_transpose2d(xt, wt, groups = 3, stride = 2, output_padding = 1));
        let o = TransposedOptions { stride: [2, 2], output_padding: [1, 1], groups: 3, ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv_transpose(&x, [1, 6, 5, 9], &w, [4, 2, 3], o)[..]);
        let wt = Tensor::<f64, Shape![6, 1, 2, 3]>::try_from_slice(&w[..36]).unwrap();
        let y = tensor_expr!(conv_transpose2d(xt, wt, groups = 6, padding = [1, 0]));
        let o = TransposedOptions { padding: [[1, 1], [0, 0]], groups: 6, ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv_transpose(&x, [1, 6, 5, 9], &w[..36], [1, 2, 3], o)[..]);

        // One spatial dim: a 4x upsampling of 8 channels to 16.
        let (x, w) = (take(2 * 8 * 30, 0), take(8 * 16 * 8, 1200));
        let xt = Tensor::<f64, Shape![2, 8, 30]>::try_from_slice(&x).unwrap();
        let wt = Tensor::<f64, Shape![8, 16, 8]>::try_from_slice(&w).unwrap();
        let y = tensor_expr!(conv_transpose1d(xt, wt, stride = 4, padding = 2));
        let o = TransposedOptions { stride: [1, 4], padding: [[0, 0], [2, 2]], ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &naive_conv_transpose(&x, [2, 8, 1, 30], &w, [16, 1, 8], o)[..]);

        // `f32` with a stride of 2 along the rows, whose tiles of 8
        // channels by 32, 16 and 8 columns the AVX-512 kernel sums in two
        // phases (`ops/conv/float.rs`, `transposed`): rows of 60 (the
        // three widths, then a narrower tile), both borders cropped; an
        // even dilation along the rows (every tap of a row in one phase)
        // and a vertical stride of 1; two groups of 8 output channels; a
        // bias and an activation applied to each tile; one dim.
        let as_f32 = |v: &[f64]| v.iter().map(|&v| v as f32).collect::<Vec<f32>>();
        let (x, w) = (take(2 * 4 * 7 * 30, 0), take(4 * 16 * 4 * 4, 1700));
        let xt = Tensor::<f32, Shape![2, 4, 7, 30]>::try_from_slice(&as_f32(&x)).unwrap();
        let wt = Tensor::<f32, Shape![4, 16, 4, 4]>::try_from_slice(&as_f32(&w)).unwrap();
        let y = tensor_expr!(conv_transpose2d(xt, wt, stride = 2, padding = 1));
        let o = TransposedOptions { stride: [2, 2], padding: [[1, 1]; 2], ..plain };
        let sums = naive_conv_transpose(&x, [2, 4, 7, 30], &w, [16, 4, 4], o);
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&sums)[..]);
        let b = Tensor::<f32, Shape![16]>::try_from_slice(&as_f32(&take(16, 2500))).unwrap();
        let y = tensor_expr!(relu(conv_transpose2d(xt, wt, stride = 2, padding = 1) + in_dims(b, [1])));
        let plane = 14 * 60;
        let expected: Vec<f32> = sums.iter().enumerate().map(|(i, &s)| (s as f32 + b[[i / plane % 16]]).max(0.0)).collect();
        proptest::prop_assert_eq!(y.as_slice(), &expected[..]);
        let wt = Tensor::<f32, Shape![4, 8, 3, 3]>::try_from_slice(&as_f32(&w[..4 * 8 * 9])).unwrap();
        let y = tensor_expr!(conv_transpose2d(xt, wt, stride = [1, 2], dilation = [1, 2], padding = [[0, 1], [3, 0]], output_padding = [0, 1]));
        let o = TransposedOptions { stride: [1, 2], dilation: [1, 2], padding: [[0, 1], [3, 0]], output_padding: [0, 1], ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&naive_conv_transpose(&x, [2, 4, 7, 30], &w[..4 * 8 * 9], [8, 3, 3], o))[..]);
        let (x, w) = (take(4 * 5 * 20, 0), take(4 * 8 * 2 * 3, 1900));
        let xt = Tensor::<f32, Shape![1, 4, 5, 20]>::try_from_slice(&as_f32(&x)).unwrap();
        let wt = Tensor::<f32, Shape![4, 8, 2, 3]>::try_from_slice(&as_f32(&w)).unwrap();
        let y = tensor_expr!(conv_transpose2d(xt, wt, groups = 2, stride = 2));
        let o = TransposedOptions { stride: [2, 2], groups: 2, ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&naive_conv_transpose(&x, [1, 4, 5, 20], &w, [8, 2, 3], o))[..]);
        // One dim: 16 output channels, rows of 80 (two tiles of 32, one of 16).
        let (x, w) = (take(2 * 4 * 40, 0), take(4 * 16 * 4, 2100));
        let xt = Tensor::<f32, Shape![2, 4, 40]>::try_from_slice(&as_f32(&x)).unwrap();
        let wt = Tensor::<f32, Shape![4, 16, 4]>::try_from_slice(&as_f32(&w)).unwrap();
        let y = tensor_expr!(conv_transpose1d(xt, wt, stride = 2, padding = 1));
        let o = TransposedOptions { stride: [1, 2], padding: [[0, 0], [1, 1]], ..plain };
        proptest::prop_assert_eq!(y.as_slice(), &as_f32(&naive_conv_transpose(&x, [2, 4, 1, 40], &w, [16, 1, 4], o))[..]);
    }
}
