//! Reductions, transposes, permutes and reshapes, with values checked against
//! ndarray (NumPy semantics: negative axes from the end, keepdim, the sizes of
//! the results).

mod common;

use ndarray::{ArrayD, Axis, IxDyn};
use tensor_expr::prelude::*;

/// Deterministic, irregular values for shape `S`.
fn sample<S: tensor_expr::Shape>() -> Tensor<f64, S> {
    let mut k = 0.0f64;
    Tensor::from_fn(|_| {
        k += 1.0;
        (k * 0.7).sin() * 3.0 + 0.5
    })
}

fn to_nd<S: tensor_expr::Shape>(t: &Tensor<f64, S>) -> ArrayD<f64> {
    common::array(t.as_slice(), S::DIMS)
}

/// NumPy's reduction of `a` over `axes` (negative from the end) by `fold`
/// (`mean` divides the sum afterwards), with or without keepdims.
fn nd_reduce(a: &ArrayD<f64>, axes: &[isize], keepdim: bool, op: &str) -> ArrayD<f64> {
    let rank = a.ndim() as isize;
    let mut axes: Vec<usize> = axes
        .iter()
        .map(|&x| {
            if x < 0 {
                (x + rank) as usize
            } else {
                x as usize
            }
        })
        .collect();
    axes.sort_unstable();
    let count: usize = axes.iter().map(|&x| a.shape()[x]).product();
    let mut out = a.clone();
    for &axis in axes.iter().rev() {
        out = match op {
            "sum" | "mean" => out.sum_axis(Axis(axis)),
            "prod" => out.fold_axis(Axis(axis), 1.0, |acc, x| acc * x),
            "max" => out.fold_axis(Axis(axis), f64::NEG_INFINITY, |acc, x| acc.max(*x)),
            "min" => out.fold_axis(Axis(axis), f64::INFINITY, |acc, x| acc.min(*x)),
            _ => unreachable!(),
        };
    }
    if op == "mean" {
        out.mapv_inplace(|x| x / count as f64);
    }
    if keepdim {
        for &axis in &axes {
            out = out.insert_axis(Axis(axis));
        }
    }
    out
}

fn assert_close(actual: &[f64], dims: &[usize], expected: &ArrayD<f64>) {
    assert_eq!(dims, expected.shape(), "shape");
    let expected: Vec<f64> = expected.iter().copied().collect();
    for (k, (a, e)) in actual.iter().zip(&expected).enumerate() {
        assert!(
            (a - e).abs() <= 1e-9 * (1.0 + e.abs()),
            "element {k}: {a} != {e}"
        );
    }
}

/// Every reduction over `axes` of a sample of shape `[dims]`, with and without
/// keepdim, against ndarray. (The reduction names are written out: a name
/// passed in as a macro fragment would carry another hygiene context than the
/// `tensor_expr!` call, see the README's limitations.)
macro_rules! check_reductions {
    ([$($dim:literal),*], [$($axis:literal),*]) => {{
        let x = sample::<Shape![$($dim),*]>();
        let nd = to_nd(&x);
        let axes = [$($axis),*];
        macro_rules! check {
            ($name:literal, $keepdim:literal, $y:expr) => {{
                let y = $y;
                assert_close(y.as_slice(), y.shape(), &nd_reduce(&nd, &axes, $keepdim, $name));
            }};
        }
        check!("sum", false, tensor_expr!(sum(x, [$($axis),*])));
        check!("sum", true, tensor_expr!(sum(x, [$($axis),*], keepdim)));
        check!("mean", false, tensor_expr!(mean(x, [$($axis),*])));
        check!("mean", true, tensor_expr!(mean(x, [$($axis),*], keepdim)));
        check!("prod", false, tensor_expr!(prod(x, [$($axis),*])));
        check!("prod", true, tensor_expr!(prod(x, [$($axis),*], keepdim)));
        check!("max", false, tensor_expr!(max(x, [$($axis),*])));
        check!("max", true, tensor_expr!(max(x, [$($axis),*], keepdim)));
        check!("min", false, tensor_expr!(min(x, [$($axis),*])));
        check!("min", true, tensor_expr!(min(x, [$($axis),*], keepdim)));
    }};
}

