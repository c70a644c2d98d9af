//! Every valid example of the specification this library implements (NumPy's
//! broadcasting documentation, PyTorch's broadcasting and in-place notes,
//! XLA's broadcasting semantics), with its values; the file and test names
//! keep the numbers of the five documents the examples were collected in
//! (000 XLA, 001 XLA with InDim, 002 PyTorch, 003 and 004 NumPy). The invalid
//! ones are ui tests (`tests/compile_errors/tests/ui/seed_*.rs`); the InDim and matmul examples
//! belong to their features.

mod common;

use tensor_expr::prelude::*;

/// A tensor of the given shape whose elements are 1, 2, 3, ... in row-major order.
fn counting<S: tensor_expr::Shape>() -> Tensor<f64, S> {
    Tensor::from_fn(|index| 1.0 + S::flat_position(index).unwrap() as f64)
}

/// Asserts `actual` equals NumPy's `f(a, b)` computed by ndarray, shape and values.
fn assert_numpy<SA, SB, SO>(
    a: &Tensor<f64, SA>,
    b: &Tensor<f64, SB>,
    actual: &Tensor<f64, SO>,
    f: fn(f64, f64) -> f64,
) where
    SA: tensor_expr::Shape,
    SB: tensor_expr::Shape,
    SO: tensor_expr::Shape,
{
    let expected = common::broadcast_with(
        &common::array(a.as_slice(), a.shape()),
        &common::array(b.as_slice(), b.shape()),
        f,
    );
    assert_eq!(actual.shape(), expected.shape(), "shape");
    assert_eq!(
        actual.as_slice(),
        &common::row_major(&expected)[..],
        "values"
    );
}

#[test]
fn seed_000_matrix_plus_row_vector() {
    // |1 2 3| + |7 8 9| = |8  10 12|
    // |4 5 6|             |11 13 15|
    let x: Tensor<f64, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
    let v: Tensor<f64, Shape![3]> = tensor![7., 8., 9.];
    assert_eq!(
        tensor_expr!(x + v),
        tensor![[8., 10., 12.], [11., 13., 15.]]
    );
}

#[test]
fn seed_000_matrix_plus_scalar() {
    // |1 2 3| + 7 = |8  9  10|
    // |4 5 6|       |11 12 13|
    let x: Tensor<f64, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
    assert_eq!(tensor_expr!(x + 7), tensor![[8., 9., 10.], [11., 12., 13.]]);
    let seven = 7.0;
    assert_eq!(
        tensor_expr!(x + seven),
        tensor![[8., 9., 10.], [11., 12., 13.]]
    );
}

#[test]
fn seed_000_degenerate_dimensions() {
    // (2,1) and (2,3) broadcast to (2,3).
    let (a, b) = (counting::<Shape![2, 1]>(), counting::<Shape![2, 3]>());
    let y = tensor_expr!(a + b);
    assert_numpy(&a, &b, &y, |x, y| x + y);
    // (1,2,5) and (7,2,5) broadcast to (7,2,5).
    let (a, b) = (counting::<Shape![1, 2, 5]>(), counting::<Shape![7, 2, 5]>());
    let y: Tensor<f64, Shape![7, 2, 5]> = tensor_expr!(a + b);
    assert_numpy(&a, &b, &y, |x, y| x + y);
    // (7,2,5) and (7,1,5) broadcast to (7,2,5).
    let (a, b) = (counting::<Shape![7, 2, 5]>(), counting::<Shape![7, 1, 5]>());
    let y: Tensor<f64, Shape![7, 2, 5]> = tensor_expr!(a * b);
    assert_numpy(&a, &b, &y, |x, y| x * y);
}

#[test]
fn seed_000_outer_operation() {
    // (2,1) and (1,3) broadcast to (2,3): an outer sum.
    let c: Tensor<f64, Shape![2, 1]> = tensor![[1.], [2.]];
    let r: Tensor<f64, Shape![1, 3]> = tensor![[10., 20., 30.]];
    assert_eq!(
        tensor_expr!(c + r),
        tensor![[11., 21., 31.], [12., 22., 32.]]
    );
}

#[test]
fn seed_001_elementwise_and_scalar() {
    // a * b = [2, 4, 6] with b = [2, 2, 2], and a * 2.0 the same.
    let a: Tensor<f64, Shape![3]> = tensor![1.0, 2.0, 3.0];
    let b: Tensor<f64, Shape![3]> = tensor![2.0, 2.0, 2.0];
    assert_eq!(tensor_expr!(a * b), tensor![2., 4., 6.]);
    assert_eq!(tensor_expr!(a * 2.0), tensor![2., 4., 6.]);
}

