//! `max_pool1d`, `max_pool2d`, `avg_pool1d` and `avg_pool2d`, as
//! `torch.nn.functional` defines them: a kernel given as a list
//! (`max_pool2d(x, [2, 2])`), the stride the kernel unless given, zero
//! padding at most half the kernel (or TensorFlow's `padding = same`, which
//! never pads more), dilation for the max pools; the
//! average counts the padding unless `count_include_pad = false` (PyTorch's
//! default and argument): it divides by the kernel's size, or by the taps
//! inside the input (TFLite's `AVERAGE_POOL_2D`, whose SAME windows count
//! only those); over integers it rounds half away from zero, as TFLite's
//! int8 average pool does. Channels first by default, or
//! channels last (`layout = nhwc` / `nwc`). The shape rule is the
//! convolution's ([`crate::rules::conv`]) with the kernel for a weight and
//! every channel its own group; global pooling stays `mean(x, [2, 3])`.
//!
//! A pool computes each output row whole when the walk asks for it (the
//! columns whose taps lie inside the input with no check, taps innermost)
//! and is otherwise read like any elementwise node, so it fuses
//! (`relu(max_pool2d(x, [2, 2]))` has no temporary). Its input is borrowed
//! where it is stored (an expression input is evaluated first).

use super::{keyword, Build, Dims, NamedOption, Operation, Reads, Signature};
use crate::element::Element;
use crate::expr::function::{impl_domain, Domain};
use crate::expr::{Context, Expr, Flat, Own, Row, Shaped};
use crate::ops::conv::inputs::{ConvInput, Reader};
use crate::ops::conv::{
    input_at, input_index, output_position, Position, DILATION, LAYOUT_1D, LAYOUT_2D, PADDING,
    STRIDE,
};
use crate::rules::conv::{kind, ConvRule, Geometry, OpKind, StrideOrKernel};
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// Declares each pool's marker and table entry.
macro_rules! pools {
    ($($(#[doc = $doc:literal])+ $name:ident ($entry:ident): $bound:ident, $kind:ident, $fold:ident,
        $constructor:literal, options $options:expr, forms [$($form:literal),*];)*) => {
        /// The pools, one zero-sized marker each.
        #[allow(non_camel_case_types)]
        pub mod pools {
            use super::*;
            $(
                $(#[doc = $doc])+
                #[derive(Clone, Copy, Debug, Default)]
                pub struct $name;
                impl Pooling for $name {
                    type Kind = kind::$kind;
                    const FOLD: Fold = Fold::$fold;
                }
                impl_domain!($name: $bound);
            )*
        }

        $(
            #[doc = concat!("The table entry of `", stringify!($name), "`.")]
            pub const $entry: Operation = Operation {
                name: stringify!($name),
                signature: Signature {
                    dims: Dims::Sizes(if <kind::$kind as OpKind>::SPATIAL == 1 { &[1] } else { &[1, 2] }),
                    options: $options,
                    ..Signature::of(1)
                },
                reads: Reads::Pooled,
                build: Build::Node {
                    constructor: $constructor,
                    marker: Some(concat!("pool::pools::", stringify!($name))),
                },
                elements: stringify!($bound),
                summary: concat!($($doc),+),
                forms: &[$($form),*],
            };
        )*
    };
}

pools! {
    /// The largest element of each window (NaN if any is), as
    /// `torch.nn.functional.max_pool1d`.
    max_pool1d (MAX_POOL1D): Element, pool1d, Max, "pool::pool",
        options &[STRIDE.one(), PADDING.one(), DILATION.one(), LAYOUT_1D],
        forms ["max_pool1d(x, [k])", "max_pool1d(x, [k], stride = s, padding = p, dilation = d, layout = nwc)"];
    /// The largest element of each window (NaN if any is), as
    /// `torch.nn.functional.max_pool2d`.
    max_pool2d (MAX_POOL2D): Element, pool2d, Max, "pool::pool",
        options &[STRIDE, PADDING, DILATION, LAYOUT_2D],
        forms ["max_pool2d(x, [kh, kw])", "max_pool2d(x, [kh, kw], stride = [sh, sw], padding = [ph, pw], dilation = [dh, dw], layout = nhwc)"];
    /// The mean of each window, padding counted unless
    /// `count_include_pad = false`, as `torch.nn.functional.avg_pool1d`
    /// (over integers rounded half away from zero, as TFLite's int8
    /// average pool).
    avg_pool1d (AVG_POOL1D): Element, pool1d, Mean, "pool::average",
        options &[STRIDE.one(), PADDING.one(), LAYOUT_1D, COUNT_INCLUDE_PAD],
        forms ["avg_pool1d(x, [k])", "avg_pool1d(x, [k], stride = s, padding = p, layout = nwc, count_include_pad = false)"];
    /// The mean of each window, padding counted unless
    /// `count_include_pad = false`, as `torch.nn.functional.avg_pool2d`
    /// (over integers rounded half away from zero, as TFLite's int8
    /// average pool).
    avg_pool2d (AVG_POOL2D): Element, pool2d, Mean, "pool::average",
        options &[STRIDE, PADDING, LAYOUT_2D, COUNT_INCLUDE_PAD],
        forms ["avg_pool2d(x, [kh, kw])", "avg_pool2d(x, [kh, kw], stride = [sh, sw], padding = [ph, pw], layout = nhwc, count_include_pad = false)"];
}

/// `count_include_pad = true | false`: whether an average divides by the
/// kernel's size (the default) or by its taps inside the input.
pub const COUNT_INCLUDE_PAD: NamedOption = NamedOption::boolean("count_include_pad");

/// What `count_include_pad` says, as its witness type: `()` where left out.
pub trait CountsPadding {
    /// Whether the padding's taps count in an average's divisor.
    const COUNTS_PADDING: bool;
}

impl CountsPadding for () {
    const COUNTS_PADDING: bool = true;
}

impl CountsPadding for keyword::True {
    const COUNTS_PADDING: bool = true;
}

impl CountsPadding for keyword::False {
    const COUNTS_PADDING: bool = false;
}

/// How a pool folds its window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// The largest element, NaN if any is.
    Max,
    /// The sum divided by the kernel's size.
    Mean,
}

/// What a pool marker says: its rule kind and its fold.
pub trait Pooling {
    /// [`kind::pool1d`] or [`kind::pool2d`].
    type Kind;
    /// How it folds a window.
    const FOLD: Fold;
}

/// A pool's shapes and options, which give its [`Geometry`] and result
/// shape through [`ConvRule`] (the kernel `K` for a weight, the stride
/// defaulted to it, one group per channel).
pub struct Spec<O, X, K, F, Options>(PhantomData<(O, X, K, F, Options)>);

/// What the node needs of its [`Spec`].
pub trait PoolSpec {
    /// The sizes.
    const GEOMETRY: Geometry;
    /// The fold.
    const FOLD: Fold;
    /// Whether a mean divides by the kernel's size, padding included.
    const COUNTS_PADDING: bool;
    /// The result shape.
    type Output: Shape;
}

impl<O: Shape, X, K, F, S, P, Dl, L, Cp> PoolSpec for Spec<O, X, K, F, (S, P, Dl, L, Cp)>
where
    F: Pooling,
    S: StrideOrKernel<K>,
    X: ConvRule<K, F::Kind, S::Stride, P, Dl, (), L>,
    Cp: CountsPadding,
{
    const GEOMETRY: Geometry = X::GEOMETRY;
    const FOLD: Fold = F::FOLD;
    const COUNTS_PADDING: bool = Cp::COUNTS_PADDING;
    type Output = O;
}

/// A pool over elements `T` of stored data `x`, each element read by `R`
/// (as it is, or converted: `avg_pool2d(cast::<i32>(x), ..)` over `i8`
/// data sums the bytes in `i32` with no widened copy), as spec `C` says.
pub struct Pool<'a, T, C, R: Reader<T>> {
    x: &'a [R::Stored],
    reader: R,
    spec: PhantomData<C>,
}

