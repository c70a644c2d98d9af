use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![3, 4]>::zeros();
    let ids = Tensor::<usize, Shape![2]>::zeros();
    let _ = tensor_expr!(index_select(x, ids, [2]));
}
