//! Interior nodes: a function applied to one, two or three sub-expressions.
//!
//! The constructors are what `tensor_expr!` calls, spanned on the operator or the
//! function name, so their bounds are where errors are reported: the function's
//! element domain, one element type for all operands, and the broadcast rule.
//!
//! One mistake, one error. Every rule is a bound of exactly one constructor,
//! and nothing downstream re-derives it:
//! - the element type `T` comes from a [`Context`] witness the macro binds
//!   first (the target's, else the first operand's), and leaves are converted to
//!   `T` by [`super::operand`], so a parent never re-checks a child's element type;
//! - the context also carries the mode: in `strict:` mode [`RankRule`] requires
//!   equal ranks or a scalar; in the default NumPy mode it always holds;
//! - a function's domain is [`Domain`] (over
//!   [`Defined`](super::function::Defined)), required only here, and the
//!   node's function parameter is computed through it, so a type outside the
//!   domain is reported by [`Defined`](super::function::Defined)'s message
//!   with no note; the nodes' own `Expr` impls need the `apply` traits, which
//!   hold wherever the domain does (and the function parameter of a node
//!   built outside it is rustc's error type, so nothing reports it again);
//! - the shape `S` is a parameter computed here by projection (through
//!   [`RankRule::Checked`], then [`Broadcast::Output`]): a failing pair of dims
//!   is reported while rustc normalises that projection, by the message of
//!   [`BroadcastAt`](crate::rules::broadcast::BroadcastAt) and without a note
//!   pointing here; `S` then stays unresolved and later uses are ambiguous,
//!   which rustc does not report after an error.

use super::function::{BinaryFunction, Domain, TernaryFunction, UnaryFunction};
use super::layer::{Int8Layer, LayerStep, PerChannel, Requantization, Stage};
use super::{reading, Context, Expr, Own, Row, Shaped, Tile, TileOrigin};
use crate::element::Element;
use crate::rules::broadcast::Broadcast;
use crate::rules::rank::RankRule;
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// `F(a)` over elements `T`, elementwise, of shape `S`.
#[derive(Clone, Copy, Debug)]
pub struct Map1<T, F, A, S> {
    a: A,
    types: PhantomData<(T, F, S)>,
}

/// `F(a, b)` over elements `T`, elementwise with broadcasting, of shape `S`.
#[derive(Clone, Copy, Debug)]
pub struct Map2<T, F, A, B, S> {
    a: A,
    b: B,
    types: PhantomData<(T, F, S)>,
}

impl<T, F, A, B, S> Map2<T, F, A, B, S> {
    /// The two operands (what a convolution reads in place of
    /// `cast::<U>(x) - c`).
    #[inline(always)]
    pub(crate) fn into_operands(self) -> (A, B) {
        (self.a, self.b)
    }
}

/// `F(a, b, c)` over elements `T`, elementwise with broadcasting, of shape `S`.
#[derive(Clone, Copy, Debug)]
pub struct Map3<T, F, A, B, C, S> {
    a: A,
    b: B,
    c: C,
    types: PhantomData<(T, F, S)>,
}

/// Shapes `X` and `Y` broadcast under mode `M`: `M`'s rank rule, then the
/// NumPy rule. Through [`RankRule::Checked`], so both are projections and a
/// failure of either is reported by itself (see the module doc).
type RankedBroadcast<X, Y, M> = <<X as RankRule<Y, M>>::Checked as Broadcast<Y>>::Output;

/// The shape of `f(a, b)` under mode `M`.
type Ranked2<A, B, M> = RankedBroadcast<<A as Shaped>::Shape, <B as Shaped>::Shape, M>;

/// The shape of `f(a, b, c)` under mode `M`.
type Ranked3<A, B, C, M> = RankedBroadcast<Ranked2<A, B, M>, <C as Shaped>::Shape, M>;

/// Builds `f(a)`; `f` must be defined for the element type. (One-line
/// signature: rustc quotes it in the note of every domain error.)
#[inline(always)]
#[rustfmt::skip]
pub fn map1<T, M, F: Domain<T>, A: Shaped>(_context: Context<T, M>, _f: F, a: A) -> Map1<T, F::Function, A, A::Shape> {
    Map1 { a, types: PhantomData }
}

