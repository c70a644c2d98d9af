//! The parsed `tensor_expr!` input as plain data, every node with the span its
//! errors should point at. Parsing builds it, validation reads it, expansion
//! turns it into code; none of them mixes with another.

use proc_macro2::{Span, TokenStream};

/// One macro invocation: an optional `strict:` mode, then a form.
pub struct Statement {
    /// `strict:` was given: rank promotion must be explicit (`in_dims`).
    pub strict: bool,
    /// What to do.
    pub form: Form,
    /// `argmax(e, [axis])` or `argmin(..)` around the whole expression: the
    /// positions of `e`'s extremes instead of its values.
    pub index_of: Option<IndexOf>,
}

/// `argmax(e, [axis])`, `argmin(e, [axis], keepdim)`: an index reduction of
/// the statement's value. It gives `usize` positions, not values of the
/// expression's element type, so it stands only around the whole expression.
pub struct IndexOf {
    /// `argmax` or `argmin`, where errors about the axis point.
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
        }
    }

    /// Whether this is a comparison (which binds loosest and does not chain).
    pub fn is_comparison(self) -> bool {
        self.precedence() == 0
    }

    /// How tightly the operator binds: `*` and `/` before `+` and `-`, and
    /// those before comparisons (as in Rust).
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge
            | BinaryOp::Eq
            | BinaryOp::Ne => 0,
            BinaryOp::Add | BinaryOp::Sub => 1,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::MatMul => 2,
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
    /// `in_dims(x, [d0, d1, ...])`: `x`'s dims placed on dims `d0 < d1 < ...` of
    /// the other operand of the enclosing binary operation (XLA's InDim).
    /// Its argument is an operand, never an expression: it reads `x`'s data
    /// in place (the parser rejects anything else).
    InDims {
        name: syn::Ident,
        operand: Operand,
        dims: Vec<DimLiteral>,
        tuple_span: Span,
    },
    /// `sum(x, [1], keepdim)`, `mean(x, [0, -1])`, `max(x)` (all axes): a
    /// reduction from the runtime's table, spanned on the name (the axes list
    /// for the axes rule).
    Reduce {
        name: syn::Ident,
        operand: Box<Expr>,
        /// The axes as written; `None` reduces every axis.
        axes: Option<Vec<DimLiteral>>,
        /// The axes list's span, or the name's when there is none.
        axes_span: Span,
        /// `keepdim` was given: the reduced dims stay, as size 1.
        keepdim: bool,
    },
    /// `transpose(x)` (`perm: None`: the last two dims swapped) or
    /// `permute(x, [2, 0, 1])`: an operand read in another dim order.
    Permute {
        name: syn::Ident,
        /// Read in place, so an operand (the parser rejects an expression).
        operand: Operand,
        perm: Option<Vec<DimLiteral>>,
        /// The list's span, or the name's for `transpose`.
        perm_span: Span,
    },
    /// `reshape::<Shape![8, 8]>(x)`: an operand read as another shape.
    Reshape {
        name: syn::Ident,
        shape: Box<syn::Type>,
        /// Read in place, so an operand (the parser rejects an expression).
        operand: Operand,
    },
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
    /// Is this an `in_dims(..)` node?
    pub fn is_in_dims(&self) -> bool {
        matches!(self, Expr::InDims { .. })
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
            Expr::Call { name, .. }
            | Expr::InDims { name, .. }
            | Expr::Reduce { name, .. }
            | Expr::Permute { name, .. }
            | Expr::Reshape { name, .. } => name.span(),
        }
    }

    /// Whether the node's shape lacks the axes a reduction dropped: a
    /// reduction over listed axes without `keepdim`, or an elementwise
    /// operation over one. Where such a node meets another operand, a
    /// broadcast error suggests `keepdim`.
    pub fn drops_axes(&self) -> bool {
        match self {
            Expr::Reduce { axes, keepdim, .. } => axes.is_some() && !keepdim,
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

    /// The direct subexpressions, in source order. The leaves (operands,
    /// literals, and the operand readers `in_dims`, `permute`, `reshape`)
    /// have none.
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Binary { lhs, rhs, .. } => vec![lhs, rhs],
            Expr::Call { args, .. } => args.iter().collect(),
            Expr::Negate { operand, .. } | Expr::Reduce { operand, .. } => vec![operand],
            Expr::InDims { .. }
            | Expr::Permute { .. }
            | Expr::Reshape { .. }
            | Expr::IntLiteral { .. }
            | Expr::FloatLiteral { .. }
            | Expr::Operand(_) => vec![],
        }
    }

    /// [`Self::children`], mutably (to rewrite a tree in place).
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Binary { lhs, rhs, .. } => vec![&mut **lhs, &mut **rhs],
            Expr::Call { args, .. } => args.iter_mut().collect(),
            Expr::Negate { operand, .. } | Expr::Reduce { operand, .. } => vec![&mut **operand],
            Expr::InDims { .. }
            | Expr::Permute { .. }
            | Expr::Reshape { .. }
            | Expr::IntLiteral { .. }
            | Expr::FloatLiteral { .. }
            | Expr::Operand(_) => vec![],
        }
    }

    /// The Rust operand a leaf reads: the operand itself, or the one that
    /// `in_dims`, `permute` or `reshape` reads in place.
    pub fn leaf_operand(&self) -> Option<&Operand> {
        match self {
            Expr::Operand(operand)
            | Expr::InDims { operand, .. }
            | Expr::Permute { operand, .. }
            | Expr::Reshape { operand, .. } => Some(operand),
            _ => None,
        }
    }
}
