use tensor_expr::prelude::*;

type V = Shape![16];

#[tensor_expr::program]
fn leaky(x: &Tensor<f32, V>) -> f32 {
    let a = tensor_expr!(x * 2.0);
    let first = &a[[0]];
    let a = tensor_expr!(a + 1.0);
    let b = tensor_expr!(a * 3.0);
    b[[0]] + *first
}

fn main() {
    let x = Tensor::<f32, V>::full(1.0);
    let _ = leaky(&x);
}
