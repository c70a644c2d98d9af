use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<i32, Shape![2, 3]>::zeros();
    let _ = tensor_expr!(cumsum(x));
}
