use tensor_expr::prelude::*;

fn main() {
    // `a @ b` is staged before the mean: a 128x128 f32 matrix, 64 KiB on the
    // stack, over the default 16 KiB budget.
    let a = Tensor::<f32, Shape![128, 1]>::zeros();
    let b = Tensor::<f32, Shape![1, 128]>::zeros();
    let _m = tensor_expr!(sum(a @ b, [1]));
}
