use tensor_expr::prelude::*;

fn main() {
    // Strict mode applies to every operand of a three-argument function.
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let lo = Tensor::<f32, Shape![2, 3]>::zeros();
    let hi = Tensor::<f32, Shape![3]>::zeros();
    let _y = tensor_expr!(strict: clamp(x, lo, hi));
}
