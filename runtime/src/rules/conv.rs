//! The convolution rule, as `torch.nn.functional` documents
//! them: `conv1d`/`conv2d` take an input `[N, C_in, *spatial]` (or unbatched
//! `[C_in, *spatial]`) and a weight `[C_out, C_in / groups, *kernel]`, and
//! give `[N, C_out, *out]`, each output size the sliding-window count of
//! [`super::window`]; `groups` must divide both channel counts. The
//! channels-last layout that TFLite and CMSIS-NN use (`layout = nhwc`, or
//! `nwc` in one dim) puts channels last in the input, the output and the
//! weight (`[C_out, *kernel, C_in / groups]`).
//!
//! The named options arrive as the macro writes them: `()` where the call
//! leaves one out, `(D<a>,)` for one value (used on every spatial dim, as
//! PyTorch's `stride=2`), `(D<a>, D<b>)` for one per dim, a padding per
//! side as `(Sides<D<top>, D<bottom>>, Sides<D<left>, D<right>>)` (or one
//! [`Sides`] for every dim), or a keyword type from [`keyword`]. The rule's output is the result shape, and
//! [`ConvRule::GEOMETRY`] the plain sizes the kernel loops over.
//!
//! Each part of the rule is a carrier with its own message, naming the
//! sizes: shapes that are no convolution's ([`ConvRule`]), channels that do
//! not match the weight ([`ChannelsMatch`]), groups that do not divide the
//! output channels ([`GroupsDivide`]), a kernel that does not fit
//! ([`KernelFits`]). The
//! macro rejects a stride or dilation of 0, an unknown keyword and option
//! lists of the wrong length where it reads them, on the value.

use super::size::{ComputableSize, TypeSize};
use super::window::{CeilDiv, Positions, SlidLength, SpansSides};
use crate::dim::{Dim, One, D};
use crate::shape::Shape;
use core::marker::PhantomData;
use core::ops::{Mul, Rem};
use typenum::{Mod, Prod, Same, U0};

