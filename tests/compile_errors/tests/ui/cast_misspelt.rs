use tensor_expr::prelude::*;

fn main() {
    let acc = Tensor::<i32, Shape![4]>::zeros();
    let _y = tensor_expr!(saturate_cast::<i8>(acc));
}
