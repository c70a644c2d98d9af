//! The operations of `tensor_expr!` other than operators and elementwise
//! functions, as the macro sees them: how each is written ([`Signature`]),
//! how it reads its input ([`Reads`], which decides what is staged, shared
//! and checked against an assignment target) and how its node is built
//! ([`Build`]). The macro has one syntax node for every entry, so parsing,
//! validation, sharing, staging and expansion need no edit for a new
//! operation.
//!
//! ```
//! use tensor_expr_catalog::operation::{lookup, Reads};
//! let sum = lookup("sum").unwrap();
//! assert_eq!(sum.reads, Reads::AlongAxes);
//! assert_eq!(sum.forms[1], "sum(x, [axes])");
//! ```

/// One operation as the macro sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The name written in expressions.
    pub name: &'static str,
    /// How its arguments are written.
    pub signature: Signature,
    /// How it reads its inputs.
    pub reads: Reads,
    /// How its node is built.
    pub build: Build,
    /// The element types it accepts: `"Element"` (any) or `"Float"`.
    pub elements: &'static str,
    /// What it computes, for the documentation and for errors.
    pub summary: &'static str,
    /// Every way to write it, for the errors about a malformed call.
    pub forms: &'static [&'static str],
}

/// How an operation's arguments are written:
/// `name(x, [dims], keepdim, option = [..])` with one input, or
/// `name(x, w, [dims], option = [..])` with two (inputs first, then what the
/// signature allows, in this order), and `name::<T>(x)` when it takes a type
/// argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// How many expressions it takes (1 or more), before the rest.
    pub inputs: usize,
    /// Its dim list, if it takes one.
    pub dims: Dims,
    /// Whether the dim list may be left out (a reduction then covers every
    /// axis).
    pub dims_optional: bool,
    /// Whether it accepts the `keepdim` flag.
    pub keepdim: bool,
    /// Whether it takes a type argument, `name::<T>(x)`: a shape for
    /// `reshape::<Shape![8, 8]>(x)`, an element type for a cast; the
    /// constructor gets it as a witness after the dim list's.
    pub type_arg: bool,
    /// Its named options, written `name = value` after the rest, in any
    /// order, each at most once. The constructor gets one witness per
    /// option, in this order: the values as a shape type (`stride = [2, 2]`
    /// as `(D<2>, D<2>)`, `stride = 2` as `(D<2>,)`), a keyword as its type
    /// under the runtime's `ops::keyword` (`padding = same` as `keyword::same`),
    /// a signed value as `ops::Offset<V>` (`diagonal = -1` as `Offset<-1>`),
    /// `()` where the call leaves the option out (the operation's default).
    pub options: &'static [NamedOption],
}

impl Signature {
    /// `inputs` expressions and nothing more: no dim list, `keepdim`, type
    /// argument or option. An entry writes its other fields over it
    /// (`Signature { options: &[STRIDE], ..Signature::of(2) }`).
    pub const fn of(inputs: usize) -> Signature {
        Signature {
            inputs,
            dims: Dims::None,
            dims_optional: false,
            keepdim: false,
            type_arg: false,
            options: &[],
        }
    }
}

/// A named option of an operation: `stride = [2, 2]`, `groups = 4`,
/// `padding = same`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedOption {
    /// The name.
    pub name: &'static str,
    /// How many values it takes (a single integer is one value, a list
    /// `[a, b]` two); empty where it takes only keywords.
    pub lengths: &'static [usize],
    /// Whether a value may be 0 (a padding) or not (a stride).
    pub zero: bool,
    /// Whether a value may be negative (a diagonal's offset, `diagonal =
    /// -1`): such an option takes one value, passed to the constructor as
    /// the type `ops::Offset<V>` rather than a shape.
    pub negative: bool,
    /// The keywords it takes instead of values.
    pub keywords: &'static [&'static str],
    /// Whether it also takes a pair of values per dim, `[[before, after],
    /// ..]` (a padding per side, TensorFlow's explicit padding): passed to
    /// the constructor as a tuple of `ops::Sides<B, A>`.
    pub sides: bool,
}

