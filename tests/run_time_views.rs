//! A run-time leading dim without an allocator: views of `Shape![Dyn, ..]`
//! over buffers the caller owns, written by `out = e` (CI runs this file
//! with `--no-default-features`, where an expression cannot make a
//! `HeapTensor`).

use tensor_expr::prelude::*;

fn pseudo(p: usize) -> f32 {
    ((p * 7919 + 13) % 1009) as f32 / 1009.0 - 0.5
}

/// A dense layer over however many rows the buffers hold, into a target
/// the caller owns: the rows of input and output are checked.
#[test]
fn a_dense_layer_writes_into_a_view_of_run_time_rows() {
    let w = Tensor::<f32, Shape![8, 5]>::from_fn(|[k, j]| pseudo(k * 5 + j));
    let b = Tensor::<f32, Shape![5]>::from_fn(|[j]| pseudo(j + 40));
    for rows in [1usize, 3, 64, 71] {
        let input: Vec<f32> = (0..rows * 8).map(pseudo).collect();
        let mut output = vec![0.0f32; rows * 5];
        let x = TensorView::<f32, Shape![Dyn, 8]>::try_from_slice(&input).unwrap();
        let mut y = TensorViewMut::<f32, Shape![Dyn, 5]>::try_from_slice(&mut output).unwrap();
        tensor_expr!(y = relu(x @ w + b)).unwrap();
        for i in 0..rows {
            for j in 0..5 {
                let expected =
                    ((0..8).map(|k| x[[i, k]] * w[[k, j]]).sum::<f32>() + b[[j]]).max(0.0);
                assert!((y[[i, j]] - expected).abs() < 1e-5, "row {i} of {rows}");
            }
        }
        // Only the target counts rows: no `Result`.
        let () = tensor_expr!(y *= 2.0);
    }
    let input = [0.0f32; 16];
    let mut output = [0.0f32; 15];
    let x = TensorView::<f32, Shape![Dyn, 8]>::try_from_slice(&input).unwrap();
    let mut y = TensorViewMut::<f32, Shape![Dyn, 5]>::try_from_slice(&mut output).unwrap();
    let err = tensor_expr!(y = x @ w).unwrap_err();
    assert_eq!((err.expected, err.actual), (3, 2));
}

#[test]
fn rows_of_points_are_updated_in_place() {
    let mut velocities: Vec<f32> = (0..300).map(pseudo).collect();
    let before = velocities.clone();
    let gravity = Tensor::<f32, Shape![3]>::new([0.0, 0.0, -9.8]);
    let mut v = TensorViewMut::<f32, Shape![Dyn, 3]>::try_from_slice(&mut velocities).unwrap();
    assert_eq!(v.rows(), 100);
    let () = tensor_expr!(v += gravity * 0.01);
    for (k, (after, before)) in velocities.iter().zip(&before).enumerate() {
        assert_eq!(*after, before + [0.0, 0.0, -9.8][k % 3] * 0.01);
    }
}
