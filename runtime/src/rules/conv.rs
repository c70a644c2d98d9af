//! The convolution and pooling rules, as `torch.nn.functional` documents
//! them: `conv1d`/`conv2d` take an input `[N, C_in, *spatial]` (or unbatched
//! `[C_in, *spatial]`) and a weight `[C_out, C_in / groups, *kernel]`, and
//! give `[N, C_out, *out]`, each output size the sliding-window count of
//! [`super::window`]; `groups` must divide both channel counts. The
//! channels-last layout that TFLite and CMSIS-NN use (`layout = nhwc`, or
//! `nwc` in one dim) puts channels last in the input, the output and the
//! weight (`[C_out, *kernel, C_in / groups]`). The pools take an input of
//! the same form, keep its channels, and slide a kernel given as a list.
//!
//! The named options arrive as the macro writes them: `()` where the call
//! leaves one out, `(D<a>,)` for one value (used on every spatial dim, as
//! PyTorch's `stride=2`), `(D<a>, D<b>)` for one per dim, or a keyword type
//! from [`keyword`]. The rule's output is the result shape, and
//! [`ConvRule::GEOMETRY`] the plain sizes the kernel loops over.
//!
//! Mistakes are single errors: the shapes do not form a convolution at all
//! ([`ConvRule`]'s message), the channels do not match the weight
//! ([`ChannelsMatch`]), the groups do not divide the output channels
//! ([`GroupsDivide`]), a kernel does not fit
//! ([`KernelFits`](super::window::KernelFits)). The macro rejects a stride
//! or dilation of 0, a `same` padding with a stride, and option lists of the
//! wrong length, where it reads them.

use super::size::TypeSize;
use super::window::{KernelFits, SlidLength};
use crate::dim::{Dim, One, D};
use crate::shape::Shape;
use core::ops::{Mul, Rem};
use typenum::{Mod, Prod, Same, U0};

/// The keyword values of named options, as types (`padding = same` passes
/// `keyword::same`).
#[allow(non_camel_case_types)]
pub mod keyword {
    /// `padding = same`: the output as large as the input (stride 1), the
    /// padding split as PyTorch splits it (the smaller half first).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct same;
    /// `padding = valid`: no padding.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct valid;
    /// `layout = nchw`: channels first (the default).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct nchw;
    /// `layout = ncw`: channels first, one spatial dim (the default).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct ncw;
    /// `layout = nhwc`: channels last, TFLite's layout.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct nhwc;
    /// `layout = nwc`: channels last, one spatial dim.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct nwc;
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
    /// `max_pool1d` and `avg_pool1d`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct pool1d;
    /// `max_pool2d` and `avg_pool2d`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct pool2d;
}

/// The plain sizes of one convolution or pool, for the loops. One spatial
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

/// Padding as written: a size per dim (symmetric), `same` or `valid`.
pub trait Padding {
    /// Whether it is `same`.
    const SAME: bool;
    /// The size on each side of the first spatial dim (unused for `same`).
    type First: Dim;
    /// The same for the second.
    type Second: Dim;
}

impl<P: PerAxis<D<0>>> Padding for P {
    const SAME: bool = false;
    type First = P::First;
    type Second = P::Second;
}

impl Padding for keyword::same {
    const SAME: bool = true;
    type First = D<0>;
    type Second = D<0>;
}

impl Padding for keyword::valid {
    const SAME: bool = false;
    type First = D<0>;
    type Second = D<0>;
}

/// The output size along one spatial dim: the sliding count, or the input's
/// own size for `same`. `Self` is the padding kind (a `bool` as a type).
pub trait AxisLength<L, K, P, Dl, S> {
    /// The size.
    type Length: Dim;
}

/// Where padding is `same`.
pub struct SameSize;
/// Where padding is explicit.
pub struct Explicit;

impl<L: Dim, K, P, Dl, S> AxisLength<L, K, P, Dl, S> for SameSize {
    type Length = L;
}

