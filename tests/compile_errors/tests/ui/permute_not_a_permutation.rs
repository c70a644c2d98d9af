use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let _p = tensor_expr!(permute(x, [0, 0]));
}
