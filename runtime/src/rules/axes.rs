//! The axis rules of static slicing, index reductions and joins: which shape
//! a view or result has when one axis is removed (`index_axis`, `argmax`),
//! cut to `LEN` positions (`narrow`), kept as a broadcasting `One`
//! (`index_axis_keepdim`, `argmax_keepdim`) or inserted (`stack`); and the
//! size checks that stable Rust's types cannot state (`narrow`'s range,
//! `concat`'s sum, `argmax`'s non-empty axis), as `const` assertions that
//! `cargo build` reports.
//!
//! The type rules have one impl per rank and axis, from one table: the
//! rank-`r + 1` shape `[before] at [after]` is where an axis is removed, cut
//! or kept, and the rank-`r` shape `[before] [after]` is where one is
//! inserted. An axis out of range has no impl, and the error is the rule's
//! message (the impls are `do_not_recommend`, so rustc does not list them).

use crate::dim::{Dim, One, D};
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// The shape without dim `AXIS` (`(D<2>, D<4>)` for `(D<2>, D<3>, D<4>)` and
/// `AXIS = 1`), for every rank and every axis in range.
#[diagnostic::on_unimplemented(
    message = "axis {AXIS} is out of range for shape `{Self}`",
    label = "no axis {AXIS} here",
    note = "axes count from 0, outermost first; a shape of rank r has axes 0 to r - 1"
)]
pub trait RemoveAxis<const AXIS: usize>: Shape {
    /// The shape with dim `AXIS` removed.
    type Removed: Shape;
}

/// The shape with dim `AXIS` replaced by `D<LEN>`, for every rank and every
/// axis in range.
#[diagnostic::on_unimplemented(
    message = "axis {AXIS} is out of range for shape `{Self}`",
    label = "no axis {AXIS} here",
    note = "axes count from 0, outermost first; a shape of rank r has axes 0 to r - 1"
)]
pub trait NarrowAxis<const AXIS: usize, const LEN: usize>: Shape {
    /// The shape with dim `AXIS` of size `LEN`.
    type Narrowed: Shape;
}

/// The shape with dim `AXIS` replaced by [`One`] (size 1, which broadcasts),
/// for every rank and every axis in range.
#[diagnostic::on_unimplemented(
    message = "axis {AXIS} is out of range for shape `{Self}`",
    label = "no axis {AXIS} here",
    note = "axes count from 0, outermost first; a shape of rank r has axes 0 to r - 1"
)]
pub trait KeepAxis<const AXIS: usize>: Shape {
    /// The shape with dim `AXIS` of size `One`.
    type Kept: Shape;
}

/// The shape with a new dim `D<N>` at `AXIS`, for every rank below the
/// maximum and every position `0..=rank`.
#[diagnostic::on_unimplemented(
    message = "cannot insert axis {AXIS} into shape `{Self}`",
    label = "no position {AXIS} here",
    note = "`stack(Axis::<AXIS>, ..)` puts the new axis at a position from 0 to the operands' rank, and shapes have at most 6 dims"
)]
pub trait InsertAxis<const AXIS: usize, const N: usize>: Shape {
    /// The shape with `D<N>` at `AXIS`.
    type Inserted: Shape + RemoveAxis<AXIS, Removed = Self>;
}

/// Every rule's impl for each row `axis: [before] at [after]` of the table.
macro_rules! axis_rules {
    ($($axis:literal: [$($before:ident)*] $at:ident [$($after:ident)*];)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($before: Dim,)* $at: Dim, $($after: Dim),*> RemoveAxis<$axis> for ($($before,)* $at, $($after,)*) {
            type Removed = ($($before,)* $($after,)*);
        }
        #[diagnostic::do_not_recommend]
        impl<$($before: Dim,)* $at: Dim, $($after: Dim,)* const LEN: usize> NarrowAxis<$axis, LEN>
            for ($($before,)* $at, $($after,)*)
        {
            type Narrowed = ($($before,)* D<LEN>, $($after,)*);
        }
        #[diagnostic::do_not_recommend]
        impl<$($before: Dim,)* $at: Dim, $($after: Dim),*> KeepAxis<$axis> for ($($before,)* $at, $($after,)*) {
            type Kept = ($($before,)* One, $($after,)*);
        }
        #[diagnostic::do_not_recommend]
        impl<$($before: Dim,)* $($after: Dim,)* const N: usize> InsertAxis<$axis, N> for ($($before,)* $($after,)*) {
            type Inserted = ($($before,)* D<N>, $($after,)*);
        }
    )*};
}

const _: () = assert!(MAX_RANK == 6, "the table below is written out up to rank 6");

