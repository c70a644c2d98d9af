//! The rules the macro can check without types, each failure a `syn::Error` on
//! the offending tokens:
//! - every called function is in the table and gets the right number of arguments;
//! - `in_dims` wraps an operand, stands directly in a binary operation (or a
//!   function of two arguments, or as the value of an in-place update), on one
//!   side only, and its tuple lists non-negative dims in strictly increasing order;
//! - the operands of `@` are not `in_dims` (a product's batch dims broadcast by
//!   the NumPy rule).
//!
//! A product or operation that reads the assignment target is not an error:
//! it is evaluated first, into a tensor of its own ([`crate::stage`]), as
//! NumPy evaluates `p = f @ p @ f.T + q`.
//!
//! The rules that need types (the tuple's length against the operand's rank, its
//! range against the other operand's rank, the sizes) are left to rustc.

use crate::ast::{BinaryOp, DimLiteral, Expr, Form, OpCall, Statement};
use crate::functions;
use syn::Error;
use tensor_expr_catalog::operation::Dims;
use tensor_expr_catalog::MAX_RANK;

/// Where an expression stands, for the `in_dims` placement rule.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A direct operand of a binary operation or of a 2-argument function.
    BinaryOperand,
    /// The whole value of `out = ...` / `out += ...`: the target is the other side.
    AssignedValue,
    /// Anywhere else.
    Elsewhere,
}

/// Checks the whole statement, combining every error found.
pub fn validate(statement: &Statement) -> syn::Result<()> {
    let mut errors: Option<Error> = None;
    let mut report = |error| match &mut errors {
        Some(all) => all.combine(error),
        None => errors = Some(error),
    };
    match &statement.form {
        Form::Evaluate(expr) => visit(expr, Place::Elsewhere, &mut report),
        Form::Assign { value, .. } => visit(value, Place::AssignedValue, &mut report),
    }
    errors.map_or(Ok(()), Err)
}

fn visit(expr: &Expr, place: Place, report: &mut impl FnMut(Error)) {
    match expr {
        Expr::Binary {
            op: BinaryOp::MatMul,
            lhs,
            rhs,
            ..
        } => visit_product(lhs, rhs, report),
        Expr::Binary { lhs, rhs, .. } => visit_pair(lhs, rhs, report),
        Expr::Negate { operand, .. } => visit(operand, Place::Elsewhere, report),
        Expr::Call { name, args } => visit_call(name, args, report),
        Expr::Op(call) => visit_op(call, place, report),
        Expr::IntLiteral { .. } | Expr::FloatLiteral { .. } | Expr::Operand(_) => {}
    }
}

/// A call of an operation of the table: where it may stand, its dim list by
/// the rule of its kind, its options' values, then its inputs.
fn visit_op(call: &OpCall, place: Place, report: &mut impl FnMut(Error)) {
    let name = &call.name;
    let reads = call.op.reads;
    if reads.placed_on_other_operand() && place == Place::Elsewhere {
        report(Error::new(
            name.span(),
            format!(
                "`{name}` must be an operand of a binary operation (like `m + {name}(v, [0])`) or \
                 of a function of two arguments: it places its operand on dims of the other operand"
            ),
        ));
    }
    if let Some(input) = reads.positions_input().and_then(|i| call.inputs.get(i)) {
        if !matches!(input, Expr::Operand(_)) {
            report(Error::new(
                name.span(),
                format!(
                    "the positions `{name}` reads are integers of their own type, read where \
                     they are stored: bind the expression to a tensor first"
                ),
            ));
        }
    }
    if reads.gives_positions() {
        report(Error::new(
            name.span(),
            format!(
                "`{name}` gives `usize` positions, not values, so it stands only around the whole \
                 expression: `tensor_expr!({name}(e, [axis]))`; bind its result with `let` to use it further"
            ),
        ));
    }
    let checked = match (call.op.signature.dims, call.dim_values()) {
        (Dims::AxisList, axes) => check_reduction(name, axes),
        (Dims::Permutation, Some(perm)) => check_permutation(perm, call.dims_span()),
        (Dims::Positions, Some(dims)) => check_dims(dims),
        (Dims::Sizes(lengths), Some(sizes)) => check_sizes(call, lengths, sizes),
        _ => Ok(()),
    };
    checked.unwrap_or_else(&mut *report);
    for option in &call.options {
        // The parser took negative values only for a signed option.
        for value in &option.list.dims {
            if u32::try_from(value.value.unsigned_abs()).is_err() {
                report(Error::new(
                    value.span,
                    format!("`{}` value too large", option.name),
                ));
            }
        }
    }
    for input in &call.inputs {
        visit(input, Place::Elsewhere, report);
    }
}

