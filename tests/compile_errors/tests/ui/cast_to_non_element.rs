use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<i8, Shape![4]>::zeros();
    let _y = tensor_expr!(cast::<bool>(x));
}