#[test]
fn every_reduction_over_every_kind_of_axis_list() {
    check_reductions!([5], [0]);
    check_reductions!([3, 40], [1]); // the last axis, longer than the 16-lane fold
    check_reductions!([3, 40], [-1]);
    check_reductions!([3, 40], [0]); // an outer axis
    check_reductions!([2, 3, 4], [0, 2]);
    check_reductions!([2, 3, 4], [2, 0]); // any order
    check_reductions!([2, 3, 4], [-3, -2]);
    check_reductions!([2, 3, 4], [0, 1, 2]);
    check_reductions!([2, 1, 3, 5], [1, 3]); // a size-1 axis among them
    check_reductions!([2, 3, 2, 2, 3], [0, 2, 4]);
    // Size-1 axes dropped without keepdim, last or among others.
    check_reductions!([3, 1], [1]);
    check_reductions!([3, 1], [0]);
    check_reductions!([2, 3, 1], [0, 2]);
    check_reductions!([3, 1, 1], [1, 2]);
    check_reductions!([3, 1, 4], [1]);
    check_reductions!([1, 5, 1], [0, 2]);
    check_reductions!([4, 3, 1], [1, 2]);
}

/// Every subset of the axes of a shape with size-1 dims among its others,
/// first and last, with and without keepdim.
#[test]
fn every_subset_of_axes_with_size_1_dims() {
    check_reductions!([1, 2, 1, 3, 1], [0]);
    check_reductions!([1, 2, 1, 3, 1], [1]);
    check_reductions!([1, 2, 1, 3, 1], [2]);
    check_reductions!([1, 2, 1, 3, 1], [3]);
    check_reductions!([1, 2, 1, 3, 1], [4]);
    check_reductions!([1, 2, 1, 3, 1], [0, 1]);
    check_reductions!([1, 2, 1, 3, 1], [0, 2]);
    check_reductions!([1, 2, 1, 3, 1], [0, 3]);
    check_reductions!([1, 2, 1, 3, 1], [0, 4]);
    check_reductions!([1, 2, 1, 3, 1], [1, 2]);
    check_reductions!([1, 2, 1, 3, 1], [1, 3]);
    check_reductions!([1, 2, 1, 3, 1], [1, 4]);
    check_reductions!([1, 2, 1, 3, 1], [2, 3]);
    check_reductions!([1, 2, 1, 3, 1], [2, 4]);
    check_reductions!([1, 2, 1, 3, 1], [3, 4]);
    check_reductions!([1, 2, 1, 3, 1], [0, 1, 2]);
    check_reductions!([1, 2, 1, 3, 1], [0, 1, 3]);
    check_reductions!([1, 2, 1, 3, 1], [0, 2, 4]);
    check_reductions!([1, 2, 1, 3, 1], [1, 2, 3]);
    check_reductions!([1, 2, 1, 3, 1], [1, 3, 4]);
    check_reductions!([1, 2, 1, 3, 1], [2, 3, 4]);
    check_reductions!([1, 2, 1, 3, 1], [0, 1, 2, 3]);
    check_reductions!([1, 2, 1, 3, 1], [1, 2, 3, 4]);
    check_reductions!([1, 2, 1, 3, 1], [0, 2, 3, 4]);
    check_reductions!([1, 2, 1, 3, 1], [0, 1, 2, 3, 4]);
}

#[test]
fn reducing_every_axis() {
    let x = sample::<Shape![3, 4, 5]>();
    let total: Tensor<f64, Shape![]> = tensor_expr!(sum(x));
    assert!((total.as_slice()[0] - x.as_slice().iter().sum::<f64>()).abs() < 1e-9);
    let kept: Tensor<f64, Shape![1, 1, 1]> = tensor_expr!(max(x, keepdim));
    let expected = x
        .as_slice()
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(kept.as_slice(), &[expected]);
}