/// The result shape of pool `F` of input shape `X` by kernel `K`.
type PoolOutput<X, K, F, S, P, Dl, L> = <X as ConvRule<
    K,
    <F as Pooling>::Kind,
    <S as StrideOrKernel<K>>::Stride,
    P,
    Dl,
    (),
    L,
>>::Output;

/// Builds a pool (`f` says which): `kernel` is the list as a shape, the
/// options the witnesses the macro writes, `()` where left out; the input
/// as a convolution's ([`ConvInput`]).
// Its arguments and return type carry what a pool is: the operand, the
// kernel and four options.
#[inline(always)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
#[rustfmt::skip]
pub fn pool<'a, T, M, F, K, S, P, Dl, L, I>(
    _context: Context<T, M>,
    _f: F,
    _kernel: PhantomData<K>,
    _stride: PhantomData<S>,
    _padding: PhantomData<P>,
    _dilation: PhantomData<Dl>,
    _layout: PhantomData<L>,
    input: I,
) -> Pool<'a, T, Spec<PoolOutput<I::Shape, K, <F as Domain<T>>::Function, S, P, Dl, L>, I::Shape, K, <F as Domain<T>>::Function, (S, P, Dl, L, ())>, I::Reader>
where
    I: ConvInput<'a, T>,
    F: Domain<T>,
    <F as Domain<T>>::Function: Pooling,
    S: StrideOrKernel<K>,
    I::Shape: ConvRule<K, <<F as Domain<T>>::Function as Pooling>::Kind, S::Stride, P, Dl, (), L>,
{
    let (x, reader) = input.parts();
    Pool { x, reader, spec: PhantomData }
}

