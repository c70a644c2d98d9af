//! Static slicing: `at`, `index_axis`, `narrow`, their shapes, their values
//! (against ndarray's slicing of the same data), and their use as operands
//! of `tensor_expr!` without a copy.

use ndarray::{s, Array, Axis};
use tensor_expr::prelude::*;
use tensor_expr::D;

fn x() -> Tensor<i64, Shape![3, 4, 5]> {
    Tensor::<i64, Shape![3, 4, 5]>::from_fn(|[i, j, k]| (100 * i + 10 * j + k) as i64)
}

fn oracle() -> ndarray::Array3<i64> {
    Array::from_shape_vec((3, 4, 5), x().to_vec()).unwrap()
}

#[test]
fn at_is_a_contiguous_sub_tensor() {
    let x = x();
    let row: TensorView<'_, i64, Shape![4, 5]> = x.at(2);
    assert_eq!(
        row.to_vec(),
        oracle()
            .index_axis(Axis(0), 2)
            .iter()
            .copied()
            .collect::<Vec<_>>()
    );
    assert_eq!(row.at(3).as_slice(), &[230, 231, 232, 233, 234]);
    assert!(x.try_at(3).is_none());
    let heap = x.to_heap();
    assert_eq!(heap.at(1)[[0, 4]], 104);
}

#[test]
#[should_panic(expected = "index 3 is out of range for axis 0 of size 3")]
fn at_out_of_range_panics_with_the_size() {
    let _ = x().at(3);
}

#[test]
fn index_axis_matches_ndarray_on_every_axis() {
    let (x, nd) = (x(), oracle());
    for i in 0..3 {
        let ours = x.index_axis::<0>(i);
        assert_eq!(ours.shape(), &[4, 5]);
        assert!(ours.iter().eq(nd.index_axis(Axis(0), i).iter()));
    }
    for j in 0..4 {
        let ours = x.index_axis::<1>(j);
        assert_eq!(ours.shape(), &[3, 5]);
        assert!(ours.iter().eq(nd.index_axis(Axis(1), j).iter()));
    }
    for k in 0..5 {
        let ours = x.index_axis::<2>(k);
        assert_eq!(ours.shape(), &[3, 4]);
        assert!(ours.iter().eq(nd.index_axis(Axis(2), k).iter()));
        assert_eq!(ours[[2, 3]], nd[[2, 3, k]]);
    }
    assert!(x.try_index_axis::<2>(5).is_none());
    // Slices of slices: x[1, :, 3].
    let both = x.index_axis::<0>(1).index_axis::<1>(3);
    assert!(both.iter().eq(nd.slice(s![1, .., 3]).iter()));
}

#[test]
fn narrow_matches_ndarray() {
    let (x, nd) = (x(), oracle());
    let middle = x.narrow::<1, 1, 2>();
    assert_eq!(middle.shape(), &[3, 2, 5]);
    assert!(middle.iter().eq(nd.slice(s![.., 1..3, ..]).iter()));
    let last = x.narrow::<2, 3, 2>();
    assert!(last.iter().eq(nd.slice(s![.., .., 3..5]).iter()));
    let corner = x.narrow::<0, 1, 2>().narrow::<2, 0, 1>();
    assert_eq!(corner.shape(), &[2, 4, 1]);
    assert!(corner.iter().eq(nd.slice(s![1..3, .., 0..1]).iter()));
    // A range of length 1 is `D<1>`, a size, not the broadcasting `One`.
    let copy: Tensor<i64, (D<2>, D<4>, D<1>)> = corner.to_tensor();
    assert_eq!(copy[[1, 3, 0]], 230);
    assert_eq!(x.narrow::<1, 0, 0>().iter().count(), 0);
    assert_eq!(x.narrow::<1, 1, 2>().get([2, 1, 4]), Some(&224));
    assert_eq!(x.narrow::<1, 1, 2>().get([2, 2, 4]), None);
}

