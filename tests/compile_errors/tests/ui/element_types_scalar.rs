use tensor_expr::prelude::*;

// A scalar of another element type, here a suffixed literal. A scalar is an
// operand of its own element type only (so that an untyped `0.5` variable
// takes the expression's float type), so this error is rustc's longer form,
// with the impl it tried.

fn main() {
    let x = Tensor::<f32, Shape![3]>::zeros();
    let _z = tensor_expr!(x * 2.0f64);
}
