use tensor_expr::prelude::*;

// One mistake in each function, inside a larger expression: each is one
// error, on the faulty operation.

fn context_0() {
    let i = Tensor::<i32, Shape![3]>::zeros();
    let w = Tensor::<i32, Shape![3, 3]>::zeros();
    let _z = tensor_expr!(relu(exp(i) + i));
}

fn context_1() {
    let i = Tensor::<i32, Shape![3]>::zeros();
    let w = Tensor::<i32, Shape![3, 3]>::zeros();
    let _z = tensor_expr!(sqrt(i) @ w);
}

fn context_2() {
    let i = Tensor::<i32, Shape![3]>::zeros();
    let w = Tensor::<i32, Shape![3, 3]>::zeros();
    let _z = tensor_expr!(sum(tanh(i), [0]));
}

fn main() {
    context_0();
    context_1();
    context_2();
}
