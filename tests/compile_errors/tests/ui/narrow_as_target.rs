use tensor_expr::prelude::*;

fn main() {
    let mut y = Tensor::<f32, Shape![4, 3]>::zeros();
    let a = Tensor::<f32, Shape![2, 3]>::full(1.0);
    tensor_expr!(y.narrow::<0, 1, 2>() = a * 2.0);
}
