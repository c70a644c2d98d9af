use tensor_expr::prelude::*;

fn main() {
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let mut x = Tensor::<f32, Shape![3, 3]>::zeros();
    tensor_expr!(x = x @ w);
}
