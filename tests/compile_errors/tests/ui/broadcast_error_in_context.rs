use tensor_expr::prelude::*;

// One mistake in each function, inside a larger expression: each is one
// error, on the faulty operation.

fn context_0() {
    let x = Tensor::<f32, Shape![4, 3]>::zeros();
    let y = Tensor::<f32, Shape![4]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 3]>::zeros();
    let _z = tensor_expr!(exp(x + y));
}

fn context_1() {
    let x = Tensor::<f32, Shape![4, 3]>::zeros();
    let y = Tensor::<f32, Shape![4]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 3]>::zeros();
    let _z = tensor_expr!((x + y) @ w);
}

fn context_2() {
    let x = Tensor::<f32, Shape![4, 3]>::zeros();
    let y = Tensor::<f32, Shape![4]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 3]>::zeros();
    let _z = tensor_expr!(sum(x * y, [0]));
}

fn context_3() {
    let x = Tensor::<f32, Shape![4, 3]>::zeros();
    let y = Tensor::<f32, Shape![4]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 3]>::zeros();
    tensor_expr!(out += x - y);
}

fn main() {
    context_0();
    context_1();
    context_2();
    context_3();
}
