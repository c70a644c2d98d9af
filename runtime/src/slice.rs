//! Static slicing: a sub-tensor whose shape is computed at compile time, read
//! in place.
//!
//! - `x.at(i)`: the `i`-th sub-tensor along the first axis (a row of a
//!   matrix, a sample of a batch), a contiguous [`TensorView`] of rank one
//!   less.
//! - `x.index_axis::<AXIS>(i)`: the same along any axis (NumPy's `x[:, i]`),
//!   rank one less.
//! - `x.narrow::<AXIS, START, LEN>()`: `LEN` consecutive positions along one
//!   axis (NumPy's `x[:, START:START + LEN]`); the view's type has `D<LEN>`
//!   there (`D<1>` for `LEN = 1`, which does not broadcast).
//! - `x.index_axis_keepdim::<AXIS>(i)`: position `i` along an axis kept as a
//!   broadcasting size-1 dim (NumPy's `x[:, i:i+1]`).
//! - `x.windows::<AXIS, SIZE, STEP>()`: windows of `SIZE` positions along an
//!   axis, one every `STEP`, as a new last dim (NumPy's
//!   `sliding_window_view` with a step), rank one more.
//!
//! The last three are [`StridedView`]s: the parent's elements read through its
//! strides, from an offset. They are operands of `tensor_expr!` like any view
//! (no copy), and can be sliced again. An axis out of range is a compile
//! error (the axis rules, [`crate::rules::axes`]); `START + LEN` beyond the
//! dim is one when the code is built; a run-time index `i` out of range
//! panics, like a slice index (`try_at`, `try_index_axis` return `None`).

use crate::access::{strided_span, Layout, RowMajor};
use crate::rules::axes::NarrowFits;
pub use crate::rules::axes::{KeepAxis, NarrowAxis, RemoveAxis};
use crate::rules::window::WindowAxis;
use crate::shape::{Shape, MAX_RANK};
use crate::view::TensorView;
use core::marker::PhantomData;

/// `L` with dim `AXIS` removed (read at one position, which the view's
/// offset chose).
pub struct AxisRemoved<L, const AXIS: usize>(PhantomData<L>);

impl<L: Layout, const AXIS: usize> Layout for AxisRemoved<L, AXIS>
where
    L::Shape: RemoveAxis<AXIS>,
{
    type Shape = <L::Shape as RemoveAxis<AXIS>>::Removed;
    const STRIDES: [usize; MAX_RANK] = {
        let mut strides = [0; MAX_RANK];
        let mut k = 0;
        while k + 1 < MAX_RANK {
            strides[k] = L::STRIDES[if k < AXIS { k } else { k + 1 }];
            k += 1;
        }
        strides
    };
    const DATA_LEN: usize = strided_span(<Self::Shape as Shape>::DIMS, &Self::STRIDES);
}

/// `L` with dim `AXIS` cut to `LEN` positions (from the one the view's
/// offset chose).
pub struct Narrowed<L, const AXIS: usize, const LEN: usize>(PhantomData<L>);

impl<L: Layout, const AXIS: usize, const LEN: usize> Layout for Narrowed<L, AXIS, LEN>
where
    L::Shape: NarrowAxis<AXIS, LEN>,
{
    type Shape = <L::Shape as NarrowAxis<AXIS, LEN>>::Narrowed;
    const STRIDES: [usize; MAX_RANK] = L::STRIDES;
    const DATA_LEN: usize = strided_span(<Self::Shape as Shape>::DIMS, &Self::STRIDES);
}

/// `L` with dim `AXIS` read at one position (which the view's offset chose)
/// and kept as a broadcasting [`One`](crate::One).
pub struct AxisKept<L, const AXIS: usize>(PhantomData<L>);

impl<L: Layout, const AXIS: usize> Layout for AxisKept<L, AXIS>
where
    L::Shape: KeepAxis<AXIS>,
{
    type Shape = <L::Shape as KeepAxis<AXIS>>::Kept;
    const STRIDES: [usize; MAX_RANK] = L::STRIDES;
    const DATA_LEN: usize = strided_span(<Self::Shape as Shape>::DIMS, &Self::STRIDES);
}