/// Declares the keyword types and their list.
macro_rules! keywords {
    ($($(#[doc = $doc:literal])+ $name:ident)*) => {
        /// The keyword values of named options, as types (`padding = same`
        /// passes `keyword::same`), and [`NAMES`](keyword::NAMES), every
        /// keyword an option of the operation table may list.
        #[allow(non_camel_case_types)]
        pub mod keyword {
            $(
                $(#[doc = $doc])+
                #[derive(Clone, Copy, Debug, Default)]
                pub struct $name;
            )*
            /// Every keyword above, by name.
            pub const NAMES: &[&str] = &[$(stringify!($name)),*];
        }
    };
}

keywords! {
    /// `padding = same`: TensorFlow's `SAME`, the output `ceil(L / stride)`
    /// long, padded by what that needs, the smaller half first (the odd
    /// one at the bottom or right); at stride 1 the output is as large as
    /// the input, as PyTorch's `padding='same'`.
    same
    /// `padding = valid`: no padding.
    valid
    /// `layout = nchw`: channels first (the default).
    nchw
    /// `layout = ncw`: channels first, one spatial dim (the default).
    ncw
    /// `layout = nhwc`: channels last, TFLite's layout.
    nhwc
    /// `layout = nwc`: channels last, one spatial dim.
    nwc
    /// `true` as an option's value (`count_include_pad = true`).
    True
    /// `false` as an option's value (`count_include_pad = false`).
    False
}

/// The operations, as markers: which rule and how many spatial dims.
#[allow(non_camel_case_types)]
pub mod kind {
    /// `conv1d`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct conv1d;
    /// `conv2d`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct conv2d;
    /// `conv_transpose1d` (rule: [`super::super::conv_transpose`]).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct conv_transpose1d;
    /// `conv_transpose2d`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct conv_transpose2d;
    /// The pools over one spatial dim (`max_pool1d`, `avg_pool1d`): a
    /// kernel list for the weight, every channel its own group.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct pool1d;
    /// The pools over two spatial dims.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct pool2d;
}

/// The plain sizes of one convolution, for the loops. One spatial
/// dim is stored as two, the first of size 1 (`[1, L]`), so one loop nest
/// serves both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Spatial dims in the shapes: 1 or 2.
    pub spatial: usize,
    /// Whether the input and result have a batch dim.
    pub batched: bool,
    /// The batch size (1 when unbatched).
    pub batch: usize,
    /// Input channels.
    pub in_channels: usize,
    /// Output channels.
    pub out_channels: usize,
    /// Channel groups; each output channel reads `in_channels / groups`.
    pub groups: usize,
    /// Whether channels are the last dim (`nhwc`).
    pub channels_last: bool,
    /// Spatial input sizes.
    pub input: [usize; 2],
    /// Kernel sizes.
    pub kernel: [usize; 2],
    /// Spatial output sizes.
    pub output: [usize; 2],
    /// Strides.
    pub stride: [usize; 2],
    /// Dilations.
    pub dilation: [usize; 2],
    /// Padding before the first element (the rest is after the last).
    pub pad: [usize; 2],
}

/// A per-dim option as written: `()` (the default `Default` on every dim),
/// one value for every dim, or one per dim.
pub trait PerAxis<Default> {
    /// The value on the first spatial dim.
    type First: Dim;
    /// The value on the second (the only one in one dim).
    type Second: Dim;
}

impl<Df: Dim> PerAxis<Df> for () {
    type First = Df;
    type Second = Df;
}

impl<A: Dim, Df> PerAxis<Df> for (A,) {
    type First = A;
    type Second = A;
}

impl<A: Dim, B: Dim, Df> PerAxis<Df> for (A, B) {
    type First = A;
    type Second = B;
}

/// Padding as written: a size per dim (symmetric), a pair per dim
/// ([`Sides`]), `same` or `valid`, as the padding of each spatial dim
/// ([`EachSide`], [`Sides`] or [`SameAsInput`]).
pub trait Padding {
    /// Whether it is `same`.
    const SAME: bool;
    /// The padding of the first spatial dim.
    type First: AxisPadding;
    /// The padding of the second.
    type Second: AxisPadding;
}

impl<P: PerAxis<D<0>>> Padding for P {
    const SAME: bool = false;
    type First = EachSide<P::First>;
    type Second = EachSide<P::Second>;
}

impl<B: Dim, A: Dim> Padding for (Sides<B, A>,) {
    const SAME: bool = false;
    type First = Sides<B, A>;
    type Second = Sides<B, A>;
}

impl<B: Dim, A: Dim, B2: Dim, A2: Dim> Padding for (Sides<B, A>, Sides<B2, A2>) {
    const SAME: bool = false;
    type First = Sides<B, A>;
    type Second = Sides<B2, A2>;
}

impl Padding for keyword::same {
    const SAME: bool = true;
    type First = SameAsInput;
    type Second = SameAsInput;
}

impl Padding for keyword::valid {
    const SAME: bool = false;
    type First = EachSide<D<0>>;
    type Second = EachSide<D<0>>;
}

/// `P` elements of zeros on each side of a spatial dim.
pub struct EachSide<P>(PhantomData<P>);

/// `B` elements of zeros before a spatial dim and `A` after it: `padding =
/// [[B, A], ..]`, TensorFlow's explicit padding and what its `SAME` pads.
pub struct Sides<B, A>(PhantomData<(B, A)>);

/// `padding = same`: TensorFlow's `SAME` (see [`keyword::same`]).
pub struct SameAsInput;

/// The padding of one spatial dim.
pub trait AxisPadding {
    /// The padding before the first element (0 for [`SameAsInput`], whose
    /// padding the geometry computes from the kernel and stride).
    const BEFORE: usize;
}

impl<P: Dim> AxisPadding for EachSide<P> {
    const BEFORE: usize = P::SIZE;
}

impl<B: Dim, A> AxisPadding for Sides<B, A> {
    const BEFORE: usize = B::SIZE;
}

impl AxisPadding for SameAsInput {
    const BEFORE: usize = 0;
}

/// The output length of one spatial dim: a kernel of size `Self` at
/// dilation `Dilation`, stepping by `Stride`, over an input of size `Len`
/// with padding `Pad`. The message carrier of a kernel that does not fit.
#[diagnostic::on_unimplemented(
    message = "a kernel of size `{Self}` at dilation `{Dilation}` does not fit an input of size `{Len}` with padding `{Pad}`",
    label = "a kernel of k taps at dilation d spans d * (k - 1) + 1 elements, more than the input's size plus the padding on both sides"
)]
pub trait KernelFits<Len, Pad, Dilation, Stride> {
    /// The number of positions.
    type Length: Dim;
}

