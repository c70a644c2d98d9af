use tensor_expr::prelude::*;

fn main() {
    // 50 * 100 = 5000 elements: equal counts, but 5000 is beyond the
    // sizes counted at compile time (0..=4096, powers of 2 and 10).
    let x = Tensor::<f32, Shape![50, 100]>::zeros();
    let _r = tensor_expr!(reshape::<Shape![5000]>(x) * 2.0);
}