/// `L` read as windows: dim `AXIS` becomes the windows' starts, `STEP`
/// apart, and a new last dim of `SIZE` the positions in a window (NumPy's
/// `sliding_window_view` with a step). Windows overlap where `STEP < SIZE`:
/// the same elements are read by several, never copied. `W` is the
/// windowed shape, the rule's output ([`WindowAxis`]): the methods that
/// build the view name it in their return type, so that rustc computes it
/// there and reports a mistake by the rule's carrier.
pub struct Windowed<L, W, const AXIS: usize, const SIZE: usize, const STEP: usize>(
    PhantomData<(L, W)>,
);

// No `WindowAxis` bound here: the methods that build the view checked it
// while computing `W`, and a second check would report a mistake again at
// every use of the view.
impl<L: Layout, W: Shape, const AXIS: usize, const SIZE: usize, const STEP: usize> Layout
    for Windowed<L, W, AXIS, SIZE, STEP>
{
    type Shape = W;
    const STRIDES: [usize; MAX_RANK] = {
        let mut strides = L::STRIDES;
        let rank = <L::Shape as Shape>::RANK;
        strides[AXIS] = L::STRIDES[AXIS] * STEP;
        strides[rank] = L::STRIDES[AXIS];
        strides
    };
    const DATA_LEN: usize = strided_span(<Self::Shape as Shape>::DIMS, &Self::STRIDES);
}

/// A shared view of the elements of layout `L` (a static slice of a tensor or
/// view): an operand of `tensor_expr!`, read through its strides in place.
///
/// ```
/// use tensor_expr_runtime::{Tensor, D};
/// let x = Tensor::<i32, (D<3>, D<4>)>::from_fn(|[i, j]| (10 * i + j) as i32);
/// let column = x.index_axis::<1>(2); // x[:, 2]
/// assert_eq!(column.shape(), &[3]);
/// assert_eq!(column.to_tensor().as_slice(), &[2, 12, 22]);
/// let middle = x.narrow::<1, 1, 2>(); // x[:, 1:3], shape [3, 2]
/// assert_eq!(middle[[2, 1]], 22);
/// assert_eq!(middle.to_string(), "[[ 1  2]\n [11 12]\n [21 22]]");
/// ```
pub struct StridedView<'a, T, L> {
    /// From the view's first element on, `L::DATA_LEN` long.
    data: &'a [T],
    layout: PhantomData<L>,
}

impl<T, L> Clone for StridedView<'_, T, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, L> Copy for StridedView<'_, T, L> {}

impl<'a, T, L: Layout> StridedView<'a, T, L> {
    /// Views `data` from `offset` on. Callers pass an offset inside the parent
    /// whose layout makes `L::DATA_LEN` elements from there fit.
    fn from_offset(data: &'a [T], offset: usize) -> Self {
        StridedView {
            data: &data[offset..offset + L::DATA_LEN],
            layout: PhantomData,
        }
    }

