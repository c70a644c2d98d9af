//! The expression tree as a sequence of `let`s: [`TreeBuilder`] walks the
//! validated [`Expr`], emits one constructor call per node (children first),
//! each spanned where its errors belong, and collects the operands' borrows
//! and placement votes on the way. This module builds the nodes and shares
//! repeated ones; its children hold the other jobs, each an `impl
//! TreeBuilder` of its own: the table's operations and their witnesses
//! (`operation`), element-type scopes (`scope`), folded chains (`fold`),
//! and operands, borrows and placement (`placement`).

use super::{at, local, local_rules, runtime, stage_placement, target_span, TARGET_NAME};
use crate::ast::{BinaryOp, DimList, Expr, OpCall, Operand, OptionArg};
use crate::fold_paths;
use crate::share;
use crate::stage;
use proc_macro2::{Delimiter, Ident, Literal, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens};
use std::collections::HashMap;
use tensor_expr_catalog::operation::{keyword_type, Build, Dims};

mod fold;
mod operation;
mod placement;
mod scope;

use placement::Vote;
use scope::Scope;

/// The other operand of an `in_dims`, whose shape it is placed on.
pub(super) enum Other {
    /// A node already built.
    Node(Ident),
    /// The assignment target (`out += in_dims(v, [0])`).
    Target,
}

/// A compile error at `span` standing for a node: for states validation
/// and staging rule out, so the macro reports rather than panics.
fn error(span: Span, message: &str) -> (Span, TokenStream) {
    (span, syn::Error::new(span, message).to_compile_error())
}

