//! The user's operands and where new tensors go: each operand borrowed once
//! (a path written again reads the same borrow), read in place where it is
//! the assignment target, and each operand's and stage's vote for the
//! placement of the result.

use super::*;

/// One vote for where a new tensor goes.
pub(super) enum Vote {
    /// A user's operand, with the context of its scope: its own placement.
    Operand(Ident, Ident),
    /// A stage: the placement its operands voted for.
    Stage(Ident),
}

impl TreeBuilder {
    /// A leaf: the target read in place, or a borrowed operand.
    pub(super) fn operand(&mut self, tokens: &TokenStream, span: Span) -> TokenStream {
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
    pub(in crate::expand) fn evaluation(&mut self, expr: &Expr) -> (Span, Ident, Ident) {
        let root = self.node(expr, None);
        let span = self.root_span;
        let rt = runtime(span);
        let placement = self.placement(span, quote_spanned!(span=> #rt::access::Stack));
        (span, at(&root, span), placement)
    }

    /// The placements of an assignment's target and operands joined, located
    /// at `span`: what the assignment checks its run-time rows against
    /// (`target` is the reborrowed target's name).
    pub(in crate::expand) fn assignment_placement(&mut self, span: Span, target: &Ident) -> Ident {
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
    pub(super) fn placement(&mut self, span: Span, first: TokenStream) -> Ident {
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
    pub(super) fn borrow_operand(
        &mut self,
        tokens: &TokenStream,
        span: Span,
        check_span: Span,
    ) -> Ident {
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
    pub(super) fn borrow_positions(&mut self, tokens: &TokenStream, span: Span) -> Ident {
        let name = local(&format!("op{}", self.operands));
        self.operands += 1;
        self.operand_bindings
            .push((name.clone(), quote_spanned!(span=> &#tokens)));
        at(&name, span)
    }

    /// Makes the operand bound to `name` the element source of the scope
    /// being built, if it is the scope's first.
    pub(super) fn note_element_source(&mut self, name: &Ident, span: Span) {
        let (rt, mode) = (runtime(span), &self.mode);
        self.note_source(quote_spanned!(span=> #rt::expr::context_of(#mode, #name)));
    }

    /// Makes `source` the context of the scope being built, if it has none
    /// yet (its first operand, or the target read inside it).
    pub(super) fn note_source(&mut self, source: TokenStream) {
        let scope = self.scope_index();
        self.scopes[scope].source.get_or_insert(source);
    }
}
