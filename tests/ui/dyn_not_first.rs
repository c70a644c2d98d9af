use tensor_expr::prelude::*;

fn main() {
    let _x = HeapTensor::<f32, Shape![3, Dyn]>::zeros_rows(2);
}
