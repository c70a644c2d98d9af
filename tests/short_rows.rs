//! Matrices of many short rows (`[N, 3]` points, `[N, 2]` pairs): the
//! elementwise row walk with broadcast rows and columns, products with few
//! terms and columns walked by rows, and reductions over the short last
//! axis folded where they are read, each against a plain loop.
#![cfg(feature = "alloc")]

use tensor_expr::prelude::*;

const N: usize = 203;

/// Values in a fixed pattern, none zero, of both signs.
fn pattern<S: tensor_expr::Shape>(seed: usize) -> HeapTensor<f32, S> {
    HeapTensor::from_flat_fn(|p| ((p * 7 + seed * 13) % 23) as f32 * 0.25 - 2.6)
}

fn assert_close(ours: &[f32], expected: &[f32]) {
    assert_eq!(ours.len(), expected.len());
    for (i, (a, b)) in ours.iter().zip(expected).enumerate() {
        assert!(
            (a - b).abs() <= 1e-5 * (1.0 + b.abs()),
            "element {i}: {a} against {b}"
        );
    }
}

/// A drag proportional to each point's speed: a broadcast row (`g`), a
/// broadcast column (`speed`) and the target, updated in place.
#[test]
fn drag_update_with_broadcast_row_and_column() {
    let mut v = pattern::<Shape![N, 3]>(1);
    let speed = pattern::<Shape![N, 1]>(2);
    let g = Tensor::<f32, Shape![3]>::new([0.5, -1.0, -9.8]);
    let (dt, c) = (0.01f32, 0.1f32);
    let mut expected = v.as_slice().to_vec();
    for (i, p) in expected.chunks_exact_mut(3).enumerate() {
        for (x, gj) in p.iter_mut().zip(g.as_slice()) {
            *x += dt * (gj - c * speed.as_slice()[i] * *x);
        }
    }
    tensor_expr!(v += dt * (g - c * speed * v));
    assert_close(v.as_slice(), &expected);
}

/// Points rotated and moved, `relu(p @ transpose(r) + t)`: a product of 3
/// terms and 3 columns, with a transposed right operand and an epilogue.
#[test]
fn points_times_a_small_matrix_with_epilogue() {
    let p = pattern::<Shape![N, 3]>(3);
    let r = pattern::<Shape![3, 3]>(4);
    let t = pattern::<Shape![3]>(5);
    let q = tensor_expr!(relu(p @ transpose(r) + t));
    let (p, r, t) = (p.as_slice(), r.as_slice(), t.as_slice());
    let mut expected = vec![0.0f32; N * 3];
    for i in 0..N {
        for j in 0..3 {
            let dot: f32 = (0..3).map(|k| p[i * 3 + k] * r[j * 3 + k]).sum();
            expected[i * 3 + j] = (dot + t[j]).max(0.0);
        }
    }
    assert_close(q.as_slice(), &expected);
}

/// `[N, 2] @ [2, 5]` added into a target: rows of 5, 2 terms.
#[test]
fn pairs_times_a_wide_matrix_added_in_place() {
    let a = pattern::<Shape![N, 2]>(6);
    let b = pattern::<Shape![2, 5]>(7);
    let mut out = pattern::<Shape![N, 5]>(8);
    let mut expected = out.as_slice().to_vec();
    for i in 0..N {
        for j in 0..5 {
            expected[i * 5 + j] += a.as_slice()[i * 2] * b.as_slice()[j]
                + a.as_slice()[i * 2 + 1] * b.as_slice()[5 + j];
        }
    }
    tensor_expr!(out += a @ b);
    assert_close(out.as_slice(), &expected);
}

/// Each point's norm, kept as a column and without the kept dim, and the
/// points divided by it in the same expression.
#[test]
fn norms_of_points_with_and_without_keepdim() {
    let v = pattern::<Shape![N, 3]>(9);
    let norms: Vec<f32> = v
        .as_slice()
        .chunks_exact(3)
        .map(|p| (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt())
        .collect();
    let kept = tensor_expr!(sqrt(sum(square(v), [1], keepdim)));
    assert_close(kept.as_slice(), &norms);
    let dropped = tensor_expr!(sqrt(sum(square(v), [-1])));
    assert_close(dropped.as_slice(), &norms);
    let unit = tensor_expr!(v / sqrt(sum(square(v), [1], keepdim)));
    let expected: Vec<f32> = v
        .as_slice()
        .iter()
        .enumerate()
        .map(|(p, x)| x / norms[p / 3])
        .collect();
    assert_close(unit.as_slice(), &expected);
}

/// `mean`, `max`, `min` and `prod` over rows of 3 of a batch `[4, N, 3]`,
/// and `max`'s NaN: a row holding one gives NaN, the others are untouched.
#[test]
fn every_reducer_over_short_rows_of_a_batch() {
    let mut x = pattern::<Shape![4, N, 3]>(10);
    x.as_mut_slice()[5 * 3 + 1] = f32::NAN;
    let rows: Vec<&[f32]> = x.as_slice().chunks_exact(3).collect();
    let mean = tensor_expr!(mean(x, [2], keepdim));
    let max = tensor_expr!(max(x, [-1]));
    let min = tensor_expr!(min(x, [2]));
    let prod = tensor_expr!(prod(x, [2], keepdim));
    for (i, row) in rows.iter().enumerate() {
        let [a, b, c] = [row[0], row[1], row[2]];
        if i == 5 {
            assert!(max.as_slice()[i].is_nan() && min.as_slice()[i].is_nan());
            continue;
        }
        assert_close(&[mean.as_slice()[i]], &[(a + b + c) / 3.0]);
        assert_eq!(max.as_slice()[i], a.max(b).max(c));
        assert_eq!(min.as_slice()[i], a.min(b).min(c));
        assert_close(&[prod.as_slice()[i]], &[a * b * c]);
    }
}
