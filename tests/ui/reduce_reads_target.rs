use tensor_expr::prelude::*;

fn main() {
    let mut x = Tensor::<f32, Shape![2, 3]>::zeros();
    tensor_expr!(x = x - mean(x, [1], keepdim));
}
