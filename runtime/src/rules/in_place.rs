//! The PyTorch in-place rule (seed 002, "In-place semantics"): `out += e` and
//! `out = e` are legal only if broadcasting does not change `out`'s shape.
//!
//! Equivalently: `e`'s shape, right-aligned against `out`'s, has at every position
//! either the same size or 1, and no more dims than `out`. So `(5,3,4,1) += (3,1,1)`
//! is legal; `(1,3,1) += (3,1,7)` is not ("the expanded size of the tensor (1) must
//! match the existing size (7)").

use super::broadcast::BroadcastMismatch;
use super::for_each_aligned_rank_pair;
use crate::dim::{Dim, One, D};
use crate::shape::Shape;

/// A value dim that can be written into a target dim: equal, or the value is [`One`].
#[diagnostic::on_unimplemented(
    message = "a dimension `{Self}` cannot be written into a target dimension `{Target}` in place"
)]
pub trait DimInto<Target> {}

impl<const N: usize> DimInto<D<N>> for D<N> {}
impl<const N: usize> DimInto<D<N>> for One {}
impl DimInto<One> for One {}

/// A value shape that broadcasts to `Target` without changing it.
///
/// ```
/// use tensor_expr_runtime::{BroadcastInto, D, One};
/// fn writable<V: BroadcastInto<T>, T: tensor_expr_runtime::Shape>() {}
/// writable::<(D<3>, One, One), (D<5>, D<3>, D<4>, One)>();
/// ```
#[diagnostic::on_unimplemented(
    message = "cannot write a value of shape `{Self}` into a target of shape `{Target}` in place",
    label = "broadcasting would change the target's shape `{Target}`",
    note = "PyTorch in-place rule: the value must broadcast to the target's shape without changing it"
)]
pub trait BroadcastInto<Target> {}

/// A scalar can be written into any shape (blanket, for generic code).
#[diagnostic::do_not_recommend]
impl<S: Shape> BroadcastInto<S> for () {}

macro_rules! impl_broadcast_into {
    ([] [] [$($l:ident)*]) => {};
    ([$($a:ident)+] [$($b:ident)+] [$($l:ident)*]) => {
        #[diagnostic::do_not_recommend]
        impl<$($l: Dim,)* $($a: DimInto<$b>,)* $($b: Dim,)*> BroadcastInto<($($l,)* $($b,)*)> for ($($a,)*) {}
    };
}
for_each_aligned_rank_pair!(impl_broadcast_into);

/// The reference rule over plain sizes: `Ok` if a `value` shape can be written
/// into a `target` shape in place, else the position that would change, counted
/// from the right as PyTorch reports it ("... at non-singleton dimension 2").
///
/// ```
/// use tensor_expr_runtime::rules::in_place::check_in_place;
/// assert!(check_in_place(&[3, 1, 1], &[5, 3, 4, 1]).is_ok());
/// let clash = check_in_place(&[3, 1, 7], &[1, 3, 1]).unwrap_err();
/// assert_eq!((clash.axis, clash.lhs, clash.rhs), (2, 1, 7));
/// ```
pub const fn check_in_place(value: &[usize], target: &[usize]) -> Result<(), BroadcastMismatch> {
    if value.len() > target.len() {
        return Err(BroadcastMismatch {
            axis: 0,
            lhs: 1,
            rhs: value[0],
        });
    }
    let pad = target.len() - value.len();
    let mut k = value.len();
    while k > 0 {
        k -= 1;
        let (t, v) = (target[pad + k], value[k]);
        if v != t && v != 1 {
            return Err(BroadcastMismatch {
                axis: pad + k,
                lhs: t,
                rhs: v,
            });
        }
    }
    Ok(())
}
