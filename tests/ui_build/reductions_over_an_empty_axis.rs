use tensor_expr::prelude::*;

// `sum` and `prod` of nothing have a value (0 and 1, as NumPy), and `max` over
// a non-empty axis of a tensor with an empty one is fine.
fn main() {
    let x = Tensor::<f32, Shape![3, 0]>::zeros();
    let s = tensor_expr!(sum(x, [1]));
    let p = tensor_expr!(prod(x, [1]));
    assert_eq!(s.as_slice(), &[0.0; 3]);
    assert_eq!(p.as_slice(), &[1.0; 3]);
    let m = tensor_expr!(max(x, [0]));
    assert_eq!(m.as_slice().len(), 0);
}
