//! The operations of the table (`tensor_expr_runtime::ops`) used the way
//! users write them: the structural ones over expressions (evaluated first
//! into a tensor of their own, then read in place), and the composite ones
//! (`softmax`, `log_softmax`, `logsumexp`, `norm`) against references
//! computed with SciPy and NumPy (`tests/vectors/operations.py`).

use tensor_expr::prelude::*;

/// Deterministic, irregular values for shape `S`.
fn sample<S: tensor_expr::Shape>(seed: f64) -> Tensor<f64, S> {
    let mut k = seed;
    Tensor::from_fn(|_| {
        k += 1.0;
        (k * 0.7).sin() * 3.0 + 0.5
    })
}

#[test]
fn transpose_of_a_product_is_the_product_transposed() {
    let x = sample::<Shape![3, 5]>(0.0);
    let w = sample::<Shape![5, 4]>(1.0);
    let product = tensor_expr!(x @ w);
    let expected = tensor_expr!(transpose(product));
    let t = tensor_expr!(transpose(x @ w) * 2.0);
    for ([i, j], &value) in t.iter_indexed() {
        assert_eq!(value, 2.0 * expected[[i, j]]);
    }
    // As the right operand of `@`, as attention writes `q @ k^T`.
    let q = sample::<Shape![2, 4]>(2.0);
    let scores = tensor_expr!(q @ transpose(x @ w));
    let stored = tensor_expr!(q @ transpose(product));
    assert_eq!(scores, stored);
}

#[test]
fn in_place_operations_over_expressions_read_the_evaluated_values() {
    let m = sample::<Shape![3, 2]>(0.0);
    let v = sample::<Shape![3]>(5.0);
    let placed = tensor_expr!(m + in_dims(v * 2.0, [0]));
    for ([i, j], &value) in placed.iter_indexed() {
        assert_eq!(value, m[[i, j]] + v[[i]] * 2.0);
    }
    let x = sample::<Shape![2, 3, 4]>(0.0);
    let permuted = tensor_expr!(permute(x + 1.0, [2, 0, 1]));
    let reshaped = tensor_expr!(reshape::<Shape![6, 4]>(x - 1.0));
    for ([i, j, k], &value) in x.iter_indexed() {
        assert_eq!(permuted[[k, i, j]], value + 1.0);
        assert_eq!(reshaped[[i * 3 + j, k]], value - 1.0);
    }
}
