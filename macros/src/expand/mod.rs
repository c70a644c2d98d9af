//! [`ast`](crate::ast) to Rust tokens. The output is a block that
//! 1. borrows every operand once, in source order (`let __tensor_expr_op0 = &x;`),
//!    and reborrows the target of an assignment;
//! 2. binds the context: the element type (the target's, else the first
//!    operand's) and the mode (`Numpy` or `Strict`), which every constructor
//!    receives, so `T` is known at each node;
//! 3. builds the expression tree node by node, each constructor call spanned on
//!    its operator, function name or `in_dims` tuple, so rustc reports a shape or
//!    element error there and nowhere else;
//! 4. hands the tree to the runtime's loop-nest driver: `evaluate` (new tensor),
//!    `assign` (`out = e`) or `update` (`out += e`, ...).
//!
//! Local names live in the reserved `__tensor_expr_` namespace (see [`at`] for why
//! they are not `mixed_site`), each in the macro's own block; paths are absolute
//! (`::tensor_expr::__private`), so user items named `core` or `Tensor` do not
//! interfere. The output names no std item and no `unsafe`.

mod local_rules;
mod tree;

use crate::ast::{AssignOp, Expr, Form, IndexOf, Statement};
use crate::stage;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use tensor_expr_catalog::operation::Build;
use tree::{Other, TreeBuilder};

/// Expands a validated statement: its stages first ([`stage`]), each into a
/// scratch tensor, then the statement over them.
pub fn expand(statement: &Statement) -> TokenStream {
    expand_into(statement, None, &[])
}

/// Whether a program can place the statement's value in its arena: it
/// makes a new tensor (not an assignment, not `argmax`'s positions) and
/// cannot fail (a `Result` is not a tensor).
pub fn placeable(statement: &Statement) -> bool {
    match &statement.form {
        Form::Evaluate(expr) if statement.index_of.is_none() => {
            let (_, stages) = stage::split(expr, None);
            !stages.iter().any(|stage| fallible(&stage.expr))
        }
        _ => false,
    }
}

