//! Reductions, transposes, permutes and reshapes against ndarray.

use tensor_expr::prelude::*;

fn sample<S: tensor_expr::Shape>() -> Tensor<f64, S> {
    let mut k = 0.0f64;
    Tensor::from_fn(|_| {
        k += 1.0;
        (k * 0.7).sin() * 3.0
    })
}

#[test]
fn smoke() {
    let x: Tensor<f64, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
    let s: Tensor<f64, Shape![2, 1]> = tensor_expr!(sum(x, [1], keepdim));
    assert_eq!(s.as_slice(), &[6., 15.]);
    let s: Tensor<f64, Shape![3]> = tensor_expr!(sum(x, [0]));
    assert_eq!(s.as_slice(), &[5., 7., 9.]);
    let c: Tensor<f64, Shape![2, 3]> = tensor_expr!(x - mean(x, [-1], keepdim));
    assert_eq!(c.as_slice(), &[-1., 0., 1., -1., 0., 1.]);
    let m: Tensor<f64, Shape![]> = tensor_expr!(max(x));
    assert_eq!(m.as_slice(), &[6.]);
    let t: Tensor<f64, Shape![3, 2]> = tensor_expr!(transpose(x));
    assert_eq!(t.as_slice(), &[1., 4., 2., 5., 3., 6.]);
    let p: Tensor<f64, Shape![3, 2]> = tensor_expr!(permute(x, [1, 0]) * 2);
    assert_eq!(p.as_slice(), &[2., 8., 4., 10., 6., 12.]);
    let r: Tensor<f64, Shape![3, 2]> = tensor_expr!(reshape::<Shape![3, 2]>(x) + 1);
    assert_eq!(r.as_slice(), &[2., 3., 4., 5., 6., 7.]);
    let q: Tensor<f64, Shape![2, 2]> = tensor_expr!(x @ transpose(x));
    assert_eq!(q.as_slice(), &[14., 32., 32., 77.]);
    let y = sample::<Shape![4, 5]>();
    let p: Tensor<f64, Shape![4, 5]> = tensor_expr!(
        exp(y - max(y, [1], keepdim)) / sum(exp(y - max(y, [1], keepdim)), [1], keepdim)
    );
    for i in 0..4 {
        let total: f64 = (0..5).map(|j| p[[i, j]]).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }
}
