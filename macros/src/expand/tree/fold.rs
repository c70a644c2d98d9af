//! Long chains folded into groups of steps (see `fold_paths`): each step
//! checked against the chain so far, so that checking time grows with the
//! chain's length rather than with its square.

use super::*;

/// A group of fold steps this large is bound to a `let` (see
/// [`TreeBuilder::steps_group`]); check time is flat between 16 and 64.
const BOUND_GROUP_STEPS: usize = 16;

impl TreeBuilder {
    /// A long path of elementwise operations as the runtime's fold node (see
    /// [`fold_paths`]): the head, then each step checked and built in order, the
    /// steps assembled into a tree of groups as they come
    /// ([`fold_paths::StepsTree`]).
    pub(super) fn fold(&mut self, spine: fold_paths::Spine) -> (Span, TokenStream) {
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
    pub(super) fn fold_step(&mut self, step: &fold_paths::Step, so_far: &Ident) -> (Ident, Ident) {
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
    pub(super) fn steps_group(&mut self, subtrees: &[TokenStream], steps: usize) -> TokenStream {
        let group = quote!((#(#subtrees,)*));
        if steps < BOUND_GROUP_STEPS {
            return group;
        }
        let span = self.root_span;
        at(&self.push_node(span, group), span).into_token_stream()
    }

    /// A fold step's other argument, located at the step's `span`; an `in_dims`
    /// there is placed on the shape of the path so far.
    pub(super) fn side_node(&mut self, side: &Expr, so_far: &Ident, span: Span) -> Ident {
        let other = side.is_in_dims().then(|| Other::Node(so_far.clone()));
        at(&self.node(side, other), span)
    }

    /// `let __tensor_expr_nodeN = shape_of(node);`: a node's shape as a witness.
    pub(super) fn shape_witness_node(&mut self, node: &Ident, span: Span) -> Ident {
        let (rt, context, node) = (runtime(span), at(self.context(), span), at(node, span));
        self.push_node(
            span,
            quote_spanned!(span=> #rt::expr::shape_of(#context, &#node)),
        )
    }
}
