//! Tokens to [`ast`](crate::ast): a precedence-climbing (Pratt) parser that keeps
//! the span of every operator and operand. It only checks syntax; the function
//! table and arities are [`validate`](crate::validate)'s job.

use crate::ast::{AssignOp, BinaryOp, DimLiteral, Expr, Form, IndexOf, Operand, Statement};
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::{token, Error, Result, Token};

/// The deepest nesting of parentheses, calls, unary minus and right operands
/// accepted; deeper input is rejected with an error that says how to split
/// it, instead of exhausting the macro's stack. Everything up to it builds:
/// elementwise paths fold, and deep products and reductions are staged.
const MAX_DEPTH: usize = 256;

impl Parse for Statement {
    fn parse(input: ParseStream) -> Result<Self> {
        if input.is_empty() {
            return Err(input.error(
                "expected a tensor expression, e.g. `tensor_expr!(x + y)` or `tensor_expr!(out = x * 2)`",
            ));
        }
        let strict = parse_strict_prefix(input)?;
        if let Some((value, index_of)) = parse_index_of(input)? {
            return Ok(Statement {
                strict,
                form: Form::Evaluate(value),
                index_of: Some(index_of),
            });
        }
        let form = if let Some((target, op, op_span)) = parse_assignment_head(input)? {
            let value = parse_expr(input, 0, 0)?;
            Form::Assign {
                target,
                op,
                op_span,
                value,
            }
        } else {
            Form::Evaluate(parse_expr(input, 0, 0)?)
        };
        if !input.is_empty() {
            let message =
                "expected an operator (`+ - * / @` or a comparison) or the end of the expression";
            return Err(input.error(message));
        }
        Ok(Statement {
            strict,
            form,
            index_of: None,
        })
    }
}

/// The names of the index reductions, which stand only around the whole
/// expression (see [`IndexOf`]).
pub const INDEX_REDUCTIONS: [&str; 2] = ["argmax", "argmin"];

/// `argmax(e, [axis])` or `argmin(e, [axis], keepdim)` as the whole input,
/// consumed if present. Anywhere else the name is an error from
/// [`parse_call`] that says what to write instead.
fn parse_index_of(input: ParseStream) -> Result<Option<(Expr, IndexOf)>> {
    let fork = input.fork();
    let is_whole = fork
        .call(syn::Ident::parse_any)
        .is_ok_and(|name| INDEX_REDUCTIONS.contains(&name.to_string().as_str()))
        && fork.peek(token::Paren)
        && fork.parse::<proc_macro2::Group>().is_ok()
        && fork.is_empty();
    if !is_whole {
        return Ok(None);
    }
    let name: syn::Ident = input.parse()?;
    let usage = format!("expected `{name}(e, [axis])` or `{name}(e, [axis], keepdim)`, one axis");
    let content;
    let parens = syn::parenthesized!(content in input);
    if content.is_empty() {
        return Err(Error::new(parens.span.join(), usage));
    }
    let value = parse_expr(&content, 0, 1)?;
    if content.is_empty() {
        return Err(Error::new(parens.span.close(), usage));
    }
    content.parse::<Token![,]>()?;
    let (axes, axes_span) = parse_dim_list(&content, "axes", "[1]")?;
    let axis = match axes[..] {
        [axis] if axis.value < 0 => {
            let message = format!(
                "`{name}` counts its axis from 0, the first dim; write the axis as a non-negative number"
            );
            return Err(Error::new(axis.span, message));
        }
        [axis] if usize::try_from(axis.value).is_err() => {
            return Err(Error::new(axis.span, "axis too large"));
        }
        [axis] => axis,
        _ => return Err(Error::new(axes_span, usage)),
    };
    let keepdim = parse_keepdim_tail(&content, &usage)?;
    Ok(Some((
        value,
        IndexOf {
            name,
            axis,
            keepdim,
        },
    )))
}

/// `strict:` at the start of the input, consumed if present.
fn parse_strict_prefix(input: ParseStream) -> Result<bool> {
    let is_prefix = input
        .fork()
        .call(syn::Ident::parse_any)
        .is_ok_and(|ident| ident == "strict")
        && input.peek2(Token![:])
        && !input.peek2(Token![::]);
    if is_prefix {
        input.call(syn::Ident::parse_any)?;
        input.parse::<Token![:]>()?;
        if input.is_empty() {
            return Err(input.error("expected a tensor expression after `strict:`"));
        }
    }
    Ok(is_prefix)
}

