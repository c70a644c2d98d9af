//! NumPy broadcasting, checked by the trait solver.
//!
//! The rule, as NumPy's broadcasting documentation states it:
//! 1. Align the two shapes on the right; the shorter one is left-padded with 1s
//!    (rank promotion).
//! 2. Each pair of dims is compatible when the sizes are equal, or one of them is 1
//!    (a "degenerate" dim, the type [`One`]).
//! 3. The result takes the larger size at every position; `0` against `1` gives `0`.
//!    Scalars (shape `()`) broadcast against anything.
//!
//! Examples: `(2,1)` and `(2,3)` give `(2,3)`; `(6,1,5)` and `(3,5)` give `(6,3,5)`;
//! `(7,2,5)` and `(7,2,6)` are incompatible.

use super::chain::{chain_pairs, impl_dim_carrier};
use super::for_each_aligned_rank_pair;
use crate::dim::{Dim, One, D};
use crate::shape::{row_major_strides, Shape, MAX_RANK};

/// One aligned pair of dims, `(lhs, rhs)`, at position `AXIS` (counted from the
/// right, `-1` is the last dim) of the broadcast of shapes `L` and `R`, checked
/// after the pairs to its right, whose witness is `W` (see [`super::chain`]).
///
/// This is the message carrier: when a pair fails, rustc reports this trait,
/// so the message names both whole shapes, the failing position and the two
/// sizes there, in one error however many pairs clash.
#[diagnostic::on_unimplemented(
    message = "shapes `{L}` and `{R}` cannot be broadcast together: at dim {AXIS} the sizes `{Self}` differ",
    label = "sizes `{Self}` at dim {AXIS} (counted from the right); neither is `One`",
    note = "NumPy broadcasting aligns shapes on the right; each pair of dims must be equal or one of them `One` (size 1; a `D<1>`, from a generic `D<N>` or a `narrow` of length 1, is not `One`: `index_axis_keepdim` gives a `One`)"
)]
pub trait BroadcastAt<L, R, const AXIS: isize, W> {
    /// The larger of the two dims.
    type Output: Dim;
    /// `()` when this pair and every pair to its right fit.
    type Checked;
}

impl_dim_carrier!(BroadcastAt, Output, one_left: D<N>, links);
use links::{Link0, Link1, Link2, Link3, Link4, Link5};

/// Shapes that broadcast together under the NumPy rule, and their result.
///
/// ```
/// use tensor_expr_runtime::{Broadcast, Shape, D, One};
/// type Out = <(D<6>, One, D<5>) as Broadcast<(D<3>, D<5>)>>::Output;
/// assert_eq!(Out::DIMS, &[6, 3, 5]);
/// ```
#[diagnostic::on_unimplemented(
    message = "shapes `{Self}` and `{Rhs}` cannot be broadcast together",
    label = "incompatible shapes `{Self}` and `{Rhs}`",
    note = "NumPy broadcasting aligns shapes on the right; each pair of dims must be equal or one of them `One` (size 1)"
)]
pub trait Broadcast<Rhs> {
    /// The broadcast shape.
    type Output: Shape;
}

/// A scalar broadcasts to any shape. One blanket impl (rather than one per rank)
/// so that generic code gets `(): Broadcast<S>` for every `S: Shape`.
#[diagnostic::do_not_recommend]
impl<S: Shape> Broadcast<S> for () {
    type Output = S;
}

/// The shape `S` of an operation one of whose operands is a reduction without
/// `keepdim` (the macro marks it, see [`rank::NumpyAfterReduction`]): it
/// broadcasts exactly as `S` does, but a clash is reported by
/// [`BroadcastAfterReductionAt`], which asks whether `keepdim` was meant. (The
/// classic case: `x - max(x, [1])` on a `[4, 8]` `x` aligns `max`'s `[4]`
/// with `x`'s last dim.)
///
/// [`rank::NumpyAfterReduction`]: super::rank::NumpyAfterReduction
pub struct DroppedAxes<S>(core::marker::PhantomData<S>);

/// [`BroadcastAt`] for an operation with a reduction operand that dropped its
/// axes: the same rule and message, and a note that suggests `keepdim`.
#[diagnostic::on_unimplemented(
    message = "shapes `{L}` and `{R}` cannot be broadcast together: at dim {AXIS} the sizes `{Self}` differ",
    label = "sizes `{Self}` at dim {AXIS} (counted from the right); neither is `One`",
    note = "an operand is a reduction without `keepdim`, which drops the reduced dims before the shapes align on the right: did you mean `keepdim`, as in `max(x, [1], keepdim)`?"
)]
pub trait BroadcastAfterReductionAt<L, R, const AXIS: isize, W> {
    /// The larger of the two dims.
    type Output: Dim;
    /// `()` when this pair and every pair to its right fit.
    type Checked;
}

