use tensor_expr::prelude::*;

const FILTER_SCRATCH: usize = 128;

// What builds and runs beside the errors of this folder: one pass case,
// which makes trybuild build (not check) every case of the run.
fn main() {
    reductions_over_an_empty_axis();
    scratch_within_budgets();
}

// `sum` and `prod` of nothing have a value (0 and 1, as NumPy), and `max` over
// a non-empty axis of a tensor with an empty one is fine.
fn reductions_over_an_empty_axis() {
    let x = Tensor::<f32, Shape![3, 0]>::zeros();
    let s = tensor_expr!(sum(x, [1]));
    let p = tensor_expr!(prod(x, [1]));
    assert_eq!(s.as_slice(), &[0.0; 3]);
    assert_eq!(p.as_slice(), &[1.0; 3]);
    let m = tensor_expr!(max(x, [0]));
    assert_eq!(m.as_slice().len(), 0);
}

// Stages that fit: a stated budget exactly (a literal or a constant), and a
// heap stage, which takes a pointer's worth of stack.
fn scratch_within_budgets() {
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
