use tensor_expr::prelude::*;

fn main() {
    let v = Tensor::<f32, Shape![3]>::zeros();
    let _ = tensor_expr!(tril(v, diagonal = -1));
}
