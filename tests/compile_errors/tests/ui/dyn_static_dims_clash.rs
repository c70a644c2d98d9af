use tensor_expr::prelude::*;

fn main() {
    let x = HeapTensor::<f32, Shape![Dyn, 784]>::zeros_rows(7);
    let w = Tensor::<f32, Shape![748, 128]>::zeros();
    let b = Tensor::<f32, Shape![128]>::zeros();
    let _y = tensor_expr!(relu(x @ w + b));
}
