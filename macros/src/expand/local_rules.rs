//! The local rule traits the expansion writes into its block, for the rules
//! whose parameters are written in the expression (an `in_dims` tuple, a
//! reduction's axes, a permutation): each is a trait with one impl per rank
//! (0 to `MAX_RANK`), giving the result shape where the list fits that rank
//! and rejecting the shape through a carrier trait whose message names the
//! list as written elsewhere ([`rejecting_impl`]). The runtime documents the
//! error layout these follow (`rules` module).

use crate::ast::DimLiteral;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use tensor_expr_catalog::MAX_RANK;

/// The three parts of a rule's error: rustc's `on_unimplemented` fields.
struct Diagnostic {
    message: String,
    label: String,
    note: String,
}

/// `in_dims(x, [d0, ..])`: a leaf over `operand`'s data with its dims placed
/// on dims `d0, ..` of the shape `other` and `One` elsewhere. The placement is
/// a local trait, implemented for each possible rank of the other operand (so
/// rustc waits for that shape before judging), whose message names the tuple;
/// its where-clause also checks the sizes (`rules::in_dims::PlacedFits`), so
/// every typed `in_dims` mistake is one error on the tuple.
pub fn in_dims(
    dims: &[DimLiteral],
    tuple_span: Span,
    context: &Ident,
    operand: &Ident,
    other: TokenStream,
) -> TokenStream {
    let positions: Vec<usize> = dims.iter().map(|d| d.value as usize).collect();
    let (placing, same_rank) = in_dims_diagnostics(&positions);
    let Diagnostic {
        message,
        label,
        note,
    } = placing;
    let (same_rank_message, same_rank_label, same_rank_note) =
        (same_rank.message, same_rank.label, same_rank.note);
    let impls = in_dims_impls(&positions);
    quote_spanned!(tuple_span=> {
        // No user tokens in this block: these names cannot shadow the user's.
        use ::tensor_expr::__private::{access::{Contiguous, Operand}, expr::{Context, TensorLeaf}, rules::{in_dims::{CannotPlace, PlacedFits}, NeverHolds}, Dim, One, Shape};
        #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
        trait InDims<Other, X> {
            type Placed: Shape;
        }
        #[diagnostic::do_not_recommend]
        impl<Other: Shape, X, Verdict: NeverHolds> InDims<Other, X> for Verdict {
            type Placed = Other;
        }
        #[diagnostic::on_unimplemented(message = #same_rank_message, label = #same_rank_label, note = #same_rank_note)]
        trait SameRank<Other, X> {
            type Placed: Shape;
        }
        #[diagnostic::do_not_recommend]
        impl<Other: Shape, X, Verdict: NeverHolds> SameRank<Other, X> for Verdict {
            type Placed = Other;
        }
        trait Place<X> {
            type Placed: Shape;
        }
        #(#impls)*
        #[inline]
        fn place<'a, T, M, X, Other>(
            _context: Context<T, M>,
            operand: &'a X,
            _other: ::core::marker::PhantomData<Other>,
        ) -> TensorLeaf<'a, X::Element, <Other as Place<X::Shape>>::Placed>
        where
            X: Operand<T> + ?Sized,
            X::Layout: Contiguous,
            X::Element: 'a,
            Other: Place<X::Shape>,
        {
            TensorLeaf::new(Operand::elements(operand))
        }
        place(#context, #operand, #other)
    })
}

