use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![8, 64]>::zeros();
    let _r = tensor_expr!(reshape::<Shape![8, 8, 9]>(x) * 2.0);
}