/// `target =` or `target op=` at the start of the input, consumed if present.
fn parse_assignment_head(input: ParseStream) -> Result<Option<(TokenStream, AssignOp, Span)>> {
    let fork = input.fork();
    let Ok(target) = parse_place(&fork) else {
        return Ok(None);
    };
    let (op, span) = if fork.peek(Token![==]) {
        return Ok(None);
    } else if let Ok(t) = fork.parse::<Token![+=]>() {
        (AssignOp::Update(BinaryOp::Add), t.spans[0])
    } else if let Ok(t) = fork.parse::<Token![-=]>() {
        (AssignOp::Update(BinaryOp::Sub), t.spans[0])
    } else if let Ok(t) = fork.parse::<Token![*=]>() {
        (AssignOp::Update(BinaryOp::Mul), t.spans[0])
    } else if let Ok(t) = fork.parse::<Token![/=]>() {
        (AssignOp::Update(BinaryOp::Div), t.spans[0])
    } else if let Ok(t) = fork.parse::<Token![=]>() {
        (AssignOp::Set, t.span)
    } else {
        return Ok(None);
    };
    use syn::parse::discouraged::Speculative;
    input.advance_to(&fork);
    Ok(Some((target, op, span)))
}

/// An assignment target: a place expression (`out`, `*out`, `self.out`, `bufs.0`).
fn parse_place(input: ParseStream) -> Result<TokenStream> {
    let mut tokens = TokenStream::new();
    while input.peek(Token![*]) {
        input.parse::<Token![*]>()?.to_tokens(&mut tokens);
    }
    parse_path_chain(input, &mut tokens)?;
    Ok(tokens)
}

/// Parses operators of at least `min_precedence`, left-associatively.
fn parse_expr(input: ParseStream, min_precedence: u8, depth: usize) -> Result<Expr> {
    let mut lhs = parse_unary(input, depth)?;
    let mut compared = false;
    loop {
        reject_compound_assignment(input)?;
        let Some((op, span)) = peek_binary_op(input) else {
            break;
        };
        if op.precedence() < min_precedence {
            break;
        }
        if op.is_comparison() {
            if compared {
                return Err(syn::Error::new(
                    span,
                    "comparisons do not chain: parenthesise, or write `(a < b) * (b < c)` for both",
                ));
            }
            compared = true;
        }
        // `<=`, `>=`, `==` and `!=` are two punctuation tokens.
        let tokens = if matches!(
            op,
            BinaryOp::Le | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne
        ) {
            2
        } else {
            1
        };
        for _ in 0..tokens {
            input.parse::<TokenTree>()?;
        }
        let rhs = parse_expr(input, op.precedence() + 1, depth + 1)?;
        lhs = Expr::Binary {
            op,
            span,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        };
    }
    Ok(lhs)
}

fn peek_binary_op(input: ParseStream) -> Option<(BinaryOp, Span)> {
    let op = if input.peek(Token![<=]) {
        BinaryOp::Le
    } else if input.peek(Token![>=]) {
        BinaryOp::Ge
    } else if input.peek(Token![==]) {
        BinaryOp::Eq
    } else if input.peek(Token![!=]) {
        BinaryOp::Ne
    } else if input.peek(Token![<]) {
        BinaryOp::Lt
    } else if input.peek(Token![>]) {
        BinaryOp::Gt
    } else if input.peek(Token![+]) {
        BinaryOp::Add
    } else if input.peek(Token![-]) {
        BinaryOp::Sub
    } else if input.peek(Token![*]) {
        BinaryOp::Mul
    } else if input.peek(Token![/]) {
        BinaryOp::Div
    } else if input.peek(Token![@]) {
        BinaryOp::MatMul
    } else {
        return None;
    };
    Some((op, input.span()))
}

/// `+=` and friends are statements: they may only follow the target at the start.
fn reject_compound_assignment(input: ParseStream) -> Result<()> {
    if input.peek(Token![+=])
        || input.peek(Token![-=])
        || input.peek(Token![*=])
        || input.peek(Token![/=])
    {
        return Err(input.error(
            "an in-place operator must come right after its target: write `tensor_expr!(out += x * y)`",
        ));
    }
    if input.peek(Token![=]) && !input.peek(Token![==]) {
        return Err(input
            .error("`=` must follow the target at the start: write `tensor_expr!(out = x + y)`"));
    }
    Ok(())
}

