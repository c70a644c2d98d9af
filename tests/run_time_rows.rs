//! A run-time leading dim (`Shape![Dyn, ..]`): the containers' constructors
//! and row access, and expressions over them against the same expression
//! over static shapes and against ndarray, at row counts that cover every
//! chunk size of the walk (0, 1, 7, 64, 100, 129).

use ndarray::{Array1, Array2};
use tensor_expr::error::Mismatch;
use tensor_expr::prelude::*;

/// Row counts with every chunk size (64, then 16, 4 and 1, repeated) and none.
const ROW_COUNTS: [usize; 6] = [0, 1, 7, 64, 100, 129];

fn pseudo(p: usize) -> f32 {
    ((p * 7919 + 13) % 1009) as f32 / 1009.0 - 0.5
}

fn batch<const C: usize>(rows: usize, seed: usize) -> HeapTensor<f32, Shape![Dyn, C]> {
    HeapTensor::<f32, Shape![Dyn, C]>::from_fn_rows(rows, |[i, j]| pseudo(seed + i * C + j))
}

fn to_ndarray<const C: usize>(x: &HeapTensor<f32, Shape![Dyn, C]>) -> Array2<f32> {
    Array2::from_shape_vec((x.rows(), C), x.as_slice().to_vec()).unwrap()
}

fn assert_close(actual: &[f32], expected: &[f32]) {
    assert_eq!(actual.len(), expected.len());
    for (k, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            (a - e).abs() <= 1e-5 * (1.0 + e.abs()),
            "element {k}: {a} against {e}"
        );
    }
}

#[test]
fn views_count_whole_rows_and_name_both_sizes_otherwise() {
    let data: Vec<f32> = (0..12).map(|v| v as f32).collect();
    let v = TensorView::<f32, Shape![Dyn, 3]>::try_from_slice(&data).unwrap();
    assert_eq!((v.rows(), v.shape()), (4, [4, 3]));
    assert_eq!(v.at(2).as_slice(), &[6., 7., 8.]);
    assert_eq!(v[[3, 1]], 10.);
    assert!(v.try_at(4).is_none());
    assert_eq!(
        v.iter_rows().map(|row| row[[0]]).collect::<Vec<_>>(),
        [0., 3., 6., 9.]
    );
    let err = TensorView::<f32, Shape![Dyn, 5]>::try_from_slice(&data).unwrap_err();
    assert_eq!(
        (err.expected, err.actual, err.kind),
        (5, 12, Mismatch::WholeRows)
    );
    assert_eq!(
        err.to_string(),
        "shape [Dyn, 5] needs whole rows of 5 elements, got 12"
    );
    let images = TensorView::<f32, Shape![Dyn, 2, 3]>::try_from_slice(&data).unwrap();
    assert_eq!((images.rows(), images.at(1)[[1, 2]]), (2, 11.));

    let mut buffer = data.clone();
    let mut m = TensorViewMut::<f32, Shape![Dyn, 4]>::try_from_slice(&mut buffer).unwrap();
    m[[2, 3]] = -1.;
    m.at_mut(0).as_mut_slice()[0] = -2.;
    for mut row in m.iter_rows_mut() {
        row.as_mut_slice()[1] += 100.;
    }
    assert_eq!(m.rows(), 3);
    assert_eq!(buffer[..6], [-2., 101., 2., 3., 4., 105.]);
    assert_eq!(buffer[11], -1.);
    assert!(TensorViewMut::<f32, Shape![Dyn, 5]>::try_from_slice(&mut buffer).is_err());
}

