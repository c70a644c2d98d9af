use tensor_expr::prelude::*;

// An int8 convolution reads `cast::<i32>(x) - zx` in place, with one zero
// point for the whole input (TFLite's per-tensor input quantisation).
fn main() {
    let x = Tensor::<i8, Shape![1, 8, 8, 4]>::zeros();
    let zx = Tensor::<i32, Shape![4]>::zeros();
    let w = Tensor::<i8, Shape![16, 3, 3, 4]>::zeros();
    let _y = tensor_expr!(conv2d(cast::<i32>(x) - zx, cast::<i32>(w), layout = nhwc));
}
