//! Whole programs, each one `tensor_expr!` per step and checked against plain
//! loops: a 2-layer MLP with a softmax (one expression), the same MLP over a
//! number of images known only at run time (`Shape![Dyn, 784]`), NumPy's image
//! normalisation per channel, pairwise distances between points, a
//! constant-velocity Kalman filter (each equation as the maths reads), a
//! keyword-spotting CNN and its depthwise-separable variant, a 64-tap
//! FIR filter; then the MLP, a Kalman step and MLPerf Tiny's int8 keyword
//! spotter as programs with planned memory (`#[tensor_expr::program]`),
//! each with its arena's size, the stack a call takes and the heap (the
//! int8 kernels' packed weights and padded inputs).
//!
//! `cargo run --release --example programs`

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tensor_expr::prelude::*;

/// The system allocator, counting the bytes live on each thread and their
/// peak ([`heap_high_water`]).
struct Measured;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl GlobalAlloc for Measured {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.with(|live| {
            live.set(live.get() + layout.size());
            live.get()
        });
        PEAK.with(|peak| peak.set(peak.get().max(live)));
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.with(|live| live.set(live.get().saturating_sub(layout.size())));
        // SAFETY: `ptr` came from `alloc` above, with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Measured = Measured;

/// The most heap `f` had allocated at once on this thread beyond what was
/// live before it.
fn heap_high_water(f: &mut dyn FnMut()) -> usize {
    let before = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(before));
    f();
    PEAK.with(Cell::get) - before
}

fn pseudo(seed: usize) -> f32 {
    ((seed.wrapping_mul(2654435761) >> 7) % 1000) as f32 / 1000.0 - 0.5
}

/// The class of each image of a batch whose size is known at run time.
fn classify(images: &HeapTensor<f32, Shape![Dyn, 784]>, (w1, b1, w2, b2): Layers) -> Vec<usize> {
    tensor_expr!(argmax(relu(images @ w1 + b1) @ w2 + b2, [1])).into_vec()
}

