use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let w = Tensor::<f32, Shape![4]>::zeros();
    let _y = tensor_expr!(x + w);
}
