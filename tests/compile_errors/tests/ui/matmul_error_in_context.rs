use tensor_expr::prelude::*;

// One mistake in each function, inside a larger expression: each is one
// error, on the faulty operation.

fn context_0() {
    let x = Tensor::<f32, Shape![4, 784]>::zeros();
    let w = Tensor::<f32, Shape![128, 10]>::zeros();
    let b = Tensor::<f32, Shape![10]>::zeros();
    let v = Tensor::<f32, Shape![10, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 10]>::zeros();
    let _y = tensor_expr!(relu(x @ w + b));
}

fn context_1() {
    let x = Tensor::<f32, Shape![4, 784]>::zeros();
    let w = Tensor::<f32, Shape![128, 10]>::zeros();
    let b = Tensor::<f32, Shape![10]>::zeros();
    let v = Tensor::<f32, Shape![10, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 10]>::zeros();
    let _y = tensor_expr!(x @ w + b);
}

fn context_2() {
    let x = Tensor::<f32, Shape![4, 784]>::zeros();
    let w = Tensor::<f32, Shape![128, 10]>::zeros();
    let b = Tensor::<f32, Shape![10]>::zeros();
    let v = Tensor::<f32, Shape![10, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 10]>::zeros();
    let _y = tensor_expr!((x @ w) @ v);
}

fn context_3() {
    let x = Tensor::<f32, Shape![4, 784]>::zeros();
    let w = Tensor::<f32, Shape![128, 10]>::zeros();
    let b = Tensor::<f32, Shape![10]>::zeros();
    let v = Tensor::<f32, Shape![10, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 10]>::zeros();
    let _y = tensor_expr!(sum(x @ w, [1]));
}

fn context_4() {
    let x = Tensor::<f32, Shape![4, 784]>::zeros();
    let w = Tensor::<f32, Shape![128, 10]>::zeros();
    let b = Tensor::<f32, Shape![10]>::zeros();
    let v = Tensor::<f32, Shape![10, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 10]>::zeros();
    tensor_expr!(out += x @ w);
}

fn main() {
    context_0();
    context_1();
    context_2();
    context_3();
    context_4();
}