fn parse_unary(input: ParseStream, depth: usize) -> Result<Expr> {
    if depth > MAX_DEPTH {
        return Err(input.error(format_args!(
            "this expression nests more than {MAX_DEPTH} levels deep; compute an inner part \
             first (`let inner = tensor_expr!(..);`) and use `inner` here"
        )));
    }
    if input.peek(Token![-]) {
        let span = input.parse::<Token![-]>()?.span;
        let operand = parse_unary(input, depth + 1)?;
        return Ok(match operand {
            Expr::IntLiteral { value, .. } => Expr::IntLiteral {
                value: -value,
                span,
            },
            operand => Expr::Negate {
                span,
                operand: Box::new(operand),
            },
        });
    }
    parse_primary(input, depth)
}

fn parse_primary(input: ParseStream, depth: usize) -> Result<Expr> {
    if input.peek(token::Paren) {
        let content;
        syn::parenthesized!(content in input);
        if content.is_empty() {
            return Err(content.error("expected an expression inside the parentheses"));
        }
        let inner = parse_expr(&content, 0, depth + 1)?;
        if !content.is_empty() {
            return Err(content.error("expected an operator (`+ - * / @` or a comparison) or `)`"));
        }
        return Ok(inner);
    }
    if input.peek(token::Brace) {
        let block: TokenTree = input.parse()?;
        let span = block.span();
        return Ok(Expr::Operand(Operand {
            tokens: block.into_token_stream(),
            span,
        }));
    }
    if input.peek(syn::LitInt) || input.peek(syn::LitFloat) {
        return parse_number(input);
    }
    if input.peek(Token![&]) || input.peek(Token![&&]) {
        return parse_reference_operand(input);
    }
    if let Some((op, _)) = peek_binary_op(input) {
        let op = op.symbol();
        return Err(input.error(format_args!(
            "expected an operand, found `{op}`: two operators in a row (to dereference a scalar, write `{{ *x }}`)"
        )));
    }
    if input.peek(syn::Ident::peek_any) || input.peek(Token![::]) {
        return parse_path_operand(input, depth);
    }
    if input.is_empty() {
        return Err(input.error("expected an operand after the operator"));
    }
    Err(input.error(
        "expected an operand: a tensor or scalar variable, a number, `(...)`, `{ ... }`, or a function call",
    ))
}

/// A number: unsuffixed, a literal that takes the expression's element type;
/// suffixed (`2.0f32`), an operand of its own type.
fn parse_number(input: ParseStream) -> Result<Expr> {
    if input.peek(syn::LitInt) {
        let literal: syn::LitInt = input.parse()?;
        if !literal.suffix().is_empty() {
            return Ok(Expr::Operand(Operand {
                span: literal.span(),
                tokens: literal.into_token_stream(),
            }));
        }
        let value = literal.base10_parse::<i128>().map_err(|_| {
            Error::new(
                literal.span(),
                "integer literal too large: tensor elements are at most 128 bits",
            )
        })?;
        return Ok(Expr::IntLiteral {
            value,
            span: literal.span(),
        });
    }
    let literal: syn::LitFloat = input.parse()?;
    if !literal.suffix().is_empty() {
        return Ok(Expr::Operand(Operand {
            span: literal.span(),
            tokens: literal.into_token_stream(),
        }));
    }
    Ok(Expr::FloatLiteral { literal })
}

/// `&x`, `&mut x`, `&&x`: a Rust reference to a place.
fn parse_reference_operand(input: ParseStream) -> Result<Expr> {
    let span = input.span();
    let mut tokens = TokenStream::new();
    loop {
        if input.peek(Token![&&]) {
            input.parse::<Token![&&]>()?.to_tokens(&mut tokens);
        } else if input.peek(Token![&]) {
            input.parse::<Token![&]>()?.to_tokens(&mut tokens);
            if input.peek(Token![mut]) {
                input.parse::<Token![mut]>()?.to_tokens(&mut tokens);
            }
        } else {
            break;
        }
    }
    if input.peek(token::Brace) {
        input.parse::<TokenTree>()?.to_tokens(&mut tokens);
    } else if input.peek(token::Paren) {
        // `&(rust expression)`: checked here, so a slip is reported on its tokens.
        let group: proc_macro2::Group = input.parse()?;
        syn::parse2::<syn::Expr>(group.stream())?;
        group.to_tokens(&mut tokens);
    } else {
        parse_path_chain(input, &mut tokens)?;
    }
    Ok(Expr::Operand(Operand { tokens, span }))
}

