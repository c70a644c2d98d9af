//! The sliding-window rule of convolution: a window of `k` taps `d` apart
//! spans `d (k - 1) + 1` elements; over an axis of `L` elements padded by `p` on
//! each side, stepping by `s`, it takes
//! `(L + 2p - d (k - 1) - 1) / s + 1` positions, as
//! `torch.nn.functional.conv1d` documents (and NumPy's
//! `sliding_window_view` with `p = 0`, `d = 1`, then a step).
//!
//! The count is typenum arithmetic ([`super::size`]), so it is a type when
//! `cargo check` runs; the convolution rule reports a kernel that does not
//! fit ([`KernelFits`](super::conv::KernelFits)).

use super::size::{SizeDim, TypeSize};
use crate::dim::Dim;
use core::ops::{Add, Div, Mul, Sub};
use typenum::{Diff, IsLessOrEqual, Prod, Quot, Sum, True, U1, U2};

/// The positions a kernel takes beyond its first: `L + 2p - span`, where
/// it fits. `Self` is the kernel's size; the convolution rule reports a
/// failure by its own carrier
/// ([`KernelFits`](super::conv::KernelFits)).
pub trait Spans<Len, Pad, Dilation> {
    /// `L + 2p - (d (k - 1) + 1)` as a typenum number.
    type Room;
}

impl<K, L, P, Dl> Spans<L, P, Dl> for K
where
    K: TypeSize,
    L: TypeSize,
    P: TypeSize,
    Dl: TypeSize,
    K::Size: Sub<U1>,
    Dl::Size: Mul<Diff<K::Size, U1>>,
    Prod<Dl::Size, Diff<K::Size, U1>>: Add<U1>,
    P::Size: Mul<U2>,
    L::Size: Add<Prod<P::Size, U2>>,
    Sum<Prod<Dl::Size, Diff<K::Size, U1>>, U1>:
        IsLessOrEqual<Sum<L::Size, Prod<P::Size, U2>>, Output = True>,
    Sum<L::Size, Prod<P::Size, U2>>: Sub<Sum<Prod<Dl::Size, Diff<K::Size, U1>>, U1>>,
{
    type Room = Diff<Sum<L::Size, Prod<P::Size, U2>>, Sum<Prod<Dl::Size, Diff<K::Size, U1>>, U1>>;
}

/// The number of positions: `room / step + 1`, as a dim. `Self` is the
/// room (a typenum number), `Step` the step as a dim.
pub trait Positions<Step> {
    /// The count.
    type Count: Dim;
}

impl<R, S> Positions<S> for R
where
    S: TypeSize,
    R: Div<S::Size>,
    Quot<R, S::Size>: Add<U1>,
    Sum<Quot<R, S::Size>, U1>: SizeDim,
{
    type Count = <Sum<Quot<R, S::Size>, U1> as SizeDim>::Dim;
}

/// The output length along one axis of a convolution: `Self` is
/// the input's size `L`, with a kernel of size `K`, symmetric padding `P`,
/// dilation `Dl` and stride `S` (all dims).
pub type SlidLength<L, K, P, Dl, S> = <<K as Spans<L, P, Dl>>::Room as Positions<S>>::Count;

/// The reference rule over plain sizes: the positions of a kernel of `k` taps
/// at dilation `d` over `len` elements padded by `pad` on each side, stepping
/// by `stride`; `None` where it does not fit or `stride` is 0.
///
/// ```
/// use tensor_expr_runtime::rules::window::slid_length;
/// assert_eq!(slid_length(49, 3, 1, 1, 1), Some(49)); // 'same'-sized
/// assert_eq!(slid_length(10, 3, 0, 2, 2), Some(3));  // 10 - 5 = 5, 5 / 2 + 1
/// assert_eq!(slid_length(3, 5, 0, 1, 1), None);
/// ```
pub const fn slid_length(
    len: usize,
    k: usize,
    pad: usize,
    dilation: usize,
    stride: usize,
) -> Option<usize> {
    if k == 0 || stride == 0 {
        return None;
    }
    let span = dilation * (k - 1) + 1;
    let padded = len + 2 * pad;
    if span > padded {
        None
    } else {
        Some((padded - span) / stride + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dim::{One, D};
    use core::any::TypeId;

    #[test]
    fn the_type_level_count_agrees_with_the_reference() {
        fn id<T: 'static>() -> TypeId {
            TypeId::of::<T>()
        }
        assert_eq!(
            id::<SlidLength<D<49>, D<3>, D<1>, D<1>, One>>(),
            id::<D<49>>()
        );
        assert_eq!(
            id::<SlidLength<D<10>, D<3>, D<0>, D<2>, D<2>>>(),
            id::<D<3>>()
        );
        assert_eq!(slid_length(10, 3, 0, 2, 2), Some(3));
        assert_eq!(
            id::<SlidLength<D<4096>, D<64>, D<0>, D<1>, One>>(),
            id::<D<4033>>()
        );
        assert_eq!(id::<SlidLength<D<3>, D<3>, D<0>, D<1>, One>>(), id::<One>());
        assert_eq!(slid_length(4096, 256, 0, 1, 128), Some(31));
    }
}
