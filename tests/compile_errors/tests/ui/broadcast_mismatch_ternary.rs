use tensor_expr::prelude::*;

fn main() {
    // The three operands of `clamp` broadcast together; the bound does not fit.
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let lo = Tensor::<f32, Shape![3]>::zeros();
    let hi = Tensor::<f32, Shape![4]>::zeros();
    let _y = tensor_expr!(clamp(x, lo, hi));
}
