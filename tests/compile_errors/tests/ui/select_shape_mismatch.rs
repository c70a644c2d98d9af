use tensor_expr::prelude::*;

fn main() {
    // The mask and both branches of `select` broadcast together (NumPy's
    // `where`): a [2, 3] mask cannot choose between [3] and [2] values.
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let a = Tensor::<f32, Shape![3]>::zeros();
    let b = Tensor::<f32, Shape![2]>::zeros();
    let _y = tensor_expr!(select(x > 0, a, b));
}
