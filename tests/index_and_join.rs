//! `argmax`/`argmin` (against NumPy's documented results and ndarray), and
//! `concat`/`stack` (against ndarray's `concatenate`/`stack`).

use ndarray::{Array, Axis as NdAxis};
use tensor_expr::prelude::*;

/// NumPy's `argmax` docstring: `a = np.arange(6).reshape(2, 3) + 10`.
#[test]
fn argmax_matches_numpys_examples() {
    let a = Tensor::<i32, Shape![2, 3]>::from_fn(|[i, j]| (3 * i + j) as i32 + 10);
    assert_eq!(a.argmax::<0>().as_slice(), &[1, 1, 1]);
    assert_eq!(a.argmax::<1>().as_slice(), &[2, 2]);
    // `b = np.arange(6); b[1] = 5; np.argmax(b)` is 1: the first occurrence.
    let b = Tensor::<i32, Shape![6]>::new([0, 5, 2, 3, 4, 5]);
    assert_eq!(b.argmax::<0>()[[]], 1);
    // keepdims: the result broadcasts against `a`.
    let kept = a.argmax_keepdim::<1>();
    assert_eq!(kept.shape(), &[2, 1]);
    assert_eq!(kept.as_slice(), &[2, 2]);
    assert_eq!(a.argmin::<1>().as_slice(), &[0, 0]);
    assert_eq!(a.argmin_keepdim::<0>().shape(), &[1, 3]);
}

/// NumPy: "In case of multiple occurrences of the maximum values, the
/// indices corresponding to the first occurrence are returned", and a NaN
/// is the answer where present (`np.argmax([1, nan, 3]) == 1`).
#[test]
fn ties_and_nan_as_numpy() {
    let x = Tensor::<f64, Shape![3, 4]>::new([
        [1.0, 3.0, 3.0, 0.0],
        [f64::NAN, 9.0, f64::NAN, -1.0],
        [2.0, 2.0, 2.0, 2.0],
    ]);
    assert_eq!(x.argmax::<1>().as_slice(), &[1, 0, 0]);
    assert_eq!(x.argmin::<1>().as_slice(), &[3, 0, 0]);
    assert_eq!(x.argmax::<0>().as_slice(), &[1, 1, 1, 2]);
    assert_eq!(x.argmin::<0>().as_slice(), &[1, 2, 1, 1]);
    let heap = x.to_heap();
    assert_eq!(heap.view().argmax::<1>(), x.argmax::<1>());
}

/// Inside `tensor_expr!`, around the whole expression: a classifier's
/// prediction is `argmax(x @ w + b, [1])`. Checked against the expression's
/// values scanned by hand, and against the method on an operand.
#[test]
fn argmax_of_an_expression() {
    let x = Tensor::<f32, Shape![4, 3]>::from_fn(|[i, j]| (i as f32 - 1.5) * (j as f32 + 0.5));
    let w = Tensor::<f32, Shape![3, 5]>::from_fn(|[i, j]| ((i * 5 + j) % 7) as f32 - 3.0);
    let b: Tensor<f32, Shape![5]> = tensor![0.5, -1., 0., 2., -0.5];
    let logits = tensor_expr!(x @ w + b);
    let predicted = tensor_expr!(argmax(x @ w + b, [1]));
    let _: &Tensor<usize, Shape![4]> = &predicted;
    for (i, &p) in predicted.iter().enumerate() {
        let row = &logits.as_slice()[i * 5..][..5];
        let best = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(p, row.iter().position(|&v| v == best).unwrap());
    }
    // `argmin`, `keepdim` and an operand read in place (no copy).
    assert_eq!(tensor_expr!(argmin(logits, [0])), logits.argmin::<0>());
    let kept = tensor_expr!(argmax(relu(logits), [1], keepdim));
    assert_eq!(kept.shape(), &[4, 1]);
    let relu = tensor_expr!(relu(logits));
    assert_eq!(kept.as_slice(), relu.argmax::<1>().as_slice());
    // In strict mode too, and over a heap tensor's expression.
    let heap = logits.to_heap();
    assert_eq!(
        tensor_expr!(strict: argmax(heap * 2.0, [1])),
        logits.argmax::<1>()
    );
}

