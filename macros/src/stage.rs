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
//! Every operation that reads whole matrices (`inv(s)`, `solve(a, b)`) is
//! staged too: its function computes it into a tensor, and where it can
//! fail the expression returns a `Result`. One that is the whole value of
//! `out = ..` and computed into the target (a scan, see
//! [`computed_into`]) writes `out` itself.
//!
//! Two more, for correctness: a product or operation that reads the
//! assignment target (`p = f @ p @ transpose(f) + q`), which would read the
//! target while the nest overwrites it; and the expression input of an
//! operation that reads stored data in place (`transpose(x @ w)`).
//!
//! And one more, for the compiler rather than for speed: a part nested so
//! deep that its node types would nest more than [`MAX_TYPE_DEPTH`] levels
//! (products or reductions inside one another some sixty times; elementwise
//! paths fold, see [`crate::fold_paths`]) is staged, so no stage's type reaches
//! rustc's recursion limit however deep the expression.
//!
//! A stage is evaluated by the same macro machinery into a tensor placed as a
//! result is (a `HeapTensor` if one of its operands is one, else a `Tensor`
//! on the stack, sized by the stage's static shape) and read by the rest of
//! the expression as an operand. Everything else stays fused.

use crate::ast::{BinaryOp, Expr, Operand};
use crate::fold_paths::{nesting, MAX_TYPE_DEPTH};
use crate::share;
use proc_macro2::{Ident, Span};
use quote::quote;
use tensor_expr_catalog::operation::RowOrder;
use tensor_expr_catalog::walk::Holds;

/// One staged subexpression and the local name its result is bound to.
pub struct Stage {
    /// `__tensor_expr_stageN`.
    pub name: Ident,
    /// The subexpression, reading the stages before it as operands.
    pub expr: Expr,
}

