//! How a convolution or pool reads its inputs: the expression's own nodes
//! for a stored operand (a leaf), `cast::<U>(x)` of one (a conversion) and
//! `cast::<U>(x) + c` or `- c` (an elementwise node over the conversion and
//! a scalar), each read in place through its stored elements. So an int8
//! convolution (`conv2d(cast::<i32>(x) - zx, cast::<i32>(w), ..)` over `i8`
//! data, as TFLite's int8 kernels compute) reads the bytes: no widened copy.
//! The same nodes are what a matrix product reads as bytes
//! ([`Expr::int8_row`]), so the two kinds of operation recognise a widened
//! operand by the same types; the macro builds these nodes, unstaged, where
//! a convolution's input is written in one of these forms
//! (`ast::Expr::widened_operand`). A tap in the padding
//! contributes zero, as the padded value of the converted input is zero,
//! which is TFLite's behaviour for the input zero point.

use crate::access::{Contiguous, Layout};
use crate::element::Element;
use crate::expr::{BinaryFunction, Expr, Map2, Row, Shaped, StridedLeaf, TargetLeaf};
use crate::ops::convert::{Conversion, Convert};
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

    /// The stored data as `f32` values read as they are: what the float
    /// convolution's kernel reads.
    #[inline(always)]
    fn float(self, _data: &[Self::Stored]) -> Option<&[f32]> {
        None
    }

    /// Whether the input is the destination the expression is written
    /// over ([`Destination`]): an int8 layer's, stored over it by the
    /// int8 kernels, never read element by element.
    const IS_DESTINATION: bool = false;
}

/// The input of an int8 layer written over it (a planned program's
/// statement, [`crate::program::evaluate_layer_over_input`]): `R` reads
/// the destination's bytes, which the convolution's node does not hold
/// (its data is empty); the kernels read them from the destination.
pub struct Destination<R>(R);

impl<R: Clone> Clone for Destination<R> {
    fn clone(&self) -> Self {
        Destination(self.0.clone())
    }
}

impl<R: Copy> Copy for Destination<R> {}

impl<T, R: Reader<T>> Reader<T> for Destination<R> {
    type Stored = R::Stored;
    type Packed = R::Packed;
    #[inline(always)]
    fn read(self, stored: R::Stored) -> T {
        self.0.read(stored)
    }
    const INT8: bool = R::INT8;
    #[inline(always)]
    fn packed(cell: &Self::Packed) -> Option<&super::int8::PackedWeights> {
        R::packed(cell)
    }
    #[inline(always)]
    fn int8(self, data: &[R::Stored]) -> Option<(&[i8], i32)> {
        self.0.int8(data)
    }
    const IS_DESTINATION: bool = true;
}

/// Stored elements read as they are.
pub struct Plain<T>(PhantomData<T>);

impl<T> Clone for Plain<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Plain<T> {}

impl<T: Element> Reader<T> for Plain<T> {
    type Stored = T;
    type Packed = ();
    #[inline(always)]
    fn read(self, stored: T) -> T {
        stored
    }
    #[inline(always)]
    fn float(self, data: &[T]) -> Option<&[f32]> {
        T::f32_slice(data)
    }
}

/// Stored elements `N` converted to `T` as the conversion `K` does
/// (`cast` or `saturating_cast`), then offset as `O` says.
pub struct Widen<N, K, O> {
    offset: O,
    types: PhantomData<(N, K)>,
}

impl<N, K, O: Clone> Clone for Widen<N, K, O> {
    fn clone(&self) -> Self {
        Widen {
            offset: self.offset.clone(),
            types: PhantomData,
        }
    }
}

impl<N, K, O: Copy> Copy for Widen<N, K, O> {}

impl<N: Element, T: Element, K: Conversion<N, T>, O: Offset<T>> Reader<T> for Widen<N, K, O> {
    type Stored = N;
    type Packed = super::int8::PackedWeights;
    #[inline(always)]
    fn read(self, stored: N) -> T {
        self.offset.apply(K::convert(stored))
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

/// `value + c` or `value - c`, as the elementwise node's function `F`
/// computes it ([`BinaryFunction::OFFSET_SIGN`] says which).
pub struct Constant<T, F> {
    value: T,
    function: PhantomData<F>,
}

impl<T: Copy, F> Clone for Constant<T, F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Copy, F> Copy for Constant<T, F> {}

impl<T: Element, F: BinaryFunction<T>> Offset<T> for Constant<T, F> {
    #[inline(always)]
    fn apply(self, value: T) -> T {
        F::apply(value, self.value)
    }
    /// `c` or `-c`, wrapping where `c` is `i32::MIN`: the kernels' sums
    /// wrap as `i32` arithmetic does in a release build, and `x + (-c)`
    /// then equals `x - c`.
    #[inline(always)]
    fn constant(self) -> Option<i32> {
        Some(F::OFFSET_SIGN.wrapping_mul(self.value.to_i32()?))
    }
}

/// One input of a convolution or pool over elements `T`, read in place:
/// its shape, its stored data and how to read it.
#[diagnostic::on_unimplemented(
    message = "a convolution or pool reads its input in place: a contiguous operand `x`, `cast::<U>(x)`, or that plus or minus a scalar",
    label = "read in place here",
    note = "copy a strided view first (`.to_tensor()`); a zero point `c` is one value (a literal, or an operand of shape `()`)"
)]
pub trait ConvInput<'a, T> {
    /// The input's shape.
    type Shape: Shape;
    /// How its elements are read.
    type Reader: Reader<T>;
    /// The stored data (exactly `Shape::LEN` elements) and its reader.
    fn parts(self) -> (&'a [<Self::Reader as Reader<T>>::Stored], Self::Reader);
}

