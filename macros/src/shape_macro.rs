//! `Shape![d0, d1, ...]`: literal dims to a tuple of `D<N>` / `One` types,
//! and `Dyn` (a run-time size) as the leading dim.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Error, Token};
use tensor_expr_catalog::MAX_RANK;

/// One dim as written: a literal size, or a const expression (`N`, `{ N * 2 }`).
pub enum DimSpec {
    /// A literal size; 1 becomes `One`.
    Size(usize, Span),
    /// A const parameter or block, used as `D<{ ... }>` (never `One`).
    Const(TokenStream),
    /// `Dyn`: a size known at run time, only as the first dim.
    Dyn(Span),
}

impl Parse for DimSpec {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(syn::LitInt) {
            let literal: syn::LitInt = input.parse()?;
            if !matches!(literal.suffix(), "" | "usize") {
                return Err(Error::new(
                    literal.span(),
                    "a dim is a `usize`: drop the suffix",
                ));
            }
            let size = literal
                .base10_parse::<usize>()
                .map_err(|_| Error::new(literal.span(), "dim too large for `usize`"))?;
            return Ok(DimSpec::Size(size, literal.span()));
        }
        if input.peek(syn::token::Brace) {
            let block: syn::Block = input.parse()?;
            return Ok(DimSpec::Const(block.into_token_stream()));
        }
        if input.peek(syn::Ident) || input.peek(Token![::]) {
            let path: syn::Path = input.parse()?;
            if path.is_ident("Dyn") {
                return Ok(DimSpec::Dyn(path.segments[0].ident.span()));
            }
            return Ok(DimSpec::Const(quote!({ #path })));
        }
        Err(input.error("expected a dim: a literal size like `3`, a const parameter `N`, or a block `{ N * 2 }`"))
    }
}

/// Expands `Shape![...]`.
pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let dims = Punctuated::<DimSpec, Token![,]>::parse_terminated.parse2(input)?;
    shape_type(dims.iter(), Span::call_site())
}

/// The tuple type for `dims`, or an error if there are more than `MAX_RANK`.
pub fn shape_type<'a>(
    dims: impl ExactSizeIterator<Item = &'a DimSpec>,
    span: Span,
) -> syn::Result<TokenStream> {
    if dims.len() > MAX_RANK {
        return Err(Error::new(
            span,
            format!(
                "shapes have at most {MAX_RANK} dims; this one has {}",
                dims.len()
            ),
        ));
    }
    let dims: Vec<&DimSpec> = dims.collect();
    if let Some(DimSpec::Dyn(span)) = dims.iter().skip(1).find(|d| matches!(d, DimSpec::Dyn(_))) {
        return Err(Error::new(
            *span,
            "only the first dim may be `Dyn`: every stride must stay a compile-time constant",
        ));
    }
    let types = dims.into_iter().map(|dim| match dim {
        DimSpec::Dyn(span) => quote_spanned!(*span=> ::tensor_expr::Dyn),
        DimSpec::Size(1, span) => quote_spanned!(*span=> ::tensor_expr::One),
        DimSpec::Size(size, span) => {
            let size = proc_macro2::Literal::usize_unsuffixed(*size);
            quote_spanned!(*span=> ::tensor_expr::D<#size>)
        }
        DimSpec::Const(tokens) => quote!(::tensor_expr::D<#tokens>),
    });
    Ok(quote!((#(#types,)*)))
}
