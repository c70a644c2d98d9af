//! The shape rules of the gathers (`ops::gather`):
//! - `embedding(ids, table)`: `table` is `[V, D]` (a matrix), and the result
//!   is the ids' shape with `D` appended ([`Embedded`]), as
//!   `torch.nn.functional.embedding` gives; ids of rank up to 5, so the
//!   result has at most 6 dims.
//! - `index_select(x, ids, [axis])`: `ids` is a vector `[N]` ([`Ids`]),
//!   `axis` a dim of `x`, and the result is `x`'s shape with that dim
//!   replaced by `N` (the axes table's
//!   [`ReplaceAxis`](super::axes::ReplaceAxis)), as `torch.index_select`
//!   gives.
//!
//! Each fails through a message carrier over a verdict that implements
//! nothing ([`NeverHolds`]), so rustc reports one error, by the carrier's
//! message, where the node is built.

use super::NeverHolds;
use crate::dim::{Dim, D};
use crate::shape::Shape;

/// The verdict on a gather whose shapes do not fit: it implements nothing.
pub struct CannotGather;

/// The message carrier of an embedding table that is not a matrix.
#[diagnostic::on_unimplemented(
    message = "an embedding table is a matrix `[V, D]`, not shape `{Table}`",
    label = "`embedding(ids, table)` reads row `id` of `table` for each id",
    note = "`table` has one row of `D` values per id (`torch.nn.functional.embedding`'s `weight`)"
)]
pub trait TableShape<Table> {
    /// Never computed: the verdict fails first.
    type Rows: Dim;
    /// Never computed: the verdict fails first.
    type Width: Dim;
}

#[diagnostic::do_not_recommend]
impl<Table, Verdict: NeverHolds> TableShape<Table> for Verdict {
    type Rows = D<0>;
    type Width = D<0>;
}

/// An embedding table's shape: a matrix `[V, D]`, rows `V` of width `D`.
#[diagnostic::on_unimplemented(
    message = "an embedding table is a matrix `[V, D]`, not shape `{Self}`",
    label = "`embedding(ids, table)` reads row `id` of `table` for each id"
)]
pub trait Table: Shape {
    /// `V`, the number of rows (ids `0..V`).
    type Rows: Dim;
    /// `D`, the width of a row.
    type Width: Dim;
}

impl<V: Dim, W: Dim> Table for (V, W) {
    type Rows = V;
    type Width = W;
}

/// Every shape but a matrix fails, by [`TableShape`]'s message.
macro_rules! not_a_table {
    ($(($($dim:ident),*)),*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($dim: Dim),*> Table for ($($dim,)*)
        where
            CannotGather: TableShape<($($dim,)*)>,
        {
            type Rows = <CannotGather as TableShape<($($dim,)*)>>::Rows;
            type Width = <CannotGather as TableShape<($($dim,)*)>>::Width;
        }
    )*};
}

not_a_table!(
    (A0),
    (A0, A1, A2),
    (A0, A1, A2, A3),
    (A0, A1, A2, A3, A4),
    (A0, A1, A2, A3, A4, A5)
);

// `()` has no impl: `Table`'s own message reports it.

/// The message carrier of ids of rank 6, whose embedding would have 7 dims.
#[diagnostic::on_unimplemented(
    message = "`embedding` of ids of shape `{Ids}` would have more than 6 dims",
    label = "the result is the ids' shape with the table's width appended",
    note = "shapes have at most 6 dims: give ids of at most 5"
)]
pub trait EmbeddedRank<Ids, Width> {
    /// Never computed: the verdict fails first.
    type Output: Shape;
}

#[diagnostic::do_not_recommend]
impl<Ids, Width, Verdict: NeverHolds> EmbeddedRank<Ids, Width> for Verdict {
    type Output = ();
}

/// The ids' shape `Self` with the table's width `Width` appended: the shape
/// of `embedding(ids, table)`.
pub trait Embedded<Width: Dim>: Shape {
    /// `Self` with `Width` appended.
    type Output: Shape;
}

