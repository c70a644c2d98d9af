//! Whole programs as users write them, each checked against plain loops in
//! an ordinary `#[test]` (debug build, 2 MiB stack): a 2-layer MLP with a
//! softmax as one expression, and pairwise distances.

use tensor_expr::prelude::*;

const BATCH: usize = 32;
const INPUT: usize = 784;
const HIDDEN: usize = 128;
const CLASSES: usize = 10;

/// A deterministic value in [-0.5, 0.5) for weights and inputs.
fn pseudo(seed: usize) -> f32 {
    ((seed.wrapping_mul(2654435761) >> 7) % 1000) as f32 / 1000.0 - 0.5
}

/// Plain loops: `softmax(relu(x @ w1 + b1) @ w2 + b2)` row by row.
fn mlp_by_loops(x: &[f32], w1: &[f32], b1: &[f32], w2: &[f32], b2: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0; BATCH * CLASSES];
    for i in 0..BATCH {
        let hidden: Vec<f32> = (0..HIDDEN)
            .map(|j| {
                let dot: f32 = (0..INPUT)
                    .map(|k| x[i * INPUT + k] * w1[k * HIDDEN + j])
                    .sum();
                (dot + b1[j]).max(0.0)
            })
            .collect();
        let logits: Vec<f32> = (0..CLASSES)
            .map(|c| {
                (0..HIDDEN)
                    .map(|j| hidden[j] * w2[j * CLASSES + c])
                    .sum::<f32>()
                    + b2[c]
            })
            .collect();
        let max = logits.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        let total: f32 = logits.iter().map(|l| (l - max).exp()).sum();
        for c in 0..CLASSES {
            out[i * CLASSES + c] = (logits[c] - max).exp() / total;
        }
    }
    out
}

#[test]
fn mlp_with_softmax_as_one_expression() {
    let x = HeapTensor::<f32, Shape![32, 784]>::from_flat_fn(pseudo);
    let w1 = HeapTensor::<f32, Shape![784, 128]>::from_flat_fn(|p| pseudo(p + 7) * 0.1);
    let b1 = Tensor::<f32, Shape![128]>::from_fn(|[j]| pseudo(j + 11));
    let w2 = HeapTensor::<f32, Shape![128, 10]>::from_flat_fn(|p| pseudo(p + 13));
    let b2 = Tensor::<f32, Shape![10]>::from_fn(|[c]| pseudo(c + 17));

    let logits = tensor_expr!(relu(x @ w1 + b1) @ w2 + b2);
    let probabilities = tensor_expr!(
        exp(relu(x @ w1 + b1) @ w2 + b2 - max(relu(x @ w1 + b1) @ w2 + b2, [1], keepdim))
            / sum(exp(relu(x @ w1 + b1) @ w2 + b2 - max(relu(x @ w1 + b1) @ w2 + b2, [1], keepdim)), [1], keepdim)
    );

    let expected = mlp_by_loops(
        x.as_slice(),
        w1.as_slice(),
        b1.as_slice(),
        w2.as_slice(),
        b2.as_slice(),
    );
    let _: &HeapTensor<f32, Shape![32, 10]> = &probabilities;
    for (p, (got, want)) in probabilities.as_slice().iter().zip(&expected).enumerate() {
        assert!((got - want).abs() <= 1e-5, "at {p}: {got} vs {want}");
    }
    for i in 0..BATCH {
        let row_total: f32 = (0..CLASSES).map(|c| probabilities[[i, c]]).sum();
        assert!((row_total - 1.0).abs() < 1e-5);
        let best = (0..CLASSES)
            .max_by(|&a, &b| logits[[i, a]].total_cmp(&logits[[i, b]]))
            .unwrap();
        let most_likely = (0..CLASSES)
            .max_by(|&a, &b| probabilities[[i, a]].total_cmp(&probabilities[[i, b]]))
            .unwrap();
        assert_eq!(best, most_likely);
    }
}

/// Squared distances between every pair of points, `|p_i|^2 + |p_j|^2 - 2 p_i . p_j`,
/// with the Gram matrix `p @ transpose(p)` (its transposed operand staged).
#[test]
fn pairwise_squared_distances() {
    let p = Tensor::<f64, Shape![6, 3]>::from_fn(|[i, k]| pseudo(3 * i + k) as f64 * 4.0);
    let norms = tensor_expr!(sum(p * p, [1]));
    // `in_dims` places `norms` on dim 0 of its partner, the `[6, 6]` matrix
    // on its left: `norms[i]`; the plain `norms` broadcasts along rows: `norms[j]`.
    let d = tensor_expr!(norms - 2.0 * (p @ transpose(p)) + in_dims(norms, [0]));
    for i in 0..6 {
        for j in 0..6 {
            let want: f64 = (0..3).map(|k| (p[[i, k]] - p[[j, k]]).powi(2)).sum();
            assert!(
                (d[[i, j]] - want).abs() < 1e-9,
                "at [{i}, {j}]: {} vs {want}",
                d[[i, j]]
            );
        }
    }
}
