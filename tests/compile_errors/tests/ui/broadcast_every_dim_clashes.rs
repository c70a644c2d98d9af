use tensor_expr::prelude::*;

fn main() {
    // Every dim clashes; NumPy names both shapes once, and so do we: one error,
    // at the rightmost clashing dim (PyTorch's "non-singleton dimension").
    let x = Tensor::<f32, Shape![2, 3, 4]>::zeros();
    let w = Tensor::<f32, Shape![5, 6, 7]>::zeros();
    let _y = tensor_expr!(x + w);
}
