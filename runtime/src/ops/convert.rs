//! `cast::<U>(e)` and `saturating_cast::<U>(e)`: `e`'s elements converted to
//! element type `U`, elementwise, inside the expression.
//!
//! `e` is an expression over its own element type: the macro builds it in a
//! context of its own (its first operand's element type), so
//! `cast::<i32>(x) @ cast::<i32>(w)` over `i8` operands reads the `i8` data
//! and multiplies and sums in `i32`, with no widened copy. `cast` is Rust's
//! `as` ([`Cast`]): a float to an integer rounds toward zero and saturates
//! (NaN gives 0), an integer narrowed keeps its low bits (wraps).
//! `saturating_cast` clamps to `U`'s range first ([`SaturatingCast`]), as
//! quantised kernels narrow their accumulators.
//! (Examples: the `tensor-expr` crate's documentation of `element`.)

use super::{Build, Operation, Reads, Signature};
use crate::access::ElementSource;
use crate::element::{Cast, Element, SaturatingCast};
use crate::expr::{
    Context, Expr, Int8Layer, Int8Matrix, Int8Row, OfElements, Own, Row, Shaped, Stage, Tile,
    TileOrigin,
};
use crate::rules::elements::SameElement;
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// How both are written.
const SIGNATURE: Signature = Signature {
    dims_optional: true,
    type_arg: true,
    ..Signature::of(1)
};

/// The table entry of `cast::<U>(e)`.
pub const CAST: Operation = Operation {
    name: "cast",
    signature: SIGNATURE,
    reads: Reads::Converts,
    build: Build::Node {
        constructor: "convert::convert",
        marker: Some("convert::AS_CAST"),
    },
    elements: "Element",
    summary: "Each element converted to `U` as Rust's `as` does (integers narrowed wrap).",
    forms: &["cast::<U>(e)"],
};

/// The table entry of `saturating_cast::<U>(e)`.
pub const SATURATING_CAST: Operation = Operation {
    name: "saturating_cast",
    signature: SIGNATURE,
    reads: Reads::Converts,
    build: Build::Node {
        constructor: "convert::convert",
        marker: Some("convert::SATURATING"),
    },
    elements: "Element",
    summary: "Each element clamped to the range of `U`, then converted to `U`.",
    forms: &["saturating_cast::<U>(e)"],
};

/// The conversion of `cast`: Rust's `as`.
#[derive(Clone, Copy, Debug)]
pub struct AsCast;

/// The conversion of `saturating_cast`: clamped to the target's range.
#[derive(Clone, Copy, Debug)]
pub struct Saturating;

/// `cast`'s marker, as a value.
pub const AS_CAST: AsCast = AsCast;

/// `saturating_cast`'s marker, as a value.
pub const SATURATING: Saturating = Saturating;

/// How a conversion converts one pair of element types.
pub trait ConversionKind {
    /// Whether it clamps to the target's range.
    const SATURATES: bool;
    /// `x` converted to `U`.
    fn apply<F: Cast<U> + SaturatingCast<U>, U>(x: F) -> U;
}

impl ConversionKind for AsCast {
    const SATURATES: bool = false;
    #[inline(always)]
    fn apply<F: Cast<U> + SaturatingCast<U>, U>(x: F) -> U {
        x.cast()
    }
}

impl ConversionKind for Saturating {
    const SATURATES: bool = true;
    #[inline(always)]
    fn apply<F: Cast<U> + SaturatingCast<U>, U>(x: F) -> U {
        x.saturating_cast()
    }
}

/// The rule that elements `F` convert to `U` by the conversion `Self`:
/// both are element types. The constructor types its node through `To`,
/// so a type that is no element is one error, by this message.
#[diagnostic::on_unimplemented(
    message = "cannot convert `{F}` elements to `{U}`",
    label = "`{U}` is not a tensor element type",
    note = "tensor elements are f32, f64 and the primitive integer types"
)]
pub trait Conversion<F, U> {
    /// `U`.
    type To;
    /// Whether it clamps to `U`'s range (`saturating_cast`).
    const SATURATES: bool;
    /// `x` converted.
    fn convert(x: F) -> U;
}

/// [`Conversion`] for each conversion. Not recommended, so that rustc
/// reports the rule's message rather than the bounds inside it; `To` is a
/// projection, so that where `U` is no element type nothing resolves and
/// nothing downstream reports it again.
macro_rules! impl_conversion {
    ($($kind:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl<F, U> Conversion<F, U> for $kind
        where
            F: Element + Cast<U> + SaturatingCast<U>,
            U: Element,
        {
            type To = <U as ElementSource>::Element;
            const SATURATES: bool = <$kind as ConversionKind>::SATURATES;
            #[inline(always)]
            fn convert(x: F) -> U {
                <$kind as ConversionKind>::apply(x)
            }
        }
    )*};
}
impl_conversion!(AsCast, Saturating);

/// `e` (over elements `F`) converted by `K` to elements `U`.
#[derive(Clone, Copy, Debug)]
pub struct Convert<U, F, K, E> {
    input: E,
    types: PhantomData<(U, F, K)>,
}

