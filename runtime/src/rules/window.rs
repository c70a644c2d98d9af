//! The sliding-window rule of convolution, pooling and
//! `windows::<AXIS, SIZE, STEP>()`: a window of `k` taps `d` apart
//! spans `d (k - 1) + 1` elements; over an axis of `L` elements padded by `p` on
//! each side, stepping by `s`, it takes
//! `(L + 2p - d (k - 1) - 1) / s + 1` positions, as
//! `torch.nn.functional.conv1d` documents (and NumPy's
//! `sliding_window_view` with `p = 0`, `d = 1`, then a step); padded by
//! `p_b` before and `p_a` after (TensorFlow's explicit padding), `2p` is
//! `p_b + p_a`, which is how [`SpansSides`] computes both.
//!
//! The count is typenum arithmetic ([`super::size`]), so it is a type when
//! `cargo check` runs; the convolution rule reports a kernel that does not
//! fit ([`KernelFits`](super::conv::KernelFits)), [`WindowAxis`] a window
//! that does not ([`WindowFits`]) and a step of 0 ([`PositiveStep`]).

use super::size::{ComputableSize, SizeDim, TypeSize};
use crate::dim::{Dim, D};
use crate::shape::Shape;
use core::ops::{Add, Div, Mul, Sub};
use typenum::{Diff, IsLessOrEqual, NonZero, Prod, Quot, Sum, True, UInt, UTerm, U1};

/// The positions a kernel takes beyond its first over an axis padded by
/// `Before` and `After` elements: `L + before + after - span`, where it
/// fits (a symmetric padding `p` is `Before = After = p`). `Self` is the
/// kernel's size; the convolution rule reports a failure by its own
/// carrier ([`KernelFits`](super::conv::KernelFits)).
pub trait SpansSides<Len, Before, After, Dilation> {
    /// `L + before + after - (d (k - 1) + 1)` as a typenum number.
    type Room;
}

impl<K, L, B, A, Dl> SpansSides<L, B, A, Dl> for K
where
    K: TypeSize,
    L: TypeSize,
    B: TypeSize,
    A: TypeSize,
    Dl: TypeSize,
    K::Size: Sub<U1>,
    Dl::Size: Mul<Diff<K::Size, U1>>,
    Prod<Dl::Size, Diff<K::Size, U1>>: Add<U1>,
    B::Size: Add<A::Size>,
    L::Size: Add<Sum<B::Size, A::Size>>,
    Sum<Prod<Dl::Size, Diff<K::Size, U1>>, U1>:
        IsLessOrEqual<Sum<L::Size, Sum<B::Size, A::Size>>, Output = True>,
    Sum<L::Size, Sum<B::Size, A::Size>>: Sub<Sum<Prod<Dl::Size, Diff<K::Size, U1>>, U1>>,
{
    type Room =
        Diff<Sum<L::Size, Sum<B::Size, A::Size>>, Sum<Prod<Dl::Size, Diff<K::Size, U1>>, U1>>;
}

/// `ceil(Self / Divisor)` as a dim, for typenum numbers (TensorFlow's
/// `SAME` output length).
pub trait CeilDiv<Divisor> {
    /// The quotient.
    type Quotient: Dim;
}

impl<N, U, B> CeilDiv<UInt<U, B>> for N
where
    N: Add<UInt<U, B>>,
    Sum<N, UInt<U, B>>: Sub<U1>,
    Diff<Sum<N, UInt<U, B>>, U1>: Div<UInt<U, B>>,
    Quot<Diff<Sum<N, UInt<U, B>>, U1>, UInt<U, B>>: SizeDim,
{
    type Quotient = <Quot<Diff<Sum<N, UInt<U, B>>, U1>, UInt<U, B>> as SizeDim>::Dim;
}

/// A stride of 0 is the macro's error; this keeps it from being reported
/// again as a typenum division by zero.
impl<N> CeilDiv<UTerm> for N {
    type Quotient = D<0>;
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
    R: CountBy<S::Size>,
{
    type Count = <R as CountBy<S::Size>>::Count;
}

/// `Self / Step + 1` as a dim, for a typenum step.
pub trait CountBy<Step> {
    /// The count.
    type Count: Dim;
}

impl<R, U, B> CountBy<UInt<U, B>> for R
where
    R: Div<UInt<U, B>>,
    Quot<R, UInt<U, B>>: Add<U1>,
    Sum<Quot<R, UInt<U, B>>, U1>: SizeDim,
{
    type Count = <Sum<Quot<R, UInt<U, B>>, U1> as SizeDim>::Dim;
}

/// A step of 0 counts nothing: [`PositiveStep`] (or the macro, for a
/// convolution's stride) reports it, and this impl keeps it from being
/// reported again as a typenum division by zero.
impl<R> CountBy<UTerm> for R {
    type Count = D<0>;
}

/// The output length along one axis of a convolution: the input's size
/// `L`, with a kernel of size `K`, padding `P` before and `A` after,
/// dilation `Dl` and stride `S` (all dims).
pub type SlidLength<L, K, P, A, Dl, S> =
    <<K as SpansSides<L, P, A, Dl>>::Room as Positions<S>>::Count;

/// A window of size `Self` fits an axis of size `Len`, and gives that
/// many windows `Step` apart: the carrier of `windows::<AXIS, SIZE,
/// STEP>()`'s rule.
#[diagnostic::on_unimplemented(
    message = "a window of size `{Self}` does not fit an axis of size `{Len}`",
    label = "the window is longer than the axis",
    note = "`windows::<AXIS, SIZE, STEP>()` takes windows of SIZE consecutive elements of axis AXIS, so SIZE is at most that axis's size"
)]
pub trait WindowFits<Len, Step> {
    /// The number of windows, `(Len - SIZE) / Step + 1`.
    type Count: Dim;
}

