//! Which parts of an expression are evaluated into a buffer of their own
//! first ("stages"), so that every matrix product runs on its register tiles.
//!
//! A product reads its operands many times (each element of the left operand
//! once per tile of columns, each of the right once per tile of rows), and is
//! tiled only when the loop nest walks the output in tiles. So three shapes
//! of expression are staged, each measured to lose 5-400x when fused:
//! - an operand of `@` that holds a product or a reduction
//!   (`relu(x @ w1 + b1) @ w2`): fused, the inner product would be recomputed
//!   for every element of the outer one;
//! - a right operand of `@` that reads its data transposed
//!   (`q @ transpose(k)`): fused, each tile would gather its columns with a
//!   stride; staged, the transposed copy is written once and read row-major;
//! - a product in an expression that also holds a reduction or a shared
//!   subexpression (`softmax(x @ w + b)`): such an expression is walked row
//!   by row, which reads a product through dot products.
//!
//! A stage is evaluated by the same macro machinery into a scratch tensor (a
//! `HeapTensor` with an allocator; without one a `Tensor` on the stack, sized
//! by the stage's static shape) and read by the rest of the expression as an
//! operand. Everything else stays fused.

use crate::ast::{BinaryOp, Expr, Operand};
use crate::share;
use proc_macro2::{Ident, Span};
use quote::quote;

/// One staged subexpression and the local name its result is bound to.
pub struct Stage {
    /// `__tensor_expr_stageN`.
    pub name: Ident,
    /// The subexpression, itself possibly holding stages of its own.
    pub expr: Expr,
}

/// `expr` with its staged parts replaced by operands naming them, and the
/// stages in the order they must be evaluated. `target` is the assignment
/// target's tokens, if any (an expression that reads it is shared with
/// nothing, see [`share`]).
pub fn split(expr: &Expr, target: Option<&str>) -> (Expr, Vec<Stage>) {
    let mut stages = Stages {
        list: Vec::new(),
        keys: Vec::new(),
        target,
    };
    let expr = stages.product_operands(expr);
    let expr = if !walked_by_rows(&expr, target) {
        expr
    } else if is_product(&expr) {
        // The whole expression is the product (a stage of its own, say):
        // staging it would only copy it. Products inside its operands are
        // staged already.
        expr
    } else {
        stages.products(&expr)
    };
    (expr, stages.list)
}

struct Stages<'a> {
    list: Vec<Stage>,
    /// The sharing key of each stage (if it has one), so a subexpression
    /// written twice is staged once.
    keys: Vec<Option<String>>,
    target: Option<&'a str>,
}

impl Stages<'_> {
    /// Stages the operands of `@` that hold a product or a reduction, and right
    /// operands read transposed.
    fn product_operands(&mut self, expr: &Expr) -> Expr {
        if let Expr::Binary {
            op: BinaryOp::MatMul,
            span,
            lhs,
            rhs,
        } = expr
        {
            let lhs = if holds_product_or_reduction(lhs) {
                self.stage(lhs)
            } else {
                self.product_operands(lhs)
            };
            let rhs = if holds_product_or_reduction(rhs) || reads_transposed_rows(rhs) {
                self.stage(rhs)
            } else {
                self.product_operands(rhs)
            };
            return Expr::Binary {
                op: BinaryOp::MatMul,
                span: *span,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            };
        }
        self.map_children(expr, Self::product_operands)
    }

    /// Stages every product (the expression is walked row by row).
    fn products(&mut self, expr: &Expr) -> Expr {
        if is_product(expr) {
            return self.stage(expr);
        }
        self.map_children(expr, Self::products)
    }

    /// `expr` with `f` applied to each child.
    fn map_children(&mut self, expr: &Expr, f: fn(&mut Self, &Expr) -> Expr) -> Expr {
        let mut copy = expr.clone();
        for child in copy.children_mut() {
            *child = f(self, child);
        }
        copy
    }

    /// A stage for `expr` (the existing one if the same subexpression was
    /// staged before), as the operand that reads it.
    fn stage(&mut self, expr: &Expr) -> Expr {
        let key = share::key(expr, self.target);
        let index = match key
            .as_ref()
            .and_then(|k| self.keys.iter().position(|s| s.as_ref() == Some(k)))
        {
            Some(index) => index,
            None => {
                let name = Ident::new(
                    &format!("__tensor_expr_stage{}", self.list.len()),
                    Span::call_site(),
                );
                self.list.push(Stage {
                    name,
                    expr: expr.clone(),
                });
                self.keys.push(key);
                self.list.len() - 1
            }
        };
        let name = &self.list[index].name;
        Expr::Operand(Operand {
            tokens: quote!(#name),
            span: expr.span(),
        })
    }
}

