use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![3]>::zeros();
    let y = Tensor::<f64, Shape![3]>::zeros();
    let _z = tensor_expr!((x + 1) * y - x);
}
