use tensor_expr::prelude::*;

fn main() {
    let i = Tensor::<i32, Shape![3]>::zeros();
    let _y = tensor_expr!(i * 0.5);
}