    /// The dims, outermost first.
    #[inline]
    pub const fn shape(&self) -> &'static [usize] {
        <L::Shape as Shape>::DIMS
    }

    /// The element at `index`, or `None` if it is out of bounds.
    pub fn get(&self, index: <L::Shape as Shape>::Index) -> Option<&'a T> {
        <L::Shape as Shape>::flat_position(index)?;
        Some(&self.data[Self::offset(index)])
    }

    /// The elements in row-major order.
    pub fn iter(&self) -> impl Iterator<Item = &'a T> + Clone + 'a {
        let data = self.data;
        (0..<L::Shape as Shape>::LEN).map(move |position| &data[Self::offset_of(position)])
    }

    /// Where the element at `index` (in bounds) is in `data`.
    fn offset(index: <L::Shape as Shape>::Index) -> usize {
        index
            .as_ref()
            .iter()
            .zip(&L::STRIDES)
            .map(|(i, s)| i * s)
            .sum()
    }

    /// Where the element at row-major position `position` of the view is.
    fn offset_of(position: usize) -> usize {
        Self::offset(<L::Shape as Shape>::multi_index(position))
    }

    /// Copies the viewed elements into a contiguous tensor.
    pub fn to_tensor(&self) -> crate::Tensor<T, L::Shape>
    where
        T: Copy,
    {
        // SAFETY: `copy_rows` writes every one of the `LEN` slots.
        unsafe { crate::Tensor::from_uninit(|slots| self.copy_rows(slots)) }
    }

    /// Copies the viewed elements into a tensor on the heap (features
    /// `alloc`, `std`).
    #[cfg(feature = "alloc")]
    pub fn to_heap(&self) -> crate::HeapTensor<T, L::Shape>
    where
        T: Copy,
    {
        // SAFETY: `copy_rows` writes every one of the `LEN` slots.
        unsafe { crate::HeapTensor::from_uninit(|slots| self.copy_rows(slots)) }
    }

    /// Writes the viewed elements, row-major, into `out[..LEN]`: row by
    /// row, each row one slice of the data read at the last dim's stride (a
    /// plain copy where that stride is 1), the rows found by the odometer
    /// over the outer dims rather than by dividing each position.
    fn copy_rows(&self, out: &mut [core::mem::MaybeUninit<T>])
    where
        T: Copy,
    {
        let (len, row_len) = (<L::Shape as Shape>::LEN, <L::Shape as Shape>::ROW_LEN);
        if len == 0 {
            return;
        }
        let rank = <L::Shape as Shape>::RANK;
        let dims = <L::Shape as Shape>::DIMS;
        let last = rank.saturating_sub(1);
        let inner = if rank == 0 { 1 } else { L::STRIDES[last] };
        let mut outer = [0usize; crate::shape::MAX_RANK];
        for out_row in out[..len].chunks_exact_mut(row_len) {
            let start: usize = outer[..last]
                .iter()
                .zip(&L::STRIDES)
                .map(|(i, s)| i * s)
                .sum();
            let span = (row_len - 1) * inner + 1;
            let row = &self.data[start..start + span];
            if inner == 1 {
                for (slot, &x) in out_row.iter_mut().zip(row) {
                    slot.write(x);
                }
            } else {
                for (slot, x) in out_row.iter_mut().zip(row.iter().step_by(inner)) {
                    slot.write(*x);
                }
            }
            crate::shape::advance_odometer(&mut outer[..last], &dims[..last]);
        }
    }

    /// Sub-tensor `i` along `AXIS`, rank one less. Panics if `i` is out of
    /// range.
    pub fn index_axis<const AXIS: usize>(
        &self,
        i: usize,
    ) -> StridedView<'a, T, AxisRemoved<L, AXIS>>
    where
        L::Shape: RemoveAxis<AXIS>,
    {
        self.fixed_at::<AXIS, _>(i)
    }

    /// Sub-tensor `i` along `AXIS` with that dim kept as a broadcasting
    /// `One` (NumPy's `x[:, i:i+1]`). Panics if `i` is out of range.
    pub fn index_axis_keepdim<const AXIS: usize>(
        &self,
        i: usize,
    ) -> StridedView<'a, T, AxisKept<L, AXIS>>
    where
        L::Shape: KeepAxis<AXIS>,
    {
        self.fixed_at::<AXIS, _>(i)
    }

    /// The view from position `i` of axis `AXIS` on, as layout `M` (which
    /// drops or keeps that axis).
    fn fixed_at<const AXIS: usize, M: Layout>(&self, i: usize) -> StridedView<'a, T, M> {
        let i = index_in_range(i, AXIS, <L::Shape as Shape>::DIMS[AXIS]);
        StridedView::from_offset(self.data, i * L::STRIDES[AXIS])
    }

    /// Positions `START..START + LEN` along `AXIS`; a range past the dim is
    /// an error when the code is built. `LEN = 1` gives a `D<1>` dim, which
    /// does not broadcast; [`Self::index_axis_keepdim`] gives one that does.
    pub fn narrow<const AXIS: usize, const START: usize, const LEN: usize>(
        &self,
    ) -> StridedView<'a, T, Narrowed<L, AXIS, LEN>>
    where
        L::Shape: NarrowAxis<AXIS, LEN>,
    {
        #[allow(clippy::let_unit_value)]
        let () = NarrowFits::<L::Shape, AXIS, START, LEN>::CHECKED;
        StridedView::from_offset(self.data, START * L::STRIDES[AXIS])
    }

    /// Itself: what `tensor_expr!` passes to [`windows`], as for a
    /// container.
    #[doc(hidden)]
    pub fn as_strided(&self) -> StridedView<'a, T, L> {
        *self
    }

    /// Windows of `SIZE` consecutive positions along `AXIS`, one starting
    /// every `STEP` (NumPy's `sliding_window_view(x, SIZE, axis=AXIS)[::STEP]`
    /// along that axis): that axis counts the windows and a new last dim
    /// holds each window. Read in place, so overlapping windows cost no copy;
    /// a window longer than the axis or a step of 0 is a compile error.
    pub fn windows<const AXIS: usize, const SIZE: usize, const STEP: usize>(
        &self,
    ) -> StridedView<
        'a,
        T,
        Windowed<L, <L::Shape as WindowAxis<AXIS, SIZE, STEP>>::Windowed, AXIS, SIZE, STEP>,
    >
    where
        L::Shape: WindowAxis<AXIS, SIZE, STEP>,
    {
        StridedView::from_offset(self.data, 0)
    }
}