/// Builds `f(a, b)`; one element type, and shapes that broadcast together.
///
/// The signature is one line on purpose: should rustc quote it in a note (it
/// does not for the shape rules, see the module doc), one line keeps it short.
#[inline(always)]
#[rustfmt::skip]
#[allow(clippy::type_complexity)]
pub fn map2<T, M, F: Domain<T>, A: Shaped, B: Shaped>(_context: Context<T, M>, _f: F, a: A, b: B) -> Map2<T, F::Function, A, B, Ranked2<A, B, M>> where A::Shape: RankRule<B::Shape, M>, <A::Shape as RankRule<B::Shape, M>>::Checked: Broadcast<B::Shape> {
    Map2 { a, b, types: PhantomData }
}

/// Builds `f(a, b, c)`; one element type, and shapes that broadcast together.
#[inline(always)]
#[allow(clippy::type_complexity)]
pub fn map3<T, M, F, A, B, C>(
    _context: Context<T, M>,
    _f: F,
    a: A,
    b: B,
    c: C,
) -> Map3<T, F::Function, A, B, C, Ranked3<A, B, C, M>>
where
    F: Domain<T>,
    A: Shaped,
    B: Shaped,
    C: Shaped,
    A::Shape: RankRule<B::Shape, M>,
    <A::Shape as RankRule<B::Shape, M>>::Checked: Broadcast<B::Shape>,
    Ranked2<A, B, M>: RankRule<C::Shape, M>,
    <Ranked2<A, B, M> as RankRule<C::Shape, M>>::Checked: Broadcast<C::Shape>,
{
    Map3 {
        a,
        b,
        c,
        types: PhantomData,
    }
}

/// Builds `F(a, b)` of shape `S` without checking anything, for callers whose own
/// bounds already guarantee the shapes fit (the in-place update).
#[inline(always)]
pub(crate) fn map2_unchecked<T, F, A, B, S>(a: A, b: B) -> Map2<T, F, A, B, S> {
    Map2 {
        a,
        b,
        types: PhantomData,
    }
}

impl<T, F, A, S: Shape> Shaped for Map1<T, F, A, S> {
    type Shape = S;
}

impl<T, F, A, B, S: Shape> Shaped for Map2<T, F, A, B, S> {
    type Shape = S;
}

impl<T, F, A, B, C, S: Shape> Shaped for Map3<T, F, A, B, C, S> {
    type Shape = S;
}

unsafe impl<T: Element, F: UnaryFunction<T>, A: Expr<T>, S: Shape> Expr<T> for Map1<T, F, A, S> {
    type Children = (A,);
    // An int8 layer's chain runs through `A`.
    type KernelScratch = A::KernelScratch;
    #[inline(always)]
    fn children(&self) -> (&A,) {
        (&self.a,)
    }
    // `relu` of a requantised layer's values clamps them.
    const OWN: Own = Own {
        layer: A::OWN.layer.after(F::LAYER_STEP, 0, T::IS_I32),
        ..Own::ELEMENTWISE
    };
    #[inline(always)]
    fn int8_layer<O: Shape>(&self) -> Option<Int8Layer<'_>> {
        if const { matches!(Self::OWN.layer, Stage::None) } {
            return None;
        }
        self.a.int8_layer::<O>()?.then(|e, _| match F::LAYER_STEP {
            LayerStep::Relu => Some(e.max(0)),
            _ => None,
        })
    }
    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        Apply1 {
            a: self.a.row::<O>(outer),
            function: PhantomData::<F>,
        }
    }
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        Apply1 {
            a: self.a.row_fresh::<O>(outer),
            function: PhantomData::<F>,
        }
    }
    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        Apply1 {
            a: self.a.flat_row(),
            function: PhantomData::<F>,
        }
    }
    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl Tile<T> + '_ {
        Apply1 {
            a: self.a.tile::<O, R, C, FUSE>(at, j0),
            function: PhantomData::<F>,
        }
    }
}

