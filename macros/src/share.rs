//! Which subexpressions are computed once and read in several places.
//!
//! A softmax written out in full names `exp(x - max(x, [1], keepdim))` twice;
//! computing it twice would double the cost of the `exp`. Subexpressions are
//! compared as written (after parsing, so spacing does not matter), and a
//! repeated one is built once when that saves work:
//! - a repeated reduction is built once and read by reference (it caches its
//!   rows, so every reader gets the same computed row);
//! - a repeated subexpression that calls a function or multiplies matrices is
//!   wrapped in the runtime's `Shared` node, which computes each row once;
//! - repeated cheap arithmetic (`x - m`) is recomputed: a few adds cost less
//!   than the copies a shared row needs.
//!
//! Never shared: anything with `in_dims` (its shape depends on the other
//! operand), anything that reads the assignment target (it is read in place,
//! element by element), and operands with a call or block in them (`{ f() }`
//! is evaluated once per place it is written, as the user wrote it).

use crate::ast::{BinaryOp, Expr, Operand};
use proc_macro2::{TokenStream, TokenTree};
use std::collections::HashMap;

/// How many times each shareable subexpression is written, by [`key`].
/// Occurrences inside a repeat are counted once: they are built once with it.
pub fn repeats(root: &Expr, target: Option<&str>) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    count(root, target, &mut counts);
    counts
}

fn count(expr: &Expr, target: Option<&str>, counts: &mut HashMap<String, usize>) {
    if let Some(key) = shareable_key(expr, target) {
        let seen = counts.entry(key).or_insert(0);
        *seen += 1;
        if *seen > 1 {
            return;
        }
    }
    for child in expr.children() {
        count(child, target, counts);
    }
}

/// The key of `expr` if it is worth sharing and may be shared.
pub fn shareable_key(expr: &Expr, target: Option<&str>) -> Option<String> {
    let worth = match expr {
        Expr::Reduce { .. } => true,
        Expr::Call { .. } | Expr::Binary { .. } | Expr::Negate { .. } => costly(expr),
        _ => false,
    };
    if !worth {
        return None;
    }
    key(expr, target)
}

/// The key of `expr` as written, whether or not it is worth sharing; `None`
/// if it may not be shared (it reads the target, calls something in an
/// operand, or holds an `in_dims`).
pub fn key(expr: &Expr, target: Option<&str>) -> Option<String> {
    let mut key = String::new();
    write_key(expr, target, &mut key).then_some(key)
}

/// Whether `expr` calls a function or multiplies matrices.
fn costly(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::Call { .. }
            | Expr::Binary {
                op: BinaryOp::MatMul,
                ..
            }
    ) || expr.children().into_iter().any(costly)
}

/// Appends `expr` as written to `key`; `false` if it may not be shared.
fn write_key(expr: &Expr, target: Option<&str>, key: &mut String) -> bool {
    use std::fmt::Write;
    let _ = match expr {
        Expr::Operand(operand) => return write_operand_key(operand, target, key),
        Expr::IntLiteral { value, .. } => write!(key, "{value}"),
        Expr::FloatLiteral { literal } => write!(key, "{literal}"),
        Expr::InDims { .. } => return false,
        Expr::Binary { op, .. } => write!(key, "{}(", op.marker()),
        Expr::Negate { .. } => write!(key, "neg("),
        Expr::Call { name, .. } => write!(key, "{name}("),
        Expr::Reduce {
            name,
            axes,
            keepdim,
            ..
        } => {
            let axes: Option<Vec<i128>> =
                axes.as_ref().map(|a| a.iter().map(|d| d.value).collect());
            write!(key, "{name}[{axes:?},{keepdim}](")
        }
        Expr::Permute {
            name,
            perm,
            operand,
            ..
        } => {
            let perm: Option<Vec<i128>> =
                perm.as_ref().map(|p| p.iter().map(|d| d.value).collect());
            let _ = write!(key, "{name}[{perm:?}](");
            return write_operand_key(operand, target, key) && close_key(key);
        }
        Expr::Reshape { shape, operand, .. } => {
            let _ = write!(key, "reshape<{}>(", quote::ToTokens::to_token_stream(shape));
            return write_operand_key(operand, target, key) && close_key(key);
        }
    };
    let children = expr.children();
    if children.is_empty() {
        return true;
    }
    for child in children {
        if !write_key(child, target, key) {
            return false;
        }
        key.push(',');
    }
    key.push(')');
    true
}

/// Appends an operand as written, `{x}`; `false` for the target (which the
/// nest overwrites) and for operands holding a call or a block (which may
/// give another value each time they are written).
fn write_operand_key(operand: &Operand, target: Option<&str>, key: &mut String) -> bool {
    let text = operand.tokens.to_string();
    if Some(text.as_str()) == target || has_group(&operand.tokens) {
        return false;
    }
    key.push('{');
    key.push_str(&text);
    key.push('}');
    true
}

/// Closes a node's argument list in `key`, as the loop over children does.
fn close_key(key: &mut String) -> bool {
    key.push_str(",)");
    true
}

/// Whether the tokens hold a group: a call's parentheses, a block, an index.
fn has_group(tokens: &TokenStream) -> bool {
    tokens
        .clone()
        .into_iter()
        .any(|token| matches!(token, TokenTree::Group(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Form, Statement};

    fn value(input: &str) -> Expr {
        let statement: Statement = syn::parse_str(input).expect("parses");
        match statement.form {
            Form::Evaluate(expr) => expr,
            Form::Assign { value, .. } => value,
        }
    }

    fn shared_counts(input: &str) -> Vec<usize> {
        let mut counts: Vec<usize> = repeats(&value(input), Some("out"))
            .into_values()
            .filter(|&n| n > 1)
            .collect();
        counts.sort();
        counts
    }

    #[test]
    fn softmax_shares_the_exponential_once() {
        let softmax =
            "exp(x - max(x, [1], keepdim)) / sum(exp(x - max(x, [1], keepdim)), [1], keepdim)";
        // One shared `exp(..)`, written twice; the max inside it is built with it.
        assert_eq!(shared_counts(softmax), vec![2]);
    }

    #[test]
    fn repeated_reductions_are_shared_and_cheap_arithmetic_is_not() {
        assert_eq!(
            shared_counts("(x - mean(x, [1])) * (x - mean(x, [1]))"),
            vec![2]
        );
        assert_eq!(shared_counts("(x - y) * (x - y)"), Vec::<usize>::new());
    }

    #[test]
    fn the_target_and_calls_in_operands_are_never_shared() {
        assert_eq!(shared_counts("exp(out) + exp(out)"), Vec::<usize>::new());
        assert_eq!(
            shared_counts("exp({ f() }) + exp({ f() })"),
            Vec::<usize>::new()
        );
        assert_eq!(shared_counts("exp(x) + exp(x)"), vec![2]);
    }
}