#[test]
fn a_reduction_broadcast_back_against_its_input() {
    let x = sample::<Shape![6, 33]>();
    let nd = to_nd(&x);
    // Centring along each row, and along each column (outer axis).
    let rows = tensor_expr!(x - mean(x, [1], keepdim));
    let expected = &nd - &nd_reduce(&nd, &[1], true, "mean");
    assert_close(rows.as_slice(), rows.shape(), &expected);
    let columns = tensor_expr!(x - mean(x, [0], keepdim));
    let expected = &nd - &nd_reduce(&nd, &[0], true, "mean");
    assert_close(columns.as_slice(), columns.shape(), &expected);
    // Standardising along columns: the centred values are read by the output
    // and, whole column by whole column, by the variance.
    let z = tensor_expr!(
        (x - mean(x, [0], keepdim)) / sqrt(mean(square(x - mean(x, [0], keepdim)), [0], keepdim))
    );
    let centred = &nd - &nd_reduce(&nd, &[0], true, "mean");
    let variance = nd_reduce(&centred.mapv(|v| v * v), &[0], true, "mean");
    let expected = &centred / &variance.mapv(f64::sqrt);
    assert_close(z.as_slice(), z.shape(), &expected);
}

/// A reduction over the last axis computes the row the next output row reads
/// while the present one is read; these outputs revisit its rows, or read one
/// row for several output rows, or read it from two places.
#[test]
fn a_reduction_read_ahead_serves_every_output_row() {
    let x = sample::<Shape![3, 7]>();
    let y = sample::<Shape![2, 3, 7]>();
    let (nd, yn) = (to_nd(&x), to_nd(&y));
    let row_max = nd_reduce(&nd, &[1], true, "max");
    // Rows 0, 1, 2, 0, 1, 2: the row after the last is the first again.
    let batched = tensor_expr!(y - max(x, [1], keepdim));
    assert_close(batched.as_slice(), batched.shape(), &(&yn - &row_max));
    // Rows 0, 0, 0, 0, 1, ...: the next output row reads the same row.
    let z = sample::<Shape![3, 1, 7]>();
    let w = sample::<Shape![3, 4, 7]>();
    let (zn, wn) = (to_nd(&z), to_nd(&w));
    let stretched = tensor_expr!(w - sum(z, [2], keepdim));
    assert_close(
        stretched.as_slice(),
        stretched.shape(),
        &(&wn - &nd_reduce(&zn, &[2], true, "sum")),
    );
    // The max read by the output and, row by row, by a sum over its input
    // (which holds a cached node, so only the max reads ahead).
    let nested =
        tensor_expr!(sum(x - max(x, [1], keepdim), [1], keepdim) * max(x, [1], keepdim) + y);
    let centred_sum = nd_reduce(&(&nd - &row_max), &[1], true, "sum");
    assert_close(
        nested.as_slice(),
        nested.shape(),
        &(&(&centred_sum * &row_max) + &yn),
    );
}

#[test]
fn softmax_and_layer_norm_match_ndarray() {
    let x = sample::<Shape![4, 37]>();
    let nd = to_nd(&x);
    let p = tensor_expr!(
        exp(x - max(x, [1], keepdim)) / sum(exp(x - max(x, [1], keepdim)), [1], keepdim)
    );
    let e = (&nd - &nd_reduce(&nd, &[1], true, "max")).mapv(f64::exp);
    let expected = &e / &nd_reduce(&e, &[1], true, "sum");
    assert_close(p.as_slice(), p.shape(), &expected);

    let gamma = sample::<Shape![37]>();
    let beta: Tensor<f64, Shape![37]> = tensor_expr!(gamma * 0.5);
    let y = tensor_expr!(
        (x - mean(x, [-1], keepdim))
            / sqrt(mean(square(x - mean(x, [-1], keepdim)), [-1], keepdim) + 1e-5)
            * gamma
            + beta
    );
    let centred = &nd - &nd_reduce(&nd, &[1], true, "mean");
    let std = nd_reduce(&centred.mapv(|v| v * v), &[1], true, "mean").mapv(|v| (v + 1e-5).sqrt());
    let expected = &(&(&centred / &std) * &to_nd(&gamma)) + &to_nd(&beta);
    assert_close(y.as_slice(), y.shape(), &expected);
}

