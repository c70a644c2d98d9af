use tensor_expr::prelude::*;

fn main() {
    // One second of 16 kHz audio framed by 480 samples every 320: the
    // frame count is computed from 16000, beyond the sizes computed on at
    // compile time. As a method call, rustc reports E0599 naming the size
    // the table does not hold.
    let audio = Tensor::<f32, Shape![16000]>::zeros();
    let window = Tensor::<f32, Shape![480]>::zeros();
    let _energy = tensor_expr!(sum(audio.windows::<0, 480, 320>() * window, [1]));
}
