use tensor_expr::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![3]>::zeros();
    let name = "weights";
    let _y = tensor_expr!(x * name);
}
