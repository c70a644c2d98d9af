//! XLA "InDim" broadcasting (its broadcast dimensions): `in_dims(x, [d0, d1, ...])`
//! places `x`'s dims, in order, on dims `d0 < d1 < ...` of the other operand of
//! the enclosing operation, whose rank `R` must be at least `x`'s.
//!
//! The rule, as XLA's broadcasting semantics state it:
//! 1. The tuple has one entry per dim of `x`, strictly increasing, each `< R`
//!    ("it is illegal to match V to N and T to P; it is also illegal to match V to
//!    both P and N").
//! 2. The dims of `R` not listed become size 1 ("degenerate"): `x` is reshaped to
//!    rank `R` without moving any element.
//! 3. Then degenerate broadcasting applies on both sides: each placed size must
//!    equal the other operand's size there, or one of them must be 1. So a vector
//!    of 4 in dims (0) plus a 1x2 matrix gives 4x2.
//!
//! Placed on an operand of its own rank, the tuple can only be the identity,
//! a placement that does nothing; the macro rejects it, since it is always a
//! sign that `in_dims` bound to another operand than the one meant (it binds
//! to the other operand of its own operation: `in_dims(n, [0]) + n - d`
//! places `n` on `n`, not on the matrix `n - d`).
//!
//! The macro checks rule 1's order and signs on the tuple's tokens and writes the
//! placement (rule 2) as a small local trait per use, since it knows the tuple
//! and a type cannot compare const generics. This module holds rule 3 as
//! [`PlacedFits`], whose pairs of dims are checked as a chain ([`PlacedAt`],
//! see [`super::chain`]): a size mismatch is one error, on the tuple, naming
//! the first failing dim from the right.

use super::chain::{chain_pairs, impl_dim_carrier};
use super::for_each_aligned_rank_pair;
use crate::dim::{Dim, One, D};
use crate::shape::Shape;

/// The verdict on an `in_dims` tuple that does not fit the ranks (an entry out
/// of range, or not one entry per dim of the operand): it implements nothing
/// ([`NeverHolds`](super::NeverHolds)), so the macro's local message carrier over it fails.
pub struct CannotPlace;

/// One aligned pair `(placed dim, other operand's dim)` at position `AXIS`
/// (counted from the right) of placed shape `P` next to the other operand's
/// shape `O`, checked after the pairs to its right, whose witness is `W` (see
/// [`super::chain`]). The message carrier: one error, naming the failing dim,
/// however many placed dims clash.
#[diagnostic::on_unimplemented(
    message = "`in_dims` placed the operand as `{P}`, which does not fit the other operand's shape `{O}`: at dim {AXIS} the sizes `{Self}` differ",
    label = "sizes `{Self}` (placed, other) at dim {AXIS} (counted from the right); neither is `One`",
    note = "XLA broadcast dims: dims not listed in the tuple are `One`; each listed one must equal the other operand's size there, or one of them must be 1"
)]
pub trait PlacedAt<P, O, const AXIS: isize, W> {
    /// The placed dim itself (not the broadcast result).
    type Placed: Dim;
    /// `()` when this pair and every pair to its right fit.
    type Checked;
}

impl_dim_carrier!(PlacedAt, Placed, one_left: One, links);
use links::{Link0, Link1, Link2, Link3, Link4, Link5};

/// A placed shape next to the other operand's shape (equal ranks): every dim
/// fits, each pair checked by [`PlacedAt`].
#[diagnostic::on_unimplemented(
    message = "`in_dims` placed the operand as `{Self}`, which does not fit the other operand's shape `{Other}`",
    label = "placed sizes must equal the other operand's sizes there, or one of them must be 1",
    note = "dims not listed in the tuple are `One`; the listed ones keep the operand's sizes"
)]
pub trait PlacedFits<Other> {
    /// `Self`, when every dim fits.
    type Placed: Shape;
}

