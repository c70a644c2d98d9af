//! A few matrix-product kernels as standalone functions, for reading (and for
//! `.ci/asm_check`, scanning) their release assembly:
//! `cargo rustc --release --example matmul_kernels -- --emit asm`.

use std::hint::black_box;
use tensor_expr::prelude::*;
use tensor_expr::D;

/// `o = a @ b` for 16 x 16 matrices.
#[inline(never)]
pub fn kernel_square_16(
    o: &mut Tensor<f32, Shape![16, 16]>,
    a: &Tensor<f32, Shape![16, 16]>,
    b: &Tensor<f32, Shape![16, 16]>,
) {
    tensor_expr!(o = a @ b);
}

/// `o = a @ b` for 64 x 64 matrices.
#[inline(never)]
pub fn kernel_square_64(
    o: &mut TensorViewMut<'_, f32, (D<64>, D<64>)>,
    a: &TensorView<'_, f32, (D<64>, D<64>)>,
    b: &TensorView<'_, f32, (D<64>, D<64>)>,
) {
    tensor_expr!(o = a @ b);
}

/// The dense layer `relu(x @ w + bias)` with its epilogue fused.
#[inline(never)]
pub fn kernel_dense_layer(
    o: &mut TensorViewMut<'_, f32, (D<128>, D<128>)>,
    x: &TensorView<'_, f32, (D<128>, D<256>)>,
    w: &TensorView<'_, f32, (D<256>, D<128>)>,
    bias: &TensorView<'_, f32, (D<128>,)>,
) {
    tensor_expr!(o = relu(x @ w + bias));
}

fn main() {
    let a = Tensor::<f32, Shape![16, 16]>::full(1.0);
    let mut o = Tensor::<f32, Shape![16, 16]>::zeros();
    kernel_square_16(&mut o, black_box(&a), black_box(&a));
    println!(
        "16x16 of ones @ itself: every element is {}",
        o.as_slice()[0]
    );
    let data = vec![0.5f32; 128 * 256];
    let x = TensorView::<f32, (D<128>, D<256>)>::try_from_slice(&data).unwrap();
    let w = TensorView::<f32, (D<256>, D<128>)>::try_from_slice(&data).unwrap();
    let bias = TensorView::<f32, (D<128>,)>::try_from_slice(&data[..128]).unwrap();
    let mut out = vec![0.0f32; 128 * 128];
    let mut ov = TensorViewMut::<f32, (D<128>, D<128>)>::try_from_slice(&mut out).unwrap();
    kernel_dense_layer(&mut ov, black_box(&x), black_box(&w), black_box(&bias));
    let sq = TensorView::<f32, (D<64>, D<64>)>::try_from_slice(&data[..4096]).unwrap();
    let mut out64 = vec![0.0f32; 4096];
    let mut o64 = TensorViewMut::<f32, (D<64>, D<64>)>::try_from_slice(&mut out64).unwrap();
    kernel_square_64(&mut o64, black_box(&sq), black_box(&sq));
    println!(
        "dense layer of halves: {}; 64x64 of halves: {}",
        out[0], out64[0]
    );
}
