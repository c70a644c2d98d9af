use tensor_expr::prelude::*;

fn main() {
    // a = (4,3,2), b = (4,2): after left-padding, 3 against 4 fails.
    let a = Tensor::<f32, Shape![4, 3, 2]>::zeros();
    let b = Tensor::<f32, Shape![4, 2]>::zeros();
    let _c = tensor_expr!(a - b);
}
