use tensor_expr::prelude::*;

fn main() {
    // XLA: matching V to N and T to P (the dims out of order) is illegal.
    let a = Tensor::<f32, Shape![2, 3, 4, 5]>::zeros();
    let tv = Tensor::<f32, Shape![4, 3]>::zeros();
    let _y = tensor_expr!(a + in_dims(tv, [2, 1]));
}