/// Builds an average pool: [`pool`] without `dilation`, which PyTorch's
/// average pools do not take, and with `count_include_pad`.
#[inline(always)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
#[rustfmt::skip]
pub fn average<'a, T, M, F, K, S, P, L, Cp, I>(
    _context: Context<T, M>,
    _f: F,
    _kernel: PhantomData<K>,
    _stride: PhantomData<S>,
    _padding: PhantomData<P>,
    _layout: PhantomData<L>,
    _count_include_pad: PhantomData<Cp>,
    input: I,
) -> Pool<'a, T, Spec<PoolOutput<I::Shape, K, <F as Domain<T>>::Function, S, P, (), L>, I::Shape, K, <F as Domain<T>>::Function, (S, P, (), L, Cp)>, I::Reader>
where
    I: ConvInput<'a, T>,
    F: Domain<T>,
    <F as Domain<T>>::Function: Pooling,
    S: StrideOrKernel<K>,
    I::Shape: ConvRule<K, <<F as Domain<T>>::Function as Pooling>::Kind, S::Stride, P, (), (), L>,
    Cp: CountsPadding,
{
    let (x, reader) = input.parts();
    Pool { x, reader, spec: PhantomData }
}

impl<T, C: PoolSpec, R: Reader<T>> Shaped for Pool<'_, T, C, R> {
    type Shape = C::Output;
}

