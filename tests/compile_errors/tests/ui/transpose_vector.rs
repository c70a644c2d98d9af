use tensor_expr::prelude::*;

fn main() {
    let v = Tensor::<f32, Shape![3]>::zeros();
    let _t = tensor_expr!(transpose(v));
}
