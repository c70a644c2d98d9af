use tensor_expr::prelude::*;

fn main() {
    // PyTorch: x = (0,), y = (2,2) are not broadcastable (0 against 2).
    let x = Tensor::<f32, Shape![0]>::zeros();
    let y = Tensor::<f32, Shape![2, 2]>::zeros();
    let _z = tensor_expr!(x + y);
}
