//! Element-type scopes: the whole expression's context, and one per cast's
//! input, which reads its operands as their own elements; each
//! constructor receives the context of the scope it is built in.

use super::*;

/// Where the element type of part of an expression comes from: the whole
/// expression's, or the input of a cast (`cast::<i32>(x)` reads `x` as
/// `x`'s own elements). Each scope has its own context local.
pub(super) struct Scope {
    /// The local holding the scope's context, which every constructor in
    /// the scope receives.
    pub(super) context: Ident,
    /// The target's context (for the whole expression of an assignment),
    /// else the first operand's in the scope.
    pub(super) source: Option<TokenStream>,
    /// The type of the first cast directly in the scope: the element type
    /// where no operand gives one (`cast::<i8>(cast::<i32>(x) @ w2)`).
    pub(super) cast_type: Option<TokenStream>,
}

impl Scope {
    pub(super) fn new(context: Ident) -> Scope {
        Scope {
            context,
            source: None,
            cast_type: None,
        }
    }
}

impl TreeBuilder {
    /// The runtime path and the context, both located at `span`: what every
    /// constructor call spanned there starts with.
    pub(in crate::expand) fn located(&self, span: Span) -> (TokenStream, Ident) {
        (runtime(span), at(self.context(), span))
    }

    /// Opens the scope of a conversion's input and returns its context
    /// local; the conversion's type is the enclosing scope's element type
    /// if no operand there gives one.
    pub(super) fn enter_scope(&mut self, call: &OpCall) -> Ident {
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
    pub(super) fn leave_scope(&mut self) {
        self.open_scopes.pop();
    }

    /// The context local of the scope being built.
    pub(super) fn context(&self) -> &Ident {
        &self.scopes[self.scope_index()].context
    }

    /// The index of the scope being built.
    pub(super) fn scope_index(&self) -> usize {
        self.open_scopes.last().copied().unwrap_or(0)
    }
}
