use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<i32, Shape![4, 3]>::zeros();
    let _p = tensor_expr!(softmax(x, [1]));
}
