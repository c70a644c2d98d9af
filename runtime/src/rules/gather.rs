//! The shape rules of the gathers (`ops::gather`):
//! - `embedding(ids, table)`: `table` is `[V, D]` (a matrix), and the result
//!   is the ids' shape with `D` appended ([`Embedded`]), as
//!   `torch.nn.functional.embedding` gives; ids of rank up to 5, so the
//!   result has at most 6 dims.
//! - `index_select(x, ids, [axis])`: `ids` is a vector `[N]` ([`Ids`]),
//!   `axis` a dim of `x`, and the result is `x`'s shape with that dim
//!   replaced by `N` ([`Selected`]), as `torch.index_select` gives.
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
/// index's shape. Its one impl requires [`GatherParts`] of `()`, whose
/// impls are generic over their `Self`: so rustc reports a failing pair by
/// the carrier's own message and one line naming the shapes, with no list
/// of impls (as `rules::conv`'s `ConvParts`).
pub trait GatherIndex<X>: Shape {
    /// `Self`, through the rule.
    type Output: Shape;
}

#[diagnostic::do_not_recommend]
impl<I: Shape, X> GatherIndex<X> for I
where
    (): GatherParts<I, X>,
{
    type Output = <() as GatherParts<I, X>>::Output;
}

/// The rule over the pair `(I, X)`: one impl per pair of ranks, the equal
/// ones giving `I`, the others failing by [`GatherRank`]'s message.
pub trait GatherParts<I, X> {
    /// The index's shape, through the rule.
    type Output: Shape;
}

/// The message carrier of an index of another rank than the input's.
#[diagnostic::on_unimplemented(
    message = "`gather` takes an index of the input's rank: shape `{Index}` for an input of shape `{X}`",
    label = "`gather(x, index, [axis])` reads one element of `x` per element of `index`"
)]
pub trait GatherRank<X, Index> {
    /// Never computed: the verdict fails first.
    type Output: Shape;
}

#[diagnostic::do_not_recommend]
impl<X, Index, Verdict: NeverHolds> GatherRank<X, Index> for Verdict {
    type Output = ();
}

/// The impl for an index and an input of equal rank.
macro_rules! gather_parts {
    ($(($($i:ident),*) ($($x:ident),*)),* $(,)?) => {$(
        impl<S, $($i: Dim,)* $($x: Dim),*> GatherParts<($($i,)*), ($($x,)*)> for S {
            type Output = ($($i,)*);
        }
    )*};
}

gather_parts! {
    (I0) (X0),
    (I0, I1) (X0, X1),
    (I0, I1, I2) (X0, X1, X2),
    (I0, I1, I2, I3) (X0, X1, X2, X3),
    (I0, I1, I2, I3, I4) (X0, X1, X2, X3, X4),
    (I0, I1, I2, I3, I4, I5) (X0, X1, X2, X3, X4, X5),
}

/// The failing impl for an index of one rank over an input of another.
macro_rules! gather_rank_mismatch {
    (($($i:ident),*) ($($x:ident),*)) => {
        impl<S, $($i: Dim,)* $($x: Dim),*> GatherParts<($($i,)*), ($($x,)*)> for S
        where
            CannotGather: GatherRank<($($x,)*), ($($i,)*)>,
        {
            type Output = <CannotGather as GatherRank<($($x,)*), ($($i,)*)>>::Output;
        }
    };
}

/// [`gather_rank_mismatch`] for one index rank against each listed input
/// shape.
macro_rules! gather_ranks {
    ($($index:tt against $($x:tt),*;)*) => {$($(
        gather_rank_mismatch!($index $x);
    )*)*};
}