/// `lhs @ rhs`: neither side may be an `in_dims` (batch dims broadcast by the
/// NumPy rule).
fn visit_product(lhs: &Expr, rhs: &Expr, report: &mut impl FnMut(Error)) {
    for operand in [lhs, rhs] {
        if let Some(name) = operand
            .as_op()
            .filter(|_| operand.is_in_dims())
            .map(|c| &c.name)
        {
            report(Error::new(
                name.span(),
                "`in_dims` does not apply to `@`: the batch dims of a matrix product broadcast by \
                 the NumPy rule; `in_dims` places an operand of an elementwise operation",
            ));
        } else {
            visit(operand, Place::Elsewhere, report);
        }
    }
}

/// A function call: a name of the table with its arity; two arguments are a
/// pair (an `in_dims` among them is placed on the other).
fn visit_call(name: &syn::Ident, args: &[Expr], report: &mut impl FnMut(Error)) {
    check_call(name, args.len()).unwrap_or_else(&mut *report);
    if let [a, b] = args {
        visit_pair(a, b, report);
    } else {
        for arg in args {
            visit(arg, Place::Elsewhere, report);
        }
    }
}

/// A reduction's axes: at least one, each once as written, each within the
/// highest rank (the rank of the operand is checked by rustc, per shape).
fn check_reduction(name: &syn::Ident, axes: Option<&[DimLiteral]>) -> syn::Result<()> {
    let Some(axes) = axes else { return Ok(()) };
    if axes.is_empty() {
        return Err(Error::new(
            name.span(),
            format!("`{name}` needs at least one axis, like `{name}(x, [1])`; `{name}(x)` reduces every axis"),
        ));
    }
    for (i, axis) in axes.iter().enumerate() {
        if axis.value >= MAX_RANK as i128 || axis.value < -(MAX_RANK as i128) {
            return Err(Error::new(
                axis.span,
                format!(
                    "axis {} is out of range: shapes have at most {MAX_RANK} dims",
                    axis.value
                ),
            ));
        }
        if axes[..i].iter().any(|earlier| earlier.value == axis.value) {
            return Err(Error::new(
                axis.span,
                format!(
                    "axis {} is listed twice: each axis may be listed once",
                    axis.value
                ),
            ));
        }
    }
    Ok(())
}

