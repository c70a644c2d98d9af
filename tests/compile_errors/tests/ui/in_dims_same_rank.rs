use tensor_expr::prelude::*;

// `in_dims` binds to the other operand of its own operation. Placed on an
// operand of its own rank it does nothing, which is never what was meant:
// here `n[i] + n[j]` was meant, and `in_dims(n, [0]) + n` gave `n[j] + n[j]`.

fn pairwise(n: &Tensor<f32, Shape![5]>, p: &Tensor<f32, Shape![5, 3]>) {
    let _d = tensor_expr!(in_dims(n, [0]) + n - 2.0 * (p @ transpose(p)));
}

fn matrices(a: &Tensor<f32, Shape![2, 3]>, b: &Tensor<f32, Shape![2, 3]>) {
    let _d = tensor_expr!(a * in_dims(b, [0, 1]));
}

fn target(out: &mut Tensor<f32, Shape![5]>, n: &Tensor<f32, Shape![5]>) {
    tensor_expr!(out += in_dims(n, [0]));
}

fn main() {
    let n = Tensor::<f32, Shape![5]>::zeros();
    let p = Tensor::<f32, Shape![5, 3]>::zeros();
    pairwise(&n, &p);
    matrices(&Tensor::zeros(), &Tensor::zeros());
    target(&mut Tensor::zeros(), &n);
}
