use tensor_expr::prelude::*;

fn main() {
    // PyTorch: x = (1,3,1); x.add_(y) with y = (3,1,7) would change x.
    let mut x = Tensor::<f32, Shape![1, 3, 1]>::zeros();
    let y = Tensor::<f32, Shape![3, 1, 7]>::zeros();
    tensor_expr!(x += y);
}