#[test]
fn heap_tensors_are_built_by_rows() {
    let points = HeapTensor::<f32, Shape![Dyn, 3]>::from_rows([[0., 1., 2.], [3., 4., 5.]]);
    assert_eq!((points.rows(), points.shape()), (2, [2, 3]));
    assert_eq!(
        points,
        HeapTensor::try_from_slice(&[0., 1., 2., 3., 4., 5.]).unwrap()
    );
    assert_eq!(
        points,
        HeapTensor::try_from_vec(vec![0., 1., 2., 3., 4., 5.]).unwrap()
    );
    assert_eq!(
        points,
        HeapTensor::<f32, Shape![Dyn, 3]>::from_fn_rows(2, |[i, j]| (3 * i + j) as f32)
    );
    assert!(HeapTensor::<f32, Shape![Dyn, 3]>::try_from_vec(vec![0.; 7]).is_err());
    let zeros = HeapTensor::<i32, Shape![Dyn, 2, 2]>::zeros_rows(3);
    assert_eq!((zeros.rows(), zeros.as_slice().len()), (3, 12));
    assert_eq!(HeapTensor::<f32, Shape![Dyn, 2]>::zeros_rows(0).rows(), 0);
    let mut filled = HeapTensor::<u8, Shape![Dyn, 2]>::full_rows(2, 7);
    filled[[1, 0]] = 1;
    filled.at_mut(0).as_mut_slice()[1] = 2;
    assert_eq!(filled.into_vec(), [7, 2, 1, 7]);
    assert_eq!(points.view().at(1).as_slice(), &[3., 4., 5.]);
    assert_eq!(points.iter_rows().len(), 2);
}

#[test]
#[should_panic(expected = "row 2 is out of range for 2 rows")]
fn a_row_past_the_last_panics() {
    let points = HeapTensor::<f32, Shape![Dyn, 3]>::zeros_rows(2);
    let _ = points.at(2);
}

/// The dense layer of an MLP: the same values as over a static shape (whose
/// tile walk sums each element's terms in the same order) and as ndarray's.
#[test]
fn a_dense_layer_over_run_time_rows_is_the_static_one() {
    let w = HeapTensor::<f32, Shape![20, 12]>::from_flat_fn(|p| pseudo(p + 5));
    let b = Tensor::<f32, Shape![12]>::from_fn(|[j]| pseudo(j + 3));
    for rows in ROW_COUNTS {
        let x = batch::<20>(rows, 1);
        let y = tensor_expr!(relu(x @ w + b));
        assert_eq!(y.shape(), [rows, 12]);
        let expected = (to_ndarray(&x).dot(&to_ndarray_2d(&w))
            + Array1::from_vec(b.as_slice().to_vec()))
        .mapv(|v| v.max(0.0));
        assert_close(y.as_slice(), expected.as_slice().unwrap());
    }
    // 100 rows: the static shape's nest and the chunks' (64 + 32 + 4) agree.
    let x = batch::<20>(100, 1);
    let fixed = HeapTensor::<f32, Shape![100, 20]>::try_from_slice(x.as_slice()).unwrap();
    let dynamic = tensor_expr!(relu(x @ w + b));
    let static_ = tensor_expr!(relu(fixed @ w + b));
    assert_close(dynamic.as_slice(), static_.as_slice());
}

fn to_ndarray_2d<const R: usize, const C: usize>(x: &HeapTensor<f32, Shape![R, C]>) -> Array2<f32> {
    Array2::from_shape_vec((R, C), x.as_slice().to_vec()).unwrap()
}

/// The MLP of the user, [N, 784] -> 128 -> 10, one expression (the
/// first layer is a stage of run-time rows too).
#[test]
fn a_two_layer_network_is_one_expression() {
    let w1 = HeapTensor::<f32, Shape![784, 128]>::from_flat_fn(|p| pseudo(p + 7) * 0.1);
    let b1 = HeapTensor::<f32, Shape![128]>::from_flat_fn(|p| pseudo(p + 11));
    let w2 = HeapTensor::<f32, Shape![128, 10]>::from_flat_fn(|p| pseudo(p + 13) * 0.1);
    let b2 = HeapTensor::<f32, Shape![10]>::from_flat_fn(|p| pseudo(p + 17));
    for rows in [1, 7, 33] {
        let x = batch::<784>(rows, 3);
        let logits = tensor_expr!(relu(x @ w1 + b1) @ w2 + b2);
        let hidden = (to_ndarray(&x).dot(&to_ndarray_2d(&w1))
            + Array1::from_vec(b1.as_slice().to_vec()))
        .mapv(|v| v.max(0.0));
        let expected = hidden.dot(&to_ndarray_2d(&w2)) + Array1::from_vec(b2.as_slice().to_vec());
        assert_eq!(logits.rows(), rows);
        assert_close(logits.as_slice(), expected.as_slice().unwrap());
        let classes = tensor_expr!(argmax(relu(x @ w1 + b1) @ w2 + b2, [1]));
        assert_eq!(classes.shape(), [rows]);
        for (i, row) in expected.rows().into_iter().enumerate() {
            let best = (0..10).fold(0, |best, j| if row[j] > row[best] { j } else { best });
            assert_eq!(classes[[i]], best);
        }
    }
}

