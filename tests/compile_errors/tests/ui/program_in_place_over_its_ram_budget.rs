use tensor_expr::prelude::*;

type Maps = Shape![1, 8, 8, 16];

// `d` is written over `a`, the input its convolution reads last.
#[tensor_expr::program(ram <= 2_000)]
fn layer(x: &Tensor<i8, Maps>, dw: &Tensor<i8, Shape![16, 3, 3, 1]>) -> Tensor<i8, Maps> {
    let a = tensor_expr!(x / 2);
    let d = tensor_expr!(saturating_cast::<i8>(requantize(
        conv2d(cast::<i32>(a) + 1, cast::<i32>(dw), padding = same, groups = 16, layout = nhwc),
        1_200_000_000,
        -6
    )));
    tensor_expr!(d + 1)
}

fn main() {
    let x = Tensor::<i8, Maps>::full(3);
    let dw = Tensor::<i8, Shape![16, 3, 3, 1]>::full(1);
    let _ = layer(&x, &dw);
}
