use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<i32, Shape![2, 8, 8]>::zeros();
    let _y = tensor_expr!(avg_pool2d(x, [2, 2]));
}
