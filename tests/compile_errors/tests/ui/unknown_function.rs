use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![3]>::zeros();
    let _y = tensor_expr!(rleu(x) + my_activation(x));
}