impl_dim_carrier!(BroadcastAfterReductionAt, Output, one_left: D<N>, after_reduction_links);

/// A scalar reduction (every axis reduced) broadcasts to any shape.
#[diagnostic::do_not_recommend]
impl<S: Shape> Broadcast<S> for DroppedAxes<()> {
    type Output = S;
}

/// Writes the [`Broadcast`] impls of one pair of ranks (called by
/// `for_each_aligned_rank_pair!` with the pair's dim names), for plain
/// shapes through [`BroadcastAt`]; `impl_broadcast_after_reduction!` (below)
/// writes them for [`DroppedAxes`] through [`BroadcastAfterReductionAt`],
/// sharing every arm but the last, which names the `Self` type.
macro_rules! impl_broadcast {
    ($a:tt $b:tt $l:tt $p:tt) => {
        impl_broadcast!(@ranks impl_broadcast BroadcastAt $a $b $l $p);
    };
    // Scalar on the left: the blanket impl above.
    (@ranks $family:ident $carrier:ident [] [] [] $p:tt) => {};
    (@ranks $family:ident $carrier:ident [] [] [$($l:ident)+] $p:tt) => {
        $family!(@emit_chained [$($l)+] ($($l,)+) () [$($l)+] [] []);
    };
    // Equal ranks: one impl.
    (@ranks $family:ident $carrier:ident [$($a:ident)+] [$($b:ident)+] [] [$($p:tt)+]) => {
        impl_broadcast!(@emit $family $carrier [$($a)* $($b)*] ($($a,)*) ($($b,)*) [] [$(($a, $b, $p))*]);
    };
    // The longer shape on either side.
    (@ranks $family:ident $carrier:ident [$($a:ident)+] [$($b:ident)+] [$($l:ident)+] [$($p:tt)+]) => {
        impl_broadcast!(@emit $family $carrier [$($l)* $($a)* $($b)*] ($($l,)* $($a,)*) ($($b,)*) [$($l)*] [$(($a, $b, $p))*]);
        impl_broadcast!(@emit $family $carrier [$($l)* $($a)* $($b)*] ($($b,)*) ($($l,)* $($a,)*) [$($l)*] [$(($b, $a, $p))*]);
    };
    // `Self` broadcast with `Rhs`: the leading dims pass through, the aligned
    // pairs are chained through the carrier (see `super::chain`).
    (@emit $family:ident $carrier:ident [$($g:ident)*] $self_:tt $rhs:tt [$($l:ident)*] $pairs:tt) => {
        chain_pairs!($family, $carrier, Output, [[$($g)*] $self_ $rhs [$($l)*]] $pairs);
    };
    (@emit_chained [$($g:ident)*] $self_:tt $rhs:tt [$($l:ident)*] [$($bounds:tt)*] [$($outputs:tt)*]) => {
        #[diagnostic::do_not_recommend]
        impl<$($g: Dim,)*> Broadcast<$rhs> for $self_
        where $($bounds)*
        {
            type Output = ($($l,)* $($outputs)*);
        }
    };
}
for_each_aligned_rank_pair!(impl_broadcast);

/// [`impl_broadcast`] for `DroppedAxes<Self>`: in a module of its own, where
/// the `LinkN` names are this carrier's.
mod after_reduction {
    use super::after_reduction_links::{Link0, Link1, Link2, Link3, Link4, Link5};
    use super::{
        chain_pairs, for_each_aligned_rank_pair, Broadcast, BroadcastAfterReductionAt, Dim,
        DroppedAxes,
    };

    macro_rules! impl_broadcast_after_reduction {
    ($a:tt $b:tt $l:tt $p:tt) => {
        impl_broadcast!(@ranks impl_broadcast_after_reduction BroadcastAfterReductionAt $a $b $l $p);
    };
    (@emit_chained [$($g:ident)*] $self_:tt $rhs:tt [$($l:ident)*] [$($bounds:tt)*] [$($outputs:tt)*]) => {
        #[diagnostic::do_not_recommend]
        impl<$($g: Dim,)*> Broadcast<$rhs> for DroppedAxes<$self_>
        where $($bounds)*
        {
            type Output = ($($l,)* $($outputs)*);
        }
    };
}
    for_each_aligned_rank_pair!(impl_broadcast_after_reduction);
}

/// A rank and dims held by value, for the `const fn` reference rules.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Dims {
    dims: [usize; MAX_RANK],
    rank: usize,
}

impl Dims {
    /// Holds `dims`, or `None` if there are more than [`MAX_RANK`].
    pub const fn from_slice(dims: &[usize]) -> Option<Dims> {
        if dims.len() > MAX_RANK {
            return None;
        }
        let mut held = [0; MAX_RANK];
        let mut k = 0;
        while k < dims.len() {
            held[k] = dims[k];
            k += 1;
        }
        Some(Dims {
            dims: held,
            rank: dims.len(),
        })
    }

