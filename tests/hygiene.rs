//! The expansion is hygienic: it compiles under `deny(warnings)` and clippy's
//! pedantic lints (`.ci/run` runs clippy with `-D warnings` on this file), and
//! when the user's scope defines items named like the names the expansion uses
//! or that a careless expansion might (`core`, `Tensor`, `i`, `j`, `out`, and the
//! generated locals); `tensor_expr!` calls nest inside `{}` operands.
#![deny(warnings)]
#![deny(clippy::pedantic)]
// The test's own code compares exact small floats and binds names that start
// with `__` on purpose; the generated code is held to every pedantic lint.
#![allow(clippy::float_cmp, clippy::no_effect_underscore_binding)]

use tensor_expr::prelude::*;

/// A user module named `core`: the expansion names `::core`, never `core`.
#[allow(dead_code)]
mod core {
    pub fn unreachable() {}
    pub mod panicking {}
}

/// A user type named like the library's tensor, shadowing nothing it uses.
#[allow(dead_code)]
struct TensorLike;

#[test]
fn user_items_do_not_capture_generated_names() {
    type Matrix = Shape![2, 3];
    let x: tensor_expr::Tensor<f32, Matrix> = tensor![[1., 2., 3.], [4., 5., 6.]];
    let i = 10.0f32;
    let j = 100.0f32;
    let out = x;
    let __tensor_expr_context = 1000.0f32;
    let __tensor_expr_node0 = 0.5f32;
    let __tensor_expr_op0 = 2.0f32;
    let y =
        tensor_expr!(out * i + j - __tensor_expr_context * __tensor_expr_node0 / __tensor_expr_op0);
    assert_eq!(y[[1, 2]], 6.0 * 10.0 + 100.0 - 1000.0 * 0.5 / 2.0);
    let mut target = Tensor::<f32, Matrix>::zeros();
    tensor_expr!(target = out @ { Tensor::<f32, Shape![3, 3]>::full(1.0) } + i);
    assert_eq!(target[[0, 0]], 6.0 + 10.0);
}

#[test]
#[allow(non_camel_case_types)]
fn a_user_type_named_tensor_does_not_interfere() {
    struct Tensor;
    let _unused = Tensor;
    let x = tensor_expr::Tensor::<i32, Shape![3]>::full(2);
    assert_eq!(tensor_expr!(x * x + 1).as_slice(), &[5, 5, 5]);
}

#[test]
fn nested_calls_in_blocks() {
    let x = Tensor::<f64, Shape![2, 2]>::full(3.0);
    let y = tensor_expr!(x - { tensor_expr!(x * { tensor_expr!(x / 3) }) } + 1);
    assert_eq!(y.as_slice(), &[1.0; 4]);
}

#[test]
fn literal_only_expressions_take_the_type_from_the_use_site() {
    let z: Tensor<f32, Shape![]> = tensor_expr!(1.5 * 2 - 1);
    assert_eq!(z.as_slice(), &[2.0]);
}

#[test]
#[allow(non_camel_case_types)]
fn reductions_permutes_and_shared_nodes_are_hygienic() {
    // User items named like the generated local traits, types and fns.
    #[allow(dead_code)]
    trait Axes {}
    #[allow(dead_code)]
    trait Permute {}
    struct Permuted;
    fn axes() {}
    fn permute() {}
    let _unused = (Permuted, axes, permute);
    let ones = Tensor::<f32, Shape![2, 3]>::full(1.0);
    let probabilities = tensor_expr!(
        exp(ones - max(ones, [1], keepdim))
            / sum(exp(ones - max(ones, [1], keepdim)), [-1], keepdim)
    );
    assert!((probabilities[[1, 2]] - 1.0 / 3.0).abs() < 1e-6);
    let threes = tensor_expr!(
        permute(ones, [1, 0]) + transpose(ones) * mean(ones) + reshape::<Shape![3, 2]>(ones)
    );
    assert_eq!(threes.as_slice(), &[3.0; 6]);
    let twos = Tensor::<f32, Shape![3, 2]>::full(2.0);
    let column = Tensor::<f32, Shape![3]>::full(1.0);
    assert_eq!(
        tensor_expr!(twos + in_dims(column, [0])).as_slice(),
        &[3.0; 6]
    );
}