unsafe impl<T: Element, F: BinaryFunction<T>, A: Expr<T>, B: Expr<T>, S: Shape> Expr<T>
    for Map2<T, F, A, B, S>
{
    type Children = (A, B);
    type KernelScratch = A::KernelScratch;
    #[inline(always)]
    fn children(&self) -> (&A, &B) {
        (&self.a, &self.b)
    }
    // `cast::<i32>(x) - zx`: an int8 operand plus a constant.
    const OWN: Own = Own {
        int8: F::OFFSET_SIGN != 0
            && A::OWN.int8
            && matches!(reading::<T, B>().flat, super::Flat::Splat),
        // A bias, a zero point or a clamp of an int8 layer.
        layer: A::OWN.layer.after(F::LAYER_STEP, F::OFFSET_SIGN, T::IS_I32),
        ..Own::ELEMENTWISE
    };
    #[inline(always)]
    fn int8_layer<O: Shape>(&self) -> Option<Int8Layer<'_>> {
        if const { matches!(Self::OWN.layer, Stage::None) } {
            return None;
        }
        self.a.int8_layer::<O>()?.then(|e, axis| {
            Some(match (A::OWN.layer, F::LAYER_STEP) {
                (Stage::Sums, LayerStep::None) => Requantization {
                    bias: per_channel::<T, O, B>(&self.b, axis)?,
                    ..e
                },
                (Stage::Requantized, LayerStep::None) => {
                    let value = constant::<T, O, B>(&self.b)?;
                    Requantization {
                        offset: e.offset.wrapping_add(F::OFFSET_SIGN.wrapping_mul(value)),
                        ..e
                    }
                }
                (_, LayerStep::Max) => e.max(constant::<T, O, B>(&self.b)?),
                (_, LayerStep::Min) => e.min(constant::<T, O, B>(&self.b)?),
                _ => return None,
            })
        })
    }
    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        Apply2 {
            a: self.a.row::<O>(outer),
            b: self.b.row::<O>(outer),
            function: PhantomData::<F>,
        }
    }
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        Apply2 {
            a: self.a.row_fresh::<O>(outer),
            b: self.b.row_fresh::<O>(outer),
            function: PhantomData::<F>,
        }
    }
    #[inline(always)]
    fn stored_factors<O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<(&[T], &[T])> {
        if const { !F::IS_PRODUCT } {
            return None;
        }
        Some((
            self.a.stored_row::<O>(outer)?,
            self.b.stored_row::<O>(outer)?,
        ))
    }
    #[inline(always)]
    fn int8_row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> Option<super::Int8Row<'_>> {
        let row = self.a.int8_row::<O>(outer)?;
        let constant = self.b.row::<O>(outer).get(0, T::ZERO).to_i32()?;
        Some(super::Int8Row {
            offset: row
                .offset
                .wrapping_add(F::OFFSET_SIGN.wrapping_mul(constant)),
            ..row
        })
    }
    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        Apply2 {
            a: self.a.flat_row(),
            b: self.b.flat_row(),
            function: PhantomData::<F>,
        }
    }
    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl Tile<T> + '_ {
        Apply2 {
            a: self.a.tile::<O, R, C, FUSE>(at, j0),
            b: self.b.tile::<O, R, C, FUSE>(at, j0),
            function: PhantomData::<F>,
        }
    }
}

unsafe impl<T, F, A, B, C, S> Expr<T> for Map3<T, F, A, B, C, S>
where
    T: Element,
    F: TernaryFunction<T>,
    A: Expr<T>,
    B: Expr<T>,
    C: Expr<T>,
    S: Shape,
{
    type Children = (A, B, C);
    type KernelScratch = A::KernelScratch;
    #[inline(always)]
    fn children(&self) -> (&A, &B, &C) {
        (&self.a, &self.b, &self.c)
    }
    // The requantisation, or a clamp, of an int8 layer.
    const OWN: Own = Own {
        layer: A::OWN.layer.after(F::LAYER_STEP, 0, T::IS_I32),
        ..Own::ELEMENTWISE
    };
    #[inline(always)]
    fn int8_layer<O: Shape>(&self) -> Option<Int8Layer<'_>> {
        if const { matches!(Self::OWN.layer, Stage::None) } {
            return None;
        }
        self.a.int8_layer::<O>()?.then(|e, axis| {
            Some(match F::LAYER_STEP {
                LayerStep::Requantize => Requantization {
                    multiplier: per_channel::<T, O, B>(&self.b, axis)?,
                    shift: per_channel::<T, O, C>(&self.c, axis)?,
                    ..e
                },
                LayerStep::Clamp => e
                    .max(constant::<T, O, B>(&self.b)?)
                    .min(constant::<T, O, C>(&self.c)?),
                _ => return None,
            })
        })
    }
    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        Apply3 {
            a: self.a.row::<O>(outer),
            b: self.b.row::<O>(outer),
            c: self.c.row::<O>(outer),
            function: PhantomData::<F>,
        }
    }
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        Apply3 {
            a: self.a.row_fresh::<O>(outer),
            b: self.b.row_fresh::<O>(outer),
            c: self.c.row_fresh::<O>(outer),
            function: PhantomData::<F>,
        }
    }
    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        Apply3 {
            a: self.a.flat_row(),
            b: self.b.flat_row(),
            c: self.c.flat_row(),
            function: PhantomData::<F>,
        }
    }
    #[inline(always)]
    fn tile<O: Shape, const R: usize, const N: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl Tile<T> + '_ {
        Apply3 {
            a: self.a.tile::<O, R, N, FUSE>(at, j0),
            b: self.b.tile::<O, R, N, FUSE>(at, j0),
            c: self.c.tile::<O, R, N, FUSE>(at, j0),
            function: PhantomData::<F>,
        }
    }
}

