use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![3, 4]>::zeros();
    let index = Tensor::<usize, Shape![3]>::zeros();
    let _ = tensor_expr!(gather(x, index, [1]));
}
