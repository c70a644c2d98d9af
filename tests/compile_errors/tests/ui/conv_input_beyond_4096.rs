use tensor_expr::prelude::*;

fn main() {
    // One second of 48 kHz audio: 48000 is beyond the sizes a convolution
    // computes with (0..=4096, powers of 2 and 10). The error names the
    // dim, not a kernel that "does not fit".
    let audio = Tensor::<f32, Shape![1, 1, 48000]>::zeros();
    let w = Tensor::<f32, Shape![8, 1, 9]>::zeros();
    let _y = tensor_expr!(conv1d(audio, w, stride = 4));
}
