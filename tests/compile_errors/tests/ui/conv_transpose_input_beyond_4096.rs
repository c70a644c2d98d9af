use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![4, 6000]>::zeros();
    let w = Tensor::<f32, Shape![4, 1, 4]>::zeros();
    let _y = tensor_expr!(conv_transpose1d(x, w, stride = 2));
}