impl<L, K, P, Dl, S> AxisLength<L, K, P, Dl, S> for Explicit
where
    K: KernelFits<L, P, Dl>,
    <K as KernelFits<L, P, Dl>>::Room: super::window::Positions<S>,
{
    type Length = SlidLength<L, K, P, Dl, S>;
}

/// Which [`AxisLength`] a padding uses.
pub trait PaddingKind {
    /// [`SameSize`] or [`Explicit`].
    type Kind;
}

impl<P: PerAxis<D<0>>> PaddingKind for P {
    type Kind = Explicit;
}
impl PaddingKind for keyword::same {
    type Kind = SameSize;
}
impl PaddingKind for keyword::valid {
    type Kind = Explicit;
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

/// `Self`, the input's channel count, is `C_in / groups` times `groups`.
#[diagnostic::on_unimplemented(
    message = "the input has `{Self}` channels, but the weight takes `{PerGroup}` per group in `{G}` groups",
    label = "the input's channels do not match the weight",
    note = "a convolution's weight is [C_out, C_in / groups, ..kernel] (channels first) or [C_out, ..kernel, C_in / groups] (channels last)"
)]
pub trait ChannelsMatch<PerGroup, G> {
    /// `X`, once the counts agree (threads the check into the result type).
    type Checked<X: Dim>: Dim;
}

#[diagnostic::do_not_recommend]
impl<C, Pg, G> ChannelsMatch<Pg, G> for C
where
    C: TypeSize,
    Pg: TypeSize,
    G: TypeSize,
    Pg::Size: Mul<G::Size>,
    Prod<Pg::Size, G::Size>: Same<C::Size>,
{
    type Checked<X: Dim> = X;
}

/// `groups` divides `Self`, the output channel count.
#[diagnostic::on_unimplemented(
    message = "`{G}` groups do not divide the weight's `{Self}` output channels",
    label = "C_out is not a multiple of groups",
    note = "each group computes C_out / groups of the output channels"
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

/// A convolution's dims in one order, whatever its layout and rank: `Self`
/// is the input shape, `W` the weight's (a pool's kernel as a shape), `Op`
/// the operation ([`kind`]). One spatial dim is the second, the first is
/// `One`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` and `{W}` cannot be the input and weight of `{Op}` in the layout `{Layout}`",
    label = "not a convolution's input and weight",
    note = "channels first: conv1d takes [N, C_in, L] or [C_in, L] with a weight [C_out, C_in / groups, K]; conv2d takes [N, C_in, H, W] or [C_in, H, W] with [C_out, C_in / groups, kH, kW]; channels last (`layout = nwc` / `nhwc`) puts C_in last in both; pools take [N, C, ..] or [C, ..]"
)]
pub trait ConvShapes<W, Op, Layout> {
    /// The batch (`One` when unbatched).
    type Batch: Dim;
    /// Input channels.
    type In: Dim;
    /// Input channels per group, as the weight has them (a pool: `One`).
    type PerGroup: Dim;
    /// Output channels (a pool: the input's).
    type Out: Dim;
    /// Spatial sizes.
    type H: Dim;
    /// The last spatial size.
    type W: Dim;
    /// Kernel sizes.
    type KH: Dim;
    /// The last kernel size.
    type KW: Dim;
    /// The result shape from the output channels and spatial sizes.
    type Output<Co: Dim, Ho: Dim, Wo: Dim>: Shape;
    /// Whether the input has a batch dim.
    const BATCHED: bool;
    /// Whether channels come last.
    const CHANNELS_LAST: bool;
    /// Whether it is a pool (no weight; groups are the channels).
    const POOL: bool;
}

