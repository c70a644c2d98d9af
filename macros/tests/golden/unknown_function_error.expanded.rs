fn expansion() {
    let _ = {
        ::core::compile_error! {
            "unknown function `rleu`; did you mean `relu`? the elementwise functions are: abs, exp, ln, sqrt, sin, cos, tanh, sigmoid, relu, square, max, min, pow, clamp, and `in_dims`. To call your own function, wrap the call in a block: `{ rleu(..) }`"
        }
        ::core::unreachable!()
    };
}
