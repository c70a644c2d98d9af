use tensor_expr::prelude::*;
fn main() {
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let w = Tensor::<f32, Shape![4]>::zeros();
    let i = Tensor::<i32, Shape![3]>::zeros();
    let d = Tensor::<f64, Shape![3]>::zeros();
    let mut o = Tensor::<f32, Shape![1, 3]>::zeros();
    let _a = tensor_expr!(x + w * 2 - x);
    let _b = tensor_expr!(exp(i) + i);
    let _c = tensor_expr!((x + d) * x);
    tensor_expr!(o += x);
    tensor_expr!(o = o + x * 2);
    let _e = tensor_expr!(i * 0.5 + i);
    let s = "hello";
    let _f = tensor_expr!(x * s);
    let u = Tensor::<u32, Shape![3]>::zeros();
    let _g = tensor_expr!(-u + u);
    let k = Tensor::<f32, Shape![2, 3]>::zeros();
    tensor_expr!(k = x);
}
