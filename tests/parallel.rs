//! The `rayon` feature: large outputs split across threads give the serial
//! result bit for bit (the parts end where the serial walk's tiles and
//! blocks do, so every element is computed by the same operations in the
//! same order). Each expression runs in a pool of one thread (serial) and
//! of three (more parts than this machine may have cores).
#![cfg(feature = "rayon")]

use tensor_expr::prelude::*;

/// `f()` run in a rayon pool of `threads` threads.
fn in_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(f)
}

/// Values with no pattern a wrong split could hide behind.
fn noise<S: tensor_expr::Shape>(seed: u32) -> HeapTensor<f32, S> {
    HeapTensor::from_flat_fn(|p| {
        let x = (p as u32)
            .wrapping_mul(2_654_435_761)
            .wrapping_add(seed.wrapping_mul(40_503));
        (x >> 8) as f32 / (1u32 << 24) as f32 - 0.5
    })
}

/// `compute` in one thread and in three give the same bits.
fn same_bits<S: tensor_expr::Shape + Send>(compute: impl Fn() -> HeapTensor<f32, S> + Sync) {
    let serial = in_pool(1, &compute);
    let split = in_pool(3, &compute);
    let differing = serial
        .as_slice()
        .iter()
        .zip(split.as_slice())
        .position(|(a, b)| a.to_bits() != b.to_bits());
    assert_eq!(differing, None, "first differing element");
}

/// A product packed in blocks (right operand 4 MiB), with a fused
/// epilogue; 200 rows are three parts of whole blocks of 64 and a rest.
#[test]
fn packed_product_with_epilogue() {
    let x = noise::<Shape![200, 1024]>(1);
    let w = noise::<Shape![1024, 1024]>(2);
    let b = noise::<Shape![1024]>(3);
    same_bits(|| tensor_expr!(relu(x @ w + b)));
}

/// Tiled products, not packed: a batch of three matrices of 100 rows (the
/// parts cross matrices), and a transposed left operand.
#[test]
fn tiled_products_across_matrices() {
    let x = noise::<Shape![3, 100, 256]>(4);
    let w = noise::<Shape![256, 300]>(5);
    same_bits(|| tensor_expr!(x @ w * 0.5));
    let a = noise::<Shape![256, 300]>(6);
    same_bits(|| tensor_expr!(transpose(a) @ w));
}

/// Elementwise walks: one flat loop, rows with a broadcast row, a
/// broadcast column.
#[test]
fn elementwise_walks() {
    let a = noise::<Shape![1024, 1024]>(7);
    let c = noise::<Shape![1024, 1024]>(8);
    let row = noise::<Shape![1024]>(9);
    let column = noise::<Shape![1024, 1]>(10);
    same_bits(|| tensor_expr!(exp(a) * c + 1.0));
    same_bits(|| tensor_expr!(tanh(a * row + column)));
}

/// A channels-first convolution, whose tiles step along the channels.
#[test]
fn convolution_channels_first() {
    let x = noise::<Shape![2, 16, 66, 66]>(11);
    let w = noise::<Shape![32, 16, 3, 3]>(12);
    same_bits(|| tensor_expr!(relu(conv2d(x, w))));
}

/// Expressions with row caches (a reduction beside elementwise work) are
/// walked on one thread; the result is the same.
/// An int8 convolution channels last (38 M multiply-adds, split across
/// threads): where the CPU has VNNI, the threads share the weights the
/// first tile packs.
#[test]
fn int8_convolution_channels_last() {
    let bytes = |seed: u32, n: usize| -> Vec<i8> {
        (0..n as u32)
            .map(|p| (p.wrapping_mul(2_654_435_761).wrapping_add(seed) >> 24) as u8 as i8)
            .collect()
    };
    let x =
        HeapTensor::<i8, Shape![1, 32, 32, 64]>::try_from_slice(&bytes(1, 32 * 32 * 64)).unwrap();
    let w = HeapTensor::<i8, Shape![64, 3, 3, 64]>::try_from_slice(&bytes(2, 64 * 9 * 64)).unwrap();
    let zx = -3;
    let compute = || -> HeapTensor<i32, Shape![1, 32, 32, 64]> {
        tensor_expr!(conv2d(
            cast::<i32>(x) - zx,
            cast::<i32>(w),
            padding = same,
            layout = nhwc
        ))
    };
    let serial = in_pool(1, compute);
    let split = in_pool(3, compute);
    assert_eq!(serial.as_slice(), split.as_slice());
}

#[test]
fn row_caches_stay_serial() {
    let a = noise::<Shape![1024, 512]>(13);
    same_bits(|| tensor_expr!(a - mean(a, [1], keepdim)));
}

/// An in-place update splits like a new tensor: each part reads its own
/// elements of the target.
#[test]
fn in_place_update() {
    let a = noise::<Shape![1024, 1024]>(14);
    let run = |threads| {
        in_pool(threads, || {
            let mut target = noise::<Shape![1024, 1024]>(15);
            tensor_expr!(target += a * 2.0);
            target
        })
    };
    assert_eq!(run(1).as_slice(), run(3).as_slice());
}

/// Rows counted at run time (`Shape![Dyn, ..]`) split across threads by
/// whole chunks of 64 rows: the serial walk's chunks, so the same bits. 999
/// rows end in chunks of every smaller size.
#[test]
fn run_time_rows_split_by_chunks() {
    let a = noise::<Shape![999, 1024]>(16);
    let x = HeapTensor::<f32, Shape![Dyn, 1024]>::try_from_slice(a.as_slice()).expect("whole rows");
    let row = noise::<Shape![1024]>(17);
    let w = noise::<Shape![1024, 300]>(18);
    let bits = |t: HeapTensor<f32, Shape![Dyn, 1024]>| {
        t.as_slice().iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    };
    let run = |threads| in_pool(threads, || bits(tensor_expr!(exp(x) * row + 1.0)));
    assert_eq!(run(1), run(3));
    let product = |threads| in_pool(threads, || tensor_expr!(relu(x @ w)).into_vec());
    let (serial, split) = (product(1), product(3));
    let differing = serial
        .iter()
        .zip(&split)
        .position(|(a, b)| a.to_bits() != b.to_bits());
    assert_eq!(differing, None, "first differing element");
}