macro_rules! impl_placed_fits {
    ([$($a:ident)*] [$($b:ident)*] [] $pairs:tt) => {
        impl_placed_fits!(@pairs [$($a)* $($b)*] ($($a,)*) ($($b,)*) [] [$($a)*] [$($b)*] $pairs []);
    };
    ([$($a:ident)*] [$($b:ident)*] [$($l:ident)+] $_positions:tt) => {};
    (@pairs $g:tt $placed:tt $other:tt $lead:tt [$a:ident $($ra:ident)*] [$b:ident $($rb:ident)*] [$p:tt $($rp:tt)*] [$($done:tt)*]) => {
        impl_placed_fits!(@pairs $g $placed $other $lead [$($ra)*] [$($rb)*] [$($rp)*] [$($done)* ($a, $b, $p)]);
    };
    (@pairs $g:tt $placed:tt $other:tt $lead:tt [] [] [] $pairs:tt) => {
        chain_pairs!(impl_placed_fits, PlacedAt, Placed, [$g $placed $other $lead] $pairs);
    };
    (@emit_chained [$($g:ident)*] $placed:tt $other:tt [] [$($bounds:tt)*] [$($outputs:tt)*]) => {
        #[diagnostic::do_not_recommend]
        impl<$($g: Dim,)*> PlacedFits<$other> for $placed
        where $($bounds)*
        {
            type Placed = ($($outputs)*);
        }
    };
}
for_each_aligned_rank_pair!(impl_placed_fits);

/// The reference rule over plain sizes: `x`'s dims placed on `positions` of a
/// rank-`rank` shape (1 elsewhere), or `None` if the tuple is malformed.
///
/// ```
/// use tensor_expr_runtime::rules::in_dims::place_dims;
/// assert_eq!(place_dims(&[3, 4], &[1, 2], 3).unwrap().as_slice(), &[1, 3, 4]);
/// assert!(place_dims(&[3], &[2], 2).is_none()); // out of range
/// assert!(place_dims(&[3, 4], &[2, 1], 3).is_none()); // not increasing
/// ```
pub fn place_dims(x: &[usize], positions: &[usize], rank: usize) -> Option<super::broadcast::Dims> {
    let increasing = positions.windows(2).all(|w| w[0] < w[1]);
    let in_range = rank <= crate::shape::MAX_RANK && positions.last().is_none_or(|&p| p < rank);
    if x.len() != positions.len() || !increasing || !in_range {
        return None;
    }
    let mut placed = [1; crate::shape::MAX_RANK];
    for (&size, &position) in x.iter().zip(positions) {
        placed[position] = size;
    }
    super::broadcast::Dims::from_slice(&placed[..rank])
}

#[cfg(test)]
mod tests {
    use super::{place_dims, PlacedFits};
    use crate::dim::{One, D};
    use crate::shape::Shape;

    fn placed<P: PlacedFits<O>, O>() -> &'static [usize] {
        <P::Placed as Shape>::DIMS
    }

    #[test]
    fn xla_examples_place_and_fit() {
        // A (3,) vector on dim 1 of (2, 3): placed (1, 3).
        assert_eq!(place_dims(&[3], &[1], 2).unwrap().as_slice(), &[1, 3]);
        assert_eq!(placed::<(One, D<3>), (D<2>, D<3>)>(), &[1, 3]);
        // A (2, 3) matrix on dims 1 and 2 of (4, 2, 3).
        assert_eq!(
            place_dims(&[2, 3], &[1, 2], 3).unwrap().as_slice(),
            &[1, 2, 3]
        );
        assert_eq!(
            placed::<(One, D<2>, D<3>), (D<4>, D<2>, D<3>)>(),
            &[1, 2, 3]
        );
        // Degenerate dims compose: a (1, 2) matrix on dims 0 and 2 of (4, 3, 1).
        assert_eq!(
            place_dims(&[1, 2], &[0, 2], 3).unwrap().as_slice(),
            &[1, 1, 2]
        );
    }

    #[test]
    fn tuples_that_break_the_rule_place_nothing() {
        assert!(place_dims(&[3], &[2], 2).is_none()); // out of range
        assert!(place_dims(&[3, 4], &[2, 1], 3).is_none()); // not increasing
        assert!(place_dims(&[3, 4], &[1, 1], 3).is_none()); // a dim twice
        assert!(place_dims(&[3, 4], &[1], 3).is_none()); // one entry per dim
    }
}
