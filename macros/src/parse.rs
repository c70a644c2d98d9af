//! Tokens to [`ast`](crate::ast): a precedence-climbing (Pratt) parser that keeps
//! the span of every operator and operand. It only checks syntax; the function
//! table and arities are [`validate`](crate::validate)'s job.

use crate::ast::{
    AssignOp, BinaryOp, DimList, DimLiteral, Expr, Form, IndexOf, OpCall, Operand, OptionArg,
    Statement,
};
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::{token, Error, Result, Token};
use tensor_expr_catalog::operation::{self, Dims, NamedOption, Operation};

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
        let (strict, scratch_budget) = parse_prefixes(input)?;
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
            return Err(expected_operator(input, "the end of the expression"));
        }
        let (form, index_of) = split_index_of(form)?;
        Ok(Statement {
            strict,
            scratch_budget,
            form,
            index_of,
        })
    }
}

/// An operation that gives positions (`argmax(e, [axis])`) as the whole
/// input: split into the value `e` and the positions to take of it, its one
/// axis checked here. Anywhere else such an operation is
/// [`validate`](crate::validate)'s error.
fn split_index_of(form: Form) -> Result<(Form, Option<IndexOf>)> {
    let call = match form {
        Form::Evaluate(Expr::Op(call)) if call.op.reads.gives_positions() => call,
        form => return Ok((form, None)),
    };
    let name = call.name;
    let axis = match call.dims.as_ref().map(|list| &list.dims[..]) {
        Some([axis]) if axis.value < 0 => {
            let message = format!(
                "`{name}` counts its axis from 0, the first dim; write the axis as a non-negative number"
            );
            return Err(Error::new(axis.span, message));
        }
        Some([axis]) if usize::try_from(axis.value).is_err() => {
            return Err(Error::new(axis.span, "axis too large"));
        }
        Some([axis]) => *axis,
        _ => {
            let span = call.dims.map_or(name.span(), |list| list.span);
            return Err(Error::new(span, crate::functions::op_usage(call.op)));
        }
    };
    let index_of = IndexOf {
        op: call.op,
        name,
        axis,
        keepdim: call.keepdim,
    };
    let value = call.inputs.into_iter().next().expect("one input");
    Ok((Form::Evaluate(value), Some(index_of)))
}

/// An operation's definition (`Build::Composite`) as an expression, `x`
/// standing for its input.
pub fn parse_definition(text: &str) -> Result<Expr> {
    use syn::parse::Parser;
    let parser = |input: ParseStream| {
        let expr = parse_expr(input, 0, 0)?;
        if !input.is_empty() {
            return Err(input.error("expected the end of the definition"));
        }
        Ok(expr)
    };
    parser.parse_str(text)
}

/// The prefixes at the start of the input, in either order, each at most
/// once: `strict:` (whether given) and `scratch <= N:` (the budget `N`).
fn parse_prefixes(input: ParseStream) -> Result<(bool, Option<TokenStream>)> {
    let (mut strict, mut budget) = (false, None);
    loop {
        let word = input.fork().call(syn::Ident::parse_any).ok();
        let name = match word {
            Some(word)
                if word == "strict" && input.peek2(Token![:]) && !input.peek2(Token![::]) =>
            {
                "strict"
            }
            Some(word) if word == "scratch" && is_budget_prefix(input) => "scratch",
            _ => return Ok((strict, budget)),
        };
        let word = input.call(syn::Ident::parse_any)?;
        if (name == "strict" && strict) || (name == "scratch" && budget.is_some()) {
            return Err(Error::new(word.span(), format!("`{name}` is given twice")));
        }
        if name == "strict" {
            strict = true;
        } else {
            input.parse::<Token![<=]>()?;
            budget = Some(parse_budget(input)?);
        }
        input.parse::<Token![:]>().map_err(|error| {
            Error::new(
                error.span(),
                format!("expected `:` after the `{name}` prefix"),
            )
        })?;
        if input.is_empty() {
            let prefix = if name == "strict" {
                "strict:"
            } else {
                "scratch <= N:"
            };
            return Err(input.error(format!("expected a tensor expression after `{prefix}`")));
        }
    }
}

