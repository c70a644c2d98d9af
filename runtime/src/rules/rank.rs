//! XLA's principle (its broadcasting semantics, "Principles"): rank promotion
//! is never implicit.
//! "XLA requires explicit broadcasting specifications on operations between
//! arrays of different ranks. [...] Scalars can always be broadcast over arrays
//! without an explicit specification."
//!
//! So in `tensor_expr!(strict: ...)` the operands of an operation must have the
//! same rank, or one of them must be a scalar; a lower-rank operand is placed
//! with `in_dims(x, [...])`. Size-1 ("degenerate") broadcasting between equal
//! ranks stays legal. In the default NumPy mode every pair passes this rule and
//! only [`Broadcast`] applies.

use super::broadcast::{Broadcast, DroppedAxes};
use super::in_place::BroadcastInto;
use super::{for_each_aligned_rank_pair, NeverHolds};
use crate::dim::Dim;
use crate::shape::Shape;

/// NumPy mode: ranks are promoted implicitly (the default).
#[derive(Clone, Copy, Debug, Default)]
pub struct Numpy;

/// Strict mode: ranks must match or one side must be a scalar.
#[derive(Clone, Copy, Debug, Default)]
pub struct Strict;

/// NumPy mode for an operation one of whose operands is a reduction without
/// `keepdim`: the macro picks it (through [`Mode::AfterReduction`]) so that a
/// broadcast error there suggests `keepdim`; the rule is NumPy's.
#[derive(Clone, Copy, Debug, Default)]
pub struct NumpyAfterReduction;

/// A broadcasting mode.
pub trait Mode {
    /// The mode of an operation one of whose operands is a reduction that
    /// dropped its axes: [`NumpyAfterReduction`] for NumPy, strict unchanged.
    type AfterReduction;
}

impl Mode for Numpy {
    type AfterReduction = NumpyAfterReduction;
}

impl Mode for NumpyAfterReduction {
    type AfterReduction = NumpyAfterReduction;
}

impl Mode for Strict {
    type AfterReduction = Strict;
}

/// The rank rule of a mode between two shapes. Implemented for every pair of
/// shapes; in strict mode a pair of different ranks (neither a scalar) requires
/// [`StrictRanks`] of [`ImplicitRankPromotion`], which nothing implements, so
/// rustc reports that message, once, on the operator.
pub trait RankRule<Rhs, Mode> {
    /// `Self`. Constructors compute their shape through this projection, so a
    /// failing rule is reported once, where the node is built, without a note
    /// pointing into the library.
    type Checked;
}

/// What a strict-mode pair of shapes `L` and `R` requires of their ranks.
#[diagnostic::on_unimplemented(
    message = "strict mode: shapes `{L}` and `{R}` have different ranks",
    label = "implicit rank promotion between `{L}` and `{R}`",
    note = "in `strict:` mode, place the lower-rank operand explicitly with `in_dims(x, [..])`; scalars need nothing"
)]
pub trait StrictRanks<L, R, Longer> {
    /// What the operation broadcasts on: [`Refused`] of the longer shape.
    type Checked;
}

/// The shape `S` of an operation refused for its ranks in strict mode (already
/// reported): it broadcasts with anything, and can be written anywhere, giving
/// `S`, so the same mistake is not reported again as a broadcast error.
pub struct Refused<S>(core::marker::PhantomData<S>);

impl<S: Shape, R> Broadcast<R> for Refused<S> {
    type Output = S;
}

impl<S, X> BroadcastInto<X> for Refused<S> {
    type Written = ();
}

/// The verdict on a pair of different ranks in strict mode.
pub struct ImplicitRankPromotion;

#[diagnostic::do_not_recommend]
impl<L, R, Longer, X: NeverHolds> StrictRanks<L, R, Longer> for X {
    type Checked = Refused<Longer>;
}

impl<A, B> RankRule<B, Numpy> for A {
    type Checked = A;
}

/// NumPy's rule, with the shape marked for the `keepdim` note.
impl<A, B> RankRule<B, NumpyAfterReduction> for A {
    type Checked = DroppedAxes<A>;
}

/// Strict: a scalar against anything (blanket, so generic code gets it).
#[diagnostic::do_not_recommend]
impl<S: Shape> RankRule<(), Strict> for S {
    type Checked = S;
}

macro_rules! impl_strict_rank_rule {
    // Equal ranks (no leading dims), at least 1.
    ([$($a:ident)+] [$($b:ident)+] [] $_positions:tt) => {
        #[diagnostic::do_not_recommend]
        impl<$($a: Dim,)+ $($b: Dim,)+> RankRule<($($b,)+), Strict> for ($($a,)+) {
            type Checked = Self;
        }
    };
    // A scalar on the left.
    ([] [] [$($l:ident)+] $_positions:tt) => {
        #[diagnostic::do_not_recommend]
        impl<$($l: Dim,)+> RankRule<($($l,)+), Strict> for () {
            type Checked = Self;
        }
    };
    // Different ranks, either way round.
    ([$($a:ident)+] [$($b:ident)+] [$($l:ident)+] $_positions:tt) => {
        #[diagnostic::do_not_recommend]
        impl<$($l: Dim,)+ $($a: Dim,)+ $($b: Dim,)+> RankRule<($($b,)+), Strict> for ($($l,)+ $($a,)+)
        where ImplicitRankPromotion: StrictRanks<Self, ($($b,)+), Self>
        {
            type Checked = <ImplicitRankPromotion as StrictRanks<Self, ($($b,)+), Self>>::Checked;
        }
        #[diagnostic::do_not_recommend]
        impl<$($l: Dim,)+ $($a: Dim,)+ $($b: Dim,)+> RankRule<($($l,)+ $($a,)+), Strict> for ($($b,)+)
        where ImplicitRankPromotion: StrictRanks<Self, ($($l,)+ $($a,)+), ($($l,)+ $($a,)+)>
        {
            type Checked = <ImplicitRankPromotion as StrictRanks<Self, ($($l,)+ $($a,)+), ($($l,)+ $($a,)+)>>::Checked;
        }
    };
    // `()` with `()`: the blanket impl.
    ([] [] [] $_positions:tt) => {};
}
for_each_aligned_rank_pair!(impl_strict_rank_rule);

/// The reference rule over plain sizes: do `a` and `b` satisfy `mode`'s rank rule?
///
/// ```
/// use tensor_expr_runtime::rules::rank::ranks_agree_strictly;
/// assert!(ranks_agree_strictly(&[2, 3], &[1, 3]));
/// assert!(ranks_agree_strictly(&[2, 3], &[]));
/// assert!(!ranks_agree_strictly(&[2, 3], &[3]));
/// ```
pub const fn ranks_agree_strictly(a: &[usize], b: &[usize]) -> bool {
    a.len() == b.len() || a.is_empty() || b.is_empty()
}

#[cfg(test)]
mod tests {
    use super::ranks_agree_strictly;

    #[test]
    fn only_equal_ranks_and_scalars_agree_strictly() {
        assert!(ranks_agree_strictly(&[2, 3], &[2, 3]));
        assert!(ranks_agree_strictly(&[2, 3], &[1, 3]));
        assert!(ranks_agree_strictly(&[2, 3], &[]));
        assert!(ranks_agree_strictly(&[], &[4]));
        assert!(!ranks_agree_strictly(&[2, 3], &[3]));
        assert!(!ranks_agree_strictly(&[3], &[1, 3]));
    }
}
