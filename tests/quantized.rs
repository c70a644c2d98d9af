//! Int8 layers bit-exact with TFLite Micro: the vectors in
//! `tests/vectors/tflite_int8.txt` are TFLite Micro's outputs for models the
//! TFLite converter quantised (`tests/vectors/tflite_int8.py`), and each
//! layer here is one expression compared byte for byte.

use tensor_expr::prelude::*;

/// The values of `key` in case `name` of the vectors.
fn values(name: &str, key: &str) -> Vec<i64> {
    let text = include_str!("vectors/tflite_int8.txt");
    let case = text
        .split("case ")
        .find(|case| case.lines().next() == Some(name))
        .unwrap_or_else(|| panic!("no case {name}"));
    let line = case
        .lines()
        .find(|line| line.split(' ').next() == Some(key))
        .unwrap_or_else(|| panic!("no {key} in {name}"));
    line.split(' ')
        .skip(1)
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
    let (x, w, bias, m, s, zx, zy) = layer!("dense", Shape![4, 64], Shape![64, 32], 32);
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize((cast::<i32>(x) - zx) @ cast::<i32>(w) + bias, m, s) + zy
    ));
    assert_eq!(y.as_slice(), &i8s("dense", "y")[..]);
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
}
