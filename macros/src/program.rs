//! `#[tensor_expr::program]`: a function whose `let name = tensor_expr!(e);`
//! statements become tensors in one arena, placed by a plan rustc computes.
//!
//! From `fn kws(x: &In) -> Out { .. }` the attribute writes
//! - a *witness*: a function never called whose return type lists the
//!   planned tensors' types (the body again, inside a closure with the
//!   function's parameters and return type, so `?` and `return` keep their
//!   meaning; each planned tensor's type pushed on a
//!   `program::Footprints` list that a captured variable takes);
//! - constants: each planned tensor's size (from the witness's type), the
//!   statements that write and last read it (from the body's tokens), the
//!   plan (`program::plan`), `KWS_ARENA_BYTES`, and the `ram <= N` check;
//! - `kws_in(x, arena)`: the body, each planned statement expanded by the
//!   macro into its slot of the arena (a `&mut Tensor` there), and each
//!   planned tensor's binding ended after its last reader
//!   (`program::end`), so a borrow that would outlive it does not compile;
//! - `kws(x)`: `kws_in` over an arena on its own stack.
//!
//! A planned statement's stages (the parts its expression evaluates first)
//! are entries of the plan too, each a tensor and its kernels' scratch
//! alive while the statement runs, as are the result's. A top-level
//! `tensor_expr!` the plan does not place (an assignment, `argmax`,
//! fallible linear algebra) runs in `program::statement`, out of line;
//! other statements (and calls nested in blocks or loops) are kept as
//! written.

use crate::ast;
use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

/// The attribute's arguments: nothing, or `ram <= BYTES`.
struct Arguments {
    ram: Option<syn::Expr>,
}

impl syn::parse::Parse for Arguments {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        if input.is_empty() {
            return Ok(Arguments { ram: None });
        }
        let key: Ident = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), "expected `ram <= BYTES` or nothing"))?;
        if key != "ram" {
            return Err(syn::Error::new(
                key.span(),
                format!("unknown program option `{key}`: expected `ram <= BYTES`"),
            ));
        }
        input
            .parse::<syn::Token![<=]>()
            .map_err(|e| syn::Error::new(e.span(), "expected `<=` after `ram`"))?;
        let ram: syn::Expr = input.parse()?;
        if !input.is_empty() {
            return Err(input.error("expected nothing after `ram <= BYTES`"));
        }
        Ok(Arguments { ram: Some(ram) })
    }
}

/// The program's result, `tensor_expr!(e)` as the body's last
/// expression: returned, not in the arena, but its kernels' scratch is.
struct Tail {
    /// Its index among the body's statements.
    statement: usize,
    /// The parsed `tensor_expr!` statement.
    expression: ast::Statement,
    /// How many of its stages are in the arena.
    stages: usize,
}

/// One planned tensor: the statement that writes it and its binding.
struct Planned {
    /// Its index among the body's statements.
    statement: usize,
    /// The binding's name.
    name: Ident,
    /// The last statement that names it (`statement` if none does).
    last: usize,
    /// The parsed `tensor_expr!` statement.
    expression: ast::Statement,
    /// How many of its stages are in the arena.
    stages: usize,
    /// The planned tensor (its index) whose bytes its result may take
    /// ([`in_place_source`]).
    in_place: Option<usize>,
    /// Whether its value is an int8 layer that may be written over that
    /// tensor ([`reads_as_layer_input`]), not an elementwise value.
    over_input: bool,
}

/// How many of a planned statement's stages are in the arena.
fn arena_stages(expression: &ast::Statement) -> usize {
    crate::expand::stages_in_arena(expression)
        .into_iter()
        .filter(|&in_arena| in_arena)
        .count()
}

/// The planned tensor (its index in `planned`) whose bytes statement `k`'s
/// result may take, written in place as TinyEngine writes its elementwise
/// layers: one that statement `k` reads last, as a plain operand of a value
/// of elementwise operations alone (no product, no operation of the table,
/// no stage; not an assignment, not `argmax`), named in no other of its
/// operands. Whether it does is a constant of the types: where the result
/// has the tensor's size (`program::plan_taking`, `evaluate_in_place`).
///
/// Or, as TinyEngine writes its depthwise layers, an int8 layer whose
/// convolution reads the tensor (`over_input`, [`reads_as_layer_input`]):
/// whether it is written over it is a constant of the types
/// (`KernelScratch::OVER_INPUT_BYTES` in the witness's footprints, which
/// `program::choose_over_input` reads).
fn in_place_source(planned: &[Planned], k: usize) -> Option<(usize, bool)> {
    let statement = &planned[k].expression;
    let ast::Form::Evaluate(value) = &statement.form else {
        return None;
    };
    // An elementwise value nested deeper than a type may be still has
    // stages (`stage::split`'s deep parts).
    if statement.index_of.is_some() || !crate::expand::stages_in_arena(statement).is_empty() {
        return None;
    }
    let last_read = |p: &Planned| p.last == planned[k].statement;
    let elementwise = planned[..k].iter().position(|p| {
        let mut read = false;
        last_read(p) && read_elementwise(value, &p.name, &mut read) && read
    });
    let layer = || {
        planned[..k]
            .iter()
            .position(|p| last_read(p) && reads_as_layer_input(value, &p.name))
    };
    match elementwise {
        Some(source) => Some((source, false)),
        None => layer().map(|source| (source, true)),
    }
}

