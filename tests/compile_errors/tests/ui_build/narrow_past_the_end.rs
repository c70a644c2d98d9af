use tensor_expr::prelude::*;

fn main() {
    // Columns 4..7 of a 6-column matrix: past the end of axis 1.
    let m = Tensor::<f32, Shape![4, 6]>::zeros();
    let _tail = m.narrow::<1, 4, 3>();
}
