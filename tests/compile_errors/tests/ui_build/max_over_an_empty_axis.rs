use tensor_expr::prelude::*;

// `max` and `min` have no value over a zero-length axis (NumPy raises); the
// shape says so at compile time. `cargo build` reports it (a const assertion:
// stable Rust cannot state "a dim other than 0" as a trait bound).
fn main() {
    let x = Tensor::<f32, Shape![3, 0]>::zeros();
    let _m = tensor_expr!(max(x, [1]));
}
