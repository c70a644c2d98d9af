use tensor_expr::prelude::*;

fn main() {
    // A matrix has axes 0 and 1.
    let m = Tensor::<f32, Shape![4, 6]>::zeros();
    let _column = m.index_axis::<2>(0);
}
