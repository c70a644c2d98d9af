use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![4]>::zeros();
    let _y = tensor_expr!(x >> 2.0);
}
