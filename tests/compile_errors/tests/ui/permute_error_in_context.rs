use tensor_expr::prelude::*;

// One mistake in each function, inside a larger expression: each is one
// error, on the faulty operation.

fn context_0() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let w = Tensor::<f32, Shape![4, 3]>::zeros();
    let _z = tensor_expr!(exp(permute(m, [1, 0, 2])));
}

fn context_1() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let w = Tensor::<f32, Shape![4, 3]>::zeros();
    let _z = tensor_expr!(w + permute(m, [0, 1, 2]));
}

fn context_2() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let w = Tensor::<f32, Shape![4, 3]>::zeros();
    let _z = tensor_expr!(sum(permute(m, [2, 1, 0]), [0]));
}

fn main() {
    context_0();
    context_1();
    context_2();
}
