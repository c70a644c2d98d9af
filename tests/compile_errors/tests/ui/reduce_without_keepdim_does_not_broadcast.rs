use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![8, 64]>::zeros();
    let _c = tensor_expr!(x - mean(x, [1]));
}
