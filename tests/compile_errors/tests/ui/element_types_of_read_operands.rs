use tensor_expr::prelude::*;

// An operand of another element type read through `transpose`, `permute`,
// `reshape` or `in_dims`, or written in place: one error each, on the operand.

fn transposed() {
    let x = Tensor::<f32, Shape![3, 3]>::zeros();
    let y = Tensor::<f64, Shape![3, 3]>::zeros();
    let _z = tensor_expr!(x + transpose(y));
}

fn permuted() {
    let x = Tensor::<f32, Shape![3, 3]>::zeros();
    let y = Tensor::<f64, Shape![3, 3]>::zeros();
    let _z = tensor_expr!(x + permute(y, [1, 0]));
}

fn reshaped() {
    let x = Tensor::<f32, Shape![3, 3]>::zeros();
    let y = Tensor::<f64, Shape![9]>::zeros();
    let _z = tensor_expr!(x + reshape::<Shape![3, 3]>(y));
}

fn placed() {
    let x = Tensor::<f32, Shape![3, 3]>::zeros();
    let y = Tensor::<f64, Shape![3]>::zeros();
    let _z = tensor_expr!(x + in_dims(y, [0]));
}

fn in_place() {
    let mut x = Tensor::<f32, Shape![3]>::zeros();
    let y = Tensor::<f64, Shape![3]>::zeros();
    tensor_expr!(x += y * 2);
}

fn main() {
    transposed();
    permuted();
    reshaped();
    placed();
    in_place();
}
