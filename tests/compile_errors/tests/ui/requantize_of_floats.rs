use tensor_expr::prelude::*;

fn main() {
    let acc = Tensor::<f32, Shape![4]>::zeros();
    let _y = tensor_expr!(requantize(acc, 1073741824, -3));
}
