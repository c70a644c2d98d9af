use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![3]>::zeros();
    let _inside = tensor_expr!(0 < x < 1);
}