/// A path operand (`x`, `self.w`, `m::W`, `x.view()`), or a function call `f(...)`.
fn parse_path_operand(input: ParseStream, depth: usize) -> Result<Expr> {
    let span = input.span();
    if input.peek(syn::Ident) && input.peek2(Token![::]) {
        let fork = input.fork();
        let name = fork.parse::<syn::Ident>()?;
        if name == "reshape" {
            return parse_reshape(input, depth);
        }
        // `name::<..>(..)` is a call with a turbofish, which only `reshape`
        // takes; a path `m::W` goes on below.
        fork.parse::<Token![::]>()?;
        if fork.peek(Token![<]) {
            return Err(crate::functions::unknown_name(&name));
        }
    }
    if input.peek(syn::Ident) && input.peek2(token::Paren) {
        let name: syn::Ident = input.parse()?;
        if name == "in_dims" {
            return parse_in_dims(input, name, depth);
        }
        if name == "transpose" || name == "permute" {
            return parse_permute(input, name, depth);
        }
        return parse_call(input, name, depth);
    }
    let mut tokens = TokenStream::new();
    parse_path_chain(input, &mut tokens)?;
    Ok(Expr::Operand(Operand { tokens, span }))
}

/// The rest of `in_dims(x, [d0, d1, ...])` after its name; `( )` also works for
/// the tuple, as XLA writes it.
fn parse_in_dims(input: ParseStream, name: syn::Ident, depth: usize) -> Result<Expr> {
    let content;
    let parens = syn::parenthesized!(content in input);
    if content.is_empty() {
        return Err(Error::new(
            parens.span.join(),
            "expected `in_dims(x, [d0, d1, ...])`",
        ));
    }
    let operand = operand_only(
        parse_expr(&content, 0, depth + 1)?,
        &name,
        "`in_dims` takes a tensor operand, not an expression: compute the expression first, \
         or write it in a block, `in_dims({ tensor_expr!(...) }, [..])`",
    )?;
    if content.is_empty() {
        return Err(Error::new(
            parens.span.close(),
            "expected a tuple of dims after the operand: `in_dims(x, [1])`",
        ));
    }
    content.parse::<Token![,]>()?;
    let (dims, tuple_span) = parse_dim_list(&content, "in_dims dims", "[1, 2]")?;
    if !content.is_empty() {
        return Err(
            content.error("`in_dims` takes two arguments: the operand and the tuple of dims")
        );
    }
    Ok(Expr::InDims {
        name,
        operand,
        dims,
        tuple_span,
    })
}

/// A list of integer literals, `[0, -1]` (or `(0, -1)`, as XLA writes tuples),
/// and its span. `what` and `example` name it in errors.
fn parse_dim_list(
    input: ParseStream,
    what: &str,
    example: &str,
) -> Result<(Vec<DimLiteral>, Span)> {
    let list;
    let list_span = if input.peek(token::Bracket) {
        syn::bracketed!(list in input).span.join()
    } else if input.peek(token::Paren) {
        syn::parenthesized!(list in input).span.join()
    } else {
        return Err(input.error(format_args!("expected the {what} as a list: `{example}`")));
    };
    let mut dims = Vec::new();
    while !list.is_empty() {
        let span = list.span();
        let negative = list.parse::<Option<Token![-]>>()?.is_some();
        let literal: syn::LitInt = list.parse().map_err(|_| {
            Error::new(
                span,
                format!("{what} are integer literals, like `{example}`"),
            )
        })?;
        let value = literal
            .base10_parse::<i128>()
            .map_err(|_| Error::new(literal.span(), "dim too large"))?;
        dims.push(DimLiteral {
            value: if negative { -value } else { value },
            span,
        });
        if list.is_empty() {
            break;
        }
        list.parse::<Token![,]>()?;
    }
    Ok((dims, list_span))
}

