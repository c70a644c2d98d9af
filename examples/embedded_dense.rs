//! A small dense layer, `relu(x @ w + b)` with x [1, 16], w [16, 16], b [16],
//! written with tensor-expr and with nalgebra, as two standalone functions whose
//! code size and stack use `benches/embedded_size.sh` measures at
//! `opt-level = "s"` (what embedded builds use).

use nalgebra::SMatrix;
use std::hint::black_box;
use tensor_expr::prelude::*;

/// The layer with tensor-expr: one fused nest, no temporaries.
#[inline(never)]
#[no_mangle]
pub fn dense_tensor_expr(
    out: &mut Tensor<f32, Shape![1, 16]>,
    x: &Tensor<f32, Shape![1, 16]>,
    w: &Tensor<f32, Shape![16, 16]>,
    b: &Tensor<f32, Shape![16]>,
) {
    tensor_expr!(out = relu(x @ w + b));
}

/// The same layer with nalgebra's statically sized matrices.
#[inline(never)]
#[no_mangle]
pub fn dense_nalgebra(
    out: &mut SMatrix<f32, 1, 16>,
    x: &SMatrix<f32, 1, 16>,
    w: &SMatrix<f32, 16, 16>,
    b: &SMatrix<f32, 1, 16>,
) {
    *out = (x * w + b).map(|v| v.max(0.0));
}

fn main() {
    let x = Tensor::<f32, Shape![1, 16]>::full(0.25);
    let w = Tensor::<f32, Shape![16, 16]>::full(-0.5);
    let b = Tensor::<f32, Shape![16]>::full(3.0);
    let mut out = Tensor::<f32, Shape![1, 16]>::zeros();
    dense_tensor_expr(&mut out, black_box(&x), black_box(&w), black_box(&b));
    let mut out_na = SMatrix::<f32, 1, 16>::zeros();
    dense_nalgebra(
        &mut out_na,
        black_box(&SMatrix::from_element(0.25)),
        black_box(&SMatrix::from_element(-0.5)),
        black_box(&SMatrix::from_element(3.0)),
    );
    assert!(out
        .as_slice()
        .iter()
        .zip(out_na.iter())
        .all(|(a, b)| a == b));
    println!("both layers give {} in every output", out.as_slice()[0]);
}
