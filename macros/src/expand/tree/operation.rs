//! The table's operations as nodes: a constructor call per operation with
//! its witnesses (the dim list's rule, each named option's values as a
//! type), and the inputs a tiled operation reads where they are stored.

use super::*;

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

/// The witness of values per side, on the list: `[[1, 2], [0, 1]]` as
/// `witness::<(Sides<D<1>, D<2>>, Sides<D<0>, D<1>>)>()`.
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

/// A list of sizes as a shape-type witness, on the list: `[2, 3]` as
/// `witness::<(D<2>, D<3>)>()`.
fn shape_witness(list: &DimList) -> TokenStream {
    let span = list.span;
    let rt = runtime(span);
    let dims = list
        .dims
        .iter()
        .map(|d| Literal::usize_unsuffixed(d.value as usize));
    quote_spanned!(span=> #rt::ops::witness::<(#(#rt::D<#dims>,)*)>())
}

impl TreeBuilder {
    /// A call of an operation of the table, spanned on its name: its input
    /// nodes (an operation that reads in place borrows its operands, located
    /// where its rule is checked), then the node its [`Build`] says.
    pub(super) fn op(&mut self, call: &OpCall, other: Option<Other>) -> (Span, TokenStream) {
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
                // As the whole value of `out = ..`, an operation computed
                // into the target is its `_into` form, given the target.
                let into_target = self.into_target && call.op.reads.computed_into_target();
                let target = into_target.then(|| {
                    let target = at(&local(TARGET_NAME), span);
                    quote_spanned!(span=> &mut *#target)
                });
                let constructor = if into_target {
                    path(&format!("{constructor}_into"))
                } else {
                    path(constructor)
                };
                let marker = marker.map(path).into_iter();
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
                let target = target.into_iter();
                let node = quote_spanned!(span=> #constructor(#context, #(#inner_context,)* #(#marker,)* #(#witness,)* #(#options,)* #inputs #(, #target)*));
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

    /// An input of a convolution or pool, as the node the convolution reads
    /// in place (`ops::conv::inputs::ConvInput`): a stored operand's leaf,
    /// checked at `check_span`; or `cast::<U>(x)` (`+ c`, `- c`), built as
    /// the same conversion and elementwise nodes as anywhere else (never
    /// shared with another subexpression, which would read them through a
    /// row cache).
    pub(super) fn tiled_input(&mut self, input: &Expr, check_span: Span) -> Option<Ident> {
        if let Expr::Operand(operand) = input {
            let rt = runtime(check_span);
            let name = self.borrow_operand(&operand.tokens, operand.span, check_span);
            let (context, name) = (at(self.context(), check_span), at(&name, check_span));
            let node = quote_spanned!(check_span=> #rt::expr::operand(#context, #name));
            return Some(self.push_node(check_span, node));
        }
        let widened = input.widened_operand()?;
        let (span, conversion) = self.op(widened.cast, None);
        let mut node = self.push_node(span, conversion);
        if let Some((op, constant)) = widened.offset {
            let constant = at(&self.node(constant, None), span);
            let (rt, context) = self.located(span);
            let marker = Ident::new(op.marker(), span);
            let converted = at(&node, span);
            let value = quote_spanned!(span=> #rt::expr::map2(#context, #rt::expr::operators::#marker, #converted, #constant));
            node = self.push_node(span, value);
        }
        Some(node)
    }

    /// The witnesses a constructor gets after the context (and marker): the
    /// axes rule's kept and result shapes for an axis list, checked on the
    /// list; then the type argument, on the type (where a shape's element
    /// count that cannot be made is reported).
    pub(super) fn op_witnesses(&self, call: &OpCall, input: &Ident) -> Vec<TokenStream> {
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
    pub(super) fn option_witnesses(&self, call: &OpCall) -> Vec<TokenStream> {
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
                        let span = keyword.span();
                        let rt = runtime(span);
                        let ty = Ident::new(keyword_type(&keyword.to_string()), span);
                        quote_spanned!(span=> #rt::ops::witness::<#rt::ops::keyword::#ty>())
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

    /// The other operand's shape as a witness, located at `span` (the tuple).
    pub(super) fn shape_witness(&self, other: Other, span: Span) -> TokenStream {
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
}
