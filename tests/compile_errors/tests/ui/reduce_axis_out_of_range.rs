use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let _s = tensor_expr!(sum(x, [2]));
}