/// Where a program's statement puts its new tensor ([`expand_into`]).
pub enum Destination<'a> {
    /// A planned tensor: an expression of type `(program::Slot,
    /// &mut program::Lent)`, its slot in the arena and its kernels'
    /// scratch; the value is then a `&mut Tensor` there.
    Slot(&'a TokenStream),
    /// The program's result: an expression of type `&mut program::Lent`,
    /// its kernels' scratch; the value is a new tensor, returned.
    Result(&'a TokenStream),
}

/// Which of a [`placeable`] statement's stages a program evaluates into
/// its arena (each an expression evaluated by the tree's nest; the
/// operations computed whole by their functions stay on the stack), in the
/// order [`expand_into`] takes their places.
pub fn stages_in_arena(statement: &Statement) -> Vec<bool> {
    let Form::Evaluate(expr) = &statement.form else {
        return Vec::new();
    };
    let (_, stages) = stage::split(expr, None);
    stages
        .iter()
        .map(|stage| !stage::is_matrix_operation(&stage.expr))
        .collect()
}

/// [`expand`], the new tensor evaluated into a program's `slot` where one
/// is given, and each stage [`stages_in_arena`] names into its place in
/// `staged` (an expression of type `program::Staged`, one for each `true`
/// there, in order). Only for a [`placeable`] statement.
pub fn expand_into(
    statement: &Statement,
    slot: Option<Destination<'_>>,
    staged: &[TokenStream],
) -> TokenStream {
    let strict = statement.strict;
    let (value, target) = match &statement.form {
        Form::Evaluate(expr) => (expr, None),
        Form::Assign { target, value, .. } => (value, Some(target)),
    };
    let (value, stages) = stage::split(value, target.map(ToString::to_string).as_deref());
    // The value is one operation computed whole (`cumsum(x, [1])`,
    // `inv(a)`): its last stage.
    let whole = whole_stage(&value, &stages);
    // `out = op(..)` with that stage one computed straight into the target:
    // it writes `out` itself (`None`), or gives the tensor assigned as any
    // stage is.
    let into = match (&statement.form, whole) {
        (
            Form::Assign {
                op: AssignOp::Set,
                target,
                ..
            },
            Some(last),
        ) if stage::computed_into(&last.expr, &target.to_string()) => Some((&last.name, target)),
        _ => None,
    };
    let mut staged = staged.iter();
    let mut stage_lets: Vec<TokenStream> = stages
        .iter()
        .map(|stage| match into {
            Some((name, target)) if *name == stage.name => {
                expand_stage_into(stage, strict, &stages, target)
            }
            _ => {
                let in_arena = !stage::is_matrix_operation(&stage.expr);
                let place = in_arena.then(|| staged.next()).flatten();
                expand_stage(stage, strict, &stages, place)
            }
        })
        .collect();
    if !stages.is_empty() {
        stage_lets.push(scratch_check(&stages, statement.scratch_budget.as_ref()));
    }
    let mut builder = TreeBuilder::new(strict, &value, target, &stages);
    let main = match &statement.form {
        // A whole stage is a new `Tensor`, placed as the value's (a stage
        // votes for the stack), so it is the result, not copied into
        // another.
        Form::Evaluate(_) if slot.is_none() && whole.is_some() => {
            let name = whole.map(|stage| &stage.name);
            quote!(#name)
        }
        Form::Evaluate(_) => {
            let (span, root, placement) = builder.evaluation(&value);
            let rt = runtime(span);
            match slot {
                Some(Destination::Slot(slot)) => builder.finish(
                    quote_spanned!(span=> #rt::program::evaluate_in(#slot, #placement, &#root)),
                ),
                Some(Destination::Result(lent)) => builder.finish(
                    quote_spanned!(span=> #rt::program::evaluate_result(#lent, #placement, #root)),
                ),
                None => builder
                    .finish(quote_spanned!(span=> #rt::placement::evaluate(#placement, #root))),
            }
        }
        Form::Assign { op, op_span, .. } => {
            let root = at(&builder.node(&value, Some(Other::Target)), *op_span);
            let placement = builder.assignment_placement(*op_span, &local(TARGET_NAME));
            let (rt, context) = builder.located(*op_span);
            let call = assignment(*op, *op_span, rt, context, root, placement);
            builder.finish(call)
        }
    };
    let main = match into {
        Some((name, _)) => quote!(match #name {
            ::core::option::Option::None => (),
            ::core::option::Option::Some(#name) => #main,
        }),
        None => main,
    };
    let fallible = stages.iter().any(|stage| fallible(&stage.expr));
    let main = match &statement.index_of {
        Some(index_of) => index_of_value(index_of, &value, main),
        None => main,
    };
    if stage_lets.is_empty() {
        main
    } else if fallible {
        // A stage that fails ends the block with its error.
        let label = failure_label();
        quote!(#label: {
            #(#stage_lets)*
            ::core::result::Result::Ok(#main)
        })
    } else {
        quote!({
            #(#stage_lets)*
            #main
        })
    }
}

/// A planned statement whose result may take the bytes of `source`, a
/// planned tensor it reads last (the program attribute checks the value's
/// form, and that it has no stage), as `over_input` says:
///
/// - `false`: its value is elementwise operations alone, `source` a plain
///   operand; `evaluate_in_place` over the value built twice, reading
///   `source` through the output's own elements (as `out = e` reads its
///   target) and, where the two are not the same size, as an operand
///   evaluated into `slot` (the result's place in the arena).
/// - `true`: an int8 layer whose one convolution reads `source`
///   (converted); `evaluate_layer_over_input` over the value built twice,
///   its convolution reading `source` as the destination it is written
///   over, and reading it as an operand, evaluated into a slot (the
///   result's own, `slot`, or where the kernels decline, `source`'s bytes).
///
/// The kernels' scratch is `lent` (a `program::Lent`); `taken` is the
/// plan's decision (a `program::InPlace`).
pub fn expand_in_place(
    statement: &Statement,
    source: &Ident,
    over_input: bool,
    taken: &TokenStream,
    slot: &TokenStream,
    lent: &TokenStream,
) -> TokenStream {
    let Form::Evaluate(value) = &statement.form else {
        unreachable!("the program attribute takes only a value in place")
    };
    // No stage: the caller takes only values that have none.
    let (value, stages) = stage::split(value, None);
    let strict = statement.strict;
    let target = source.to_token_stream();
    let mut in_place = TreeBuilder::new(strict, &value, Some(&target), &stages);
    let (span, root, _) = in_place.evaluation(&value);
    let rt = runtime(span);
    let lent_name = at(&local("lent"), span);
    let slot_name = at(&local("slot"), span);
    // A layer's evaluation apart is given its slot: the result's own, or
    // where the kernels decline, `source`'s bytes.
    let apart_slot = if over_input {
        slot_name.to_token_stream()
    } else {
        slot.clone()
    };
    let mut apart = TreeBuilder::new(strict, &value, None, &stages);
    let (_, apart_root, placement) = apart.evaluation(&value);
    let apart = apart.finish(quote_spanned!(span=>
        #rt::program::evaluate_in((#apart_slot, #lent_name), #placement, &#apart_root)
    ));
    let source_place = at(&local(TARGET_NAME), span);
    in_place.finish(if over_input {
        quote_spanned!(span=>
            #rt::program::evaluate_layer_over_input(
                #taken, #source_place, #slot, #lent, &#root, |#source, #slot_name, #lent_name| #apart
            )
        )
    } else {
        quote_spanned!(span=>
            #rt::program::evaluate_in_place(#taken, #source_place, #lent, &#root, |#source, #lent_name| #apart)
        )
    })
}

/// The last stage, where `value` (after staging) is exactly it and it is an
/// operation computed whole by its own function.
fn whole_stage<'a>(value: &Expr, stages: &'a [stage::Stage]) -> Option<&'a stage::Stage> {
    match (value, stages.last()) {
        (Expr::Operand(operand), Some(last))
            if last.name == operand.tokens.to_string()
                && stage::is_matrix_operation(&last.expr) =>
        {
            Some(last)
        }
        _ => None,
    }
}

/// Whether `expr` is an operation that can fail (`inv`, `solve`,
/// `cholesky`): the expression then returns a `Result`.
fn fallible(expr: &Expr) -> bool {
    matches!(expr, Expr::Op(call) if call.op.reads.fallible())
}

/// The label of the block a failing stage breaks out of with its error.
fn failure_label() -> syn::Lifetime {
    syn::Lifetime::new("'__tensor_expr_linalg", Span::call_site())
}

/// `argmax(e, [axis])`: the index reduction's method called on `e`'s value,
/// spanned on its name (where an axis out of range is reported). An operand
/// is read in place; an expression is evaluated first, by its own fused nest
/// (a product keeps its register tiles), into the tensor the method scans.
/// `expr` is `e` after staging (a staged `e` is read as the operand it is).
fn index_of_value(index_of: &IndexOf, expr: &Expr, value: TokenStream) -> TokenStream {
    let span = index_of.name.span();
    let method = match index_of.op.build {
        Build::Method(method) => method.to_string(),
        _ => index_of.op.name.to_string(),
    };
    let method = if index_of.keepdim {
        Ident::new(&format!("{method}_keepdim"), span)
    } else {
        Ident::new(&method, span)
    };
    let axis = proc_macro2::Literal::usize_unsuffixed(index_of.axis.value as usize);
    if let Expr::Operand(operand) = expr {
        let tokens = &operand.tokens;
        return quote_spanned!(span=> (#tokens).#method::<#axis>());
    }
    let values = local("values");
    let rt = runtime(span);
    quote_spanned!(span=> #rt::placement::then(#value, |#values| #values.#method::<#axis>()))
}

/// The driver call of `out = e` or `out += e` over the tree `root`, spanned
/// on the operator, under the joined `placement`. The in-place call returns
/// the rule's witness (a tuple of `()`) and the outcome, which is the
/// macro's value: `()`, or a `Result` where the target and an operand both
/// have run-time rows.
fn assignment(
    op: AssignOp,
    op_span: Span,
    rt: TokenStream,
    context: Ident,
    root: Ident,
    placement: Ident,
) -> TokenStream {
    let target_ref = at(&local(TARGET_NAME), op_span);
    match op {
        AssignOp::Set => quote_spanned!(op_span=> {
            #rt::kernel::assign(#context, #target_ref, #root, #placement).1
        }),
        AssignOp::Update(binary) => {
            let marker = Ident::new(binary.marker(), op_span);
            quote_spanned!(op_span=> {
                #rt::kernel::update(#context, #target_ref, #rt::expr::operators::#marker, #root, #placement).1
            })
        }
    }
}

/// `let (__tensor_expr_stageN, __tensor_expr_stageN_placement) = { .. };`:
/// the stage evaluated into a tensor placed as its operands vote (the heap
/// if one of them is on the heap, else the stack: the rule of
/// `tensor_expr!(e)`'s own result), and that placement, which counts for the
/// expression that reads it. `stages`: the whole list, of which it may read
/// those before it. In a program's planned statement, `staged` is its place
/// in the arena (a `program::Staged`), and the stage a `&mut Tensor` there.
fn expand_stage(
    stage: &stage::Stage,
    strict: bool,
    stages: &[stage::Stage],
    staged: Option<&TokenStream>,
) -> TokenStream {
    let mut builder = TreeBuilder::new(strict, &stage.expr, None, stages);
    let (name, stage_vote) = (&stage.name, stage_placement(&stage.name));
    if stage::is_matrix_operation(&stage.expr) {
        // Computed by its function into a `Tensor` (on the stack); an error
        // ends the expression.
        let root = builder.node(&stage.expr, None);
        let value = builder.finish(quote!(#root));
        let value = if fallible(&stage.expr) {
            let label = failure_label();
            quote!(match #value {
                ::core::result::Result::Ok(value) => value,
                ::core::result::Result::Err(error) => break #label ::core::result::Result::Err(error),
            })
        } else {
            value
        };
        let rt = runtime(Span::call_site());
        return quote!(let (#name, #stage_vote) = (#value, #rt::access::Stack););
    }
    let (span, root, placement) = builder.evaluation(&stage.expr);
    let rt = runtime(span);
    let value = match staged {
        Some(staged) => {
            quote_spanned!(span=> #rt::program::evaluate_stage_in(#staged, #placement, #root))
        }
        None => quote_spanned!(span=> #rt::placement::evaluate_stage(#placement, #root)),
    };
    let main = builder.finish(quote_spanned!(span=> (#value, #placement)));
    quote!(let (#name, #stage_vote) = #main;)
}

/// `let (__tensor_expr_stageN, __tensor_expr_stageN_placement) = { .. };`
/// for the stage that is the whole value of `target = op(..)`, an operation
/// computed into the target: its `_into` form writes the target and gives
/// `None`, or gives the tensor (of another shape than the target's) for the
/// statement to assign.
fn expand_stage_into(
    stage: &stage::Stage,
    strict: bool,
    stages: &[stage::Stage],
    target: &TokenStream,
) -> TokenStream {
    let mut builder = TreeBuilder::new(strict, &stage.expr, Some(target), stages);
    builder.compute_into_target();
    let root = builder.node(&stage.expr, None);
    let value = builder.finish(quote!(#root));
    let (name, stage_vote) = (&stage.name, stage_placement(&stage.name));
    let rt = runtime(Span::call_site());
    quote!(let (#name, #stage_vote) = (#value, #rt::access::Stack);)
}

/// The compile-time check that the stages' stack bytes fit the statement's
/// budget (`scratch <= N:`, else the default), reported at the macro call.
fn scratch_check(stages: &[stage::Stage], budget: Option<&TokenStream>) -> TokenStream {
    let rt = runtime(Span::call_site());
    let budget = budget.map_or_else(
        || quote!({ #rt::placement::DEFAULT_SCRATCH_BUDGET }),
        Clone::clone,
    );
    let list = stages.iter().rev().fold(quote!(()), |rest, stage| {
        let name = &stage.name;
        quote!((&#name, #rest))
    });
    quote!(#rt::placement::within_scratch_budget::<#budget, _>(#list);)
}

/// The local holding a stage's placement vote.
fn stage_placement(stage: &Ident) -> Ident {
    Ident::new(&format!("{stage}_placement"), Span::call_site())
}

/// The name of the reborrowed assignment target.
const TARGET_NAME: &str = "target";

/// The span of the target's first token (where a bad target is reported).
fn target_span(target: &TokenStream) -> Span {
    target
        .clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |t| t.span())
}

/// `::tensor_expr::__private` carrying `span`, so a call built on it is reported
/// at `span`.
fn runtime(span: Span) -> TokenStream {
    quote_spanned!(span=> ::tensor_expr::__private)
}

/// The same local name, located at `span`. rustc points an unsatisfied bound at
/// the argument it blames, and that must be the user's operator. (A
/// `Span::mixed_site()` name would be reported at the whole macro call, even
/// `located_at` the operator; hence call-site names with a reserved prefix.)
fn at(local: &Ident, span: Span) -> Ident {
    Ident::new(&local.to_string(), span)
}

/// A local name in the reserved `__tensor_expr_` namespace.
fn local(name: &str) -> Ident {
    Ident::new(&format!("__tensor_expr_{name}"), Span::call_site())
}
