use tensor_expr::prelude::*;

#[test]
fn probe() {
    let x = HeapTensor::<f32, Shape![Dyn, 3]>::from_fn(7, |[i, j]| (i * 3 + j) as f32);
    let b = Tensor::<f32, Shape![3]>::new([1., 2., 3.]);
    let y = tensor_expr!(relu(x * 2.0 + b));
    assert_eq!(y.rows(), 7);
    for i in 0..7 {
        for j in 0..3 {
            assert_eq!(y[[i, j]], ((i * 3 + j) as f32 * 2.0 + b[[j]]).max(0.0));
        }
    }
    let w = Tensor::<f32, Shape![3, 4]>::from_fn(|[k, n]| (k + n) as f32);
    let z = tensor_expr!(x @ w);
    assert_eq!(z.rows(), 7);
    let v = x.view();
    let s = tensor_expr!(x + v);
    assert_eq!(s.unwrap()[[6, 2]], 40.0);
}