/// A stored operand read as it is (`conv2d(x, w)`).
#[diagnostic::do_not_recommend]
impl<'a, T: Element, L: Layout + Contiguous> ConvInput<'a, T> for StridedLeaf<'a, T, L> {
    type Shape = L::Shape;
    type Reader = Plain<T>;
    #[inline(always)]
    fn parts(self) -> (&'a [T], Plain<T>) {
        (self.data(), Plain(PhantomData))
    }
}

/// `cast::<U>(x)` of a stored operand of elements `N`, read as `U`.
#[diagnostic::do_not_recommend]
impl<'a, U, N, K, L> ConvInput<'a, U> for Convert<U, N, K, StridedLeaf<'a, N, L>>
where
    U: Element,
    N: Element,
    K: Conversion<N, U>,
    L: Layout + Contiguous,
{
    type Shape = L::Shape;
    type Reader = Widen<N, K, NoOffset>;
    #[inline(always)]
    fn parts(self) -> (&'a [N], Widen<N, K, NoOffset>) {
        let reader = Widen {
            offset: NoOffset,
            types: PhantomData,
        };
        (self.into_input().data(), reader)
    }
}

/// `cast::<U>(x) + c` or `cast::<U>(x) - c` (a zero point), `c` a scalar:
/// `F` is the node's function, one that adds or subtracts a constant
/// ([`BinaryFunction::OFFSET_SIGN`]; checked where the node is built).
#[diagnostic::do_not_recommend]
impl<'a, T, F, N, K, L, C, S> ConvInput<'a, T>
    for Map2<T, F, Convert<T, N, K, StridedLeaf<'a, N, L>>, C, S>
where
    T: Element,
    F: BinaryFunction<T>,
    N: Element,
    K: Conversion<N, T>,
    L: Layout + Contiguous,
    C: Expr<T> + Shaped<Shape = ()>,
{
    type Shape = L::Shape;
    type Reader = Widen<N, K, Constant<T, F>>;
    #[inline(always)]
    fn parts(self) -> (&'a [N], Widen<N, K, Constant<T, F>>) {
        let (converted, constant) = self.into_operands();
        (converted.into_input().data(), offset_reader(constant))
    }
}

/// The reader of `cast::<T>(x) + c` or `- c` (`F` says which), `c` the
/// scalar node `constant`.
#[inline(always)]
fn offset_reader<T, F, N, K, C>(constant: C) -> Widen<N, K, Constant<T, F>>
where
    T: Element,
    F: BinaryFunction<T>,
    C: Expr<T> + Shaped<Shape = ()>,
{
    const {
        assert!(
            F::OFFSET_SIGN != 0,
            "the node adds or subtracts its constant"
        )
    };
    Widen {
        offset: Constant {
            value: constant.row::<()>([0; MAX_RANK]).get(0, T::ZERO),
            function: PhantomData,
        },
        types: PhantomData,
    }
}

/// `cast::<U>(d)` of the destination `d` a layer is written over
/// ([`Destination`]): no data of its own.
#[diagnostic::do_not_recommend]
impl<'a, U, N, K, S> ConvInput<'a, U> for Convert<U, N, K, TargetLeaf<S>>
where
    U: Element,
    N: Element,
    K: Conversion<N, U>,
    S: Shape,
{
    type Shape = S;
    type Reader = Destination<Widen<N, K, NoOffset>>;
    #[inline(always)]
    fn parts(self) -> (&'a [N], Self::Reader) {
        let reader = Widen {
            offset: NoOffset,
            types: PhantomData,
        };
        (&[], Destination(reader))
    }
}

/// `cast::<U>(d) + c` or `- c` of the destination `d` a layer is written
/// over ([`Destination`]): no data of its own.
#[diagnostic::do_not_recommend]
impl<'a, T, F, N, K, S, C, S2> ConvInput<'a, T>
    for Map2<T, F, Convert<T, N, K, TargetLeaf<S>>, C, S2>
where
    T: Element,
    F: BinaryFunction<T>,
    N: Element,
    K: Conversion<N, T>,
    S: Shape,
    C: Expr<T> + Shaped<Shape = ()>,
{
    type Shape = S;
    type Reader = Destination<Widen<N, K, Constant<T, F>>>;
    #[inline(always)]
    fn parts(self) -> (&'a [N], Self::Reader) {
        let (_, constant) = self.into_operands();
        (&[], Destination(offset_reader(constant)))
    }
}