#[diagnostic::do_not_recommend]
impl<K, L, P, Dl, S> KernelFits<L, EachSide<P>, Dl, S> for K
where
    K: SpansSides<L, P, P, Dl>,
    <K as SpansSides<L, P, P, Dl>>::Room: Positions<S>,
{
    type Length = SlidLength<L, K, P, P, Dl, S>;
}

#[diagnostic::do_not_recommend]
impl<K, L, P1, P2, Dl, S> KernelFits<L, Sides<P1, P2>, Dl, S> for K
where
    K: SpansSides<L, P1, P2, Dl>,
    <K as SpansSides<L, P1, P2, Dl>>::Room: Positions<S>,
{
    type Length = SlidLength<L, K, P1, P2, Dl, S>;
}

/// TensorFlow's `SAME`: `ceil(L / S)` positions, whatever the kernel.
impl<K, L, Dl, S> KernelFits<L, SameAsInput, Dl, S> for K
where
    L: TypeSize,
    S: TypeSize,
    L::Size: CeilDiv<S::Size>,
{
    type Length = <L::Size as CeilDiv<S::Size>>::Quotient;
}

/// `groups` as written: `()` is 1.
pub trait Groups {
    /// The count as a dim.
    type Count: Dim;
}

impl Groups for () {
    type Count = One;
}

impl<G: Dim> Groups for (G,) {
    type Count = G;
}

/// `Self`, the weight's input channels per group, times `groups` is the
/// input's channel count `In`. `Carried` is a dim of the result, returned
/// once the counts agree, so that the check is part of computing the
/// result's type.
#[diagnostic::on_unimplemented(
    message = "the weight takes `{Self}` input channels per group in `{G}` groups, but the input has `{In}` channels",
    label = "a weight is [C_out, C_in / groups, ..kernel], or [C_out, ..kernel, C_in / groups] channels last"
)]
pub trait ChannelsMatch<In, G, Carried> {
    /// `Carried`.
    type Carried: Dim;
}

#[diagnostic::do_not_recommend]
impl<Pg, C, G, X: Dim> ChannelsMatch<C, G, X> for Pg
where
    C: TypeSize,
    Pg: TypeSize,
    G: TypeSize,
    Pg::Size: Mul<G::Size>,
    Prod<Pg::Size, G::Size>: Same<C::Size>,
{
    type Carried = X;
}

/// `groups` divides `Self`, the output channel count.
#[diagnostic::on_unimplemented(
    message = "`{G}` groups do not divide the weight's `{Self}` output channels",
    label = "each group computes C_out / groups of the output channels, so C_out is a multiple of groups"
)]
pub trait GroupsDivide<G> {
    /// `Self`, once `groups` divides it.
    type Checked: Dim;
}

#[diagnostic::do_not_recommend]
impl<C: Dim, G> GroupsDivide<G> for C
where
    C: TypeSize,
    G: TypeSize,
    C::Size: Rem<G::Size>,
    Mod<C::Size, G::Size>: Same<U0>,
{
    type Checked = C;
}

/// How many spatial dims an operation has.
pub trait OpKind {
    /// 1 or 2.
    const SPATIAL: usize;
}
impl OpKind for kind::conv1d {
    const SPATIAL: usize = 1;
}
impl OpKind for kind::conv2d {
    const SPATIAL: usize = 2;
}
impl OpKind for kind::conv_transpose1d {
    const SPATIAL: usize = 1;
}
impl OpKind for kind::conv_transpose2d {
    const SPATIAL: usize = 2;
}
impl OpKind for kind::pool1d {
    const SPATIAL: usize = 1;
}
impl OpKind for kind::pool2d {
    const SPATIAL: usize = 2;
}

/// A pool's stride as written: `()` is the kernel (PyTorch's default),
/// anything else the stride given. `Self` is the stride, `K` the kernel as
/// a shape.
pub trait StrideOrKernel<K> {
    /// The stride the rule reads.
    type Stride;
}