#[test]
fn broadcasting_keeps_the_run_time_dim() {
    let x = batch::<3>(7, 2);
    let row = Tensor::<f32, Shape![1, 3]>::new([[1., 2., 3.]]);
    let bias = Tensor::<f32, Shape![3]>::new([0.5, 0.25, -1.]);
    let y = tensor_expr!(x * row - bias + 0.5);
    assert_eq!(y.shape(), [7, 3]);
    for i in 0..7 {
        for j in 0..3 {
            assert_eq!(y[[i, j]], x[[i, j]] * row[[0, j]] - bias[[j]] + 0.5);
        }
    }
    // Two run-time operands: a `Result`, checked before anything is read;
    // a `[Dyn, 1]` column stretches along the rows' 3.
    let column = HeapTensor::<f32, Shape![Dyn, 1]>::from_fn_rows(7, |[i, _]| pseudo(i + 9));
    let sum = tensor_expr!(x + column).unwrap();
    assert_eq!(sum[[6, 2]], x[[6, 2]] + column[[6, 0]]);
    let fewer = batch::<3>(6, 4);
    let err = tensor_expr!(x * 2.0 + fewer).unwrap_err();
    assert_eq!((err.expected, err.actual, err.kind), (7, 6, Mismatch::Rows));
    assert_eq!(
        err.to_string(),
        "the `Dyn` dims differ: 7 rows against 6 (shape [Dyn, 3])"
    );
}

#[test]
fn reductions_along_static_axes_keep_the_rows() {
    for rows in ROW_COUNTS {
        let x = batch::<10>(rows, 5);
        let a = to_ndarray(&x);
        let sums = tensor_expr!(sum(x, [1], keepdim));
        assert_eq!(sums.shape(), [rows, 1]);
        assert_close(
            sums.as_slice(),
            a.sum_axis(ndarray::Axis(1)).as_slice().unwrap(),
        );
        let centred = tensor_expr!(x - mean(x, [1], keepdim));
        let means = a
            .mean_axis(ndarray::Axis(1))
            .unwrap()
            .insert_axis(ndarray::Axis(1));
        assert_close(centred.as_slice(), (&a - &means).as_slice().unwrap());
        let probabilities = tensor_expr!(softmax(x, [1]));
        let exp = a.mapv(f32::exp);
        let expected = &exp / &exp.sum_axis(ndarray::Axis(1)).insert_axis(ndarray::Axis(1));
        assert_close(probabilities.as_slice(), expected.as_slice().unwrap());
        let classes = tensor_expr!(argmax(x, [1]));
        assert_eq!(classes.shape(), [rows]);
    }
}

#[test]
fn the_index_reductions_run_along_either_axis() {
    let scores =
        HeapTensor::<f32, Shape![Dyn, 3]>::from_rows([[0., 5., 1.], [7., 2., 3.], [1., 1., 9.]]);
    assert_eq!(scores.argmax::<1>().as_slice(), &[1, 0, 2]);
    assert_eq!(scores.argmin::<1>().as_slice(), &[0, 1, 0]);
    assert_eq!(scores.argmax::<0>().as_slice(), &[1, 0, 2]);
    assert_eq!(scores.view().argmin::<0>().as_slice(), &[0, 2, 0]);
}

#[test]
fn products_with_run_time_batches() {
    // A batch of matrices: [Dyn, 4, 5] @ [5, 6].
    let a = HeapTensor::<f32, Shape![Dyn, 4, 5]>::from_fn_rows(9, |[b, i, k]| {
        pseudo(b * 20 + i * 5 + k)
    });
    let w = Tensor::<f32, Shape![5, 6]>::from_fn(|[k, j]| pseudo(100 + k * 6 + j));
    let y = tensor_expr!(a @ w);
    assert_eq!(y.shape(), [9, 4, 6]);
    for b in 0..9 {
        for i in 0..4 {
            for j in 0..6 {
                let expected: f32 = (0..5).map(|k| a[[b, i, k]] * w[[k, j]]).sum();
                assert!((y[[b, i, j]] - expected).abs() < 1e-5);
            }
        }
    }
    // Points times a rotation: rows of 3, the short-row walk in each chunk.
    let points = batch::<3>(1000, 8);
    let r = Tensor::<f32, Shape![3, 3]>::from_fn(|[i, j]| pseudo(i * 3 + j + 50));
    let turned = tensor_expr!(points @ transpose(r));
    for i in [0, 63, 64, 999] {
        for j in 0..3 {
            let expected: f32 = (0..3).map(|k| points[[i, k]] * r[[j, k]]).sum();
            assert!((turned[[i, j]] - expected).abs() < 1e-5);
        }
    }
}

