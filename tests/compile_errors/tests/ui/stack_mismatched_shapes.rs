use tensor_expr::prelude::*;

fn main() {
    // `stack` joins tensors of one shape.
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let b = Tensor::<f32, Shape![3, 2]>::zeros();
    let _s = stack(Axis::<0>, [a.view(), b.view()]);
}
