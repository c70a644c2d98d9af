use tensor_expr::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![3, 3]>::eye();
    let b = Tensor::<f32, Shape![4]>::zeros();
    let _x = tensor_expr!(solve(a, b));
}
