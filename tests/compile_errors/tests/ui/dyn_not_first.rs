use tensor_expr::prelude::*;

fn main() {
    let data = [0.0f32; 6];
    let _x = TensorView::<f32, Shape![3, Dyn]>::try_from_slice(&data);
}