/// Builds `cast::<U>(input)` or `saturating_cast::<U>(input)`: `outer` is
/// the enclosing expression's context, `inner` the input's. The node's type
/// goes through the conversion, then through the rule that the converted
/// elements are the enclosing expression's ([`SameElement`]), so each
/// mistake is one error at the name.
#[inline(always)]
#[rustfmt::skip]
#[allow(clippy::type_complexity)]
pub fn convert<T, U, F, M, K: Conversion<F, U>, E: Shaped>(_outer: Context<T, M>, _inner: Context<F, M>, _kind: K, _to: PhantomData<U>, input: E) -> Convert<<K::To as SameElement<T>>::Checked, F, K, E> where K::To: SameElement<T> {
    Convert { input, types: PhantomData }
}

impl<U, F, K, E> Convert<U, F, K, E> {
    /// The converted node (what a convolution reads in place).
    #[inline(always)]
    pub(crate) fn into_input(self) -> E {
        self.input
    }
}

impl<U, F, K, E: Shaped> Shaped for Convert<U, F, K, E> {
    type Shape = E::Shape;
}

/// The input's reader (a row or a tile), its values converted.
struct Converted<Rd, F, K> {
    input: Rd,
    types: PhantomData<(F, K)>,
}

impl<Rd, F, K> Converted<Rd, F, K> {
    #[inline(always)]
    fn new(input: Rd) -> Self {
        Converted {
            input,
            types: PhantomData,
        }
    }
}

/// The kernel scratch of a conversion ([`Expr::KernelScratch`]): its
/// input's where it narrows an `i32` layer's chain to `i8` by saturation
/// (the whole int8 layer), none otherwise.
pub struct StoredLayer<U, F, K, S>(PhantomData<(U, F, K, S)>);

impl<U, F, K, S> crate::scratch::KernelScratch for StoredLayer<U, F, K, S>
where
    U: Element + Cast<F>,
    F: Element,
    K: Conversion<F, U>,
    S: crate::scratch::KernelScratch,
{
    const BYTES: usize = if F::IS_I32 && U::IS_INT8 && K::SATURATES {
        S::BYTES
    } else {
        0
    };
    const WRITES_OVER_INPUT: bool = F::IS_I32 && U::IS_INT8 && K::SATURATES && S::WRITES_OVER_INPUT;
}

unsafe impl<U, F, K, E> Expr<U> for Convert<U, F, K, E>
where
    U: Element + Cast<F>,
    F: Element,
    K: Conversion<F, U>,
    E: Expr<F>,
{
    type Children = (OfElements<F, E>,);
    // `saturating_cast::<i8>` of an `i32` layer's chain stores the layer.
    type KernelScratch = StoredLayer<U, F, K, E::KernelScratch>;
    #[inline(always)]
    fn children(&self) -> (&E,) {
        (&self.input,)
    }
    // `i8` data widened to `i32` (by either conversion, both exact) is what
    // the widening product reads as bytes.
    const OWN: Own = Own {
        int8: F::IS_INT8 && U::IS_I32 && E::OWN.stored,
        // An int8 layer's values narrowed by `saturating_cast::<i8>`: the
        // whole layer.
        layer: if F::IS_I32 && U::IS_INT8 && K::SATURATES {
            E::OWN.layer.stored()
        } else {
            Stage::None
        },
        ..Own::ELEMENTWISE
    };

    #[inline(always)]
    fn int8_layer<O: Shape>(&self) -> Option<Int8Layer<'_>> {
        if const { matches!(Self::OWN.layer, Stage::None) } {
            return None;
        }
        self.input
            .int8_layer::<O>()?
            .then(|e, _| Some(e.max(i32::from(i8::MIN)).min(i32::from(i8::MAX))))
    }

    #[inline(always)]
    fn int8_row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<Int8Row<'_>> {
        let bytes = F::int8_slice(self.input.stored_row::<O>(outer)?)?;
        Some(Int8Row { bytes, offset: 0 })
    }

    #[inline(always)]
    fn int8_matrix<O: Shape>(
        &self,
        outer: [usize; MAX_RANK],
        axis: usize,
    ) -> Option<Int8Matrix<'_>> {
        let rows = self.input.stored_matrix::<O>(outer, axis)?;
        Some(Int8Matrix {
            bytes: F::int8_slice(rows.data)?,
            stride: rows.stride,
        })
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<U> + '_ {
        Converted::<_, F, K>::new(self.input.row::<O>(outer))
    }

    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<U> + '_ {
        Converted::<_, F, K>::new(self.input.row_fresh::<O>(outer))
    }

    #[inline(always)]
    fn flat_row(&self) -> impl Row<U> + '_ {
        Converted::<_, F, K>::new(self.input.flat_row())
    }

    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl Tile<U> + '_ {
        Converted::<_, F, K>::new(self.input.tile::<O, R, C, FUSE>(at, j0))
    }
}

// The target's present value passes through converted back: the input can
// read the target only where its element type is the target's (`F == U`,
// where the conversion is the identity); elsewhere the value is unused.
impl<U: Cast<F>, F, K: Conversion<F, U>, Rw: Row<F>> Row<U> for Converted<Rw, F, K> {
    #[inline(always)]
    fn get(&self, j: usize, current: U) -> U {
        K::convert(self.input.get(j, current.cast()))
    }
}

impl<U: Cast<F>, F, K: Conversion<F, U>, Tl: Tile<F>> Tile<U> for Converted<Tl, F, K> {
    #[inline(always)]
    fn get(&self, r: usize, j: usize, current: U) -> U {
        K::convert(self.input.get(r, j, current.cast()))
    }
}
