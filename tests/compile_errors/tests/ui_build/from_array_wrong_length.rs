use tensor_expr::prelude::*;

// Five weights for a [2, 3] view.
static WEIGHTS: [i8; 5] = [1, 2, 3, 4, 5];
static W: TensorView<'static, i8, Shape![2, 3]> = TensorView::from_array(&WEIGHTS);

fn main() {
    let _ = W[[0, 0]];
}
