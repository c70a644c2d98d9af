//! The `ndarray` feature: views both ways without a copy when the layout
//! is row-major, errors naming both shapes (or the layout) when not, and
//! copies from any layout.

use ndarray::{arr0, arr1, arr2, s, Array, Array2, Array3, ArrayView2, ArrayViewD, IxDyn};
use tensor_expr::error::ConversionError;
use tensor_expr::prelude::*;
use tensor_expr::HeapTensor;

fn sample() -> Tensor<f32, Shape![2, 3, 4]> {
    Tensor::from_fn(|[i, j, k]: [usize; 3]| (100 * i + 10 * j + k) as f32)
}

#[test]
fn every_container_is_an_array_view_of_the_same_memory() {
    let t = sample();
    let expected = Array3::from_shape_fn((2, 3, 4), |(i, j, k)| (100 * i + 10 * j + k) as f32);
    assert_eq!(t.as_array_view(), expected);
    assert_eq!(t.as_array_view().as_ptr(), t.as_slice().as_ptr());
    assert_eq!(t.view().as_array_view(), expected);
    assert_eq!(t.to_heap().as_array_view(), expected);
    assert_eq!(t.to_ndarray(), expected);
    let from: ndarray::ArrayView3<f32> = t.view().into();
    assert_eq!(from, expected);
    // Rank 0 and rank 1.
    let scalar = Tensor::<i32, Shape![]>::new(7);
    assert_eq!(scalar.as_array_view(), arr0(7));
    let vector = Tensor::<i32, Shape![3]>::new([1, 2, 3]);
    assert_eq!(vector.as_array_view(), arr1(&[1, 2, 3]));
}

#[test]
fn an_array_view_is_a_tensor_view_of_the_same_memory() {
    let a = Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f64);
    let v = TensorView::<f64, Shape![3, 4]>::try_from(a.view()).unwrap();
    assert_eq!(v.as_slice().as_ptr(), a.as_ptr());
    assert_eq!(v[[2, 1]], a[[2, 1]]);
    // A dynamic-rank view converts too when its dims match.
    let dynamic: ArrayViewD<f64> = a.view().into_dyn();
    let again = TensorView::<f64, Shape![3, 4]>::try_from(dynamic).unwrap();
    assert_eq!(again.as_slice(), v.as_slice());
    // And it is an operand, compared with ndarray's own arithmetic.
    let b = arr1(&[1.0, -1.0, 0.5, 2.0]);
    let bv = TensorView::<f64, Shape![4]>::try_from(b.view()).unwrap();
    let sum = tensor_expr!(v * 2.0 + bv);
    assert_eq!(sum.as_array_view(), &a * 2.0 + &b);
}

#[test]
fn shape_mismatches_name_both_shapes() {
    let a = Array2::<f32>::zeros((2, 3));
    let error = TensorView::<f32, Shape![3, 2]>::try_from(a.view()).unwrap_err();
    assert_eq!(error.to_string(), "expected shape [3, 2], got shape [2, 3]");
    let error = TensorView::<f32, Shape![6]>::try_from(a.view()).unwrap_err();
    assert_eq!(error.to_string(), "expected shape [6], got shape [2, 3]");
    let deep = ArrayViewD::<f32>::from_shape(IxDyn(&[1; 8]), &[0.0]).unwrap();
    let error = TensorView::<f32, Shape![1]>::try_from(deep).unwrap_err();
    assert_eq!(
        error.to_string(),
        "expected shape [1], got shape [1, 1, 1, 1, 1, 1, ... (8 dims)]"
    );
    let error = Tensor::<f32, Shape![3, 2]>::try_from_ndarray(&a).unwrap_err();
    assert!(matches!(
        error,
        ConversionError::Shape {
            expected: &[3, 2],
            ..
        }
    ));
}

#[test]
fn strided_arrays_are_refused_as_views_and_copied_as_tensors() {
    let a = Array2::from_shape_fn((4, 6), |(i, j)| (10 * i + j) as i64);
    let transposed = a.t();
    let error = TensorView::<i64, Shape![6, 4]>::try_from(transposed).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the array of shape [6, 4] is not contiguous in row-major order; \
         view a standard-layout array or copy it into a tensor"
    );
    let copy = Tensor::<i64, Shape![6, 4]>::try_from_ndarray(&transposed).unwrap();
    assert_eq!(copy.as_array_view(), transposed);
    let stepped = a.slice(s![.., ..;2]);
    assert!(TensorView::<i64, Shape![4, 3]>::try_from(stepped).is_err());
    let heap = HeapTensor::<i64, Shape![4, 3]>::try_from_ndarray(&stepped).unwrap();
    assert_eq!(heap.as_array_view(), stepped);
    // Rows of a row-major array are contiguous: they view without a copy.
    let rows = a.slice(s![1..3, ..]);
    let view = TensorView::<i64, Shape![2, 6]>::try_from(rows).unwrap();
    assert_eq!(view[[0, 0]], 10);
}

#[test]
fn a_mutable_array_view_is_an_expression_target() {
    let mut out = Array2::<f32>::zeros((2, 3));
    let x = tensor![[1.0f32, 2., 3.], [4., 5., 6.]];
    let mut target = TensorViewMut::<f32, Shape![2, 3]>::try_from(out.view_mut()).unwrap();
    tensor_expr!(target = x * 10.0 + 1.0);
    assert_eq!(out, arr2(&[[11., 21., 31.], [41., 51., 61.]]));
    let mut t = x;
    t.as_array_view_mut().row_mut(0).fill(0.0);
    assert_eq!(t.as_slice(), &[0., 0., 0., 4., 5., 6.]);
}

#[test]
fn a_heap_tensor_moves_into_an_array() {
    let t = HeapTensor::<u8, Shape![16, 16]>::from_fn(|[i, j]| (i ^ j) as u8);
    let a: Array<u8, ndarray::Ix2> = t.clone().into();
    assert_eq!(a.as_slice().unwrap(), t.as_slice());
    assert_eq!(a[[3, 5]], 3 ^ 5);
    let view: ArrayView2<u8> = a.view();
    assert_eq!(view.dim(), (16, 16));
}
