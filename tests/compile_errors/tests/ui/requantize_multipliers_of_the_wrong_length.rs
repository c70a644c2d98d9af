use tensor_expr::prelude::*;

fn main() {
    let acc = Tensor::<i32, Shape![1, 25, 5, 64]>::zeros();
    // One multiplier per output channel: 64, not 32.
    let m = Tensor::<i32, Shape![32]>::full(1 << 30);
    let _y = tensor_expr!(saturating_cast::<i8>(requantize(acc, m, -4)));
}
