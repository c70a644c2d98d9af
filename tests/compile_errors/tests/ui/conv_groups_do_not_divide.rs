use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![1, 4, 8, 8]>::zeros();
    let w = Tensor::<f32, Shape![5, 2, 3, 3]>::zeros();
    let _y = tensor_expr!(conv2d(x, w, groups = 2));
}
