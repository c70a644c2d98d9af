use tensor_expr::prelude::*;

fn main() {
    // Seed 004: (4, 2, 3, 5) @ (3, 2, 5, 6): batch dims 4 and 3 fail.
    let a = Tensor::<f32, Shape![4, 2, 3, 5]>::zeros();
    let b = Tensor::<f32, Shape![3, 2, 5, 6]>::zeros();
    let _c = tensor_expr!(a @ b);
}
