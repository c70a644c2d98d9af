//! How a convolution reads its two inputs: stored elements as they are, or
//! narrow stored integers converted as they are read, with a constant
//! added (`conv2d(cast::<i32>(x) - zx, cast::<i32>(w), ..)` over `i8` data,
//! as TFLite's int8 kernels compute). The macro passes each input through
//! [`stored`] or [`widened`] (then [`plus`] or [`minus`] for the constant),
//! so an int8 convolution reads the bytes in place: no widened copy. A tap
//! in the padding contributes zero, as the padded value of the converted
//! input is zero, which is TFLite's behaviour for the input zero point.

use crate::access::{Contiguous, Operand};
use crate::element::{Cast, Element};
use crate::expr::{Context, Expr, Row, Shaped};
use crate::rules::elements::SameElement;
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// How an input's stored elements are read as the convolution's `T`.
pub trait Reader<T>: Copy {
    /// The stored element type.
    type Stored: Copy;
    /// One stored element as `T`.
    fn read(self, stored: Self::Stored) -> T;
    /// Whether the input is `i8` data read as `i32`, a constant added or
    /// not ([`Reader::int8`]): what the int8 kernel reads as bytes.
    const INT8: bool = false;
    /// What a convolution whose weights this reads keeps of them for the
    /// int8 kernel: nothing for stored elements read as they are (a
    /// field with a destructor in every node slowed float convolutions
    /// channels last: PERFORMANCE.md, "Int8 inference"), the packed
    /// weights for narrow integers.
    type Packed: Default;
    /// The int8 kernel's packed weights in `cell`, where it holds them.
    #[inline(always)]
    fn packed(_cell: &Self::Packed) -> Option<&super::int8::PackedWeights> {
        None
    }
    /// The stored data as bytes and the constant added to each, where
    /// [`Reader::INT8`] holds and the constant is an `i32`.
    #[inline(always)]
    fn int8(self, _data: &[Self::Stored]) -> Option<(&[i8], i32)> {
        None
    }
}

/// Stored elements read as they are.
pub struct Plain<T>(PhantomData<T>);

impl<T> Clone for Plain<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Plain<T> {}

impl<T: Copy> Reader<T> for Plain<T> {
    type Stored = T;
    type Packed = ();
    #[inline(always)]
    fn read(self, stored: T) -> T {
        stored
    }
}

/// Stored elements `N` converted with `as`, then offset as `O` says.
#[derive(Clone, Copy, Debug)]
pub struct Widen<N, O> {
    offset: O,
    narrow: PhantomData<N>,
}

impl<N: Element + Cast<T>, T: Element, O: Offset<T>> Reader<T> for Widen<N, O> {
    type Stored = N;
    type Packed = super::int8::PackedWeights;
    #[inline(always)]
    fn read(self, stored: N) -> T {
        self.offset.apply(stored.cast())
    }
    const INT8: bool = N::IS_INT8 && T::IS_I32;
    #[inline(always)]
    fn packed(cell: &Self::Packed) -> Option<&super::int8::PackedWeights> {
        Some(cell)
    }
    #[inline(always)]
    fn int8(self, data: &[N]) -> Option<(&[i8], i32)> {
        Some((N::int8_slice(data)?, self.offset.constant()?))
    }
}

/// A constant added to each converted element, or none.
pub trait Offset<T>: Copy {
    /// `value` offset.
    fn apply(self, value: T) -> T;
    /// The constant added, as an `i32`, where it is one.
    fn constant(self) -> Option<i32>;
}

/// No constant.
#[derive(Clone, Copy, Debug)]
pub struct NoOffset;

impl<T> Offset<T> for NoOffset {
    #[inline(always)]
    fn apply(self, value: T) -> T {
        value
    }
    #[inline(always)]
    fn constant(self) -> Option<i32> {
        Some(0)
    }
}

/// `value + c`.
#[derive(Clone, Copy, Debug)]
pub struct Plus<T>(T);

impl<T: Element> Offset<T> for Plus<T> {
    #[inline(always)]
    fn apply(self, value: T) -> T {
        value + self.0
    }
    #[inline(always)]
    fn constant(self) -> Option<i32> {
        self.0.to_i32()
    }
}

/// `value - c` (a zero point).
#[derive(Clone, Copy, Debug)]
pub struct Minus<T>(T);