fn main() {
    // MLP [32, 784] -> 128 -> 10 with a softmax: one expression; the macro
    // stages the hidden layer and the logits, so every product is tiled.
    let x = HeapTensor::<f32, Shape![32, 784]>::from_flat_fn(pseudo);
    let w1 = HeapTensor::<f32, Shape![784, 128]>::from_flat_fn(|p| pseudo(p + 7) * 0.1);
    let b1 = Tensor::<f32, Shape![128]>::from_fn(|[j]| pseudo(j + 11));
    let w2 = HeapTensor::<f32, Shape![128, 10]>::from_flat_fn(|p| pseudo(p + 13));
    let b2 = Tensor::<f32, Shape![10]>::from_fn(|[c]| pseudo(c + 17));
    let p = tensor_expr!(softmax(relu(x @ w1 + b1) @ w2 + b2, [1]));
    let mut worst = 0.0f32;
    for i in 0..32 {
        let hidden: Vec<f32> = (0..128)
            .map(|j| ((0..784).map(|k| x[[i, k]] * w1[[k, j]]).sum::<f32>() + b1[[j]]).max(0.0))
            .collect();
        let logits: Vec<f32> = (0..10)
            .map(|c| (0..128).map(|j| hidden[j] * w2[[j, c]]).sum::<f32>() + b2[[c]])
            .collect();
        let max = logits.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        let total: f32 = logits.iter().map(|l| (l - max).exp()).sum();
        for c in 0..10 {
            worst = worst.max((p[[i, c]] - (logits[c] - max).exp() / total).abs());
        }
    }
    println!(
        "MLP + softmax, [32, 784] -> 128 -> 10, one expression: row 0 = {:.4?}",
        &p.as_slice()[..10]
    );
    println!("  largest difference from plain loops: {worst:.2e}");
    assert!(worst < 1e-5);

    // The same classifier over requests of any number of images: the batch
    // is `Dyn`, every other dim static and checked when the code is built.
    let weights = (&w1, &b1, &w2, &b2);
    for images in [1, 7, 100] {
        let batch =
            HeapTensor::<f32, Shape![Dyn, 784]>::from_fn_rows(images, |[i, k]| pseudo(i * 784 + k));
        let classes = classify(&batch, weights);
        let first = &x.as_slice()[..784] == batch.at(0).as_slice();
        println!(
            "MLP over a run-time batch of {images}: classes {:?}{}",
            &classes[..classes.len().min(8)],
            if first { " (image 0 as above)" } else { "" }
        );
        assert_eq!(classes.len(), images);
        let expected = tensor_expr!(argmax(relu(x @ w1 + b1) @ w2 + b2, [1]));
        assert_eq!(classes[0], expected[[0]]);
    }

    // NumPy's broadcasting example: a [256, 256, 3] image scaled per channel.
    let image = HeapTensor::<f32, Shape![256, 256, 3]>::from_fn(|[i, j, c]| {
        ((i * 7 + j * 3 + c * 11) % 256) as f32
    });
    let mean = Tensor::<f32, Shape![3]>::new([120., 125., 130.]);
    let scale = Tensor::<f32, Shape![3]>::new([1. / 60., 1. / 62., 1. / 64.]);
    let normalised = tensor_expr!((image - mean) * scale);
    let mut worst = 0.0f32;
    for (p, (&got, &pixel)) in normalised
        .as_slice()
        .iter()
        .zip(image.as_slice())
        .enumerate()
    {
        worst = worst.max((got - (pixel - mean[[p % 3]]) * scale[[p % 3]]).abs());
    }
    println!("image [256, 256, 3] normalised per channel (a HeapTensor, as its input): pixel [0, 0] = {:?}", &normalised.as_slice()[..3]);
    println!("  largest difference from plain loops: {worst:.2e}");
    assert_eq!(worst, 0.0);

    // Pairwise squared distances: sum_k (p_ik - p_jk)^2, the broadcast
    // difference of [5, 1, 3] and [5, 3]. (The expanded form |p_i|^2 + |p_j|^2
    // - 2 p_i . p_j needs one product but cancels where the points are far
    // from the origin compared with each other.)
    let points = Tensor::<f64, Shape![5, 3]>::from_fn(|[i, k]| pseudo(3 * i + k) as f64 * 4.0);
    let d = tensor_expr!(sum(
        square(reshape::<Shape![5, 1, 3]>(points) - points),
        [2]
    ));
    let mut worst = 0.0f64;
    for i in 0..5 {
        for j in 0..5 {
            let want: f64 = (0..3)
                .map(|k| (points[[i, k]] - points[[j, k]]).powi(2))
                .sum();
            worst = worst.max((d[[i, j]] - want).abs());
        }
    }
    println!("pairwise squared distances of 5 points:\n{d}");
    println!("  largest difference from plain loops: {worst:.2e}");
    assert!(worst < 1e-9);

    kalman();
    keyword_spotting();
    fir_filter();
    planned_programs(weights);
}

#[path = "../tests/models/kws.rs"]
#[allow(dead_code)]
mod kws;

#[path = "../tests/models/programs.rs"]
mod planned;
use planned::Layers;

/// The MLP, a Kalman step and MLPerf Tiny's int8 keyword spotter as
/// programs: the same values as the statements written separately, the
/// stack each takes (the arena on its own stack, or lent) and the heap.
fn planned_programs(layers: Layers) {
    println!("programs with planned memory (stack: release build; debug frames are larger):");
    planned::on_a_large_stack(|| {
        for memory in planned::memory_of_programs(layers, Some(&heap_high_water)) {
            let lent = memory
                .lent
                .map_or(String::new(), |lent| format!(" (arena lent: {lent} B)"));
            let heap = memory
                .heap
                .map_or(String::new(), |heap| format!(", heap {heap} B"));
            let bound = if memory.within_bounds() {
                ""
            } else {
                " (over its bound: the arena plus 2,048 B)"
            };
            println!(
                "  {}: arena {} B, stack {} B{lent}{heap}{bound}",
                memory.program, memory.arena, memory.on_stack
            );
        }
        let model = kws::Kws::load();
        let input = Tensor::<i8, kws::Input>::from_flat_fn(|i| (i * 37 % 256) as i8);
        let separate = planned::stack_high_water(&mut || {
            std::hint::black_box(model.run(std::hint::black_box(&input)));
        });
        println!(
            "  keyword spotter: tensors {} B of its arena (TFLite Micro's activations: 16000 B), \
             the kernels' scratch the rest; the statements run separately: stack {separate} B",
            kws::KWS_TENSOR_BYTES
        );
    });
}

