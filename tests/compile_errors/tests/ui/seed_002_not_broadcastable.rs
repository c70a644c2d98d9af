use tensor_expr::prelude::*;

fn main() {
    // PyTorch: x = (5,2,4,1), y = (3,1,1): in the 3rd trailing dimension 2 != 3.
    let x = Tensor::<f32, Shape![5, 2, 4, 1]>::zeros();
    let y = Tensor::<f32, Shape![3, 1, 1]>::zeros();
    let _z = tensor_expr!(x + y);
}
