//! Values that were once wrong, each against the answer NumPy gives for the
//! same input (the expected values are NumPy's output, written out).

use tensor_expr::prelude::*;

/// `0, 1, 2, ...` in row-major order as a tensor of shape `S`.
fn iota<T: tensor_expr::Element, S: tensor_expr::Shape>() -> Tensor<T, S> {
    let values: Vec<T> = (0..S::LEN)
        .map(|k| T::from_int_literal(k as i128))
        .collect();
    Tensor::try_from_slice(&values).unwrap()
}

/// A vector times a batch of 4 or more matrices: each output row is a
/// different matrix of the batch, so a tile of rows must not share one.
/// NumPy: `np.array([1, 0]) @ np.arange(16).reshape(4, 2, 2)`.
macro_rules! vector_times_batch {
    ($($t:ty),*) => {$({
        let v: Tensor<$t, Shape![2]> = tensor![1 as $t, 0 as $t];
        let m = iota::<$t, Shape![4, 2, 2]>();
        let y = tensor_expr!(v @ m);
        assert_eq!(y.as_slice(), &[0, 1, 4, 5, 8, 9, 12, 13].map(|x| x as $t), "{}", stringify!($t));
    })*};
}

#[test]
fn vector_times_a_batch_of_matrices_reads_each_matrix() {
    vector_times_batch!(f32, f64, i32, i64, u8);
}

#[test]
fn vector_times_a_long_batch_of_wide_matrices() {
    // 9 matrices of 3 x 20: tiles of 4 and 8 rows and their remainders, and
    // more columns than one tile holds. NumPy: `v @ m` with v = [1, 2, 3],
    // m = arange(540).reshape(9, 3, 20): row b, column j is
    // sum_k (k + 1) * (60 b + 20 k + j) = 360 b + 160 + 6 j.
    let v: Tensor<f64, Shape![3]> = tensor![1.0, 2.0, 3.0];
    let m = iota::<f64, Shape![9, 3, 20]>();
    let y = tensor_expr!(v @ m);
    for b in 0..9 {
        for j in 0..20 {
            assert_eq!(
                y.as_slice()[b * 20 + j],
                (360 * b + 160 + 6 * j) as f64,
                "[{b}, {j}]"
            );
        }
    }
    // The same product broadcast into a larger output, and with an epilogue.
    let z: Tensor<f64, Shape![2, 9, 20]> = Tensor::default();
    let y2 = tensor_expr!(z + v @ m * 2.0);
    for (k, value) in y2.as_slice().iter().enumerate() {
        assert_eq!(*value, 2.0 * y.as_slice()[k % 180], "element {k}");
    }
}

#[test]
fn reductions_dropping_a_trailing_size_1_axis() {
    // NumPy: np.sum(np.array([[1], [2], [3]]), axis=1) == [1, 2, 3].
    let x: Tensor<f32, Shape![3, 1]> = tensor![[1.0], [2.0], [3.0]];
    assert_eq!(tensor_expr!(sum(x, [1])).as_slice(), &[1.0, 2.0, 3.0]);
    assert_eq!(tensor_expr!(max(x, [1])).as_slice(), &[1.0, 2.0, 3.0]);
    assert_eq!(tensor_expr!(mean(x, [1])).as_slice(), &[1.0, 2.0, 3.0]);
    // NumPy: np.arange(6).reshape(2, 3, 1).sum(axis=(0, 2)) == [3, 5, 7].
    let y = iota::<i32, Shape![2, 3, 1]>();
    assert_eq!(tensor_expr!(sum(y, [0, 2])).as_slice(), &[3, 5, 7]);
    assert_eq!(tensor_expr!(sum(y, [0, 2], keepdim)).as_slice(), &[3, 5, 7]);
}
