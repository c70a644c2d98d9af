use tensor_expr::prelude::*;

fn main() {
    // One second of 16 kHz audio framed by 480 samples every 320: the
    // frame count is computed from 16000, beyond the sizes computed on at
    // compile time. Inside `tensor_expr!` the error is the library's; a
    // method call outside it is rustc's E0599 naming `SizeTable: Holds<16000>`.
    let audio = Tensor::<f32, Shape![16000]>::zeros();
    let window = Tensor::<f32, Shape![480]>::zeros();
    let _energy = tensor_expr!(sum(audio.windows::<0, 480, 320>() * window, [1]));
}