/// `x.windows::<AXIS, SIZE, STEP>()` as a function of `x.as_strided()`,
/// which `tensor_expr!` writes for that method: rustc checks a function's
/// bounds after resolving it, so an axis beyond the sizes computed at
/// compile time is reported by
/// [`ComputableSize`](crate::rules::size::ComputableSize)'s message, where
/// the method's bounds, checked while the method is looked up, fail as
/// E0599.
#[doc(hidden)]
#[allow(clippy::type_complexity)]
pub fn windows<'a, const AXIS: usize, const SIZE: usize, const STEP: usize, T, L: Layout>(
    x: StridedView<'a, T, L>,
) -> StridedView<
    'a,
    T,
    Windowed<L, <L::Shape as WindowAxis<AXIS, SIZE, STEP>>::Windowed, AXIS, SIZE, STEP>,
>
where
    L::Shape: WindowAxis<AXIS, SIZE, STEP>,
{
    x.windows::<AXIS, SIZE, STEP>()
}

impl<T, L: Layout> core::ops::Index<<L::Shape as Shape>::Index> for StridedView<'_, T, L> {
    type Output = T;
    fn index(&self, index: <L::Shape as Shape>::Index) -> &T {
        match self.get(index) {
            Some(x) => x,
            None => crate::shape::out_of_bounds::<L::Shape>(index),
        }
    }
}

impl<T: crate::fmt::DisplayElement, L: Layout> core::fmt::Display for StridedView<'_, T, L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        crate::fmt::write_display(f, self.iter(), self.shape())
    }
}

impl<T: core::fmt::Debug, L: Layout> core::fmt::Debug for StridedView<'_, T, L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        crate::fmt::write_debug(f, self.iter(), self.shape())
    }
}

/// An operand of any expression, read through its layout's strides.
#[diagnostic::do_not_recommend]
impl<T, U: crate::Element + crate::rules::elements::SameElement<T>, L: Layout>
    crate::access::Operand<T> for StridedView<'_, U, L>
{
    type Element = U::Checked;
    type Shape = L::Shape;
    type Layout = L;
    type Placement = crate::access::Stack;
    #[inline]
    fn elements(&self) -> &[U::Checked] {
        U::data(self.data)
    }
}

impl<T: crate::Element, L> crate::access::ElementSource for StridedView<'_, T, L> {
    type Element = T;
}

