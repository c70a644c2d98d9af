use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![1, 2, 6, 6]>::zeros();
    // PyTorch's `count_include_pad=False` is written `false`, not 0.
    let _y = tensor_expr!(avg_pool2d(x, [3, 3], padding = 1, count_include_pad = 0));
}
