use tensor_expr::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let _y = tensor_expr!(inv(a) * 2.0);
}
