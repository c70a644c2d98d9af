//! The expression tree as a sequence of `let`s: [`TreeBuilder`] walks the
//! validated [`Expr`], emits one constructor call per node (children first),
//! each spanned where its errors belong, and collects the operands' borrows
//! and placement votes on the way.

use super::{at, local, local_rules, runtime, stage_placement, target_span, TARGET_NAME};
use crate::ast::{BinaryOp, DimList, Expr, OpCall, Operand, OptionArg};
use crate::fold_paths;
use crate::share;
use crate::stage;
use proc_macro2::{Delimiter, Ident, Literal, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned, ToTokens};
use std::collections::HashMap;
use tensor_expr_catalog::operation::{Build, Dims};

/// A group of fold steps this large is bound to a `let` (see
/// [`TreeBuilder::steps_group`]); check time is flat between 16 and 64.
const BOUND_GROUP_STEPS: usize = 16;

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
}

/// Where the element type of part of an expression comes from: the whole
/// expression's, or the input of a cast (`cast::<i32>(x)` reads `x` as
/// `x`'s own elements). Each scope has its own context local.
struct Scope {
    /// The local holding the scope's context, which every constructor in
    /// the scope receives.
    context: Ident,
    /// The target's context (for the whole expression of an assignment),
    /// else the first operand's in the scope.
    source: Option<TokenStream>,
    /// The type of the first cast directly in the scope: the element type
    /// where no operand gives one (`cast::<i8>(cast::<i32>(x) @ w2)`).
    cast_type: Option<TokenStream>,
}

impl Scope {
    fn new(context: Ident) -> Scope {
        Scope {
            context,
            source: None,
            cast_type: None,
        }
    }
}

/// One vote for where a new tensor goes.
enum Vote {
    /// A user's operand, with the context of its scope: its own placement.
    Operand(Ident, Ident),
    /// A stage: the placement its operands voted for.
    Stage(Ident),
}

