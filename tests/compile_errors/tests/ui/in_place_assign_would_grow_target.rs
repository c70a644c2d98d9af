use tensor_expr::prelude::*;

fn main() {
    let mut row = Tensor::<f32, Shape![1, 3]>::zeros();
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    tensor_expr!(row = x * 2);
}