/// A plain convolution of one image `x` (`[c_in, h, w]`) by `w`
/// (`[c_out, c_in / groups, k, k]`), stride 1, zero padding `pad`: the
/// reference of the CNNs below.
fn plain_conv2d(
    x: &[f32],
    [c_in, h, wd]: [usize; 3],
    w: &[f32],
    c_out: usize,
    k: usize,
    groups: usize,
    pad: usize,
) -> Vec<f32> {
    let (oh_len, ow_len) = (h + 2 * pad - k + 1, wd + 2 * pad - k + 1);
    let per_group = c_in / groups;
    let mut out = vec![0.0f32; c_out * oh_len * ow_len];
    for o in 0..c_out {
        let group = o / (c_out / groups);
        for oh in 0..oh_len {
            for ow in 0..ow_len {
                let mut sum = 0.0;
                for ci in 0..per_group {
                    for kh in 0..k {
                        for kw in 0..k {
                            let (ih, iw) =
                                ((oh + kh).wrapping_sub(pad), (ow + kw).wrapping_sub(pad));
                            if ih < h && iw < wd {
                                let c = group * per_group + ci;
                                sum += x[(c * h + ih) * wd + iw]
                                    * w[((o * per_group + ci) * k + kh) * k + kw];
                            }
                        }
                    }
                }
                out[(o * oh_len + oh) * ow_len + ow] = sum;
            }
        }
    }
    out
}

/// Keyword spotting over 49 frames of 10 MFCCs: a 3x3 convolution to 8
/// channels with a bias and relu, a 2x2 max pool, a dense layer to 12
/// keywords and a softmax: one expression per layer, then the same network
/// depthwise-separable (a 3x3 depthwise convolution and a 1x1 pointwise one).
fn keyword_spotting() {
    let x = Tensor::<f32, Shape![1, 1, 49, 10]>::from_flat_fn(pseudo);
    let w1 = Tensor::<f32, Shape![8, 1, 3, 3]>::from_flat_fn(|p| pseudo(p + 3));
    let b1 = Tensor::<f32, Shape![8]>::from_flat_fn(|p| pseudo(p + 5) * 0.1);
    let w2 = HeapTensor::<f32, Shape![960, 12]>::from_flat_fn(|p| pseudo(p + 7) * 0.1);
    let b2 = Tensor::<f32, Shape![12]>::from_flat_fn(|p| pseudo(p + 11));
    let features = tensor_expr!(max_pool2d(
        relu(conv2d(x, w1, padding = same) + in_dims(b1, [1])),
        [2, 2]
    ));
    let p = tensor_expr!(softmax(reshape::<Shape![1, 960]>(features) @ w2 + b2, [1]));

    // The same network in plain loops.
    let c = plain_conv2d(x.as_slice(), [1, 49, 10], w1.as_slice(), 8, 3, 1, 1);
    let mut pooled = vec![0.0f32; 960];
    for o in 0..8 {
        for i in 0..24 {
            for j in 0..5 {
                let at = |a: usize, b: usize| {
                    (c[(o * 49 + 2 * i + a) * 10 + 2 * j + b] + b1[[o]]).max(0.0)
                };
                pooled[(o * 24 + i) * 5 + j] = at(0, 0).max(at(0, 1)).max(at(1, 0)).max(at(1, 1));
            }
        }
    }
    let logits: Vec<f32> = (0..12)
        .map(|k| (0..960).map(|f| pooled[f] * w2[[f, k]]).sum::<f32>() + b2[[k]])
        .collect();
    let max = logits.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
    let total: f32 = logits.iter().map(|l| (l - max).exp()).sum();
    let worst = (0..12)
        .map(|k| (p[[0, k]] - (logits[k] - max).exp() / total).abs())
        .fold(0.0f32, f32::max);
    println!(
        "keyword spotting CNN, [49, 10] -> conv 3x3 x8 -> pool -> 12: {:.3?}",
        p.as_slice()
    );
    println!("  largest difference from plain loops: {worst:.2e}");
    assert!(worst < 1e-5);

    // Depthwise-separable: 1 -> 8 channels 3x3, then depthwise 3x3, then
    // pointwise 1x1 to 16, each with relu, then a global average.
    let depthwise = Tensor::<f32, Shape![8, 1, 3, 3]>::from_flat_fn(|p| pseudo(p + 13));
    let pointwise = Tensor::<f32, Shape![16, 8, 1, 1]>::from_flat_fn(|p| pseudo(p + 17));
    let first = tensor_expr!(relu(conv2d(x, w1, padding = same) + in_dims(b1, [1])));
    let second = tensor_expr!(relu(conv2d(first, depthwise, padding = 1, groups = 8)));
    // The 16-channel map is staged before the mean (31 KiB on the stack,
    // over the default 16 KiB scratch budget), so the statement sets its own.
    let pooled = tensor_expr!(scratch <= 32768: mean(relu(conv2d(second, pointwise)), [2, 3]));

    let first_plain: Vec<f32> = plain_conv2d(x.as_slice(), [1, 49, 10], w1.as_slice(), 8, 3, 1, 1)
        .iter()
        .enumerate()
        .map(|(i, v)| (v + b1[[i / 490]]).max(0.0))
        .collect();
    let second_plain: Vec<f32> =
        plain_conv2d(&first_plain, [8, 49, 10], depthwise.as_slice(), 8, 3, 8, 1)
            .into_iter()
            .map(|v| v.max(0.0))
            .collect();
    let third_plain = plain_conv2d(
        &second_plain,
        [8, 49, 10],
        pointwise.as_slice(),
        16,
        1,
        1,
        0,
    );
    let worst = (0..16)
        .map(|o| {
            let mean = third_plain[o * 490..(o + 1) * 490]
                .iter()
                .map(|v| v.max(0.0))
                .sum::<f32>()
                / 490.0;
            (pooled[[0, o]] - mean).abs()
        })
        .fold(0.0f32, f32::max);
    println!(
        "depthwise-separable variant, 16 pooled features: {:.3?}",
        &pooled.as_slice()[..4]
    );
    println!("  largest difference from plain loops: {worst:.2e}");
    assert!(worst < 1e-4);
}

