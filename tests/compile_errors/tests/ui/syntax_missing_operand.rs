use tensor_expr::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![3]>::zeros();
    let b = Tensor::<f32, Shape![3]>::zeros();
    let _c = tensor_expr!(a + * b);
}
