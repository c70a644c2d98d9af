use tensor_expr::prelude::*;

// In strict mode, operands whose ranks differ and whose sizes would not
// broadcast either: one error, the rank rule's, also when the result is used
// further or written in place.

fn used_further(x: &Tensor<f32, Shape![4, 8]>, w: &Tensor<f32, Shape![4]>) {
    let _y = tensor_expr!(strict: (x - w) + x);
}

fn in_place(x: &mut Tensor<f32, Shape![4, 8]>, w: &Tensor<f32, Shape![4]>) {
    tensor_expr!(strict: x += w);
}

fn main() {
    let mut x = Tensor::<f32, Shape![4, 8]>::zeros();
    let w = Tensor::<f32, Shape![4]>::zeros();
    used_further(&x, &w);
    in_place(&mut x, &w);
}
