use tensor_expr::prelude::*;

// A scalar (rank 0) has no axes: each of these is one error, with no note
// (the rules' `Anchor` parameter gives the scalar a failing impl).
fn main() {
    let s = Tensor::<f32, Shape![]>::zeros();
    let _a = tensor_expr!(sum(s, [0]));
    let _b = tensor_expr!(transpose(s));
    let _c = tensor_expr!(permute(s, [0]));
}
