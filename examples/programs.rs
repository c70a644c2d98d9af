//! Whole programs, each one `tensor_expr!` per step and checked against plain
//! loops: a 2-layer MLP with a softmax (one expression), NumPy's image
//! normalisation per channel, pairwise distances between points, and a
//! constant-velocity Kalman filter (each equation as the maths reads).
//!
//! `cargo run --release --example programs`

use tensor_expr::prelude::*;

fn pseudo(seed: usize) -> f32 {
    ((seed.wrapping_mul(2654435761) >> 7) % 1000) as f32 / 1000.0 - 0.5
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
        let s_inv = s.inv().expect("S = H P H^T + R is positive definite");
        let k = tensor_expr!(p @ transpose(h) @ s_inv);
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
