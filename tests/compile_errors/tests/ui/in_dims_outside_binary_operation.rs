use tensor_expr::prelude::*;

fn main() {
    let v = Tensor::<f32, Shape![3]>::zeros();
    let _y = tensor_expr!(exp(in_dims(v, [0])));
}
