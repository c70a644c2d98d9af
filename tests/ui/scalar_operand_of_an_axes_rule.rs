use tensor_expr::prelude::*;

// A scalar (rank 0) has no axes: each of these is one error, and the one place
// where a shape error still ends with a note ("required by a bound").
fn main() {
    let s = Tensor::<f32, Shape![]>::zeros();
    let _a = tensor_expr!(sum(s, [0]));
    let _b = tensor_expr!(transpose(s));
    let _c = tensor_expr!(permute(s, [0]));
}
