use tensor_expr::prelude::*;

fn main() {
    // conv_transpose2d takes [N, C, H, W] or [C, H, W]: this is a matrix.
    let x = Tensor::<f32, Shape![4, 8]>::zeros();
    let w = Tensor::<f32, Shape![4, 2, 3, 3]>::zeros();
    let _y = tensor_expr!(conv_transpose2d(x, w));
}