#[test]
fn assignments_write_every_row_and_check_the_rows() {
    let x = batch::<3>(70, 6);
    let bias = Tensor::<f32, Shape![3]>::new([1., 2., 3.]);
    let mut out = HeapTensor::<f32, Shape![Dyn, 3]>::zeros_rows(70);
    // Only the target counts rows: no `Result`.
    let () = tensor_expr!(out = bias);
    assert!(out.iter_rows().all(|row| row.as_slice() == bias.as_slice()));
    // Target and operand both do: a `Result`.
    tensor_expr!(out += x * 2.0).unwrap();
    for i in [0, 64, 69] {
        assert_eq!(out[[i, 2]], 3.0 + x[[i, 2]] * 2.0);
    }
    let mut buffer = vec![0.0f32; 30];
    let mut view = TensorViewMut::<f32, Shape![Dyn, 3]>::try_from_slice(&mut buffer).unwrap();
    let err = tensor_expr!(view = x).unwrap_err();
    assert_eq!((err.expected, err.actual), (10, 70));
    assert!(
        buffer.iter().all(|&v| v == 0.0),
        "a failed check writes nothing"
    );
    let first = TensorView::<f32, Shape![Dyn, 3]>::try_from_slice(&x.as_slice()[..30]).unwrap();
    let mut view = TensorViewMut::<f32, Shape![Dyn, 3]>::try_from_slice(&mut buffer).unwrap();
    tensor_expr!(view = first - bias).unwrap();
    assert_eq!(buffer[29], x[[9, 2]] - 3.0);
}

/// Results of rank 1, `[Dyn]`: a matrix-vector product and a reduction over
/// the last axis, each row of the chunk read from its column.
#[test]
fn results_of_run_time_length_alone() {
    let v = Tensor::<f32, Shape![20]>::from_fn(|[k]| pseudo(k + 70));
    for rows in ROW_COUNTS {
        let x = batch::<20>(rows, 4);
        let a = to_ndarray(&x);
        let scores = tensor_expr!(x @ v);
        assert_eq!(scores.shape(), [rows]);
        assert_close(
            scores.as_slice(),
            a.dot(&Array1::from_vec(v.as_slice().to_vec()))
                .as_slice()
                .unwrap(),
        );
        let norms = tensor_expr!(sqrt(sum(square(x), [1])));
        let expected = a.mapv(|e| e * e).sum_axis(ndarray::Axis(1)).mapv(f32::sqrt);
        assert_close(norms.as_slice(), expected.as_slice().unwrap());
        let shifted = tensor_expr!(scores * 2.0 - norms).unwrap();
        for i in 0..rows {
            assert_eq!(shifted[[i]], scores[[i]] * 2.0 - norms[[i]]);
        }
    }
}

/// A part evaluated first (the inner product of a chain) over two `Dyn`
/// operands: their rows are checked there, and the error is the
/// expression's.
#[test]
fn a_staged_part_checks_its_rows_for_the_whole_expression() {
    let w = Tensor::<f32, Shape![3, 3]>::from_fn(|[i, j]| pseudo(i * 3 + j));
    let x = batch::<3>(9, 1);
    let y = batch::<3>(9, 2);
    let z = tensor_expr!(relu(x @ w + y) @ w).unwrap();
    for i in [0, 8] {
        for j in 0..3 {
            let hidden: Vec<f32> = (0..3)
                .map(|n| ((0..3).map(|k| x[[i, k]] * w[[k, n]]).sum::<f32>() + y[[i, n]]).max(0.0))
                .collect();
            let expected: f32 = (0..3).map(|n| hidden[n] * w[[n, j]]).sum();
            assert!((z[[i, j]] - expected).abs() < 1e-5);
        }
    }
    let fewer = batch::<3>(4, 2);
    let err = tensor_expr!(relu(x @ w + fewer) @ w).unwrap_err();
    assert_eq!((err.expected, err.actual), (9, 4));
}