#[test]
fn slices_are_operands() {
    let m = Tensor::<f32, Shape![4, 6]>::from_fn(|[i, j]| (i * 6 + j) as f32);
    let bias = Tensor::<f32, Shape![3]>::new([0.5, 1.5, 2.5]);
    // The middle three columns plus a bias: NumPy's m[:, 1:4] + bias.
    let y = tensor_expr!(m.narrow::<1, 1, 3>() + bias);
    let expected = Tensor::<f32, Shape![4, 3]>::from_fn(|[i, j]| m[[i, j + 1]] + bias[[j]]);
    assert_eq!(y, expected);
    // A column broadcast against the matrix: m - m[:, 0:1].
    let first = m.index_axis_keepdim::<1>(0);
    assert_eq!(first.shape(), &[4, 1]);
    let centred = tensor_expr!(m - first);
    assert_eq!(centred.at(2).as_slice(), &[0., 1., 2., 3., 4., 5.]);
    // A row and a column from `index_axis`, in one expression.
    let row = m.at(1);
    let column = m.index_axis::<1>(2);
    let outer = tensor_expr!(m.index_axis_keepdim::<1>(2) * row + { column[[0]] });
    assert_eq!(outer[[3, 5]], m[[3, 2]] * m[[1, 5]] + 2.0);
    assert_eq!(tensor_expr!(column * 2).as_slice(), &[4., 16., 28., 40.]);
    // Reductions and functions read them too.
    let sums = tensor_expr!(sum(m.narrow::<0, 2, 2>(), [0]));
    assert_eq!(sums.as_slice(), &[30., 32., 34., 36., 38., 40.]);
    // Into a target.
    let mut out = Tensor::<f32, Shape![4, 2]>::zeros();
    tensor_expr!(out += m.narrow::<1, 4, 2>() * 2);
    assert_eq!(out[[3, 1]], 46.0);
}

#[test]
fn strided_views_print_like_numpy() {
    let m = Tensor::<f32, Shape![2, 3]>::new([[1., 2.5, 3.], [4., 5., -6.]]);
    assert_eq!(m.index_axis::<1>(1).to_string(), "[2.5 5. ]");
    assert_eq!(
        format!("{:?}", m.narrow::<1, 0, 2>()),
        "[[1.0, 2.5],\n [4.0, 5.0]]"
    );
}

/// A strided slice as an operand of `@` (either side) and of a reduction
/// gives what its contiguous copy gives.
#[test]
fn slices_in_products_match_their_copies() {
    let m = Tensor::<f32, Shape![5, 7]>::from_fn(|[i, j]| ((i * 7 + j) % 5) as f32 - 1.5);
    let w = Tensor::<f32, Shape![4, 3]>::from_fn(|[i, j]| (i + 2 * j) as f32 * 0.25);
    let left = m.narrow::<1, 2, 4>();
    let left_copy = left.to_tensor();
    assert_eq!(tensor_expr!(left @ w), tensor_expr!(left_copy @ w));
    let right = m.narrow::<0, 1, 4>().narrow::<1, 3, 3>();
    let right_copy = right.to_tensor();
    let square = Tensor::<f32, Shape![2, 4]>::full(0.5);
    assert_eq!(
        tensor_expr!(square @ right),
        tensor_expr!(square @ right_copy)
    );
    let column = m.index_axis::<1>(6);
    let column_copy = column.to_tensor();
    assert_eq!(
        tensor_expr!(m.narrow::<1, 0, 5>() @ column),
        tensor_expr!(m.narrow::<1, 0, 5>().to_tensor() @ column_copy)
    );
    assert_eq!(
        tensor_expr!(
            exp(left - max(left, [1], keepdim))
                / sum(exp(left - max(left, [1], keepdim)), [1], keepdim)
        ),
        tensor_expr!(
            exp(left_copy - max(left_copy, [1], keepdim))
                / sum(exp(left_copy - max(left_copy, [1], keepdim)), [1], keepdim)
        )
    );
}

/// The same at a size that takes the tiled (and, with `std`, run-time
/// dispatched) product kernels.
#[test]
fn a_strided_slice_in_a_tiled_product() {
    let m =
        HeapTensor::<f32, Shape![64, 130]>::from_fn(|[i, j]| ((i * 31 + j * 17) % 11) as f32 - 5.0);
    let w =
        HeapTensor::<f32, Shape![128, 64]>::from_fn(|[i, j]| ((i * 7 + j * 3) % 5) as f32 * 0.5);
    let left = m.narrow::<1, 1, 128>();
    let left_copy = left.to_heap();
    let fused = tensor_expr!(left @ w + 1.0);
    let copied = tensor_expr!(left_copy @ w + 1.0);
    assert_eq!(fused, copied);
    let right = w.view().narrow::<1, 0, 32>();
    let right_copy = right.to_heap();
    assert_eq!(
        tensor_expr!(left_copy @ right),
        tensor_expr!(left_copy @ right_copy)
    );
}

