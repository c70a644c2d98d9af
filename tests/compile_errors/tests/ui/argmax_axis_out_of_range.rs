use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![4, 10]>::zeros();
    let w = Tensor::<f32, Shape![10, 3]>::zeros();
    // `x @ w` is [4, 3]: it has no axis 2.
    let _predicted = tensor_expr!(argmax(x @ w, [2]));
}
