use tensor_expr::prelude::*;

fn main() {
    // NumPy raises "attempt to get argmax of an empty sequence".
    let x = Tensor::<f32, Shape![3, 0]>::zeros();
    let _i = x.argmax::<1>();
}
