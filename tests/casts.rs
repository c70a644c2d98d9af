//! `cast::<U>(e)` and `saturating_cast::<U>(e)` inside expressions: Rust's
//! `as` and the clamped conversion, element by element, in every walk (flat,
//! rows, tiles) and around products whose operands stay narrow.

use tensor_expr::prelude::*;

#[test]
fn cast_is_rusts_as_for_every_walk() {
    let x = Tensor::<f32, Shape![2, 3]>::new([[-1.5, 2.7, 300.2], [f32::NAN, -200.9, 1e10]]);
    let flat = tensor_expr!(cast::<i8>(x));
    let expected = x.as_slice().iter().map(|&v| v as i8).collect::<Vec<_>>();
    assert_eq!(flat.as_slice(), &expected[..]);
    let row = Tensor::<f32, Shape![3]>::new([0.5, 0.25, 0.125]);
    // Broadcast: walked row by row.
    let rows = tensor_expr!(cast::<i32>(x * 10.0 + row));
    let expected: Vec<i32> = (0..6)
        .map(|i| (x.as_slice()[i] * 10.0 + row.as_slice()[i % 3]) as i32)
        .collect();
    assert_eq!(rows.as_slice(), &expected[..]);
}

#[test]
fn saturating_cast_clamps_integers() {
    let acc = Tensor::<i32, Shape![5]>::new([-1000, -129, -128, 127, 70000]);
    let y = tensor_expr!(saturating_cast::<i8>(acc));
    assert_eq!(y.as_slice(), &[-128, -128, -128, 127, 127]);
    let wrapped = tensor_expr!(cast::<i8>(acc));
    assert_eq!(wrapped.as_slice(), &[24, 127, -128, 127, 112]);
    let unsigned = tensor_expr!(saturating_cast::<u8>(acc));
    assert_eq!(unsigned.as_slice(), &[0, 0, 0, 127, 255]);
}

#[test]
fn widening_product_reads_narrow_operands() {
    let x = Tensor::<i8, Shape![3, 40]>::from_fn(|[i, k]| ((i * 37 + k * 11) % 256) as u8 as i8);
    let w = Tensor::<i8, Shape![40, 20]>::from_fn(|[k, j]| ((k * 5 + j * 71) % 256) as u8 as i8);
    let zx = 7i32;
    let y = tensor_expr!((cast::<i32>(x) - zx) @ cast::<i32>(w));
    for i in 0..3 {
        for j in 0..20 {
            let expected: i32 = (0..40)
                .map(|k| (i32::from(x[[i, k]]) - zx) * i32::from(w[[k, j]]))
                .sum();
            assert_eq!(y[[i, j]], expected, "at [{i}, {j}]");
        }
    }
}

#[test]
fn the_outer_type_comes_from_the_cast_or_the_target() {
    let x = Tensor::<i8, Shape![2, 2]>::new([[1, -2], [3, -4]]);
    // No operand outside the cast: the cast's type is the expression's.
    let y = tensor_expr!(cast::<f32>(x) * 0.5);
    assert_eq!(y.as_slice(), &[0.5, -1.0, 1.5, -2.0]);
    let mut out = Tensor::<i64, Shape![2, 2]>::zeros();
    tensor_expr!(out = cast::<i64>(x) * 3_000_000_000);
    assert_eq!(
        out.as_slice(),
        &[
            3_000_000_000,
            -6_000_000_000,
            9_000_000_000,
            -12_000_000_000
        ]
    );
    // The target read inside a cast to its own type.
    tensor_expr!(out = cast::<i64>(out) + 1);
    assert_eq!(out[[0, 0]], 3_000_000_001);
}

/// Bytes spread over the whole `i8` range, `-128` and `127` included.
fn bytes<S: Shape>(seed: usize) -> Tensor<i8, S> {
    let mut t = Tensor::<i8, S>::zeros();
    for (i, v) in t.as_mut_slice().iter_mut().enumerate() {
        *v = ((i * 7919 + seed * 104_729) % 256) as u8 as i8;
    }
    t
}