/// `to_tensor` and `to_heap` copy row by row with an odometer over the outer
/// dims: each view's copy against ndarray's slice of the same data, for
/// views strided on the last dim, an outer dim or both, and of rank 0 to 3.
#[test]
fn copies_of_views_hold_the_viewed_elements() {
    let x = x();
    let nd = oracle();
    let same = |copy: Vec<i64>, expected: Vec<i64>| assert_eq!(copy, expected);
    let middle = x.narrow::<1, 1, 2>();
    same(
        middle.to_tensor().to_vec(),
        nd.slice(s![.., 1..3, ..]).iter().copied().collect(),
    );
    same(
        middle.to_heap().to_vec(),
        nd.slice(s![.., 1..3, ..]).iter().copied().collect(),
    );
    let last = x.narrow::<2, 2, 3>();
    same(
        last.to_tensor().to_vec(),
        nd.slice(s![.., .., 2..5]).iter().copied().collect(),
    );
    let column = x.index_axis::<2>(4);
    same(
        column.to_tensor().to_vec(),
        nd.slice(s![.., .., 4]).iter().copied().collect(),
    );
    same(
        column.to_heap().to_vec(),
        nd.slice(s![.., .., 4]).iter().copied().collect(),
    );
    let both = x.narrow::<0, 1, 2>().index_axis::<1>(3);
    same(
        both.to_tensor().to_vec(),
        nd.slice(s![1..3, 3, ..]).iter().copied().collect(),
    );
    let kept = x.index_axis_keepdim::<1>(2).narrow::<2, 1, 3>();
    same(
        kept.to_tensor().to_vec(),
        nd.slice(s![.., 2..3, 1..4]).iter().copied().collect(),
    );
    let element = x.index_axis::<0>(2).index_axis::<0>(1).index_axis::<0>(3);
    same(element.to_tensor().to_vec(), vec![213]);
    let empty = x.narrow::<1, 4, 0>();
    assert!(empty.to_tensor().to_vec().is_empty());
}

/// `from_fn` hands each element its multi-index in row-major order, for
/// every rank the odometer walks (and a size-0 dim, which it never calls).
#[test]
fn from_fn_visits_every_index_in_row_major_order() {
    let mut seen = Vec::new();
    let t = Tensor::<i64, Shape![2, 3, 1, 2]>::from_fn(|[i, j, k, l]| {
        seen.push([i, j, k, l]);
        (1000 * i + 100 * j + 10 * k + l) as i64
    });
    let expected: Vec<[usize; 4]> = (0..12).map(|p| [p / 6, p / 2 % 3, 0, p % 2]).collect();
    assert_eq!(seen, expected);
    assert_eq!(t.as_slice()[7], 1001);
    let heap = HeapTensor::<i64, Shape![2, 3, 1, 2]>::from_fn(|[i, j, k, l]| {
        (1000 * i + 100 * j + 10 * k + l) as i64
    });
    assert_eq!(heap.as_slice(), t.as_slice());
    let scalar = Tensor::<i64, Shape![]>::from_fn(|[]| 7);
    assert_eq!(scalar.as_slice(), &[7]);
    let empty = Tensor::<i64, Shape![2, 0]>::from_fn(|_| unreachable!());
    assert!(empty.as_slice().is_empty());
}

#[test]
fn writable_slices_are_assignment_targets() {
    let a = Tensor::<f32, Shape![2, 3]>::from_flat_fn(|k| k as f32);
    let b = Tensor::<f32, Shape![3]>::new([10.0, 20.0, 30.0]);
    let mut y = Tensor::<f32, Shape![4, 3]>::zeros();
    tensor_expr!(y.narrow_mut::<0, 1, 2>() = a * 2.0 + b);
    tensor_expr!(y.at_mut(3) += b);
    assert_eq!(
        y.as_slice(),
        &[0.0, 0.0, 0.0, 10.0, 22.0, 34.0, 16.0, 28.0, 40.0, 10.0, 20.0, 30.0]
    );
    // On the heap and through a mutable view; along an axis after dims of 1.
    let mut heap = HeapTensor::<f32, Shape![4, 3]>::zeros();
    tensor_expr!(heap.narrow_mut::<0, 2, 2>() = a);
    assert_eq!(&heap.as_slice()[6..], a.as_slice());
    let mut data = [0.0f32; 12];
    let mut view = TensorViewMut::<f32, Shape![1, 4, 3]>::try_from_slice(&mut data).unwrap();
    tensor_expr!(view.narrow_mut::<1, 0, 2>() = reshape::<Shape![1, 2, 3]>(a) - 1.0);
    assert_eq!(&data[..6], &[-1.0, 0.0, 1.0, 2.0, 3.0, 4.0]);
    assert_eq!(&data[6..], &[0.0; 6]);
}
