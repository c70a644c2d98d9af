use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![3]>::zeros();
    let mut total = 0.0f32;
    tensor_expr!(total = x * 2);
}