/// The rest of a call `f(a, b, ..)` after its name: a function call, or a
/// reduction (`sum(x)`, `sum(x, [axes])`, `sum(x, [axes], keepdim)`,
/// `sum(x, keepdim)`). `max` and `min` are both: the tokens after the first
/// argument decide. Every argument is parsed exactly once, so nested calls
/// parse in time linear in their size (a speculative parse of the first
/// argument, repeated on the way back, doubled the work per nesting level).
fn parse_call(input: ParseStream, name: syn::Ident, depth: usize) -> Result<Expr> {
    let text = name.to_string();
    if INDEX_REDUCTIONS.contains(&text.as_str()) {
        return Err(Error::new(
            name.span(),
            format!(
                "`{text}` gives `usize` positions, not values, so it stands only around the whole \
                 expression: `tensor_expr!({text}(e, [axis]))`; bind its result with `let` to use it further"
            ),
        ));
    }
    let content;
    let parens = syn::parenthesized!(content in input);
    if !crate::functions::is_known(&text) {
        // Validation reports the unknown name, with every other mistake;
        // the arguments are not read, since how to read them depends on
        // what the call is.
        let _ = content.parse::<TokenStream>();
        return Ok(Expr::Call {
            name,
            args: Vec::new(),
        });
    }
    let reduction = crate::functions::lookup_reduction(&text).is_some();
    if content.is_empty() {
        if reduction {
            let usage = reduction_usage(&name);
            return Err(Error::new(parens.span.join(), usage));
        }
        return Ok(Expr::Call {
            name,
            args: Vec::new(),
        });
    }
    let first = parse_expr(&content, 0, depth + 1)?;
    if reduction && (content.is_empty() || continues_as_reduction(&content, &name)) {
        return parse_reduction_rest(&content, name, first);
    }
    let mut args = vec![first];
    while !content.is_empty() {
        content.parse::<Token![,]>()?;
        if content.is_empty() {
            break;
        }
        args.push(parse_expr(&content, 0, depth + 1)?);
    }
    Ok(Expr::Call { name, args })
}

/// How a reduction is written, for its errors.
fn reduction_usage(name: &syn::Ident) -> String {
    format!("expected `{name}(x)`, `{name}(x, [axes])` or `{name}(x, [axes], keepdim)`")
}

/// After a call's first argument: `, [axes]` or `, keepdim` make it a
/// reduction; anything else after a comma is a second argument (elementwise
/// `max(a, b)`), or a malformed reduction where the name is only a reduction.
fn continues_as_reduction(content: ParseStream, name: &syn::Ident) -> bool {
    let fork = content.fork();
    if fork.parse::<Token![,]>().is_err() {
        return false;
    }
    fork.peek(token::Bracket)
        || is_keepdim(&fork)
        || crate::functions::lookup(&name.to_string()).is_none()
}

/// The end of a call after its axes list: nothing, or `, keepdim` (consumed,
/// `true`); anything else is an error that shows `usage`.
fn parse_keepdim_tail(content: ParseStream, usage: &str) -> Result<bool> {
    if content.is_empty() {
        return Ok(false);
    }
    content.parse::<Token![,]>()?;
    if !is_keepdim(content) {
        return Err(content.error(usage));
    }
    content.parse::<syn::Ident>()?;
    if !content.is_empty() {
        return Err(content.error(usage));
    }
    Ok(true)
}

/// Whether the next token is the `keepdim` flag.
fn is_keepdim(stream: ParseStream) -> bool {
    stream
        .fork()
        .parse::<syn::Ident>()
        .is_ok_and(|ident| ident == "keepdim")
}

/// A reduction's axes and flag after its operand.
fn parse_reduction_rest(content: ParseStream, name: syn::Ident, operand: Expr) -> Result<Expr> {
    let usage = reduction_usage(&name);
    let (mut axes, mut axes_span, mut keepdim) = (None, name.span(), false);
    if !content.is_empty() {
        content.parse::<Token![,]>()?;
        if content.peek(token::Bracket) {
            let (list, span) = parse_dim_list(content, "reduction axes", "[1]")?;
            (axes, axes_span) = (Some(list), span);
            keepdim = parse_keepdim_tail(content, &usage)?;
        } else if is_keepdim(content) {
            content.parse::<syn::Ident>()?;
            keepdim = true;
            if !content.is_empty() {
                return Err(content.error(usage));
            }
        } else {
            return Err(content.error(usage));
        }
    }
    Ok(Expr::Reduce {
        name,
        operand: Box::new(operand),
        axes,
        axes_span,
        keepdim,
    })
}