/// A 64-tap low-pass FIR filter over 4096 samples, written two ways: a sum
/// over sliding windows, and a 1-D convolution.
fn fir_filter() {
    let x = Tensor::<f32, Shape![4096]>::from_fn(|[n]| (n as f32 * 0.05).sin() + pseudo(n) * 0.2);
    let h = Tensor::<f32, Shape![64]>::from_fn(|[k]| {
        let m = k as f32 - 31.5;
        (0.1 * m).sin() / (std::f32::consts::PI * m)
    });
    let by_windows = tensor_expr!(sum(x.windows::<0, 64, 1>() * h, [1]));
    let x3 = Tensor::<f32, Shape![1, 1, 4096]>::try_from_slice(x.as_slice()).unwrap();
    let h3 = Tensor::<f32, Shape![1, 1, 64]>::try_from_slice(h.as_slice()).unwrap();
    let by_conv = tensor_expr!(conv1d(x3, h3));
    let mut worst = 0.0f32;
    for n in 0..4033 {
        let plain: f32 = (0..64).map(|k| x[[n + k]] * h[[k]]).sum();
        worst = worst.max((by_windows[[n]] - plain).abs());
        worst = worst.max((by_conv[[0, 0, n]] - plain).abs());
    }
    println!(
        "64-tap FIR over 4096 samples: y[100..104] = {:.4?}",
        &by_windows.as_slice()[100..104]
    );
    println!("  largest difference from plain loops: {worst:.2e}");
    assert!(worst < 1e-4);
}

