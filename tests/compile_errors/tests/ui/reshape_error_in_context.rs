use tensor_expr::prelude::*;

// One mistake in each function, inside a larger expression: each is one
// error, on the faulty operation.

fn context_0() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let w = Tensor::<f32, Shape![5, 5]>::zeros();
    let _z = tensor_expr!(exp(reshape::<Shape![5, 5]>(m)));
}

fn context_1() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let w = Tensor::<f32, Shape![5, 5]>::zeros();
    let _z = tensor_expr!(w @ reshape::<Shape![5, 5]>(m));
}

fn context_2() {
    let m = Tensor::<f32, Shape![4, 3]>::zeros();
    let w = Tensor::<f32, Shape![5, 5]>::zeros();
    let _z = tensor_expr!(sum(reshape::<Shape![5, 5]>(m) * w, [0]));
}

fn main() {
    context_0();
    context_1();
    context_2();
}