/// Calls `$callback!` with the table of every axis of every shape: rows
/// `axis: [dims before] dim [dims after];`, for ranks 1 to 6, or (`@below_max`)
/// for ranks 1 to 5, the shapes that can take one more dim
/// (`rules::window`).
macro_rules! for_each_axis {
    ($callback:ident) => {
        $crate::rules::axes::for_each_axis!(@below_max $callback);
        $callback! {
            0: [] A0 [A1 A2 A3 A4 A5];
            1: [A0] A1 [A2 A3 A4 A5];
            2: [A0 A1] A2 [A3 A4 A5];
            3: [A0 A1 A2] A3 [A4 A5];
            4: [A0 A1 A2 A3] A4 [A5];
            5: [A0 A1 A2 A3 A4] A5 [];
        }
    };
    (@below_max $callback:ident) => {
        $callback! {
            0: [] A0 [];
            0: [] A0 [A1];
            1: [A0] A1 [];
            0: [] A0 [A1 A2];
            1: [A0] A1 [A2];
            2: [A0 A1] A2 [];
            0: [] A0 [A1 A2 A3];
            1: [A0] A1 [A2 A3];
            2: [A0 A1] A2 [A3];
            3: [A0 A1 A2] A3 [];
            0: [] A0 [A1 A2 A3 A4];
            1: [A0] A1 [A2 A3 A4];
            2: [A0 A1] A2 [A3 A4];
            3: [A0 A1 A2] A3 [A4];
            4: [A0 A1 A2 A3] A4 [];
        }
    };
}
pub(crate) use for_each_axis;

for_each_axis!(axis_rules);

/// The build-time check that positions `START..START + LEN` lie on dim
/// `AXIS` of `S` (`narrow`).
pub(crate) struct NarrowFits<S, const AXIS: usize, const START: usize, const LEN: usize>(
    PhantomData<S>,
);

impl<S: Shape, const AXIS: usize, const START: usize, const LEN: usize>
    NarrowFits<S, AXIS, START, LEN>
{
    pub(crate) const CHECKED: () = assert!(
        START + LEN <= S::DIMS[AXIS],
        "`narrow::<AXIS, START, LEN>` reaches past the end of the axis: START + LEN must be at most its size"
    );
}

/// The build-time check that axis `AXIS` of `S` is not empty (`argmax` and
/// `argmin` have no answer there; NumPy raises).
pub(crate) struct NonEmptyAxis<S, const AXIS: usize>(PhantomData<S>);

impl<S: Shape, const AXIS: usize> NonEmptyAxis<S, AXIS> {
    pub(crate) const CHECKED: () = assert!(
        S::DIMS[AXIS] > 0,
        "`argmax` / `argmin` over an axis of size 0: there is no position to give"
    );
}

/// The build-time check of `concat`: `A` and `B` joined along `AXIS` give
/// `C` (same rank, equal dims off `AXIS`, the sum on it).
pub(crate) struct ConcatFits<A, B, C, const AXIS: usize>(PhantomData<(A, B, C)>);

impl<A: Shape, B: Shape, C: Shape, const AXIS: usize> ConcatFits<A, B, C, AXIS> {
    pub(crate) const CHECKED: () = {
        assert!(
            A::RANK == C::RANK && B::RANK == C::RANK && AXIS < C::RANK,
            "`concat(Axis::<AXIS>, a, b)`: both operands and the result need the same rank, above AXIS"
        );
        let mut k = 0;
        while k < C::RANK {
            if k == AXIS {
                assert!(
                    A::DIMS[k] + B::DIMS[k] == C::DIMS[k],
                    "`concat(Axis::<AXIS>, a, b)`: the result's dim AXIS must be the sum of the operands'"
                );
            } else {
                assert!(
                    A::DIMS[k] == C::DIMS[k] && B::DIMS[k] == C::DIMS[k],
                    "`concat(Axis::<AXIS>, a, b)`: the operands' dims off AXIS must equal the result's"
                );
            }
            k += 1;
        }
    };
}

#[cfg(test)]
mod tests {
    use super::{InsertAxis, KeepAxis, NarrowAxis, RemoveAxis};
    use crate::dim::D;
    use crate::shape::Shape;

    type S = (D<3>, D<4>, D<5>);

    #[test]
    fn each_axis_rule_changes_only_its_axis() {
        assert_eq!(<<S as RemoveAxis<0>>::Removed as Shape>::DIMS, &[4, 5]);
        assert_eq!(<<S as RemoveAxis<2>>::Removed as Shape>::DIMS, &[3, 4]);
        assert_eq!(<<S as KeepAxis<1>>::Kept as Shape>::DIMS, &[3, 1, 5]);
        assert_eq!(
            <<S as NarrowAxis<2, 2>>::Narrowed as Shape>::DIMS,
            &[3, 4, 2]
        );
        assert_eq!(
            <<S as InsertAxis<1, 7>>::Inserted as Shape>::DIMS,
            &[3, 7, 4, 5]
        );
        assert_eq!(
            <<S as InsertAxis<3, 2>>::Inserted as Shape>::DIMS,
            &[3, 4, 5, 2]
        );
    }
}
