use tensor_expr::prelude::*;
fn main() {
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let i = Tensor::<i32, Shape![3]>::zeros();
    let d = Tensor::<f64, Shape![3]>::zeros();
    let _a = tensor_expr!(exp(i) + i);
    let _b = tensor_expr!((x + d) * x * 2.0);
    let _c = tensor_expr!(x * (x - d));
    let mut o = Tensor::<f32, Shape![2, 3]>::zeros();
    tensor_expr!(o += exp(i));
}
