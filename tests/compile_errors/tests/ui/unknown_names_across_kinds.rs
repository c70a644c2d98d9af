use tensor_expr::prelude::*;

fn main() {
    // A misspelt reduction, structural call or function: each one error on
    // its name, with the closest known name; no `unreachable statement`
    // warning follows on the next line.
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let _a = tensor_expr!(smu(x));
    let _b = tensor_expr!(mena(x, [1]));
    let _c = tensor_expr!(trnspose(x));
    let _d = tensor_expr!(reshap::<Shape![6]>(x));
    let _e = tensor_expr!(sigmiod(x));
    let _f = 1 + 2;
}