/// The slicing methods of the contiguous containers, over their `as_slice`;
/// the slices borrow for `$life` (a `TensorView`'s slices outlive the view).
macro_rules! impl_slicing {
    (impl[$($g:tt)*] $ty:ty { owned: $owned:ident, placement: $placement:ident, borrow: $life:lifetime }) => {
        impl<$($g)*> $ty where S: $crate::Shape {
            /// Sub-tensor `i` along the first axis (row `i` of a matrix), a
            /// contiguous view of rank one less. Panics if `i` is out of range.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<f32, (D<2>, D<3>)>::new([[1., 2., 3.], [4., 5., 6.]]);
            /// assert_eq!(x.at(1).as_slice(), &[4., 5., 6.]);
            /// assert!(x.try_at(2).is_none());
            /// ```
            pub fn at(&self, i: usize) -> $crate::TensorView<$life, T, <S as $crate::slice::RemoveAxis<0>>::Removed>
            where
                S: $crate::slice::RemoveAxis<0>,
            {
                $crate::slice::contiguous_at::<T, S>(self.as_slice(), i)
            }

            /// [`Self::at`], or `None` if `i` is out of range.
            pub fn try_at(&self, i: usize) -> Option<$crate::TensorView<$life, T, <S as $crate::slice::RemoveAxis<0>>::Removed>>
            where
                S: $crate::slice::RemoveAxis<0>,
            {
                (i < S::DIMS[0]).then(|| self.at(i))
            }

            /// Sub-tensor `i` along `AXIS` (NumPy's `x[:, i]` for `AXIS = 1`),
            /// rank one less, read in place. Panics if `i` is out of range.
            pub fn index_axis<const AXIS: usize>(&self, i: usize) -> $crate::slice::StridedView<$life, T, $crate::slice::AxisRemoved<$crate::access::RowMajor<S>, AXIS>>
            where
                S: $crate::slice::RemoveAxis<AXIS>,
            {
                $crate::slice::StridedView::whole(self.as_slice()).index_axis::<AXIS>(i)
            }

            /// [`Self::index_axis`], or `None` if `i` is out of range.
            pub fn try_index_axis<const AXIS: usize>(&self, i: usize) -> Option<$crate::slice::StridedView<$life, T, $crate::slice::AxisRemoved<$crate::access::RowMajor<S>, AXIS>>>
            where
                S: $crate::slice::RemoveAxis<AXIS>,
            {
                (i < S::DIMS[AXIS]).then(|| self.index_axis::<AXIS>(i))
            }

            /// Sub-tensor `i` along `AXIS`, with that dim kept as a
            /// broadcasting `One` (NumPy's `x[:, i:i+1]`, which broadcasts
            /// against `x`), read in place. Panics if `i` is out of range.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<f32, (D<2>, D<3>)>::new([[1., 2., 3.], [4., 5., 6.]]);
            /// let first = x.index_axis_keepdim::<1>(0);
            /// assert_eq!(first.shape(), &[2, 1]);
            /// ```
            pub fn index_axis_keepdim<const AXIS: usize>(&self, i: usize) -> $crate::slice::StridedView<$life, T, $crate::slice::AxisKept<$crate::access::RowMajor<S>, AXIS>>
            where
                S: $crate::slice::KeepAxis<AXIS>,
            {
                $crate::slice::StridedView::whole(self.as_slice()).index_axis_keepdim::<AXIS>(i)
            }

            /// Positions `START..START + LEN` along `AXIS` (NumPy's
            /// `x[:, START:START + LEN]`), read in place; the view's shape has
            /// `D<LEN>` there. A range past the dim is an error when the code is
            /// built.
            ///
            /// With `LEN = 1` the dim is `D<1>`, which does not stretch in a
            /// broadcast, where NumPy's `x[:, j:j+1]` does: stable Rust cannot
            /// choose the type `One` from the value of a const parameter. For
            /// a length-1 slice that broadcasts, use
            /// [`index_axis_keepdim`](Self::index_axis_keepdim), whose dim is
            /// `One`.
            pub fn narrow<const AXIS: usize, const START: usize, const LEN: usize>(&self) -> $crate::slice::StridedView<$life, T, $crate::slice::Narrowed<$crate::access::RowMajor<S>, AXIS, LEN>>
            where
                S: $crate::slice::NarrowAxis<AXIS, LEN>,
            {
                $crate::slice::StridedView::whole(self.as_slice()).narrow::<AXIS, START, LEN>()
            }

            /// All of it as a [`StridedView`](crate::slice::StridedView):
            /// what `tensor_expr!` passes to [`windows`](crate::slice::windows).
            #[doc(hidden)]
            pub fn as_strided(&self) -> $crate::slice::StridedView<$life, T, $crate::access::RowMajor<S>> {
                $crate::slice::StridedView::whole(self.as_slice())
            }

            /// Windows of `SIZE` consecutive positions along `AXIS`, one
            /// starting every `STEP` (NumPy's `sliding_window_view` with a
            /// step): that axis counts the windows and a new last dim holds
            /// each window, read in place (no copy). A 64-tap FIR filter is
            /// `sum(x.windows::<0, 64, 1>() * h, [1])`; a window longer than
            /// the axis or a step of 0 is a compile error.
            ///
            /// ```
            /// use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<i32, (D<6>,)>::from([0, 1, 2, 3, 4, 5]);
            /// let frames = x.windows::<0, 4, 2>(); // starts 0 and 2
            /// assert_eq!(frames.shape(), &[2, 4]);
            /// assert_eq!(frames.to_tensor().as_slice(), &[0, 1, 2, 3, 2, 3, 4, 5]);
            /// ```
            pub fn windows<const AXIS: usize, const SIZE: usize, const STEP: usize>(&self) -> $crate::slice::StridedView<$life, T, $crate::slice::Windowed<$crate::access::RowMajor<S>, <S as $crate::rules::window::WindowAxis<AXIS, SIZE, STEP>>::Windowed, AXIS, SIZE, STEP>>
            where
                S: $crate::rules::window::WindowAxis<AXIS, SIZE, STEP>,
            {
                $crate::slice::StridedView::whole(self.as_slice()).windows::<AXIS, SIZE, STEP>()
            }
        }
    };
}
pub(crate) use impl_slicing;

