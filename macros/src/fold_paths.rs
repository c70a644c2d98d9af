//! Long paths of elementwise operations, and how deep the generated node types
//! nest.
//!
//! Expanded node by node, `a + b - c + ...` (left-nested as parsed) or
//! `relu(exp(relu(..)))` gives a node type one level deeper per operation, and
//! rustc gives up at its recursion limit (128 by default): measured, a path of
//! 62 elementwise operations is the most that builds, because each level's
//! row reader is an `impl Trait` that code generation unfolds two levels at a
//! time. So the macro folds such paths: from a node it follows the deepest
//! elementwise operand down (the accumulator path), and expands the
//! operations along it as steps `acc = f(.., acc, ..)` of the runtime's fold
//! node. The steps sit in a tree ([`StepsTree`]) and run in source order, so
//! every value is computed exactly as written while the type nests about
//! `log4(n)` levels for `n` steps. Operands off the path are folded the same way on their own.
//!
//! What still nests level by level is what is not elementwise: products,
//! reductions. [`MAX_TYPE_DEPTH`] bounds it: a deeper part is evaluated
//! first, as a stage of its own ([`stage`](crate::stage)).

use crate::ast::{BinaryOp, Expr};
use proc_macro2::Span;
use std::collections::HashMap;

/// A path this long (in steps after its innermost operation) becomes a fold;
/// shorter ones expand operation by operation, which reads more simply.
pub const MIN_FOLD_STEPS: usize = 8;

/// The deepest nesting of operations the macro emits in one stage, counted
/// after folding; a deeper part is staged ([`stage`](crate::stage)).
/// Measured with rustc 1.95 at the default recursion limit: 62 nested
/// elementwise nodes build (63 do not), 64 products; 60 leaves a margin.
pub const MAX_TYPE_DEPTH: usize = 60;

/// One step of a fold: the function and the accumulator's place among its
/// arguments.
pub struct Step<'a> {
    /// The function applied.
    pub function: Function<'a>,
    /// Where the accumulator goes and what the other arguments are.
    pub place: Place<'a>,
}

/// A step's function.
pub enum Function<'a> {
    /// An operator (`+`, unary `-`): its marker in `expr::operators`, and its span.
    Operator(&'static str, Span),
    /// A function from the table, by name.
    Named(&'a syn::Ident),
}

impl Function<'_> {
    /// Where the step's errors are reported.
    pub fn span(&self) -> Span {
        match self {
            Function::Operator(_, span) => *span,
            Function::Named(name) => name.span(),
        }
    }
}

/// The accumulator's place among a step's arguments, with the others.
pub enum Place<'a> {
    /// `f(acc)`, `-acc`.
    Only,
    /// `acc op x`, `f(acc, x)`.
    Left(&'a Expr),
    /// `x op acc`, `f(x, acc)`.
    Right(&'a Expr),
    /// `f(acc, b, c)`.
    First(&'a Expr, &'a Expr),
}

impl<'a> Place<'a> {
    /// The step's other arguments, in source order.
    pub fn sides(&self) -> Vec<&'a Expr> {
        match *self {
            Place::Only => vec![],
            Place::Left(x) | Place::Right(x) => vec![x],
            Place::First(b, c) => vec![b, c],
        }
    }
}

/// A foldable path: its innermost operation `head` (built as usual), then the
/// steps applied to it, innermost first.
pub struct Spine<'a> {
    pub head: &'a Expr,
    pub steps: Vec<Step<'a>>,
}

/// The nesting depth of every node of a tree before folding (operands 0),
/// computed once, so following the deepest operand costs nothing per step.
pub struct Depths(HashMap<*const Expr, usize>);

impl Depths {
    /// The depths of `root` and all its subexpressions.
    pub fn of(root: &Expr) -> Self {
        let mut depths = Depths(HashMap::new());
        depths.measure(root);
        depths
    }

