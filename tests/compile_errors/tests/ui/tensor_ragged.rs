use tensor_expr::prelude::*;

fn main() {
    let _t = tensor![[1, 2, 3], [4, 5]];
}
