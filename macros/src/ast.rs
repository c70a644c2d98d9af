//! The parsed `tensor_expr!` input as plain data, every node with the span its
//! errors should point at. Parsing builds it, validation reads it, expansion
//! turns it into code; none of them mixes with another.

use proc_macro2::{Span, TokenStream};
use tensor_expr_catalog::operation::Operation;

/// One macro invocation: optional prefixes (`strict:`, `scratch <= N:`),
/// then a form.
pub struct Statement {
    /// `strict:` was given: rank promotion must be explicit (`in_dims`).
    pub strict: bool,
    /// `scratch <= N:` was given: the stack bytes its stages may take (an
    /// integer literal or a path to a `usize` constant), instead of
    /// `placement::DEFAULT_SCRATCH_BUDGET`.
    pub scratch_budget: Option<TokenStream>,
    /// What to do.
    pub form: Form,
    /// `argmax(e, [axis])` or `argmin(..)` around the whole expression: the
    /// positions of `e`'s extremes instead of its values.
    pub index_of: Option<IndexOf>,
}

/// `argmax(e, [axis])`, `argmin(e, [axis], keepdim)`: an operation that
/// gives positions of the statement's value ([`Reads::Positions`](tensor_expr_catalog::operation::Reads::Positions)). It gives
/// `usize` positions, not values of the expression's element type, so it
/// stands only around the whole expression.
pub struct IndexOf {
    /// The table entry.
    pub op: &'static Operation,
    /// The name as written, where errors about the axis point.
    pub name: syn::Ident,
    /// The one axis, counted from 0.
    pub axis: DimLiteral,
    /// `keepdim` was given: the axis stays, as size 1.
    pub keepdim: bool,
}

/// An expression to evaluate, or an assignment to a target.
pub enum Form {
    /// `tensor_expr!(e)`: a new tensor.
    Evaluate(Expr),
    /// `tensor_expr!(out = e)`, `out += e`, ...: writes into `target`.
    Assign {
        target: TokenStream,
        op: AssignOp,
        op_span: Span,
        value: Expr,
    },
}

/// The assignment operator of a [`Form::Assign`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`, `-=`, `*=`, `/=`: the arithmetic operator applied in place.
    Update(BinaryOp),
}

/// The binary operators: arithmetic, the matrix product and comparisons.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `@`, the matrix product (not elementwise: no marker, its own constructor).
    MatMul,
    /// `<`, `<=`, `>`, `>=`, `==`, `!=`: 1 where the comparison holds, else 0,
    /// in the expression's element type (a mask for `select`).
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    /// `>>` and `<<`: shifts of integers, binding between `+` and the
    /// comparisons (as in Rust).
    Shr,
    Shl,
}

impl BinaryOp {
    /// The runtime marker for this operator (in `expr::operators`).
    pub fn marker(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::Div => "div",
            BinaryOp::MatMul => "matmul",
            BinaryOp::Lt => "lt",
            BinaryOp::Le => "le",
            BinaryOp::Gt => "gt",
            BinaryOp::Ge => "ge",
            BinaryOp::Eq => "eq",
            BinaryOp::Ne => "ne",
            BinaryOp::Shr => "shr",
            BinaryOp::Shl => "shl",
        }
    }

    /// The operator as written (one punctuation token per character).
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::MatMul => "@",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Shr => ">>",
            BinaryOp::Shl => "<<",
        }
    }

    /// Whether this is a comparison (which binds loosest and does not chain).
    pub fn is_comparison(self) -> bool {
        self.precedence() == 0
    }

    /// How tightly the operator binds: `*` and `/` before `+` and `-`, those
    /// before the shifts, and those before comparisons (as in Rust).
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge
            | BinaryOp::Eq
            | BinaryOp::Ne => 0,
            BinaryOp::Shr | BinaryOp::Shl => 1,
            BinaryOp::Add | BinaryOp::Sub => 2,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::MatMul => 3,
        }
    }
}

