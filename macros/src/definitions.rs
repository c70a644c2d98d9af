//! Operations defined as expressions of others ([`Build::Composite`], e.g.
//! `softmax`): after validation, each call is replaced by its definition,
//! so it is fused, shared and staged exactly as the same expression written
//! out. The definition's `x`, `y`, `z` become the call's inputs; an operation in it
//! written without a dim list takes the call's list, one written without
//! `keepdim` takes the call's flag; every token is spanned on the call's
//! name, and every operation in it is named as the call, so an error (an
//! axis out of range, an integer input to a float function) points at the
//! call the user wrote.

use crate::ast::{Expr, Form, OpCall, Statement};
use tensor_expr_catalog::operation::Build;

/// How deeply definitions may use other definitions: far more than the
/// table needs, and a bound on a mistake in it.
const MAX_NESTING: usize = 8;

/// The statement with every composite call replaced by its definition.
pub fn expand(mut statement: Statement) -> syn::Result<Statement> {
    match &mut statement.form {
        Form::Evaluate(value) | Form::Assign { value, .. } => expand_in(value, 0)?,
    }
    Ok(statement)
}

/// Replaces the composite calls in `expr`, innermost first.
fn expand_in(expr: &mut Expr, nesting: usize) -> syn::Result<()> {
    for child in expr.children_mut() {
        expand_in(child, nesting)?;
    }
    let Expr::Op(call) = expr else {
        return Ok(());
    };
    let Build::Composite(definition) = call.op.build else {
        return Ok(());
    };
    if nesting > MAX_NESTING {
        let message = format!("the definition of `{}` nests too deeply", call.name);
        return Err(syn::Error::new(call.name.span(), message));
    }
    let mut defined = crate::parse::parse_definition(definition).map_err(|error| {
        let message = format!("the definition of `{}` does not parse: {error}", call.name);
        syn::Error::new(call.name.span(), message)
    })?;
    substitute(&mut defined, call);
    expand_in(&mut defined, nesting + 1)?;
    *expr = defined;
    Ok(())
}

/// The input of `call` that a definition's operand stands for: `x` the
/// first, `y` the second, `z` the third.
fn input_of<'a>(operand: &crate::ast::Operand, call: &'a OpCall) -> Option<&'a Expr> {
    let written = operand.tokens.to_string();
    let index = ["x", "y", "z"].iter().position(|name| written == *name)?;
    call.inputs.get(index)
}

/// Fills the definition `expr` in for `call`: its inputs, its dims and flag,
/// its name and span.
fn substitute(expr: &mut Expr, call: &OpCall) {
    let span = call.name.span();
    match expr {
        Expr::Operand(operand) => match input_of(operand, call) {
            Some(input) => {
                *expr = input.clone();
                return;
            }
            None => operand.span = span,
        },
        Expr::Binary { span: at, .. } | Expr::Negate { span: at, .. } => *at = span,
        Expr::IntLiteral { span: at, .. } => *at = span,
        Expr::FloatLiteral { literal } => literal.set_span(span),
        Expr::Call { name, .. } => name.set_span(span),
        Expr::Op(inner) => {
            inner.name = syn::Ident::new(&call.name.to_string(), span);
            if inner.dims.is_none() {
                inner.dims = call.dims.clone();
            }
            inner.keepdim |= call.keepdim;
        }
    }
    for child in expr.children_mut() {
        substitute(child, call);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensor_expr_catalog::operation::Dims;
    use tensor_expr_catalog::OPERATIONS;

    /// Every definition in the table parses, validates and expands to
    /// operations that are all built as nodes.
    #[test]
    fn every_definition_expands_to_nodes() {
        for op in OPERATIONS {
            if !matches!(op.build, Build::Composite(_)) {
                continue;
            }
            let inputs = ["a", "b", "c"][..op.signature.inputs].join(", ");
            let input = match op.signature.dims {
                Dims::None => format!("{}({inputs})", op.name),
                _ => format!("{}({inputs}, [1])", op.name),
            };
            let statement: Statement = syn::parse_str(&input).expect("parses");
            crate::validate::validate(&statement).expect("validates");
            let statement = expand(statement).expect("expands");
            let Form::Evaluate(value) = &statement.form else {
                unreachable!()
            };
            fn check(expr: &Expr, name: &str) {
                if let Expr::Op(call) = expr {
                    assert!(matches!(call.op.build, Build::Node { .. }), "{name}");
                    assert_eq!(call.name, name);
                }
                for child in expr.children() {
                    check(child, name);
                }
            }
            check(value, op.name);
        }
    }
}
