//! The `Tensor` and view API: constructors, accessors, errors, printing.

use tensor_expr::prelude::*;
use tensor_expr::{One, ShapeError, D};

#[test]
fn shapes_from_the_type_macro() {
    use tensor_expr::Shape as _;
    assert_eq!(<Shape![]>::RANK, 0);
    assert_eq!(<Shape![]>::LEN, 1);
    assert_eq!(<Shape![2, 3]>::DIMS, &[2, 3]);
    assert_eq!(<Shape![1_000_000]>::LEN, 1_000_000);
    assert_eq!(<Shape![3000, 0]>::LEN, 0);
    assert_eq!(<Shape![2, 1, 3, 1, 4, 5]>::RANK, 6);
    assert_eq!(<Shape![2, 1, 3, 1, 4, 5]>::LEN, 120);
    // A literal 1 is the broadcastable `One`; other sizes are `D<N>`.
    let _: Shape![1, 4] = (One, D::<4>);
}

#[test]
fn constructors_agree() {
    let from_new = Tensor::<i32, Shape![2, 3]>::new([[1, 2, 3], [4, 5, 6]]);
    let from_array: Tensor<i32, Shape![2, 3]> = [[1, 2, 3], [4, 5, 6]].into();
    let from_macro = tensor![[1, 2, 3], [4, 5, 6]];
    let from_slice = Tensor::<i32, Shape![2, 3]>::try_from_slice(&[1, 2, 3, 4, 5, 6]).unwrap();
    let from_fn = Tensor::<i32, Shape![2, 3]>::from_fn(|[i, j]| (3 * i + j + 1) as i32);
    for t in [from_array, from_macro, from_slice, from_fn] {
        assert_eq!(t, from_new);
    }
    assert_eq!(Tensor::<f32, Shape![2]>::zeros().as_slice(), &[0.0, 0.0]);
    assert_eq!(Tensor::<u8, Shape![3]>::full(7).as_slice(), &[7, 7, 7]);
    assert_eq!(Tensor::<u8, Shape![3]>::default().as_slice(), &[0, 0, 0]);
    let one_by_two: Tensor<f32, Shape![1, 2]> = [[5.0, 6.0]].into();
    assert_eq!(one_by_two.shape(), &[1, 2]);
    let scalar: Tensor<f64, Shape![]> = Tensor::new(2.5);
    assert_eq!(scalar.as_slice(), &[2.5]);
}

#[test]
fn tensor_macro_reads_the_shape_from_the_nesting() {
    let t = tensor![[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]];
    assert_eq!(t.shape(), &[2, 3, 2]);
    let row = tensor![[5.0, 6.0]];
    let _: &Tensor<f64, (One, D<2>)> = &row;
    let trailing_commas = tensor![[1, 2,], [3, 4,],];
    assert_eq!(trailing_commas.shape(), &[2, 2]);
}

#[test]
fn wrong_lengths_are_errors_naming_both_sizes() {
    let err = Tensor::<f32, Shape![2, 3]>::try_from_slice(&[0.0; 5]).unwrap_err();
    assert_eq!(
        err,
        ShapeError {
            shape: &[2, 3],
            expected: 6,
            actual: 5,
            kind: tensor_expr::error::Mismatch::Elements,
        }
    );
    assert_eq!(err.to_string(), "shape [2, 3] needs 6 elements, got 5");
    let data = [0.0f32; 7];
    let err = TensorView::<f32, Shape![2, 3]>::try_from_slice(&data).unwrap_err();
    assert_eq!((err.expected, err.actual), (6, 7));
    let mut data = [0.0f32; 4];
    assert!(TensorViewMut::<f32, Shape![2, 3]>::try_from_slice(&mut data).is_err());
}

#[test]
fn indexing_and_slices() {
    let mut t = tensor![[1, 2, 3], [4, 5, 6]];
    assert_eq!(t[[1, 2]], 6);
    t[[0, 1]] = 20;
    assert_eq!(t.as_slice(), &[1, 20, 3, 4, 5, 6]);
    t.as_mut_slice()[5] = 60;
    assert_eq!(t.get([1, 2]), Some(&60));
    assert_eq!(t.get([2, 0]), None);
    assert_eq!(t.as_array(), &[[1, 20, 3], [4, 5, 60]]);
}

