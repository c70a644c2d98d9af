//! `Tensor<T, S>`: an owned, contiguous, row-major tensor whose shape is its type.
//! Its storage is the nested array itself, so it lives on the stack (or inside
//! any struct or static) with no allocator.

use crate::dim::{One, D};
use crate::element::Element;
use crate::error::{check_len, ShapeError};
use crate::shape::Shape;
use core::mem::MaybeUninit;

/// An owned tensor of `T` with the compile-time shape `S`.
///
/// ```
/// use tensor_expr_runtime::{Tensor, D};
/// let t = Tensor::<f32, (D<2>, D<3>)>::new([[1., 2., 3.], [4., 5., 6.]]);
/// assert_eq!(t[[1, 2]], 6.0);
/// assert_eq!(t.shape(), &[2, 3]);
/// assert_eq!(t.to_string(), "[[1. 2. 3.]\n [4. 5. 6.]]");
/// ```
#[repr(transparent)] // the nested arrays' layout: bytemuck's `Pod` relies on it
pub struct Tensor<T, S: Shape> {
    data: S::Storage<T>,
}

impl<T, S: Shape> Tensor<T, S> {
    /// Wraps nested-array storage (`[[T; 3]; 2]` for a 2x3 shape).
    #[inline]
    pub const fn new(data: S::Storage<T>) -> Self {
        Tensor { data }
    }

    /// Builds a tensor from each element's multi-index, in row-major order,
    /// in place. If `f` panics, the elements built so far are leaked, not
    /// dropped (as for every constructor from a function).
    ///
    /// ```
    /// use tensor_expr_runtime::{Tensor, D};
    /// let t = Tensor::<usize, (D<2>, D<3>)>::from_fn(|[i, j]| 10 * i + j);
    /// assert_eq!(t.as_slice(), &[0, 1, 2, 10, 11, 12]);
    /// ```
    pub fn from_fn(f: impl FnMut(S::Index) -> T) -> Self {
        // SAFETY: `fill_indexed` writes every one of the `LEN` slots.
        unsafe { Self::from_uninit(|slots| crate::shape::fill_indexed::<T, S>(slots, f)) }
    }

    /// Builds each element from its row-major position, in place (if `f`
    /// panics, the elements built so far are leaked, not dropped).
    pub fn from_flat_fn(f: impl FnMut(usize) -> T) -> Self {
        // SAFETY: `fill_flat` writes every slot.
        unsafe { Self::from_uninit(|slots| crate::shape::fill_flat::<T, S>(slots, f)) }
    }

    /// A tensor whose elements `fill` writes into its `S::LEN` uninitialised
    /// slots, in place (no nested-array temporaries for LLVM to copy).
    ///
    /// # Safety
    /// `fill` writes every one of the `S::LEN` slots. (If it panics, the
    /// slots are dropped uninitialised: the values written leak, nothing is
    /// read.)
    ///
    /// Always inlined: out of line, each small stage costs a call and a
    /// copy of its result, which shows in a Kalman step of 4x4 products
    /// (`benches/linalg.rs`).
    #[inline(always)]
    pub(crate) unsafe fn from_uninit(fill: impl FnOnce(&mut [MaybeUninit<T>])) -> Self {
        let mut data = MaybeUninit::<S::Storage<T>>::uninit();
        // SAFETY: `Storage<T>` is a nested array of `LEN` elements `T` (or `T`
        // itself for a scalar), laid out as `LEN` consecutive `T`s, so its
        // memory is `LEN` slots of `MaybeUninit<T>`. Established by the
        // sealed traits: `Shape` is implemented for tuples of `Dim`s only
        // (`shape.rs`, `Storage` nests each dim's `Array`), and `Dim` for
        // `D<N>` (`Array<X> = [X; N]`, `SIZE = N`) and `One` (`[X; 1]`) only
        // (`dim.rs`).
        let slots = unsafe {
            core::slice::from_raw_parts_mut(data.as_mut_ptr().cast::<MaybeUninit<T>>(), S::LEN)
        };
        fill(slots);
        // SAFETY: `fill` wrote every slot (the caller's promise).
        Tensor::new(unsafe { data.assume_init() })
    }

    /// Copies row-major data, which must hold exactly `S::LEN` elements.
    ///
    /// ```
    /// use tensor_expr_runtime::{Tensor, D};
    /// let v = Tensor::<f32, (D<3>,)>::try_from_slice(&[7., 8., 9.])?;
    /// assert_eq!(v.as_slice(), &[7., 8., 9.]);
    /// assert!(Tensor::<f32, (D<3>,)>::try_from_slice(&[1.]).is_err());
    /// # Ok::<(), tensor_expr_runtime::ShapeError>(())
    /// ```
    pub fn try_from_slice(data: &[T]) -> Result<Self, ShapeError>
    where
        T: Copy,
    {
        check_len::<S>(data.len())?;
        // SAFETY: the slots are exactly as many as `data`'s elements, each
        // written once.
        Ok(unsafe {
            Self::from_uninit(|slots| {
                for (slot, &x) in slots.iter_mut().zip(data) {
                    slot.write(x);
                }
            })
        })
    }

    /// A tensor with every element equal to `value`.
    pub fn full(value: T) -> Self
    where
        T: Copy,
    {
        Self::from_flat_fn(|_| value)
    }

