use tensor_expr::prelude::*;

fn main() {
    let v = Tensor::<f32, Shape![3]>::zeros();
    let w = Tensor::<f32, Shape![3]>::zeros();
    let _y = tensor_expr!(in_dims(v, [0]) + in_dims(w, [1]));
}
