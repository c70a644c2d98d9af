//! The macro's view of the runtime's two tables: the elementwise functions
//! (`tensor_expr_catalog::FUNCTIONS`) and the operations
//! (`tensor_expr_catalog::OPERATIONS`). Both are defined in the runtime, next
//! to the implementations, so a name is added in exactly one place; the
//! catalog crate holds a copy that a runtime test keeps current.

use tensor_expr_catalog::operation::{Dims, Operation};
use tensor_expr_catalog::{FunctionInfo, FUNCTIONS, OPERATIONS};

/// The table entry called `name`, if any.
pub fn lookup(name: &str) -> Option<&'static FunctionInfo> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

/// Every name a call may have: functions, then operations.
fn known_names() -> impl Iterator<Item = &'static str> {
    FUNCTIONS
        .iter()
        .map(|f| f.name)
        .chain(OPERATIONS.iter().map(|op| op.name))
}

/// Whether `name` is a call the macro knows.
pub fn is_known(name: &str) -> bool {
    known_names().any(|known| known == name)
}

/// The known name closest to `name`, if one is close enough to be a typo.
pub fn suggest(name: &str) -> Option<&'static str> {
    let limit = name.chars().count().div_ceil(3).max(1);
    known_names()
        .map(|known| (edit_distance(name, known), known))
        .filter(|&(distance, _)| distance <= limit)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, known)| known)
}

/// The error for a call of an unknown name, on the name: the closest known
/// name if it looks like a typo. (It does not list every name: the list
/// grows with each operation, and the README's syntax table holds it.)
pub fn unknown_name(name: &syn::Ident) -> syn::Error {
    let text = name.to_string();
    let hint = match suggest(&text) {
        Some(known) => format!("did you mean `{known}`? "),
        None => String::new(),
    };
    syn::Error::new(
        name.span(),
        format!(
            "unknown function `{text}`; {hint}`tensor_expr!` knows the elementwise functions and \
             operations of the README's syntax table. To call your own function, wrap the call in \
             a block: `{{ {text}(..) }}`"
        ),
    )
}

/// How to call `info` and what it computes, for an error:
/// ``write `pow(a, b)`: `a` raised to the float power `b` (f32 or f64)``.
pub fn usage(info: &FunctionInfo) -> String {
    let summary = info.summary.trim().trim_end_matches('.');
    let summary = match summary.strip_prefix("The ") {
        Some(rest) => format!("the {rest}"),
        None => summary.to_string(),
    };
    let elements = match info.elements {
        "Float" => "f32 or f64",
        "Signed" => "signed elements",
        "Integer" => "integer elements",
        "Accumulator" => "i32 elements",
        _ => "any element type",
    };
    format!(
        "write `{}({})`: {summary} ({elements})",
        info.name,
        info.args.join(", ")
    )
}

/// How to call the operation `op`, for the error about a malformed call:
/// ``expected `sum(x)`, `sum(x, [axes])` or `sum(x, [axes], keepdim)` ``.
pub fn op_usage(op: &Operation) -> String {
    let forms: Vec<String> = op.forms.iter().map(|form| format!("`{form}`")).collect();
    let forms = match forms.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => forms.join(""),
    };
    let one_axis = if op.signature.dims == Dims::SingleAxis {
        ", one axis"
    } else {
        ""
    };
    format!("expected {forms}{one_axis}")
}

/// Levenshtein distance, counting a swap of two neighbours as one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let substitution = rows[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = substitution.min(rows[i - 1][j] + 1).min(rows[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_get_the_nearest_name() {
        assert_eq!(suggest("rleu"), Some("relu"));
        assert_eq!(suggest("sqr"), Some("sqrt"));
        assert_eq!(suggest("tahn"), Some("tanh"));
        assert_eq!(suggest("softmax_everything"), None);
    }

    #[test]
    fn table_has_the_required_functions() {
        for name in [
            "abs", "exp", "ln", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "max", "min",
            "pow", "clamp",
        ] {
            assert!(
                lookup(name).is_some(),
                "{name} missing from the function table"
            );
        }
        assert_eq!(lookup("clamp").unwrap().arity(), 3);
    }
}
