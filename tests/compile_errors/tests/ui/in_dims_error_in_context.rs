use tensor_expr::prelude::*;

// One mistake in each function, inside a larger expression: each is one
// error, on the faulty operation.

fn context_0() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let v = Tensor::<f32, Shape![5]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 3]>::zeros();
    let _z = tensor_expr!(relu(m + in_dims(v, [0])));
}

fn context_1() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let v = Tensor::<f32, Shape![5]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 3]>::zeros();
    let _z = tensor_expr!((m * in_dims(v, [0])) @ w);
}

fn context_2() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let v = Tensor::<f32, Shape![5]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 3]>::zeros();
    let _z = tensor_expr!(sum(m - in_dims(v, [0]), [1]));
}

fn context_3() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let v = Tensor::<f32, Shape![5]>::zeros();
    let w = Tensor::<f32, Shape![3, 3]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 3]>::zeros();
    tensor_expr!(out += in_dims(v, [0]));
}

fn main() {
    context_0();
    context_1();
    context_2();
    context_3();
}