#[test]
#[should_panic(expected = "index [0, 3] is out of bounds for shape [2, 3]")]
fn out_of_bounds_index_panics_with_index_and_shape() {
    let t = Tensor::<i32, Shape![2, 3]>::zeros();
    let _ = t[[0, 3]];
}

#[test]
fn printing_follows_numpy() {
    let t = tensor![[1.0, 2.5, 3.0], [4.0, 5.0, -6.0]];
    assert_eq!(t.to_string(), "[[ 1.   2.5  3. ]\n [ 4.   5.  -6. ]]");
    assert_eq!(
        format!("{t:?}"),
        "[[ 1.0,  2.5,  3.0],\n [ 4.0,  5.0, -6.0]]"
    );
    let cube = Tensor::<i32, Shape![2, 2, 2]>::from_fn(|[i, j, k]| (4 * i + 2 * j + k) as i32);
    assert_eq!(cube.to_string(), "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]");
    assert_eq!(Tensor::<i32, Shape![]>::new(7).to_string(), "7");
    assert_eq!(Tensor::<i32, Shape![0]>::zeros().to_string(), "[]");
    assert_eq!(format!("{:?}", t.shape()), "[2, 3]");
}

#[test]
fn views_share_the_borrowed_data() {
    let data: Vec<f32> = (0..6).map(|i| i as f32).collect();
    let view = TensorView::<f32, Shape![2, 3]>::try_from_slice(&data).unwrap();
    assert_eq!(view[[1, 1]], 4.0);
    assert_eq!(view.to_tensor().as_slice(), &data[..]);
    let mut buffer = vec![0.0f32; 6];
    let mut view_mut = TensorViewMut::<f32, Shape![3, 2]>::try_from_slice(&mut buffer).unwrap();
    view_mut[[2, 1]] = 9.0;
    assert_eq!(view_mut.as_view()[[2, 1]], 9.0);
    assert_eq!(buffer[5], 9.0);
    let mut owned = tensor![1, 2];
    owned.view_mut()[[0]] = 10;
    assert_eq!(owned.view().as_slice(), &[10, 2]);
}

#[test]
fn clone_copy_and_eq() {
    let a = tensor![1.0, 2.0];
    let b = a; // Copy
    #[allow(clippy::clone_on_copy)]
    let c = a.clone();
    assert_eq!(a, b);
    assert_eq!(b, c);
    assert_ne!(a, tensor![1.0, 2.5]);
}

/// `Display` against NumPy's `str` of the same arrays (NumPy 2, default
/// print options).
#[test]
fn display_matches_numpy() {
    let cases: [(String, &str); 13] = [
        (
            Tensor::<f64, Shape![4]>::new([1.0, -2.5, f64::NAN, f64::INFINITY]).to_string(),
            "[ 1.  -2.5  nan  inf]",
        ),
        (
            Tensor::<f32, Shape![2]>::new([1e-5, 250.0]).to_string(),
            "[1.0e-05 2.5e+02]",
        ),
        (
            Tensor::<f64, Shape![2, 2]>::new([[0.1, 1.0 / 3.0], [2.0, -0.0]]).to_string(),
            "[[ 0.1         0.33333333]\n [ 2.         -0.        ]]",
        ),
        (
            Tensor::<f64, Shape![3]>::new([1e-5, 1e100, f64::NAN]).to_string(),
            "[1.e-005 1.e+100     nan]",
        ),
        (
            Tensor::<f64, Shape![2]>::new([1e8, 1.5e9]).to_string(),
            "[1.0e+08 1.5e+09]",
        ),
        (
            Tensor::<f64, Shape![2]>::new([0.0, 0.0]).to_string(),
            "[0. 0.]",
        ),
        (
            Tensor::<f64, Shape![1]>::new([f64::NAN]).to_string(),
            "[nan]",
        ),
        (
            Tensor::<f32, Shape![1]>::new([1.0 / 3.0]).to_string(),
            "[0.33333334]",
        ),
        (
            Tensor::<f64, Shape![2]>::new([123456.789, 0.001]).to_string(),
            "[1.23456789e+05 1.00000000e-03]",
        ),
        (
            Tensor::<f64, Shape![2]>::new([f64::NEG_INFINITY, 2.0]).to_string(),
            "[-inf   2.]",
        ),
        (
            Tensor::<bool, Shape![2]>::new([true, false]).to_string(),
            "[ True False]",
        ),
        (
            Tensor::<i64, Shape![2, 2]>::new([[1, -20], [3, 4]]).to_string(),
            "[[  1 -20]\n [  3   4]]",
        ),
        (
            Tensor::<f32, Shape![2, 2, 2]>::new([[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]])
                .to_string(),
            "[[[1. 2.]\n  [3. 4.]]\n\n [[5. 6.]\n  [7. 8.]]]",
        ),
    ];
    for (ours, numpy) in cases {
        assert_eq!(ours, numpy);
    }
}