macro_rules! conv_shapes {
    ($op:ident [$($layout:ty),*] $body:tt) => {
        $(conv_shapes!(@one $op $layout $body);)*
    };
    (@one $op:ident $layout:ty { x ($($x:ident),*) w ($($w:ident),* $(,)?) -> ($($out:ident),*)
        { $batch:ty, $ci:ident, $cg:ty, $co:ident, $h:ty, $wd:ident, $kh:ty, $kw:ident, $batched:literal, $last:literal, $pool:ident } }) => {
        #[diagnostic::do_not_recommend]
        impl<$($x: Dim,)* $($w: Dim,)*> ConvShapes<($($w,)*), kind::$op, $layout> for ($($x,)*) {
            type Batch = $batch;
            type In = $ci;
            type PerGroup = $cg;
            type Out = $co;
            type H = $h;
            type W = $wd;
            type KH = $kh;
            type KW = $kw;
            type Output<Oc: Dim, Ho: Dim, Wo: Dim> = ($($out,)*);
            const BATCHED: bool = $batched;
            const CHANNELS_LAST: bool = $last;
            const POOL: bool = conv_shapes!(@pool $pool);
        }
    };
    (@pool pool) => { true };
    (@pool conv) => { false };
}

conv_shapes!(conv1d [(), keyword::ncw] { x (N, Ci, L) w (Cw, Cg, K) -> (N, Oc, Wo) { N, Ci, Cg, Cw, One, L, One, K, true, false, conv } });
conv_shapes!(conv1d [(), keyword::ncw] { x (Ci, L) w (Cw, Cg, K) -> (Oc, Wo) { One, Ci, Cg, Cw, One, L, One, K, false, false, conv } });
conv_shapes!(conv1d [keyword::nwc] { x (N, L, Ci) w (Cw, K, Cg) -> (N, Wo, Oc) { N, Ci, Cg, Cw, One, L, One, K, true, true, conv } });
conv_shapes!(conv1d [keyword::nwc] { x (L, Ci) w (Cw, K, Cg) -> (Wo, Oc) { One, Ci, Cg, Cw, One, L, One, K, false, true, conv } });
conv_shapes!(conv2d [(), keyword::nchw] { x (N, Ci, H, Wd) w (Cw, Cg, KH, KW) -> (N, Oc, Ho, Wo) { N, Ci, Cg, Cw, H, Wd, KH, KW, true, false, conv } });
conv_shapes!(conv2d [(), keyword::nchw] { x (Ci, H, Wd) w (Cw, Cg, KH, KW) -> (Oc, Ho, Wo) { One, Ci, Cg, Cw, H, Wd, KH, KW, false, false, conv } });
conv_shapes!(conv2d [keyword::nhwc] { x (N, H, Wd, Ci) w (Cw, KH, KW, Cg) -> (N, Ho, Wo, Oc) { N, Ci, Cg, Cw, H, Wd, KH, KW, true, true, conv } });
conv_shapes!(conv2d [keyword::nhwc] { x (H, Wd, Ci) w (Cw, KH, KW, Cg) -> (Ho, Wo, Oc) { One, Ci, Cg, Cw, H, Wd, KH, KW, false, true, conv } });
conv_shapes!(pool1d [(), keyword::ncw] { x (N, C, L) w (K,) -> (N, Oc, Wo) { N, C, One, C, One, L, One, K, true, false, pool } });
conv_shapes!(pool1d [(), keyword::ncw] { x (C, L) w (K,) -> (Oc, Wo) { One, C, One, C, One, L, One, K, false, false, pool } });
conv_shapes!(pool1d [keyword::nwc] { x (N, L, C) w (K,) -> (N, Wo, Oc) { N, C, One, C, One, L, One, K, true, true, pool } });
conv_shapes!(pool1d [keyword::nwc] { x (L, C) w (K,) -> (Wo, Oc) { One, C, One, C, One, L, One, K, false, true, pool } });
conv_shapes!(pool2d [(), keyword::nchw] { x (N, C, H, Wd) w (KH, KW) -> (N, Oc, Ho, Wo) { N, C, One, C, H, Wd, KH, KW, true, false, pool } });
conv_shapes!(pool2d [(), keyword::nchw] { x (C, H, Wd) w (KH, KW) -> (Oc, Ho, Wo) { One, C, One, C, H, Wd, KH, KW, false, false, pool } });
conv_shapes!(pool2d [keyword::nhwc] { x (N, H, Wd, C) w (KH, KW) -> (N, Ho, Wo, Oc) { N, C, One, C, H, Wd, KH, KW, true, true, pool } });
conv_shapes!(pool2d [keyword::nhwc] { x (H, Wd, C) w (KH, KW) -> (Ho, Wo, Oc) { One, C, One, C, H, Wd, KH, KW, false, true, pool } });

