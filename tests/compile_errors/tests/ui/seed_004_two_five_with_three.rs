use tensor_expr::prelude::*;

fn main() {
    // a = (2,5), b = (3,): 5 and 3 differ and neither is 1.
    let a = Tensor::<f32, Shape![2, 5]>::zeros();
    let b = Tensor::<f32, Shape![3]>::zeros();
    let _c = tensor_expr!(a * b);
}
