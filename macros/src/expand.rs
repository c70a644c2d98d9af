//! [`ast`](crate::ast) to Rust tokens. The output is a block that
//! 1. borrows every operand once, in source order (`let __tensor_expr_op0 = &x;`);
//! 2. binds the element type (the target's, else the first operand's) as a
//!    witness that every constructor receives, so `T` is known at each node;
//! 3. builds the expression tree node by node, each constructor call spanned on
//!    its operator or function name, so rustc reports a shape or element error
//!    there and nowhere else;
//! 4. hands the tree to the runtime's loop-nest driver: `evaluate` (new tensor),
//!    `assign` (`out = e`) or `update` (`out += e`, ...).
//!
//! Local names live in the reserved `__tensor_expr_` namespace (see [`at`] for why
//! they are not `mixed_site`), each in the macro's own block; paths are absolute (`::tensor_expr::__private`), so user items named `core` or
//! `Tensor` do not interfere. The output names no std item and no `unsafe`.

use crate::ast::{AssignOp, Expr, Statement};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned};

/// Expands a validated statement.
pub fn expand(statement: &Statement) -> TokenStream {
    let mut builder = TreeBuilder {
        operand_lets: Vec::new(),
        node_lets: Vec::new(),
        operands: 0,
        nodes: 0,
        target: None,
        root_span: Span::call_site(),
        element: local("element", 0),
        element_witness: None,
        target_let: None,
    };
    let target_local = local("target", 0);
    if let Statement::Assign { .. } = statement {
        let rt = runtime(Span::call_site());
        builder.element_witness = Some(quote!(#rt::expr::target_element(&*#target_local)));
    }
    let finish = match statement {
        Statement::Evaluate(expr) => {
            let (root, span) = (builder.node(expr), builder.root_span);
            let (root, rt) = (at(&root, span), runtime(span));
            quote_spanned!(span=> #rt::kernel::evaluate(#root))
        }
        Statement::Assign {
            target,
            op,
            op_span,
            value,
        } => {
            builder.target = Some(target.to_string());
            let root = at(&builder.node(value), *op_span);
            let rt = runtime(*op_span);
            let target_ref = at(&target_local, *op_span);
            let target_span = target
                .clone()
                .into_iter()
                .next()
                .map_or(*op_span, |t| t.span());
            builder.target_let = Some(quote_spanned!(target_span=>
                let #target_local = {
                    use ::tensor_expr::__private::kernel::Target as _;
                    (#target).as_target()
                };
            ));
            match op {
                AssignOp::Set => quote_spanned!(*op_span=> #rt::kernel::assign(#target_ref, #root)),
                AssignOp::Update(binary) => {
                    let marker = Ident::new(binary.marker(), *op_span);
                    quote_spanned!(*op_span=>
                        #rt::kernel::update(#target_ref, #rt::expr::operators::#marker, #root)
                    )
                }
            }
        }
    };
    let (operands, nodes) = (builder.operand_lets, builder.node_lets);
    let element = &builder.element;
    let witness = builder
        .element_witness
        .unwrap_or_else(|| quote!(::core::marker::PhantomData));
    let target_let = builder.target_let;
    quote!({
        #(#operands)*
        #target_let
        let #element = #witness;
        #(#nodes)*
        #finish
    })
}

/// `::tensor_expr::__private` carrying `span`, so a call built on it is reported
/// at `span`.
fn runtime(span: Span) -> TokenStream {
    quote_spanned!(span=> ::tensor_expr::__private)
}

/// Collects the `let`s of the expansion.
struct TreeBuilder {
    /// `let __tensor_expr_opN = &operand;`, in source order.
    operand_lets: Vec<TokenStream>,
    /// `let __tensor_expr_nodeN = constructor(..);`, children before parents.
    node_lets: Vec<TokenStream>,
    operands: usize,
    nodes: usize,
    /// The assignment target's tokens: an operand equal to it is read in place.
    target: Option<String>,
    /// The span of the last node built, which is the root once the tree is done.
    root_span: Span,
    /// The local holding the element-type witness every constructor receives.
    element: Ident,
    /// `let __tensor_expr_target0 = (out).as_target();` for assignments.
    target_let: Option<TokenStream>,
    /// Where the element type comes from: the target, else the first operand
    /// (else, for literals only, inference from the context).
    element_witness: Option<TokenStream>,
}

impl TreeBuilder {
    /// Emits the node for `expr` (after its children) and returns its name.
    fn node(&mut self, expr: &Expr) -> Ident {
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
                let (rt, element) = (runtime(span), at(&self.element, span));
                (
                    span,
                    quote_spanned!(span=> #rt::expr::float_literal(#element, #literal)),
                )
            }
            Expr::Negate { span, operand } => {
                let operand = at(&self.node(operand), *span);
                let (rt, element) = (runtime(*span), at(&self.element, *span));
                (
                    *span,
                    quote_spanned!(*span=> #rt::expr::map1(#element, #rt::expr::operators::neg, #operand)),
                )
            }
            Expr::Binary { op, span, lhs, rhs } => {
                let (lhs, rhs) = (at(&self.node(lhs), *span), at(&self.node(rhs), *span));
                let (rt, element) = (runtime(*span), at(&self.element, *span));
                let marker = Ident::new(op.marker(), *span);
                (
                    *span,
                    quote_spanned!(*span=> #rt::expr::map2(#element, #rt::expr::operators::#marker, #lhs, #rhs)),
                )
            }
            Expr::Call { name, args } => {
                let args: Vec<Ident> = args
                    .iter()
                    .map(|arg| at(&self.node(arg), name.span()))
                    .collect();
                let (rt, element) = (runtime(name.span()), at(&self.element, name.span()));
                let map = Ident::new(&format!("map{}", args.len()), name.span());
                let call = quote_spanned!(name.span()=>
                    #rt::expr::#map(#element, #rt::expr::functions::#name, #(#args),*)
                );
                (name.span(), call)
            }
        };
        let name = local("node", self.nodes);
        self.nodes += 1;
        self.root_span = span;
        // The `let` carries the node's span too: rustc checks the binding's type
        // there, and an error on the same span as the call's is reported once.
        self.node_lets
            .push(quote_spanned!(span=> let #name = #value;));
        name
    }

    /// A leaf: the target read in place, or a borrowed operand.
    fn operand(&mut self, tokens: &TokenStream, span: Span) -> TokenStream {
        let rt = runtime(span);
        if self.target.as_deref() == Some(tokens.to_string().as_str()) {
            let target = at(&local("target", 0), span);
            return quote_spanned!(span=> #rt::expr::target_leaf(&*#target));
        }
        let name = local("op", self.operands);
        self.operands += 1;
        self.operand_lets
            .push(quote_spanned!(span=> let #name = &#tokens;));
        let name = at(&name, span);
        if self.element_witness.is_none() {
            self.element_witness = Some(quote_spanned!(span=> #rt::expr::element_of(#name)));
        }
        let element = at(&self.element, span);
        quote_spanned!(span=> #rt::expr::operand(#element, #name))
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
fn local(kind: &str, index: usize) -> Ident {
    Ident::new(&format!("__tensor_expr_{kind}{index}"), Span::call_site())
}
