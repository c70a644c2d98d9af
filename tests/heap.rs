//! `HeapTensor` (feature `alloc`, on with `std`): shapes too big for the stack,
//! evaluated with a small stack.
#![cfg(feature = "alloc")]

use tensor_expr::prelude::*;

/// A `[4096, 4096]` f32 tensor (64 MiB) created and evaluated into on a thread
/// whose whole stack is 64 KiB: neither the tensors nor the nest may put more
/// than a few accumulators there.
#[test]
fn big_tensor_on_a_64_kib_stack() {
    let worker = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(|| {
            let a = HeapTensor::<f32, Shape![4096, 4096]>::from_flat_fn(|p| (p % 7) as f32 - 3.0);
            let row = HeapTensor::<f32, Shape![4096]>::from_flat_fn(|p| (p % 5) as f32);
            let mut big = HeapTensor::<f32, Shape![4096, 4096]>::zeros();
            tensor_expr!(big = relu(a * 2.0 + row));
            tensor_expr!(big += in_dims(row, [0]));
            let corner = big[[4095, 4095]];
            let expected = |i: usize, j: usize| {
                let p = i * 4096 + j;
                (((p % 7) as f32 - 3.0) * 2.0 + (j % 5) as f32).max(0.0) + (i % 5) as f32
            };
            for (i, j) in [(0, 0), (1, 2), (17, 4000), (4095, 4095)] {
                assert_eq!(big[[i, j]], expected(i, j), "at [{i}, {j}]");
            }
            assert_eq!(big.as_slice().len(), 4096 * 4096);
            corner
        })
        .expect("thread starts");
    worker.join().expect("no stack overflow, no panic");
}

/// Products into a heap tensor on the same small stack: the tiled nest keeps
/// one block of accumulators (at most 8 x 32 f32, 1 KiB), not a row or a copy of
/// an operand (a large product's packed copies are on the heap). Optimised builds run it in 64 KiB. Unoptimised builds keep every
/// temporary of the always-inlined tile code of all tile widths in one frame:
/// the AVX-512 nest (8-row tiles of 32 columns) needs more than 128 but less
/// than 192 KiB (measured), hence the 256 there.
#[test]
fn big_product_on_a_64_kib_stack() {
    let stack = if cfg!(debug_assertions) { 256 } else { 64 } * 1024;
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(|| {
            let x = HeapTensor::<f32, Shape![64, 512]>::from_flat_fn(|p| (p % 3) as f32);
            let w = HeapTensor::<f32, Shape![512, 1024]>::full(0.5);
            let mut y = HeapTensor::<f32, Shape![64, 1024]>::zeros();
            tensor_expr!(y = x @ w);
            let row_sum: f32 = (0..512).map(|k| ((k % 3) as f32) * 0.5).sum();
            assert_eq!(y[[0, 0]], row_sum);
            assert_eq!(y[[0, 1023]], row_sum);
            // A right operand of 4 MiB: computed in blocks from packed
            // copies, which live on the heap.
            let x = HeapTensor::<f32, Shape![64, 1024]>::from_flat_fn(|p| (p % 3) as f32);
            let w = HeapTensor::<f32, Shape![1024, 1024]>::full(0.5);
            tensor_expr!(y = x @ w);
            let row_sum: f32 = (0..1024).map(|k| ((k % 3) as f32) * 0.5).sum();
            assert_eq!(y[[63, 0]], row_sum);
            assert_eq!(y[[0, 1023]], row_sum);
        })
        .expect("thread starts")
        .join()
        .expect("no stack overflow, no panic");
}

