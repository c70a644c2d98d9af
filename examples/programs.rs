//! Whole programs, each one `tensor_expr!` per step and checked against plain
//! loops: a 2-layer MLP with a softmax (one expression), NumPy's image
//! normalisation per channel, and pairwise distances between points.
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
    let p = tensor_expr!(
        exp(relu(x @ w1 + b1) @ w2 + b2 - max(relu(x @ w1 + b1) @ w2 + b2, [1], keepdim))
            / sum(exp(relu(x @ w1 + b1) @ w2 + b2 - max(relu(x @ w1 + b1) @ w2 + b2, [1], keepdim)), [1], keepdim)
    );
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
}
