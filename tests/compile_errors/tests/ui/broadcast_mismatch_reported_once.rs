use tensor_expr::prelude::*;

fn main() {
    // One mistake, one error: the enclosing `-` and the evaluation stay silent.
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let w = Tensor::<f32, Shape![4]>::zeros();
    let _y = tensor_expr!(relu(x * 2 - w) + x);
}
