use tensor_expr::prelude::*;

fn main() {
    let table = Tensor::<f32, Shape![2, 6, 4]>::zeros();
    let ids = Tensor::<usize, Shape![3]>::zeros();
    let _ = tensor_expr!(embedding(ids, table));
}
