use tensor_expr::prelude::*;

fn main() {
    // XLA: operations between arrays of different ranks need explicit dims.
    let m = Tensor::<f32, Shape![2, 3]>::zeros();
    let v = Tensor::<f32, Shape![3]>::zeros();
    let _y = tensor_expr!(strict: m + v);
}