/// `permute`'s list is a permutation of `0..n`: each dim once, none missing.
fn check_permutation(perm: &[DimLiteral], span: proc_macro2::Span) -> syn::Result<()> {
    let n = perm.len();
    if n == 0 || n > MAX_RANK {
        return Err(Error::new(
            span,
            format!(
                "`permute` needs one entry per dim of the operand (1 to {MAX_RANK}), like `[1, 0]`"
            ),
        ));
    }
    for (i, dim) in perm.iter().enumerate() {
        if dim.value < 0 || dim.value >= n as i128 {
            return Err(Error::new(
                dim.span,
                format!(
                    "`{}` is not a dim of a rank-{n} operand: a permutation of {n} dims lists each of 0..={} once",
                    dim.value,
                    n - 1
                ),
            ));
        }
        if perm[..i].iter().any(|earlier| earlier.value == dim.value) {
            let missing = (0..n as i128).filter(|d| perm.iter().all(|p| p.value != *d));
            let missing: Vec<String> = missing.map(|d| d.to_string()).collect();
            return Err(Error::new(
                dim.span,
                format!(
                    "dim {} is listed twice, so this is not a permutation (missing: {})",
                    dim.value,
                    missing.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// The two operands of a binary operation: each may be an `in_dims`, not both.
fn visit_pair(lhs: &Expr, rhs: &Expr, report: &mut impl FnMut(Error)) {
    visit(lhs, Place::BinaryOperand, report);
    visit(rhs, Place::BinaryOperand, report);
    if let (true, true, Some(call)) = (lhs.is_in_dims(), rhs.is_in_dims(), rhs.as_op()) {
        let name = &call.name;
        report(Error::new(
            name.span(),
            "only one operand of an operation can be placed with `in_dims`: it maps onto the dims of the other",
        ));
    }
}

/// The tuple's entries are non-negative and strictly increasing (XLA: "the order
/// of broadcast dimensions must be strictly increasing").
/// A list of sizes (a pool's kernel): as many as one of `lengths`, each
/// positive and fitting a `u32`; a `padding` option at most half the
/// kernel's span (`dilation (k - 1) + 1`) on each dim, as PyTorch's pools
/// require, so that no window lies wholly in the padding.
fn check_sizes(call: &OpCall, lengths: &[usize], sizes: &[DimLiteral]) -> syn::Result<()> {
    let span = call.dims_span();
    if !lengths.contains(&sizes.len()) {
        let counts: Vec<String> = lengths.iter().map(|n| n.to_string()).collect();
        return Err(Error::new(
            span,
            format!(
                "`{}` takes {} kernel sizes, not {}",
                call.name,
                counts.join(" or "),
                sizes.len()
            ),
        ));
    }
    for size in sizes {
        if size.value <= 0 || u32::try_from(size.value).is_err() {
            return Err(Error::new(
                size.span,
                format!("kernel sizes are positive integers; found {}", size.value),
            ));
        }
    }
    let option = |name: &str| call.options.iter().find(|o| o.name == name);
    let Some(padding) = option("padding") else {
        return Ok(());
    };
    // One value serves every dim; `axis` picks a dim's value of a list.
    let at = |list: &[DimLiteral], axis: usize| list.get(axis).or(list.first()).map(|d| d.value);
    // The larger side of a dim's padding (a pair per dim where per side).
    let pad_at = |axis: usize| {
        if padding.sides {
            let pairs: Vec<&[DimLiteral]> = padding.list.dims.chunks(2).collect();
            let pair = pairs.get(axis).or(pairs.first())?;
            pair.iter().map(|d| d.value).max()
        } else {
            at(&padding.list.dims, axis)
        }
    };
    let dims = lengths.iter().max().copied().unwrap_or(1);
    for axis in 0..dims {
        let (Some(k), Some(pad)) = (at(sizes, axis), pad_at(axis)) else {
            continue;
        };
        let dilation = option("dilation")
            .and_then(|d| at(&d.list.dims, axis))
            .unwrap_or(1);
        let span_len = dilation * (k - 1) + 1;
        if 2 * pad > span_len {
            return Err(Error::new(
                padding.list.span,
                format!(
                    "`{}` pads at most half its kernel: padding {pad} on a kernel spanning {span_len}",
                    call.name
                ),
            ));
        }
    }
    Ok(())
}

fn check_dims(dims: &[DimLiteral]) -> syn::Result<()> {
    for (i, dim) in dims.iter().enumerate() {
        if dim.value < 0 {
            return Err(Error::new(
                dim.span,
                format!("in_dims dims are non-negative; found {}", dim.value),
            ));
        }
        if dim.value >= MAX_RANK as i128 {
            return Err(Error::new(
                dim.span,
                format!(
                    "dim {} is out of range: shapes have at most {MAX_RANK} dims",
                    dim.value
                ),
            ));
        }
        if let Some(previous) = i.checked_sub(1).map(|p| dims[p]) {
            if dim.value == previous.value {
                return Err(Error::new(
                    dim.span,
                    format!(
                        "dim {} is listed twice: each dim of the operand maps to a different dim of the other operand",
                        dim.value
                    ),
                ));
            }
            if dim.value < previous.value {
                return Err(Error::new(
                    dim.span,
                    format!(
                        "in_dims dims must be strictly increasing: {} comes after {}; the operand's dims are placed in their own order",
                        dim.value, previous.value
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn check_call(name: &syn::Ident, arity: usize) -> syn::Result<()> {
    let text = name.to_string();
    let Some(info) = functions::lookup(&text) else {
        return Err(functions::unknown_name(name));
    };
    if info.arity() != arity {
        let plural = if info.arity() == 1 { "" } else { "s" };
        let verb = if arity == 1 { "was" } else { "were" };
        return Err(Error::new(
            name.span(),
            format!(
                "`{text}` takes {} argument{plural} but {arity} {verb} given; {}",
                info.arity(),
                functions::usage(info)
            ),
        ));
    }
    Ok(())
}
