use tensor_expr::prelude::*;

// Products nested 61 deep: elementwise paths are folded to a shallow type, but
// each product nests one level, and rustc builds at most about 62.
#[rustfmt::skip]
fn main() {
    let a = Tensor::<f32, Shape![2, 2]>::zeros();
    let w = Tensor::<f32, Shape![2, 2]>::zeros();
    let _y = tensor_expr!(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((a @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w) @ w);
}