/// The name of the type (in the runtime's `ops::keyword`) that stands for
/// an option's keyword: the keyword itself, but `True` and `False` for the
/// Rust literals `true` and `false`, which cannot name a type.
pub fn keyword_type(word: &str) -> &str {
    match word {
        "true" => "True",
        "false" => "False",
        word => word,
    }
}

impl NamedOption {
    /// An option of one value, or one per spatial dim of two.
    pub const fn sizes(name: &'static str, zero: bool) -> NamedOption {
        NamedOption {
            name,
            lengths: &[1, 2],
            zero,
            negative: false,
            keywords: &[],
            sides: false,
        }
    }

    /// An option of one integer of either sign, 0 included (a diagonal's
    /// offset).
    pub const fn offset(name: &'static str) -> NamedOption {
        NamedOption {
            name,
            lengths: &[1],
            zero: true,
            negative: true,
            keywords: &[],
            sides: false,
        }
    }

    /// An option that takes one of `keywords`.
    pub const fn keywords(name: &'static str, keywords: &'static [&'static str]) -> NamedOption {
        NamedOption {
            name,
            lengths: &[],
            zero: false,
            negative: false,
            keywords,
            sides: false,
        }
    }

    /// An option of `true` or `false` (PyTorch's boolean arguments,
    /// `count_include_pad = false`): keywords whose types are
    /// [`keyword_type`]'s.
    pub const fn boolean(name: &'static str) -> NamedOption {
        NamedOption::keywords(name, &["true", "false"])
    }

    /// The same option taking a pair of values per dim too (`[[1, 2], [0,
    /// 1]]`).
    pub const fn sides(self) -> NamedOption {
        NamedOption {
            sides: true,
            ..self
        }
    }

    /// The same option taking one value only (an operation over one dim).
    pub const fn one(self) -> NamedOption {
        NamedOption {
            lengths: &[1],
            ..self
        }
    }
}

/// The signature of an operation of one input with an axis list like a
/// reduction's (optional or not) and `keepdim` where `keepdim` says.
pub const fn axes_signature(dims_optional: bool, keepdim: bool) -> Signature {
    Signature {
        inputs: 1,
        dims: Dims::AxisList,
        dims_optional,
        keepdim,
        type_arg: false,
        options: &[],
    }
}

/// The kind of an operation's dim list, which decides how the list is checked
/// (in the macro, then by a local trait against the operand's rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dims {
    /// No list.
    None,
    /// Axes of the input, each once, negative ones counted from the end
    /// (`[1]`, `[0, -1]`).
    AxisList,
    /// Exactly one non-negative axis (`argmax(x, [1])`); a constructor
    /// gets it as the type `ops::Axis<A>`.
    SingleAxis,
    /// A permutation of the input's dims (`[2, 0, 1]`).
    Permutation,
    /// Strictly increasing dims of the other operand that the input's dims
    /// are placed on (`in_dims(v, [0])`).
    Positions,
    /// Positive sizes, as many as one of the lengths listed (a pool's
    /// kernel, `[2, 2]`, or one size for every spatial dim); a `padding`
    /// option is then at most half the (dilated) kernel, as PyTorch's pools
    /// require, so that no window lies wholly in the padding.
    Sizes(&'static [usize]),
}

/// How an operation reads its inputs, which decides what the macro stages
/// and shares. Every kind but [`Reads::Converts`] reads elements other than
/// the one being written, so an operation that reads an assignment target
/// is evaluated before the nest overwrites it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Folds elements along its axes into a row it caches: the loop nest
    /// then walks the output row by row, so a product in the same
    /// expression is evaluated first (staged), as is an operand of `@` that
    /// holds it; it is shared by reference where it is written twice.
    AlongAxes,
    /// Reads stored data in place, through strides (zero-copy): an
    /// expression argument is evaluated first into a tensor of its own.
    InPlace(RowOrder),
    /// Reads stored data in place, placed on the dims of the other operand
    /// of its binary operation (`in_dims`): stands only as an operand of one.
    Placed,
    /// Gives `usize` positions rather than values: stands only around the
    /// whole expression, whose value it scans.
    Positions,
    /// Whatever its definition reads ([`Build::Composite`]).
    AsDefined,
    /// Reads stored data at many positions per output element and computes
    /// register tiles as a matrix product does (a convolution): its inputs
    /// are borrowed where stored (an expression input is evaluated first),
    /// and it is staged wherever a product is.
    Tiled,
    /// Reads stored data at other positions than the output element's
    /// (`flip`, `tril`): its input is borrowed where stored, and it is read
    /// like any elementwise node.
    Windows,
    /// Folds a window of its input for each output element (a pool): the
    /// input is read as a convolution reads it, stored or `cast::<U>(x)`
    /// (`+ c`, `- c`) converted from `x`'s own elements, and the node is
    /// read like any elementwise node.
    Pooled,
    /// Reads each element where it is written, converted to another element
    /// type (a cast): elementwise, its input an expression over its own
    /// element type, which the macro builds in a context of its own and
    /// passes to the constructor after the enclosing one.
    Converts,
    /// Reads its stored inputs at the positions that input `positions`
    /// holds (a gather: `embedding`, `index_select`): every input is
    /// borrowed where stored, and the positions are integers of their own
    /// type, which take no part in the expression's element type, so they
    /// must be a stored operand, not an expression. Read like any
    /// elementwise node.
    Gathers {
        /// Which input holds the positions.
        positions: usize,
    },
    /// Reads whole matrices (an inverse, a solve): the macro evaluates it
    /// first, a stage of its own, its inputs borrowed where stored (an
    /// expression input evaluated before it); two inputs are passed as one
    /// pair, `(a, b)` (see `linalg::operations::OperandPair`). Where
    /// `fallible`, its constructor returns a `Result` and the expression
    /// returns `Result<_, LinalgError>`.
    Matrices {
        /// Whether it can fail (`inv`, `solve`, `cholesky`).
        fallible: bool,
        /// Whether, as the whole value of `out = ..`, it is computed straight
        /// into the target by its constructor's `_into` form (a scan): no
        /// stage to fill and copy. Never with `fallible`, whose error must
        /// leave the target as it was.
        into_target: bool,
    },
}

