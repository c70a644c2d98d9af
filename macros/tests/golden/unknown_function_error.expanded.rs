fn expansion() {
    let _ = {
        ::core::compile_error! {
            "unknown function `rleu`; did you mean `relu`? the elementwise functions are: abs, exp, ln, sqrt, sin, cos, tanh, sigmoid, exp2, log2, log1p, expm1, softplus, silu, gelu_tanh, erf, gelu, rsqrt, relu, square, max, min, fmax, fmin, pow, clamp, select; the operations: sum, mean, prod, max, min, transpose, permute, reshape, in_dims, argmax, argmin. To call your own function, wrap the call in a block: `{ rleu(..) }`"
        }
        ::core::option::Option::None.unwrap()
    };
}
