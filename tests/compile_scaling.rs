//! Compile-time regression guard: expressions whose checking time was
//! exponential (left-nested two-argument functions), quadratic (long chains)
//! or beyond rustc's recursion limit (chains of 200 terms, 200 nested calls,
//! reductions and products nested past 60 levels, which the macro stages).
//! If one of those returns, this file stops compiling in reasonable time, or
//! at all; the values are checked against plain loops, bit for bit where the
//! operations are exact or run in the written order (a folded chain computes
//! exactly the operations written, in order).
//!
//! The scaling of check time with depth and length is measured by
//! `benches/compile_scaling.sh`; nothing here is timed.

use tensor_expr::prelude::*;

type M = Tensor<f32, Shape![3, 5]>;
type Row = Tensor<f32, Shape![5]>;
type Col = Tensor<f32, Shape![3, 1]>;

fn inputs() -> (M, Row, Row, Col) {
    let a = M::from_fn(|[i, j]: [usize; 2]| (i * 5 + j) as f32 * 0.37 - 2.0);
    let v = Row::from_fn(|[j]: [usize; 1]| j as f32 * 0.11 - 0.3);
    let w = Row::from_fn(|[j]: [usize; 1]| 1.5 - j as f32 * 0.2);
    let c = Col::from_fn(|[i, _]: [usize; 2]| i as f32 * 0.7 + 0.25);
    (a, v, w, c)
}

/// Checks `actual` against `f(a, v, w, c)` at every index, bit for bit.
fn check(actual: &M, f: impl Fn(f32, f32, f32, f32) -> f32) {
    let (a, v, w, c) = inputs();
    for i in 0..3 {
        for j in 0..5 {
            let expected = f(a[[i, j]], v[[j]], w[[j]], c[[i, 0]]);
            assert_eq!(
                actual[[i, j]].to_bits(),
                expected.to_bits(),
                "at [{i}, {j}]"
            );
        }
    }
}

#[test]
#[rustfmt::skip]
fn max_nested_32_deep_on_the_left() {
    let (a, v, _, _) = inputs();
    let y = tensor_expr!(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(a, v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v), v));
    check(&y, |a, v, _, _| (0..32).fold(a, |acc, _| acc.max(v)));
}

#[test]
#[rustfmt::skip]
fn min_and_pow_nested_32_deep_on_the_left() {
    let (a, _, w, _) = inputs();
    let y = tensor_expr!(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(min(pow(a, 1), w), 1), w), 1), w), 1), w), 1), w), 1), w), 1), w), 1), w), 1), w), 1), w), 1), w), 1), w), 1), w), 1), w), 1), w), 1), w));
    check(&y, |a, _, w, _| (0..16).fold(a, |acc, _| acc.powf(1.0).min(w)));
}

#[test]
#[rustfmt::skip]
fn chain_of_100_terms() {
    let (a, v, _, _) = inputs();
    let y = tensor_expr!(a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v + a + v - a + v + a - v);
    check(&y, |a, v, _, _| {
        (1..100).fold(a, |acc, k| {
            let x = if k % 2 == 1 { v } else { a };
            if k % 3 == 0 { acc - x } else { acc + x }
        })
    });
}

#[test]
#[rustfmt::skip]
fn chain_of_200_terms_with_every_operator() {
    let (a, v, w, c) = inputs();
    let y = tensor_expr!(a + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c / 0.5 + v - w * c);
    check(&y, |a, v, w, c| {
        // `a + v - w * c / 0.5 + v - ...`: `*` and `/` bind first, so the
        // chain adds `v` and subtracts the term `w * c / 0.5` in turn; the last
        // term is cut short after 199 operators (`- w * c`).
        let (mut acc, mut k) = (a, 0);
        while k < 199 {
            acc += v;
            k += 1;
            if k < 199 {
                let mut term = w;
                k += 1;
                if k < 199 {
                    term *= c;
                    k += 1;
                }
                if k < 199 {
                    term /= 0.5;
                    k += 1;
                }
                acc -= term;
            }
        }
        acc
    });
}

#[test]
#[rustfmt::skip]
fn relu_nested_200_deep() {
    let (a, _, _, _) = inputs();
    let y = tensor_expr!(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(relu(a)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
    check(&y, |a, _, _, _| a.max(0.0));
}

#[test]
#[rustfmt::skip]
fn right_nested_64_deep() {
    let (a, v, _, _) = inputs();
    let y = tensor_expr!(v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (v + (a)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
    check(&y, |a, v, _, _| (0..64).fold(a, |acc, _| v + acc));
}

#[test]
#[rustfmt::skip]
fn clamp_nested_32_deep() {
    let (a, _, _, _) = inputs();
    let y = tensor_expr!(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(clamp(a * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0) * 1.5, -4.0, 4.0));
    check(&y, |a, _, _, _| (0..32).fold(a, |acc, _| (acc * 1.5).clamp(-4.0, 4.0)));
}

#[test]
#[rustfmt::skip]
fn chain_with_in_dims_terms() {
    let (a, v, _, col) = inputs();
    // `in_dims(c, [0])` in a step is placed on the shape of the chain so far.
    let c = Tensor::<f32, Shape![3]>::from_fn(|[i]: [usize; 1]| col[[i, 0]]);
    let y = tensor_expr!(a + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]) - v - v + in_dims(c, [0]));
    check(&y, |a, v, _, c| (0..40).fold(a, |acc, k| if k % 3 == 0 { acc + c } else { acc - v }));
}

/// `mean(.., [1], keepdim) + v` nested 64 deep: 128 levels of operations that
/// do not fold (each reduction is a node of its own). The macro evaluates
/// the deepest parts first, as stages, so no node type nests past rustc's
/// recursion limit; the values are those of the plain loop.
#[test]
#[rustfmt::skip]
fn reductions_nested_64_deep() {
    let (a, v, _, _) = inputs();
    let y = tensor_expr!(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(mean(a, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v, [1], keepdim) + v);
    let mut x: Vec<[f64; 5]> = (0..3).map(|i| core::array::from_fn(|j| f64::from(a[[i, j]]))).collect();
    for _ in 0..64 {
        for row in &mut x {
            let mean = row.iter().sum::<f64>() / 5.0;
            *row = core::array::from_fn(|j| mean + f64::from(v[[j]]));
        }
    }
    for i in 0..3 {
        for j in 0..5 {
            let (actual, expected) = (f64::from(y[[i, j]]), x[i][j]);
            assert!((actual - expected).abs() <= 1e-5 * expected.abs().max(1.0), "at [{i}, {j}]: {actual} against {expected}");
        }
    }
}

/// Products nested 71 deep, each left operand a product: staged one inside
/// the other, the same as written. `w` moves each column one place to the
/// right (a permutation, so every value is exact).
#[test]
#[rustfmt::skip]
fn products_nested_71_deep() {
    let (a, _, _, _) = inputs();
    let w = Tensor::<f32, Shape![5, 5]>::from_fn(|[k, j]: [usize; 2]| if (k + 1) % 5 == j { 1.0 } else { 0.0 });
    let y = tensor_expr!((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((a) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w);
    for i in 0..3 {
        for j in 0..5 {
            // 71 moves of one place to the right: column j holds a's j - 71 (mod 5).
            assert_eq!(y[[i, j]].to_bits(), a[[i, (j + 5 * 15 - 71) % 5]].to_bits(), "at [{i}, {j}]");
        }
    }
}