/// What the macro asks of an operation: each decision it makes by how an
/// operation reads is one of these, so that a new kind of reading is one
/// place to state, not a case in each pass.
impl Reads {
    /// Whether the operation folds along axes into a row it caches (a
    /// reduction): the loop nest walks the output row by row, a product in
    /// the same expression is staged, the node is shared by reference where
    /// it is written twice, and it is a place to cut a deep tree; over a
    /// listed axis without `keepdim`, its shape drops that axis.
    pub const fn caches_rows(self) -> bool {
        matches!(self, Reads::AlongAxes)
    }

    /// Whether the operation computes register tiles as `@` does (a
    /// convolution): staged wherever a product is.
    pub const fn computed_in_tiles(self) -> bool {
        matches!(self, Reads::Tiled)
    }

    /// Whether the operation reads whole matrices (`inv`, `solve`):
    /// evaluated first, a stage of its own, two inputs passed as one pair.
    pub const fn reads_whole_matrices(self) -> bool {
        matches!(self, Reads::Matrices { .. })
    }

    /// Whether the operation's constructor returns a `Result`, so that the
    /// expression returns `Result<_, LinalgError>`.
    pub const fn fallible(self) -> bool {
        matches!(self, Reads::Matrices { fallible: true, .. })
    }

    /// Whether, as the whole value of an assignment `out = ..`, the
    /// operation is computed straight into the target: its constructor's
    /// `_into` form takes the target after the inputs and writes it where
    /// the shapes agree, else returns the tensor the statement assigns as
    /// it assigns any stage.
    pub const fn computed_into_target(self) -> bool {
        matches!(
            self,
            Reads::Matrices {
                into_target: true,
                ..
            }
        )
    }

