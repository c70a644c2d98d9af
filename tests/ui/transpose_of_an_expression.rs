use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let _t = tensor_expr!(transpose(x * 2.0));
}
