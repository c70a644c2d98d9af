use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<i8, Shape![4]>::zeros();
    let scale = Tensor::<f32, Shape![4]>::zeros();
    // The cast gives `i32`; the expression is over `f32` (its first operand's).
    let _y = tensor_expr!(scale * cast::<i32>(x));
}
