use tensor_expr::prelude::*;

// One mistake in each function, inside a larger expression: each is one
// error, on the faulty operation.

fn context_0() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let v = Tensor::<f32, Shape![3]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let _z = tensor_expr!(strict: exp(m + v));
}

fn context_1() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let v = Tensor::<f32, Shape![3]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let _z = tensor_expr!(strict: (m * v) @ w);
}

fn context_2() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let v = Tensor::<f32, Shape![3]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let _z = tensor_expr!(strict: mean(m - v, [1]));
}

fn main() {
    context_0();
    context_1();
    context_2();
}