#[test]
fn iteration_on_every_container() {
    let mut x = Tensor::<i32, Shape![2, 3]>::new([[1, 2, 3], [4, 5, 6]]);
    assert_eq!(x.iter().copied().max(), Some(6));
    for v in &mut x {
        *v *= 2;
    }
    x.iter_mut().for_each(|v| *v += 1);
    assert_eq!(x.as_slice(), &[3, 5, 7, 9, 11, 13]);
    assert_eq!((&x).into_iter().count(), 6);
    let indexed: Vec<([usize; 2], i32)> = x.iter_indexed().map(|(i, &v)| (i, v)).collect();
    assert_eq!(indexed[4], ([1, 1], 11));
    assert_eq!(x.to_vec(), vec![3, 5, 7, 9, 11, 13]);

    let heap: HeapTensor<i32, Shape![2, 3]> = x.into();
    assert_eq!(heap.iter().sum::<i32>(), 48);
    assert_eq!(
        heap.map(|&v| v as f32 / 2.0).as_slice(),
        &[1.5, 2.5, 3.5, 4.5, 5.5, 6.5]
    );
    let mut data = heap.to_vec();
    let mut view = TensorViewMut::<i32, Shape![3, 2]>::try_from_slice(&mut data).unwrap();
    for v in &mut view {
        *v = -*v;
    }
    view.iter_mut().for_each(|v| *v += 1);
    assert_eq!(view[[2, 1]], -12);
    let shared = view.as_view();
    assert_eq!(shared.iter().filter(|v| **v < -5).count(), 4);
    let mapped: Tensor<bool, Shape![3, 2]> = shared.map(|v| v % 4 == 0);
    assert_eq!(mapped.as_slice(), &[false, true, false, true, false, true]);
}

#[test]
fn cast_follows_as() {
    let x = Tensor::<f64, Shape![6]>::new([1.9, -1.9, 1e10, -1e10, f64::NAN, 0.5]);
    let by_as: Vec<i16> = x.iter().map(|&v| v as i16).collect();
    assert_eq!(x.cast::<i16>().to_vec(), by_as);
    assert_eq!(
        x.cast::<i16>().as_slice(),
        &[1, -1, i16::MAX, i16::MIN, 0, 0]
    );
    assert_eq!(x.cast::<u32>().as_slice(), &[1, 0, u32::MAX, 0, 0, 0]);
    let y = Tensor::<i64, Shape![3]>::new([-1, 256 + 7, (1 << 53) + 1]);
    assert_eq!(y.cast::<u8>().as_slice(), &[255, 7, 1]);
    assert_eq!(
        y.cast::<f64>().as_slice(),
        &[-1.0, 263.0, 9007199254740992.0]
    );
    assert_eq!(y.view().cast::<i8>().as_slice(), &[-1, 7, 1]);
}

/// Weights a converter wrote as a flat `static` array, viewed in a `static`
/// with no run-time check, as an operand of a dense layer.
#[test]
fn a_static_flat_array_is_a_tensor_operand() {
    static WEIGHTS: [f32; 6] = [1.0, -2.0, 0.5, 4.0, 0.0, -1.0];
    static W: TensorView<'static, f32, Shape![3, 2]> = TensorView::from_array(&WEIGHTS);
    let x: Tensor<f32, Shape![1, 3]> = tensor![[1.0, 2.0, 3.0]];
    let b: Tensor<f32, Shape![2]> = tensor![0.5, -0.5];
    let y = tensor_expr!(x @ W + b);
    let w = TensorView::<f32, Shape![3, 2]>::try_from_slice(&WEIGHTS).unwrap();
    assert_eq!(y.as_slice(), tensor_expr!(x @ w + b).as_slice());
    assert_eq!(
        y.as_slice(),
        &[1.0 + 1.0 + 0.0 + 0.5, -2.0 + 8.0 - 3.0 - 0.5]
    );
}