#[test]
fn an_index_reduction_of_two_run_time_operands_is_a_result() {
    let x = batch::<4>(5, 1);
    let y = batch::<4>(5, 2);
    let classes = tensor_expr!(argmax(x + y, [1])).unwrap();
    for i in 0..5 {
        let row: Vec<f32> = (0..4).map(|j| x[[i, j]] + y[[i, j]]).collect();
        let best = (0..4).fold(0, |best, j| if row[j] > row[best] { j } else { best });
        assert_eq!(classes[[i]], best);
    }
    let more = batch::<4>(6, 2);
    assert!(tensor_expr!(argmax(x + more, [1])).is_err());
}

/// Reductions over the `Dyn` dim give static shapes: NumPy's over axis 0.
#[test]
fn reductions_over_the_run_time_rows_are_static() {
    for rows in [1usize, 7, 64, 129] {
        let x = batch::<5>(rows, 8);
        let a = to_ndarray(&x);
        let sums: HeapTensor<f32, Shape![5]> = tensor_expr!(sum(x, [0]));
        assert_close(
            sums.as_slice(),
            a.sum_axis(ndarray::Axis(0)).as_slice().unwrap(),
        );
        let means = tensor_expr!(mean(x, [0], keepdim));
        assert_eq!(means.shape(), &[1, 5]);
        assert_close(
            means.as_slice(),
            a.mean_axis(ndarray::Axis(0)).unwrap().as_slice().unwrap(),
        );
        let largest = tensor_expr!(max(x * 2.0, [0]));
        let expected = a.fold_axis(ndarray::Axis(0), f32::NEG_INFINITY, |m, &v| m.max(v * 2.0));
        assert_close(largest.as_slice(), expected.as_slice().unwrap());
        let total = tensor_expr!(sum(x));
        assert!((total[[]] - a.sum()).abs() <= 1e-4 * (1.0 + a.sum().abs()));
        // Centred by the column means: a reduction over the rows inside an
        // expression that keeps them.
        let centred = tensor_expr!(x - mean(x, [0], keepdim));
        let column_means = a.mean_axis(ndarray::Axis(0)).unwrap();
        assert_close(centred.as_slice(), (&a - &column_means).as_slice().unwrap());
        let column = HeapTensor::<f32, Shape![Dyn]>::try_from_slice(&x.as_slice()[..rows]).unwrap();
        let summed = tensor_expr!(sum(column * 3.0));
        let expected: f32 = x.as_slice()[..rows].iter().map(|v| v * 3.0).sum();
        assert!((summed[[]] - expected).abs() <= 1e-4 * (1.0 + expected.abs()));
    }
}

#[test]
#[should_panic(expected = "over zero rows has no value")]
fn the_largest_of_no_rows_has_no_value() {
    let x = HeapTensor::<f32, Shape![Dyn, 3]>::zeros_rows(0);
    let _ = tensor_expr!(max(x, [0]));
}

/// A long chain (the macro folds it into steps after its first operand)
/// whose only `Dyn` operand is among the steps, reduced over the rows.
#[test]
fn a_folded_chain_finds_its_rows_among_the_steps() {
    let b = Tensor::<f32, Shape![3]>::new([1., 2., 3.]);
    let x = batch::<3>(70, 9);
    let folded = tensor_expr!(sum(
        b * 2.0 + b + b - b + b * 0.5 + b - b + b * 3.0 - x + x * 4.0 + b,
        [0]
    ));
    for j in 0..3 {
        let expected: f32 = (0..70)
            .map(|i| {
                let (b, x) = (b[[j]], x[[i, j]]);
                b * 2.0 + b + b - b + b * 0.5 + b - b + b * 3.0 - x + x * 4.0 + b
            })
            .sum();
        assert!(
            (folded[[j]] - expected).abs() <= 1e-3 * (1.0 + expected.abs()),
            "{j}"
        );
    }
}
