use tensor_expr::prelude::*;

fn main() {
    let m = Tensor::<f32, Shape![3, 3]>::zeros();
    let v = Tensor::<f32, Shape![3]>::zeros();
    let _y = tensor_expr!(m + in_dims(v, [2]));
}
