use tensor_expr::prelude::*;

fn main() {
    let x = HeapTensor::<f32, Shape![Dyn, 3]>::zeros_rows(5);
    let w = Tensor::<f32, Shape![5, 3]>::zeros();
    let _y = tensor_expr!(x + w);
}