gather_ranks! {
    () against (X0), (X0, X1), (X0, X1, X2), (X0, X1, X2, X3), (X0, X1, X2, X3, X4), (X0, X1, X2, X3, X4, X5);
    (I0) against (), (X0, X1), (X0, X1, X2), (X0, X1, X2, X3), (X0, X1, X2, X3, X4), (X0, X1, X2, X3, X4, X5);
    (I0, I1) against (), (X0), (X0, X1, X2), (X0, X1, X2, X3), (X0, X1, X2, X3, X4), (X0, X1, X2, X3, X4, X5);
    (I0, I1, I2) against (), (X0), (X0, X1), (X0, X1, X2, X3), (X0, X1, X2, X3, X4), (X0, X1, X2, X3, X4, X5);
    (I0, I1, I2, I3) against (), (X0), (X0, X1), (X0, X1, X2), (X0, X1, X2, X3, X4), (X0, X1, X2, X3, X4, X5);
    (I0, I1, I2, I3, I4) against (), (X0), (X0, X1), (X0, X1, X2), (X0, X1, X2, X3), (X0, X1, X2, X3, X4, X5);
    (I0, I1, I2, I3, I4, I5) against (), (X0), (X0, X1), (X0, X1, X2), (X0, X1, X2, X3), (X0, X1, X2, X3, X4);
}

/// `index_select`'s axis rule: `Self` with dim `AXIS` replaced by `N`, through
/// [`SelectParts`] of `()`, so an axis beyond the rank is reported by
/// [`SelectAxis`]'s message alone (as [`GatherIndex`] reports ranks).
pub trait Selected<const AXIS: usize>: Shape {
    /// The shape with dim `AXIS` replaced by `N`.
    type Output<N: Dim>: Shape;
}

#[diagnostic::do_not_recommend]
impl<X: Shape, const AXIS: usize> Selected<AXIS> for X
where
    (): SelectParts<X, AXIS>,
{
    type Output<N: Dim> = <() as SelectParts<X, AXIS>>::Output<N>;
}

/// The rule over a shape and an axis: the replacement where the axis is in
/// range, else [`SelectAxis`]'s message.
pub trait SelectParts<X, const AXIS: usize> {
    /// The shape with dim `AXIS` replaced by `N`.
    type Output<N: Dim>: Shape;
}

/// The replacement for every rank and axis in range, from the axes table
/// (`rules::axes::for_each_axis`): each pair its own impl, so rustc picks
/// one by the shape and the axis.
macro_rules! select_parts {
    ($($axis:literal: [$($before:ident)*] $at:ident [$($after:ident)*];)*) => {$(
        impl<S, $($before: Dim,)* $at: Dim, $($after: Dim),*> SelectParts<($($before,)* $at, $($after,)*), $axis> for S {
            type Output<N: Dim> = ($($before,)* N, $($after,)*);
        }
    )*};
}

super::axes::for_each_axis!(select_parts);

/// The message carrier of an `index_select` along an axis the shape lacks.
#[diagnostic::on_unimplemented(
    message = "`index_select` along axis {AXIS} of shape `{X}`, which has fewer dims",
    label = "`index_select(x, ids, [axis])` replaces dim `axis` of `x` by the ids' count"
)]
pub trait SelectAxis<X, const AXIS: usize> {
    /// Never computed: the verdict fails first.
    type Output: Shape;
}

#[diagnostic::do_not_recommend]
impl<X, const AXIS: usize, Verdict: NeverHolds> SelectAxis<X, AXIS> for Verdict {
    type Output = ();
}

/// An axis at or beyond a shape's rank fails by [`SelectAxis`]'s message:
/// `(dims) axis`.
macro_rules! select_beyond_rank {
    ($(($($dim:ident),*) $axis:literal;)*) => {$(
        impl<S, $($dim: Dim,)*> SelectParts<($($dim,)*), $axis> for S
        where
            CannotGather: SelectAxis<($($dim,)*), $axis>,
        {
            type Output<N: Dim> = <CannotGather as SelectAxis<($($dim,)*), $axis>>::Output;
        }
    )*};
}

select_beyond_rank! {
    (A0) 1; (A0) 2; (A0) 3; (A0) 4; (A0) 5;
    (A0, A1) 2; (A0, A1) 3; (A0, A1) 4; (A0, A1) 5;
    (A0, A1, A2) 3; (A0, A1, A2) 4; (A0, A1, A2) 5;
    (A0, A1, A2, A3) 4; (A0, A1, A2, A3) 5;
    (A0, A1, A2, A3, A4) 5;
}
