use tensor_expr::prelude::*;

fn main() {
    // The product and the transposed `f` are staged: 2 x 64 bytes, over 100.
    let f = Tensor::<f32, Shape![4, 4]>::eye();
    let q = Tensor::<f32, Shape![4, 4]>::eye();
    let mut p = Tensor::<f32, Shape![4, 4]>::eye();
    tensor_expr!(scratch <= 100: p = f @ p @ transpose(f) + q);
}
