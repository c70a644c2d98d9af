use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![2, 40]>::zeros();
    let h = Tensor::<f32, Shape![64]>::zeros();
    let _y = tensor_expr!(sum(x.windows::<1, 64, 1>() * h, [2]));
}
