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

use crate::ast::{AssignOp, BinaryOp, DimLiteral, Expr, Form, Statement};
use crate::chain;
use crate::share;
use crate::stage;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use std::collections::HashMap;
use tensor_expr_runtime::MAX_RANK;

/// Expands a validated statement: its stages first ([`stage`]), each into a
/// scratch tensor, then the statement over them.
pub fn expand(statement: &Statement) -> TokenStream {
    let (form, stages) = match &statement.form {
        Form::Evaluate(expr) => {
            let (expr, stages) = stage::split(expr, None);
            (Form::Evaluate(expr), stages)
        }
        Form::Assign {
            target,
            op,
            op_span,
            value,
        } => {
            let (value, stages) = stage::split(value, Some(&target.to_string()));
            let form = Form::Assign {
                target: target.clone(),
                op: *op,
                op_span: *op_span,
                value,
            };
            (form, stages)
        }
    };
    let statement = Statement {
        strict: statement.strict,
        form,
    };
    let stage_lets: Vec<TokenStream> = stages
        .iter()
        .map(|stage| expand_stage(stage, statement.strict))
        .collect();
    let mut builder = TreeBuilder::new(&statement, &stages);
    let finish = match &statement.form {
        Form::Evaluate(expr) => {
            let (span, root, placement) = builder.evaluation(expr);
            let rt = runtime(span);
            quote_spanned!(span=> #rt::placement::evaluate(#placement, #root))
        }
        Form::Assign {
            op, op_span, value, ..
        } => {
            let root = at(&builder.node(value, Some(Other::Target)), *op_span);
            let (rt, context) = (runtime(*op_span), at(&builder.context, *op_span));
            let target_ref = at(&local(TARGET_NAME), *op_span);
            // A statement in a block: the in-place call returns the rule's
            // witness (a tuple of `()`), the macro's value is `()`.
            match op {
                AssignOp::Set => quote_spanned!(*op_span=> {
                    #rt::kernel::assign(#context, #target_ref, #root);
                }),
                AssignOp::Update(binary) => {
                    let marker = Ident::new(binary.marker(), *op_span);
                    quote_spanned!(*op_span=> {
                        #rt::kernel::update(#context, #target_ref, #rt::expr::operators::#marker, #root);
                    })
                }
            }
        }
    };
    let main = builder.finish(finish);
    if stage_lets.is_empty() {
        main
    } else {
        quote!({
            #(#stage_lets)*
            #main
        })
    }
}

/// `let (__tensor_expr_stageN, __tensor_expr_stageN_placement) = { .. };`:
/// the stage evaluated into a scratch tensor, and the placement its operands
/// vote for (which counts for the expression that reads it).
fn expand_stage(stage: &stage::Stage, strict: bool) -> TokenStream {
    let (inner, stages) = stage::split(&stage.expr, None);
    let stage_lets: Vec<TokenStream> = stages.iter().map(|s| expand_stage(s, strict)).collect();
    let statement = Statement {
        strict,
        form: Form::Evaluate(inner),
    };
    let Form::Evaluate(expr) = &statement.form else {
        unreachable!("built as an evaluation above")
    };
    let mut builder = TreeBuilder::new(&statement, &stages);
    let (span, root, placement) = builder.evaluation(expr);
    let rt = runtime(span);
    let main = builder.finish(quote_spanned!(span=> (
        #rt::placement::evaluate(#rt::placement::SCRATCH, #root),
        #placement,
    )));
    let (name, placement) = (&stage.name, stage_placement(&stage.name));
    quote!(let (#name, #placement) = { #(#stage_lets)* #main };)
}

/// The local holding a stage's placement vote.
fn stage_placement(stage: &Ident) -> Ident {
    Ident::new(&format!("{stage}_placement"), Span::call_site())
}

/// The name of the reborrowed assignment target.
const TARGET_NAME: &str = "target";

/// The other operand of an `in_dims`, whose shape it is placed on.
enum Other {
    /// A node already built.
    Node(Ident),
    /// The assignment target (`out += in_dims(v, [0])`).
    Target,
}

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

/// Collects the `let`s of the expansion.
struct TreeBuilder {
    /// The user's operands (`__tensor_expr_opN` and `&operand`), in source
    /// order, and the target's reborrow: bound by one `let` of a tuple, so no
    /// operand can see another's generated name (hygiene: a user variable named
    /// `__tensor_expr_op0` stays the user's).
    operand_bindings: Vec<(Ident, TokenStream)>,
    /// `let __tensor_expr_nodeN = constructor(..);`, children before parents.
    node_lets: Vec<TokenStream>,
    operands: usize,
    nodes: usize,
    /// The assignment target's tokens: an operand equal to it is read in place.
    target: Option<String>,
    /// The span of the last node built, which is the root once the tree is done.
    root_span: Span,
    /// The local holding the context every constructor receives.
    context: Ident,
    /// The mode marker: `Numpy` or `Strict`.
    mode: TokenStream,
    /// Where the element type comes from: the target, else the first operand
    /// (else, for literals only, inference from the use site).
    element_source: Option<TokenStream>,
    /// How often each shareable subexpression is written ([`share`]).
    repeats: HashMap<String, usize>,
    /// The node holding each shared subexpression built so far, by key.
    shared: HashMap<String, Ident>,
    /// The unfolded depth of every node, to find the paths to fold ([`chain`]).
    depths: chain::Depths,
    /// Each operand, located where its leaf is built, and each stage's
    /// placement: together they decide where a new tensor goes.
    placements: Vec<Vote>,
    /// The names of the stages this expression reads, as written in operands.
    stage_names: Vec<String>,
}

/// One vote for where a new tensor goes.
enum Vote {
    /// A user's operand: its own placement.
    Operand(Ident),
    /// A stage: the placement its operands voted for.
    Stage(Ident),
}

impl TreeBuilder {
    fn new(statement: &Statement, stages: &[stage::Stage]) -> Self {
        let mode = if statement.strict {
            quote!(Strict)
        } else {
            quote!(Numpy)
        };
        let mut builder = TreeBuilder {
            operand_bindings: Vec::new(),
            node_lets: Vec::new(),
            operands: 0,
            nodes: 0,
            target: None,
            root_span: Span::call_site(),
            context: local("context"),
            mode: quote!(::tensor_expr::__private::rules::rank::#mode),
            element_source: None,
            repeats: HashMap::new(),
            shared: HashMap::new(),
            depths: chain::Depths::of(match &statement.form {
                Form::Evaluate(expr) => expr,
                Form::Assign { value, .. } => value,
            }),
            placements: Vec::new(),
            stage_names: stages.iter().map(|s| s.name.to_string()).collect(),
        };
        builder.repeats = match &statement.form {
            Form::Evaluate(expr) => share::repeats(expr, None),
            Form::Assign { target, value, .. } => share::repeats(value, Some(&target.to_string())),
        };
        if let Form::Assign { target, .. } = &statement.form {
            builder.target = Some(target.to_string());
            let name = local(TARGET_NAME);
            let reborrow = quote_spanned!(target_span(target)=> {
                use ::tensor_expr::__private::kernel::Target as _;
                (#target).as_target()
            });
            builder.operand_bindings.push((name.clone(), reborrow));
            let mode = &builder.mode;
            builder.element_source =
                Some(quote!(::tensor_expr::__private::expr::target_context(#mode, &*#name)));
        }
        builder
    }

    /// The block: operands, context, nodes, then `finish`.
    fn finish(self, finish: TokenStream) -> TokenStream {
        let (bindings, nodes, context, mode) = (
            self.operand_bindings,
            self.node_lets,
            self.context,
            self.mode,
        );
        let source = self
            .element_source
            .unwrap_or_else(|| quote!(::tensor_expr::__private::expr::inferred_context(#mode)));
        let (names, values): (Vec<_>, Vec<_>) = bindings.into_iter().unzip();
        quote!({
            let (#(#names,)*) = (#(#values,)*);
            let #context = #source;
            #(#nodes)*
            #finish
        })
    }

    /// Emits the node for `expr` (after its children) and returns its name.
    /// `other` is the other operand of the enclosing operation, for `in_dims`.
    fn node(&mut self, expr: &Expr, other: Option<Other>) -> Ident {
        let Some(key) = self.shared_key(expr) else {
            return self.unshared_node(expr, other);
        };
        let store = match self.shared.get(&key) {
            Some(store) => store.clone(),
            None => {
                let built = self.unshared_node(expr, other);
                let store = if matches!(expr, Expr::Reduce { .. }) {
                    built
                } else {
                    let span = self.root_span;
                    let (rt, context, built) =
                        (runtime(span), at(&self.context, span), at(&built, span));
                    self.push_node(
                        span,
                        quote_spanned!(span=> #rt::expr::shared(#context, #built)),
                    )
                };
                self.shared.insert(key, store.clone());
                store
            }
        };
        let span = self.root_span;
        let store = at(&store, span);
        self.push_node(span, quote_spanned!(span=> &#store))
    }

    /// The sharing key of `expr` if it is a subexpression written more than
    /// once (built once, as a node of its own, and read by reference where it
    /// appears).
    fn shared_key(&self, expr: &Expr) -> Option<String> {
        share::shareable_key(expr, self.target.as_deref())
            .filter(|key| self.repeats.get(key).is_some_and(|&n| n > 1))
    }

    /// [`Self::node`] for a subexpression built where it is written.
    fn unshared_node(&mut self, expr: &Expr, other: Option<Other>) -> Ident {
        if let Some(spine) =
            chain::foldable_spine(expr, &self.depths, |e| self.shared_key(e).is_some())
        {
            let (span, value) = self.fold(spine);
            return self.push_node(span, value);
        }
        let (span, value) = match expr {
            Expr::Operand { tokens, span } => (*span, self.operand(tokens, *span)),
            Expr::IntLiteral { value, span } => {
                let rt = runtime(*span);
                let value = Literal::i128_suffixed(*value);
                (
                    *span,
                    quote_spanned!(*span=> #rt::expr::IntLiteral::<{ #value }>),
                )
            }
            Expr::FloatLiteral { literal } => {
                let span = literal.span();
                let (rt, context) = (runtime(span), at(&self.context, span));
                (
                    span,
                    quote_spanned!(span=> #rt::expr::float_literal(#context, #literal)),
                )
            }
            Expr::Negate { span, operand } => {
                let operand = at(&self.node(operand, None), *span);
                let (rt, context) = (runtime(*span), at(&self.context, *span));
                (
                    *span,
                    quote_spanned!(*span=> #rt::expr::map1(#context, #rt::expr::operators::neg, #operand)),
                )
            }
            Expr::Binary {
                op: BinaryOp::MatMul,
                span,
                lhs,
                rhs,
            } => {
                let (lhs, rhs) = self.pair(lhs, rhs, *span);
                let (rt, context) = (runtime(*span), at(&self.context, *span));
                let call = quote_spanned!(*span=> #rt::expr::matmul(#context, #lhs, #rhs));
                (*span, call)
            }
            Expr::Binary {
                op,
                span,
                lhs: lhs_expr,
                rhs: rhs_expr,
            } => {
                let (lhs, rhs) = self.pair(lhs_expr, rhs_expr, *span);
                let rt = runtime(*span);
                let context = self.context_over(*span, &[lhs_expr, rhs_expr]);
                let marker = Ident::new(op.marker(), *span);
                let call = quote_spanned!(*span=> #rt::expr::map2(#context, #rt::expr::operators::#marker, #lhs, #rhs));
                (*span, call)
            }
            Expr::Call { name, args } => {
                let span = name.span();
                let exprs: Vec<&Expr> = args.iter().collect();
                let args: Vec<Ident> = match &args[..] {
                    [a, b] => {
                        let (a, b) = self.pair(a, b, span);
                        vec![a, b]
                    }
                    _ => args
                        .iter()
                        .map(|arg| at(&self.node(arg, None), span))
                        .collect(),
                };
                let rt = runtime(span);
                let context = self.context_over(span, &exprs);
                let map = Ident::new(&format!("map{}", args.len()), span);
                let call = quote_spanned!(span=> #rt::expr::#map(#context, #rt::expr::functions::#name, #(#args),*));
                (span, call)
            }
            Expr::Reduce {
                name,
                operand,
                axes,
                axes_span,
                keepdim,
            } => {
                let operand = self.node(operand, None);
                let span = name.span();
                let call = self.reduction(name, &operand, axes.as_deref(), *axes_span, *keepdim);
                (span, call)
            }
            Expr::Permute {
                name,
                operand,
                perm,
                perm_span,
            } => {
                let Expr::Operand { tokens, span } = &**operand else {
                    unreachable!("validated: an operand")
                };
                let operand = self.borrow_operand(tokens, *span, *perm_span);
                let (rt, context) = (runtime(*perm_span), at(&self.context, *perm_span));
                let operand = at(&operand, *perm_span);
                let call = match perm {
                    None => quote_spanned!(*perm_span=> #rt::expr::transpose(#context, #operand)),
                    Some(perm) => permute(perm, *perm_span, &context, &operand),
                };
                (name.span(), call)
            }
            Expr::Reshape {
                name,
                shape,
                operand,
            } => {
                let Expr::Operand { tokens, span } = &**operand else {
                    unreachable!("validated: an operand")
                };
                let span_name = name.span();
                let operand = at(&self.borrow_operand(tokens, *span, span_name), span_name);
                let (rt, context) = (runtime(span_name), at(&self.context, span_name));
                let call = quote_spanned!(span_name=> #rt::expr::reshape::<#shape, _, _, _>(#context, #operand));
                (span_name, call)
            }
            Expr::InDims {
                operand,
                dims,
                tuple_span,
                ..
            } => {
                let Expr::Operand { tokens, span } = &**operand else {
                    unreachable!("validated: an operand")
                };
                let other = other.expect("validated: in_dims has another operand");
                let other = self.shape_witness(other, *tuple_span);
                (
                    *tuple_span,
                    self.in_dims(tokens, *span, dims, *tuple_span, other),
                )
            }
        };
        self.push_node(span, value)
    }

    /// A long path of elementwise operations as the runtime's fold node (see
    /// [`chain`]): the head, then each step checked and built in order, the
    /// steps assembled into a tree as they come ([`chain::StepsTree`]).
    fn fold(&mut self, spine: chain::Spine) -> (Span, TokenStream) {
        let head = self.node(spine.head, None);
        let mut so_far = self.shape_witness_node(&head, self.root_span);
        let mut steps = chain::StepsTree::new();
        for step in &spine.steps {
            let (checked, built) = self.fold_step(step, &so_far);
            so_far = self.shape_witness_node(&checked, step.function.span());
            steps.push(built, |earlier, later| self.steps_pair(&earlier, &later));
        }
        let span = self.root_span;
        // Never empty: a spine has at least `MIN_FOLD_STEPS` steps.
        let tree = steps.finish(|earlier, later| self.steps_pair(&earlier, &later));
        let tree = tree.map_or_else(
            || quote!(()),
            |(tree, _)| at(&tree, span).into_token_stream(),
        );
        let (rt, context) = (runtime(span), at(&self.context, span));
        let (so_far, head) = (at(&so_far, span), at(&head, span));
        (
            span,
            quote_spanned!(span=> #rt::expr::fold(#context, #so_far, #head, #tree)),
        )
    }

    /// One fold step, as two nodes: its check, the operation's own
    /// constructor with the path so far standing for the accumulator (a
    /// `PhantomData` shape witness, so the check's type stays shallow),
    /// spanned on its operator or function name; and the step itself.
    fn fold_step(&mut self, step: &chain::Step, so_far: &Ident) -> (Ident, Ident) {
        let span = step.function.span();
        let (rt, context) = (runtime(span), at(&self.context, span));
        let function = match &step.function {
            chain::Function::Operator(marker, _) => {
                let marker = Ident::new(marker, span);
                quote_spanned!(span=> #rt::expr::operators::#marker)
            }
            chain::Function::Named(name) => quote_spanned!(span=> #rt::expr::functions::#name),
        };
        let acc = at(so_far, span);
        let (check, built) = match step.place {
            chain::Place::Only => (
                quote_spanned!(span=> #rt::expr::map1(#context, #function, #acc)),
                quote_spanned!(span=> #rt::expr::unary_step(#context, #function)),
            ),
            chain::Place::Left(x) => {
                let x = self.side_node(x, so_far, span);
                (
                    quote_spanned!(span=> #rt::expr::map2(#context, #function, #acc, &#x)),
                    quote_spanned!(span=> #rt::expr::left_step(#context, #function, #x)),
                )
            }
            chain::Place::Right(x) => {
                let x = self.side_node(x, so_far, span);
                (
                    quote_spanned!(span=> #rt::expr::map2(#context, #function, &#x, #acc)),
                    quote_spanned!(span=> #rt::expr::right_step(#context, #function, #x)),
                )
            }
            chain::Place::First(b, c) => {
                let (b, c) = (
                    self.side_node(b, so_far, span),
                    self.side_node(c, so_far, span),
                );
                (
                    quote_spanned!(span=> #rt::expr::map3(#context, #function, #acc, &#b, &#c)),
                    quote_spanned!(span=> #rt::expr::first_step(#context, #function, #b, #c)),
                )
            }
        };
        (self.push_node(span, check), self.push_node(span, built))
    }

    /// `let __tensor_expr_nodeN = pair(earlier, later);`: two subtrees of fold
    /// steps merged, in order.
    fn steps_pair(&mut self, earlier: &Ident, later: &Ident) -> Ident {
        let span = self.root_span;
        let (earlier, later) = (at(earlier, span), at(later, span));
        self.push_node(
            span,
            quote_spanned!(span=> ::tensor_expr::__private::expr::pair(#earlier, #later)),
        )
    }

    /// A fold step's other argument, located at the step's `span`; an `in_dims`
    /// there is placed on the shape of the path so far.
    fn side_node(&mut self, side: &Expr, so_far: &Ident, span: Span) -> Ident {
        let other = side.is_in_dims().then(|| Other::Node(so_far.clone()));
        at(&self.node(side, other), span)
    }

    /// `let __tensor_expr_nodeN = shape_of(node);`: a node's shape as a witness.
    fn shape_witness_node(&mut self, node: &Ident, span: Span) -> Ident {
        let (rt, context, node) = (runtime(span), at(&self.context, span), at(node, span));
        self.push_node(
            span,
            quote_spanned!(span=> #rt::expr::shape_of(#context, &#node)),
        )
    }

    /// `let __tensor_expr_nodeN = value;`, located at `span`; returns the name.
    fn push_node(&mut self, span: Span, value: TokenStream) -> Ident {
        let name = local(&format!("node{}", self.nodes));
        self.nodes += 1;
        self.root_span = span;
        // The `let` carries the node's span too: rustc checks the binding's type
        // there, and an error on the same span as the call's is reported once.
        self.node_lets
            .push(quote_spanned!(span=> let #name = #value;));
        name
    }

    /// The two operands of a binary operation, located at `span`. An `in_dims`
    /// side is built after the other, whose shape it needs.
    fn pair(&mut self, lhs: &Expr, rhs: &Expr, span: Span) -> (Ident, Ident) {
        let (lhs, rhs) = if rhs.is_in_dims() {
            let lhs = self.node(lhs, None);
            let rhs = self.node(rhs, Some(Other::Node(lhs.clone())));
            (lhs, rhs)
        } else if lhs.is_in_dims() {
            let rhs = self.node(rhs, None);
            let lhs = self.node(lhs, Some(Other::Node(rhs.clone())));
            (lhs, rhs)
        } else {
            (self.node(lhs, None), self.node(rhs, None))
        };
        (at(&lhs, span), at(&rhs, span))
    }

    /// The context of an operation over `operands`, at `span`: the mode's
    /// `after_reduction` form when one of them drops a reduction's axes, so
    /// that a broadcast error there suggests `keepdim`.
    fn context_over(&self, span: Span, operands: &[&Expr]) -> TokenStream {
        let (rt, context) = (runtime(span), at(&self.context, span));
        if operands.len() >= 2 && operands.iter().any(|operand| operand.drops_axes()) {
            quote_spanned!(span=> #rt::expr::after_reduction(#context))
        } else {
            context.into_token_stream()
        }
    }

    /// The other operand's shape as a witness, located at `span` (the tuple).
    fn shape_witness(&self, other: Other, span: Span) -> TokenStream {
        let rt = runtime(span);
        match other {
            Other::Node(node) => {
                let (context, node) = (at(&self.context, span), at(&node, span));
                quote_spanned!(span=> #rt::expr::shape_of(#context, &#node))
            }
            Other::Target => {
                let target = at(&local(TARGET_NAME), span);
                quote_spanned!(span=> #rt::expr::target_shape(&*#target))
            }
        }
    }

    /// A leaf: the target read in place, or a borrowed operand.
    fn operand(&mut self, tokens: &TokenStream, span: Span) -> TokenStream {
        let rt = runtime(span);
        if self.target.as_deref() == Some(tokens.to_string().as_str()) {
            let target = at(&local(TARGET_NAME), span);
            return quote_spanned!(span=> #rt::expr::target_leaf(&*#target));
        }
        let name = self.borrow_operand(tokens, span, span);
        let context = at(&self.context, span);
        quote_spanned!(span=> #rt::expr::operand(#context, #name))
    }

    /// The tree of an expression to evaluate into a new tensor: its span, its
    /// root located there, and where the new tensor goes.
    fn evaluation(&mut self, expr: &Expr) -> (Span, Ident, Ident) {
        let root = self.node(expr, None);
        let span = self.root_span;
        let placement = self.placement(span);
        (span, at(&root, span), placement)
    }

    /// Where a new tensor goes: the placements of all operands joined (the
    /// heap if any operand is on the heap), located at `span`.
    /// (One `let` per operand, rather than nested calls, keeps the code flat
    /// for expressions of hundreds of operands.)
    fn placement(&mut self, span: Span) -> Ident {
        let rt = runtime(span);
        let name = at(&local("placement"), span);
        self.node_lets
            .push(quote_spanned!(span=> let #name = #rt::placement::Stack;));
        for vote in std::mem::take(&mut self.placements) {
            let vote = match vote {
                Vote::Operand(operand) => {
                    let span = operand.span();
                    let (rt, context, so_far) =
                        (runtime(span), at(&self.context, span), at(&name, span));
                    quote_spanned!(span=> let #so_far = #rt::placement::join(#so_far, #context, #operand);)
                }
                Vote::Stage(placement) => {
                    quote!(let #name = #rt::placement::join_placement(#name, #placement);)
                }
            };
            self.node_lets.push(vote);
        }
        name
    }

    /// `let __tensor_expr_opN = &operand;`, and the element source if it is the
    /// first. `check_span` is where the leaf built on it checks that it is an
    /// operand; its placement vote is checked there too, so that a value that
    /// is not an operand is reported once.
    fn borrow_operand(&mut self, tokens: &TokenStream, span: Span, check_span: Span) -> Ident {
        let name = local(&format!("op{}", self.operands));
        self.operands += 1;
        self.operand_bindings
            .push((name.clone(), quote_spanned!(span=> &#tokens)));
        let written = tokens.to_string();
        self.placements
            .push(if self.stage_names.contains(&written) {
                Vote::Stage(stage_placement(&Ident::new(&written, Span::call_site())))
            } else {
                Vote::Operand(at(&name, check_span))
            });
        let name = at(&name, span);
        if self.element_source.is_none() {
            let (rt, mode) = (runtime(span), &self.mode);
            self.element_source = Some(quote_spanned!(span=> #rt::expr::context_of(#mode, #name)));
        }
        name
    }

    /// `in_dims(x, [d0, ..])`: a leaf over `x`'s data with `x`'s dims placed on
    /// dims `d0, ..` of the other operand and `One` elsewhere. The placement is a
    /// local trait, implemented for each possible rank of the other operand (so
    /// rustc waits for that shape before judging), whose message names the tuple;
    /// its where-clause also checks the sizes (`rules::in_dims::PlacedFits`), so
    /// every typed in_dims mistake is one error on the tuple.
    fn in_dims(
        &mut self,
        tokens: &TokenStream,
        span: Span,
        dims: &[DimLiteral],
        tuple_span: Span,
        other: TokenStream,
    ) -> TokenStream {
        let operand = self.borrow_operand(tokens, span, tuple_span);
        let operand = at(&operand, tuple_span);
        let context = at(&self.context, tuple_span);
        let positions: Vec<usize> = dims.iter().map(|d| d.value as usize).collect();
        let tuple = format!("{positions:?}");
        let message = format!(
            "`in_dims(.., {tuple})` cannot place shape `{{X}}` on dims {tuple} of shape `{{Other}}`"
        );
        let label = format!("placing `{{X}}` on dims {tuple} of `{{Other}}`");
        let note = format!(
            "the tuple needs one entry per dim of the operand ({} here), each less than the rank of the other \
             operand, and each placed size must equal the size there or be 1",
            positions.len()
        );
        let same_rank_message = format!(
            "`in_dims(.., {tuple})` does nothing here: it places `{{X}}` on `{{Other}}`, of the same rank"
        );
        let same_rank_label =
            "the other operand of this `in_dims`'s own operation has the operand's rank"
                .to_string();
        let same_rank_note = "`in_dims` places its operand on the other operand of the binary operation or \
             function it is written in; to place it on a larger result, put that result in parentheses, \
             as in `in_dims(n, [0]) + (n - d)`; with no placement to make, drop `in_dims`";
        let impls = in_dims_impls(&positions);
        quote_spanned!(tuple_span=> {
            // No user tokens in this block: these names cannot shadow the user's.
            use ::tensor_expr::__private::{expr::{Contiguous, Context, Operand, TensorLeaf}, rules::{in_dims::{CannotPlace, PlacedFits}, Holds}, Dim, One, Shape};
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            trait InDims<Other, X> {
                type Placed: Shape;
            }
            #[diagnostic::do_not_recommend]
            impl<Other: Shape, X, Verdict: Holds> InDims<Other, X> for Verdict {
                type Placed = Other;
            }
            #[diagnostic::on_unimplemented(message = #same_rank_message, label = #same_rank_label, note = #same_rank_note)]
            trait SameRank<Other, X> {
                type Placed: Shape;
            }
            #[diagnostic::do_not_recommend]
            impl<Other: Shape, X, Verdict: Holds> SameRank<Other, X> for Verdict {
                type Placed = Other;
            }
            trait Place<X> {
                type Placed: Shape;
            }
            #(#impls)*
            #[inline]
            fn place<'a, T, M, X, Other>(
                _context: Context<T, M>,
                operand: &'a X,
                _other: ::core::marker::PhantomData<Other>,
            ) -> TensorLeaf<'a, X::Element, <Other as Place<X::Shape>>::Placed>
            where
                X: Operand<T> + ?Sized,
                X::Layout: Contiguous,
                X::Element: 'a,
                Other: Place<X::Shape>,
            {
                TensorLeaf::new(Operand::elements(operand))
            }
            place(#context, #operand, #other)
        })
    }
}

impl TreeBuilder {
    /// `sum(x, [axes], keepdim)` and friends: the axes rule is a local trait
    /// with one impl per rank the axes fit (in range, each dim once once the
    /// negative ones are counted from the end), giving the kept and the result
    /// shapes; its message names the axes as written. A local function spanned
    /// on the axes list checks it, and its witness fixes the shapes of the
    /// runtime's `reduction`, spanned on the name (where a float-only `mean`
    /// on integers is reported).
    fn reduction(
        &self,
        name: &syn::Ident,
        operand: &Ident,
        axes: Option<&[DimLiteral]>,
        axes_span: Span,
        keepdim: bool,
    ) -> TokenStream {
        let span = name.span();
        let listed = axes.map(|axes| {
            let values: Vec<String> = axes.iter().map(|a| a.value.to_string()).collect();
            format!("[{}]", values.join(", "))
        });
        let described = listed
            .as_deref()
            .map_or_else(|| "every axis".to_string(), |l| format!("axes {l}"));
        let message = format!("cannot reduce shape `{{Operand}}` over {described}");
        let label = format!("`{name}` over {described} of `{{Operand}}`");
        let note = "axes count from 0 at the outermost dim, or from -1 at the innermost; each must be a dim \
                    of the operand, and name a different dim than the others";
        let impls = reduction_impls(axes, keepdim);
        let checked = at(operand, axes_span);
        let context = at(&self.context, axes_span);
        let witness = quote_spanned!(axes_span=> {
            use ::tensor_expr::__private::{expr::{Context, Shaped}, rules::Holds, Dim, One, Shape};
            // Unused where the axes fit every rank (no failing impl names it).
            #[allow(dead_code)]
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            trait Axes<Operand, Anchor = ()> {
                type Kept: Shape;
                type Output: Shape;
            }
            #[diagnostic::do_not_recommend]
            impl<Operand: Shape, Anchor, Verdict: Holds> Axes<Operand, Anchor> for Verdict {
                type Kept = Operand;
                type Output = Operand;
            }
            // `Anchor`: see `rejecting_scalar_impl`.
            trait Reduce<Anchor = ()> {
                type Kept: Shape;
                type Output: Shape;
            }
            #(#impls)*
            #[inline]
            #[allow(clippy::type_complexity)]
            fn axes<T, M, E: Shaped>(
                _context: Context<T, M>,
                _operand: &E,
            ) -> ::core::marker::PhantomData<(<E::Shape as Reduce>::Kept, <E::Shape as Reduce>::Output)>
            where
                E::Shape: Reduce,
            {
                ::core::marker::PhantomData
            }
            axes(#context, &#checked)
        });
        let (rt, context, operand) = (runtime(span), at(&self.context, span), at(operand, span));
        quote_spanned!(span=> #rt::expr::reduction(#context, #rt::expr::reductions::#name, #witness, #operand))
    }
}

/// The impls of a reduction's local `Reduce` trait, one per rank (0 to
/// `MAX_RANK`). Where the axes name dims of that
/// rank, each once, it gives the kept and the result shapes; elsewhere it
/// rejects the shape through the local carrier `Axes` ([`rejecting_impl`]).
/// `None`: every axis, which fits every rank.
fn reduction_impls(axes: Option<&[DimLiteral]>, keepdim: bool) -> Vec<TokenStream> {
    (0..=MAX_RANK)
        .map(|rank| {
            let dims = dim_params("A", rank);
            let Some(reduced) = reduced_dims(axes, rank) else {
                let verdict = quote!(::tensor_expr::__private::rules::CannotReduce);
                let (rule, carrier) = (
                    Ident::new("Reduce", Span::call_site()),
                    Ident::new("Axes", Span::call_site()),
                );
                return if rank == 0 {
                    rejecting_scalar_impl(&rule, verdict, &carrier, &["Kept", "Output"])
                } else {
                    rejecting_impl(
                        &dims,
                        &dims,
                        quote!(#rule),
                        verdict,
                        quote!(#carrier<Self>),
                        &["Kept", "Output"],
                    )
                };
            };
            let kept: Vec<TokenStream> = dims
                .iter()
                .enumerate()
                .map(|(k, d)| {
                    if reduced.contains(&k) {
                        quote!(One)
                    } else {
                        d.to_token_stream()
                    }
                })
                .collect();
            let output: Vec<TokenStream> = if keepdim {
                kept.clone()
            } else {
                dims.iter()
                    .enumerate()
                    .filter(|(k, _)| !reduced.contains(k))
                    .map(|(_, d)| d.to_token_stream())
                    .collect()
            };
            quote! {
                #[diagnostic::do_not_recommend]
                impl<#(#dims: Dim),*> Reduce for (#(#dims,)*) {
                    type Kept = (#(#kept,)*);
                    type Output = (#(#output,)*);
                }
            }
        })
        .collect()
}

/// The dims of a rank-`rank` shape that `axes` name (negative ones counted
/// from the end), or `None` if one is out of range or named twice.
fn reduced_dims(axes: Option<&[DimLiteral]>, rank: usize) -> Option<Vec<usize>> {
    let Some(axes) = axes else {
        return Some((0..rank).collect());
    };
    let mut reduced = Vec::new();
    for axis in axes {
        let index = if axis.value < 0 {
            axis.value + rank as i128
        } else {
            axis.value
        };
        if index < 0 || index >= rank as i128 || reduced.contains(&(index as usize)) {
            return None;
        }
        reduced.push(index as usize);
    }
    Some(reduced)
}

/// `permute(x, [p0, p1, ..])`: a strided leaf over `x`'s data whose layout is a
/// local type, implemented for the list's rank only (the macro has checked it
/// is a permutation); a local trait carries the rank rule and its message.
fn permute(perm: &[DimLiteral], span: Span, context: &Ident, operand: &Ident) -> TokenStream {
    let order: Vec<usize> = perm.iter().map(|p| p.value as usize).collect();
    let listed = format!("{order:?}");
    let message = format!(
        "`permute(.., {listed})` needs an operand of rank {}, and shape `{{Operand}}` is not",
        order.len()
    );
    let label = format!("permuting `{{Operand}}` by {listed}");
    let note = "the list gives, for each dim of the result, the dim of the operand it reads: one entry per dim";
    let dims = dim_params("A", order.len());
    let permuted: Vec<&Ident> = order.iter().map(|&p| &dims[p]).collect();
    let rank = order.len();
    let order = order.iter().map(|&p| Literal::usize_unsuffixed(p));
    // Every other rank is rejected through the local carrier `PermuteRank`.
    let (rule, carrier) = (
        Ident::new("Permute", Span::call_site()),
        Ident::new("PermuteRank", Span::call_site()),
    );
    let other_ranks = (0..=MAX_RANK).filter(|&r| r != rank).map(|r| {
        let dims = dim_params("A", r);
        if r == 0 {
            rejecting_scalar_impl(&rule, quote!(CannotPermute), &carrier, &["Read"])
        } else {
            rejecting_impl(
                &dims,
                &dims,
                quote!(#rule),
                quote!(CannotPermute),
                quote!(#carrier<Self>),
                &["Read"],
            )
        }
    });
    quote_spanned!(span=> {
        use ::tensor_expr::__private::{expr::{permuted_strides, Contiguous, Context, Layout, Operand, RowMajor, StridedLeaf}, rules::{permute::CannotPermute, Holds}, Dim, Shape, MAX_RANK};
        #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
        trait PermuteRank<Operand, Anchor = ()> {
            type Read: Layout;
        }
        #[diagnostic::do_not_recommend]
        impl<Operand: Shape, Anchor, Verdict: Holds> PermuteRank<Operand, Anchor> for Verdict {
            type Read = RowMajor<Operand>;
        }
        // `Anchor`: see `rejecting_scalar_impl`.
        trait Permute<Anchor = ()> {
            type Read: Layout;
        }
        #(#other_ranks)*
        struct Permuted<S>(::core::marker::PhantomData<S>);
        impl<#(#dims: Dim),*> Layout for Permuted<(#(#dims,)*)> {
            type Shape = (#(#permuted,)*);
            const STRIDES: [usize; MAX_RANK] = permuted_strides(<(#(#dims,)*) as Shape>::DIMS, &[#(#order),*]);
            const DATA_LEN: usize = <(#(#dims,)*) as Shape>::LEN;
        }
        #[diagnostic::do_not_recommend]
        impl<#(#dims: Dim),*> Permute for (#(#dims,)*) {
            type Read = Permuted<Self>;
        }
        #[inline]
        #[allow(clippy::type_complexity)]
        fn permute<'a, T, M, X: Operand<T> + ?Sized>(
            _context: Context<T, M>,
            operand: &'a X,
        ) -> StridedLeaf<'a, X::Element, <X::Shape as Permute>::Read>
        where
            X::Shape: Permute,
            X::Layout: Contiguous,
            X::Element: 'a,
        {
            StridedLeaf::new(Operand::elements(operand))
        }
        permute(#context, #operand)
    })
}

/// The impls of the local `Place` trait: one for every rank of the operand
/// (0 to `MAX_RANK`) and of the other operand (1 to `MAX_RANK`). Where the
/// tuple fits both ranks, the placed shape must fit the other operand
/// (`PlacedFits`); every other pair is rejected through the local carrier
/// `InDims` ([`rejecting_impl`]), rather than left without an impl.
fn in_dims_impls(positions: &[usize]) -> Vec<TokenStream> {
    let lowest_rank = positions
        .last()
        .map_or(0, |&last| last + 1)
        .max(positions.len());
    let mut impls = Vec::new();
    for operand_rank in 0..=MAX_RANK {
        let operand_dims = dim_params("X", operand_rank);
        for rank in 1..=MAX_RANK {
            let other_dims = dim_params("O", rank);
            let generics: Vec<Ident> = operand_dims.iter().chain(&other_dims).cloned().collect();
            let operand = quote!((#(#operand_dims,)*));
            let other = quote!((#(#other_dims,)*));
            if operand_rank == rank && rank == positions.len() {
                // Legal, but the identity: `in_dims` bound to an operand of its
                // own rank, where a larger one was surely meant.
                impls.push(rejecting_impl(
                    &generics,
                    &other_dims,
                    quote!(Place<#operand>),
                    quote!(CannotPlace),
                    quote!(SameRank<#other, #operand>),
                    &["Placed"],
                ));
                continue;
            }
            if operand_rank != positions.len() || rank < lowest_rank {
                impls.push(rejecting_impl(
                    &generics,
                    &other_dims,
                    quote!(Place<#operand>),
                    quote!(CannotPlace),
                    quote!(InDims<#other, #operand>),
                    &["Placed"],
                ));
                continue;
            }
            let placed: Vec<TokenStream> = (0..rank)
                .map(|k| match positions.iter().position(|&p| p == k) {
                    Some(j) => operand_dims[j].to_token_stream(),
                    None => quote!(One),
                })
                .collect();
            impls.push(quote! {
                #[diagnostic::do_not_recommend]
                impl<#(#generics: Dim,)*> Place<#operand> for #other
                where
                    (#(#placed,)*): PlacedFits<#other>,
                {
                    type Placed = <(#(#placed,)*) as PlacedFits<#other>>::Placed;
                }
            });
        }
    }
    impls
}

/// `count` type parameters named `{prefix}0`, `{prefix}1`, ..: the dims of a
/// shape in a generated impl.
fn dim_params(prefix: &str, count: usize) -> Vec<Ident> {
    (0..count)
        .map(|k| Ident::new(&format!("{prefix}{k}"), Span::call_site()))
        .collect()
}

/// An impl of a local rule (`rule`, over the dims `generics`, for the shape of
/// the dims `self_dims`) where the rule cannot hold: it requires `carrier`, the local trait with
/// the message, of `verdict`, a type that implements nothing, and computes
/// each associated type in `assocs` through it.
///
/// Why an impl that fails rather than no impl (measured, rustc 1.95): rustc
/// then finds the mistake while it computes the node's type, and reports
/// `carrier`'s message once, with no note. With no impl for the shape, the
/// generated function's own bound fails first, and the error gains a note
/// pointing at that bound. `runtime/src/rules/mod.rs` describes the layout.
fn rejecting_impl(
    generics: &[Ident],
    self_dims: &[Ident],
    rule: TokenStream,
    verdict: TokenStream,
    carrier: TokenStream,
    assocs: &[&str],
) -> TokenStream {
    rejecting(
        quote!(<#(#generics: Dim),*>),
        rule,
        quote!((#(#self_dims,)*)),
        verdict,
        carrier,
        assocs,
    )
}

/// [`rejecting_impl`] for a scalar operand: `impl<Anchor> Rule<Anchor> for ()`,
/// rejecting it through `Carrier<(), Anchor>`. The rule and the carrier take an
/// `Anchor` type parameter (default `()`, so every other impl and every bound
/// leaves it out) only for this impl: with no type parameter, its bound would
/// be trivially false, which rustc rejects; and with no impl for `()` at all,
/// the error would gain a note (see [`rejecting_impl`]).
fn rejecting_scalar_impl(
    rule: &Ident,
    verdict: TokenStream,
    carrier: &Ident,
    assocs: &[&str],
) -> TokenStream {
    rejecting(
        quote!(<Anchor>),
        quote!(#rule<Anchor>),
        quote!(()),
        verdict,
        quote!(#carrier<(), Anchor>),
        assocs,
    )
}

/// `impl #generics #rule for #self_ty where #verdict: #carrier`, each of
/// `assocs` projected through the carrier.
fn rejecting(
    generics: TokenStream,
    rule: TokenStream,
    self_ty: TokenStream,
    verdict: TokenStream,
    carrier: TokenStream,
    assocs: &[&str],
) -> TokenStream {
    let assocs: Vec<Ident> = assocs
        .iter()
        .map(|a| Ident::new(a, Span::call_site()))
        .collect();
    quote! {
        #[diagnostic::do_not_recommend]
        impl #generics #rule for #self_ty
        where
            #verdict: #carrier,
        {
            #(type #assocs = <#verdict as #carrier>::#assocs;)*
        }
    }
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
