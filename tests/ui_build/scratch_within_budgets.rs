use tensor_expr::prelude::*;

const FILTER_SCRATCH: usize = 128;

// Stages that fit: a stated budget exactly (a literal or a constant), and a
// heap stage, which takes a pointer's worth of stack.
fn main() {
    let f = Tensor::<f32, Shape![4, 4]>::eye();
    let q = Tensor::<f32, Shape![4, 4]>::eye();
    let mut p = Tensor::<f32, Shape![4, 4]>::eye();
    tensor_expr!(scratch <= 128: p = f @ p @ transpose(f) + q);
    tensor_expr!(scratch <= FILTER_SCRATCH: strict: p = f @ p @ transpose(f) + q);
    assert_eq!(p, Tensor::eye().map(|v: &f32| v * 3.0));
    let a = HeapTensor::<f32, Shape![128, 1]>::zeros();
    let b = Tensor::<f32, Shape![1, 128]>::zeros();
    let m = tensor_expr!(scratch <= 64: sum(a @ b, [1]));
    assert_eq!(m.as_slice(), &[0.0; 128]);
}
