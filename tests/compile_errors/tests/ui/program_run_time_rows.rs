use tensor_expr::prelude::*;

#[tensor_expr::program]
fn rows(x: &HeapTensor<f32, Shape![Dyn, 4]>) -> f32 {
    let y = tensor_expr!(x * 2.0);
    y.as_slice()[0]
}

fn main() {}