#[diagnostic::do_not_recommend]
impl<K, L, S> WindowFits<L, S> for K
where
    K: TypeSize,
    L: TypeSize,
    K::Size: IsLessOrEqual<L::Size, Output = True>,
    L::Size: Sub<K::Size>,
    Diff<L::Size, K::Size>: Positions<S>,
{
    type Count = <Diff<L::Size, K::Size> as Positions<S>>::Count;
}

/// A step `Self` of at least 1.
#[diagnostic::on_unimplemented(
    message = "a window step of `{Self}`: the step is at least 1",
    label = "`windows::<AXIS, SIZE, STEP>()` starts a window every STEP elements"
)]
pub trait PositiveStep {
    /// `Self`.
    type Step;
}

#[diagnostic::do_not_recommend]
impl<S> PositiveStep for S
where
    S: TypeSize,
    S::Size: NonZero,
{
    type Step = S;
}

/// The shape of `windows::<AXIS, SIZE, STEP>()` of `Self`: axis `AXIS`
/// becomes the number of windows, and a new last axis of `SIZE` holds each
/// window (NumPy's `sliding_window_view` followed by a step), for every rank
/// below the maximum and every axis in range.
#[diagnostic::on_unimplemented(
    message = "`windows::<{AXIS}, ..>` needs an axis {AXIS} of `{Self}` and room for one more dim",
    label = "no axis {AXIS} here, or the shape has the most dims there are",
    note = "axes count from 0, outermost first; the windows add a last dim, so the shape has at most 5 dims"
)]
pub trait WindowAxis<const AXIS: usize, const SIZE: usize, const STEP: usize>: Shape {
    /// The windowed shape.
    type Windowed: Shape;
}

/// The rule for one rank and axis of the shape `S`, which [`WindowAxis`]'s
/// one impl requires of `()`. Its impls are not marked `do_not_recommend`,
/// so a failing carrier ([`WindowFits`], [`PositiveStep`]) is reported by
/// its own message, and are for any `Self`, so rustc does not list them
/// after it (measured on rustc 1.95, as for the convolution rule's
/// `ConvParts`).
#[diagnostic::on_unimplemented(
    message = "`windows::<{AXIS}, ..>` needs an axis {AXIS} of `{Self}` and room for one more dim",
    label = "no axis {AXIS} here, or the shape has the most dims there are",
    note = "axes count from 0, outermost first; the windows add a last dim, so the shape has at most 5 dims"
)]
pub trait WindowParts<S, const AXIS: usize, const SIZE: usize, const STEP: usize> {
    /// The windowed shape.
    type Windowed: Shape;
}

#[diagnostic::do_not_recommend]
impl<S, const AXIS: usize, const SIZE: usize, const STEP: usize> WindowAxis<AXIS, SIZE, STEP> for S
where
    S: Shape,
    (): WindowParts<S, AXIS, SIZE, STEP>,
{
    type Windowed = <() as WindowParts<S, AXIS, SIZE, STEP>>::Windowed;
}

/// Each rule's impl for each row `axis: [before] at [after]`.
macro_rules! window_axis {
    ($($axis:literal: [$($before:ident)*] $at:ident [$($after:ident)*];)*) => {$(
        impl<$($before: Dim,)* $at: Dim, $($after: Dim,)* const SIZE: usize, const STEP: usize, Any>
            WindowParts<($($before,)* $at, $($after,)*), $axis, SIZE, STEP> for Any
        where
            D<STEP>: PositiveStep,
            $at: ComputableSize,
            D<SIZE>: WindowFits<<$at as ComputableSize>::Dim, <D<STEP> as PositiveStep>::Step>,
        {
            type Windowed = (
                $($before,)*
                <D<SIZE> as WindowFits<<$at as ComputableSize>::Dim, <D<STEP> as PositiveStep>::Step>>::Count,
                $($after,)*
                D<SIZE>,
            );
        }
    )*};
}

super::axes::for_each_axis!(@below_max window_axis);

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
    use crate::dim::One;
    use core::any::TypeId;

    #[test]
    fn the_type_level_count_agrees_with_the_reference() {
        fn id<T: 'static>() -> TypeId {
            TypeId::of::<T>()
        }
        assert_eq!(
            id::<SlidLength<D<49>, D<3>, D<1>, D<1>, D<1>, One>>(),
            id::<D<49>>()
        );
        assert_eq!(
            id::<SlidLength<D<10>, D<3>, D<0>, D<0>, D<2>, D<2>>>(),
            id::<D<3>>()
        );
        assert_eq!(slid_length(10, 3, 0, 2, 2), Some(3));
        assert_eq!(
            id::<SlidLength<D<4096>, D<64>, D<0>, D<0>, D<1>, One>>(),
            id::<D<4033>>()
        );
        assert_eq!(
            id::<SlidLength<D<3>, D<3>, D<0>, D<0>, D<1>, One>>(),
            id::<One>()
        );
        type Frames = <(D<4096>,) as WindowAxis<0, 256, 128>>::Windowed;
        assert_eq!(id::<Frames>(), id::<(D<31>, D<256>)>());
        assert_eq!(slid_length(4096, 256, 0, 1, 128), Some(31));
        assert_eq!(slid_length(4096, 256, 0, 1, 128), Some(31));
    }
}
