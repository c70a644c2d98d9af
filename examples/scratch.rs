use tensor_expr::prelude::*;
fn main() {
    let x: Tensor<f32, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
    let v: Tensor<f32, Shape![3]> = Tensor::try_from_slice(&[7., 8., 9.]).unwrap();
    let y = tensor_expr!(x + v);
    println!("{y}\n{y:?}");
    let z: Tensor<f32, Shape![2, 3]> = tensor_expr!(relu(x * 2 - v) / 4.0);
    println!("{z}");
    let mut acc = Tensor::<f32, Shape![2, 3]>::zeros();
    tensor_expr!(acc += x * v);
    tensor_expr!(acc = acc * 0.5 + 1.0);
    println!("{acc}");
    let c: Tensor<f32, Shape![2, 1]> = tensor![[1.], [2.]];
    let r: Tensor<f32, Shape![1, 3]> = tensor![[10., 20., 30.]];
    println!("{}", tensor_expr!(c + r));
    println!("{}", tensor_expr!(exp(-x) + clamp(x, 2, 5.0) + max(x, v)));
}