/// Whether `value` is an int8 layer reading `name` as the README's recipe
/// writes one: a conversion (`saturating_cast::<i8>(..)`) of elementwise
/// operations over one convolution whose input is `cast::<i32>(name)`,
/// plus or minus a constant, `name` named nowhere else.
fn reads_as_layer_input(value: &ast::Expr, name: &Ident) -> bool {
    let ast::Expr::Op(conversion) = value else {
        return false;
    };
    let [chain] = &conversion.inputs[..] else {
        return false;
    };
    let mut convolutions = 0;
    conversion.op.reads.scopes_input_element_type()
        && conversion.type_arg.is_some()
        && epilogue_over_input(chain, name, &mut convolutions)
        && convolutions == 1
}

/// Whether `expr` is elementwise operations over convolutions (counted in
/// `convolutions`) that read `name` as their converted input, and over
/// operands that do not name it.
fn epilogue_over_input(expr: &ast::Expr, name: &Ident, convolutions: &mut usize) -> bool {
    use ast::Expr;
    match expr {
        Expr::Binary { op, lhs, rhs, .. } => {
            *op != ast::BinaryOp::MatMul
                && epilogue_over_input(lhs, name, convolutions)
                && epilogue_over_input(rhs, name, convolutions)
        }
        Expr::Negate { operand, .. } => epilogue_over_input(operand, name, convolutions),
        Expr::Call { args, .. } => {
            !args.is_empty()
                && args
                    .iter()
                    .all(|arg| epilogue_over_input(arg, name, convolutions))
        }
        Expr::IntLiteral { .. } | Expr::FloatLiteral { .. } => true,
        Expr::Operand(operand) => !names(operand.tokens.clone(), name),
        Expr::Op(call) if matches!(call.op.name, "conv1d" | "conv2d") => {
            *convolutions += 1;
            let Some((input, rest)) = call.inputs.split_first() else {
                return false;
            };
            let reads_name = input.widened_operand().is_some_and(|widened| {
                matches!(&widened.cast.inputs[..], [Expr::Operand(x)] if *name == x.tokens.to_string())
                    && widened
                        .offset
                        .is_none_or(|(_, constant)| !mentions(constant, name))
            });
            reads_name && rest.iter().all(|other| !mentions(other, name))
        }
        Expr::Op(_) => false,
    }
}

/// Whether an operand of `expr` names `name`.
fn mentions(expr: &ast::Expr, name: &Ident) -> bool {
    use ast::Expr;
    match expr {
        Expr::Binary { lhs, rhs, .. } => mentions(lhs, name) || mentions(rhs, name),
        Expr::Negate { operand, .. } => mentions(operand, name),
        Expr::Call { args, .. } => args.iter().any(|arg| mentions(arg, name)),
        Expr::Op(call) => call.inputs.iter().any(|input| mentions(input, name)),
        Expr::IntLiteral { .. } | Expr::FloatLiteral { .. } => false,
        Expr::Operand(operand) => names(operand.tokens.clone(), name),
    }
}

/// Whether `expr` is elementwise operations alone, over operands of which
/// those that name `name` are `name` itself (`read` set where one is).
fn read_elementwise(expr: &ast::Expr, name: &Ident, read: &mut bool) -> bool {
    use ast::Expr;
    match expr {
        Expr::Binary { op, lhs, rhs, .. } => {
            *op != ast::BinaryOp::MatMul
                && read_elementwise(lhs, name, read)
                && read_elementwise(rhs, name, read)
        }
        Expr::Negate { operand, .. } => read_elementwise(operand, name, read),
        Expr::Call { args, .. } => {
            !args.is_empty() && args.iter().all(|arg| read_elementwise(arg, name, read))
        }
        Expr::IntLiteral { .. } | Expr::FloatLiteral { .. } => true,
        Expr::Operand(operand) => {
            if *name == operand.tokens.to_string() {
                *read = true;
                true
            } else {
                !names(operand.tokens.clone(), name)
            }
        }
        Expr::Op(_) => false,
    }
}

/// The plan's entries for the stages in the arena, after the planned
/// tensors', their statements' scratch and the result's scratch: for each
/// planned statement in order, then the result, each stage's tensor and
/// then its kernels' scratch.
struct StageEntries {
    /// The first stage entry's index.
    first: usize,
    /// Per planned statement (then the result), its stages' entries.
    statements: Vec<StagesOf>,
}

/// The stages in the arena of one planned statement (or of the result).
struct StagesOf {
    /// The statement's index among the body's statements.
    statement: usize,
    /// What the budget error calls the statement's tensor.
    name: String,
    /// The index of its first stage's entry.
    first: usize,
    /// How many stages it has in the arena.
    count: usize,
}

impl StageEntries {
    fn new(planned: &[Planned], tail: Option<&Tail>) -> Self {
        let first = 2 * planned.len() + usize::from(tail.is_some());
        let mut next = first;
        let mut statements = Vec::new();
        let each = planned
            .iter()
            .map(|p| (p.statement, p.name.to_string(), p.stages))
            .chain(tail.map(|t| (t.statement, "the result".to_string(), t.stages)));
        for (statement, name, count) in each {
            statements.push(StagesOf {
                statement,
                name,
                first: next,
                count,
            });
            next += 2 * count;
        }
        StageEntries { first, statements }
    }

