use tensor_expr::prelude::*;

fn main() {
    let envelope = Tensor::<f32, Shape![2, 16000]>::zeros();
    let _y = tensor_expr!(max_pool1d(envelope, [160], stride = 160));
}
