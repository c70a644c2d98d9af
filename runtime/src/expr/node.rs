//! What a node is made of, and what the kernel derives from it.
//!
//! Every [`Expr`] states two things besides how it reads its rows: its
//! children ([`Expr::Children`], borrowed by [`Expr::children`]) and what it
//! adds to them ([`Expr::OWN`]). Neither has a default, so a new node cannot
//! leave out a row cache or an operand's rows. From those two, this module
//! derives, once for every node, how the whole tree reads ([`reading`]: the
//! kernel's walk, and whether `rayon` may share the tree between threads)
//! and which operands have rows counted at run time
//! ([`visit_run_time_rows`]).
//!
//! ```
//! use tensor_expr_runtime::expr::{Flat, Own, Reading};
//! // An elementwise node adds nothing to its children's reading:
//! let children = Reading::leaf(Flat::Run(64));
//! assert_eq!(Own::ELEMENTWISE.over(children), children);
//! // A row cache reads its children one row at a time, alone:
//! assert_eq!(Own::alone(Reading::CACHED_ROWS).over(children), Reading::CACHED_ROWS);
//! ```

use super::{Expr, Flat, Reading, Stage};
use core::marker::PhantomData;

/// What a node adds to its children ([`Expr::OWN`]): its part of the
/// tree's reading, and what it is as an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Own {
    /// The node's own part of the reading: a product's, a leaf's flat read,
    /// a row cache.
    pub reading: Reading,
    /// Whether `reading` is the whole subtree's, whatever the children's:
    /// a node that reads its children in a way of its own (a row cache, one
    /// row at a time; a product, its operands fresh; a chunk of rows) and
    /// not where the output reads them.
    pub alone: bool,
    /// Whether the children's rows counted at run time are hidden: a
    /// reduction that folds that dim (its result is static).
    pub hides_run_time_rows: bool,
    /// Whether [`Expr::stored_row`] gives rows: stored data whose rows are
    /// contiguous (read along its own last dim, a row gives them, unless
    /// the read broadcasts that dim).
    pub stored: bool,
    /// Whether [`Expr::int8_row`] may give rows: `cast::<i32>(x)` of stored
    /// `i8` data, with a constant added or not (`cast::<i32>(x) - zx`). A
    /// product of two such operands sums the bytes themselves, four products
    /// per instruction where the CPU has VNNI.
    pub int8: bool,
    /// How much of an int8 layer's chain the subtree is
    /// ([`Stage`]): a tree at [`Stage::Stored`] may be stored by the int8
    /// kernels with its epilogue ([`Expr::int8_layer`]).
    pub layer: Stage,
}

impl Own {
    /// A node that reads its children where the output reads them and adds
    /// nothing: an elementwise function, a conversion, a reference.
    pub const ELEMENTWISE: Own = Own::adding(Reading::leaf(Flat::Splat));

    /// A node that reads its children where the output reads them, adding
    /// `reading` (a leaf's flat read).
    pub const fn adding(reading: Reading) -> Own {
        Own {
            reading,
            alone: false,
            hides_run_time_rows: false,
            stored: false,
            int8: false,
            layer: Stage::None,
        }
    }

    /// A node with no children (or stored rows alone) that reads the
    /// output as `flat`: a leaf.
    pub const fn leaf(flat: Flat) -> Own {
        Own::adding(Reading::leaf(flat))
    }

    /// A node whose subtree reads as `reading`, whatever its children do.
    pub const fn alone(reading: Reading) -> Own {
        Own {
            alone: true,
            ..Own::adding(reading)
        }
    }

    /// How a node that adds `self` to children reading as `children` reads.
    pub const fn over(self, children: Reading) -> Reading {
        if self.alone {
            self.reading
        } else {
            children.and(self.reading)
        }
    }
}

/// How the tree rooted at `E` reads: the node's own part over its
/// children's ([`Own::over`]). What the kernel's walk is chosen from
/// ([`Reading::walk`]).
pub const fn reading<T, E: Expr<T>>() -> Reading {
    E::OWN.over(<E::Children as Children<T>>::READING)
}