/// The errors of an `in_dims` tuple: it cannot place the operand, or it
/// places it on an operand of its own rank (where it does nothing).
fn in_dims_diagnostics(positions: &[usize]) -> (Diagnostic, Diagnostic) {
    let tuple = format!("{positions:?}");
    let placing = Diagnostic {
        message: format!(
            "`in_dims(.., {tuple})` cannot place shape `{{X}}` on dims {tuple} of shape `{{Other}}`"
        ),
        label: format!("placing `{{X}}` on dims {tuple} of `{{Other}}`"),
        note: format!(
            "the tuple needs one entry per dim of the operand ({} here), each less than the rank of the other \
             operand, and each placed size must equal the size there or be 1",
            positions.len()
        ),
    };
    let same_rank = Diagnostic {
        message: format!(
            "`in_dims(.., {tuple})` does nothing here: it places `{{X}}` on `{{Other}}`, of the same rank"
        ),
        label: "the other operand of this `in_dims`'s own operation has the operand's rank".to_string(),
        note: "`in_dims` places its operand on the other operand of the binary operation or \
             function it is written in; to place it on a larger result, put that result in parentheses, \
             as in `in_dims(n, [0]) + (n - d)`; with no placement to make, drop `in_dims`"
            .to_string(),
    };
    (placing, same_rank)
}