/// A softmax over rows of each length whose shared `exp` row is filled in
/// chunks in an optimised build (4 to 31 elements: chunks of 8 or 4, the
/// rest by a chunk of 8, 4 or 2 overlapping the one before it), and of
/// the lengths around them. CI runs it with the feature
/// `every-level-in-debug`, which fills in chunks in a debug build too.
#[test]
fn softmax_over_short_rows_matches_ndarray() {
    macro_rules! rows_of {
        ($($len:literal)*) => {$({
            let x = sample::<Shape![3, $len]>();
            let nd = to_nd(&x);
            let p = tensor_expr!(softmax(x, [1]));
            let e = (&nd - &nd_reduce(&nd, &[1], true, "max")).mapv(f64::exp);
            let expected = &e / &nd_reduce(&e, &[1], true, "sum");
            assert_close(p.as_slice(), p.shape(), &expected);
        })*};
    }
    rows_of!(3 4 5 7 8 9 10 12 15 16 17 23 31 32 33);
}

#[test]
fn integer_reductions() {
    let x: Tensor<i32, Shape![2, 3]> = tensor![[1, -2, 3], [4, 5, -6]];
    assert_eq!(tensor_expr!(sum(x, [1])).as_slice(), &[2, 3]);
    assert_eq!(tensor_expr!(prod(x, [0])).as_slice(), &[4, -10, -18]);
    assert_eq!(tensor_expr!(max(x, [0])).as_slice(), &[4, 5, 3]);
    assert_eq!(tensor_expr!(min(x)).as_slice(), &[-6]);
}

#[test]
fn transpose_and_permute_read_in_place() {
    let x = sample::<Shape![2, 3, 4]>();
    let nd = to_nd(&x);
    let t = tensor_expr!(transpose(x));
    let expected = nd.clone().permuted_axes(IxDyn(&[0, 2, 1]));
    assert_close(
        t.as_slice(),
        t.shape(),
        &expected.as_standard_layout().to_owned(),
    );
    for_each_permutation(&x, &nd);
    // Broadcast against another operand, and as the right operand of `@`.
    let v = sample::<Shape![3]>();
    let s = tensor_expr!(transpose(x) * v);
    let expected = &nd.clone().permuted_axes(IxDyn(&[0, 2, 1])) * &to_nd(&v);
    assert_close(s.as_slice(), s.shape(), &expected);
    let q = sample::<Shape![5, 4]>();
    let k = sample::<Shape![6, 4]>();
    let scores = tensor_expr!(q @ transpose(k) / 2.0);
    let (qn, kn) = (to_nd(&q), to_nd(&k));
    let expected = ArrayD::from_shape_fn(IxDyn(&[5, 6]), |i| {
        (0..4).map(|c| qn[[i[0], c]] * kn[[i[1], c]]).sum::<f64>() / 2.0
    });
    assert_close(scores.as_slice(), scores.shape(), &expected);
}

fn for_each_permutation(x: &Tensor<f64, Shape![2, 3, 4]>, nd: &ArrayD<f64>) {
    macro_rules! check {
        ($($p:literal),*) => {{
            let y = tensor_expr!(permute(x, [$($p),*]));
            let expected = nd.clone().permuted_axes(IxDyn(&[$($p),*])).as_standard_layout().to_owned();
            assert_close(y.as_slice(), y.shape(), &expected);
        }};
    }
    check!(0, 1, 2);
    check!(0, 2, 1);
    check!(1, 0, 2);
    check!(1, 2, 0);
    check!(2, 0, 1);
    check!(2, 1, 0);
}

#[test]
fn reshape_reads_the_same_elements_as_another_shape() {
    let x = sample::<Shape![8, 64]>();
    let f = tensor_expr!(reshape::<Shape![8, 8, 8]>(x) * 2);
    assert_eq!(f.shape(), &[8, 8, 8]);
    for (a, b) in f.as_slice().iter().zip(x.as_slice()) {
        assert_eq!(*a, b * 2.0);
    }
    let v = sample::<Shape![64]>();
    let outer = tensor_expr!(reshape::<Shape![64, 1]>(v) * reshape::<Shape![1, 64]>(v));
    assert_eq!(outer.shape(), &[64, 64]);
    assert_eq!(outer[[3, 5]], v.as_slice()[3] * v.as_slice()[5]);
}