impl<'a, T, S: Shape> StridedView<'a, T, RowMajor<S>> {
    /// All of a contiguous container's `S::LEN` elements.
    #[doc(hidden)]
    pub fn whole(data: &'a [T]) -> Self {
        Self::from_offset(data, 0)
    }
}

/// `i`, if it is a position of an axis of size `dim`; panics otherwise, as
/// a slice index does, naming the axis and its size.
#[doc(hidden)]
#[track_caller]
pub fn index_in_range(i: usize, axis: usize, dim: usize) -> usize {
    assert!(
        i < dim,
        "index {i} is out of range for axis {axis} of size {dim}"
    );
    i
}

/// Sub-tensor `i` along the first axis of row-major `data` of shape `S`;
/// panics if `i` is out of range.
#[doc(hidden)]
#[track_caller]
pub fn contiguous_at<T, S: RemoveAxis<0>>(data: &[T], i: usize) -> TensorView<'_, T, S::Removed> {
    let i = index_in_range(i, 0, S::DIMS[0]);
    let len = <S::Removed as Shape>::LEN;
    TensorView::from_exact(&data[i * len..(i + 1) * len])
}

/// Sub-tensor `i` along the first axis of row-major `data` of shape `S`,
/// writable (panics naming the axis if `i` is out of range).
#[doc(hidden)]
#[track_caller]
pub fn contiguous_at_mut<T, S: RemoveAxis<0>>(
    data: &mut [T],
    i: usize,
) -> crate::TensorViewMut<'_, T, S::Removed> {
    let i = index_in_range(i, 0, S::DIMS[0]);
    let len = <S::Removed as Shape>::LEN;
    crate::TensorViewMut::from_exact(&mut data[i * len..(i + 1) * len])
}

/// Positions `START..START + LEN` along `AXIS` of row-major `data` of shape
/// `S`, writable: one contiguous block, which the build checks (the dims
/// before `AXIS` are 1) along with the range.
#[doc(hidden)]
pub fn contiguous_narrow_mut<T, S, const AXIS: usize, const START: usize, const LEN: usize>(
    data: &mut [T],
) -> crate::TensorViewMut<'_, T, S::Narrowed>
where
    S: NarrowAxis<AXIS, LEN>,
{
    let () = NarrowFits::<S, AXIS, START, LEN>::CHECKED;
    let () = ContiguousNarrow::<S, AXIS>::CHECKED;
    let inner = <S::Narrowed as Shape>::LEN / LEN.max(1);
    let start = START * inner;
    crate::TensorViewMut::from_exact(&mut data[start..start + <S::Narrowed as Shape>::LEN])
}

/// The build-time check that a slice along `AXIS` of `S` is one contiguous
/// block: every dim before `AXIS` is 1.
struct ContiguousNarrow<S, const AXIS: usize>(PhantomData<S>);

impl<S: Shape, const AXIS: usize> ContiguousNarrow<S, AXIS> {
    const CHECKED: () = {
        let mut k = 0;
        while k < AXIS {
            assert!(
                S::DIMS[k] == 1,
                "`narrow_mut::<AXIS, ..>` writes one contiguous block: along the first axis, or one after dims of size 1 (a strided slice cannot be written in place)"
            );
            k += 1;
        }
    };
}