impl<K> StrideOrKernel<K> for () {
    type Stride = K;
}

impl<A, K> StrideOrKernel<K> for (A,) {
    type Stride = (A,);
}

impl<A, B, K> StrideOrKernel<K> for (A, B) {
    type Stride = (A, B);
}

/// The convolution rule the constructor states: `Self` is the input shape,
/// `W` the weight's, `Op` the operation ([`kind`]), then the options as the
/// macro passes them. Shapes that are no convolution's input and weight
/// (a rank or layout that does not fit) get this trait's message.
///
/// One `do_not_recommend` impl, over [`ConvParts`], which holds the rule
/// for each operation, layout and input rank: there the carriers
/// ([`ChannelsMatch`], [`GroupsDivide`], [`KernelFits`])
/// are required of the dims as plain type parameters, and the output is
/// computed through them, so rustc reports a mistake by the carrier's
/// message, naming the sizes that fail.
#[diagnostic::on_unimplemented(
    message = "`{Self}` and `{W}` cannot be the input and weight of `{Op}` in the layout `{Layout}`",
    label = "not a convolution's input and weight",
    note = "channels first: conv1d takes [N, C_in, L] or [C_in, L] with a weight [C_out, C_in / groups, K]; conv2d takes [N, C_in, H, W] or [C_in, H, W] with [C_out, C_in / groups, kH, kW]; channels last (`layout = nwc` / `nhwc`) puts C_in last in both"
)]
pub trait ConvRule<W, Op, Stride, Pad, Dilation, G, Layout>: Shape {
    /// The result shape.
    type Output: Shape;
    /// The sizes the loops use.
    const GEOMETRY: Geometry;
}

/// The rule for one operation, layout and input rank, `X` the input shape
/// and `W` the weight's: [`ConvRule`]'s one impl requires it of `()`.
///
/// Measured on rustc 1.95: with the carriers required by impls of
/// [`ConvRule`] itself (marked `do_not_recommend`, as the other rules'
/// are), a failing carrier was reported as `ConvRule` (its message, the
/// constructor's bound, no sizes). Behind this trait, whose impls are not
/// so marked, each carrier is reported by its own message, then one line
/// naming the input and weight shapes (`required for () to implement
/// ConvParts<..>`): 8 lines (`tests/compile_errors/tests/ui/conv_*`). Its impls are for any
/// `Self` (the shapes are parameters), because rustc lists the impls of
/// this trait after such an error unless their `Self` is a type
/// parameter, and that list was 10 lines more. A carrier whose `Self` is a
/// dim of the input shape was reported as `ConvRule` even so, so
/// [`ChannelsMatch`]'s `Self` is the weight's per-group count, and a
/// carrier's explanation is its label, not a note, which would be a ninth
/// line.
#[diagnostic::on_unimplemented(
    message = "`{Self}` and `{W}` cannot be the input and weight of `{Op}` in the layout `{Layout}`",
    label = "not a convolution's input and weight",
    note = "channels first: conv1d takes [N, C_in, L] or [C_in, L] with a weight [C_out, C_in / groups, K]; conv2d takes [N, C_in, H, W] or [C_in, H, W] with [C_out, C_in / groups, kH, kW]; channels last (`layout = nwc` / `nhwc`) puts C_in last in both"
)]
pub trait ConvParts<X, W, Op, Stride, Pad, Dilation, G, Layout> {
    /// The result shape.
    type Output: Shape;
    /// The sizes the loops use.
    const GEOMETRY: Geometry;
}

#[diagnostic::do_not_recommend]
impl<X, W, Op, S, P, Dl, G, L> ConvRule<W, Op, S, P, Dl, G, L> for X
where
    X: Shape,
    (): ConvParts<X, W, Op, S, P, Dl, G, L>,
{
    type Output = <() as ConvParts<X, W, Op, S, P, Dl, G, L>>::Output;
    const GEOMETRY: Geometry = <() as ConvParts<X, W, Op, S, P, Dl, G, L>>::GEOMETRY;
}

