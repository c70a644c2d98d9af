//! `tensor-expr-tflite MODEL.tflite -o OUT.rs`: writes the model's module
//! (and `OUT.weights` beside it); see the library's documentation.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (model, out) = match &args[..] {
        [model, flag, out] if flag == "-o" => (model, out),
        _ => {
            eprintln!("usage: tensor-expr-tflite MODEL.tflite -o OUT.rs");
            return ExitCode::from(2);
        }
    };
    match tensor_expr_tflite::generate(model, out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