/// A tensor expression.
#[derive(Clone)]
pub enum Expr {
    /// `lhs op rhs`, spanned on the operator.
    Binary {
        op: BinaryOp,
        span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `-operand`, spanned on the `-`.
    Negate { span: Span, operand: Box<Expr> },
    /// `name(args...)`: a function from the table, spanned on the name.
    Call { name: syn::Ident, args: Vec<Expr> },
    /// An unsuffixed integer literal; it takes the expression's element type.
    IntLiteral { value: i128, span: Span },
    /// An unsuffixed float literal; it takes the expression's float type.
    FloatLiteral { literal: syn::LitFloat },
    /// A Rust operand (a tensor, a view, a scalar).
    Operand(Operand),
    /// An operation of the runtime's table (`sum(x, [1], keepdim)`,
    /// `transpose(x)`, `in_dims(v, [0])`, `reshape::<S>(x)`), spanned on
    /// its name.
    Op(OpCall),
}

/// A call of an operation of the table ([`tensor_expr_catalog::OPERATIONS`]): its
/// input, then what its signature allows.
#[derive(Clone)]
pub struct OpCall {
    /// The table entry.
    pub op: &'static Operation,
    /// The name as written: errors point at it and name it (for a part of a
    /// composite operation's definition, the composite as the user wrote it).
    pub name: syn::Ident,
    /// The arguments, as many as the signature's `inputs`. An operation
    /// that reads stored data in place gets operands once its expressions
    /// are staged ([`crate::stage`]).
    pub inputs: Vec<Expr>,
    /// The dim list as written, if given.
    pub dims: Option<DimList>,
    /// `keepdim` was given: the reduced dims stay, as size 1.
    pub keepdim: bool,
    /// The type argument of `name::<T>(x)` (`reshape::<Shape![8, 8]>(x)`).
    pub type_arg: Option<Box<syn::Type>>,
    /// The named options as written (`stride = [2, 2]`), in written order.
    pub options: Vec<OptionArg>,
}

/// A named option of an operation call, `stride = [2, 2]`.
#[derive(Clone)]
pub struct OptionArg {
    /// Its name, where errors about it point.
    pub name: syn::Ident,
    /// Its values (none for a keyword).
    pub list: DimList,
    /// Its keyword, `same` in `padding = same`.
    pub keyword: Option<syn::Ident>,
    /// Whether the values are pairs per dim, `[[before, after], ..]`,
    /// flattened in `list` (two per dim).
    pub sides: bool,
}

impl OpCall {
    /// A call of `op` named `name` with its first input read so far: what
    /// the parser starts from before it reads the rest of the signature.
    pub fn new(
        op: &'static Operation,
        name: syn::Ident,
        first: Expr,
        type_arg: Option<Box<syn::Type>>,
    ) -> OpCall {
        OpCall {
            op,
            name,
            inputs: vec![first],
            dims: None,
            keepdim: false,
            type_arg,
            options: Vec::new(),
        }
    }

    /// The span of the dim list, or the name's when there is none: where
    /// the rules about the list are reported.
    pub fn dims_span(&self) -> Span {
        self.dims
            .as_ref()
            .map_or(self.name.span(), |dims| dims.span)
    }

    /// The dims as written, if a list was given.
    pub fn dim_values(&self) -> Option<&[DimLiteral]> {
        self.dims.as_ref().map(|list| &list.dims[..])
    }

    /// The input that holds a gather's positions, if
    /// the operation is one.
    pub fn positions_input(&self) -> Option<usize> {
        self.op.reads.positions_input()
    }

    /// Whether the node's shape lacks the axes it folded: a reduction over
    /// listed axes without `keepdim`.
    pub fn drops_axes(&self) -> bool {
        self.op.reads.caches_rows() && self.dims.is_some() && !self.keepdim
    }
}

/// A dim list as written, `[0, -1]`.
#[derive(Clone)]
pub struct DimList {
    /// Its entries.
    pub dims: Vec<DimLiteral>,
    /// The whole list's span.
    pub span: Span,
}

/// Any Rust operand: a path, field access, method call, reference, block or
/// suffixed literal. It is evaluated once, before the loop.
#[derive(Clone)]
pub struct Operand {
    /// The operand as written.
    pub tokens: TokenStream,
    /// Its span, where errors about it point.
    pub span: Span,
}

/// One entry of an `in_dims` tuple, a reduction's axes or a permutation, as
/// written (validation checks the rules).
#[derive(Clone, Copy, Debug)]
pub struct DimLiteral {
    /// The value, possibly negative (which validation rejects).
    pub value: i128,
    /// The entry's span, for errors about it.
    pub span: Span,
}

impl Expr {
    /// Is this an operation placed on the other operand (`in_dims(..)`)?
    pub fn is_in_dims(&self) -> bool {
        matches!(self, Expr::Op(call) if call.op.reads.placed_on_other_operand())
    }