/// The widening product read from the bytes (tiles of 8, 4 and 1 rows by
/// 32 and 16 columns, and a row's wide tiles, where the CPU has VNNI) against the same product of
/// tensors widened first, with a zero point as a literal and as a value.
#[test]
fn widening_products_match_the_widened_product() {
    let x = bytes::<Shape![2, 13, 64]>(1);
    let w = bytes::<Shape![64, 48]>(2);
    let (xw, ww) = (x.cast::<i32>(), w.cast::<i32>());
    let zx = -128i32;
    let expected = tensor_expr!((xw - zx) @ ww);
    assert_eq!(
        tensor_expr!((cast::<i32>(x) - zx) @ cast::<i32>(w)),
        expected
    );
    let expected = tensor_expr!((xw + 3) @ ww);
    assert_eq!(
        tensor_expr!((cast::<i32>(x) + 3) @ cast::<i32>(w)),
        expected
    );
    let expected = tensor_expr!(xw @ ww);
    assert_eq!(tensor_expr!(cast::<i32>(x) @ cast::<i32>(w)), expected);
    // A batch of right operands, and a contraction not a multiple of 4
    // (the general path).
    let wb = bytes::<Shape![2, 64, 32]>(3);
    let expected = tensor_expr!(xw @ wb.cast::<i32>());
    assert_eq!(tensor_expr!(cast::<i32>(x) @ cast::<i32>(wb)), expected);
    // One row: wide tiles (128 columns with AVX-512, the kernel's blocks
    // of 32), then the rest.
    let (x, w) = (bytes::<Shape![1, 64]>(8), bytes::<Shape![64, 176]>(9));
    let expected = tensor_expr!((x.cast::<i32>() - 5) @ w.cast::<i32>());
    assert_eq!(
        tensor_expr!((cast::<i32>(x) - 5) @ cast::<i32>(w)),
        expected
    );
    let (x, w) = (bytes::<Shape![9, 30]>(4), bytes::<Shape![30, 32]>(5));
    let expected = tensor_expr!(x.cast::<i32>() @ w.cast::<i32>());
    assert_eq!(tensor_expr!(cast::<i32>(x) @ cast::<i32>(w)), expected);
}

/// A convolution of `cast::<i32>(x) - c` reads `x`'s bytes in place (no
/// widened copy): the same values as the convolution of tensors widened
/// first, channels first and last, padded (a padded tap contributes zero,
/// as TFLite's input zero point does), with a literal and a variable
/// constant, and a float convolution of int8 data.
#[test]
fn convolutions_read_widened_inputs() {
    let x = bytes::<Shape![2, 3, 7, 9]>(6);
    let w = bytes::<Shape![4, 3, 3, 3]>(7);
    let (xw, ww) = (x.cast::<i32>(), w.cast::<i32>());
    let zx = -128i32;
    let expected = tensor_expr!(conv2d(xw - zx, ww, padding = 1));
    let y = tensor_expr!(conv2d(cast::<i32>(x) - zx, cast::<i32>(w), padding = 1));
    assert_eq!(y, expected);
    let expected = tensor_expr!(conv2d(xw + 7, ww, stride = 2));
    assert_eq!(
        tensor_expr!(conv2d(cast::<i32>(x) + 7, cast::<i32>(w), stride = 2)),
        expected
    );
    let (xl, wl) = (
        bytes::<Shape![1, 6, 5, 8]>(8),
        bytes::<Shape![8, 3, 3, 1]>(9),
    );
    let expected = tensor_expr!(conv2d(
        xl.cast::<i32>() - 3,
        wl.cast::<i32>(),
        padding = same,
        groups = 8,
        layout = nhwc
    ));
    let y = tensor_expr!(conv2d(
        cast::<i32>(xl) - 3,
        cast::<i32>(wl),
        padding = same,
        groups = 8,
        layout = nhwc
    ));
    assert_eq!(y, expected);
    let wf = Tensor::<f32, Shape![4, 3, 3, 3]>::from_fn(|[o, c, i, j]| {
        (o + c) as f32 * 0.5 - (i * j) as f32
    });
    let expected = tensor_expr!(conv2d(x.cast::<f32>(), wf, padding = 1));
    assert_eq!(
        tensor_expr!(conv2d(cast::<f32>(x), wf, padding = 1)),
        expected
    );
    // The zero point as an operand of shape `()`; `saturating_cast` (the
    // same values from `i8`); and the widened input written again outside
    // the convolution, where it is an ordinary (shared) subexpression.
    let zero_point = Tensor::<i32, Shape![]>::from_fn(|_| -5);
    let expected = tensor_expr!(conv2d(xw - zero_point, ww, padding = 1));
    assert_eq!(
        tensor_expr!(conv2d(
            cast::<i32>(x) - zero_point,
            cast::<i32>(w),
            padding = 1
        )),
        expected
    );
    assert_eq!(
        tensor_expr!(conv2d(
            saturating_cast::<i32>(x) - zero_point,
            cast::<i32>(w),
            padding = 1
        )),
        expected
    );
    let square = bytes::<Shape![3, 3, 3, 3]>(10);
    let expected = tensor_expr!(conv2d(xw - 2, square.cast::<i32>(), padding = 1) + (xw - 2));
    let y = tensor_expr!(
        conv2d(cast::<i32>(x) - 2, cast::<i32>(square), padding = 1) + (cast::<i32>(x) - 2)
    );
    assert_eq!(y, expected);
}