    /// All stage entries' count.
    fn count(&self) -> usize {
        self.statements.iter().map(|stages| 2 * stages.count).sum()
    }
}

/// The local holding the place in the arena of stage `j` of the planned
/// statement `k` (`k` = the count of planned statements: the result's).
fn staged_name(k: usize, j: usize) -> Ident {
    format_ident!("__tensor_expr_staged{k}_{j}")
}

/// The witness's locals of the footprints of stage `j` of statement `k`:
/// its tensor's, then its scratch's.
fn stage_footprint_names(k: usize, j: usize) -> [Ident; 2] {
    [
        format_ident!("__tensor_expr_stage_footprint{k}_{j}"),
        format_ident!("__tensor_expr_stage_scratch_footprint{k}_{j}"),
    ]
}

/// Expands the attribute over `item`.
pub fn expand(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let options: Arguments = syn::parse2(args)?;
    let function: syn::ItemFn = syn::parse2(item)?;
    check_signature(&function.sig)?;
    let statements = &function.block.stmts;
    let planned = planned_statements(statements)?;
    let tail = tail_statement(statements)?;

    let name = &function.sig.ident;
    let upper = name.to_string().to_uppercase();
    let arena_bytes = format_ident!("{upper}_ARENA_BYTES", span = name.span());
    let tensor_bytes = format_ident!("{upper}_TENSOR_BYTES", span = name.span());
    let tensors = planned.len();
    let lifetimes = format_ident!("__TENSOR_EXPR_{upper}_LIFETIMES");
    let plan = format_ident!("__TENSOR_EXPR_{upper}_PLAN");
    let witness = format_ident!("__tensor_expr_{name}_witness");
    let footprints_of = format_ident!("__tensor_expr_{name}_footprints");
    let name_in = format_ident!("{name}_in", span = name.span());
    let rt = quote!(::tensor_expr::__private::program);
    // Each planned tensor, then each one's statement's kernel scratch
    // (alive while the statement runs), then the result's, then each
    // statement's stages and their scratch (alive while it runs).
    let stage_entries = StageEntries::new(&planned, tail.as_ref());
    let count = stage_entries.first + stage_entries.count();

    let witness_fn = witness_function(&function, &planned, tail.as_ref(), &witness);
    let stage_spans = stage_entries.statements.iter().flat_map(|stages| {
        core::iter::repeat_n((stages.statement, stages.statement), 2 * stages.count)
    });
    let spans = planned
        .iter()
        .map(|p| (p.statement, p.last))
        .chain(planned.iter().map(|p| (p.statement, p.statement)))
        .chain(tail.iter().map(|t| (t.statement, t.statement)))
        .chain(stage_spans);
    // Each entry's footprint, the witness's list's `k`th, and the
    // statements it is alive over.
    let heads = (0..count).map(|k| {
        let list = (0..k).fold(
            quote!(W),
            |list, _| quote!(<#list as #rt::Footprints>::Rest),
        );
        quote!(<#list as #rt::Footprints>::HEAD)
    });
    let spans = spans.map(|(first, last)| quote!((#first, #last)));
    let names = planned
        .iter()
        .map(|p| p.name.to_string())
        .chain(planned.iter().map(|p| format!("scratch of {}", p.name)))
        .chain(tail.iter().map(|_| "scratch of the result".to_string()))
        .chain(stage_entries.statements.iter().flat_map(|stages| {
            (0..stages.count).flat_map(move |j| {
                [
                    format!("stage {j} of {}", stages.name),
                    format!("scratch of stage {j} of {}", stages.name),
                ]
            })
        }));
    // The tensor whose bytes each entry may take (`program::plan_taking`).
    let none = quote!(#rt::TAKES_NONE);
    // Every pair that may be in place; `program::choose_over_input` keeps
    // the layers over their inputs that the types allow and that make the
    // arena smaller.
    let takes: Vec<TokenStream> = (0..count)
        .map(|k| match planned.get(k).and_then(|p| p.in_place) {
            Some(source) => quote!(#source),
            None => none.clone(),
        })
        .collect();
    // Each layer's scratch entry (`planned.len() + k`, its statement's).
    let scratch_entries = (0..count).map(|k| match planned.get(k) {
        Some(p) if p.over_input => {
            let entry = planned.len() + k;
            quote!(#entry)
        }
        _ => none.clone(),
    });
    let takes_name = format_ident!("__TENSOR_EXPR_{upper}_TAKES");
    let choice = format_ident!("__TENSOR_EXPR_{upper}_OVER_INPUT");
    let budget_check = options.ram.as_ref().map(|ram| {
        let program = name.to_string();
        quote_spanned!(ram.span()=>
            const _: () = #rt::check_ram_budget(
                #program, &[#(#names),*], &#lifetimes, &#takes_name, #arena_bytes, #ram,
            );
        )
    });

    let vis = &function.vis;
    let attrs = &function.attrs;
    let sig = &function.sig;
    let output = &sig.output;
    let inputs: Vec<&syn::FnArg> = sig.inputs.iter().collect();
    let arguments: Vec<Ident> = (0..inputs.len())
        .map(|i| format_ident!("__tensor_expr_argument{i}"))
        .collect();
    let wrapper_inputs = inputs.iter().zip(&arguments).map(|(input, argument)| {
        let syn::FnArg::Typed(typed) = input else {
            unreachable!("check_signature rejects receivers")
        };
        let ty = &typed.ty;
        quote!(#argument: #ty)
    });
    let body_in = body(
        statements,
        &planned,
        tail.as_ref(),
        &stage_entries,
        Body::Placed(&lifetimes, &plan, &takes_name),
    );
    let doc_in = format!(
        " [`{name}`] with its tensors in `arena`, which the caller lends (a `static` \
         on a microcontroller): [`{arena_bytes}`] bytes."
    );
    let doc_tensor_bytes = format!(
        " The bytes of [`{arena_bytes}`] the tensors of [`{name}`] take, planned alone: \
         the arena without its kernels' scratch (what TensorFlow Lite Micro reports as \
         its activations)."
    );
    let doc_bytes =
        format!(" The bytes of the arena [`{name}`]'s tensors live in, as its plan places them.");
    Ok(quote! {
        #witness_fn

        #[doc(hidden)]
        #[allow(non_snake_case, clippy::all)]
        const fn #footprints_of<W: #rt::Footprints>(
            _witness: ::core::marker::PhantomData<W>,
        ) -> [#rt::Footprint; #count] {
            [#(#heads),*]
        }

        #[doc(hidden)]
        const #choice: #rt::OverInputChoice<#count> = #rt::choose_over_input(
            &#footprints_of(#rt::list_of(#witness)),
            &[#(#spans),*],
            &[#(#takes),*],
            &[#(#scratch_entries),*],
        );
        #[doc(hidden)]
        const #lifetimes: [#rt::Lifetime; #count] = #choice.lifetimes;
        #[doc(hidden)]
        const #takes_name: [usize; #count] = #choice.takes;
        #[doc(hidden)]
        const #plan: #rt::Plan<#count> = #rt::plan_taking(&#lifetimes, &#takes_name);
        #[doc = #doc_bytes]
        #vis const #arena_bytes: usize = #plan.bytes;
        #[doc = #doc_tensor_bytes]
        #vis const #tensor_bytes: usize =
            #rt::plan_taking(&#rt::first::<#tensors, #count>(&#lifetimes), &#rt::first_takes::<#tensors, #count>(&#takes_name)).bytes;
        #budget_check

        #(#attrs)*
        // Never inlined: the arena is then this function's frame alone, not
        // a part of every caller's frame for all of its body.
        #[inline(never)]
        #vis fn #name(#(#wrapper_inputs),*) #output {
            let mut arena = ::tensor_expr::Arena::<#arena_bytes>::new();
            #name_in(#(#arguments,)* &mut arena)
        }

        #[doc = #doc_in]
        #vis fn #name_in(#(#inputs,)* arena: &mut ::tensor_expr::Arena<#arena_bytes>) #output {
            #body_in
        }
    })
}

/// A program is a free, non-generic, synchronous function: its arena's
/// size is a constant of its types.
fn check_signature(sig: &syn::Signature) -> syn::Result<()> {
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        return Err(syn::Error::new(
            sig.generics.span(),
            "a program cannot be generic: its arena's size is a constant computed from its tensors' types; \
             write one program per element type (or a generic function that calls them)",
        ));
    }
    if let Some(receiver) = sig.receiver() {
        return Err(syn::Error::new(
            receiver.span(),
            "a program is a free function: pass what `self` holds as arguments",
        ));
    }
    if let Some(asyncness) = sig.asyncness {
        return Err(syn::Error::new(
            asyncness.span(),
            "a program cannot be `async`",
        ));
    }
    if let Some(constness) = sig.constness {
        return Err(syn::Error::new(
            constness.span(),
            "a program cannot be `const`",
        ));
    }
    if let Some(variadic) = &sig.variadic {
        return Err(syn::Error::new(
            variadic.span(),
            "a program cannot be variadic",
        ));
    }
    for input in &sig.inputs {
        if let syn::FnArg::Typed(typed) = input {
            if let syn::Pat::Ident(pat) = &*typed.pat {
                if pat.ident == "arena" {
                    return Err(syn::Error::new(
                        pat.ident.span(),
                        "`arena` is the name of the arena parameter of the program's `_in` function: rename this one",
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The body's `let name = tensor_expr!(e);` statements whose value the
/// arena can hold, with their lifetimes.
fn planned_statements(statements: &[syn::Stmt]) -> syn::Result<Vec<Planned>> {
    let mut planned = Vec::new();
    for (index, statement) in statements.iter().enumerate() {
        let Some((name, tokens)) = planned_let(statement) else {
            continue;
        };
        let expression = syn::parse2::<ast::Statement>(tokens)?;
        crate::validate::validate(&expression)?;
        let expression = crate::definitions::expand(expression)?;
        if !crate::expand::placeable(&expression) {
            continue;
        }
        let last = last_reader(statements, index, &name);
        planned.push(Planned {
            statement: index,
            name,
            last,
            stages: arena_stages(&expression),
            expression,
            in_place: None,
            over_input: false,
        });
    }
    for k in 0..planned.len() {
        if let Some((source, over_input)) = in_place_source(&planned, k) {
            (planned[k].in_place, planned[k].over_input) = (Some(source), over_input);
        }
    }
    Ok(planned)
}

/// The body's last statement where it is `tensor_expr!(e)` (no `;`), a
/// value the program returns.
fn tail_statement(statements: &[syn::Stmt]) -> syn::Result<Option<Tail>> {
    let Some(syn::Stmt::Expr(syn::Expr::Macro(call), None)) = statements.last() else {
        return Ok(None);
    };
    if call
        .mac
        .path
        .segments
        .last()
        .is_none_or(|last| last.ident != "tensor_expr")
    {
        return Ok(None);
    }
    let expression = syn::parse2::<ast::Statement>(call.mac.tokens.clone())?;
    crate::validate::validate(&expression)?;
    let expression = crate::definitions::expand(expression)?;
    Ok(crate::expand::placeable(&expression).then(|| Tail {
        statement: statements.len() - 1,
        stages: arena_stages(&expression),
        expression,
    }))
}

/// `let name = tensor_expr!(..);` (or `let mut name: Type = ..`): the name
/// and the macro's tokens.
fn planned_let(statement: &syn::Stmt) -> Option<(Ident, TokenStream)> {
    let syn::Stmt::Local(local) = statement else {
        return None;
    };
    let name = binding(&local.pat)?;
    let init = local.init.as_ref()?;
    if init.diverge.is_some() {
        return None;
    }
    let syn::Expr::Macro(call) = &*init.expr else {
        return None;
    };
    let last = call.mac.path.segments.last()?;
    (last.ident == "tensor_expr").then(|| (name.clone(), call.mac.tokens.clone()))
}

/// The name a `let` binds, if it binds one plain name (`x`, `mut x`,
/// `x: T`).
fn binding(pattern: &syn::Pat) -> Option<&Ident> {
    match pattern {
        syn::Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => Some(&pat.ident),
        syn::Pat::Type(typed) => binding(&typed.pat),
        _ => None,
    }
}

/// The last statement after `index` that names `name` (in its tokens, or in
/// a format string's `{name}`), up to one that binds the name anew; the
/// last statement if a local macro names it.
fn last_reader(statements: &[syn::Stmt], index: usize, name: &Ident) -> usize {
    let mut last = index;
    for (later, statement) in statements.iter().enumerate().skip(index + 1) {
        if names(statement.to_token_stream(), name) {
            // A local `macro_rules!` that names it may be called anywhere
            // after: the tensor lives to the end.
            if matches!(statement, syn::Stmt::Item(syn::Item::Macro(_))) {
                return statements.len() - 1;
            }
            last = later;
        }
        if let syn::Stmt::Local(local) = statement {
            if names(local.pat.to_token_stream(), name) {
                break;
            }
        }
    }
    last
}

/// Whether `tokens` name `name`.
fn names(tokens: TokenStream, name: &Ident) -> bool {
    let inline = format!("{{{name}");
    tokens.into_iter().any(|token| match token {
        TokenTree::Ident(ident) => ident == *name,
        TokenTree::Group(group) => names(group.stream(), name),
        TokenTree::Literal(literal) => {
            let text = literal.to_string();
            text.match_indices(&inline)
                .any(|(at, _)| matches!(text[at + inline.len()..].chars().next(), Some('}' | ':')))
        }
        TokenTree::Punct(_) => false,
    })
}

/// The span of the last token `name` in `tokens`.
fn last_use(tokens: TokenStream, name: &Ident) -> Option<Span> {
    tokens.into_iter().fold(None, |found, token| match token {
        TokenTree::Ident(ident) if ident == *name => Some(ident.span()),
        TokenTree::Group(group) => last_use(group.stream(), name).or(found),
        _ => found,
    })
}

/// Which body [`body`] writes: where its planned statements evaluate into.
enum Body<'a> {
    /// The witness's: no bytes (it is never called).
    Witness,
    /// `name_in`'s: into the arena, at the plan's offsets (the names of the
    /// lifetimes, plan and in-place pairs' constants).
    Placed(&'a Ident, &'a Ident, &'a Ident),
}

/// The body with each planned statement evaluated into its slot.
fn body(
    statements: &[syn::Stmt],
    planned: &[Planned],
    tail: Option<&Tail>,
    stages: &StageEntries,
    form: Body,
) -> TokenStream {
    let rt = quote!(::tensor_expr::__private::program);
    let slots_name = format_ident!("__tensor_expr_slots");
    let mut out = match form {
        Body::Witness => quote!(let #slots_name = #rt::Slots::none();),
        Body::Placed(..) => quote!(let #slots_name = #rt::Slots::of(arena);),
    };
    for (index, statement) in statements.iter().enumerate() {
        let k = planned.iter().position(|p| p.statement == index);
        // The planned tensor this statement's result may take the bytes of
        // (`name_in` only: the witness evaluates each value into a slot of
        // its own, whose type is the same).
        // (The witness evaluates an elementwise value into a slot of its
        // own, whose type is the same; a layer that may be written over its
        // input as `name_in` does, its scratch's type being the two
        // evaluations'.)
        let in_place = match form {
            Body::Placed(..) => k.and_then(|k| planned[k].in_place),
            Body::Witness => k
                .filter(|&k| planned[k].over_input)
                .and_then(|k| planned[k].in_place),
        };
        // The planned tensors whose last reader this is, ended after it
        // (but one whose bytes the result takes, which it consumes).
        let ending: Vec<&Planned> = match form {
            Body::Placed(..) if index + 1 < statements.len() => planned
                .iter()
                .enumerate()
                .filter(|&(j, p)| p.last == index && Some(j) != in_place)
                .map(|(_, p)| p)
                .collect(),
            _ => Vec::new(),
        };
        let ends: TokenStream = ending
            .iter()
            .map(|p| {
                // Spanned on the last use: where a borrow that lives on is
                // reported.
                let span =
                    last_use(statement.to_token_stream(), &p.name).unwrap_or_else(|| p.name.span());
                let name = Ident::new(&p.name.to_string(), span);
                quote_spanned!(span=> ::tensor_expr::__private::program::end(#name);)
            })
            .collect();
        if let Some(tail) = tail.filter(|t| t.statement == index) {
            out.extend(result(planned, tail, stages, &form));
            continue;
        }
        let syn::Stmt::Local(local) = statement else {
            let kept = match statement {
                syn::Stmt::Macro(call) if call.attrs.is_empty() => {
                    out_of_line(&call.mac).map(|value| {
                        let semi = &call.semi_token;
                        quote!(#value #semi)
                    })
                }
                syn::Stmt::Expr(expr, semi) => {
                    let mut expr = expr.clone();
                    calls_out_of_line(&mut expr);
                    Some(quote!(#expr #semi))
                }
                _ => None,
            };
            out.extend(kept.unwrap_or_else(|| statement.to_token_stream()));
            out.extend(ends);
            continue;
        };
        let scratch = k.map(|k| format_ident!("__tensor_expr_scratch{k}"));
        let value = match k {
            Some(k) => {
                // The statement's kernel scratch: bytes of the arena of
                // its own while it runs (`planned.len() + k` in the plan).
                let lent = planned.len() + k;
                let (slot, lent) = match form {
                    Body::Witness => (
                        quote!(unsafe { #slots_name.slot(0, 0) }),
                        quote!(#rt::Lent::none()),
                    ),
                    // SAFETY: the plan places tensors (and scratch) alive
                    // at one statement apart; each binding ends after its
                    // last reader (`end`).
                    Body::Placed(lifetimes, plan, _) => (
                        quote!(unsafe {
                            #slots_name.slot(#plan.offsets[#k], #lifetimes[#k].bytes)
                        }),
                        quote!(unsafe {
                            #slots_name.lent(#plan.offsets[#lent], #lifetimes[#lent].bytes)
                        }),
                    ),
                };
                let (staged_lets, staged) = staged_places(k, stages, &form);
                if let Some(source) = in_place {
                    // Spanned on its read here: where a borrow of it that
                    // lives on is reported.
                    let name = &planned[source].name;
                    let span =
                        last_use(statement.to_token_stream(), name).unwrap_or_else(|| name.span());
                    let name = Ident::new(&name.to_string(), span);
                    // Whether the plan gave the result the tensor's bytes:
                    // the one decision, which the evaluation follows.
                    let taken = match &form {
                        Body::Placed(lifetimes, _, takes) => quote!(
                            #rt::InPlace::<{ #rt::takes_bytes(&#lifetimes, &#takes, #k) }>
                        ),
                        Body::Witness => quote!(#rt::InPlace::<false>),
                    };
                    let expression = &planned[k].expression;
                    let lent_ref = quote!(&mut #scratch);
                    let value = crate::expand::expand_in_place(
                        expression,
                        &name,
                        planned[k].over_input,
                        &taken,
                        &slot,
                        &lent_ref,
                    );
                    match form {
                        // The witness reads the scratch's footprint after
                        // the statement.
                        Body::Witness => {
                            out.extend(quote!(let mut #scratch = #lent;));
                            Some(value)
                        }
                        Body::Placed(..) => Some(quote!({
                            let mut #scratch = #lent;
                            #value
                        })),
                    }
                } else {
                    let slot = quote!((#slot, &mut #scratch));
                    let value = crate::expand::expand_into(
                        &planned[k].expression,
                        Some(crate::expand::Destination::Slot(&slot)),
                        &staged,
                    );
                    match form {
                        // The witness reads the scratch's and the stages'
                        // footprints after the statement.
                        Body::Witness => {
                            out.extend(quote!(let mut #scratch = #lent; #staged_lets));
                            Some(value)
                        }
                        // In a block of its own, so that the statement's locals
                        // (its scratch's handle, its stages' places) end with it
                        // and the function's frame holds one statement's.
                        Body::Placed(..) => Some(quote!({
                            let mut #scratch = #lent;
                            #staged_lets
                            #value
                        })),
                    }
                }
            }
            None => local.init.as_ref().map(|init| {
                let mut expr = (*init.expr).clone();
                calls_out_of_line(&mut expr);
                expr.to_token_stream()
            }),
        };
        let attrs = &local.attrs;
        let binding = match k {
            Some(_) => placed_binding(&local.pat),
            None => local.pat.to_token_stream(),
        };
        let diverge = local
            .init
            .as_ref()
            .and_then(|init| init.diverge.as_ref())
            .map(|(else_token, block)| quote!(#else_token #block));
        let rebinds_an_ending_tensor = ending
            .iter()
            .any(|p| p.statement != index && names(local.pat.to_token_stream(), &p.name));
        match value {
            // `let a = f(a);` ends the old `a` between its value and the
            // new binding: after it, the name is the new tensor's.
            Some(value) if rebinds_an_ending_tensor => {
                out.extend(quote!(let __tensor_expr_value = #value;));
                out.extend(ends);
                out.extend(quote!(#(#attrs)* let #binding = __tensor_expr_value #diverge;));
            }
            Some(value) => {
                out.extend(quote!(#(#attrs)* let #binding = #value #diverge;));
                out.extend(ends);
            }
            None => {
                out.extend(ends);
                out.extend(quote!(#(#attrs)* let #binding;));
            }
        }
        if let (Body::Witness, Some(k)) = (&form, k) {
            let footprint = format_ident!("__tensor_expr_footprint{k}");
            let scratch_footprint = format_ident!("__tensor_expr_scratch_footprint{k}");
            let name = &planned[k].name;
            out.extend(quote!(let #footprint = #rt::footprint(&*#name);));
            out.extend(quote!(let #scratch_footprint = #rt::scratch_footprint(&#scratch);));
            if k + 1 == planned.len() && tail.is_none() {
                out.extend(footprint_list(planned.len(), false, stages));
            }
        }
    }
    out
}

/// The places in the arena of the stages of statement `k` (the result's
/// where `k` is the count of planned statements): locals bound to the
/// plan's entries for them (in the witness, no bytes, and each one's
/// footprints), and the names [`crate::expand::expand_into`] evaluates them
/// into.
fn staged_places(k: usize, stages: &StageEntries, form: &Body) -> (TokenStream, Vec<TokenStream>) {
    let rt = quote!(::tensor_expr::__private::program);
    let slots_name = format_ident!("__tensor_expr_slots");
    let StagesOf { first, count, .. } = stages.statements[k];
    let mut lets = TokenStream::new();
    let mut names = Vec::new();
    for j in 0..count {
        let name = staged_name(k, j);
        let (tensor, scratch) = (first + 2 * j, first + 2 * j + 1);
        match form {
            Body::Witness => {
                let [footprint, scratch_footprint] = stage_footprint_names(k, j);
                lets.extend(quote!(
                    let #name = #rt::Staged::none();
                    let #footprint = #rt::stage_footprint(&#name);
                    let #scratch_footprint = #rt::stage_scratch_footprint(&#name);
                ));
            }
            // SAFETY: the plan gives a stage's tensor and scratch bytes of
            // their own while its statement runs.
            Body::Placed(lifetimes, plan, _) => lets.extend(quote!(
                let #name = unsafe {
                    #slots_name.staged(
                        (#plan.offsets[#tensor], #lifetimes[#tensor].bytes),
                        (#plan.offsets[#scratch], #lifetimes[#scratch].bytes),
                    )
                };
            )),
        }
        names.push(name.to_token_stream());
    }
    (lets, names)
}

/// The witness's assignment of its [`Footprints`] list: the `count`
/// planned tensors', their statements' scratch, the result's scratch
/// where the body ends in one (`with_result`), and the stages' tensors and
/// scratch, each a variable the body defined.
fn footprint_list(count: usize, with_result: bool, stages: &StageEntries) -> TokenStream {
    let rt = quote!(::tensor_expr::__private::program);
    let tensors = (0..count).map(|k| format_ident!("__tensor_expr_footprint{k}"));
    let scratch = (0..count).map(|k| format_ident!("__tensor_expr_scratch_footprint{k}"));
    let result = with_result.then(|| format_ident!("__tensor_expr_result_footprint"));
    let staged = stages
        .statements
        .iter()
        .enumerate()
        .flat_map(|(k, stages)| (0..stages.count).flat_map(move |j| stage_footprint_names(k, j)));
    let all: Vec<Ident> = tensors.chain(scratch).chain(result).chain(staged).collect();
    let list = all.iter().rev().fold(
        quote!(#rt::End),
        |rest, footprint| quote!((#footprint, #rest)),
    );
    quote!(__tensor_expr_footprints = ::core::option::Option::Some(#list);)
}

/// The body's last expression, the result, evaluated with its kernels'
/// scratch in the arena (its entry after the planned tensors' and their
/// scratch); in the witness, its scratch's footprint ends the list.
fn result(planned: &[Planned], tail: &Tail, stages: &StageEntries, form: &Body) -> TokenStream {
    let rt = quote!(::tensor_expr::__private::program);
    let slots_name = format_ident!("__tensor_expr_slots");
    let scratch = format_ident!("__tensor_expr_result_scratch");
    let lent = quote!(&mut #scratch);
    let (staged_lets, staged) = staged_places(planned.len(), stages, form);
    let value = crate::expand::expand_into(
        &tail.expression,
        Some(crate::expand::Destination::Result(&lent)),
        &staged,
    );
    let entry = 2 * planned.len();
    match form {
        Body::Witness => {
            let list = footprint_list(planned.len(), true, stages);
            quote!({
                #staged_lets
                let mut #scratch = #rt::Lent::none();
                let __tensor_expr_result = #value;
                let __tensor_expr_result_footprint = #rt::scratch_footprint(&#scratch);
                #list
                __tensor_expr_result
            })
        }
        // SAFETY: the plan gives the result's scratch bytes of their own
        // while it is evaluated.
        Body::Placed(lifetimes, plan, _) => quote!({
            #staged_lets
            let mut #scratch = unsafe {
                #slots_name.lent(#plan.offsets[#entry], #lifetimes[#entry].bytes)
            };
            #value
        }),
    }
}

/// Each `tensor_expr!` call in `expr` run out of line ([`out_of_line`]):
/// the expression itself, or one in its operands, arguments and fields
/// (`(*logits, tensor_expr!(softmax(logits, [1])))`, `tensor_expr!(..)?`),
/// but not in a block, a loop or a closure, where it may run many times.
fn calls_out_of_line(expr: &mut syn::Expr) {
    use syn::Expr;
    match expr {
        Expr::Macro(call) if call.attrs.is_empty() => {
            if let Some(wrapped) = out_of_line(&call.mac) {
                *expr = Expr::Verbatim(wrapped);
            }
        }
        Expr::Tuple(syn::ExprTuple { elems, .. })
        | Expr::Array(syn::ExprArray { elems, .. })
        | Expr::Call(syn::ExprCall { args: elems, .. }) => {
            elems.iter_mut().for_each(calls_out_of_line);
        }
        Expr::MethodCall(call) => {
            calls_out_of_line(&mut call.receiver);
            call.args.iter_mut().for_each(calls_out_of_line);
        }
        Expr::Struct(fields) => fields
            .fields
            .iter_mut()
            .for_each(|field| calls_out_of_line(&mut field.expr)),
        Expr::Binary(binary) => {
            calls_out_of_line(&mut binary.left);
            calls_out_of_line(&mut binary.right);
        }
        Expr::Paren(syn::ExprParen { expr: inner, .. })
        | Expr::Group(syn::ExprGroup { expr: inner, .. })
        | Expr::Reference(syn::ExprReference { expr: inner, .. })
        | Expr::Unary(syn::ExprUnary { expr: inner, .. })
        | Expr::Try(syn::ExprTry { expr: inner, .. })
        | Expr::Cast(syn::ExprCast { expr: inner, .. })
        | Expr::Field(syn::ExprField { base: inner, .. })
        | Expr::Return(syn::ExprReturn {
            expr: Some(inner), ..
        }) => calls_out_of_line(inner),
        _ => {}
    }
}

/// A `tensor_expr!` call the plan does not place (an assignment, a
/// fallible product, `argmax`), run out of line
/// (`program::statement`): its kernels' frames are then its own, alive
/// while it runs, not part of the program's frame through every statement.
/// `None` for another macro, or where its tokens name `return`, `?`,
/// `break`, `continue` or `.await` (in a block operand), whose meaning a
/// closure would change.
fn out_of_line(call: &syn::Macro) -> Option<TokenStream> {
    let is_tensor_expr = call
        .path
        .segments
        .last()
        .is_some_and(|last| last.ident == "tensor_expr");
    if !is_tensor_expr || controls_flow(call.tokens.clone()) {
        return None;
    }
    Some(quote!(::tensor_expr::__private::program::statement(|| #call)))
}

/// Whether `tokens` name `return`, `?`, `break`, `continue`, `.await` or
/// `yield`, whose meaning a closure around them would change.
fn controls_flow(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|token| match token {
        TokenTree::Ident(ident) => ["return", "break", "continue", "await", "yield"]
            .iter()
            .any(|word| ident == word),
        TokenTree::Punct(punct) => punct.as_char() == '?',
        TokenTree::Group(group) => controls_flow(group.stream()),
        TokenTree::Literal(_) => false,
    })
}

/// The binding of a planned tensor: the name, a `&mut` to the type written
/// (`x: T` becomes `x: &mut T`), without `mut` (the binding is a reference
/// already; in-place updates write through it).
fn placed_binding(pattern: &syn::Pat) -> TokenStream {
    match pattern {
        syn::Pat::Ident(pat) => pat.ident.to_token_stream(),
        syn::Pat::Type(typed) => {
            let name = placed_binding(&typed.pat);
            let ty = &typed.ty;
            quote!(#name: &mut #ty)
        }
        other => other.to_token_stream(),
    }
}

/// The witness: never called; its return type lists the planned tensors'
/// types and the statements' scratch (see the module's header).
fn witness_function(
    function: &syn::ItemFn,
    planned: &[Planned],
    tail: Option<&Tail>,
    witness: &Ident,
) -> TokenStream {
    let rt = quote!(::tensor_expr::__private::program);
    let inputs = function.sig.inputs.iter().map(|input| {
        let syn::FnArg::Typed(typed) = input else {
            unreachable!("check_signature rejects receivers")
        };
        let (pat, ty) = (&typed.pat, &typed.ty);
        quote!(#pat: #ty)
    });
    // A return type `impl Trait` cannot annotate a closure: inferred.
    let output = match &function.sig.output {
        syn::ReturnType::Type(_, ty) if !matches!(**ty, syn::Type::ImplTrait(_)) => {
            quote!(-> #ty)
        }
        _ => quote!(),
    };
    let stages = StageEntries::new(planned, tail);
    let body = body(&function.block.stmts, planned, tail, &stages, Body::Witness);
    let end = (planned.is_empty() && tail.is_none())
        .then(|| quote!(__tensor_expr_footprints = ::core::option::Option::Some(#rt::End);));
    let span = Span::call_site();
    quote_spanned! {span=>
        #[doc(hidden)]
        #[allow(unused, unreachable_code, non_snake_case, clippy::all)]
        fn #witness() -> impl #rt::Footprints {
            let mut __tensor_expr_footprints = ::core::option::Option::None;
            let _ = |#(#inputs),*| #output {
                #end
                #body
            };
            __tensor_expr_footprints.unwrap()
        }
    }
}
