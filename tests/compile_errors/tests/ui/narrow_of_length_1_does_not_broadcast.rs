use tensor_expr::prelude::*;

fn main() {
    // NumPy's `m - m[:, 0:1]` broadcasts; `narrow` of length 1 gives `D<1>`,
    // a size that does not stretch (stable Rust cannot pick `One` from the
    // value of a const parameter). `index_axis_keepdim::<1>(0)` is the
    // broadcasting form.
    let m = Tensor::<f32, Shape![4, 6]>::zeros();
    let _centred = tensor_expr!(m - m.narrow::<1, 0, 1>());
}
