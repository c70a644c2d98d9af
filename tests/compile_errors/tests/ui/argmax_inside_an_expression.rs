use tensor_expr::prelude::*;

fn main() {
    let logits = Tensor::<f32, Shape![4, 10]>::zeros();
    // `argmax` gives positions (usize), not values: it cannot feed `+ 1`.
    let _next = tensor_expr!(argmax(logits, [1]) + 1);
}
