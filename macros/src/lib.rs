//! Procedural macros of `tensor-expr`. Use them through the `tensor-expr` crate.
//!
//! Each entry point is a pipeline over `proc_macro2` tokens (so it can be unit
//! tested): parse to an AST, validate, replace the operations defined by
//! others with their definitions, expand. Every failure is a spanned
//! `syn::Error` turned into `compile_error!`; no input makes a macro panic.

mod ast;
mod definitions;
mod expand;
mod fold_paths;
mod functions;
#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod golden_tests;
mod parse;
mod program;
mod shape_macro;
mod share;
mod stage;
mod tensor_macro;
mod validate;

use proc_macro::TokenStream;

/// Evaluates a tensor expression in one fused loop nest; see the `tensor-expr`
/// crate documentation for the grammar and the shape rules.
#[proc_macro]
pub fn tensor_expr(input: TokenStream) -> TokenStream {
    tensor_expr_tokens(input.into()).into()
}

/// A function whose `let name = tensor_expr!(e);` statements are tensors in
/// one arena, placed by their lifetimes.
///
/// On `fn name(args) -> R { .. }` (free, not generic) it writes:
/// - `NAME_ARENA_BYTES: usize` (the name in upper case): the arena's size,
///   a constant `cargo check` computes from the tensors' types;
/// - `name(args) -> R`: the function, its arena on its own stack;
/// - `name_in(args, arena: &mut Arena<NAME_ARENA_BYTES>) -> R`: the same in
///   a caller's arena (a `static` on a microcontroller: `Arena::new` is a
///   `const fn`).
///
/// Each top-level `let t = tensor_expr!(e);` (or `let t: T = ..`) whose
/// value is a new tensor is evaluated into the arena, and `t` is a
/// `&mut Tensor` there (`T` becomes `&mut T`). A tensor lives from its
/// statement to the last statement that names it; the plan gives tensors
/// alive at one statement disjoint bytes, the largest placed first, each at
/// the lowest offset that fits (TensorFlow Lite Micro's greedy planner).
/// After its last statement the binding ends: a borrow of it kept longer
/// does not compile. The parts of such a statement evaluated first (its
/// stages: `f @ p` in `f @ p @ transpose(f) + q`) and its kernels' scratch
/// are in the arena too, as are the result's (a body ending in
/// `tensor_expr!(e)`). A top-level `tensor_expr!` the plan does not place
/// (an assignment, `argmax`, fallible linear algebra with `?`) runs out of
/// line, its frames the stack's only while it runs; calls nested in blocks
/// or loops and other statements stay as written. A tensor's first dim
/// cannot be `Dyn`.
///
/// `#[tensor_expr::program(ram <= BYTES)]` fails `cargo check` on the
/// attribute when the arena exceeds `BYTES`, naming the tensors alive where
/// the most bytes are, with their sizes.
#[proc_macro_attribute]
pub fn program(args: TokenStream, item: TokenStream) -> TokenStream {
    let original: proc_macro2::TokenStream = item.clone().into();
    program::expand(args.into(), item.into())
        .unwrap_or_else(|error| {
            // The function as written too, so its callers see no second error.
            let error = error.into_compile_error();
            quote::quote!(#error #original)
        })
        .into()
}

/// The shape type for literal dims: `Shape![2, 3]` is `(D<2>, D<3>)`, and a
/// literal `1` becomes the broadcastable `One`.
#[proc_macro]
#[allow(non_snake_case)]
pub fn Shape(input: TokenStream) -> TokenStream {
    shape_macro::expand(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// A tensor from a nested array literal, its shape read from the nesting:
/// `tensor![[1., 2., 3.], [4., 5., 6.]]` is a `Tensor<f64, Shape![2, 3]>`.
#[proc_macro]
pub fn tensor(input: TokenStream) -> TokenStream {
    tensor_macro::expand(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// `tensor_expr!` over `proc_macro2` tokens: parse, validate, expand.
pub(crate) fn tensor_expr_tokens(input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    syn::parse2::<ast::Statement>(input)
        .and_then(|statement| {
            validate::validate(&statement)?;
            let statement = definitions::expand(statement)?;
            Ok(expand::expand(&statement))
        })
        .unwrap_or_else(compile_errors)
}

/// The errors as `compile_error!`s, in a block whose value is an
/// `Option::None.unwrap()`: valid in expression position however many errors
/// there are, and of whatever type the context expects (rustc reports no
/// inference failure once an error is out), so the user sees only the real
/// errors. A diverging block (`unreachable!()`) would add an `unreachable
/// statement` warning on the user's next line.
fn compile_errors(error: syn::Error) -> proc_macro2::TokenStream {
    let errors = error.into_compile_error();
    quote::quote!({ #errors ::core::option::Option::None.unwrap() })
}