impl TreeBuilder {
    /// A builder for `value`, written into `target` if given.
    pub(super) fn new(
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

    /// The block: operands, context, nodes, then `finish`.
    pub(super) fn finish(self, finish: TokenStream) -> TokenStream {
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
    pub(super) fn node(&mut self, expr: &Expr, other: Option<Other>) -> Ident {
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

    /// A call of an operation of the table, spanned on its name: its input
    /// nodes (an operation that reads in place borrows its operands, located
    /// where its rule is checked), then the node its [`Build`] says.
    fn op(&mut self, call: &OpCall, other: Option<Other>) -> (Span, TokenStream) {
        let (span, check_span) = (call.name.span(), call.dims_span());
        // A conversion's input is built in a scope of its own element type.
        let inner_context = call
            .op
            .reads
            .scopes_input_element_type()
            .then(|| self.enter_scope(call));
        let mut inputs = Vec::new();
        for input in &call.inputs {
            if call.op.reads.reads_converted_inputs() {
                let Some(input) = self.tiled_input(input, check_span) else {
                    // Staging made every other input an operand.
                    return error(span, "a convolution or pool reads stored operands");
                };
                inputs.push(at(&input, check_span));
            } else if call.op.reads.borrows_stored_inputs() {
                let Expr::Operand(operand) = input else {
                    // Staging made every such input an operand (validation
                    // reports positions given as an expression).
                    return error(span, "an operation that reads in place needs an operand");
                };
                let input = if call.positions_input() == Some(inputs.len()) {
                    self.borrow_positions(&operand.tokens, operand.span)
                } else {
                    self.borrow_operand(&operand.tokens, operand.span, check_span)
                };
                inputs.push(at(&input, check_span));
            } else {
                inputs.push(self.node(input, None));
            }
        }
        if inner_context.is_some() {
            self.leave_scope();
        }
        let Some(input) = inputs.first().cloned() else {
            return error(span, "an operation needs an input");
        };
        let context = at(self.context(), check_span);
        let dims = call.dim_values().unwrap_or_default();
        match (call.op.build, call.op.signature.dims) {
            (
                Build::Node {
                    constructor,
                    marker,
                },
                _,
            ) => {
                let witness = self.op_witnesses(call, &input);
                let options = self.option_witnesses(call);
                // A path under `ops`, or under the runtime's root where it
                // starts with `crate::` (a constructor that builds tensors,
                // in a layer above the operations).
                let path = |path: &str| {
                    let rt = runtime(span);
                    let (root, path) = match path.strip_prefix("crate::") {
                        Some(path) => (quote_spanned!(span=> #rt), path),
                        None => (quote_spanned!(span=> #rt::ops), path),
                    };
                    let parts = path.split("::").map(|part| Ident::new(part, span));
                    quote_spanned!(span=> #root #(::#parts)*)
                };
                let (constructor, marker) = (path(constructor), marker.map(path).into_iter());
                let context = at(self.context(), span);
                let inner_context = inner_context.map(|inner| at(&inner, span)).into_iter();
                let inputs = inputs.iter().map(|input| at(input, span));
                // An operation that reads whole matrices takes two inputs
                // as one pair (`linalg::operations::OperandPair`).
                let inputs = if call.op.reads.reads_whole_matrices() && call.inputs.len() > 1 {
                    let inputs = inputs.collect::<Vec<_>>();
                    quote_spanned!(span=> (#(#inputs),*))
                } else {
                    quote_spanned!(span=> #(#inputs),*)
                };
                let node = quote_spanned!(span=> #constructor(#context, #(#inner_context,)* #(#marker,)* #(#witness,)* #(#options,)* #inputs));
                (span, node)
            }
            (Build::ByDimsRule, Dims::Permutation) => (
                span,
                local_rules::permute(dims, check_span, &context, &input),
            ),
            (Build::ByDimsRule, Dims::Positions) => {
                let Some(other) = other else {
                    // Validation reports this first; an error here, never a panic.
                    return error(check_span, "`in_dims` needs another operand");
                };
                let other = self.shape_witness(other, check_span);
                let leaf = local_rules::in_dims(dims, check_span, &context, &input, other);
                (check_span, leaf)
            }
            _ => error(
                span,
                "this operation is not built as a node of the expression",
            ),
        }
    }

    /// An input of a convolution or pool: a stored operand read as it is, or
    /// `cast::<U>(x)` (`+ c`, `- c`) read from `x`'s own elements, each
    /// checked at `check_span`.
    fn tiled_input(&mut self, input: &Expr, check_span: Span) -> Option<Ident> {
        let rt = runtime(check_span);
        let inputs = quote_spanned!(check_span=> #rt::ops::conv::inputs);
        if let Expr::Operand(operand) = input {
            let name = self.borrow_operand(&operand.tokens, operand.span, check_span);
            let (context, name) = (at(self.context(), check_span), at(&name, check_span));
            let node = quote_spanned!(check_span=> #inputs::stored(#context, #name));
            return Some(self.push_node(check_span, node));
        }
        let widened = input.widened_operand()?;
        let inner = self.enter_scope(widened.cast);
        let operand = widened.operand;
        let name = self.borrow_operand(&operand.tokens, operand.span, check_span);
        self.leave_scope();
        let span = widened.cast.name.span();
        let to = widened.cast.type_arg.as_ref()?;
        let (context, inner, name) = (at(self.context(), span), at(&inner, span), at(&name, span));
        let node = quote_spanned!(span=> #inputs::widened(#context, #inner, #rt::ops::witness::<#to>(), #name));
        let mut node = self.push_node(span, node);
        if let Some((op, constant)) = widened.offset {
            let constant = at(&self.node(constant, None), span);
            let context = at(self.context(), span);
            let offset = Ident::new(if op == BinaryOp::Add { "plus" } else { "minus" }, span);
            let value = quote_spanned!(span=> #inputs::scalar_value(#context, #constant));
            node = self.push_node(span, quote_spanned!(span=> #inputs::#offset(#node, #value)));
        }
        Some(node)
    }

    /// The witnesses a constructor gets after the context (and marker): the
    /// axes rule's kept and result shapes for an axis list, checked on the
    /// list; then the type argument, on the type (where a shape's element
    /// count that cannot be made is reported).
    fn op_witnesses(&self, call: &OpCall, input: &Ident) -> Vec<TokenStream> {
        let check_span = call.dims_span();
        let mut witnesses = Vec::new();
        if call.op.signature.dims == Dims::AxisList {
            let (context, checked) = (at(self.context(), check_span), at(input, check_span));
            let (name, axes, keepdim) = (&call.name, call.dim_values(), call.keepdim);
            witnesses.push(local_rules::axes(
                name, axes, check_span, keepdim, &context, &checked,
            ));
        }
        if let (Dims::SingleAxis, Some([axis])) = (call.op.signature.dims, call.dim_values()) {
            let rt = runtime(check_span);
            let axis = Literal::usize_unsuffixed(axis.value as usize);
            witnesses
                .push(quote_spanned!(check_span=> #rt::ops::witness::<#rt::ops::Axis<#axis>>()));
        }
        if let (Dims::Sizes(lengths), Some(list)) = (call.op.signature.dims, &call.dims) {
            // One size serves every spatial dim.
            let dims = lengths.iter().max().copied().unwrap_or(1);
            let mut sizes = list.clone();
            if let [one] = list.dims[..] {
                sizes.dims = vec![one; dims];
            }
            witnesses.push(shape_witness(&sizes));
        }
        if let Some(type_arg) = &call.type_arg {
            let type_span = syn::spanned::Spanned::span(&**type_arg);
            let rt = runtime(type_span);
            witnesses.push(quote_spanned!(type_span=> #rt::ops::witness::<#type_arg>()));
        }
        witnesses
    }

    /// One witness per option of the signature, in its order, each on its
    /// list: the values as a shape type (`stride = [2, 2]` as
    /// `(D<2>, D<2>)`), `()` for an option the call leaves out.
    fn option_witnesses(&self, call: &OpCall) -> Vec<TokenStream> {
        let span = call.name.span();
        let options = call.op.signature.options.iter();
        options
            .map(|option| {
                let given = call.options.iter().find(|given| given.name == option.name);
                match given {
                    Some(OptionArg {
                        keyword: Some(keyword),
                        ..
                    }) => {
                        let rt = runtime(keyword.span());
                        quote_spanned!(keyword.span()=> #rt::ops::witness::<#rt::ops::keyword::#keyword>())
                    }
                    Some(given) if option.negative => offset_witness(&given.list),
                    Some(given) if given.sides => sides_witness(&given.list),
                    Some(given) => shape_witness(&given.list),
                    None => {
                        let rt = runtime(span);
                        quote_spanned!(span=> #rt::ops::witness::<()>())
                    }
                }
            })
            .collect()
    }

    /// The runtime path and the context, both located at `span`: what every
    /// constructor call spanned there starts with.
    pub(super) fn located(&self, span: Span) -> (TokenStream, Ident) {
        (runtime(span), at(self.context(), span))
    }

    /// Opens the scope of a conversion's input and returns its context
    /// local; the conversion's type is the enclosing scope's element type
    /// if no operand there gives one.
    fn enter_scope(&mut self, call: &OpCall) -> Ident {
        let enclosing = self.scope_index();
        if let Some(to) = &call.type_arg {
            self.scopes[enclosing]
                .cast_type
                .get_or_insert_with(|| to.to_token_stream());
        }
        let context = local(&format!("context{}", self.scopes.len()));
        self.open_scopes.push(self.scopes.len());
        self.scopes.push(Scope::new(context.clone()));
        context
    }

    /// Closes the scope [`Self::enter_scope`] opened last.
    fn leave_scope(&mut self) {
        self.open_scopes.pop();
    }

    /// The context local of the scope being built.
    fn context(&self) -> &Ident {
        &self.scopes[self.scope_index()].context
    }

    /// The index of the scope being built.
    fn scope_index(&self) -> usize {
        self.open_scopes.last().copied().unwrap_or(0)
    }

    /// A long path of elementwise operations as the runtime's fold node (see
    /// [`fold_paths`]): the head, then each step checked and built in order, the
    /// steps assembled into a tree of groups as they come
    /// ([`fold_paths::StepsTree`]).
    fn fold(&mut self, spine: fold_paths::Spine) -> (Span, TokenStream) {
        let head = self.node(spine.head, None);
        let mut so_far = self.shape_witness_node(&head, self.root_span);
        let mut steps = fold_paths::StepsTree::new();
        for step in &spine.steps {
            let (checked, built) = self.fold_step(step, &so_far);
            so_far = self.shape_witness_node(&checked, step.function.span());
            let built = at(&built, self.root_span).into_token_stream();
            steps.push(built, |subtrees, steps| self.steps_group(&subtrees, steps));
        }
        let span = self.root_span;
        // Never empty: a spine has at least `MIN_FOLD_STEPS` steps.
        let tree = steps.finish(|subtrees, steps| self.steps_group(&subtrees, steps));
        let tree = tree.map_or_else(|| quote!(()), |(tree, _)| tree);
        let (rt, context) = self.located(span);
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
    fn fold_step(&mut self, step: &fold_paths::Step, so_far: &Ident) -> (Ident, Ident) {
        let span = step.function.span();
        let (rt, context) = self.located(span);
        let function = match &step.function {
            fold_paths::Function::Operator(marker, _) => {
                let marker = Ident::new(marker, span);
                quote_spanned!(span=> #rt::expr::operators::#marker)
            }
            fold_paths::Function::Named(name) => quote_spanned!(span=> #rt::expr::functions::#name),
        };
        let acc = at(so_far, span);
        let (check, built) = match step.place {
            fold_paths::Place::Only => (
                quote_spanned!(span=> #rt::expr::map1(#context, #function, #acc)),
                quote_spanned!(span=> #rt::expr::unary_step(#context, #function)),
            ),
            fold_paths::Place::Left(x) => {
                let x = self.side_node(x, so_far, span);
                (
                    quote_spanned!(span=> #rt::expr::map2(#context, #function, #acc, &#x)),
                    quote_spanned!(span=> #rt::expr::left_step(#context, #function, #x)),
                )
            }
            fold_paths::Place::Right(x) => {
                let x = self.side_node(x, so_far, span);
                (
                    quote_spanned!(span=> #rt::expr::map2(#context, #function, &#x, #acc)),
                    quote_spanned!(span=> #rt::expr::right_step(#context, #function, #x)),
                )
            }
            fold_paths::Place::First(b, c) => {
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

    /// A group of neighbouring subtrees of fold steps, `(s0, s1, ..)`, holding
    /// `steps` steps. A small group stays an expression, written into the
    /// group that takes it in; a group of [`BOUND_GROUP_STEPS`] steps or more
    /// is bound to a `let`. Both halves matter: every step node that waits
    /// unbound for the tree to finish is a local that rustc's borrow check
    /// keeps alive across the rest of the chain (quadratic in a long chain),
    /// and every bound group is a local whose whole type both checks walk
    /// again.
    fn steps_group(&mut self, subtrees: &[TokenStream], steps: usize) -> TokenStream {
        let group = quote!((#(#subtrees,)*));
        if steps < BOUND_GROUP_STEPS {
            return group;
        }
        let span = self.root_span;
        at(&self.push_node(span, group), span).into_token_stream()
    }

    /// A fold step's other argument, located at the step's `span`; an `in_dims`
    /// there is placed on the shape of the path so far.
    fn side_node(&mut self, side: &Expr, so_far: &Ident, span: Span) -> Ident {
        let other = side.is_in_dims().then(|| Other::Node(so_far.clone()));
        at(&self.node(side, other), span)
    }

    /// `let __tensor_expr_nodeN = shape_of(node);`: a node's shape as a witness.
    fn shape_witness_node(&mut self, node: &Ident, span: Span) -> Ident {
        let (rt, context, node) = (runtime(span), at(self.context(), span), at(node, span));
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
        let (rt, context) = self.located(span);
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
                let (context, node) = (at(self.context(), span), at(&node, span));
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
            let mode = &self.mode;
            self.note_source(quote_spanned!(span=> #rt::expr::target_context(#mode, &*#target)));
            return quote_spanned!(span=> #rt::expr::target_leaf(&*#target));
        }
        let name = self.borrow_operand(tokens, span, span);
        let context = at(self.context(), span);
        quote_spanned!(span=> #rt::expr::operand(#context, #name))
    }

    /// The tree of an expression to evaluate into a new tensor: its span, its
    /// root located there, and where the new tensor goes.
    pub(super) fn evaluation(&mut self, expr: &Expr) -> (Span, Ident, Ident) {
        let root = self.node(expr, None);
        let span = self.root_span;
        let rt = runtime(span);
        let placement = self.placement(span, quote_spanned!(span=> #rt::access::Stack));
        (span, at(&root, span), placement)
    }

    /// The placements of an assignment's target and operands joined, located
    /// at `span`: what the assignment checks its run-time rows against
    /// (`target` is the reborrowed target's name).
    pub(super) fn assignment_placement(&mut self, span: Span, target: &Ident) -> Ident {
        let rt = runtime(span);
        self.placement(
            span,
            quote_spanned!(span=> #rt::placement::target_placement(&*#target)),
        )
    }

    /// Where a new tensor goes: the placements of all operands joined with
    /// `first` (the heap if any operand is on the heap; the rows of operands
    /// whose first dim is `Dyn`), located at `span`.
    /// (One `let` per operand, rather than nested calls, keeps the code flat
    /// for expressions of hundreds of operands.)
    fn placement(&mut self, span: Span, first: TokenStream) -> Ident {
        let rt = runtime(span);
        let name = at(&local("placement"), span);
        self.node_lets
            .push(quote_spanned!(span=> let #name = #first;));
        for vote in std::mem::take(&mut self.placements) {
            let vote = match vote {
                Vote::Operand(operand, context) => {
                    let span = operand.span();
                    let (rt, context, so_far) =
                        (runtime(span), at(&context, span), at(&name, span));
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
    ///
    /// An operand without brackets (a path, a field, `&x`, a suffixed literal)
    /// has no side effect, so the same one written again is read through its
    /// first borrow: a chain of 200 terms over `a` and `v` borrows twice, not
    /// 200 times, and rustc's check of its lifetimes stays linear in the
    /// chain's length. An operand with a call, block or index in it is
    /// borrowed where it is written, so it is evaluated as often as written.
    fn borrow_operand(&mut self, tokens: &TokenStream, span: Span, check_span: Span) -> Ident {
        let written = tokens.to_string();
        let plain = !share::has_group(tokens);
        if let Some(name) = self.plain_operands.get(&written).filter(|_| plain) {
            let name = at(name, span);
            self.note_element_source(&name, span);
            return name;
        }
        let name = local(&format!("op{}", self.operands));
        if plain {
            self.plain_operands.insert(written.clone(), name.clone());
        }
        self.operands += 1;
        self.operand_bindings
            .push((name.clone(), quote_spanned!(span=> &#tokens)));
        self.placements
            .push(if self.stage_names.contains(&written) {
                Vote::Stage(stage_placement(&Ident::new(&written, Span::call_site())))
            } else {
                Vote::Operand(at(&name, check_span), self.context().clone())
            });
        let name = at(&name, span);
        self.note_element_source(&name, span);
        name
    }

    /// Binds a gather's positions: an operand over its
    /// own integer type, so it is not the scope's element source and casts
    /// no placement vote (which would read it over the scope's type).
    fn borrow_positions(&mut self, tokens: &TokenStream, span: Span) -> Ident {
        let name = local(&format!("op{}", self.operands));
        self.operands += 1;
        self.operand_bindings
            .push((name.clone(), quote_spanned!(span=> &#tokens)));
        at(&name, span)
    }

    /// Makes the operand bound to `name` the element source of the scope
    /// being built, if it is the scope's first.
    fn note_element_source(&mut self, name: &Ident, span: Span) {
        let (rt, mode) = (runtime(span), &self.mode);
        self.note_source(quote_spanned!(span=> #rt::expr::context_of(#mode, #name)));
    }

    /// Makes `source` the context of the scope being built, if it has none
    /// yet (its first operand, or the target read inside it).
    fn note_source(&mut self, source: TokenStream) {
        let scope = self.scope_index();
        self.scopes[scope].source.get_or_insert(source);
    }
}

/// A signed option's one value as its witness, on the value: `-1` as
/// `witness::<Offset<-1>>()`.
fn offset_witness(list: &DimList) -> TokenStream {
    let span = list.span;
    let rt = runtime(span);
    let value = list.dims.first().map_or(0, |d| d.value);
    let literal = Literal::i128_unsuffixed(value.abs());
    let value = if value < 0 {
        quote_spanned!(span=> { -#literal })
    } else {
        quote_spanned!(span=> #literal)
    };
    quote_spanned!(span=> #rt::ops::witness::<#rt::ops::Offset<#value>>())
}

/// A list of sizes as a shape-type witness, on the list: `[2, 3]` as
/// `witness::<(D<2>, D<3>)>()`.
/// The witness of values per side, `[[1, 2], [0, 1]]` as
/// `(Sides<D<1>, D<2>>, Sides<D<0>, D<1>>)`.
fn sides_witness(list: &DimList) -> TokenStream {
    let span = list.span;
    let rt = runtime(span);
    let pairs = list.dims.chunks(2).map(|pair| {
        let [before, after] =
            [&pair[0], &pair[1]].map(|d| Literal::usize_unsuffixed(d.value as usize));
        quote_spanned!(span=> #rt::ops::Sides<#rt::D<#before>, #rt::D<#after>>)
    });
    quote_spanned!(span=> #rt::ops::witness::<(#(#pairs,)*)>())
}

fn shape_witness(list: &DimList) -> TokenStream {
    let span = list.span;
    let rt = runtime(span);
    let dims = list
        .dims
        .iter()
        .map(|d| Literal::usize_unsuffixed(d.value as usize));
    quote_spanned!(span=> #rt::ops::witness::<(#(#rt::D<#dims>,)*)>())
}
