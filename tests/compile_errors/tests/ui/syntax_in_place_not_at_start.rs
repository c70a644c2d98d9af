use tensor_expr::prelude::*;

fn main() {
    let mut a = Tensor::<f32, Shape![3]>::zeros();
    tensor_expr!(a * 2 += a);
}