/// `expr` with its staged parts replaced by operands naming them, and the
/// stages in the order they must be evaluated. `target` is the assignment
/// target's tokens, if any (an expression that reads it is shared with
/// nothing, see [`share`]).
///
/// The list is flat: a stage's own parts to stage are stages of the list,
/// before it, and it reads them as operands. So `((a @ w) @ w) @ w` is three
/// stages one after another, not three nested in one another.
pub fn split(expr: &Expr, target: Option<&str>) -> (Expr, Vec<Stage>) {
    let mut stages = Stages {
        list: Vec::new(),
        keys: Vec::new(),
        target,
    };
    let mut expr = expr.clone();
    stages.matrix_operations(&mut expr);
    if let Some(target) = target {
        stages.target_readers(&mut expr, target);
    }
    stages.split_part(&mut expr, target);
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
    /// Stages what `expr` needs staged (the target is the assignment's for
    /// the whole expression, `None` for a stage).
    fn split_part(&mut self, expr: &mut Expr, target: Option<&str>) {
        self.stored_inputs(expr);
        self.product_operands(expr);
        // Where the whole expression is the product (a stage of its own,
        // say), staging it would only copy it; products inside its operands
        // are staged already.
        let holds = holds(expr, target);
        if holds.products > 0 && !holds.tiles_products() && !is_product(expr) {
            self.products(expr);
        }
        self.deep_parts(expr);
    }

    /// Stages the operands of `@` that hold a product or a reduction, and right
    /// operands read transposed. The tree is rewritten in place: each node is
    /// visited once, so this is linear in the expression's size.
    fn product_operands(&mut self, expr: &mut Expr) {
        if let Expr::Binary {
            op: BinaryOp::MatMul,
            lhs,
            rhs,
            ..
        } = expr
        {
            if holds_product_or_reduction(lhs) {
                self.stage(lhs);
            } else {
                self.product_operands(lhs);
            }
            if holds_product_or_reduction(rhs) || reads_transposed_rows(rhs) {
                self.stage(rhs);
            } else {
                self.product_operands(rhs);
            }
            return;
        }
        for child in expr.children_mut() {
            self.product_operands(child);
        }
    }

    /// Stages every product or operation that reads the assignment target
    /// (`p = f @ p @ transpose(f) + q`, `x = x - mean(x, [1], keepdim)`):
    /// each reads elements other than the one the nest is writing, so it is
    /// evaluated before the nest overwrites the target, as NumPy evaluates
    /// the right-hand side before assigning. Elementwise reads of the target
    /// stay in place.
    ///
    /// Innermost first: in `p = f @ p @ transpose(f) + q` only `f @ p` is
    /// staged, and the outer product, which then reads that stage, writes
    /// `p` directly.
    fn target_readers(&mut self, expr: &mut Expr, target: &str) {
        for child in expr.children_mut() {
            self.target_readers(child, target);
        }
        let reader = is_product(expr)
            || expr
                .as_op()
                .is_some_and(|call| !call.op.reads.scopes_input_element_type());
        if reader && reads_operand(expr, target) {
            self.stage(expr);
        }
    }

    /// Stages every operation that reads whole matrices (`inv(s)`,
    /// `solve(a, b)`), innermost first: each is computed by its own
    /// function into a tensor, which the rest of the expression reads.
    fn matrix_operations(&mut self, expr: &mut Expr) {
        for child in expr.children_mut() {
            self.matrix_operations(child);
        }
        if is_matrix_operation(expr) {
            self.stage(expr);
        }
    }

    /// Stages each expression input of every operation that reads stored
    /// data in place (`transpose(x @ w)`): it is evaluated into a tensor,
    /// which the operation then reads without a copy. A convolution's or
    /// pool's input `cast::<U>(x) - c` is not: it reads `x` itself.
    fn stored_inputs(&mut self, expr: &mut Expr) {
        let in_place = expr
            .as_op()
            .is_some_and(|call| call.op.reads.borrows_stored_inputs());
        let reads_converted = expr
            .as_op()
            .is_some_and(|call| call.op.reads.reads_converted_inputs());
        // A gather's positions are never staged: over their own integer
        // type, they must be stored (validation reports an expression).
        let positions = expr.as_op().and_then(|call| call.positions_input());
        for (k, child) in expr.children_mut().into_iter().enumerate() {
            let converted = reads_converted && child.widened_operand().is_some();
            if positions == Some(k) {
                continue;
            }
            if in_place && !matches!(child, Expr::Operand(_)) && !converted {
                self.stage(child);
            } else {
                self.stored_inputs(child);
            }
        }
    }

    /// Stages every product (the expression is walked row by row).
    fn products(&mut self, expr: &mut Expr) {
        if is_product(expr) {
            return self.stage(expr);
        }
        for child in expr.children_mut() {
            self.products(child);
        }
    }

    /// Stages parts of `expr` until its node types nest at most
    /// [`MAX_TYPE_DEPTH`] levels: each time, the largest part along the
    /// deepest path that is shallow enough.
    fn deep_parts(&mut self, expr: &mut Expr) {
        while nesting(expr) > MAX_TYPE_DEPTH {
            match shallow_enough_part(expr) {
                Some(part) => self.stage(part),
                None => return,
            }
        }
    }

    /// Replaces `expr` with the operand that reads its stage: the existing
    /// stage if the same subexpression was staged before, else a new one,
    /// after the stages its own parts need.
    fn stage(&mut self, expr: &mut Expr) {
        let key = share::key(expr, self.target);
        let existing = key
            .as_ref()
            .and_then(|k| self.keys.iter().position(|s| s.as_ref() == Some(k)));
        let span = expr.span();
        let index = match existing {
            Some(index) => index,
            None => {
                // Moved out (a placeholder stands in until the operand does).
                let mut staged = std::mem::replace(expr, Expr::IntLiteral { value: 0, span });
                self.split_part(&mut staged, None);
                let name = Ident::new(
                    &format!("__tensor_expr_stage{}", self.list.len()),
                    Span::call_site(),
                );
                self.list.push(Stage { name, expr: staged });
                self.keys.push(key);
                self.list.len() - 1
            }
        };
        let name = &self.list[index].name;
        *expr = Expr::Operand(Operand {
            tokens: quote!(#name),
            span,
        });
    }
}

/// Along the deepest path of `expr`, the first part that nests at most
/// [`MAX_TYPE_DEPTH`] levels and can be evaluated alone: an operation, a call
/// or a reduction (not an operand, a literal, or an `in_dims`, which needs
/// the other operand of its operation).
fn shallow_enough_part(expr: &mut Expr) -> Option<&mut Expr> {
    let depths: Vec<usize> = expr.children().into_iter().map(nesting).collect();
    let deepest = (0..depths.len()).max_by_key(|&i| depths[i])?;
    let child = expr.children_mut().into_iter().nth(deepest)?;
    let stageable = match child {
        Expr::Binary { .. } | Expr::Negate { .. } | Expr::Call { .. } => true,
        Expr::Op(call) => call.op.reads.caches_rows(),
        _ => false,
    };
    if depths[deepest] <= MAX_TYPE_DEPTH && stageable {
        return Some(child);
    }
    shallow_enough_part(child)
}

/// Whether `expr` reads the operand written `tokens`.
fn reads_operand(expr: &Expr, tokens: &str) -> bool {
    match expr {
        Expr::Operand(operand) => operand.tokens.to_string() == tokens,
        _ => expr
            .children()
            .into_iter()
            .any(|child| reads_operand(child, tokens)),
    }
}

/// Whether `expr`, the whole value of `target = expr`, is computed straight
/// into the target: an operation whose table entry says so (a scan), none
/// of whose inputs is the target (which it would read while writing).
pub fn computed_into(expr: &Expr, target: &str) -> bool {
    matches!(expr, Expr::Op(call) if call.op.reads.computed_into_target())
        && !reads_operand(expr, target)
}

/// Whether `expr` is an operation that reads whole matrices (`inv`).
pub fn is_matrix_operation(expr: &Expr) -> bool {
    matches!(expr, Expr::Op(call) if call.op.reads.reads_whole_matrices())
}

/// Whether `expr` is `a @ b`, or an operation computed in register tiles
/// as `@` is (a convolution).
fn is_product(expr: &Expr) -> bool {
    match expr {
        Expr::Binary {
            op: BinaryOp::MatMul,
            ..
        } => true,
        Expr::Op(call) => call.op.reads.computed_in_tiles(),
        _ => false,
    }
}

/// Whether `expr` contains `@` or a reduction.
fn holds_product_or_reduction(expr: &Expr) -> bool {
    let holds = holds_written(expr);
    holds.products > 0 || holds.cached_rows
}

/// What `expr`'s nodes hold as written, combined as the runtime's
/// `expr::node` combines each node's children: a product (or an operation
/// computed in tiles as one is), a row cache (a reduction).
fn holds_written(expr: &Expr) -> Holds {
    let own = if is_product(expr) {
        Holds::PRODUCT
    } else if matches!(expr, Expr::Op(call) if call.op.reads.caches_rows()) {
        Holds::CACHED_ROWS
    } else {
        Holds::NOTHING
    };
    expr.children()
        .into_iter()
        .fold(own, |holds, child| holds.and(holds_written(child)))
}

/// Whether `expr` reads an operand whose last dim is not its data's last
/// (`transpose(k)`, or a `permute` that moves the last dim).
fn reads_transposed_rows(expr: &Expr) -> bool {
    let Some(call) = expr.as_op() else {
        return false;
    };
    match call.op.reads.row_order() {
        Some(RowOrder::Swapped) => true,
        Some(RowOrder::Listed) => call.dim_values().is_some_and(|perm| {
            perm.last()
                .is_some_and(|last| last.value != perm.len() as i128 - 1)
        }),
        _ => false,
    }
}

/// What the runtime's tree for `expr` will hold, which decides its walk by
/// the rule both apply (`tensor_expr_catalog::walk`): its nodes as written,
/// and a row cache where a costly subexpression is written twice (the
/// expansion shares it through one).
fn holds(expr: &Expr, target: Option<&str>) -> Holds {
    let shared = share::repeats(expr, target).values().any(|&n| n > 1);
    let holds = holds_written(expr);
    if shared {
        holds.and(Holds::CACHED_ROWS)
    } else {
        holds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Form, Statement};

    fn staged(input: &str) -> Vec<String> {
        let statement: Statement = syn::parse_str(input).expect("parses");
        let (expr, target) = match statement.form {
            Form::Evaluate(expr) => (expr, None),
            Form::Assign { target, value, .. } => (value, Some(target.to_string())),
        };
        let (_, stages) = split(&expr, target.as_deref());
        stages
            .iter()
            .map(|s| share::key(&s.expr, None).unwrap_or_default())
            .collect()
    }

    #[test]
    fn parts_nested_past_the_type_depth_limit_are_staged_in_order() {
        let nested = (0..150).fold("a".to_string(), |inner, _| {
            format!("sum({inner}, [1], keepdim)")
        });
        let statement: Statement = syn::parse_str(&nested).expect("parses");
        let Form::Evaluate(expr) = statement.form else {
            panic!("an expression")
        };
        let (rest, stages) = split(&expr, None);
        // 150 levels in parts of at most 60, the innermost first, each
        // later one reading the one before.
        assert_eq!(stages.len(), 2);
        assert_eq!(nesting(&stages[0].expr), MAX_TYPE_DEPTH);
        assert!(share::key(&stages[1].expr, None)
            .is_some_and(|key| key.contains("{__tensor_expr_stage0}")));
        for part in stages.iter().map(|s| &s.expr).chain([&rest]) {
            assert!(nesting(part) <= MAX_TYPE_DEPTH);
        }
        assert!(share::key(&rest, None).is_some_and(|key| key.contains("{__tensor_expr_stage1}")));
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
        assert_eq!(staged("q @ transpose(k)"), vec!["transpose({k},)"]);
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
            vec!["sub({x},mean[1]+keepdim({x},),)"]
        );
    }

    #[test]
    fn only_the_innermost_reader_of_the_target_is_staged() {
        assert_eq!(
            staged("p = f @ p @ transpose(f) + q"),
            vec!["matmul({f},{p},)", "transpose({f},)"]
        );
        assert_eq!(
            staged("p = (eye - k @ h) @ p"),
            vec![
                "sub({eye},matmul({k},{h},),)",
                "matmul({__tensor_expr_stage0},{p},)"
            ]
        );
        assert_eq!(staged("x = x + k @ (z - h @ x)"), vec!["matmul({h},{x},)"]);
    }
}
