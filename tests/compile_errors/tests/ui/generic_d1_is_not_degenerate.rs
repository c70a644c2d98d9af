use tensor_expr::prelude::*;
use tensor_expr::D;

// `D<N>` with N = 1 is a size-1 dim that does not stretch; `One` does.
fn add<const N: usize>(a: &Tensor<f32, (D<N>,)>, b: &Tensor<f32, Shape![3]>) -> Tensor<f32, Shape![3]> {
    tensor_expr!(a + b)
}

fn main() {}
