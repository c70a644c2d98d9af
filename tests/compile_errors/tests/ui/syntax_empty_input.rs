use tensor_expr::prelude::*;

fn main() {
    let _c: Tensor<f32, Shape![3]> = tensor_expr!();
}