impl<T: Element, C: PoolSpec, R: Reader<T>> Pool<'_, T, C, R> {
    /// The start of a fold.
    const START: T = match C::FOLD {
        Fold::Max => T::LOWEST,
        Fold::Mean => T::ZERO,
    };

    /// Folds `x` into `acc`. (Taps in the padding are never folded: they
    /// never win a max, as PyTorch pads a max pool with -inf, and add 0 to
    /// a sum.)
    #[inline(always)]
    fn fold(acc: T, x: T) -> T {
        match C::FOLD {
            Fold::Max => acc.max_element(x),
            Fold::Mean => acc + x,
        }
    }

    /// The folded value of the window at `(oh, ow)` as the result.
    #[inline(always)]
    fn finish(acc: T, oh: usize, ow: usize) -> T {
        let g = C::GEOMETRY;
        match C::FOLD {
            Fold::Max => acc,
            Fold::Mean if C::COUNTS_PADDING => {
                crate::element::mean_of(acc, g.kernel[0] * g.kernel[1])
            }
            Fold::Mean => {
                crate::element::mean_of(acc, taps_inside(&g, oh, 0) * taps_inside(&g, ow, 1))
            }
        }
    }

    /// The output row whose first element is at `p`, computed whole: along
    /// the output's columns (channels first), each kernel tap is one pass
    /// over the columns whose input lies inside the row, a loop LLVM
    /// vectorises; channels last, each tap folds one contiguous run of
    /// channels.
    #[inline(always)]
    fn row_values(&self, p: Position) -> <C::Output as Shape>::Row<T> {
        let g = C::GEOMETRY;
        let mut acc = <C::Output as Shape>::row_from_fn(|_| Self::START);
        let values = acc.as_mut();
        for kh in 0..g.kernel[0] {
            let Some(ih) = input_at(p.oh, kh, 0, &g) else {
                continue;
            };
            if g.channels_last {
                let row_len = values.len();
                for kw in 0..g.kernel[1] {
                    let Some(iw) = input_at(p.ow, kw, 1, &g) else {
                        continue;
                    };
                    let pixel = &self.x[input_index(&g, p.n, 0, ih, iw)..][..row_len];
                    for (a, &x) in values.iter_mut().zip(pixel) {
                        *a = Self::fold(*a, self.reader.read(x));
                    }
                }
            } else {
                let x_row = &self.x[input_index(&g, p.n, p.channel, ih, 0)..][..g.input[1]];
                let (s, d, pad) = (g.stride[1], g.dilation[1], g.pad[1]);
                // The columns whose taps all fall inside the row fold them
                // without a check, the kernel's taps innermost; the few on
                // the padded border check each tap.
                let span = (g.kernel[1] - 1) * d;
                let first = pad.div_ceil(s).min(values.len());
                let last = (g.input[1] + pad)
                    .saturating_sub(span)
                    .div_ceil(s)
                    .clamp(first, values.len());
                let (left, rest) = values.split_at_mut(first);
                let (inside, right) = rest.split_at_mut(last - first);
                for (j, a) in inside.iter_mut().enumerate() {
                    let taps = &x_row[(first + j) * s - pad..][..span + 1];
                    for kw in 0..g.kernel[1] {
                        *a = Self::fold(*a, self.reader.read(taps[kw * d]));
                    }
                }
                let border = left.iter_mut().enumerate();
                let border = border.chain(right.iter_mut().enumerate().map(|(j, a)| (last + j, a)));
                for (ow, a) in border {
                    for kw in 0..g.kernel[1] {
                        if let Some(iw) = input_at(ow, kw, 1, &g) {
                            *a = Self::fold(*a, self.reader.read(x_row[iw]));
                        }
                    }
                }
            }
        }
        // Channels last, the row is one position's channels; else one
        // output row's positions.
        for (j, a) in values.iter_mut().enumerate() {
            let ow = if g.channels_last { p.ow } else { j };
            *a = Self::finish(*a, p.oh, ow);
        }
        acc
    }
}

unsafe impl<T: Element, C: PoolSpec, R: Reader<T>> Expr<T> for Pool<'_, T, C, R> {
    /// Its input has a static shape (the rule computes every size): no run-time rows.
    type Children = ();
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) {}

    /// Reads its stored input (through a reader that keeps no row cache) at the windows of its own positions: read as a leaf with strides.
    const OWN: Own = Own::leaf(Flat::No);

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        let first = output_position::<C::Output, O>(&C::GEOMETRY, outer, 0);
        PoolRow::<T, C> {
            values: self.row_values(first),
        }
    }
}

/// How many taps of the window at output index `at` along spatial dim
/// `dim` fall inside the input (not in the padding).
#[inline(always)]
fn taps_inside(g: &Geometry, at: usize, dim: usize) -> usize {
    (0..g.kernel[dim])
        .filter(|&k| input_at(at, k, dim, g).is_some())
        .count()
}

/// One output row of a pool, computed whole.
struct PoolRow<T, C: PoolSpec> {
    values: <C::Output as Shape>::Row<T>,
}

impl<T: Element, C: PoolSpec> Row<T> for PoolRow<T, C> {
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        // A row of one element is broadcast along the output's columns.
        let values = self.values.as_ref();
        values[if values.len() == 1 { 0 } else { j }]
    }
}
