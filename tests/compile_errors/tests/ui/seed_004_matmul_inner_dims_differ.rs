use tensor_expr::prelude::*;

fn main() {
    // Seed 004: (1, 1, 3, 4) @ (2, 3, 5, 3): (a, b) = (3, 4) and (b, c) = (5, 3), no match.
    let a = Tensor::<f32, Shape![1, 1, 3, 4]>::zeros();
    let b = Tensor::<f32, Shape![2, 3, 5, 3]>::zeros();
    let _c = tensor_expr!(a @ b);
}
