use tensor_expr::prelude::*;

fn main() {
    // 16 * 22 * 3 = 1056 elements: equal counts, but 1056 is beyond the
    // sizes typenum counts (0..=1024, powers of 2 and 10).
    let x = Tensor::<f32, Shape![16, 22, 3]>::zeros();
    let _r = tensor_expr!(reshape::<Shape![1056]>(x) * 2.0);
}
