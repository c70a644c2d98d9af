use tensor_expr::prelude::*;

fn main() {
    // output_padding is smaller than the stride (or the dilation).
    let x = Tensor::<f32, Shape![1, 4, 8, 8]>::zeros();
    let w = Tensor::<f32, Shape![4, 2, 3, 3]>::zeros();
    let _y = tensor_expr!(conv_transpose2d(x, w, stride = 2, output_padding = 2));
}
