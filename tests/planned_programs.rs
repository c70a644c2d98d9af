//! `#[tensor_expr::program]`: the planned function computes what its
//! statements compute written separately, its tensors share the arena as
//! their lifetimes allow, and `cargo check` knows the arena's size.

use tensor_expr::prelude::*;

type V = Shape![64];

/// Four tensors of 256 B in a chain: each dies at the next statement but
/// one, so two slots of 256 B and one more for the statement that reads
/// two at once.
#[tensor_expr::program]
fn chain(x: &Tensor<f32, V>, w: &Tensor<f32, V>) -> Tensor<f32, V> {
    let a = tensor_expr!(x * 2.0 + w);
    let b = tensor_expr!(relu(a - 1.0));
    let c = tensor_expr!(b * b);
    let d = tensor_expr!(c + a);
    tensor_expr!(d - x)
}

fn chain_written_separately(x: &Tensor<f32, V>, w: &Tensor<f32, V>) -> Tensor<f32, V> {
    let a = tensor_expr!(x * 2.0 + w);
    let b = tensor_expr!(relu(a - 1.0));
    let c = tensor_expr!(b * b);
    let d = tensor_expr!(c + a);
    tensor_expr!(d - x)
}

// Known to `cargo check`: a, b, c alive at `c`'s statement, then `b`'s
// bytes reused by `d`.
const _: () = assert!(CHAIN_ARENA_BYTES == 3 * 256);

#[test]
fn a_program_computes_what_its_statements_compute() {
    let x = Tensor::<f32, V>::from_fn(|[i]| i as f32 * 0.25 - 3.0);
    let w = Tensor::<f32, V>::from_fn(|[i]| 1.0 - i as f32 * 0.125);
    let expected = chain_written_separately(&x, &w);
    assert_eq!(chain(&x, &w).as_slice(), expected.as_slice());
    let mut arena = tensor_expr::Arena::<CHAIN_ARENA_BYTES>::new();
    assert_eq!(chain_in(&x, &w, &mut arena).as_slice(), expected.as_slice());
}
