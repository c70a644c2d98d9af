//! [`ast`](crate::ast) to Rust tokens. The output is a block that
//! 1. borrows every operand once, in source order (`let __tensor_expr_op0 = &x;`);
//! 2. builds the expression tree node by node, each constructor call spanned on
//!    its operator or function name, so rustc reports a shape or element error
//!    there and nowhere else;
//! 3. hands the tree to the runtime's loop-nest driver: `evaluate` (new tensor),
//!    `assign` (`out = e`) or `update` (`out += e`, ...).
//!
//! Local names use `Span::mixed_site()`, so they cannot clash with the user's; paths
//! are absolute (`::tensor_expr::__private`), so user items named `core` or
//! `Tensor` do not interfere. The output names no std item and no `unsafe`.

use crate::ast::{AssignOp, Expr, Statement};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned};

/// Expands a validated statement.
pub fn expand(statement: &Statement) -> TokenStream {
    let mut builder = TreeBuilder::default();
    let finish = match statement {
        Statement::Evaluate(expr) => {
            let root = builder.node(expr);
            let rt = runtime(Span::call_site());
            quote!(#rt::kernel::evaluate(#root))
        }
        Statement::Assign { target, op, op_span, value } => {
            builder.target = Some(target.to_string());
            let root = builder.node(value);
            let rt = runtime(*op_span);
            match op {
                AssignOp::Set => quote_spanned!(*op_span=> #rt::kernel::assign(&mut #target, #root)),
                AssignOp::Update(binary) => {
                    let marker = Ident::new(binary.marker(), *op_span);
                    quote_spanned!(*op_span=>
                        #rt::kernel::update(&mut #target, #rt::expr::operators::#marker, #root)
                    )
                }
            }
        }
    };
    let lets = builder.lets;
    quote!({
        #(#lets)*
        #finish
    })
}

/// `::tensor_expr::__private` carrying `span`, so a call built on it is reported
/// at `span`.
fn runtime(span: Span) -> TokenStream {
    quote_spanned!(span=> ::tensor_expr::__private)
}

/// Emits one `let` per node, in evaluation order.
#[derive(Default)]
struct TreeBuilder {
    lets: Vec<TokenStream>,
    operands: usize,
    nodes: usize,
    /// The assignment target's tokens: an operand equal to it is read in place.
    target: Option<String>,
}

impl TreeBuilder {
    /// Emits the node for `expr` (after its children) and returns its name.
    fn node(&mut self, expr: &Expr) -> Ident {
        let value = match expr {
            Expr::Operand { tokens, span } => self.operand(tokens, *span),
            Expr::IntLiteral { value, span } => {
                let rt = runtime(*span);
                let value = Literal::i128_suffixed(*value);
                quote_spanned!(*span=> #rt::expr::IntLiteral::<{ #value }>)
            }
            Expr::FloatLiteral { literal } => {
                let rt = runtime(literal.span());
                quote_spanned!(literal.span()=> #rt::expr::FloatLiteral(#literal))
            }
            Expr::Negate { span, operand } => {
                let operand = self.node(operand);
                let rt = runtime(*span);
                quote_spanned!(*span=> #rt::expr::map1(#rt::expr::operators::neg, #operand))
            }
            Expr::Binary { op, span, lhs, rhs } => {
                let (lhs, rhs) = (self.node(lhs), self.node(rhs));
                let rt = runtime(*span);
                let marker = Ident::new(op.marker(), *span);
                quote_spanned!(*span=> #rt::expr::map2(#rt::expr::operators::#marker, #lhs, #rhs))
            }
            Expr::Call { name, args } => {
                let args: Vec<Ident> = args.iter().map(|arg| self.node(arg)).collect();
                let rt = runtime(name.span());
                let map = Ident::new(&format!("map{}", args.len()), name.span());
                quote_spanned!(name.span()=> #rt::expr::#map(#rt::expr::functions::#name, #(#args),*))
            }
        };
        let name = local("node", self.nodes);
        self.nodes += 1;
        self.lets.push(quote!(let #name = #value;));
        name
    }

    /// A leaf: the target read in place, or a borrowed operand.
    fn operand(&mut self, tokens: &TokenStream, span: Span) -> TokenStream {
        let rt = runtime(span);
        if self.target.as_deref() == Some(tokens.to_string().as_str()) {
            return quote_spanned!(span=> #rt::expr::target_leaf(&#tokens));
        }
        let name = local("op", self.operands);
        self.operands += 1;
        self.lets.push(quote_spanned!(span=> let #name = &#tokens;));
        quote_spanned!(span=> #rt::expr::operand(#name))
    }
}

/// A hygienic local name: invisible to, and unaffected by, the user's names.
fn local(kind: &str, index: usize) -> Ident {
    Ident::new(&format!("__tensor_expr_{kind}{index}"), Span::mixed_site())
}
