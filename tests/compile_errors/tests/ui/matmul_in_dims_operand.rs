use tensor_expr::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let v = Tensor::<f32, Shape![3]>::zeros();
    let _c = tensor_expr!(a @ in_dims(v, [0]));
}
