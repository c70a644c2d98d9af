use tensor_expr::prelude::*;

fn main() {
    let u = Tensor::<f32, Shape![3]>::zeros();
    let v = Tensor::<f32, Shape![4]>::zeros();
    let _dot = tensor_expr!(u @ v);
}