    /// The dims as a slice, outermost first.
    pub const fn as_slice(&self) -> &[usize] {
        self.dims.split_at(self.rank).0
    }
}

impl core::fmt::Debug for Dims {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.as_slice().fmt(f)
    }
}

/// Why two shapes do not broadcast: the output dim where they clash (counted in
/// the broadcast result, outermost 0) and the two sizes there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BroadcastMismatch {
    /// The position in the right-aligned result.
    pub axis: usize,
    /// The left operand's size there.
    pub lhs: usize,
    /// The right operand's size there.
    pub rhs: usize,
}

/// The reference rule over plain sizes, usable in `const` contexts: the NumPy
/// broadcast of `a` and `b`, or where it fails. Where several dims clash it
/// reports the rightmost, as the type-level rule and PyTorch do.
///
/// ```
/// use tensor_expr_runtime::rules::broadcast::broadcast_dims;
/// assert_eq!(broadcast_dims(&[5, 1, 4, 1], &[3, 1, 1]).unwrap().as_slice(), &[5, 3, 4, 1]);
/// let clash = broadcast_dims(&[5, 2, 4, 1], &[3, 1, 1]).unwrap_err();
/// assert_eq!((clash.axis, clash.lhs, clash.rhs), (1, 2, 3));
/// // Both dims clash: the rightmost is reported.
/// let clash = broadcast_dims(&[2, 3], &[3, 2]).unwrap_err();
/// assert_eq!((clash.axis, clash.lhs, clash.rhs), (1, 3, 2));
/// ```
pub const fn broadcast_dims(a: &[usize], b: &[usize]) -> Result<Dims, BroadcastMismatch> {
    let rank = if a.len() > b.len() { a.len() } else { b.len() };
    let mut dims = [0; MAX_RANK];
    let mut axis = rank;
    while axis > 0 {
        axis -= 1;
        let x = aligned_dim(a, rank, axis);
        let y = aligned_dim(b, rank, axis);
        dims[axis] = if x == y || y == 1 {
            x
        } else if x == 1 {
            y
        } else {
            return Err(BroadcastMismatch {
                axis,
                lhs: x,
                rhs: y,
            });
        };
    }
    Ok(Dims { dims, rank })
}

/// The size of `dims` at `axis` of a right-aligned rank-`rank` result (1 if padded).
const fn aligned_dim(dims: &[usize], rank: usize, axis: usize) -> usize {
    let pad = rank - dims.len();
    if axis < pad {
        1
    } else {
        dims[axis - pad]
    }
}

/// The strides for reading an operand of shape `operand` at each index of the
/// broadcast result `out`: the operand's row-major strides, right-aligned, with 0
/// on every dim it does not have or has as size 1 (the stride-0 trick).
///
/// ```
/// use tensor_expr_runtime::rules::broadcast::broadcast_strides;
/// assert_eq!(broadcast_strides(&[3], &[2, 3])[..2], [0, 1]);
/// assert_eq!(broadcast_strides(&[2, 1], &[2, 3])[..2], [1, 0]);
/// ```
pub const fn broadcast_strides(operand: &[usize], out: &[usize]) -> [usize; MAX_RANK] {
    aligned_strides(row_major_strides(operand), operand, out)
}

/// [`broadcast_strides`] for an operand whose dims have the strides `own` in
/// its data (a transposed or permuted view), not necessarily row-major.
///
/// ```
/// use tensor_expr_runtime::rules::broadcast::aligned_strides;
/// // A 3x2 view of 2x3 data (the transpose), read within a 4x3x2 output.
/// assert_eq!(aligned_strides([1, 3, 0, 0, 0, 0], &[3, 2], &[4, 3, 2])[..3], [0, 1, 3]);
/// ```
pub const fn aligned_strides(
    own: [usize; MAX_RANK],
    operand: &[usize],
    out: &[usize],
) -> [usize; MAX_RANK] {
    let mut strides = [0; MAX_RANK];
    let pad = out.len() - operand.len();
    let mut k = 0;
    while k < operand.len() {
        if operand[k] != 1 {
            strides[pad + k] = own[k];
        }
        k += 1;
    }
    strides
}

/// Compile-time strides of operand shape `S` read within output shape `O`.
pub struct BroadcastStrides<S, O>(core::marker::PhantomData<(S, O)>);

