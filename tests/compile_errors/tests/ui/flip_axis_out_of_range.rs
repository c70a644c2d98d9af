use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let _ = tensor_expr!(flip(x, [2]));
}
