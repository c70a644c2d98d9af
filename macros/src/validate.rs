//! The rules the macro can check without types: every called function is in the
//! table and gets the right number of arguments. Each failure is a `syn::Error` on
//! the offending tokens; shape rules need types and are left to rustc.

use crate::ast::{Expr, Statement};
use crate::functions;
use syn::Error;

/// Checks the whole statement, combining every error found.
pub fn validate(statement: &Statement) -> syn::Result<()> {
    let mut errors: Option<Error> = None;
    let expr = match statement {
        Statement::Evaluate(expr) | Statement::Assign { value: expr, .. } => expr,
    };
    visit(expr, &mut |error| match &mut errors {
        Some(all) => all.combine(error),
        None => errors = Some(error),
    });
    errors.map_or(Ok(()), Err)
}

fn visit(expr: &Expr, report: &mut impl FnMut(Error)) {
    match expr {
        Expr::Binary { lhs, rhs, .. } => {
            visit(lhs, report);
            visit(rhs, report);
        }
        Expr::Negate { operand, .. } => visit(operand, report),
        Expr::Call { name, args } => {
            if let Err(error) = check_call(name, args.len()) {
                report(error);
            }
            for arg in args {
                visit(arg, report);
            }
        }
        Expr::IntLiteral { .. } | Expr::FloatLiteral { .. } | Expr::Operand { .. } => {}
    }
}

fn check_call(name: &syn::Ident, arity: usize) -> syn::Result<()> {
    let text = name.to_string();
    let Some(info) = functions::lookup(&text) else {
        let hint = match functions::suggest(&text) {
            Some(known) => format!("did you mean `{known}`? "),
            None => String::new(),
        };
        return Err(Error::new(
            name.span(),
            format!(
                "unknown function `{text}`; {hint}the elementwise functions are: {}. \
                 To call your own function, wrap the call in a block: `{{ {text}(..) }}`",
                functions::all_names()
            ),
        ));
    };
    if info.arity != arity {
        let plural = if info.arity == 1 { "" } else { "s" };
        let verb = if arity == 1 { "was" } else { "were" };
        return Err(Error::new(
            name.span(),
            format!(
                "`{text}` takes {} argument{plural} but {arity} {verb} given: write `{}`",
                info.arity,
                functions::signature(info)
            ),
        ));
    }
    Ok(())
}