/// Calls `visit` with the rows of each of the tree's operands whose first
/// dim is [`Dyn`](crate::Dyn) (all equal: the placement checks them), in
/// order; none below a node that hides them ([`Own::hides_run_time_rows`]).
/// The chunk walk asserts through it that every such operand holds the
/// chunk's rows, which lets LLVM drop each row's range check and vectorise
/// across rows (`kernel/run_time.rs`), and a reduction over that dim folds
/// that many rows.
#[inline(always)]
pub fn visit_run_time_rows<T, E: Expr<T>>(e: &E, visit: &mut impl FnMut(usize)) {
    if const { !E::OWN.hides_run_time_rows } {
        <E::Children as Children<T>>::visit_run_time_rows(&e.children(), visit);
    }
}

/// The rows of the tree's operands whose first dim is [`Dyn`](crate::Dyn),
/// where it has one ([`visit_run_time_rows`]'s first): what a reduction over
/// that dim folds.
#[inline(always)]
pub fn run_time_rows<T, E: Expr<T>>(e: &E) -> Option<usize> {
    let mut rows = None;
    visit_run_time_rows::<T, E>(e, &mut |r| {
        rows.get_or_insert(r);
    });
    rows
}

/// A node's children ([`Expr::Children`]): `()` for a node that reads no
/// other node, a tuple of [`Child`]ren, or [`StoredRows`] for a leaf.
/// The one place children are combined.
pub trait Children<T> {
    /// The children borrowed, as [`Expr::children`] gives them.
    type Refs<'a>
    where
        Self: 'a;
    /// The children's readings combined.
    const READING: Reading;
    /// Calls `visit` with each child's run-time rows, in order.
    fn visit_run_time_rows(children: &Self::Refs<'_>, visit: &mut impl FnMut(usize));
}

/// One child of a node: an expression over the node's elements (read
/// through a reference), or one that the node reads in a way of its own
/// ([`OfElements`], a product's `Fresh` operand, a fold's steps).
pub trait Child<T> {
    /// The child borrowed.
    type Ref<'a>
    where
        Self: 'a;
    /// How the child's tree reads.
    const READING: Reading;
    /// Calls `visit` with the child's run-time rows.
    fn visit_run_time_rows(child: &Self::Ref<'_>, visit: &mut impl FnMut(usize));
}

impl<T, E: Expr<T>> Child<T> for E {
    type Ref<'a>
        = &'a E
    where
        E: 'a;
    const READING: Reading = reading::<T, E>();
    #[inline(always)]
    fn visit_run_time_rows(child: &&E, visit: &mut impl FnMut(usize)) {
        visit_run_time_rows::<T, E>(child, visit);
    }
}

/// A child over elements `F` of a node over other elements: a conversion's
/// input.
pub struct OfElements<F, E>(PhantomData<(F, E)>);

impl<T, F, E: Expr<F>> Child<T> for OfElements<F, E> {
    type Ref<'a>
        = &'a E
    where
        Self: 'a;
    const READING: Reading = reading::<F, E>();
    #[inline(always)]
    fn visit_run_time_rows(child: &&E, visit: &mut impl FnMut(usize)) {
        visit_run_time_rows::<F, E>(child, visit);
    }
}

macro_rules! impl_children {
    ($($x:ident $i:tt),*) => {
        #[allow(clippy::unused_unit)]
        impl<T, $($x: Child<T>),*> Children<T> for ($($x,)*) {
            type Refs<'a> = ($($x::Ref<'a>,)*) where Self: 'a;
            const READING: Reading = Reading::leaf(Flat::Splat) $(.and($x::READING))*;
            #[inline(always)]
            fn visit_run_time_rows(_children: &Self::Refs<'_>, _visit: &mut impl FnMut(usize)) {
                $($x::visit_run_time_rows(&_children.$i, _visit);)*
            }
        }
    };
}

impl_children!();
impl_children!(A 0);
impl_children!(A 0, B 1);
impl_children!(A 0, B 1, C 2);

/// What a leaf of stored data has in place of children: the rows of its
/// data where its first dim is counted at run time (`None` where it is not).
pub struct StoredRows;

impl<T> Children<T> for StoredRows {
    type Refs<'a> = Option<usize>;
    const READING: Reading = Reading::leaf(Flat::Splat);
    #[inline(always)]
    fn visit_run_time_rows(rows: &Option<usize>, visit: &mut impl FnMut(usize)) {
        if let Some(rows) = *rows {
            visit(rows);
        }
    }
}