macro_rules! embedded {
    ($(($($dim:ident),*)),*) => {$(
        impl<$($dim: Dim,)* Width: Dim> Embedded<Width> for ($($dim,)*) {
            type Output = ($($dim,)* Width,);
        }
    )*};
}

embedded!(
    (),
    (A0),
    (A0, A1),
    (A0, A1, A2),
    (A0, A1, A2, A3),
    (A0, A1, A2, A3, A4)
);

#[diagnostic::do_not_recommend]
impl<A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, A5: Dim, Width: Dim> Embedded<Width>
    for (A0, A1, A2, A3, A4, A5)
where
    CannotGather: EmbeddedRank<(A0, A1, A2, A3, A4, A5), Width>,
{
    type Output = <CannotGather as EmbeddedRank<(A0, A1, A2, A3, A4, A5), Width>>::Output;
}

/// The message carrier of `index_select`'s ids of another rank than 1.
#[diagnostic::on_unimplemented(
    message = "`index_select` takes a vector of ids, not shape `{Ids}`",
    label = "`index_select(x, ids, [axis])` selects one slice of `x` per id",
    note = "for ids of any shape, each naming a row of a matrix, use `embedding(ids, table)`"
)]
pub trait IdsRank<Ids> {
    /// Never computed: the verdict fails first.
    type Count: Dim;
}

#[diagnostic::do_not_recommend]
impl<Ids, Verdict: NeverHolds> IdsRank<Ids> for Verdict {
    type Count = D<0>;
}

/// The shape of `index_select`'s ids: a vector of `Count` ids.
#[diagnostic::on_unimplemented(
    message = "`index_select` takes a vector of ids, not shape `{Self}`",
    label = "`index_select(x, ids, [axis])` selects one slice of `x` per id"
)]
pub trait Ids: Shape {
    /// The number of ids.
    type Count: Dim;
}

impl<N: Dim> Ids for (N,) {
    type Count = N;
}

/// Every other rank fails, by [`IdsRank`]'s message.
macro_rules! not_ids {
    ($(($($dim:ident),*)),*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($dim: Dim),*> Ids for ($($dim,)*)
        where
            CannotGather: IdsRank<($($dim,)*)>,
        {
            type Count = <CannotGather as IdsRank<($($dim,)*)>>::Count;
        }
    )*};
}

not_ids!(
    (A0, A1),
    (A0, A1, A2),
    (A0, A1, A2, A3),
    (A0, A1, A2, A3, A4),
    (A0, A1, A2, A3, A4, A5)
);

/// An index shape `Self` for `gather` over input shape `X`: the same rank
/// (each dim at most `X`'s but along the gathered axis, which the build
/// checks: a size relation typenum would bound to 4096). The result has the
/// index's shape.
#[diagnostic::on_unimplemented(
    message = "`gather` takes an index of the input's rank: shape `{Self}` for an input of shape `{X}`",
    label = "`gather(x, index, [axis])` reads one element of `x` per element of `index`",
    note = "as `torch.gather`: the index has the input's rank, each dim at most the input's (the gathered axis any size)"
)]
pub trait GatherIndex<X>: Shape {
    /// `Self`, through the rule.
    type Output: Shape;
}

/// One impl per pair of shapes of equal rank; a pair of other ranks has
/// none, and fails by the trait's message.
macro_rules! gather_index {
    ($(($($i:ident),*) ($($x:ident),*)),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($i: Dim,)* $($x: Dim),*> GatherIndex<($($x,)*)> for ($($i,)*) {
            type Output = Self;
        }
    )*};
}

gather_index! {
    (I0) (X0),
    (I0, I1) (X0, X1),
    (I0, I1, I2) (X0, X1, X2),
    (I0, I1, I2, I3) (X0, X1, X2, X3),
    (I0, I1, I2, I3, I4) (X0, X1, X2, X3, X4),
    (I0, I1, I2, I3, I4, I5) (X0, X1, X2, X3, X4, X5),
}
