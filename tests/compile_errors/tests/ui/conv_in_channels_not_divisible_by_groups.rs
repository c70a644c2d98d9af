use tensor_expr::prelude::*;

fn main() {
    // 3 input channels cannot be split into 2 groups.
    let x = Tensor::<f32, Shape![1, 3, 8, 8]>::zeros();
    let w = Tensor::<f32, Shape![4, 1, 3, 3]>::zeros();
    let _y = tensor_expr!(conv2d(x, w, groups = 2));
}