/// Writes the [`ConvParts`] impls of one operation and input rank, for each
/// layout listed: the input and weight dims as written, the result with
/// `Oc`, `Ho`, `Wo` for the computed sizes, then the dims by role (batch,
/// input channels, per group, output channels, spatial sizes, kernel
/// sizes: `One` for a role the shapes lack) and whether it is batched and
/// channels last.
macro_rules! conv_rule {
    ($op:ident [$($layout:ty),*] $body:tt) => {
        $(conv_rule!(@one $op $layout $body);)*
    };
    (@one $op:ident $layout:ty { x ($($x:ident),*) w ($($w:ident),* $(,)?) -> ($($out:ident),*)
        { $batch:ty, $ci:ident, $cg:ty, $co:ident, $h:ty, $wd:ident, $kh:ty, $kw:ident, $batched:literal, $last:literal }
        groups $groups:ty }) => {
        impl<$($x: Dim,)* $($w: Dim,)* S, P, Dl, G, Any> ConvParts<($($x,)*), ($($w,)*), kind::$op, S, P, Dl, G, $layout> for Any
        where
            S: PerAxis<One>,
            P: Padding,
            Dl: PerAxis<One>,
            G: Groups,
            $h: ComputableSize,
            $wd: ComputableSize,
            $ci: ComputableSize,
            $co: ComputableSize,
            <$co as ComputableSize>::Dim: GroupsDivide<$groups>,
            $kh: KernelFits<<$h as ComputableSize>::Dim, P::First, Dl::First, S::First>,
            $kw: KernelFits<<$wd as ComputableSize>::Dim, P::Second, Dl::Second, S::Second>,
            $cg: ChannelsMatch<<$ci as ComputableSize>::Dim, $groups, <$kw as KernelFits<<$wd as ComputableSize>::Dim, P::Second, Dl::Second, S::Second>>::Length>,
        {
            type Output = conv_rule!(@output [$($out)*]
                [<<$co as ComputableSize>::Dim as GroupsDivide<$groups>>::Checked]
                [<$kh as KernelFits<<$h as ComputableSize>::Dim, P::First, Dl::First, S::First>>::Length]
                [<$cg as ChannelsMatch<<$ci as ComputableSize>::Dim, $groups, <$kw as KernelFits<<$wd as ComputableSize>::Dim, P::Second, Dl::Second, S::Second>>::Length>>::Carried]);
            const GEOMETRY: Geometry = geometry::<kind::$op, S, P, Dl>(
                Sizes {
                    batched: $batched,
                    groups: <$groups as Dim>::SIZE,
                    channels_last: $last,
                    batch: <$batch as Dim>::SIZE,
                    in_channels: $ci::SIZE,
                    out_channels: $co::SIZE,
                    input: [<$h as Dim>::SIZE, $wd::SIZE],
                    kernel: [<$kh as Dim>::SIZE, $kw::SIZE],
                },
                [
                    <<$kh as KernelFits<<$h as ComputableSize>::Dim, P::First, Dl::First, S::First>>::Length as Dim>::SIZE,
                    <<$kw as KernelFits<<$wd as ComputableSize>::Dim, P::Second, Dl::Second, S::Second>>::Length as Dim>::SIZE,
                ],
            );
        }
    };
    // The result's dims, each written dim kept, `Oc`, `Ho`, `Wo` replaced.
    (@output [$($out:ident)*] $oc:tt $ho:tt $wo:tt) => {
        ($(conv_rule!(@dim $out $oc $ho $wo),)*)
    };
    (@dim Oc [$($oc:tt)*] $ho:tt $wo:tt) => { $($oc)* };
    (@dim Ho $oc:tt [$($ho:tt)*] $wo:tt) => { $($ho)* };
    (@dim Wo $oc:tt $ho:tt [$($wo:tt)*]) => { $($wo)* };
    (@dim $d:ident $oc:tt $ho:tt $wo:tt) => { $d };
}