impl<S: Shape, O: Shape> BroadcastStrides<S, O> {
    /// See [`broadcast_strides`].
    pub const STRIDES: [usize; MAX_RANK] = broadcast_strides(S::DIMS, O::DIMS);
    /// The stride along the output's last dim: 1 (contiguous) or 0 (splat).
    pub const INNER: usize = if O::RANK == 0 {
        0
    } else {
        Self::STRIDES[O::RANK - 1]
    };
}

#[cfg(test)]
mod tests {
    use super::{broadcast_dims, broadcast_strides, Broadcast};
    use crate::dim::{One, D};
    use crate::shape::Shape;

    fn agree<A: Shape + Broadcast<B>, B: Shape>(expected: &[usize]) {
        let typed = <<A as Broadcast<B>>::Output as Shape>::DIMS;
        assert_eq!(typed, expected, "type-level rule");
        let reference = broadcast_dims(A::DIMS, B::DIMS).expect("the pair broadcasts");
        assert_eq!(reference.as_slice(), expected, "reference rule");
    }

    #[test]
    fn numpy_documentation_examples() {
        // (8, 1, 6, 1) with (7, 1, 5): every dim stretches somewhere.
        agree::<(D<8>, One, D<6>, One), (D<7>, One, D<5>)>(&[8, 7, 6, 5]);
        // (5, 4) with (1,) and (4,); (15, 3, 5) with (15, 1, 5) and (3, 1).
        agree::<(D<5>, D<4>), (One,)>(&[5, 4]);
        agree::<(D<5>, D<4>), (D<4>,)>(&[5, 4]);
        agree::<(D<15>, D<3>, D<5>), (D<15>, One, D<5>)>(&[15, 3, 5]);
        agree::<(D<15>, D<3>, D<5>), (D<3>, One)>(&[15, 3, 5]);
        // An image (256, 256, 3) scaled per channel (3,).
        agree::<(D<256>, D<256>, D<3>), (D<3>,)>(&[256, 256, 3]);
    }

    #[test]
    fn scalars_zero_sizes_and_full_rank() {
        agree::<(), ()>(&[]);
        agree::<(D<2>, D<3>), ()>(&[2, 3]);
        agree::<(), (D<4>,)>(&[4]);
        // 0 against 1 gives 0; 0 against 0 stays 0.
        agree::<(D<0>, D<3>), (One, D<3>)>(&[0, 3]);
        agree::<(D<0>,), (D<0>,)>(&[0]);
        agree::<(One, D<2>, One, D<4>, One, D<6>), (D<1>, One, D<3>, One, D<5>, One)>(&[
            1, 2, 3, 4, 5, 6,
        ]);
    }

    #[test]
    fn the_reference_rule_reports_the_rightmost_clash() {
        // (3,) with (4,); (2, 1) with (8, 4, 3): 1 stretches to 3, then 2 against 4.
        let clash = broadcast_dims(&[3], &[4]).unwrap_err();
        assert_eq!((clash.axis, clash.lhs, clash.rhs), (0, 3, 4));
        let clash = broadcast_dims(&[2, 1], &[8, 4, 3]).unwrap_err();
        assert_eq!((clash.axis, clash.lhs, clash.rhs), (1, 2, 4));
        // Clashes at several dims: the rightmost is reported, as the
        // type-level rule reports it (`tests/compile_errors/tests/ui/broadcast_every_dim_clashes`
        // names dim -1 of (2, 3, 4) against (5, 6, 7)).
        let clash = broadcast_dims(&[2, 3], &[3, 2]).unwrap_err();
        assert_eq!((clash.axis, clash.lhs, clash.rhs), (1, 3, 2));
        let clash = broadcast_dims(&[2, 3, 4], &[5, 6, 7]).unwrap_err();
        assert_eq!((clash.axis, clash.lhs, clash.rhs), (2, 4, 7));
        let clash = broadcast_dims(&[2, 3, 1, 4], &[5, 1, 6, 4]).unwrap_err();
        assert_eq!((clash.axis, clash.lhs, clash.rhs), (0, 2, 5));
        let clash = broadcast_dims(&[7, 2, 1, 3], &[4, 5, 9]).unwrap_err();
        assert_eq!((clash.axis, clash.lhs, clash.rhs), (3, 3, 9));
        // A zero-size dim broadcasts only with 0 or 1.
        assert!(broadcast_dims(&[0], &[2]).is_err());
    }

    #[test]
    fn strides_are_zero_where_an_operand_is_stretched() {
        assert_eq!(broadcast_strides(&[3], &[2, 3])[..2], [0, 1]);
        assert_eq!(broadcast_strides(&[2, 1], &[2, 3])[..2], [1, 0]);
        assert_eq!(
            broadcast_strides(&[4, 1, 5], &[3, 4, 2, 5])[..4],
            [0, 5, 0, 1]
        );
        assert_eq!(broadcast_strides(&[], &[2, 2])[..2], [0, 0]);
    }
}
