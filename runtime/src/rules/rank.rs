//! XLA's principle (seed 000, "Principles"): rank promotion is never implicit.
//! "XLA requires explicit broadcasting specifications on operations between
//! arrays of different ranks. [...] Scalars can always be broadcast over arrays
//! without an explicit specification."
//!
//! So in `tensor_expr!(strict: ...)` the operands of an operation must have the
//! same rank, or one of them must be a scalar; a lower-rank operand is placed
//! with `in_dims(x, [...])`. Size-1 ("degenerate") broadcasting between equal
//! ranks stays legal. In the default NumPy mode every pair passes this rule and
//! only [`Broadcast`](super::broadcast::Broadcast) applies.

use super::for_each_aligned_rank_pair;
use crate::dim::Dim;
use crate::shape::Shape;

/// NumPy mode: ranks are promoted implicitly (the default).
#[derive(Clone, Copy, Debug, Default)]
pub struct Numpy;

/// Strict mode: ranks must match or one side must be a scalar.
#[derive(Clone, Copy, Debug, Default)]
pub struct Strict;

/// The rank rule of a mode between two shapes.
#[diagnostic::on_unimplemented(
    message = "strict mode: shapes `{Self}` and `{Rhs}` have different ranks",
    label = "implicit rank promotion between `{Self}` and `{Rhs}`",
    note = "in `strict:` mode, place the lower-rank operand explicitly with `in_dims(x, [..])`; scalars need nothing"
)]
pub trait RankRule<Rhs, Mode> {}

impl<A, B> RankRule<B, Numpy> for A {}

/// Strict: a scalar against anything (blanket, so generic code gets it).
#[diagnostic::do_not_recommend]
impl<S: Shape> RankRule<(), Strict> for S {}

macro_rules! impl_strict_rank_rule {
    // Equal ranks (no leading dims), at least 1.
    ([$($a:ident)+] [$($b:ident)+] []) => {
        #[diagnostic::do_not_recommend]
        impl<$($a: Dim,)+ $($b: Dim,)+> RankRule<($($b,)+), Strict> for ($($a,)+) {}
    };
    // A scalar on the left.
    ([] [] [$($l:ident)+]) => {
        #[diagnostic::do_not_recommend]
        impl<$($l: Dim,)+> RankRule<($($l,)+), Strict> for () {}
    };
    // Different ranks, or `()` with `()` (covered by the blanket impl).
    ([$($a:ident)*] [$($b:ident)*] [$($l:ident)*]) => {};
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