/// The rest of `transpose(x)` or `permute(x, [2, 0, 1])` after the name.
fn parse_permute(input: ParseStream, name: syn::Ident, depth: usize) -> Result<Expr> {
    let content;
    let parens = syn::parenthesized!(content in input);
    let usage = if name == "transpose" {
        "expected `transpose(x)`"
    } else {
        "expected `permute(x, [..])` with a permutation of the dims, like `[1, 0]`"
    };
    if content.is_empty() {
        return Err(Error::new(parens.span.join(), usage));
    }
    let operand = parse_expr(&content, 0, depth + 1)?;
    let operand = operand_only(operand, &name, &reads_in_place(&name))?;
    let (perm, perm_span) = if name == "transpose" {
        (None, name.span())
    } else {
        if content.is_empty() {
            return Err(Error::new(parens.span.close(), usage));
        }
        content.parse::<Token![,]>()?;
        let (list, span) = parse_dim_list(&content, "permute dims", "[1, 0]")?;
        (Some(list), span)
    };
    if !content.is_empty() {
        return Err(content.error(usage));
    }
    Ok(Expr::Permute {
        name,
        operand,
        perm,
        perm_span,
    })
}

/// `reshape::<Shape![8, 8]>(x)`.
fn parse_reshape(input: ParseStream, depth: usize) -> Result<Expr> {
    let name: syn::Ident = input.parse()?;
    input.parse::<Token![::]>()?;
    input.parse::<Token![<]>()?;
    let shape: syn::Type = input.parse()?;
    input.parse::<Token![>]>()?;
    let content;
    let parens = syn::parenthesized!(content in input);
    if content.is_empty() {
        return Err(Error::new(
            parens.span.join(),
            "expected `reshape::<Shape![..]>(x)`",
        ));
    }
    let operand = parse_expr(&content, 0, depth + 1)?;
    let operand = operand_only(operand, &name, &reads_in_place(&name))?;
    if !content.is_empty() {
        return Err(content.error("`reshape` takes one operand: `reshape::<Shape![..]>(x)`"));
    }
    Ok(Expr::Reshape {
        name,
        shape: Box::new(shape),
        operand,
    })
}

/// The operand of `in_dims`, `transpose`, `permute` or `reshape`, which read
/// a tensor's data in place; an expression there is the error `message`, on
/// the construct's name.
fn operand_only(expr: Expr, name: &syn::Ident, message: &str) -> Result<Operand> {
    match expr {
        Expr::Operand(operand) => Ok(operand),
        _ => Err(Error::new(name.span(), message)),
    }
}

/// Why `transpose`, `permute` and `reshape` take an operand, and what to do.
fn reads_in_place(name: &syn::Ident) -> String {
    format!(
        "`{name}` takes a tensor operand, not an expression: it reads the tensor's data in place \
         (zero-copy). Compute the expression into a tensor first, or write it in a block, \
         `{name}({{ tensor_expr!(...) }}{})`",
        if name == "permute" { ", [..]" } else { "" }
    )
}

/// A path followed by field accesses and method calls: `a::b.c.0.d(args)`.
fn parse_path_chain(input: ParseStream, tokens: &mut TokenStream) -> Result<()> {
    let path = syn::Path::parse_mod_style(input)?;
    path.to_tokens(tokens);
    while input.peek(Token![.]) && !input.peek(Token![..]) {
        input.parse::<Token![.]>()?.to_tokens(tokens);
        if input.peek(syn::LitInt) {
            input.parse::<syn::LitInt>()?.to_tokens(tokens);
        } else {
            input.call(syn::Ident::parse_any)?.to_tokens(tokens);
            if input.peek(Token![::]) {
                let turbofish: syn::AngleBracketedGenericArguments = {
                    input.parse::<Token![::]>()?.to_tokens(tokens);
                    input.parse()?
                };
                turbofish.to_tokens(tokens);
            }
            if input.peek(token::Paren) {
                input.parse::<TokenTree>()?.to_tokens(tokens);
            }
        }
    }
    Ok(())
}
