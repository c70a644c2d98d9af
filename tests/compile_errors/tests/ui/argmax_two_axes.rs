use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![4, 10]>::zeros();
    // One axis per index reduction (NumPy's `argmax` takes one axis too).
    let _best = tensor_expr!(argmin(x * 2.0, [0, 1]));
}
