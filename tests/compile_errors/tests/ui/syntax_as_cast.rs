use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<i32, Shape![3]>::zeros();
    let _y = tensor_expr!(x as f32 * 0.5);
}
