use tensor_expr::prelude::*;

fn main() {
    // A comparison broadcasts like any operator, and its error is on it.
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let t = Tensor::<f32, Shape![2]>::zeros();
    let _mask = tensor_expr!(x > t);
}
