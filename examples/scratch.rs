use tensor_expr::prelude::*;
fn main() {
    let x: Tensor<f32, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
    let v: Tensor<f32, Shape![3]> = Tensor::try_from_slice(&[7., 8., 9.]).unwrap();
    let y = tensor_expr!(x + v);
    println!("{y}");
    let z: Tensor<f32, Shape![2, 3]> = tensor_expr!(relu(x * 2 - v) / 4.0);
    println!("{z}");
    let mut acc = Tensor::<f32, Shape![2, 3]>::zeros();
    tensor_expr!(acc += x * v);
    tensor_expr!(acc = acc * 0.5 + 1.0);
    println!("{acc}");
    let alpha = 2.0f32;
    println!("{}", tensor_expr!(exp(-x) * alpha + clamp(x, 2, 5.0) + max(x, v)));
    let i: Tensor<i32, Shape![3]> = tensor![1, -2, 3];
    println!("{}", tensor_expr!(abs(i) * 3 - 1));
}