conv_rule!(conv1d [(), keyword::ncw] { x (N, Ci, L) w (Cw, Cg, K) -> (N, Oc, Wo) { N, Ci, Cg, Cw, One, L, One, K, true, false } groups <G as Groups>::Count });
conv_rule!(conv1d [(), keyword::ncw] { x (Ci, L) w (Cw, Cg, K) -> (Oc, Wo) { One, Ci, Cg, Cw, One, L, One, K, false, false } groups <G as Groups>::Count });
conv_rule!(conv1d [keyword::nwc] { x (N, L, Ci) w (Cw, K, Cg) -> (N, Wo, Oc) { N, Ci, Cg, Cw, One, L, One, K, true, true } groups <G as Groups>::Count });
conv_rule!(conv1d [keyword::nwc] { x (L, Ci) w (Cw, K, Cg) -> (Wo, Oc) { One, Ci, Cg, Cw, One, L, One, K, false, true } groups <G as Groups>::Count });
conv_rule!(conv2d [(), keyword::nchw] { x (N, Ci, H, Wd) w (Cw, Cg, KH, KW) -> (N, Oc, Ho, Wo) { N, Ci, Cg, Cw, H, Wd, KH, KW, true, false } groups <G as Groups>::Count });
conv_rule!(conv2d [(), keyword::nchw] { x (Ci, H, Wd) w (Cw, Cg, KH, KW) -> (Oc, Ho, Wo) { One, Ci, Cg, Cw, H, Wd, KH, KW, false, false } groups <G as Groups>::Count });
conv_rule!(conv2d [keyword::nhwc] { x (N, H, Wd, Ci) w (Cw, KH, KW, Cg) -> (N, Ho, Wo, Oc) { N, Ci, Cg, Cw, H, Wd, KH, KW, true, true } groups <G as Groups>::Count });
conv_rule!(conv2d [keyword::nhwc] { x (H, Wd, Ci) w (Cw, KH, KW, Cg) -> (Ho, Wo, Oc) { One, Ci, Cg, Cw, H, Wd, KH, KW, false, true } groups <G as Groups>::Count });

conv_rule!(pool1d [(), keyword::ncw] { x (N, C, L) w (K,) -> (N, Oc, Wo) { N, C, One, C, One, L, One, K, true, false } groups C });
conv_rule!(pool1d [(), keyword::ncw] { x (C, L) w (K,) -> (Oc, Wo) { One, C, One, C, One, L, One, K, false, false } groups C });
conv_rule!(pool1d [keyword::nwc] { x (N, L, C) w (K,) -> (N, Wo, Oc) { N, C, One, C, One, L, One, K, true, true } groups C });
conv_rule!(pool1d [keyword::nwc] { x (L, C) w (K,) -> (Wo, Oc) { One, C, One, C, One, L, One, K, false, true } groups C });
conv_rule!(pool2d [(), keyword::nchw] { x (N, C, H, Wd) w (KH, KW) -> (N, Oc, Ho, Wo) { N, C, One, C, H, Wd, KH, KW, true, false } groups C });
conv_rule!(pool2d [(), keyword::nchw] { x (C, H, Wd) w (KH, KW) -> (Oc, Ho, Wo) { One, C, One, C, H, Wd, KH, KW, false, false } groups C });
conv_rule!(pool2d [keyword::nhwc] { x (N, H, Wd, C) w (KH, KW) -> (N, Ho, Wo, Oc) { N, C, One, C, H, Wd, KH, KW, true, true } groups C });
conv_rule!(pool2d [keyword::nhwc] { x (H, Wd, C) w (KH, KW) -> (Ho, Wo, Oc) { One, C, One, C, H, Wd, KH, KW, false, true } groups C });

/// An input of a rank the operation does not take: `Self` is `()`, `X`
/// the input shape. No type implements it; the rule's impls for those
/// ranks require it, so the mistake is reported by this message (8 lines)
/// rather than as [`ConvRule`] with the constructor's bound.
#[diagnostic::on_unimplemented(
    message = "`{Op}` does not take an input of shape `{X}`",
    label = "1-D: [N, C, L] or [C, L]; 2-D: [N, C, H, W] or [C, H, W] (channels last: C at the end)"
)]
pub trait InputRank<X, Op> {}

/// The geometry of no convolution, for the impls of inputs of a wrong
/// rank, which never compile.
const NO_GEOMETRY: Geometry = Geometry {
    spatial: 0,
    batched: false,
    batch: 0,
    in_channels: 0,
    out_channels: 0,
    groups: 0,
    channels_last: false,
    input: [0; 2],
    kernel: [0; 2],
    output: [0; 2],
    stride: [0; 2],
    dilation: [0; 2],
    pad: [0; 2],
};

