use tensor_expr::prelude::*;

fn main() {
    // Joined along axis 1, the operands' dim 0 must agree: 2 and 3 do not.
    let a = Tensor::<f32, Shape![2, 4]>::zeros();
    let b = Tensor::<f32, Shape![3, 4]>::zeros();
    let _c: Tensor<f32, Shape![2, 8]> = concat(Axis::<1>, &a, &b);
}