    /// A tensor of zeros.
    pub fn zeros() -> Self
    where
        T: Element,
    {
        Self::full(T::ZERO)
    }

    /// The dims, outermost first (`[2, 3]` for a 2x3 tensor).
    #[inline]
    pub const fn shape(&self) -> &'static [usize] {
        S::DIMS
    }

    /// The elements in row-major order.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        S::flat(&self.data)
    }

    /// The elements in row-major order, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        S::flat_mut(&mut self.data)
    }

    /// The nested-array storage.
    #[inline]
    pub const fn as_array(&self) -> &S::Storage<T> {
        &self.data
    }

    /// Unwraps the nested-array storage.
    #[inline]
    pub fn into_array(self) -> S::Storage<T> {
        self.data
    }

    /// The element at `index`, or `None` if it is out of bounds.
    #[inline]
    pub fn get(&self, index: S::Index) -> Option<&T> {
        S::flat_position(index).map(|p| &self.as_slice()[p])
    }

    /// The same elements as shape `S2`, which must have as many (checked when
    /// the code is built; a copy of the elements). This is how a batch of
    /// one, `Shape![1, 16]` (whose first dim is [`One`], so that it
    /// broadcasts), becomes a `Shape![B, 16]` for code generic over
    /// `const B: usize` (where [`Self::into_exact_dims`] is one call),
    /// and back:
    ///
    /// ```
    /// use tensor_expr_runtime::{Tensor, D, One};
    /// let exact = Tensor::<f32, (D<1>, D<2>)>::new([[1., 2.]]);
    /// let broadcastable: Tensor<f32, (One, D<2>)> = exact.into_shape();
    /// assert_eq!(broadcastable.as_slice(), &[1., 2.]);
    /// ```
    pub fn into_shape<S2: Shape>(self) -> Tensor<T, S2>
    where
        T: Copy,
    {
        #[allow(clippy::let_unit_value)]
        let () = crate::shape::SameLen::<S, S2>::CHECKED;
        Tensor::try_from_slice(self.as_slice())
            .unwrap_or_else(|_| unreachable!("SameLen checked the counts"))
    }

    /// The same tensor with every [`One`] dim written `D<1>`
    /// ([`Shape::ExactDims`]): the one call that passes a batch of one,
    /// `Shape![1, 16]`, to code generic over `const B: usize`, which infers
    /// `B = 1` from it.
    ///
    /// ```
    /// use tensor_expr_runtime::{Tensor, D, One};
    /// fn rows<const B: usize>(_x: &Tensor<f32, (D<B>, D<2>)>) -> usize { B }
    /// let one = Tensor::<f32, (One, D<2>)>::new([[1., 2.]]);
    /// assert_eq!(rows(&one.into_exact_dims()), 1);
    /// ```
    pub fn into_exact_dims(self) -> Tensor<T, S::ExactDims>
    where
        T: Copy,
    {
        self.into_shape()
    }
}

impl<T: Clone, S: Shape> Clone for Tensor<T, S>
where
    S::Storage<T>: Clone,
{
    fn clone(&self) -> Self {
        Tensor {
            data: self.data.clone(),
        }
    }
}

impl<T: Copy, S: Shape> Copy for Tensor<T, S> where S::Storage<T>: Copy {}

impl<T: Default + Copy, S: Shape> Default for Tensor<T, S> {
    fn default() -> Self {
        Self::full(T::default())
    }
}

/// `[[T; n1]; n0]`-style nesting for the `From` impls.
macro_rules! nested_array {
    ($t:ty;) => { $t };
    ($t:ty; $n:tt $(, $rest:tt)*) => { [nested_array!($t; $($rest),*); $n] };
}

/// `From<nested array>` for every shape of a rank: each dim is either `D<N>` or
/// `One` (length 1), so a rank-r shape needs 2^r impls; a single generic impl over
/// `S::Storage<T>` would overlap core's `From<T> for T`.
macro_rules! from_nested_arrays {
    (@emit [$($n:ident)*] [$($dim:ty),*] [$($len:tt),*]) => {
        impl<T, $(const $n: usize),*> From<nested_array!(T; $($len),*)> for Tensor<T, ($($dim,)*)> {
            #[inline]
            fn from(data: nested_array!(T; $($len),*)) -> Self {
                Tensor { data }
            }
        }
    };
    (@go $n:tt $dim:tt $len:tt []) => { from_nested_arrays!(@emit $n $dim $len); };
    (@go [$($n:ident)*] [$($dim:ty),*] [$($len:tt),*] [$next:ident $($rest:ident)*]) => {
        from_nested_arrays!(@go [$($n)* $next] [$($dim,)* D<$next>] [$($len,)* $next] [$($rest)*]);
        from_nested_arrays!(@go [$($n)*] [$($dim,)* One] [$($len,)* 1] [$($rest)*]);
    };
    ($($rank:ident)*) => { from_nested_arrays!(@go [] [] [] [$($rank)*]); };
}
from_nested_arrays!();
from_nested_arrays!(N0);
from_nested_arrays!(N0 N1);
from_nested_arrays!(N0 N1 N2);
from_nested_arrays!(N0 N1 N2 N3);
from_nested_arrays!(N0 N1 N2 N3 N4);
from_nested_arrays!(N0 N1 N2 N3 N4 N5);
