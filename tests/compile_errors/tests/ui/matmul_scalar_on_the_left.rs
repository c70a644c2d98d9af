use tensor_expr::prelude::*;

fn main() {
    let s = Tensor::<f32, Shape![]>::zeros();
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let _c = tensor_expr!(s @ a);
    // Two scalars: one error, from the left operand.
    let _d = tensor_expr!(s @ s);
}
