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

/// Every node's identity as written, computed once, bottom-up: two nodes get
/// the same id exactly when they are written alike (their [`key`]s are
/// equal), and each id is built from the node's own label and its children's
/// ids. (Comparing each node's whole key, as a string, cost time quadratic in
/// the nesting depth: 200 nested `max` calls spent most of their check time
/// in the macro.)
pub struct Keys {
    nodes: HashMap<*const Expr, Node>,
}

/// What [`Keys`] knows of one node.
#[derive(Clone, Copy)]
struct Node {
    /// Its id; `None` if it may not be shared (see [`key`]).
    id: Option<usize>,
    /// Whether it calls a function or multiplies matrices.
    costly: bool,
}

impl Keys {
    /// The ids of every node of `root`; `target` is the assignment target,
    /// which is never shared.
    pub fn of(root: &Expr, target: Option<&str>) -> Keys {
        let mut keys = Keys {
            nodes: HashMap::new(),
        };
        keys.visit(root, target, &mut HashMap::new());
        keys
    }

    fn visit(
        &mut self,
        expr: &Expr,
        target: Option<&str>,
        interned: &mut HashMap<(String, Vec<usize>), usize>,
    ) -> Node {
        let children: Vec<Node> = expr
            .children()
            .into_iter()
            .map(|child| self.visit(child, target, interned))
            .collect();
        let costly = matches!(
            expr,
            Expr::Call { .. }
                | Expr::Binary {
                    op: BinaryOp::MatMul,
                    ..
                }
        ) || children.iter().any(|child| child.costly);
        let child_ids: Option<Vec<usize>> = children.iter().map(|child| child.id).collect();
        let id = label(expr, target).zip(child_ids).map(|signature| {
            let next = interned.len();
            *interned.entry(signature).or_insert(next)
        });
        let node = Node { id, costly };
        self.nodes.insert(expr, node);
        node
    }

    /// The id of `expr` if it is worth sharing and may be shared: a
    /// reduction, or a subexpression that calls a function or multiplies
    /// matrices. `None` for a node not in the tree the ids were computed for.
    pub fn shareable(&self, expr: &Expr) -> Option<usize> {
        let node = self.nodes.get(&(expr as *const Expr))?;
        let worth = match expr {
            Expr::Op(call) => call.op.reads.caches_rows(),
            Expr::Call { .. } | Expr::Binary { .. } | Expr::Negate { .. } => node.costly,
            _ => false,
        };
        node.id.filter(|_| worth)
    }

    /// How many times each shareable subexpression of `root` is written, by
    /// id. Occurrences inside a repeat are counted once: they are built once
    /// with it.
    pub fn repeats(&self, root: &Expr) -> HashMap<usize, usize> {
        let mut counts = HashMap::new();
        self.count(root, &mut counts);
        counts
    }

    fn count(&self, expr: &Expr, counts: &mut HashMap<usize, usize>) {
        if let Some(id) = self.shareable(expr) {
            let seen = counts.entry(id).or_insert(0);
            *seen += 1;
            if *seen > 1 {
                return;
            }
        }
        for child in expr.children() {
            self.count(child, counts);
        }
    }
}

/// How many times each shareable subexpression of `root` is written (see
/// [`Keys::repeats`]).
pub fn repeats(root: &Expr, target: Option<&str>) -> HashMap<usize, usize> {
    Keys::of(root, target).repeats(root)
}

/// The key of `expr` as written, whether or not it is worth sharing; `None`
/// if it may not be shared (it reads the target, calls something in an
/// operand, or holds an `in_dims`).
pub fn key(expr: &Expr, target: Option<&str>) -> Option<String> {
    let mut key = String::new();
    write_key(expr, target, &mut key).then_some(key)
}

/// Appends `expr` as written to `key`: its label, then its children's keys,
/// each followed by a comma, and a closing parenthesis; `false` if it may not
/// be shared.
fn write_key(expr: &Expr, target: Option<&str>, key: &mut String) -> bool {
    let Some(label) = label(expr, target) else {
        return false;
    };
    key.push_str(&label);
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

/// A node's own part of its key (for a node with children, up to its opening
/// parenthesis); `None` if it may not be shared.
fn label(expr: &Expr, target: Option<&str>) -> Option<String> {
    use std::fmt::Write;
    let mut label = String::new();
    let _ = match expr {
        Expr::Operand(operand) => {
            return write_operand_key(operand, target, &mut label).then_some(label)
        }
        Expr::IntLiteral { value, .. } => write!(label, "{value}"),
        Expr::FloatLiteral { literal } => write!(label, "{literal}"),
        Expr::Op(call) if call.op.reads.placed_on_other_operand() => return None,
        Expr::Binary { op, .. } => write!(label, "{}(", op.marker()),
        Expr::Negate { .. } => write!(label, "neg("),
        Expr::Call { name, .. } => write!(label, "{name}("),
        Expr::Op(call) => {
            let _ = write!(label, "{}", call.op.name);
            if let Some(shape) = &call.type_arg {
                let _ = write!(label, "<{}>", quote::ToTokens::to_token_stream(shape));
            }
            if let Some(dims) = call.dim_values() {
                let values: Vec<i128> = dims.iter().map(|d| d.value).collect();
                let _ = write!(label, "{values:?}");
            }
            if call.keepdim {
                label.push_str("+keepdim");
            }
            for option in &call.options {
                let values: Vec<i128> = option.list.dims.iter().map(|d| d.value).collect();
                let keyword = option.keyword.as_ref().map(ToString::to_string);
                let sides = if option.sides { "sides" } else { "" };
                let _ = write!(label, "+{}={values:?}{keyword:?}{sides}", option.name);
            }
            write!(label, "(")
        }
    };
    Some(label)
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

/// Whether the tokens hold a group: a call's parentheses, a block, an index
/// or a macro. Without one, an operand has no side effect: evaluating it
/// twice is evaluating it once.
pub fn has_group(tokens: &TokenStream) -> bool {
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