impl<T: Element> Offset<T> for Minus<T> {
    #[inline(always)]
    fn apply(self, value: T) -> T {
        value - self.0
    }
    /// `-c`, wrapping where `c` is `i32::MIN`: the kernels' sums wrap
    /// as `i32` arithmetic does in a release build, and `x + (-c)` then
    /// equals `x - c`.
    #[inline(always)]
    fn constant(self) -> Option<i32> {
        Some(self.0.to_i32()?.wrapping_neg())
    }
}

/// One input of a convolution over elements `T`: its shape, its stored
/// data and how to read it.
pub trait ConvInput<'a, T> {
    /// The input's shape.
    type Shape: Shape;
    /// How its elements are read.
    type Reader: Reader<T>;
    /// The stored data (exactly `Shape::LEN` elements) and its reader.
    fn parts(self) -> (&'a [<Self::Reader as Reader<T>>::Stored], Self::Reader);
}

/// An input read as stored (`conv2d(x, w)`).
pub struct Stored<'a, E, S> {
    data: &'a [E],
    shape: PhantomData<S>,
}

impl<'a, T: Copy, S: Shape> ConvInput<'a, T> for Stored<'a, T, S> {
    type Shape = S;
    type Reader = Plain<T>;
    #[inline(always)]
    fn parts(self) -> (&'a [T], Plain<T>) {
        (self.data, Plain(PhantomData))
    }
}

/// An input of narrow integers `N` read converted to `T` and offset by
/// `O` (`cast::<i32>(x) - zx`).
pub struct Widened<'a, N, T, S, O> {
    data: &'a [N],
    offset: O,
    types: PhantomData<(T, S)>,
}

impl<'a, N, T, S, O> ConvInput<'a, T> for Widened<'a, N, T, S, O>
where
    N: Element + Cast<T>,
    T: Element,
    S: Shape,
    O: Offset<T>,
{
    type Shape = S;
    type Reader = Widen<N, O>;
    #[inline(always)]
    fn parts(self) -> (&'a [N], Widen<N, O>) {
        (
            self.data,
            Widen {
                offset: self.offset,
                narrow: PhantomData,
            },
        )
    }
}

/// A stored operand as a convolution's input, over the expression's
/// element type `T` (an operand of another type is reported here, once).
#[inline(always)]
#[rustfmt::skip]
pub fn stored<'a, T, M, X: Operand<T> + ?Sized>(_context: Context<T, M>, x: &'a X) -> Stored<'a, X::Element, X::Shape> where X::Layout: Contiguous {
    Stored { data: &x.elements()[..<X::Shape as Shape>::LEN], shape: PhantomData }
}

/// `cast::<U>(x)` of a stored operand `x` (elements `N`, the input's own
/// context `inner`) as a convolution's input over `T`: `U` must be `T`.
#[inline(always)]
#[rustfmt::skip]
#[allow(clippy::type_complexity)]
pub fn widened<'a, T, N, M, U, X: Operand<N> + ?Sized>(_context: Context<T, M>, _inner: Context<N, M>, _to: PhantomData<U>, x: &'a X) -> Widened<'a, X::Element, <U as SameElement<T>>::Checked, X::Shape, NoOffset> where X::Layout: Contiguous, U: SameElement<T> {
    Widened { data: &x.elements()[..<X::Shape as Shape>::LEN], offset: NoOffset, types: PhantomData }
}

/// `cast::<U>(x) + c`.
#[inline(always)]
pub fn plus<'a, N, T, S>(
    input: Widened<'a, N, T, S, NoOffset>,
    c: T,
) -> Widened<'a, N, T, S, Plus<T>> {
    input.offset_by(Plus(c))
}

/// `cast::<U>(x) - c`.
#[inline(always)]
pub fn minus<'a, N, T, S>(
    input: Widened<'a, N, T, S, NoOffset>,
    c: T,
) -> Widened<'a, N, T, S, Minus<T>> {
    input.offset_by(Minus(c))
}

impl<'a, N, T, S> Widened<'a, N, T, S, NoOffset> {
    /// The same input read with `offset` applied.
    #[inline(always)]
    fn offset_by<O>(self, offset: O) -> Widened<'a, N, T, S, O> {
        Widened {
            data: self.data,
            offset,
            types: PhantomData,
        }
    }
}

/// The value of a scalar node (a literal or an operand of shape `()`): the
/// constant of [`plus`] and [`minus`].
#[inline(always)]
pub fn scalar_value<T: Element, M, E: Expr<T> + Shaped<Shape = ()>>(
    _context: Context<T, M>,
    node: E,
) -> T {
    node.row::<()>([0; MAX_RANK]).get(0, T::ZERO)
}
