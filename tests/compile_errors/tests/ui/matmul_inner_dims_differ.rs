use tensor_expr::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let b = Tensor::<f32, Shape![4, 5]>::zeros();
    let _c = tensor_expr!(a @ b);
}