#[test]
fn a_reduction_of_a_product_and_in_place_updates() {
    let a = sample::<Shape![3, 4]>();
    let b = sample::<Shape![4, 5]>();
    let rows = tensor_expr!(sum(a @ b, [1]));
    let (an, bn) = (to_nd(&a), to_nd(&b));
    let product = ArrayD::from_shape_fn(IxDyn(&[3, 5]), |i| {
        (0..4).map(|c| an[[i[0], c]] * bn[[c, i[1]]]).sum::<f64>()
    });
    assert_close(
        rows.as_slice(),
        rows.shape(),
        &nd_reduce(&product, &[1], false, "sum"),
    );
    let mut out = Tensor::<f64, Shape![3, 4]>::zeros();
    tensor_expr!(out += a - mean(a, [1], keepdim));
    let expected = &an - &nd_reduce(&an, &[1], true, "mean");
    assert_close(out.as_slice(), out.shape(), &expected);
}

#[test]
fn a_shared_subexpression_walked_by_an_outer_reduction_and_beside_a_product() {
    let x = sample::<Shape![5, 7]>();
    let nd = to_nd(&x);
    let e = nd.mapv(f64::exp);
    // `exp(x)` is shared; the column sum walks all its rows while the output
    // row reads one.
    let columns = tensor_expr!(exp(x) / sum(exp(x), [0], keepdim));
    assert_close(
        columns.as_slice(),
        columns.shape(),
        &(&e / &nd_reduce(&e, &[0], true, "sum")),
    );
    let squeezed = tensor_expr!(exp(x) - max(exp(x), [0]));
    assert_close(
        squeezed.as_slice(),
        squeezed.shape(),
        &(&e - &nd_reduce(&e, &[0], false, "max")),
    );
    // A product in the same expression: the nest walks rows, not tiles.
    let a = sample::<Shape![5, 3]>();
    let b = sample::<Shape![3, 7]>();
    let mixed = tensor_expr!(exp(x) / sum(exp(x), [1], keepdim) + a @ b);
    let (an, bn) = (to_nd(&a), to_nd(&b));
    let product = ArrayD::from_shape_fn(IxDyn(&[5, 7]), |i| {
        (0..3).map(|c| an[[i[0], c]] * bn[[c, i[1]]]).sum::<f64>()
    });
    let expected = &(&e / &nd_reduce(&e, &[1], true, "sum")) + &product;
    assert_close(mixed.as_slice(), mixed.shape(), &expected);
    // The shared node as both operands of `@`.
    let s = sample::<Shape![4, 4]>();
    let sn = to_nd(&s).mapv(f64::exp);
    let square = tensor_expr!(exp(s) @ exp(s) + exp(s));
    let expected = ArrayD::from_shape_fn(IxDyn(&[4, 4]), |i| {
        (0..4).map(|c| sn[[i[0], c]] * sn[[c, i[1]]]).sum::<f64>() + sn[[i[0], i[1]]]
    });
    assert_close(square.as_slice(), square.shape(), &expected);
}

