use tensor_expr::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let b = Tensor::<f32, Shape![3, 4]>::zeros();
    let mut out = Tensor::<f32, Shape![2, 3]>::zeros();
    tensor_expr!(out = a @ b);
}
