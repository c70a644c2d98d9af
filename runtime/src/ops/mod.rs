//! The operations of `tensor_expr!` other than operators and elementwise
//! functions, one module each, and [`OPERATIONS`], the table the macro reads.
//!
//! A table entry is everything the macro needs to know about an operation:
//! how it is written ([`Signature`]), how it reads its input ([`Reads`],
//! which decides what is staged, shared and checked against an assignment
//! target) and how its node is built ([`Build`]); the types are the
//! `tensor-expr-catalog` crate's, which the macro reads (a test writes this
//! table there, `tests/catalog.rs`). The macro has one syntax node for every
//! entry, so parsing, validation, sharing, staging and expansion need no edit
//! for a new operation: its module and its line in the table are the whole
//! change (`DEVELOPMENT.md`, "Adding an operation").
//!
//! ```
//! use tensor_expr_runtime::ops::{lookup, Reads};
//! let sum = lookup("sum").unwrap();
//! assert_eq!(sum.reads, Reads::AlongAxes);
//! assert_eq!(sum.forms[1], "sum(x, [axes])");
//! ```

pub mod conv;
pub mod convert;
pub mod flip;
pub mod gather;
pub mod in_dims;
pub mod index_of;
pub mod linalg;
pub mod log_softmax;
pub mod logsumexp;
pub mod norm;
pub mod permute;
pub mod pool;
pub mod quantized_activation;
pub mod quantized_softmax;
pub mod reduce;
pub mod reshape;
pub mod scan;
pub mod softmax;
pub mod triangle;

pub use tensor_expr_catalog::operation::{
    axes_signature, Build, Dims, NamedOption, Operation, Reads, RowOrder, Signature,
};

pub use crate::rules::conv::{keyword, Sides};

/// Every operation, in the order errors list them.
pub const OPERATIONS: &[&Operation] = &[
    &reduce::SUM,
    &reduce::MEAN,
    &reduce::PROD,
    &reduce::MAX,
    &reduce::MIN,
    &softmax::OPERATION,
    &log_softmax::OPERATION,
    &logsumexp::OPERATION,
    &quantized_softmax::OPERATION,
    &quantized_activation::SIGMOID,
    &quantized_activation::TANH,
    &norm::OPERATION,
    &permute::TRANSPOSE,
    &permute::PERMUTE,
    &reshape::OPERATION,
    &flip::OPERATION,
    &gather::EMBEDDING,
    &gather::INDEX_SELECT,
    &gather::GATHER,
    &scan::CUMSUM,
    &scan::CUMPROD,
    &triangle::TRIL,
    &triangle::TRIU,
    &in_dims::OPERATION,
    &conv::CONV1D,
    &conv::CONV2D,
    &conv::transpose::CONV_TRANSPOSE1D,
    &conv::transpose::CONV_TRANSPOSE2D,
    &pool::MAX_POOL1D,
    &pool::MAX_POOL2D,
    &pool::AVG_POOL1D,
    &pool::AVG_POOL2D,
    &index_of::ARGMAX,
    &index_of::ARGMIN,
    &convert::CAST,
    &convert::SATURATING_CAST,
    &linalg::INV,
    &linalg::DET,
    &linalg::CHOLESKY,
    &linalg::SOLVE,
    &linalg::CHOLESKY_SOLVE,
];

/// The operation called `name`, if any.
pub fn lookup(name: &str) -> Option<&'static Operation> {
    OPERATIONS.iter().copied().find(|op| op.name == name)
}

/// A signed option's value as a type (`diagonal = -1` is `Offset<-1>`), and
/// `()`, where the call leaves the option out, as 0.
///
/// ```
/// use tensor_expr_runtime::ops::{Offset, OffsetValue};
/// assert_eq!(<Offset<-1> as OffsetValue>::VALUE, -1);
/// assert_eq!(<() as OffsetValue>::VALUE, 0);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Offset<const V: isize>;

/// The value of a signed option's witness.
pub trait OffsetValue {
    /// The value.
    const VALUE: isize;
}

impl<const V: isize> OffsetValue for Offset<V> {
    const VALUE: isize = V;
}

impl OffsetValue for () {
    const VALUE: isize = 0;
}

/// A single axis (`Dims::SingleAxis`, `index_select(x, [1], ids)`) as a
/// type: `Axis<1>`.
///
/// ```
/// use tensor_expr_runtime::ops::{Axis, AxisValue};
/// assert_eq!(<Axis<1> as AxisValue>::AXIS, 1);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Axis<const A: usize>;

/// The value of a single axis's witness.
pub trait AxisValue {
    /// The axis.
    const AXIS: usize;
}

impl<const A: usize> AxisValue for Axis<A> {
    const AXIS: usize = A;
}

/// A type as a value, for a constructor that takes a type argument or a
/// named option (`reshape::<Shape![8, 8]>(x)` passes
/// `witness::<Shape![8, 8]>()`, `stride = [2, 2]` passes
/// `witness::<(D<2>, D<2>)>()`).
#[inline(always)]
pub fn witness<S>() -> core::marker::PhantomData<S> {
    core::marker::PhantomData
}

#[cfg(test)]
mod tests {
    use super::*;
    use tensor_expr_catalog::operation::keyword_type;

    #[test]
    fn names_are_unique_and_forms_name_their_operation() {
        for (i, op) in OPERATIONS.iter().enumerate() {
            assert!(
                OPERATIONS[..i]
                    .iter()
                    .all(|earlier| earlier.name != op.name),
                "{} is listed twice",
                op.name
            );
            assert!(!op.forms.is_empty(), "{} has no form", op.name);
            for form in op.forms {
                assert!(
                    form.starts_with(op.name),
                    "{form} is not a form of {}",
                    op.name
                );
            }
        }
    }

    #[test]
    fn every_option_keyword_has_its_type() {
        for op in OPERATIONS {
            for option in op.signature.options {
                for word in option.keywords {
                    assert!(
                        keyword::NAMES.contains(&keyword_type(word)),
                        "`{} = {word}` of {} has no type in `keyword`",
                        option.name,
                        op.name
                    );
                }
            }
        }
    }

    #[test]
    fn composites_are_built_from_table_names_and_functions() {
        for op in OPERATIONS {
            let Build::Composite(definition) = op.build else {
                continue;
            };
            for word in definition
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .filter(|w| w.chars().next().is_some_and(char::is_alphabetic))
            {
                /// Inputs, the flag and the element types of casts.
                const WORDS: &[&str] = &[
                    "x", "y", "z", "keepdim", "i8", "i16", "i32", "i64", "u8", "f32", "f64",
                ];
                let known = WORDS.contains(&word)
                    || lookup(word).is_some()
                    || crate::FUNCTIONS.iter().any(|f| f.name == word);
                assert!(known, "`{word}` in the definition of {}", op.name);
            }
        }
    }
}
