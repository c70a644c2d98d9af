//! The containers (`Tensor`, `HeapTensor`, `TensorView`, `TensorViewMut`)
//! and everything they share, written once: the operand and target impls
//! through which expressions read and write them, iteration, indexing,
//! mapping, printing, `argmax`, and the static slicing methods.
//!
//! Each container defines only its storage and constructors, with `shape`,
//! `as_slice` (and `as_mut_slice` if writable) and a way to build its owned
//! counterpart from a function of the position (`from_flat_fn`); one line in
//! [`for_each_container!`] gives it the rest. The impls are macros, not
//! blanket impls over a storage trait, because a blanket `Operand` impl would
//! overlap the one for references (`&X`), which another crate could make an
//! instance of such a trait.

/// Calls `$mac!(impl[generics] Type { owned: .., placement: .., borrow: .. })`
/// for every container, or with `writable` for every container that can be
/// written: the one list of containers. `owned` is the tensor that `map`
/// returns, `placement` where the data lives
/// ([`Placement`](crate::access::Placement)), `borrow` how long a slice of it
/// borrows (a `TensorView`'s slices outlive the view).
macro_rules! for_each_container {
    ($mac:ident) => {
        $crate::containers::for_each_container!(@list $mac, all);
    };
    (writable $mac:ident) => {
        $crate::containers::for_each_container!(@list $mac, writable);
    };
    (@list $mac:ident, $which:ident) => {
        $crate::containers::for_each_container!(@one $mac, $which, writable,
            impl[T, S] $crate::Tensor<T, S> { owned: Tensor, placement: Stack, borrow: '_ });
        #[cfg(feature = "alloc")]
        $crate::containers::for_each_container!(@one $mac, $which, writable,
            impl[T, S] $crate::HeapTensor<T, S> { owned: HeapTensor, placement: Heap, borrow: '_ });
        $crate::containers::for_each_container!(@one $mac, $which, read_only,
            impl['a, T, S] $crate::TensorView<'a, T, S> { owned: Tensor, placement: Stack, borrow: 'a });
        $crate::containers::for_each_container!(@one $mac, $which, writable,
            impl['a, T, S] $crate::TensorViewMut<'a, T, S> { owned: Tensor, placement: Stack, borrow: '_ });
    };
    (@one $mac:ident, all, $kind:ident, $($container:tt)*) => { $mac!($($container)*); };
    (@one $mac:ident, writable, writable, $($container:tt)*) => { $mac!($($container)*); };
    (@one $mac:ident, writable, read_only, $($container:tt)*) => {};
}
pub(crate) use for_each_container;

use crate::slice::impl_slicing;

/// A container as an operand of any expression (one over another element
/// type than `U` is rejected through
/// [`SameElement`](crate::rules::elements::SameElement)), and the element
/// type it brings.
macro_rules! impl_operand {
    (impl[$($g:tt)*] $ty:ty { owned: $owned:ident, placement: $placement:ident, $($_:tt)* }) => {
        #[diagnostic::do_not_recommend]
        impl<$($g)*, X> $crate::access::Operand<X> for $ty
        where
            S: $crate::Shape,
            T: $crate::Element + $crate::rules::elements::SameElement<X>,
        {
            type Element = T::Checked;
            type Shape = S;
            type Layout = $crate::access::RowMajor<S>;
            type Placement = $crate::access::$placement;
            #[inline]
            fn elements(&self) -> &[T::Checked] {
                T::data(self.as_slice())
            }
        }

        impl<$($g)*> $crate::access::ElementSource for $ty where S: $crate::Shape, T: $crate::Element {
            type Element = T;
        }

        /// A stored operand's shape, as a node's: what a rule that reads
        /// the shape of an operation's input (an axis list's) reads where
        /// that input is borrowed where stored (`flip`).
        impl<$($g)*> $crate::expr::Shaped for $ty where S: $crate::Shape {
            type Shape = S;
        }
    };
}

/// A writable container as the target of an assignment.
macro_rules! impl_target {
    (impl[$($g:tt)*] $ty:ty { $($_:tt)* }) => {
        impl<$($g)*> $crate::access::Target for $ty where S: $crate::Shape, T: $crate::Element {
            type Element = T;
            type Shape = S;
            type Placement = $crate::access::Stack;
            #[inline]
            fn target_slice(&mut self) -> &mut [T] {
                self.as_mut_slice()
            }
            #[inline]
            fn placement(&self) -> $crate::access::Stack {
                $crate::access::Stack
            }
        }
    };
}

/// The read-only impls every tensor-like type shares, over its `as_slice`:
/// iteration, `Index`, `PartialEq`, `Debug`, `Display` and `IntoIterator` for
/// a reference.
macro_rules! impl_read_access {
    (impl[$($g:tt)*] $ty:ty { owned: $owned:ident, $($_:tt)* }) => {
        impl<$($g)*> $ty where S: $crate::Shape {
            /// A tensor of the same shape holding `f` of each element (a new
            #[doc = concat!("`", stringify!($owned), "`).")]
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<f32, (D<3>,)>::new([0.5, -1.0, 2.0]);
            /// assert_eq!(x.map(|v| *v > 0.0).as_slice(), &[true, false, true]);
            /// ```
            pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> $crate::$owned<U, S> {
                let data = self.as_slice();
                $crate::$owned::from_flat_fn(|position| f(&data[position]))
            }

            /// Every element converted to `U` as Rust's `as` converts numbers
            /// ([`Cast`](crate::element::Cast)): floats to integers round
            /// toward zero and saturate (NaN gives 0), integers wrap into a
            /// narrower integer type, and anything to a float rounds to
            /// nearest.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<f32, (D<4>,)>::new([1.7, -1.7, 300.0, f32::NAN]);
            /// assert_eq!(x.cast::<u8>().as_slice(), &[1, 0, 255, 0]);
            /// assert_eq!(x.cast::<i32>().as_slice(), &[1, -1, 300, 0]);
            /// ```
            pub fn cast<U>(&self) -> $crate::$owned<U, S>
            where
                T: $crate::element::Cast<U> + Copy,
            {
                self.map(|&x| x.cast())
            }

            /// The elements in row-major order.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<i32, (D<2>, D<2>)>::new([[1, 2], [3, 4]]);
            /// assert_eq!(x.iter().sum::<i32>(), 10);
            /// ```
            #[inline]
            pub fn iter(&self) -> core::slice::Iter<'_, T> {
                self.as_slice().iter()
            }

            /// Each element with its multi-index, in row-major order.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<i32, (D<2>, D<2>)>::new([[1, 2], [3, 4]]);
            /// let (index, _) = x.iter_indexed().find(|&(_, &v)| v == 3).unwrap();
            /// assert_eq!(index, [1, 0]);
            /// ```
            pub fn iter_indexed(&self) -> impl Iterator<Item = (S::Index, &T)> + '_ {
                self.as_slice()
                    .iter()
                    .enumerate()
                    .map(|(position, x)| (S::multi_index(position), x))
            }

            /// The position of the largest element along `AXIS` (NumPy's
            /// `argmax(x, axis=AXIS)`), for each line along it: the first
            /// on ties, the first NaN's where a line holds one. An empty
            /// axis is an error when the code is built.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let x = Tensor::<f32, (D<2>, D<3>)>::new([[1., 5., 5.], [f32::NAN, 9., 0.]]);
            /// assert_eq!(x.argmax::<1>().as_slice(), &[1, 0]);
            /// assert_eq!(x.argmax::<0>().as_slice(), &[1, 1, 0]);
            /// ```
            pub fn argmax<const AXIS: usize>(&self) -> $crate::Tensor<usize, <S as $crate::slice::RemoveAxis<AXIS>>::Removed>
            where
                S: $crate::slice::RemoveAxis<AXIS>,
                T: PartialOrd,
            {
                $crate::Tensor::from_flat_fn($crate::arg::arg_extreme::<T, S, AXIS>(self.as_slice(), $crate::arg::Extreme::Largest))
            }

            /// The position of the smallest element along `AXIS` (NumPy's
            /// `argmin`), with [`Self::argmax`]'s rules.
            pub fn argmin<const AXIS: usize>(&self) -> $crate::Tensor<usize, <S as $crate::slice::RemoveAxis<AXIS>>::Removed>
            where
                S: $crate::slice::RemoveAxis<AXIS>,
                T: PartialOrd,
            {
                $crate::Tensor::from_flat_fn($crate::arg::arg_extreme::<T, S, AXIS>(self.as_slice(), $crate::arg::Extreme::Smallest))
            }

            /// [`Self::argmax`] with the axis kept as a size-1 `One`
            /// (`keepdims=True`), so the result broadcasts against `self`.
            pub fn argmax_keepdim<const AXIS: usize>(&self) -> $crate::Tensor<usize, <S as $crate::slice::KeepAxis<AXIS>>::Kept>
            where
                S: $crate::slice::KeepAxis<AXIS>,
                T: PartialOrd,
            {
                $crate::Tensor::from_flat_fn($crate::arg::arg_extreme::<T, S, AXIS>(self.as_slice(), $crate::arg::Extreme::Largest))
            }

            /// [`Self::argmin`] with the axis kept as a size-1 `One`.
            pub fn argmin_keepdim<const AXIS: usize>(&self) -> $crate::Tensor<usize, <S as $crate::slice::KeepAxis<AXIS>>::Kept>
            where
                S: $crate::slice::KeepAxis<AXIS>,
                T: PartialOrd,
            {
                $crate::Tensor::from_flat_fn($crate::arg::arg_extreme::<T, S, AXIS>(self.as_slice(), $crate::arg::Extreme::Smallest))
            }

            /// The elements in row-major order, copied into a vector
            /// (features `alloc`, `std`).
            #[cfg(feature = "alloc")]
            pub fn to_vec(&self) -> alloc::vec::Vec<T>
            where
                T: Clone,
            {
                self.as_slice().to_vec()
            }
        }
        impl<'r, $($g)*> IntoIterator for &'r $ty where S: $crate::Shape {
            type Item = &'r T;
            type IntoIter = core::slice::Iter<'r, T>;
            fn into_iter(self) -> Self::IntoIter {
                self.as_slice().iter()
            }
        }
        impl<$($g)*> core::ops::Index<S::Index> for $ty where S: $crate::Shape {
            type Output = T;
            fn index(&self, index: S::Index) -> &T {
                &self.as_slice()[$crate::shape::position_or_panic::<S>(index)]
            }
        }
        impl<$($g)*> PartialEq for $ty where S: $crate::Shape, T: PartialEq {
            fn eq(&self, other: &Self) -> bool {
                self.as_slice() == other.as_slice()
            }
        }
        impl<$($g)*> core::fmt::Display for $ty
        where S: $crate::Shape, T: $crate::fmt::DisplayElement {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                $crate::fmt::write_display(f, self.as_slice(), S::DIMS)
            }
        }
        impl<$($g)*> core::fmt::Debug for $ty
        where S: $crate::Shape, T: core::fmt::Debug {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                $crate::fmt::write_debug(f, self.as_slice(), S::DIMS)
            }
        }
    };
}
/// What every mutable tensor-like type adds, over its `as_mut_slice`:
/// `iter_mut`, `IndexMut` and `IntoIterator` for a mutable reference.
macro_rules! impl_write_access {
    (impl[$($g:tt)*] $ty:ty { $($_:tt)* }) => {
        impl<$($g)*> $ty where S: $crate::Shape {
            /// The elements in row-major order, mutably.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let mut x = Tensor::<i32, (D<3>,)>::new([1, 2, 3]);
            /// x.iter_mut().for_each(|v| *v *= 10);
            /// assert_eq!(x.as_slice(), &[10, 20, 30]);
            /// ```
            #[inline]
            pub fn iter_mut(&mut self) -> core::slice::IterMut<'_, T> {
                self.as_mut_slice().iter_mut()
            }

            /// Sub-tensor `i` along the first axis as a writable view (the
            /// mutable [`at`](Self::at)), a target of `tensor_expr!`.
            /// Panics if `i` is out of range.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let mut x = Tensor::<i32, (D<2>, D<3>)>::zeros();
            /// x.at_mut(1).as_mut_slice().copy_from_slice(&[4, 5, 6]);
            /// assert_eq!(x.as_slice(), &[0, 0, 0, 4, 5, 6]);
            /// ```
            pub fn at_mut(&mut self, i: usize) -> $crate::TensorViewMut<'_, T, <S as $crate::slice::RemoveAxis<0>>::Removed>
            where
                S: $crate::slice::RemoveAxis<0>,
            {
                $crate::slice::contiguous_at_mut::<T, S>(self.as_mut_slice(), i)
            }

            /// Positions `START..START + LEN` along `AXIS` as a writable view
            /// (the mutable [`narrow`](Self::narrow), PyTorch's `narrow` as
            /// a target), where that block is contiguous: along the first
            /// axis, or an axis after dims of size 1. Another axis, or a
            /// range past the dim, is an error when the code is built; a
            /// strided slice cannot be written in place.
            ///
            /// ```
            /// # use tensor_expr_runtime::{Tensor, D};
            /// let mut x = Tensor::<i32, (D<4>, D<2>)>::zeros();
            /// x.narrow_mut::<0, 1, 2>().as_mut_slice().fill(7);
            /// assert_eq!(x.as_slice(), &[0, 0, 7, 7, 7, 7, 0, 0]);
            /// ```
            pub fn narrow_mut<const AXIS: usize, const START: usize, const LEN: usize>(&mut self) -> $crate::TensorViewMut<'_, T, <S as $crate::slice::NarrowAxis<AXIS, LEN>>::Narrowed>
            where
                S: $crate::slice::NarrowAxis<AXIS, LEN>,
            {
                $crate::slice::contiguous_narrow_mut::<T, S, AXIS, START, LEN>(self.as_mut_slice())
            }
        }
        impl<'r, $($g)*> IntoIterator for &'r mut $ty where S: $crate::Shape {
            type Item = &'r mut T;
            type IntoIter = core::slice::IterMut<'r, T>;
            fn into_iter(self) -> Self::IntoIter {
                self.as_mut_slice().iter_mut()
            }
        }
        impl<$($g)*> core::ops::IndexMut<S::Index> for $ty where S: $crate::Shape {
            fn index_mut(&mut self, index: S::Index) -> &mut T {
                let position = $crate::shape::position_or_panic::<S>(index);
                &mut self.as_mut_slice()[position]
            }
        }
    };
}
for_each_container!(impl_operand);
for_each_container!(impl_read_access);
for_each_container!(impl_slicing);
for_each_container!(writable impl_target);
for_each_container!(writable impl_write_access);
