use tensor_expr::prelude::*;

fn main() {
    let _t = Tensor::<f32, Shape![1, 2, 1, 2, 1, 2, 1]>::zeros();
}
