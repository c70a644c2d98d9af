use tensor_expr::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let s = 2.0f32;
    let _c = tensor_expr!(a @ s);
}