/// The value of `b`, an `i32` constant over the whole output (a zero
/// point, a clamp's bound), where it is one.
#[inline(always)]
fn constant<T: Element, O: Shape, B: Expr<T>>(b: &B) -> Option<i32> {
    if const { !matches!(reading::<T, B>().flat, super::Flat::Splat) } {
        return None;
    }
    b.row::<O>([0; MAX_RANK]).get(0, T::ZERO).to_i32()
}

/// `b` as an int8 layer's epilogue reads it per output channel, the
/// channels along dim `axis` of `O`: a constant, or stored `i32`s read
/// along that dim alone (a bias, a per-channel multiplier).
#[inline(always)]
fn per_channel<T: Element, O: Shape, B: Expr<T>>(b: &B, axis: usize) -> Option<PerChannel<'_>> {
    if let Some(value) = constant::<T, O, B>(b) {
        return Some(PerChannel::All(value));
    }
    Some(PerChannel::Each(T::i32_slice(
        b.broadcast_along::<O>(axis)?,
    )?))
}

/// `F` applied to the readers of the children: a row reader over child rows, or
/// a tile reader over child tiles.
struct Apply1<F, A> {
    a: A,
    function: PhantomData<F>,
}

/// See [`Apply1`]. The first child last in memory (`repr(C)`): a tile of
/// `x @ w + b` holds the product's sums, an array read at a variable
/// index, and an index into an array only reaches forward, so LLVM knows
/// such a read does not see the other children's readers stored before
/// it and drops their stores (PERFORMANCE.md, "Code size and stack of
/// small dense layers", measures the int8 dense layer's code).
#[repr(C)]
struct Apply2<F, A, B> {
    b: B,
    function: PhantomData<F>,
    a: A,
}

/// See [`Apply1`]; the first child last in memory, as in [`Apply2`].
#[repr(C)]
struct Apply3<F, A, B, C> {
    b: B,
    c: C,
    function: PhantomData<F>,
    a: A,
}

impl<T: Copy, F: UnaryFunction<T>, A: Row<T>> Row<T> for Apply1<F, A> {
    #[inline(always)]
    fn get(&self, j: usize, current: T) -> T {
        F::apply(self.a.get(j, current))
    }
}

impl<T: Copy, F: BinaryFunction<T>, A: Row<T>, B: Row<T>> Row<T> for Apply2<F, A, B> {
    #[inline(always)]
    fn get(&self, j: usize, current: T) -> T {
        F::apply(self.a.get(j, current), self.b.get(j, current))
    }
}

impl<T: Copy, F: TernaryFunction<T>, A: Row<T>, B: Row<T>, C: Row<T>> Row<T>
    for Apply3<F, A, B, C>
{
    #[inline(always)]
    fn get(&self, j: usize, current: T) -> T {
        F::apply(
            self.a.get(j, current),
            self.b.get(j, current),
            self.c.get(j, current),
        )
    }
}

impl<T: Copy, F: UnaryFunction<T>, A: Tile<T>> Tile<T> for Apply1<F, A> {
    #[inline(always)]
    fn get(&self, r: usize, j: usize, current: T) -> T {
        F::apply(self.a.get(r, j, current))
    }
}

impl<T: Copy, F: BinaryFunction<T>, A: Tile<T>, B: Tile<T>> Tile<T> for Apply2<F, A, B> {
    #[inline(always)]
    fn get(&self, r: usize, j: usize, current: T) -> T {
        F::apply(self.a.get(r, j, current), self.b.get(r, j, current))
    }
}

impl<T: Copy, F: TernaryFunction<T>, A: Tile<T>, B: Tile<T>, C: Tile<T>> Tile<T>
    for Apply3<F, A, B, C>
{
    #[inline(always)]
    fn get(&self, r: usize, j: usize, current: T) -> T {
        F::apply(
            self.a.get(r, j, current),
            self.b.get(r, j, current),
            self.c.get(r, j, current),
        )
    }
}
