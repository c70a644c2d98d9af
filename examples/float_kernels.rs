//! The float functions inside `tensor_expr!` as standalone loops, for reading
//! (and for `.ci/asm_check`, scanning) their release assembly:
//! `cargo rustc --release --example float_kernels -- --emit asm`. Each inner
//! loop must be packed arithmetic, with no call to a scalar `expf`/`logf`/
//! `tanhf` and no gather.

use std::hint::black_box;
use tensor_expr::prelude::*;
use tensor_expr::D;

type View<'a> = TensorView<'a, f32, (D<64>, D<1024>)>;
type ViewMut<'a> = TensorViewMut<'a, f32, (D<64>, D<1024>)>;

/// `o = exp(x)`.
#[inline(never)]
pub fn kernel_exp(o: &mut ViewMut<'_>, x: &View<'_>) {
    tensor_expr!(o = exp(x));
}

/// `o = tanh(x)`.
#[inline(never)]
pub fn kernel_tanh(o: &mut ViewMut<'_>, x: &View<'_>) {
    tensor_expr!(o = tanh(x));
}

/// `o = ln(x)`.
#[inline(never)]
pub fn kernel_ln(o: &mut ViewMut<'_>, x: &View<'_>) {
    tensor_expr!(o = ln(x));
}

/// `o = sigmoid(x) * sin(x)`.
#[inline(never)]
pub fn kernel_sigmoid_sin(o: &mut ViewMut<'_>, x: &View<'_>) {
    tensor_expr!(o = sigmoid(x) * sin(x));
}

fn main() {
    let x: Vec<f32> = (0..64 * 1024).map(|k| (k as f32 * 0.01).sin()).collect();
    let mut o = vec![0.0f32; 64 * 1024];
    let xv = View::try_from_slice(&x).expect("64 x 1024");
    let mut ov = ViewMut::try_from_slice(&mut o).expect("64 x 1024");
    kernel_exp(&mut ov, &xv);
    kernel_tanh(&mut ov, &xv);
    kernel_ln(&mut ov, &xv);
    kernel_sigmoid_sin(&mut ov, &xv);
    println!("{}", black_box(o[12345]));
}