    /// Whether the operation's input is built in a scope of its own element
    /// type (a cast). Such an operation alone reads only the element being
    /// written, so it alone need not be evaluated before a nest that
    /// overwrites its input.
    pub const fn scopes_input_element_type(self) -> bool {
        matches!(self, Reads::Converts)
    }

    /// Whether the operation stands only as an operand of a binary
    /// operation, placed on the other operand's dims (`in_dims`); it has no
    /// value of its own to share.
    pub const fn placed_on_other_operand(self) -> bool {
        matches!(self, Reads::Placed)
    }

    /// Whether the operation gives positions rather than values
    /// (`argmax`): it stands only around the whole expression.
    pub const fn gives_positions(self) -> bool {
        matches!(self, Reads::Positions)
    }

    /// The input that holds a gather's positions, which must be a stored
    /// operand (they are integers of their own type).
    pub const fn positions_input(self) -> Option<usize> {
        match self {
            Reads::Gathers { positions } => Some(positions),
            _ => None,
        }
    }

    /// For an operation read in place through strides, which data dim its
    /// rows run along.
    pub const fn row_order(self) -> Option<RowOrder> {
        match self {
            Reads::InPlace(order) => Some(order),
            _ => None,
        }
    }

    /// Whether the operation reads `cast::<U>(x)` (`+ c`, `- c`) from `x`'s
    /// own elements, converting each as it is read (no widened copy).
    pub const fn reads_converted_inputs(self) -> bool {
        matches!(self, Reads::Tiled | Reads::Pooled)
    }

    /// Whether the operation borrows its inputs where they are stored (an
    /// expression input is evaluated first, into a tensor of its own).
    pub const fn borrows_stored_inputs(self) -> bool {
        matches!(
            self,
            Reads::InPlace(_)
                | Reads::Gathers { .. }
                | Reads::Placed
                | Reads::Tiled
                | Reads::Windows
                | Reads::Pooled
                | Reads::Matrices { .. }
        )
    }
}

/// Which data dim an in-place read takes its rows along: where the rows
/// are not the data's, the right operand of `@` is copied once first, so
/// the product's tiles read contiguous rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOrder {
    /// The data's own rows (`reshape`).
    Kept,
    /// The data's columns (`transpose`).
    Swapped,
    /// The dim the list puts last (`permute`).
    Listed,
}

/// How the macro builds an operation's node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// A call of the constructor at path `constructor` under `ops` (or
    /// under the runtime's root, where it starts with `crate::`), given
    /// the context, the `marker` value (a path under `ops`) where one
    /// constructor serves a family of operations (the reductions), the
    /// dim-list rule's witness if the operation has a list (or the shape
    /// type's, if it takes one), the options' witnesses, then the input
    /// nodes. The marker is a value
    /// so that the constructor's bounds on it report an element type outside
    /// its domain by the marker's own message.
    Node {
        /// The constructor's path under `ops`.
        constructor: &'static str,
        /// The marker's path under `ops`, if the constructor takes one.
        marker: Option<&'static str>,
    },
    /// A node the dim-list rule builds itself, since its layout is a type it
    /// writes for the list (`permute`, `in_dims`).
    ByDimsRule,
    /// The method of this name on the evaluated value (`argmax`).
    Method(&'static str),
    /// An expression over other operations, written in the macro's syntax:
    /// `x`, `y`, `z` stand for the inputs; an operation written without a dim list
    /// takes the call's list; one written without `keepdim` takes the
    /// call's flag. The macro expands it in place, so it is fused, shared
    /// and staged like the same expression written out.
    Composite(&'static str),
}

/// The operation called `name`, if any.
#[cfg(feature = "tables")]
pub fn lookup(name: &str) -> Option<&'static Operation> {
    crate::OPERATIONS.iter().copied().find(|op| op.name == name)
}
