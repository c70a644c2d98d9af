//! A small dense layer, `relu(x @ w + b)` with x [1, 16], w [16, 16], b [16],
//! written with tensor-expr and with nalgebra, and an int8 dense layer as
//! TFLite Micro computes it (x [1, 64], w [64, 32], per-channel
//! requantisation) written with tensor-expr and as a hand loop: standalone
//! functions whose code size and stack use `benches/embedded_size.sh`
//! measures at `opt-level = "s"` (what embedded builds use).

use nalgebra::SMatrix;
use std::hint::black_box;
use tensor_expr::element::Accumulator;
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

/// The int8 layer's requantisation parameters: per-channel multipliers
/// and shifts, the zero points.
pub struct Int8Params {
    pub bias: Tensor<i32, Shape![32]>,
    pub multiplier: Tensor<i32, Shape![32]>,
    pub shift: Tensor<i32, Shape![32]>,
    pub zx: i32,
    pub zy: i32,
}

/// The int8 layer with tensor-expr: one expression.
#[inline(never)]
#[no_mangle]
pub fn dense_int8_tensor_expr(
    out: &mut Tensor<i8, Shape![1, 32]>,
    x: &Tensor<i8, Shape![1, 64]>,
    w: &Tensor<i8, Shape![64, 32]>,
    p: &Int8Params,
) {
    let (bias, m, s, zx, zy) = (&p.bias, &p.multiplier, &p.shift, p.zx, p.zy);
    tensor_expr!(
        out = saturating_cast::<i8>(
            requantize((cast::<i32>(x) - zx) @ cast::<i32>(w) + bias, m, s) + zy
        )
    );
}

/// The int8 layer as a hand loop: i32 sums, output columns innermost.
#[inline(never)]
#[no_mangle]
pub fn dense_int8_hand(out: &mut [i8; 32], x: &[i8; 64], w: &[[i8; 32]; 64], p: &Int8Params) {
    let mut acc = *p.bias.as_array();
    for (&xk, w_row) in x.iter().zip(w) {
        let xk = i32::from(xk) - p.zx;
        for (a, &wv) in acc.iter_mut().zip(w_row) {
            *a += xk * i32::from(wv);
        }
    }
    for (j, y) in out.iter_mut().enumerate() {
        let scaled = acc[j].requantize(p.multiplier.as_array()[j], p.shift.as_array()[j]);
        *y = (scaled + p.zy).clamp(-128, 127) as i8;
    }
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

    let x = Tensor::<i8, Shape![1, 64]>::from_fn(|[_, k]| (k as i8).wrapping_mul(37));
    let w = Tensor::<i8, Shape![64, 32]>::from_fn(|[k, j]| (k as i8).wrapping_sub(j as i8));
    let p = Int8Params {
        bias: Tensor::from_fn(|[j]: [usize; 1]| j as i32 * 50 - 800),
        multiplier: Tensor::full(1_400_000_000),
        shift: Tensor::full(-8),
        zx: -3,
        zy: 7,
    };
    let mut out = Tensor::<i8, Shape![1, 32]>::zeros();
    dense_int8_tensor_expr(&mut out, black_box(&x), black_box(&w), black_box(&p));
    let mut hand = [0i8; 32];
    let (xs, ws) = (x.as_array()[0], w.as_array());
    dense_int8_hand(&mut hand, black_box(&xs), black_box(ws), black_box(&p));
    assert_eq!(out.as_slice(), &hand);
    println!("both int8 layers agree");
}