/// The channel check of a convolution: the input's channels are the weight's
/// per-group count times `groups`, which divides the output channels; `Co`
/// once both hold. A pool checks nothing.
pub trait ChannelRule<Shapes, G> {
    /// The output channels.
    type Out: Dim;
}

/// Where the operation is a convolution.
pub struct Convolution;
/// Where the operation is a pool.
pub struct Pooling;

impl<X, W, Op, L, G> ChannelRule<(X, W, Op, L), G> for Convolution
where
    X: ConvShapes<W, Op, L>,
    G: Dim,
    X::In: ChannelsMatch<X::PerGroup, G>,
    X::Out: GroupsDivide<G>,
{
    type Out =
        <X::In as ChannelsMatch<X::PerGroup, G>>::Checked<<X::Out as GroupsDivide<G>>::Checked>;
}

impl<X: ConvShapes<W, Op, L>, W, Op, L, G> ChannelRule<(X, W, Op, L), G> for Pooling {
    type Out = X::Out;
}

/// Whether an operation is a convolution or a pool, as a type.
pub trait OpKind {
    /// [`Convolution`] or [`Pooling`].
    type Kind;
    /// Its spatial dims.
    const SPATIAL: usize;
}
impl OpKind for kind::conv1d {
    type Kind = Convolution;
    const SPATIAL: usize = 1;
}
impl OpKind for kind::conv2d {
    type Kind = Convolution;
    const SPATIAL: usize = 2;
}
impl OpKind for kind::pool1d {
    type Kind = Pooling;
    const SPATIAL: usize = 1;
}
impl OpKind for kind::pool2d {
    type Kind = Pooling;
    const SPATIAL: usize = 2;
}

/// The convolution and pooling rule the constructors state: `Self` is the
/// input shape, `W` the weight's (a pool's kernel as a shape), `Op` the
/// operation ([`kind`]), then the options as the macro passes them (a
/// pool's stride defaults to its kernel, which the macro writes). One impl
/// per input rank, each computing the output through the carriers.
pub trait ConvRule<W, Op, Stride, Pad, Dilation, G, Layout>: Shape {
    /// The result shape.
    type Output: Shape;
    /// The sizes the loops use.
    const GEOMETRY: Geometry;
}

/// The output shape of a convolution or pool whose input is `X`.
type ConvOutput<X, W, Op, S, P, Dl, G, L> = <X as ConvShapes<W, Op, L>>::Output<
    <<Op as OpKind>::Kind as ChannelRule<(X, W, Op, L), <G as Groups>::Count>>::Out,
    AxisOut<X, W, Op, L, S, P, Dl, First>,
    AxisOut<X, W, Op, L, S, P, Dl, Second>,
>;

/// Selects a spatial dim.
pub struct First;
/// Selects the last spatial dim.
pub struct Second;

/// The sizes of one spatial dim of a convolution: its input, kernel,
/// padding, dilation and stride.
pub trait SpatialDim<X, W, Op, L, S, P, Dl> {
    /// The input size.
    type Len: Dim;
    /// The kernel size.
    type Kernel: Dim;
    /// The padding on each side.
    type Pad: Dim;
    /// The dilation.
    type Dilation: Dim;
    /// The stride.
    type Stride: Dim;
}

impl<X: ConvShapes<W, Op, L>, W, Op, L, S: PerAxis<One>, P: Padding, Dl: PerAxis<One>>
    SpatialDim<X, W, Op, L, S, P, Dl> for First
{
    type Len = X::H;
    type Kernel = X::KH;
    type Pad = P::First;
    type Dilation = Dl::First;
    type Stride = S::First;
}