#[test]
fn seed_002_pytorch_broadcastable_shapes() {
    // Same shapes are always broadcastable.
    let (x, y) = (counting::<Shape![5, 7, 3]>(), counting::<Shape![5, 7, 3]>());
    let z = tensor_expr!(x + y);
    assert_numpy(&x, &y, &z, |a, b| a + b);
    // (5,3,4,1) and (3,1,1) are broadcastable.
    let (x, y) = (
        counting::<Shape![5, 3, 4, 1]>(),
        counting::<Shape![3, 1, 1]>(),
    );
    let z: Tensor<f64, Shape![5, 3, 4, 1]> = tensor_expr!(x + y);
    assert_numpy(&x, &y, &z, |a, b| a + b);
    // (5,1,4,1) + (3,1,1) has size [5, 3, 4, 1].
    let (x, y) = (
        counting::<Shape![5, 1, 4, 1]>(),
        counting::<Shape![3, 1, 1]>(),
    );
    let z = tensor_expr!(x + y);
    assert_eq!(z.shape(), &[5, 3, 4, 1]);
    assert_numpy(&x, &y, &z, |a, b| a + b);
    // (1) + (3,1,7) has size [3, 1, 7].
    let (x, y) = (counting::<Shape![1]>(), counting::<Shape![3, 1, 7]>());
    let z = tensor_expr!(x + y);
    assert_eq!(z.shape(), &[3, 1, 7]);
    assert_numpy(&x, &y, &z, |a, b| a + b);
}

#[test]
fn seed_002_in_place_keeps_the_target_shape() {
    // x = (5,3,4,1); x.add_(y) with y = (3,1,1) keeps size [5, 3, 4, 1].
    let mut x = counting::<Shape![5, 3, 4, 1]>();
    let y = counting::<Shape![3, 1, 1]>();
    let before = x;
    tensor_expr!(x += y);
    assert_eq!(x.shape(), &[5, 3, 4, 1]);
    assert_numpy(&before, &y, &x, |a, b| a + b);
}

#[test]
fn seed_002_backwards_compatibility_example() {
    // torch.add(torch.ones(4,1), torch.randn(4)) now has size [4, 4].
    let ones = Tensor::<f64, Shape![4, 1]>::full(1.0);
    let r: Tensor<f64, Shape![4]> = tensor![0.5, -1.0, 2.0, 3.5];
    let sum = tensor_expr!(ones + r);
    assert_eq!(sum.shape(), &[4, 4]);
    assert_numpy(&ones, &r, &sum, |a, b| a + b);
}

#[test]
fn seed_003_rows_get_the_vector() {
    // x = [[1,2,3],[4,5,6]], y = [10,20,30]: x + y = [[11,22,33],[14,25,36]].
    let x: Tensor<i32, Shape![2, 3]> = tensor![[1, 2, 3], [4, 5, 6]];
    let y: Tensor<i32, Shape![3]> = tensor![10, 20, 30];
    assert_eq!(tensor_expr!(x + y), tensor![[11, 22, 33], [14, 25, 36]]);
}

#[test]
fn seed_003_two_one_three_with_four_three() {
    // (2,1,3) and (4,3) broadcast to (2,4,3).
    let (a, b) = (counting::<Shape![2, 1, 3]>(), counting::<Shape![4, 3]>());
    let y = tensor_expr!(a - b);
    assert_eq!(y.shape(), &[2, 4, 3]);
    assert_numpy(&a, &b, &y, |x, y| x - y);
}

#[test]
fn seed_004_valid_elementwise_examples() {
    // a = (2,10), b = (10,): ok.
    let (a, b) = (counting::<Shape![2, 10]>(), counting::<Shape![10]>());
    let y = tensor_expr!(a * b);
    assert_numpy(&a, &b, &y, |x, y| x * y);
    // a = (4,3,2), b = (2,): ok.
    let (a, b) = (counting::<Shape![4, 3, 2]>(), counting::<Shape![2]>());
    let y = tensor_expr!(a / b);
    assert_numpy(&a, &b, &y, |x, y| x / y);
    // a = (6,1,5), b = (3,5): (6,3,5).
    let (a, b) = (counting::<Shape![6, 1, 5]>(), counting::<Shape![3, 5]>());
    let y = tensor_expr!(a + b);
    assert_eq!(y.shape(), &[6, 3, 5]);
    assert_numpy(&a, &b, &y, |x, y| x + y);
}
