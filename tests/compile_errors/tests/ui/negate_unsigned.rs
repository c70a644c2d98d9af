use tensor_expr::prelude::*;

fn main() {
    let u = Tensor::<u32, Shape![3]>::zeros();
    let _y = tensor_expr!(-u + 1);
}