    fn measure(&mut self, expr: &Expr) -> usize {
        let children = expr.children();
        let depth = if children.is_empty() {
            0
        } else {
            1 + children
                .into_iter()
                .map(|child| self.measure(child))
                .max()
                .unwrap_or(0)
        };
        self.0.insert(expr, depth);
        depth
    }

    /// The unfolded depth of a node of the measured tree.
    fn get(&self, expr: &Expr) -> usize {
        self.0.get(&(expr as *const Expr)).copied().unwrap_or(0)
    }
}

/// `expr`'s accumulator path if it is long enough to fold. `stop` marks a node
/// the path must not pass through (a subexpression shared with another place,
/// which must stay a node of its own).
pub fn foldable_spine<'a>(
    expr: &'a Expr,
    depths: &Depths,
    stop: impl Fn(&Expr) -> bool,
) -> Option<Spine<'a>> {
    let mut steps = Vec::new();
    let mut node = expr;
    while let Some((acc, step)) = as_step(node, depths) {
        let shared_inside = !steps.is_empty() && stop(node);
        if shared_inside || as_step(acc, depths).is_none() {
            break;
        }
        steps.push(step);
        node = acc;
    }
    if steps.len() < MIN_FOLD_STEPS {
        return None;
    }
    steps.reverse();
    Some(Spine { head: node, steps })
}

/// An elementwise operation as its accumulator operand (the deepest one) and
/// its step; `None` for anything else (operands, literals, products,
/// reductions, `in_dims`, ...), which ends a path.
fn as_step<'a>(expr: &'a Expr, depths: &Depths) -> Option<(&'a Expr, Step<'a>)> {
    let step = |function, place| Step { function, place };
    match expr {
        Expr::Negate { span, operand } => {
            Some((operand, step(Function::Operator("neg", *span), Place::Only)))
        }
        Expr::Binary { op, span, lhs, rhs } if *op != BinaryOp::MatMul => {
            let function = Function::Operator(op.marker(), *span);
            Some(deeper_of(lhs, rhs, depths, function))
        }
        Expr::Call { name, args } => match &args[..] {
            [x] => Some((x, step(Function::Named(name), Place::Only))),
            [a, b] => Some(deeper_of(a, b, depths, Function::Named(name))),
            [a, b, c] if depths.get(a) >= depths.get(b).max(depths.get(c)) => {
                Some((a, step(Function::Named(name), Place::First(b, c))))
            }
            _ => None,
        },
        _ => None,
    }
}

/// A binary step whose accumulator is the deeper operand (the left on a tie).
fn deeper_of<'a>(
    lhs: &'a Expr,
    rhs: &'a Expr,
    depths: &Depths,
    function: Function<'a>,
) -> (&'a Expr, Step<'a>) {
    if depths.get(rhs) > depths.get(lhs) {
        let place = Place::Right(lhs);
        (rhs, Step { function, place })
    } else {
        let place = Place::Left(rhs);
        (lhs, Step { function, place })
    }
}

/// The most subtrees in one group of a fold's steps tree (the runtime's tuple
/// impls go this far).
pub const GROUP: usize = tensor_expr_catalog::GROUP;

/// The steps of a fold, assembled into a tree as they arrive, like a counter
/// in base [`GROUP`]: as soon as the last `GROUP` pending subtrees are of one
/// size, they merge into a group. The tree keeps the steps' order, nests about
/// `log4(n)` levels, and at most `GROUP - 1` subtrees per level are pending at
/// any time.
pub struct StepsTree<T> {
    /// Pending subtrees, earliest first: (subtree, steps in it, its depth).
    pending: Vec<(T, usize, usize)>,
}

impl<T> StepsTree<T> {
    pub fn new() -> Self {
        StepsTree {
            pending: Vec::new(),
        }
    }

    /// Adds the next step; `group(subtrees, steps)` merges 2 to [`GROUP`]
    /// neighbouring subtrees, earliest first, holding `steps` steps in all.
    pub fn push(&mut self, step: T, mut group: impl FnMut(Vec<T>, usize) -> T) {
        self.pending.push((step, 1, 0));
        while let Some(first) = self.pending.len().checked_sub(GROUP) {
            let size = self.pending[first].1;
            if self.pending[first..]
                .iter()
                .any(|(_, steps, _)| *steps != size)
            {
                break;
            }
            self.merge_from(first, &mut group);
        }
    }

