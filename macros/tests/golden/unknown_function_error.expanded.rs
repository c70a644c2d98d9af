fn expansion() {
    let _ = {
        ::core::compile_error! {
            "unknown function `rleu`; did you mean `relu`? `tensor_expr!` knows the elementwise functions and operations of the README's syntax table. To call your own function, wrap the call in a block: `{ rleu(..) }`"
        }
        ::core::option::Option::None.unwrap()
    };
}