/// The [`ConvParts`] impls of `$op` for inputs of each rank listed (the
/// ranks it does not take), each requiring [`InputRank`].
macro_rules! wrong_rank {
    ($op:ident: $(($($x:ident),+))+) => {$(
        impl<$($x: Dim,)+ W, S, P, Dl, G, L, Any> ConvParts<($($x,)+), W, kind::$op, S, P, Dl, G, L> for Any
        where
            Any: InputRank<($($x,)+), kind::$op>,
        {
            type Output = ($($x,)+);
            const GEOMETRY: Geometry = NO_GEOMETRY;
        }
    )+};
}

wrong_rank!(conv1d: (A) (A, B, C, D) (A, B, C, D, E) (A, B, C, D, E, F));
wrong_rank!(pool1d: (A) (A, B, C, D) (A, B, C, D, E) (A, B, C, D, E, F));
wrong_rank!(conv2d: (A) (A, B) (A, B, C, D, E) (A, B, C, D, E, F));
wrong_rank!(pool2d: (A) (A, B) (A, B, C, D, E) (A, B, C, D, E, F));

/// The sizes of a convolution that its shapes give directly.
struct Sizes {
    batched: bool,
    groups: usize,
    channels_last: bool,
    batch: usize,
    in_channels: usize,
    out_channels: usize,
    input: [usize; 2],
    kernel: [usize; 2],
}

/// TensorFlow's `SAME` padding before an axis of `len` elements, for a
/// kernel of `k` taps at dilation `d` stepping by `stride`: the output is
/// `ceil(len / stride)` long, the total padding what its last window needs
/// beyond the input, and the smaller half of it goes first.
///
/// ```
/// use tensor_expr_runtime::rules::conv::same_padding_before;
/// // 49 rows, a 10-tap kernel, stride 2: 25 outputs need 57 rows, 8 of
/// // padding: 4 before, 4 after.
/// assert_eq!(same_padding_before(49, 10, 1, 2), 4);
/// // Stride 1, a kernel of 4: 3 in all, 1 before and 2 after.
/// assert_eq!(same_padding_before(8, 4, 1, 1), 1);
/// ```
pub const fn same_padding_before(len: usize, k: usize, d: usize, stride: usize) -> usize {
    let output = len.div_ceil(stride);
    let needed = (output.saturating_sub(1)) * stride + d * k.saturating_sub(1) + 1;
    needed.saturating_sub(len) / 2
}

/// The geometry of a convolution of operation `Op` with these sizes and
/// options, given its output's spatial sizes.
const fn geometry<Op, S, P, Dl>(sizes: Sizes, output: [usize; 2]) -> Geometry
where
    Op: OpKind,
    S: PerAxis<One>,
    P: Padding,
    Dl: PerAxis<One>,
{
    let kernel = sizes.kernel;
    let dilation = [<Dl::First as Dim>::SIZE, <Dl::Second as Dim>::SIZE];
    let stride = [<S::First as Dim>::SIZE, <S::Second as Dim>::SIZE];
    let pad = if P::SAME {
        [
            same_padding_before(sizes.input[0], kernel[0], dilation[0], stride[0]),
            same_padding_before(sizes.input[1], kernel[1], dilation[1], stride[1]),
        ]
    } else {
        [
            <P::First as AxisPadding>::BEFORE,
            <P::Second as AxisPadding>::BEFORE,
        ]
    };
    let mut geometry = Geometry {
        spatial: Op::SPATIAL,
        batched: sizes.batched,
        batch: sizes.batch,
        in_channels: sizes.in_channels,
        out_channels: sizes.out_channels,
        groups: sizes.groups,
        channels_last: sizes.channels_last,
        input: sizes.input,
        kernel,
        output,
        stride,
        dilation,
        pad,
    };
    if Op::SPATIAL == 1 {
        // One spatial dim is the second; the first is a size-1 stand-in,
        // which the options (written once, for the real dim) do not touch.
        geometry.output[0] = 1;
        geometry.stride[0] = 1;
        geometry.dilation[0] = 1;
        geometry.pad[0] = 0;
    }
    geometry
}
