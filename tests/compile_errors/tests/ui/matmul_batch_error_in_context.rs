use tensor_expr::prelude::*;

// One mistake in each function, inside a larger expression: each is one
// error, on the faulty operation.

fn context_0() {
    let a = Tensor::<f32, Shape![4, 2, 3]>::zeros();
    let b = Tensor::<f32, Shape![3, 3, 5]>::zeros();
    let c = Tensor::<f32, Shape![5]>::zeros();
    let _y = tensor_expr!(exp(a @ b));
}

fn context_1() {
    let a = Tensor::<f32, Shape![4, 2, 3]>::zeros();
    let b = Tensor::<f32, Shape![3, 3, 5]>::zeros();
    let c = Tensor::<f32, Shape![5]>::zeros();
    let _y = tensor_expr!(a @ b + c);
}

fn context_2() {
    let a = Tensor::<f32, Shape![4, 2, 3]>::zeros();
    let b = Tensor::<f32, Shape![3, 3, 5]>::zeros();
    let c = Tensor::<f32, Shape![5]>::zeros();
    let _y = tensor_expr!(max(a @ b, [0]));
}

fn main() {
    context_0();
    context_1();
    context_2();
}
