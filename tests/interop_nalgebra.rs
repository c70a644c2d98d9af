//! The `nalgebra` feature: matrices and vectors convert with the same
//! `[i, j]` elements (nalgebra stores columns, tensors rows), products agree
//! with nalgebra's, and each side reads the other's storage as the transpose
//! without a copy.

use nalgebra::{Matrix3x4, SMatrix, SVector, Vector3, Vector4};
use tensor_expr::prelude::*;

fn matrix() -> Matrix3x4<f64> {
    Matrix3x4::from_fn(|i, j| (10 * i + j) as f64 - 0.5)
}

#[test]
fn matrices_and_vectors_keep_every_element() {
    let m = matrix();
    let t: Tensor<f64, Shape![3, 4]> = m.into();
    for i in 0..3 {
        for j in 0..4 {
            assert_eq!(t[[i, j]], m[(i, j)]);
        }
    }
    assert_eq!(Matrix3x4::from(t), m);
    let v = Vector3::new(1.0f32, -2.0, 3.5);
    let tv: Tensor<f32, Shape![3]> = v.into();
    assert_eq!(tv.as_slice(), &[1.0, -2.0, 3.5]);
    assert_eq!(SVector::<f32, 3>::from(tv), v);
}

#[test]
fn products_agree_with_nalgebra() {
    let a = matrix();
    let b = SMatrix::<f64, 4, 2>::from_fn(|i, j| (i as f64 - 1.5) * (j as f64 + 1.0));
    let x = Vector4::new(0.5, -1.0, 2.0, 0.25);
    let ta: Tensor<f64, Shape![3, 4]> = a.into();
    let tb: Tensor<f64, Shape![4, 2]> = b.into();
    let tx: Tensor<f64, Shape![4]> = x.into();
    let product = tensor_expr!(ta @ tb);
    assert_eq!(SMatrix::<f64, 3, 2>::from(product), a * b);
    let matrix_vector = tensor_expr!(ta @ tx);
    assert_eq!(SVector::<f64, 3>::from(matrix_vector), a * x);
}

#[test]
fn each_side_reads_the_others_storage_as_the_transpose() {
    let m = matrix();
    let columns = TensorView::of_matrix_transposed(&m);
    assert_eq!(columns.shape(), &[4, 3]);
    assert_eq!(columns.as_slice().as_ptr(), m.as_slice().as_ptr());
    // transpose() inside an expression reads it back as 3 x 4, no copy.
    let doubled = tensor_expr!(transpose(columns) * 2.0);
    assert_eq!(Matrix3x4::from(doubled), m * 2.0);

    let t: Tensor<f64, Shape![3, 4]> = m.into();
    let view = t.as_matrix_transposed();
    assert_eq!(view.shape(), (4, 3));
    assert_eq!(view.as_ptr(), t.as_slice().as_ptr());
    assert_eq!(view.transpose(), m);
}
