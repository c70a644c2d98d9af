use tensor_expr::prelude::*;

fn main() {
    // `transpose`, `permute`, `reshape` and `in_dims` read contiguous data.
    let m = Tensor::<f32, Shape![4, 6]>::zeros();
    let _t = tensor_expr!(transpose(m.narrow::<1, 0, 4>()) * 2);
}
