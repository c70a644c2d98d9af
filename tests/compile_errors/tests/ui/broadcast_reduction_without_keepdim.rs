use tensor_expr::prelude::*;

// A reduction without `keepdim` drops its axes, so `x - max(x, [1])` aligns
// `max`'s `[4]` with `x`'s last dim `8`: the error asks whether `keepdim` was
// meant, also under a function or a scalar factor.

fn softmax(x: &Tensor<f32, Shape![4, 8]>) {
    let _y = tensor_expr!(exp(x - max(x, [1])) / sum(exp(x - max(x, [1], keepdim)), [1], keepdim));
}

fn scaled(x: &Tensor<f32, Shape![4, 8]>) {
    let _y = tensor_expr!(x - 2.0 * mean(x, [1]));
}

fn as_function_argument(x: &Tensor<f32, Shape![4, 8]>) {
    let _y = tensor_expr!(max(x, sum(x, [-1])));
}

fn main() {
    let x = Tensor::<f32, Shape![4, 8]>::zeros();
    softmax(&x);
    scaled(&x);
    as_function_argument(&x);
}
