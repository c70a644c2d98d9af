//! `tensor![...]`: a tensor from a nested array literal, with the shape read from
//! the nesting (a row of length 1 gives a broadcastable `One` dim).

use crate::shape_macro::{shape_type, DimSpec};
use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::quote;
use syn::Error;

/// Expands `tensor![...]`.
pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let dims = nested_dims(input.clone(), Span::call_site())?;
    let specs: Vec<DimSpec> = dims
        .iter()
        .map(|&(size, span)| DimSpec::Size(size, span))
        .collect();
    let shape = shape_type(specs.iter(), Span::call_site())?;
    Ok(quote!(::tensor_expr::Tensor::<_, #shape>::new([#input])))
}

/// The dims of the comma-separated `items`: `[n]` for scalars, `[n, ...]` when
/// every item is itself a `[...]` row of the same dims.
fn nested_dims(items: TokenStream, span: Span) -> syn::Result<Vec<(usize, Span)>> {
    let items = split_items(items);
    let rows: Vec<&proc_macro2::Group> = items.iter().filter_map(|item| as_row(item)).collect();
    if rows.is_empty() {
        return Ok(vec![(items.len(), span)]);
    }
    if let Some(scalar) = items.iter().find(|item| as_row(item).is_none()) {
        return Err(Error::new(
            first_span(scalar),
            "mixed nesting: every element at this level must be a `[...]` row, or none",
        ));
    }
    let mut inner: Option<Vec<(usize, Span)>> = None;
    for group in rows {
        let dims = nested_dims(group.stream(), group.span())?;
        match &inner {
            None => inner = Some(dims),
            Some(first) if sizes(first) != sizes(&dims) => {
                return Err(Error::new(
                    group.span(),
                    format!(
                        "ragged tensor: this row has shape {:?} but the first row has shape {:?}",
                        sizes(&dims),
                        sizes(first)
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    let mut dims = vec![(items.len(), span)];
    dims.extend(inner.unwrap_or_default());
    Ok(dims)
}

fn sizes(dims: &[(usize, Span)]) -> Vec<usize> {
    dims.iter().map(|&(size, _)| size).collect()
}

/// Splits at top-level commas (a trailing comma is allowed).
fn split_items(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut items = Vec::new();
    let mut item = Vec::new();
    for token in tokens {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => items.push(std::mem::take(&mut item)),
            _ => item.push(token),
        }
    }
    if !item.is_empty() {
        items.push(item);
    }
    items
}

/// The item as a `[...]` row, if it is exactly one bracketed group.
fn as_row(item: &[TokenTree]) -> Option<&proc_macro2::Group> {
    match item {
        [TokenTree::Group(group)] if group.delimiter() == Delimiter::Bracket => Some(group),
        _ => None,
    }
}

fn first_span(item: &[TokenTree]) -> Span {
    item.first().map_or_else(Span::call_site, TokenTree::span)
}
