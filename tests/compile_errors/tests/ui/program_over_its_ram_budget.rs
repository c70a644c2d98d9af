use tensor_expr::prelude::*;

type V = Shape![1000];

#[tensor_expr::program(ram <= 7_000)]
fn chain(x: &Tensor<f32, V>) -> Tensor<f32, V> {
    let a = tensor_expr!(x * 2.0);
    let b = tensor_expr!(a + 1.0);
    tensor_expr!(a * b)
}

fn main() {
    let x = Tensor::<f32, V>::full(1.0);
    let _ = chain(&x);
}
