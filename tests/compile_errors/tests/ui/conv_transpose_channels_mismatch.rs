use tensor_expr::prelude::*;

fn main() {
    // A transposed convolution's weight is [C_in, C_out / groups, kH, kW]:
    // here its first dim (4) is the output channels of a conv2d's weight.
    let x = Tensor::<f32, Shape![1, 3, 8, 8]>::zeros();
    let w = Tensor::<f32, Shape![4, 3, 3, 3]>::zeros();
    let _y = tensor_expr!(conv_transpose2d(x, w, stride = 2));
}
