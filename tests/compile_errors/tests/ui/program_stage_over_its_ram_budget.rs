use tensor_expr::prelude::*;

type M = Shape![16, 16];

// `a @ b` is evaluated first (a stage), into the arena beside `c`.
#[tensor_expr::program(ram <= 2_000)]
fn staged(a: &Tensor<f32, M>, b: &Tensor<f32, M>) -> Tensor<f32, M> {
    let c = tensor_expr!(a @ b @ a + 1.0);
    tensor_expr!(c * 2.0)
}

fn main() {
    let x = Tensor::<f32, M>::full(1.0);
    let _ = staged(&x, &x);
}