#[test]
fn heap_tensor_api() {
    let t = HeapTensor::<i32, Shape![2, 3]>::try_from_slice(&[1, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(t[[1, 0]], 4);
    assert_eq!(
        t.to_string(),
        Tensor::<i32, Shape![2, 3]>::try_from_slice(t.as_slice())
            .unwrap()
            .to_string()
    );
    let error = HeapTensor::<i32, Shape![2, 3]>::try_from_vec(vec![1, 2]).unwrap_err();
    assert_eq!((error.expected, error.actual), (6, 2));
    let doubled = tensor_expr!(t * 2);
    assert_eq!(doubled.as_slice(), &[2, 4, 6, 8, 10, 12]);
    let mut view_target = HeapTensor::<i32, Shape![2, 3]>::zeros();
    let mut v = view_target.view_mut();
    tensor_expr!(v = t.view() + 1);
    assert_eq!(view_target.into_vec(), vec![2, 3, 4, 5, 6, 7]);
}

/// `tensor_expr!(e)` puts a new tensor on the heap when an operand lives there,
/// and on the stack otherwise: the type says which, with no annotation.
#[test]
fn storage_follows_the_operands() {
    let heap = HeapTensor::<f32, Shape![2, 3]>::from_fn(|[i, j]| (3 * i + j) as f32);
    let stack = Tensor::<f32, Shape![3]>::new([1., 2., 3.]);
    let on_heap: HeapTensor<f32, Shape![2, 3]> = tensor_expr!(heap * 2.0 + stack);
    let gram: HeapTensor<f32, Shape![3, 3]> = tensor_expr!(transpose(heap) @ heap);
    let on_stack: Tensor<f32, Shape![3]> = tensor_expr!(stack * stack);
    let by_reference: HeapTensor<f32, Shape![2, 3]> = tensor_expr!((&heap) - 1);
    assert_eq!(on_heap.as_slice(), &[1., 4., 7., 7., 10., 13.]);
    assert_eq!(gram[[0, 2]], 0. * 2. + 3. * 5.);
    assert_eq!(on_stack.as_slice(), &[1., 4., 9.]);
    assert_eq!(by_reference[[1, 2]], 4.);
}

/// The image of NumPy's broadcasting example, `[256, 256, 3]` f32 (786 KB),
/// normalised per channel in an ordinary test (2 MiB stack, debug build):
/// heap operands make a heap result, so nothing that big touches the stack.
#[test]
fn image_normalisation_in_an_ordinary_test() {
    let image = HeapTensor::<f32, Shape![256, 256, 3]>::from_fn(|[i, j, c]| {
        ((i * 7 + j * 3 + c * 11) % 256) as f32
    });
    let mean = Tensor::<f32, Shape![3]>::new([120., 125., 130.]);
    let scale = Tensor::<f32, Shape![3]>::new([1. / 60., 1. / 62., 1. / 64.]);
    let normalised = tensor_expr!((image / 255.0 - mean / 255.0) * scale * 255.0);
    for (i, j, c) in [(0, 0, 0), (17, 200, 1), (255, 255, 2)] {
        let expected = (image[[i, j, c]] / 255.0 - mean[[c]] / 255.0) * scale[[c]] * 255.0;
        assert!(
            (normalised[[i, j, c]] - expected).abs() < 1e-5,
            "at [{i}, {j}, {c}]"
        );
    }
}

#[test]
fn heap_constructors_match_the_stack_ones() {
    type S = Shape![2, 3];
    let from_fn = HeapTensor::<i32, S>::from_fn(|[i, j]| (10 * i + j) as i32);
    assert_eq!(
        from_fn.as_slice(),
        Tensor::<i32, S>::from_fn(|[i, j]| (10 * i + j) as i32).as_slice()
    );
    assert_eq!(HeapTensor::<i32, S>::new([[1, 2, 3], [4, 5, 6]])[[1, 0]], 4);
    assert_eq!(HeapTensor::<i32, S>::full(7).as_slice(), &[7; 6]);
    assert_eq!(HeapTensor::<i32, S>::default().as_slice(), &[0; 6]);
    assert_eq!(
        HeapTensor::<i32, S>::try_from_slice(&[1; 6])
            .unwrap()
            .as_slice(),
        &[1; 6]
    );
    let error = HeapTensor::<i32, S>::try_from(vec![1; 5]).unwrap_err();
    assert_eq!((error.expected, error.actual), (6, 5));
    assert_eq!(
        HeapTensor::from(Tensor::<i32, S>::full(3)).as_slice(),
        &[3; 6]
    );
    assert_eq!(from_fn.get([1, 2]), Some(&12));
    assert_eq!(from_fn.get([2, 0]), None);
    let reshaped: HeapTensor<i32, Shape![3, 2]> = from_fn.into_shape();
    assert_eq!(reshaped[[2, 1]], 12);
}

/// Every way to make a `HeapTensor` puts its first element on a 64-byte
/// boundary, whatever the element type, so the fused loop's vector loads of a
/// row never straddle cache lines at its start.
#[test]
fn heap_tensors_start_on_a_cache_line() {
    fn aligned<T>(elements: &[T]) -> bool {
        (elements.as_ptr() as usize).is_multiple_of(64)
    }
    // Several of each: one aligned by luck would not prove the rule.
    for _ in 0..8 {
        let x = HeapTensor::<f32, Shape![3, 5]>::from_fn(|[i, j]| (i * 5 + j) as f32);
        assert!(aligned(x.as_slice()));
        assert!(aligned(x.clone().as_slice()));
        assert!(aligned(tensor_expr!(x * 2.0).as_slice()));
        let moved = HeapTensor::<f32, Shape![3, 5]>::try_from_vec(x.as_slice().to_vec()).unwrap();
        assert!(aligned(moved.as_slice()));
        assert_eq!(moved.as_slice(), x.as_slice());
        assert!(aligned(HeapTensor::<u8, Shape![7]>::zeros().as_slice()));
        assert!(aligned(
            HeapTensor::<f64, Shape![2, 2]>::full(1.5).as_slice()
        ));
        assert!(aligned(
            HeapTensor::<i16, Shape![9]>::try_from_slice(&[3; 9])
                .unwrap()
                .as_slice()
        ));
        let small = Tensor::<u16, Shape![3]>::new([1, 2, 3]);
        assert!(aligned(small.to_heap().as_slice()));
        assert!(aligned(HeapTensor::from(small).as_slice()));
        assert!(aligned(
            HeapTensor::<u16, Shape![3]>::new([4, 5, 6]).as_slice()
        ));
        assert!(aligned(x.view().to_heap().as_slice()));
    }
}