/// Whether `expr` is `a @ b`.
fn is_product(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::Binary {
            op: BinaryOp::MatMul,
            ..
        }
    )
}

/// Whether `expr` contains `@` or a reduction.
fn holds_product_or_reduction(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::Reduce { .. }
            | Expr::Binary {
                op: BinaryOp::MatMul,
                ..
            }
    ) || expr.children().into_iter().any(holds_product_or_reduction)
}

/// Whether `expr` reads an operand whose last dim is not its data's last
/// (`transpose(k)`, or a `permute` that moves the last dim).
fn reads_transposed_rows(expr: &Expr) -> bool {
    match expr {
        Expr::Permute { perm: None, .. } => true,
        Expr::Permute {
            perm: Some(perm), ..
        } => perm
            .last()
            .is_some_and(|last| last.value != perm.len() as i128 - 1),
        _ => false,
    }
}

/// Whether the loop nest walks `expr` row by row: it holds a reduction, or a
/// costly subexpression written twice (shared through a row cache).
fn walked_by_rows(expr: &Expr, target: Option<&str>) -> bool {
    fn has_reduction(expr: &Expr) -> bool {
        matches!(expr, Expr::Reduce { .. }) || expr.children().into_iter().any(has_reduction)
    }
    has_reduction(expr) || share::repeats(expr, target).values().any(|&n| n > 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Form, Statement};

    fn staged(input: &str) -> Vec<String> {
        let statement: Statement = syn::parse_str(input).expect("parses");
        let Form::Evaluate(expr) = statement.form else {
            panic!("an expression")
        };
        let (_, stages) = split(&expr, None);
        stages
            .iter()
            .map(|s| share::key(&s.expr, None).unwrap_or_default())
            .collect()
    }

    #[test]
    fn a_product_of_a_product_stages_the_inner_operand() {
        assert_eq!(
            staged("relu(x @ w1 + b1) @ w2 + b2"),
            vec!["relu(add(matmul({x},{w1},),{b1},),)"]
        );
        assert_eq!(staged("a @ (b @ c)"), vec!["matmul({b},{c},)"]);
    }

    #[test]
    fn a_transposed_right_operand_is_staged_and_a_left_one_is_not() {
        assert_eq!(staged("q @ transpose(k)"), vec!["transpose[None]({k},)"]);
        assert_eq!(staged("transpose(q) @ k"), Vec::<String>::new());
        assert_eq!(staged("q @ permute(k, [1, 0, 2])"), Vec::<String>::new());
    }

    #[test]
    fn products_are_staged_once_where_the_nest_walks_rows() {
        let softmax = "exp(x @ w - max(x @ w, [1], keepdim)) / sum(exp(x @ w - max(x @ w, [1], keepdim)), [1], keepdim)";
        assert_eq!(staged(softmax), vec!["matmul({x},{w},)"]);
        assert_eq!(staged("relu(x @ w + b)"), Vec::<String>::new());
        assert_eq!(
            staged("(x - mean(x, [1], keepdim)) @ w"),
            vec!["sub({x},mean[Some([1]),true]({x},),)"]
        );
    }
}
