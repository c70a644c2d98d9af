use tensor_expr::prelude::*;

fn main() {
    let mut m = Tensor::<f32, Shape![2, 3]>::zeros();
    let v = Tensor::<f32, Shape![3]>::zeros();
    tensor_expr!(strict: m += v);
}
