use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![1, 2, 8, 8]>::zeros();
    let _y = tensor_expr!(max_pool2d(x, [2, 2], padding = [1, 2]));
}
