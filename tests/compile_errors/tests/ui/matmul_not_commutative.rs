use tensor_expr::prelude::*;

fn main() {
    // (3, 4) @ (2, 5, 4, 6) is valid; the operands never swap.
    let a = Tensor::<f32, Shape![3, 4]>::zeros();
    let b = Tensor::<f32, Shape![2, 5, 4, 6]>::zeros();
    let _ok = tensor_expr!(a @ b);
    let _c = tensor_expr!(b @ a);
}