#[test]
fn a_shared_row_sums_itself_as_the_sum_would() {
    // `exp(x)` is written twice, so it is shared: its row is filled once and
    // summed in the same pass, and the reductions read that sum. Written once,
    // `sum(exp(x), ..)` folds the row itself. The two must agree to the bit
    // (same order of additions), row by row, for `sum` and `mean` (rows of
    // 150: two rounds of the fold's four groups of 16 partial results, one
    // round of a single group, and a tail of 6).
    let x = Tensor::<f32, Shape![3, 150]>::from_flat_fn(|k| (k as f32 * 0.61).sin() * 3.0);
    let e = tensor_expr!(exp(x));
    let sums = tensor_expr!(sum(exp(x), [1], keepdim));
    let means = tensor_expr!(mean(exp(x), [1], keepdim));
    let shared_sum = tensor_expr!(exp(x) / sum(exp(x), [1], keepdim));
    let shared_mean = tensor_expr!(exp(x) - mean(exp(x), [1], keepdim));
    for r in 0..3 {
        for c in 0..150 {
            let k = r * 150 + c;
            let v = e.as_slice()[k];
            assert_eq!(
                shared_sum.as_slice()[k].to_bits(),
                (v / sums.as_slice()[r]).to_bits()
            );
            assert_eq!(
                shared_mean.as_slice()[k].to_bits(),
                (v - means.as_slice()[r]).to_bits()
            );
        }
    }
    // Against a plain sum, within rounding: the row is the right row.
    for r in 0..3 {
        let plain: f32 = e.as_slice()[r * 150..(r + 1) * 150].iter().sum();
        assert!(
            (sums.as_slice()[r] - plain).abs() <= 1e-5 * plain,
            "row {r}"
        );
    }
}

#[test]
fn a_long_row_keeps_its_nan_wherever_it_sits() {
    // `max` and `min` fold long rows with a compare-and-select that may drop
    // a NaN, and look for NaN apart: a NaN in any lane, round or the tail
    // must still make the result NaN (np.max), and a row without one must
    // give its exact extreme (rows of 150: each of the four groups of
    // partial results, a round of one group, and the tail).
    for at in 0..150 {
        let x = Tensor::<f32, Shape![2, 150]>::from_flat_fn(|k| {
            if k == at {
                f32::NAN
            } else {
                (k as f32 * 0.37).sin()
            }
        });
        let (max, min) = (tensor_expr!(max(x, [1])), tensor_expr!(min(x, [1])));
        assert!(max.as_slice()[0].is_nan(), "max, NaN at column {at}");
        assert!(min.as_slice()[0].is_nan(), "min, NaN at column {at}");
        let clean = &x.as_slice()[150..];
        assert_eq!(
            max.as_slice()[1],
            clean.iter().copied().fold(f32::MIN, f32::max)
        );
        assert_eq!(
            min.as_slice()[1],
            clean.iter().copied().fold(f32::MAX, f32::min)
        );
    }
}

/// A reduction along rows of a product of stored rows (in a debug build, a
/// dot product compiled in the runtime) gives exactly the values of the
/// same reduction of the product computed first: the same lanes, in the
/// same order. Rows of 70 (more than the lanes), a broadcast row, and
/// each fold.
#[test]
fn folds_of_products_of_stored_rows_match_the_computed_product() {
    let x = sample::<Shape![5, 70]>();
    let mut k = 0.0f64;
    let w = Tensor::<f64, Shape![70]>::from_fn(|_| {
        k += 1.0;
        (k * 1.3).cos() * 2.0 - 0.25
    });
    let product = tensor_expr!(x * w);
    assert_eq!(
        tensor_expr!(sum(x * w, [1])),
        tensor_expr!(sum(product, [1]))
    );
    assert_eq!(
        tensor_expr!(mean(x * w, [1])),
        tensor_expr!(mean(product, [1]))
    );
    assert_eq!(
        tensor_expr!(max(x * w, [1])),
        tensor_expr!(max(product, [1]))
    );
    assert_eq!(
        tensor_expr!(prod(x * x, [1])),
        tensor_expr!(prod(x * x + 0.0, [1]))
    );
    // An exact check of one row against a plain loop, in the lanes' order
    // not assumed: integers.
    let a = Tensor::<i64, Shape![3, 40]>::from_fn(|[i, j]| (i * 7 + j * 3) as i64 % 11 - 5);
    let b = Tensor::<i64, Shape![40]>::from_fn(|[j]| (j as i64 * 5) % 7 - 3);
    let dots = tensor_expr!(sum(a * b, [1]));
    for i in 0..3 {
        let expected: i64 = (0..40).map(|j| a[[i, j]] * b[[j]]).sum();
        assert_eq!(dots[[i]], expected);
    }
}
