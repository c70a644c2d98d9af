use tensor_expr::prelude::*;

fn main() {
    // (2 - 1) * 1 + 1 * (2 - 1) + 1 = 3 positions, cropped by 2 on each side.
    let x = Tensor::<f32, Shape![1, 4, 2]>::zeros();
    let w = Tensor::<f32, Shape![4, 2, 2]>::zeros();
    let _y = tensor_expr!(conv_transpose1d(x, w, padding = 2));
}