    /// The parts of a convolution input read converted in place:
    /// `cast::<U>(x)`, `cast::<U>(x) + c` or `cast::<U>(x) - c` with `x` an
    /// operand and `c` an operand or a literal (a scalar, which the runtime
    /// checks): the cast and the operator and constant if any.
    pub fn widened_operand(&self) -> Option<WidenedOperand<'_>> {
        fn cast_of_operand(expr: &Expr) -> Option<&OpCall> {
            match expr {
                Expr::Op(call)
                    if call.op.reads.scopes_input_element_type() && call.type_arg.is_some() =>
                {
                    matches!(&call.inputs[..], [Expr::Operand(_)]).then_some(call)
                }
                _ => None,
            }
        }
        if let Some(cast) = cast_of_operand(self) {
            return Some(WidenedOperand { cast, offset: None });
        }
        let Expr::Binary {
            op: op @ (BinaryOp::Add | BinaryOp::Sub),
            lhs,
            rhs,
            ..
        } = self
        else {
            return None;
        };
        let constant = matches!(
            **rhs,
            Expr::Operand(_) | Expr::IntLiteral { .. } | Expr::FloatLiteral { .. }
        );
        let cast = cast_of_operand(lhs).filter(|_| constant)?;
        Some(WidenedOperand {
            cast,
            offset: Some((*op, rhs)),
        })
    }

    /// The operation call this node is, if it is one.
    pub fn as_op(&self) -> Option<&OpCall> {
        match self {
            Expr::Op(call) => Some(call),
            _ => None,
        }
    }

    /// Where errors about the whole node are reported: its operator, its
    /// function's name, or the operand itself.
    pub fn span(&self) -> Span {
        match self {
            Expr::Binary { span, .. }
            | Expr::Negate { span, .. }
            | Expr::IntLiteral { span, .. }
            | Expr::Operand(Operand { span, .. }) => *span,
            Expr::FloatLiteral { literal } => literal.span(),
            Expr::Call { name, .. } | Expr::Op(OpCall { name, .. }) => name.span(),
        }
    }

    /// Whether the node's shape lacks the axes a reduction dropped: a
    /// reduction over listed axes without `keepdim`, or an elementwise
    /// operation over one. Where such a node meets another operand, a
    /// broadcast error suggests `keepdim`.
    pub fn drops_axes(&self) -> bool {
        match self {
            Expr::Op(call) if call.op.reads.scopes_input_element_type() => {
                call.inputs.iter().any(Expr::drops_axes)
            }
            Expr::Op(call) => call.drops_axes(),
            Expr::Binary {
                op: BinaryOp::MatMul,
                ..
            } => false,
            Expr::Binary { .. } | Expr::Negate { .. } | Expr::Call { .. } => {
                self.children().iter().any(|child| child.drops_axes())
            }
            _ => false,
        }
    }

    /// The direct subexpressions, in source order. Operands and literals
    /// have none.
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Binary { lhs, rhs, .. } => vec![lhs, rhs],
            Expr::Call { args, .. } => args.iter().collect(),
            Expr::Negate { operand, .. } => vec![operand],
            Expr::Op(call) => call.inputs.iter().collect(),
            Expr::IntLiteral { .. } | Expr::FloatLiteral { .. } | Expr::Operand(_) => vec![],
        }
    }

    /// [`Self::children`], mutably (to rewrite a tree in place).
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Binary { lhs, rhs, .. } => vec![&mut **lhs, &mut **rhs],
            Expr::Call { args, .. } => args.iter_mut().collect(),
            Expr::Negate { operand, .. } => vec![&mut **operand],
            Expr::Op(call) => call.inputs.iter_mut().collect(),
            Expr::IntLiteral { .. } | Expr::FloatLiteral { .. } | Expr::Operand(_) => vec![],
        }
    }
}

/// A convolution input read converted in place ([`Expr::widened_operand`]).
pub struct WidenedOperand<'a> {
    /// The `cast::<U>(..)` call, of a stored operand.
    pub cast: &'a OpCall,
    /// `+ c` or `- c`, if written.
    pub offset: Option<(BinaryOp, &'a Expr)>,
}