/// A constant-velocity Kalman filter (state: position and velocity in 2-D;
/// measured: the position) over 200 noisy measurements, each equation one
/// `tensor_expr!` as written on paper, against the same filter in plain
/// loops over nested arrays.
fn kalman() {
    let dt = 0.1f64;
    let f = Tensor::<f64, Shape![4, 4]>::from_fn(|[i, j]| {
        if i == j {
            1.0
        } else if j == i + 2 {
            dt
        } else {
            0.0
        }
    });
    let h = Tensor::<f64, Shape![2, 4]>::from_fn(|[i, j]| if i == j { 1.0 } else { 0.0 });
    let q = tensor_expr!({ Tensor::<f64, Shape![4, 4]>::eye() } * 0.01);
    let r = tensor_expr!({ Tensor::<f64, Shape![2, 2]>::eye() } * 0.1);
    let eye = Tensor::<f64, Shape![4, 4]>::eye();
    let (mut x, mut p) = (
        Tensor::<f64, Shape![4]>::zeros(),
        Tensor::<f64, Shape![4, 4]>::eye(),
    );
    let measurement = |t: usize| {
        [
            t as f64 * 0.1 + pseudo(t) as f64 * 0.3,
            2.0 - t as f64 * 0.05 + pseudo(t + 7) as f64 * 0.3,
        ]
    };
    for t in 0..200 {
        let z = Tensor::<f64, Shape![2]>::new(measurement(t));
        tensor_expr!(x = f @ x);
        tensor_expr!(p = f @ p @ transpose(f) + q);
        let s = tensor_expr!(h @ p @ transpose(h) + r);
        let k =
            tensor_expr!(p @ transpose(h) @ inv(s)).expect("S = H P H^T + R is positive definite");
        tensor_expr!(x = x + k @ (z - h @ x));
        tensor_expr!(p = (eye - k @ h) @ p);
    }

    // The same filter in plain loops.
    type M4 = [[f64; 4]; 4];
    let mul = |a: &M4, b: &M4| -> M4 {
        core::array::from_fn(|i| core::array::from_fn(|j| (0..4).map(|k| a[i][k] * b[k][j]).sum()))
    };
    let transpose = |a: &M4| -> M4 { core::array::from_fn(|i| core::array::from_fn(|j| a[j][i])) };
    let fm: M4 = core::array::from_fn(|i| core::array::from_fn(|j| f[[i, j]]));
    let (mut xs, mut ps) = (
        [0.0f64; 4],
        core::array::from_fn::<[f64; 4], 4, _>(|i| {
            core::array::from_fn(|j| if i == j { 1.0 } else { 0.0 })
        }),
    );
    for t in 0..200 {
        let z = measurement(t);
        xs = core::array::from_fn(|i| (0..4).map(|k| fm[i][k] * xs[k]).sum());
        ps = mul(&mul(&fm, &ps), &transpose(&fm));
        for (i, row) in ps.iter_mut().enumerate() {
            row[i] += 0.01;
        }
        // H selects the first two coordinates: S = P[..2, ..2] + R.
        let s = [[ps[0][0] + 0.1, ps[0][1]], [ps[1][0], ps[1][1] + 0.1]];
        let det = s[0][0] * s[1][1] - s[0][1] * s[1][0];
        let s_inv = [
            [s[1][1] / det, -s[0][1] / det],
            [-s[1][0] / det, s[0][0] / det],
        ];
        let k: [[f64; 2]; 4] = core::array::from_fn(|i| {
            core::array::from_fn(|j| ps[i][0] * s_inv[0][j] + ps[i][1] * s_inv[1][j])
        });
        let innovation = [z[0] - xs[0], z[1] - xs[1]];
        xs = core::array::from_fn(|i| xs[i] + k[i][0] * innovation[0] + k[i][1] * innovation[1]);
        let kh: M4 =
            core::array::from_fn(|i| core::array::from_fn(|j| if j < 2 { k[i][j] } else { 0.0 }));
        let i_kh: M4 = core::array::from_fn(|i| {
            core::array::from_fn(|j| if i == j { 1.0 } else { 0.0 } - kh[i][j])
        });
        ps = mul(&i_kh, &ps);
    }
    let worst = (0..4)
        .map(|i| (x[[i]] - xs[i]).abs())
        .fold(0.0f64, f64::max);
    println!("Kalman filter, 200 steps: state = {:.4?}", x.as_slice());
    println!("  largest difference from plain loops: {worst:.2e}");
    assert!(worst < 1e-9);
}