    /// The whole tree and its depth, or `None` for no steps: what is pending
    /// merges from the latest, [`GROUP`] subtrees at a time.
    pub fn finish(mut self, mut group: impl FnMut(Vec<T>, usize) -> T) -> Option<(T, usize)> {
        while self.pending.len() > 1 {
            let first = self.pending.len().saturating_sub(GROUP);
            self.merge_from(first, &mut group);
        }
        self.pending.pop().map(|(tree, _, depth)| (tree, depth))
    }

    fn merge_from(&mut self, first: usize, group: &mut impl FnMut(Vec<T>, usize) -> T) {
        let merged: Vec<_> = self.pending.drain(first..).collect();
        let steps = merged.iter().map(|(_, steps, _)| steps).sum();
        let depth = 1 + merged.iter().map(|(_, _, depth)| *depth).max().unwrap_or(0);
        let subtrees = merged.into_iter().map(|(tree, _, _)| tree).collect();
        self.pending.push((group(subtrees, steps), steps, depth));
    }
}

/// How deep the steps tree of a fold of `steps` steps nests.
fn steps_tree_depth(steps: usize) -> usize {
    let mut tree = StepsTree::new();
    for _ in 0..steps {
        tree.push((), |_, _| ());
    }
    tree.finish(|_, _| ()).map_or(0, |(_, depth)| depth)
}

/// How many operations deep the node types emitted for `expr` nest (operands
/// and literals count 0; sharing, ignored here, only makes them shallower).
pub fn nesting(expr: &Expr) -> usize {
    type_depth(expr, &Depths::of(expr))
}

/// [`nesting`], with the unfolded depths of `expr`'s nodes given.
fn type_depth(expr: &Expr, depths: &Depths) -> usize {
    if let Some(spine) = foldable_spine(expr, depths, |_| false) {
        let sides = spine.steps.iter().flat_map(|step| step.place.sides());
        let sides = sides
            .map(|side| type_depth(side, depths))
            .max()
            .unwrap_or(0);
        let tree = steps_tree_depth(spine.steps.len());
        return 1 + type_depth(spine.head, depths).max(sides + tree + 1);
    }
    let children = expr.children();
    if children.is_empty() {
        return 0;
    }
    1 + children
        .into_iter()
        .map(|child| type_depth(child, depths))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Form, Statement};

    fn depth(source: &str) -> usize {
        let statement: Statement = syn::parse_str(source).expect("parses");
        let Form::Evaluate(expr) = &statement.form else {
            panic!("an expression")
        };
        nesting(expr)
    }

    fn nest(template: &str, times: usize) -> String {
        (0..times).fold("a".to_string(), |inner, _| template.replace('#', &inner))
    }

    #[test]
    fn short_paths_nest_one_level_per_operation() {
        assert_eq!(depth("a"), 0);
        assert_eq!(depth("relu(a * 2 + b)"), 3);
        assert_eq!(depth(&nest("relu(#)", MIN_FOLD_STEPS)), MIN_FOLD_STEPS);
    }

    #[test]
    fn elementwise_paths_of_any_shape_fold_to_logarithmic_depth() {
        for template in [
            "relu(#)",
            "-#",
            "max(#, v)",
            "min(v, #)",
            "v + (#)",
            "clamp(#, 0.0, 1.0)",
        ] {
            let folded = depth(&nest(template, 120));
            assert!(folded <= 12, "`{template}` 120 deep nests {folded} levels");
        }
        let chain = vec!["a"; 500].join(" + ");
        assert!(depth(&chain) <= 12);
    }

    #[test]
    fn products_and_reductions_still_nest_one_level_each() {
        assert_eq!(depth(&nest("(# @ w)", 61)), 61);
        assert!(depth(&nest("sum(relu(#), [0], keepdim)", 40)) >= 40);
    }
}