#[test]
fn argmax_agrees_with_ndarray_on_every_axis() {
    let x = Tensor::<i64, Shape![3, 4, 5]>::from_fn(|[i, j, k]| {
        ((i * 7 + j * 13 + k * 29) % 17) as i64
    });
    let nd = Array::from_shape_vec((3, 4, 5), x.to_vec()).unwrap();
    let first_max = |lane: ndarray::ArrayView1<i64>| {
        let m = *lane.iter().max().unwrap();
        lane.iter().position(|&v| v == m).unwrap()
    };
    assert_eq!(
        x.argmax::<0>().to_vec(),
        nd.map_axis(NdAxis(0), first_max)
            .iter()
            .copied()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        x.argmax::<1>().to_vec(),
        nd.map_axis(NdAxis(1), first_max)
            .iter()
            .copied()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        x.argmax::<2>().to_vec(),
        nd.map_axis(NdAxis(2), first_max)
            .iter()
            .copied()
            .collect::<Vec<_>>()
    );
}

#[test]
fn concat_matches_ndarray() {
    let a = Tensor::<i32, Shape![2, 3, 4]>::from_fn(|[i, j, k]| (100 * i + 10 * j + k) as i32);
    let b = Tensor::<i32, Shape![2, 3, 2]>::from_fn(|[i, j, k]| -((100 * i + 10 * j + k) as i32));
    let (na, nb) = (
        Array::from_shape_vec((2, 3, 4), a.to_vec()).unwrap(),
        Array::from_shape_vec((2, 3, 2), b.to_vec()).unwrap(),
    );
    let c: Tensor<i32, Shape![2, 3, 6]> = concat(Axis::<2>, &a, &b);
    let expected = ndarray::concatenate(NdAxis(2), &[na.view(), nb.view()]).unwrap();
    assert_eq!(c.to_vec(), expected.iter().copied().collect::<Vec<_>>());
    let rows: Tensor<i32, Shape![4, 3, 4]> = concat(Axis::<0>, &a, a.view());
    let expected = ndarray::concatenate(NdAxis(0), &[na.view(), na.view()]).unwrap();
    assert_eq!(rows.to_vec(), expected.iter().copied().collect::<Vec<_>>());
    let middle: Tensor<i32, Shape![2, 6, 4]> = concat(Axis::<1>, &a, &a.to_heap());
    let expected = ndarray::concatenate(NdAxis(1), &[na.view(), na.view()]).unwrap();
    assert_eq!(
        middle.to_vec(),
        expected.iter().copied().collect::<Vec<_>>()
    );
}

#[test]
fn stack_matches_ndarray() {
    let a = Tensor::<f32, Shape![2, 3]>::from_fn(|[i, j]| (3 * i + j) as f32);
    let b = tensor_expr!(a * 10);
    let c = tensor_expr!(-a);
    let (na, nb, nc) = (
        Array::from_shape_vec((2, 3), a.to_vec()).unwrap(),
        Array::from_shape_vec((2, 3), b.to_vec()).unwrap(),
        Array::from_shape_vec((2, 3), c.to_vec()).unwrap(),
    );
    let views = [a.view(), b.view(), c.view()];
    let s0: Tensor<f32, Shape![3, 2, 3]> = stack(Axis::<0>, views);
    let s1: Tensor<f32, Shape![2, 3, 3]> = stack(Axis::<1>, views);
    let s2: Tensor<f32, Shape![2, 3, 3]> = stack(Axis::<2>, views);
    for (ours, axis) in [(s0.to_vec(), 0), (s1.to_vec(), 1), (s2.to_vec(), 2)] {
        let expected = ndarray::stack(NdAxis(axis), &[na.view(), nb.view(), nc.view()]).unwrap();
        assert_eq!(
            ours,
            expected.iter().copied().collect::<Vec<_>>(),
            "axis {axis}"
        );
    }
}
