use tensor_expr::prelude::*;

#[tensor_expr::program]
fn scale<T: Element>(x: &Tensor<T, Shape![4]>, k: T) -> Tensor<T, Shape![4]> {
    let y = tensor_expr!(x * k);
    tensor_expr!(y + y)
}

fn main() {}