/// The witness of a reduction's axes rule, spanned on the axes list: a local
/// trait with one impl per rank the axes fit (in range, each dim once once the
/// negative ones are counted from the end), giving the kept and the result
/// shapes of the operand node `checked`; its message names the axes as
/// written.
pub fn axes(
    name: &syn::Ident,
    axes: Option<&[DimLiteral]>,
    axes_span: Span,
    keepdim: bool,
    context: &Ident,
    checked: &Ident,
) -> TokenStream {
    let Diagnostic {
        message,
        label,
        note,
    } = axes_diagnostic(name, axes);
    let impls = reduction_impls(axes, keepdim);
    quote_spanned!(axes_span=> {
        use ::tensor_expr::__private::{expr::{Context, Shaped}, rules::NeverHolds, Dim, One, Shape};
        // Unused where the axes fit every rank (no failing impl names it).
        #[allow(dead_code)]
        #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
        trait Axes<Operand, Anchor = ()> {
            type Kept;
            type Output;
        }
        #[diagnostic::do_not_recommend]
        impl<Operand: Shape, Anchor, Verdict: NeverHolds> Axes<Operand, Anchor> for Verdict {
            type Kept = Operand;
            type Output = Operand;
        }
        // `Anchor`: see `rejecting_scalar_impl`. No `Shape` bound on the
        // shapes: rustc would prove it for each of the impls (measured: 40%
        // of a reduction's check time); the reduction node proves it once,
        // for the rank used.
        trait Reduce<Anchor = ()> {
            type Kept;
            type Output;
        }
        #(#impls)*
        #[inline]
        #[allow(clippy::type_complexity)]
        fn axes<T, M, E: Shaped>(
            _context: Context<T, M>,
            _operand: &E,
        ) -> ::core::marker::PhantomData<(<E::Shape as Reduce>::Kept, <E::Shape as Reduce>::Output)>
        where
            E::Shape: Reduce,
        {
            ::core::marker::PhantomData
        }
        axes(#context, &#checked)
    })
}

/// The error of a reduction's axes list, naming the axes as written.
fn axes_diagnostic(name: &syn::Ident, axes: Option<&[DimLiteral]>) -> Diagnostic {
    let described = axes.map_or_else(
        || "every axis".to_string(),
        |axes| {
            let values: Vec<String> = axes.iter().map(|a| a.value.to_string()).collect();
            format!("axes [{}]", values.join(", "))
        },
    );
    Diagnostic {
        message: format!("`{name}` over {described} does not fit shape `{{Operand}}`"),
        label: format!("`{name}` over {described} of `{{Operand}}`"),
        note: "axes count from 0 at the outermost dim, or from -1 at the innermost; each must be a dim \
               of the operand, and name a different dim than the others"
            .to_string(),
    }
}

/// The impls of a reduction's local `Reduce` trait, one per rank (0 to
/// `MAX_RANK`). Where the axes name dims of that
/// rank, each once, it gives the kept and the result shapes; elsewhere it
/// rejects the shape through the local carrier `Axes` ([`rejecting_impl`]).
/// `None`: every axis, which fits every rank.
fn reduction_impls(axes: Option<&[DimLiteral]>, keepdim: bool) -> Vec<TokenStream> {
    (0..=MAX_RANK)
        .map(|rank| {
            let dims = dim_params("A", rank);
            let Some(reduced) = reduced_dims(axes, rank) else {
                let verdict = quote!(::tensor_expr::__private::rules::CannotReduce);
                let (rule, carrier) = (
                    Ident::new("Reduce", Span::call_site()),
                    Ident::new("Axes", Span::call_site()),
                );
                return if rank == 0 {
                    rejecting_scalar_impl(&rule, verdict, &carrier, &["Kept", "Output"])
                } else {
                    rejecting_impl(
                        &dims,
                        &dims,
                        quote!(#rule),
                        verdict,
                        quote!(#carrier<Self>),
                        &["Kept", "Output"],
                    )
                };
            };
            let kept: Vec<TokenStream> = dims
                .iter()
                .enumerate()
                .map(|(k, d)| {
                    if reduced.contains(&k) {
                        quote!(One)
                    } else {
                        d.to_token_stream()
                    }
                })
                .collect();
            let output: Vec<TokenStream> = if keepdim {
                kept.clone()
            } else {
                dims.iter()
                    .enumerate()
                    .filter(|(k, _)| !reduced.contains(k))
                    .map(|(_, d)| d.to_token_stream())
                    .collect()
            };
            quote! {
                #[diagnostic::do_not_recommend]
                impl<#(#dims: Dim),*> Reduce for (#(#dims,)*) {
                    type Kept = (#(#kept,)*);
                    type Output = (#(#output,)*);
                }
            }
        })
        .collect()
}

/// The dims of a rank-`rank` shape that `axes` name (negative ones counted
/// from the end), or `None` if one is out of range or named twice.
fn reduced_dims(axes: Option<&[DimLiteral]>, rank: usize) -> Option<Vec<usize>> {
    let Some(axes) = axes else {
        return Some((0..rank).collect());
    };
    let mut reduced = Vec::new();
    for axis in axes {
        let index = if axis.value < 0 {
            axis.value + rank as i128
        } else {
            axis.value
        };
        if index < 0 || index >= rank as i128 || reduced.contains(&(index as usize)) {
            return None;
        }
        reduced.push(index as usize);
    }
    Some(reduced)
}

/// `permute(x, [p0, p1, ..])`: a strided leaf over `x`'s data whose layout is a
/// local type, implemented for the list's rank only (the macro has checked it
/// is a permutation); a local trait carries the rank rule and its message.
pub fn permute(perm: &[DimLiteral], span: Span, context: &Ident, operand: &Ident) -> TokenStream {
    let order: Vec<usize> = perm.iter().map(|p| p.value as usize).collect();
    let Diagnostic {
        message,
        label,
        note,
    } = permute_diagnostic(&order);
    let dims = dim_params("A", order.len());
    let permuted: Vec<&Ident> = order.iter().map(|&p| &dims[p]).collect();
    let other_ranks = permute_rank_rejections(order.len());
    let order = order.iter().map(|&p| Literal::usize_unsuffixed(p));
    quote_spanned!(span=> {
        use ::tensor_expr::__private::{access::{Contiguous, Layout, Operand, RowMajor}, expr::{Context, StridedLeaf}, ops::permute::permuted_strides, rules::{permute::CannotPermute, NeverHolds}, Dim, Shape, MAX_RANK};
        #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
        trait PermuteRank<Operand, Anchor = ()> {
            type Read: Layout;
        }
        #[diagnostic::do_not_recommend]
        impl<Operand: Shape, Anchor, Verdict: NeverHolds> PermuteRank<Operand, Anchor> for Verdict {
            type Read = RowMajor<Operand>;
        }
        // `Anchor`: see `rejecting_scalar_impl`.
        trait Permute<Anchor = ()> {
            type Read: Layout;
        }
        #(#other_ranks)*
        struct Permuted<S>(::core::marker::PhantomData<S>);
        impl<#(#dims: Dim),*> Layout for Permuted<(#(#dims,)*)> {
            type Shape = (#(#permuted,)*);
            const STRIDES: [usize; MAX_RANK] = permuted_strides(<(#(#dims,)*) as Shape>::DIMS, &[#(#order),*]);
            const DATA_LEN: usize = <(#(#dims,)*) as Shape>::LEN;
        }
        #[diagnostic::do_not_recommend]
        impl<#(#dims: Dim),*> Permute for (#(#dims,)*) {
            type Read = Permuted<Self>;
        }
        #[inline]
        #[allow(clippy::type_complexity)]
        fn permute<'a, T, M, X: Operand<T> + ?Sized>(
            _context: Context<T, M>,
            operand: &'a X,
        ) -> StridedLeaf<'a, X::Element, <X::Shape as Permute>::Read>
        where
            X::Shape: Permute,
            X::Layout: Contiguous,
            X::Element: 'a,
        {
            StridedLeaf::new(Operand::elements(operand))
        }
        permute(#context, #operand)
    })
}

/// The error of a permutation applied to an operand of another rank.
fn permute_diagnostic(order: &[usize]) -> Diagnostic {
    let listed = format!("{order:?}");
    Diagnostic {
        message: format!(
            "`permute(.., {listed})` needs an operand of rank {}, and shape `{{Operand}}` is not",
            order.len()
        ),
        label: format!("permuting `{{Operand}}` by {listed}"),
        note: "the list gives, for each dim of the result, the dim of the operand it reads: one entry per dim"
            .to_string(),
    }
}

/// The impls of the local `Permute` trait for every rank but the list's,
/// each rejected through the local carrier `PermuteRank`.
fn permute_rank_rejections(rank: usize) -> Vec<TokenStream> {
    let (rule, carrier) = (
        Ident::new("Permute", Span::call_site()),
        Ident::new("PermuteRank", Span::call_site()),
    );
    (0..=MAX_RANK)
        .filter(|&r| r != rank)
        .map(|r| {
            let dims = dim_params("A", r);
            if r == 0 {
                rejecting_scalar_impl(&rule, quote!(CannotPermute), &carrier, &["Read"])
            } else {
                rejecting_impl(
                    &dims,
                    &dims,
                    quote!(#rule),
                    quote!(CannotPermute),
                    quote!(#carrier<Self>),
                    &["Read"],
                )
            }
        })
        .collect()
}

/// The impls of the local `Place` trait. For an operand of the tuple's
/// rank, one for every rank of the other operand (1 to `MAX_RANK`): where
/// the tuple fits it, the placed shape must fit the other operand
/// (`PlacedFits`), and every other rank is rejected through the local
/// carrier `InDims` ([`rejecting_impl`]), rather than left without an impl.
/// An operand of any other rank (0 to `MAX_RANK`) is rejected by one impl
/// over every other operand.
///
/// One impl per pair of ranks would be 42; rustc's coherence and impl
/// checks of a local trait cost about quadratically in its impls, and with
/// 42 impls coherence was most of an `in_dims`'s check time
/// (`benches/compile_time.sh`).
fn in_dims_impls(positions: &[usize]) -> Vec<TokenStream> {
    let lowest_rank = positions
        .last()
        .map_or(0, |&last| last + 1)
        .max(positions.len());
    let mut impls = Vec::new();
    for operand_rank in 0..=MAX_RANK {
        let operand_dims = dim_params("X", operand_rank);
        if operand_rank != positions.len() {
            let operand = quote!((#(#operand_dims,)*));
            impls.push(rejecting(
                quote!(<#(#operand_dims: Dim,)* Other: Shape>),
                quote!(Place<#operand>),
                quote!(Other),
                quote!(CannotPlace),
                quote!(InDims<Other, #operand>),
                &["Placed"],
            ));
            continue;
        }
        for rank in 1..=MAX_RANK {
            let other_dims = dim_params("O", rank);
            let generics: Vec<Ident> = operand_dims.iter().chain(&other_dims).cloned().collect();
            let operand = quote!((#(#operand_dims,)*));
            let other = quote!((#(#other_dims,)*));
            if operand_rank == rank && rank == positions.len() {
                // Legal, but the identity: `in_dims` bound to an operand of its
                // own rank, where a larger one was surely meant.
                impls.push(rejecting_impl(
                    &generics,
                    &other_dims,
                    quote!(Place<#operand>),
                    quote!(CannotPlace),
                    quote!(SameRank<#other, #operand>),
                    &["Placed"],
                ));
                continue;
            }
            if rank < lowest_rank {
                impls.push(rejecting_impl(
                    &generics,
                    &other_dims,
                    quote!(Place<#operand>),
                    quote!(CannotPlace),
                    quote!(InDims<#other, #operand>),
                    &["Placed"],
                ));
                continue;
            }
            let placed: Vec<TokenStream> = (0..rank)
                .map(|k| match positions.iter().position(|&p| p == k) {
                    Some(j) => operand_dims[j].to_token_stream(),
                    None => quote!(One),
                })
                .collect();
            impls.push(quote! {
                #[diagnostic::do_not_recommend]
                impl<#(#generics: Dim,)*> Place<#operand> for #other
                where
                    (#(#placed,)*): PlacedFits<#other>,
                {
                    type Placed = <(#(#placed,)*) as PlacedFits<#other>>::Placed;
                }
            });
        }
    }
    impls
}

/// `count` type parameters named `{prefix}0`, `{prefix}1`, ..: the dims of a
/// shape in a generated impl.
fn dim_params(prefix: &str, count: usize) -> Vec<Ident> {
    (0..count)
        .map(|k| Ident::new(&format!("{prefix}{k}"), Span::call_site()))
        .collect()
}

/// An impl of a local rule (`rule`, over the dims `generics`, for the shape of
/// the dims `self_dims`) where the rule cannot hold: it requires `carrier`, the local trait with
/// the message, of `verdict`, a type that implements nothing, and computes
/// each associated type in `assocs` through it.
///
/// Why an impl that fails rather than no impl (measured, rustc 1.95): rustc
/// then finds the mistake while it computes the node's type, and reports
/// `carrier`'s message once, with no note. With no impl for the shape, the
/// generated function's own bound fails first, and the error gains a note
/// pointing at that bound. `runtime/src/rules/mod.rs` describes the layout.
fn rejecting_impl(
    generics: &[Ident],
    self_dims: &[Ident],
    rule: TokenStream,
    verdict: TokenStream,
    carrier: TokenStream,
    assocs: &[&str],
) -> TokenStream {
    rejecting(
        quote!(<#(#generics: Dim),*>),
        rule,
        quote!((#(#self_dims,)*)),
        verdict,
        carrier,
        assocs,
    )
}

/// [`rejecting_impl`] for a scalar operand: `impl<Anchor> Rule<Anchor> for ()`,
/// rejecting it through `Carrier<(), Anchor>`. The rule and the carrier take an
/// `Anchor` type parameter (default `()`, so every other impl and every bound
/// leaves it out) only for this impl: with no type parameter, its bound would
/// be trivially false, which rustc rejects; and with no impl for `()` at all,
/// the error would gain a note (see [`rejecting_impl`]).
fn rejecting_scalar_impl(
    rule: &Ident,
    verdict: TokenStream,
    carrier: &Ident,
    assocs: &[&str],
) -> TokenStream {
    rejecting(
        quote!(<Anchor>),
        quote!(#rule<Anchor>),
        quote!(()),
        verdict,
        quote!(#carrier<(), Anchor>),
        assocs,
    )
}

/// `impl #generics #rule for #self_ty where #verdict: #carrier`, each of
/// `assocs` projected through the carrier.
fn rejecting(
    generics: TokenStream,
    rule: TokenStream,
    self_ty: TokenStream,
    verdict: TokenStream,
    carrier: TokenStream,
    assocs: &[&str],
) -> TokenStream {
    let assocs: Vec<Ident> = assocs
        .iter()
        .map(|a| Ident::new(a, Span::call_site()))
        .collect();
    quote! {
        #[diagnostic::do_not_recommend]
        impl #generics #rule for #self_ty
        where
            #verdict: #carrier,
        {
            #(type #assocs = <#verdict as #carrier>::#assocs;)*
        }
    }
}