impl<X: ConvShapes<W, Op, L>, W, Op, L, S: PerAxis<One>, P: Padding, Dl: PerAxis<One>>
    SpatialDim<X, W, Op, L, S, P, Dl> for Second
{
    type Len = X::W;
    type Kernel = X::KW;
    type Pad = P::Second;
    type Dilation = Dl::Second;
    type Stride = S::Second;
}

/// The output size on spatial dim `A` ([`First`] or [`Second`]).
type AxisOut<X, W, Op, L, S, P, Dl, A> = <<P as PaddingKind>::Kind as AxisLength<
    <A as SpatialDim<X, W, Op, L, S, P, Dl>>::Len,
    <A as SpatialDim<X, W, Op, L, S, P, Dl>>::Kernel,
    <A as SpatialDim<X, W, Op, L, S, P, Dl>>::Pad,
    <A as SpatialDim<X, W, Op, L, S, P, Dl>>::Dilation,
    <A as SpatialDim<X, W, Op, L, S, P, Dl>>::Stride,
>>::Length;

macro_rules! conv_rule {
    ($($x:ident)*) => {
        #[diagnostic::do_not_recommend]
        impl<$($x: Dim,)* W, Op, S, P, Dl, G, L> ConvRule<W, Op, S, P, Dl, G, L> for ($($x,)*)
        where
            Self: ConvShapes<W, Op, L>,
            Op: OpKind,
            G: Groups,
            S: PerAxis<One>,
            P: Padding + PaddingKind,
            Dl: PerAxis<One>,
            Op::Kind: ChannelRule<(Self, W, Op, L), G::Count>,
            P::Kind: AxisLength<<Self as ConvShapes<W, Op, L>>::H, <Self as ConvShapes<W, Op, L>>::KH, P::First, Dl::First, S::First>
                + AxisLength<<Self as ConvShapes<W, Op, L>>::W, <Self as ConvShapes<W, Op, L>>::KW, P::Second, Dl::Second, S::Second>,
        {
            type Output = ConvOutput<Self, W, Op, S, P, Dl, G, L>;
            const GEOMETRY: Geometry = geometry::<Self, W, Op, L, S, P, Dl, G>(
                <AxisOut<Self, W, Op, L, S, P, Dl, First> as Dim>::SIZE,
                <AxisOut<Self, W, Op, L, S, P, Dl, Second> as Dim>::SIZE,
            );
        }
    };
}

conv_rule!(A0 A1);
conv_rule!(A0 A1 A2);
conv_rule!(A0 A1 A2 A3);

/// The geometry of a convolution or pool of input shape `X`, given its
/// output's spatial sizes.
const fn geometry<X, W, Op, L, S, P, Dl, G>(out_h: usize, out_w: usize) -> Geometry
where
    X: ConvShapes<W, Op, L>,
    Op: OpKind,
    S: PerAxis<One>,
    P: Padding,
    Dl: PerAxis<One>,
    G: Groups,
{
    let kernel = [X::KH::SIZE, X::KW::SIZE];
    let dilation = [<Dl::First as Dim>::SIZE, <Dl::Second as Dim>::SIZE];
    let pad = if P::SAME {
        // PyTorch's split of the total `d (k - 1)`: the smaller half first.
        [
            dilation[0] * kernel[0].saturating_sub(1) / 2,
            dilation[1] * kernel[1].saturating_sub(1) / 2,
        ]
    } else {
        [<P::First as Dim>::SIZE, <P::Second as Dim>::SIZE]
    };
    Geometry {
        spatial: Op::SPATIAL,
        batched: X::BATCHED,
        batch: X::Batch::SIZE,
        in_channels: X::In::SIZE,
        out_channels: X::Out::SIZE,
        groups: if X::POOL {
            X::In::SIZE
        } else {
            <G::Count as Dim>::SIZE
        },
        channels_last: X::CHANNELS_LAST,
        input: [X::H::SIZE, X::W::SIZE],
        kernel,
        output: [out_h, out_w],
        stride: [<S::First as Dim>::SIZE, <S::Second as Dim>::SIZE],
        dilation,
        pad,
    }
}
