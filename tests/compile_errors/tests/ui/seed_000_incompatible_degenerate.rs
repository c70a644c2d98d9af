use tensor_expr::prelude::*;

fn main() {
    // XLA: (7,2,5) and (7,2,6) are incompatible and cannot be broadcast.
    let a = Tensor::<f32, Shape![7, 2, 5]>::zeros();
    let b = Tensor::<f32, Shape![7, 2, 6]>::zeros();
    let _c = tensor_expr!(a + b);
}