/// Whether the input starts `scratch <= N:` (a budget, then one colon),
/// not a comparison of a tensor named `scratch`.
fn is_budget_prefix(input: ParseStream) -> bool {
    let fork = input.fork();
    fork.call(syn::Ident::parse_any).is_ok()
        && fork.parse::<Token![<=]>().is_ok()
        && (fork.parse::<syn::LitInt>().is_ok() || fork.parse::<syn::Path>().is_ok())
        && fork.peek(Token![:])
        && !fork.peek(Token![::])
}

/// The budget of `scratch <= N:`: an integer literal (bytes) or a path to a
/// `usize` constant.
fn parse_budget(input: ParseStream) -> Result<TokenStream> {
    let expected = |span| {
        Error::new(
            span,
            "expected the scratch budget in bytes, a number or a `usize` constant: `scratch <= 1024:`",
        )
    };
    if input.peek(syn::LitInt) {
        let bytes: syn::LitInt = input.parse()?;
        let value = bytes
            .base10_parse::<usize>()
            .map_err(|_| expected(bytes.span()))?;
        let mut token = TokenTree::Literal(proc_macro2::Literal::usize_unsuffixed(value));
        token.set_span(bytes.span());
        return Ok(token.into());
    }
    let path = input
        .parse::<syn::Path>()
        .map_err(|error| expected(error.span()))?;
    Ok(quote::quote!({ #path }))
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
    if let Some(error) = read_only_slice(&target) {
        return Err(error);
    }
    use syn::parse::discouraged::Speculative;
    input.advance_to(&fork);
    Ok(Some((target, op, span)))
}

/// The error for a target that ends in one of the containers' read-only
/// slicing methods, naming the writable view to assign into instead.
fn read_only_slice(target: &TokenStream) -> Option<Error> {
    let mut last_method = None;
    let mut after_dot = false;
    for token in target.clone() {
        match &token {
            TokenTree::Punct(p) if p.as_char() == '.' => after_dot = true,
            TokenTree::Ident(ident) if after_dot => {
                last_method = Some(ident.clone());
                after_dot = false;
            }
            _ => after_dot = false,
        }
    }
    let method = last_method?;
    let instead = match method.to_string().as_str() {
        "narrow" => {
            "assign into `x.narrow_mut::<0, START, LEN>()`, a writable view of the same rows"
        }
        "at" => "assign into `x.at_mut(i)`, a writable view of the same sub-tensor",
        "index_axis" | "index_axis_keepdim" | "windows" => {
            "a strided slice cannot be written in place: assign into `x.at_mut(i)` (along the \
             first axis) or `x.narrow_mut::<0, START, LEN>()`, or into a tensor and copy"
        }
        _ => return None,
    };
    Some(Error::new(
        method.span(),
        format!("`{method}` gives a read-only view, which cannot be assigned into: {instead}"),
    ))
}

/// An assignment target: a place expression (`out`, `*out`, `self.out`, `bufs.0`).
fn parse_place(input: ParseStream) -> Result<TokenStream> {
    let mut tokens = TokenStream::new();
    while input.peek(Token![*]) {
        input.parse::<Token![*]>()?.to_tokens(&mut tokens);
    }
    parse_path_chain(input, &mut tokens, Chain::AsWritten)?;
    Ok(tokens)
}

/// The error for tokens after an operand where an operator or `end` must
/// come; `as` gets its own, since a cast inside the expression is what it
/// means.
fn expected_operator(input: ParseStream, end: &str) -> syn::Error {
    if input.peek(Token![as]) {
        let fork = input.fork();
        let to = fork
            .parse::<Token![as]>()
            .and_then(|_| fork.parse::<syn::Type>());
        let to = to.map_or_else(|_| "U".to_string(), |ty| ty.to_token_stream().to_string());
        return input.error(format_args!(
            "`as` does not convert inside `tensor_expr!`: write `cast::<{to}>(..)` around the \
             operand (Rust's `as`, per element), or `saturating_cast::<{to}>(..)` to clamp to \
             the range of `{to}`"
        ));
    }
    input.error(format_args!(
        "expected an operator (`+ - * / @ >> <<` or a comparison) or {end}"
    ))
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
        // `<=`, `>=`, `==`, `!=`, `>>` and `<<` are two punctuation tokens.
        let tokens = if matches!(
            op,
            BinaryOp::Le
                | BinaryOp::Ge
                | BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Shr
                | BinaryOp::Shl
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
    let op = if input.peek(Token![>>]) {
        BinaryOp::Shr
    } else if input.peek(Token![<<]) {
        BinaryOp::Shl
    } else if input.peek(Token![<=]) {
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
        || input.peek(Token![>>=])
        || input.peek(Token![<<=])
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
            return Err(expected_operator(&content, "`)`"));
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
        // Behind `&`, a `windows` call is the borrowed operand's, not the
        // receiver's: kept as written.
        parse_path_chain(input, &mut tokens, Chain::AsWritten)?;
    }
    Ok(Expr::Operand(Operand { tokens, span }))
}

/// A path operand (`x`, `self.w`, `m::W`, `x.view()`), or a call `f(...)`
/// of a function or an operation of the table.
fn parse_path_operand(input: ParseStream, depth: usize) -> Result<Expr> {
    let span = input.span();
    if input.peek(syn::Ident) && input.peek2(Token![::]) {
        let fork = input.fork();
        let name = fork.parse::<syn::Ident>()?;
        fork.parse::<Token![::]>()?;
        // `name::<..>(..)` is a call with a turbofish, which only an
        // operation that takes a shape has; a path `m::W` goes on below.
        if fork.peek(Token![<]) {
            let op = operation::lookup(&name.to_string()).filter(|op| op.signature.type_arg);
            let Some(op) = op else {
                return Err(crate::functions::unknown_name(&name));
            };
            let name: syn::Ident = input.parse()?;
            input.parse::<Token![::]>()?;
            input.parse::<Token![<]>()?;
            let type_arg: syn::Type = input.parse()?;
            input.parse::<Token![>]>()?;
            return parse_op(input, name, op, Some(Box::new(type_arg)), depth);
        }
    }
    if input.peek(syn::Ident) && input.peek2(token::Paren) {
        let name: syn::Ident = input.parse()?;
        let text = name.to_string();
        return match operation::lookup(&text) {
            Some(op) if op.signature.type_arg => {
                Err(Error::new(name.span(), crate::functions::op_usage(op)))
            }
            Some(op) if crate::functions::lookup(&text).is_none() => {
                parse_op(input, name, op, None, depth)
            }
            _ => parse_call(input, name, depth),
        };
    }
    let mut tokens = TokenStream::new();
    parse_path_chain(input, &mut tokens, Chain::Operand)?;
    Ok(Expr::Operand(Operand { tokens, span }))
}

/// The rest of a call of the table's operation `op` after its name (and the
/// shape of one that takes a shape): `(x)`, then the dim list and `keepdim`
/// where its signature has them.
fn parse_op(
    input: ParseStream,
    name: syn::Ident,
    op: &'static Operation,
    type_arg: Option<Box<syn::Type>>,
    depth: usize,
) -> Result<Expr> {
    let content;
    let parens = syn::parenthesized!(content in input);
    if content.is_empty() {
        return Err(Error::new(
            parens.span.join(),
            crate::functions::op_usage(op),
        ));
    }
    let first = parse_expr(&content, 0, depth + 1)?;
    let call = OpCall::new(op, name, first, type_arg);
    parse_op_rest(&content, call, parens.span.close(), depth)
}

/// The rest of an operation's call after its first input: its other
/// inputs, then `, [dims]`, `, keepdim` and `, option = [..]`, each where the
/// signature has it, in that order (the options in any order); `close` is
/// the span of the closing parenthesis, where a missing part is reported.
fn parse_op_rest(
    content: ParseStream,
    mut call: OpCall,
    close: Span,
    depth: usize,
) -> Result<Expr> {
    let signature = call.op.signature;
    let usage = || crate::functions::op_usage(call.op);
    while call.inputs.len() < signature.inputs {
        if content.is_empty() {
            return Err(Error::new(close, usage()));
        }
        content.parse::<Token![,]>()?;
        if content.is_empty() {
            return Err(Error::new(close, usage()));
        }
        // A list where an input belongs: an input is missing before it.
        if content.peek(token::Bracket) {
            return Err(content.error(usage()));
        }
        call.inputs.push(parse_expr(content, 0, depth + 1)?);
    }
    while !content.is_empty() {
        content.parse::<Token![,]>()?;
        if content.is_empty() {
            break;
        }
        let list_next = content.peek(token::Bracket) || content.peek(token::Paren);
        let before_flags = call.dims.is_none() && !call.keepdim && call.options.is_empty();
        if list_next && signature.dims != Dims::None && before_flags {
            let (what, example) = dims_words(signature.dims);
            let (list, span) = parse_dim_list(content, what, example)?;
            call.dims = Some(DimList { dims: list, span });
        } else if signature.keepdim
            && !call.keepdim
            && call.options.is_empty()
            && is_keepdim(content)
        {
            content.parse::<syn::Ident>()?;
            call.keepdim = true;
        } else if content.peek(syn::Ident) && content.peek2(Token![=]) && !content.peek2(Token![==])
        {
            let option = parse_option(content, &call)?;
            call.options.push(option);
        } else {
            return Err(content.error(usage()));
        }
    }
    let list_missing = call.dims.is_none() && signature.dims != Dims::None;
    if list_missing && !signature.dims_optional {
        return Err(Error::new(close, usage()));
    }
    Ok(Expr::Op(call))
}

/// A named option, one of the signature's, given once: `stride = [2, 2]`,
/// `groups = 4` (one value) or `padding = same` (a keyword), each value
/// checked against the option's description.
fn parse_option(content: ParseStream, call: &OpCall) -> Result<OptionArg> {
    let name: syn::Ident = content.parse()?;
    let options = call.op.signature.options;
    let Some(option) = options.iter().find(|option| name == option.name) else {
        let message = if options.is_empty() {
            format!(
                "`{}` takes no named option; {}",
                call.op.name,
                crate::functions::op_usage(call.op)
            )
        } else {
            let names: Vec<&str> = options.iter().map(|option| option.name).collect();
            format!(
                "`{}` has no option `{name}`; its options are: {}",
                call.op.name,
                names.join(", ")
            )
        };
        return Err(Error::new(name.span(), message));
    };
    if call.options.iter().any(|given| given.name == name) {
        return Err(Error::new(
            name.span(),
            format!("the option `{name}` is given twice"),
        ));
    }
    content.parse::<Token![=]>()?;
    let expected = option_values(option);
    // `true` and `false` are literals, not identifiers, to syn.
    let boolean = content.peek(syn::LitBool);
    if content.peek(syn::Ident) || boolean {
        let keyword = if boolean {
            let value: syn::LitBool = content.parse()?;
            syn::Ident::new(if value.value { "true" } else { "false" }, value.span)
        } else {
            content.parse::<syn::Ident>()?
        };
        if !option.keywords.iter().any(|k| keyword == k) {
            return Err(Error::new(
                keyword.span(),
                format!("`{name}` takes {expected}, not `{keyword}`"),
            ));
        }
        let span = keyword.span();
        return Ok(OptionArg {
            name,
            list: DimList {
                dims: Vec::new(),
                span,
            },
            keyword: Some(keyword),
            sides: false,
        });
    }
    if option.sides && is_nested_list(content) {
        return parse_sides(content, name, option, &expected);
    }
    let minus = option.negative && content.peek(Token![-]) && content.peek2(syn::LitInt);
    let (dims, span) = if content.peek(syn::LitInt) || minus {
        let sign = if minus {
            content.parse::<Token![-]>()?;
            -1
        } else {
            1
        };
        let literal: syn::LitInt = content.parse()?;
        let value = literal
            .base10_parse::<i128>()
            .ok()
            .filter(|v| *v <= isize::MAX as i128)
            .ok_or_else(|| Error::new(literal.span(), "value too large"))?;
        let span = literal.span();
        (
            vec![DimLiteral {
                value: sign * value,
                span,
            }],
            span,
        )
    } else {
        parse_dim_list(content, "option values", "[2, 2]")?
    };
    if !option.lengths.contains(&dims.len()) {
        let found = match &dims[..] {
            [one] => format!("`{}`", one.value),
            many => format!("{} values", many.len()),
        };
        return Err(Error::new(
            span,
            format!("`{name}` takes {expected}, not {found}"),
        ));
    }
    for dim in &dims {
        if (dim.value < 0 && !option.negative) || (dim.value == 0 && !option.zero) {
            return Err(Error::new(
                dim.span,
                format!("`{name}` takes {expected}, not {}", dim.value),
            ));
        }
    }
    Ok(OptionArg {
        name,
        list: DimList { dims, span },
        keyword: None,
        sides: false,
    })
}

/// Whether a list of lists comes next: `[[1, 2], [0, 1]]`.
fn is_nested_list(content: ParseStream) -> bool {
    fn first_is_list(input: ParseStream) -> Result<bool> {
        let inner;
        syn::bracketed!(inner in input);
        Ok(inner.peek(token::Bracket))
    }
    content.peek(token::Bracket) && first_is_list(&content.fork()).unwrap_or(false)
}

/// An option's values as a pair per dim, `[[before, after], ..]` (a
/// padding per side), as many pairs as the option takes values, each value
/// non-negative.
fn parse_sides(
    content: ParseStream,
    name: syn::Ident,
    option: &NamedOption,
    expected: &str,
) -> Result<OptionArg> {
    let outer;
    let bracket = syn::bracketed!(outer in content);
    let span = bracket.span.join();
    let mut dims = Vec::new();
    let mut pairs = 0;
    while !outer.is_empty() {
        let (pair, pair_span) = parse_dim_list(&outer, "option values", "[1, 2]")?;
        if pair.len() != 2 {
            return Err(Error::new(
                pair_span,
                format!(
                    "`{name}` per side is `[before, after]` for each dim, not {} values",
                    pair.len()
                ),
            ));
        }
        if let Some(negative) = pair.iter().find(|d| d.value < 0) {
            return Err(Error::new(
                negative.span,
                format!("`{name}` takes {expected}, not {}", negative.value),
            ));
        }
        dims.extend(pair);
        pairs += 1;
        if outer.is_empty() {
            break;
        }
        outer.parse::<Token![,]>()?;
    }
    if !option.lengths.contains(&pairs) {
        return Err(Error::new(
            span,
            format!("`{name}` takes {expected}, not {pairs} pairs"),
        ));
    }
    Ok(OptionArg {
        name,
        list: DimList { dims, span },
        keyword: None,
        sides: true,
    })
}

/// What an option takes, for its errors: "a positive integer or a list of
/// 2 (`[2, 2]`), or one of: same, valid".
fn option_values(option: &NamedOption) -> String {
    let sign = if option.negative {
        "signed"
    } else if option.zero {
        "non-negative"
    } else {
        "positive"
    };
    let mut parts = Vec::new();
    match option.lengths {
        [] => {}
        [1] => parts.push(format!("a {sign} integer")),
        lengths => {
            let longest = lengths.iter().max().copied().unwrap_or(1);
            let example = vec!["1"; longest].join(", ");
            parts.push(format!(
                "a {sign} integer or a list of {longest} (`[{example}]`)"
            ));
        }
    }
    if option.sides {
        let pairs = vec!["[0, 1]"; option.lengths.iter().max().copied().unwrap_or(1)];
        parts.push(format!("a pair per side (`[{}]`)", pairs.join(", ")));
    }
    if !option.keywords.is_empty() {
        parts.push(format!("one of: {}", option.keywords.join(", ")));
    }
    parts.join(", or ")
}

/// How a kind of dim list is named in errors, and an example of one.
fn dims_words(dims: Dims) -> (&'static str, &'static str) {
    match dims {
        Dims::AxisList => ("reduction axes", "[1]"),
        Dims::SingleAxis => ("axes", "[1]"),
        Dims::Permutation => ("permute dims", "[1, 0]"),
        Dims::Positions => ("in_dims dims", "[1, 2]"),
        Dims::Sizes(_) => ("kernel sizes", "[2, 2]"),
        Dims::None => ("dims", "[0]"),
    }
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

/// The rest of a call `f(a, b, ..)` of a function after its name. `max`
/// and `min` are also operations (`max(x, [1])`): the tokens after the
/// first argument decide. Every argument is parsed exactly once, so nested
/// calls parse in time linear in their size (a speculative parse of the
/// first argument, repeated on the way back, doubled the work per nesting
/// level).
fn parse_call(input: ParseStream, name: syn::Ident, depth: usize) -> Result<Expr> {
    let text = name.to_string();
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
    let op = operation::lookup(&text);
    if content.is_empty() {
        if let Some(op) = op {
            return Err(Error::new(
                parens.span.join(),
                crate::functions::op_usage(op),
            ));
        }
        return Ok(Expr::Call {
            name,
            args: Vec::new(),
        });
    }
    let first = parse_expr(&content, 0, depth + 1)?;
    if let Some(op) = op.filter(|_| content.is_empty() || continues_as_op(&content)) {
        let call = OpCall::new(op, name, first, None);
        return parse_op_rest(&content, call, parens.span.close(), depth);
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

/// After a call's first argument: `, [axes]` or `, keepdim` make a name
/// that is both a function and an operation (`max`) the operation; anything
/// else after a comma is a second argument (`max(a, b)`).
fn continues_as_op(content: ParseStream) -> bool {
    let fork = content.fork();
    if fork.parse::<Token![,]>().is_err() {
        return false;
    }
    fork.peek(token::Bracket) || is_keepdim(&fork)
}

/// Whether the next token is the `keepdim` flag.
fn is_keepdim(stream: ParseStream) -> bool {
    stream
        .fork()
        .parse::<syn::Ident>()
        .is_ok_and(|ident| ident == "keepdim")
}

/// How a path chain is kept: an operand's `windows` calls become the
/// runtime's function (see [`windows_call`]); a place (so that a slice as a
/// target is reported by its method's name) and a borrowed operand are
/// kept as written.
#[derive(Clone, Copy)]
enum Chain {
    Operand,
    AsWritten,
}

/// A path followed by field accesses and method calls: `a::b.c.0.d(args)`.
fn parse_path_chain(input: ParseStream, tokens: &mut TokenStream, chain: Chain) -> Result<()> {
    let path = syn::Path::parse_mod_style(input)?;
    path.to_tokens(tokens);
    while input.peek(Token![.]) && !input.peek(Token![..]) {
        let dot = input.parse::<Token![.]>()?;
        if input.peek(syn::LitInt) {
            dot.to_tokens(tokens);
            input.parse::<syn::LitInt>()?.to_tokens(tokens);
            continue;
        }
        let method = input.call(syn::Ident::parse_any)?;
        let turbofish = if input.peek(Token![::]) {
            let colons = input.parse::<Token![::]>()?;
            Some((
                colons,
                input.parse::<syn::AngleBracketedGenericArguments>()?,
            ))
        } else {
            None
        };
        let arguments = if input.peek(token::Paren) {
            Some(input.parse::<proc_macro2::Group>()?)
        } else {
            None
        };
        if let (Chain::Operand, Some((_, generics)), Some(arguments)) =
            (chain, &turbofish, &arguments)
        {
            if method == "windows" && arguments.stream().is_empty() {
                *tokens = windows_call(&method, generics, tokens);
                continue;
            }
        }
        dot.to_tokens(tokens);
        method.to_tokens(tokens);
        if let Some((colons, generics)) = turbofish {
            colons.to_tokens(tokens);
            generics.to_tokens(tokens);
        }
        arguments.to_tokens(tokens);
    }
    Ok(())
}

/// `receiver.windows::<AXIS, SIZE, STEP>()` as the runtime's function of the
/// same name, of `receiver.as_strided()` (a method without bounds that can
/// fail, so that a reference or a view as the receiver is read as the
/// method would read it): rustc checks a function's bounds once it is resolved, so a
/// mistake is reported by the shape rule's own message (a window longer
/// than its axis, an axis beyond the sizes computed at compile time), where
/// the method's bounds are checked while rustc looks it up and fail as
/// E0599 on the latter.
fn windows_call(
    method: &syn::Ident,
    generics: &syn::AngleBracketedGenericArguments,
    receiver: &TokenStream,
) -> TokenStream {
    let arguments = generics.args.iter();
    quote::quote_spanned!(method.span()=>
        ::tensor_expr::__private::slice::windows::<#(#arguments,)* _, _>((#receiver).as_strided()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensor_expr_catalog::operation::{Build, Reads, RowOrder, Signature};

    /// An operation of two inputs and two named options, as a convolution
    /// has: the table's syntax carries both to the constructor.
    static TWO_INPUTS: Operation = Operation {
        name: "convolve",
        signature: Signature {
            inputs: 2,
            dims: Dims::None,
            dims_optional: true,
            keepdim: false,
            type_arg: false,
            options: &[
                NamedOption::sizes("stride", false),
                NamedOption {
                    keywords: &["same", "valid"],
                    ..NamedOption::sizes("padding", true)
                },
            ],
        },
        reads: Reads::InPlace(RowOrder::Kept),
        build: Build::Node {
            constructor: "convolve::convolve",
            marker: None,
        },
        elements: "Element",
        summary: "A test operation.",
        forms: &["convolve(x, w, stride = [..], padding = [..])"],
    };

    fn parse_two_inputs(args: &str) -> Result<OpCall> {
        let parser = |input: ParseStream| {
            let first = parse_expr(input, 0, 0)?;
            let name = syn::Ident::new("convolve", Span::call_site());
            let call = OpCall::new(&TWO_INPUTS, name, first, None);
            parse_op_rest(input, call, Span::call_site(), 0)
        };
        match syn::parse::Parser::parse_str(parser, args)? {
            Expr::Op(call) => Ok(call),
            _ => unreachable!("parse_op_rest gives an operation"),
        }
    }

    #[test]
    fn an_operand_windows_call_is_the_runtime_function_and_a_place_is_kept() {
        let chain = |input: &str, chain: Chain| {
            let parser = |stream: ParseStream| {
                let mut tokens = TokenStream::new();
                parse_path_chain(stream, &mut tokens, chain)?;
                Ok(tokens.to_string())
            };
            syn::parse::Parser::parse_str(parser, input).unwrap()
        };
        assert_eq!(
            chain(
                "self.audio.windows::<0, 480, 320>().to_tensor()",
                Chain::Operand
            ),
            ":: tensor_expr :: __private :: slice :: windows :: < 0 , 480 , 320 , _ , _ > \
             ((self . audio) . as_strided ()) . to_tensor ()"
        );
        // Twice: the second windows the first's result.
        assert_eq!(
            chain(
                "x.windows::<0, 4, 2>().windows::<1, 2, 1>()",
                Chain::Operand
            ),
            ":: tensor_expr :: __private :: slice :: windows :: < 1 , 2 , 1 , _ , _ > \
             ((:: tensor_expr :: __private :: slice :: windows :: < 0 , 4 , 2 , _ , _ > \
             ((x) . as_strided ())) . as_strided ())"
        );
        assert_eq!(
            chain("x.windows::<0, 4, 2>()", Chain::AsWritten),
            "x . windows :: < 0 , 4 , 2 > ()"
        );
        // Not the slicing method: no turbofish, or arguments.
        assert_eq!(chain("x.windows(4)", Chain::Operand), "x . windows (4)");
    }

    #[test]
    fn prefixes_come_in_either_order_once_each() {
        let parse = |input: &str| syn::parse_str::<Statement>(input);
        let both = parse("scratch <= 256: strict: p = f @ p").unwrap();
        assert!(both.strict);
        assert_eq!(both.scratch_budget.unwrap().to_string(), "256");
        let named = parse("strict: scratch <= BUDGET: f @ p").unwrap();
        assert_eq!(named.scratch_budget.unwrap().to_string(), "{ BUDGET }");
        assert!(parse("scratch + 1").unwrap().scratch_budget.is_none());
        assert!(parse("scratch <= limit").unwrap().scratch_budget.is_none());
        let error = |input: &str| parse(input).err().expect("an error").to_string();
        assert_eq!(error("strict: strict: x"), "`strict` is given twice");
        assert!(
            error("scratch <= 8:").ends_with("expected a tensor expression after `scratch <= N:`")
        );
        for bad in ["scratch <= -1: x", "scratch <= 99999999999999999999999: x"] {
            assert!(
                error(bad).starts_with("expected the scratch budget in bytes"),
                "{bad}"
            );
        }
    }

    #[test]
    fn inputs_and_named_options_are_read_by_the_signature() {
        let call = parse_two_inputs("x, w @ v, padding = [1, 1], stride = [2, 2]").unwrap();
        assert_eq!(call.inputs.len(), 2);
        let names: Vec<String> = call.options.iter().map(|o| o.name.to_string()).collect();
        assert_eq!(names, ["padding", "stride"]);
        assert_eq!(call.options[1].list.dims[1].value, 2);
        // The expansion passes the options in the signature's order, an
        // absent one as `()`, then both inputs.
        let statement = Statement {
            strict: false,
            scratch_budget: None,
            form: Form::Evaluate(Expr::Op(parse_two_inputs("x, w, stride = [2, 3]").unwrap())),
            index_of: None,
        };
        let expanded = crate::expand::expand(&statement)
            .to_string()
            .replace(' ', "");
        let call = "ops::convolve::convolve(__tensor_expr_context,::tensor_expr::__private::ops::witness::<(::tensor_expr::__private::D<2>,::tensor_expr::__private::D<3>,)>(),::tensor_expr::__private::ops::witness::<()>(),__tensor_expr_op0,__tensor_expr_op1)";
        assert!(expanded.contains(call), "{expanded}");
    }

    #[test]
    fn malformed_inputs_and_options_are_errors() {
        let error = |args| parse_two_inputs(args).err().map(|e| e.to_string());
        assert_eq!(
            error("x"),
            Some("expected `convolve(x, w, stride = [..], padding = [..])`".into())
        );
        assert_eq!(
            error("x, w, dilation = [2]"),
            Some("`convolve` has no option `dilation`; its options are: stride, padding".into())
        );
        assert_eq!(
            error("x, w, stride = [2], stride = [1]"),
            Some("the option `stride` is given twice".into())
        );
        assert_eq!(
            error("x, w, stride = -1"),
            Some("`stride` takes a positive integer or a list of 2 (`[1, 1]`), not -1".into())
        );
    }

    #[test]
    fn a_signed_option_takes_a_negative_value() {
        let call = |args: &str| {
            syn::parse_str::<Statement>(&format!("tril({args})")).map(|statement| {
                match statement.form {
                    Form::Evaluate(Expr::Op(call)) => call.options[0].list.dims[0].value,
                    _ => unreachable!("an operation"),
                }
            })
        };
        assert_eq!(call("x, diagonal = -2").unwrap(), -2);
        assert_eq!(call("x, diagonal = 3").unwrap(), 3);
        assert!(call("x, diagonal = [1, 2]").is_err());
    }
}