/// `IntLiteral::<{ value }>`: an integer literal, which takes the
/// expression's element type.
fn int_literal(value: i128, span: Span) -> TokenStream {
    let rt = runtime(span);
    let value = Literal::i128_suffixed(value);
    quote_spanned!(span=> #rt::expr::IntLiteral::<{ #value }>)
}

/// Collects the `let`s of the expansion.
pub(super) struct TreeBuilder {
    /// The user's operands (`__tensor_expr_opN` and `&operand`), in source
    /// order, and the target's reborrow: bound by one `let` of a tuple, so no
    /// operand can see another's generated name (hygiene: a user variable named
    /// `__tensor_expr_op0` stays the user's).
    operand_bindings: Vec<(Ident, TokenStream)>,
    /// A target written as a call (`y.narrow_mut::<0, 2, 4>()`): its value,
    /// a view that borrows the tensor, bound by a `let` of its own before
    /// the operands, so the reborrow does not outlive it.
    target_owner: Option<TokenStream>,
    /// `let __tensor_expr_nodeN = constructor(..);`, children before parents.
    node_lets: Vec<TokenStream>,
    operands: usize,
    nodes: usize,
    /// The assignment target's tokens: an operand equal to it is read in place.
    target: Option<String>,
    /// The span of the last node built, which is the root once the tree is done.
    root_span: Span,
    /// The element-type scopes: the whole expression's first, then one per
    /// cast's input, in the order they are entered.
    scopes: Vec<Scope>,
    /// The scope being built and those enclosing it, innermost last.
    open_scopes: Vec<usize>,
    /// The mode marker: `Numpy` or `Strict`.
    mode: TokenStream,
    /// The sharing identity of every node of the value ([`share`]).
    keys: share::Keys,
    /// How often each shareable subexpression is written, by its id.
    repeats: HashMap<usize, usize>,
    /// The node holding each shared subexpression built so far, by its id.
    shared: HashMap<usize, Ident>,
    /// The unfolded depth of every node, to find the paths to fold ([`fold_paths`]).
    depths: fold_paths::Depths,
    /// Each operand, located where its leaf is built, and each stage's
    /// placement: together they decide where a new tensor goes.
    placements: Vec<Vote>,
    /// The names of the stages this expression reads, as written in operands.
    stage_names: Vec<String>,
    /// The binding of each plain operand borrowed so far, by its tokens as
    /// written: a path written again is read through the same borrow.
    plain_operands: HashMap<String, Ident>,
    /// Whether an operation [computed into the
    /// target](tensor_expr_catalog::operation::Reads::computed_into_target)
    /// is built by its `_into` form, given the target (set for the one
    /// stage that is the whole value of `out = ..`).
    into_target: bool,
}

impl TreeBuilder {
    /// A builder for `value`, written into `target` if given.
    pub(in crate::expand) fn new(
        strict: bool,
        value: &Expr,
        target: Option<&TokenStream>,
        stages: &[stage::Stage],
    ) -> Self {
        let mode = if strict {
            quote!(Strict)
        } else {
            quote!(Numpy)
        };
        let mut builder = TreeBuilder {
            operand_bindings: Vec::new(),
            target_owner: None,
            node_lets: Vec::new(),
            operands: 0,
            nodes: 0,
            target: None,
            root_span: Span::call_site(),
            scopes: vec![Scope::new(local("context"))],
            open_scopes: vec![0],
            mode: quote!(::tensor_expr::__private::rules::rank::#mode),
            keys: share::Keys::of(value, target.map(ToString::to_string).as_deref()),
            repeats: HashMap::new(),
            shared: HashMap::new(),
            depths: fold_paths::Depths::of(value),
            placements: Vec::new(),
            stage_names: stages.iter().map(|s| s.name.to_string()).collect(),
            plain_operands: HashMap::new(),
            into_target: false,
        };
        builder.repeats = builder.keys.repeats(value);
        if let Some(target) = target {
            builder.target = Some(target.to_string());
            let name = local(TARGET_NAME);
            // A call gives a temporary view: bound first, then reborrowed.
            let written_as_call = matches!(
                target.clone().into_iter().last(),
                Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis
            );
            let span = target_span(target);
            let target = if written_as_call {
                let owner = at(&local("target_owner"), span);
                builder.target_owner = Some(quote_spanned!(span=> let mut #owner = #target;));
                quote!(#owner)
            } else {
                target.clone()
            };
            let reborrow = quote_spanned!(span=> {
                use ::tensor_expr::__private::access::Target as _;
                (#target).as_target()
            });
            builder.operand_bindings.push((name.clone(), reborrow));
            let mode = &builder.mode;
            builder.scopes[0].source =
                Some(quote!(::tensor_expr::__private::expr::target_context(#mode, &*#name)));
        }
        builder
    }

    /// Builds an operation computed into the target by its `_into` form,
    /// which writes the target (see [`TreeBuilder::into_target`]).
    pub(in crate::expand) fn compute_into_target(&mut self) {
        self.into_target = true;
    }

    /// The block: operands, context, nodes, then `finish`.
    pub(in crate::expand) fn finish(self, finish: TokenStream) -> TokenStream {
        let (bindings, nodes, mode) = (self.operand_bindings, self.node_lets, self.mode);
        let owner = self.target_owner;
        let contexts = self.scopes.into_iter().map(|scope| {
            let context = scope.context;
            let source = scope.source.unwrap_or_else(|| {
                let element = scope.cast_type.unwrap_or_else(|| quote!(_));
                quote!(::tensor_expr::__private::expr::inferred_context::<#element, _>(#mode))
            });
            quote!(let #context = #source;)
        });
        let (names, values): (Vec<_>, Vec<_>) = bindings.into_iter().unzip();
        quote!({
            #owner
            let (#(#names,)*) = (#(#values,)*);
            #(#contexts)*
            #(#nodes)*
            #finish
        })
    }

    /// Emits the node for `expr` (after its children) and returns its name.
    /// `other` is the other operand of the enclosing operation, for `in_dims`.
    pub(in crate::expand) fn node(&mut self, expr: &Expr, other: Option<Other>) -> Ident {
        let Some(key) = self.shared_key(expr) else {
            return self.unshared_node(expr, other);
        };
        let store = match self.shared.get(&key) {
            Some(store) => store.clone(),
            None => {
                let built = self.unshared_node(expr, other);
                let caches_rows = expr.as_op().is_some_and(|call| call.op.reads.caches_rows());
                let store = if caches_rows {
                    built
                } else {
                    let span = self.root_span;
                    let (rt, context, built) =
                        (runtime(span), at(self.context(), span), at(&built, span));
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
    fn shared_key(&self, expr: &Expr) -> Option<usize> {
        self.keys
            .shareable(expr)
            .filter(|id| self.repeats.get(id).is_some_and(|&n| n > 1))
    }

    /// [`Self::node`] for a subexpression built where it is written: one
    /// method per kind of node, each giving the node's span and constructor.
    fn unshared_node(&mut self, expr: &Expr, other: Option<Other>) -> Ident {
        if let Some(spine) =
            fold_paths::foldable_spine(expr, &self.depths, |e| self.shared_key(e).is_some())
        {
            let (span, value) = self.fold(spine);
            return self.push_node(span, value);
        }
        let (span, value) = match expr {
            Expr::Operand(Operand { tokens, span }) => (*span, self.operand(tokens, *span)),
            Expr::IntLiteral { value, span } => (*span, int_literal(*value, *span)),
            Expr::FloatLiteral { literal } => self.float_literal(literal),
            Expr::Negate { span, operand } => self.negate(operand, *span),
            Expr::Binary {
                op: BinaryOp::MatMul,
                span,
                lhs,
                rhs,
            } => self.matmul(lhs, rhs, *span),
            Expr::Binary { op, span, lhs, rhs } => self.elementwise(*op, lhs, rhs, *span),
            Expr::Call { name, args } => self.call(name, args),
            Expr::Op(call) => self.op(call, other),
        };
        self.push_node(span, value)
    }

    /// An unsuffixed float literal, in the expression's float type.
    fn float_literal(&self, literal: &syn::LitFloat) -> (Span, TokenStream) {
        let span = literal.span();
        let (rt, context) = self.located(span);
        let call = quote_spanned!(span=> #rt::expr::float_literal(#context, #literal));
        (span, call)
    }

    /// `-operand`, spanned on the `-`.
    fn negate(&mut self, operand: &Expr, span: Span) -> (Span, TokenStream) {
        let operand = at(&self.node(operand, None), span);
        let (rt, context) = self.located(span);
        let call =
            quote_spanned!(span=> #rt::expr::map1(#context, #rt::expr::operators::neg, #operand));
        (span, call)
    }

    /// `lhs @ rhs`, spanned on the `@`.
    fn matmul(&mut self, lhs: &Expr, rhs: &Expr, span: Span) -> (Span, TokenStream) {
        let (lhs, rhs) = self.pair(lhs, rhs, span);
        let (rt, context) = self.located(span);
        let call = quote_spanned!(span=> #rt::expr::matmul(#context, #lhs, #rhs));
        (span, call)
    }

    /// An elementwise operator or comparison, spanned on the operator.
    fn elementwise(
        &mut self,
        op: BinaryOp,
        lhs_expr: &Expr,
        rhs_expr: &Expr,
        span: Span,
    ) -> (Span, TokenStream) {
        let (lhs, rhs) = self.pair(lhs_expr, rhs_expr, span);
        let rt = runtime(span);
        let context = self.context_over(span, &[lhs_expr, rhs_expr]);
        let marker = Ident::new(op.marker(), span);
        let call = quote_spanned!(span=> #rt::expr::map2(#context, #rt::expr::operators::#marker, #lhs, #rhs));
        (span, call)
    }

    /// A function of the table, spanned on its name; two arguments are a
    /// pair, so an `in_dims` among them is placed on the other.
    fn call(&mut self, name: &syn::Ident, args: &[Expr]) -> (Span, TokenStream) {
        let span = name.span();
        let exprs: Vec<&Expr> = args.iter().collect();
        let nodes: Vec<Ident> = match args {
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
        let map = Ident::new(&format!("map{}", nodes.len()), span);
        let call = quote_spanned!(span=> #rt::expr::#map(#context, #rt::expr::functions::#name, #(#nodes),*));
        (span, call)
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
        let (rt, context) = self.located(span);
        if operands.len() >= 2 && operands.iter().any(|operand| operand.drops_axes()) {
            quote_spanned!(span=> #rt::expr::after_reduction(#context))
        } else {
            context.into_token_stream()
        }
    }
}
