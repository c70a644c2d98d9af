//! The transposed convolution rule, as `torch.nn.functional` documents
//! `conv_transpose1d`/`conv_transpose2d`: an input `[N, C_in, *spatial]`
//! (or unbatched `[C_in, *spatial]`) and a weight
//! `[C_in, C_out / groups, *kernel]` give `[N, C_out, *out]`, each output
//! size
//!
//! `(L - 1) * stride - (p_before + p_after) + dilation * (k - 1) + output_padding + 1`
//!
//! (PyTorch's symmetric `padding = p` is `p_before = p_after = p`; a pair
//! per dim is ONNX `ConvTranspose`'s `pads`). `groups` divides `C_in`, and
//! `output_padding` is smaller than the stride or the dilation, as PyTorch
//! requires. Channels first only, as PyTorch and ONNX lay it out.
//!
//! The options arrive as the convolution rule's do ([`super::conv`]);
//! the parts of the rule are carriers with their own messages, reported
//! through [`TransposedParts`] as [`super::conv::ConvParts`] reports the
//! convolution's.
//!
//! ```
//! use tensor_expr_runtime::rules::conv::kind::conv_transpose2d;
//! use tensor_expr_runtime::rules::conv_transpose::TransposedRule;
//! use tensor_expr_runtime::{One, D};
//! // A 2x upsampling of 8 channels to 4: stride 2, padding 1, output
//! // padding 1 turn 7x7 into (7 - 1) * 2 - 2 + 2 + 1 + 1 = 14 per side.
//! type Out = <(One, D<8>, D<7>, D<7>) as TransposedRule<
//!     (D<8>, D<4>, D<3>, D<3>),
//!     conv_transpose2d,
//!     (D<2>,),
//!     (One,),
//!     (One,),
//!     (),
//!     (),
//! >>::Output;
//! let _: Out = (One, D::<4>, D::<14>, D::<14>);
//! ```

use super::conv::{kind, EachSide, Geometry, Groups, InputRank, OpKind, PerAxis, Sides};
use super::size::{ComputableSize, SizeDim, TypeSize};
use crate::dim::{Dim, One, D};
use crate::shape::Shape;
use core::ops::{Add, Mul, Rem, Sub};
use typenum::{Diff, IsLess, Maximum, Mod, Prod, Same, Sum, True, U0, U1};

/// The padding of one spatial dim as its two sides: what a transposed
/// convolution crops from its full output.
pub trait PaddingSides {
    /// Crop before the first element.
    type Before: Dim;
    /// Crop after the last.
    type After: Dim;
}

impl<P: Dim> PaddingSides for EachSide<P> {
    type Before = P;
    type After = P;
}

impl<B: Dim, A: Dim> PaddingSides for Sides<B, A> {
    type Before = B;
    type After = A;
}

/// `padding` as written for a transposed convolution (no keyword): the
/// sides of each spatial dim.
pub trait TransposedPadding {
    /// The first spatial dim's.
    type First: PaddingSides;
    /// The second's (the only one in one dim).
    type Second: PaddingSides;
}

impl<P: PerAxis<D<0>>> TransposedPadding for P {
    type First = EachSide<P::First>;
    type Second = EachSide<P::Second>;
}

impl<B: Dim, A: Dim> TransposedPadding for (Sides<B, A>,) {
    type First = Sides<B, A>;
    type Second = Sides<B, A>;
}

impl<B: Dim, A: Dim, B2: Dim, A2: Dim> TransposedPadding for (Sides<B, A>, Sides<B2, A2>) {
    type First = Sides<B, A>;
    type Second = Sides<B2, A2>;
}

/// The full output length before cropping, `(L - 1) s + d (k - 1) + e + 1`,
/// over typenum numbers: `Self` is the input length `L`.
pub trait FullLength<Stride, Kernel, Dilation, Extra> {
    /// The length as a typenum number.
    type Full;
}

impl<L, S, K, Dl, E> FullLength<S, K, Dl, E> for L
where
    L: Sub<U1>,
    Diff<L, U1>: Mul<S>,
    K: Sub<U1>,
    Dl: Mul<Diff<K, U1>>,
    Prod<Diff<L, U1>, S>: Add<Prod<Dl, Diff<K, U1>>>,
    Sum<Prod<Diff<L, U1>, S>, Prod<Dl, Diff<K, U1>>>: Add<E>,
    Sum<Sum<Prod<Diff<L, U1>, S>, Prod<Dl, Diff<K, U1>>>, E>: Add<U1>,
{
    type Full = Sum<Sum<Sum<Prod<Diff<L, U1>, S>, Prod<Dl, Diff<K, U1>>>, E>, U1>;
}

/// The output length along one spatial dim: a kernel of size `Self` at
/// dilation `Dilation` and stride `Stride`, output padding `Extra`, over
/// an input of size `Len`, cropped by `Pad`. The message carrier of a
/// padding that crops everything.
#[diagnostic::on_unimplemented(
    message = "a transposed convolution of kernel `{Self}` over an input of size `{Len}` (stride `{Stride}`, dilation `{Dilation}`) has no output left after padding `{Pad}`",
    label = "the output is (L - 1) * stride + dilation * (k - 1) + output_padding + 1 long before the padding on both sides is cut off"
)]
pub trait TransposedFits<Len, Pad, Dilation, Stride, Extra> {
    /// The output length.
    type Length: Dim;
}

#[diagnostic::do_not_recommend]
impl<K, L, P, Dl, S, E> TransposedFits<L, P, Dl, S, E> for K
where
    P: PaddingSides,
    P::Before: TypeSize,
    P::After: TypeSize,
    K: TypeSize,
    L: TypeSize,
    Dl: TypeSize,
    S: TypeSize,
    E: TypeSize,
    <P::Before as TypeSize>::Size: Add<<P::After as TypeSize>::Size>,
    L::Size: FullLength<S::Size, K::Size, Dl::Size, E::Size>,
    Sum<<P::Before as TypeSize>::Size, <P::After as TypeSize>::Size>:
        IsLess<<L::Size as FullLength<S::Size, K::Size, Dl::Size, E::Size>>::Full, Output = True>,
    <L::Size as FullLength<S::Size, K::Size, Dl::Size, E::Size>>::Full:
        Sub<Sum<<P::Before as TypeSize>::Size, <P::After as TypeSize>::Size>>,
    Diff<
        <L::Size as FullLength<S::Size, K::Size, Dl::Size, E::Size>>::Full,
        Sum<<P::Before as TypeSize>::Size, <P::After as TypeSize>::Size>,
    >: SizeDim,
{
    type Length = <Diff<
        <L::Size as FullLength<S::Size, K::Size, Dl::Size, E::Size>>::Full,
        Sum<<P::Before as TypeSize>::Size, <P::After as TypeSize>::Size>,
    > as SizeDim>::Dim;
}

/// `output_padding` (`Self`) is smaller than the stride or the dilation,
/// as PyTorch requires: it adds positions only where a larger stride left
/// the input's last window short.
#[diagnostic::on_unimplemented(
    message = "an output padding of `{Self}` with stride `{Stride}` and dilation `{Dilation}`: it must be smaller than one of them",
    label = "output_padding adds up to stride - 1 (or dilation - 1) positions at the end, to pick one of the output sizes a strided convolution maps to the same input size"
)]
pub trait OutputPaddingFits<Stride, Dilation> {
    /// `Self`.
    type Checked: Dim;
}

#[diagnostic::do_not_recommend]
impl<E, S, Dl> OutputPaddingFits<S, Dl> for E
where
    E: TypeSize + Dim,
    S: TypeSize,
    Dl: TypeSize,
    S::Size: typenum::Max<Dl::Size>,
    E::Size: IsLess<Maximum<S::Size, Dl::Size>, Output = True>,
{
    type Checked = E;
}

/// The weight's first dim (`Self`) is the input's channel count `In`.
/// `Carried` is returned once they agree, so the check is part of the
/// result's type.
#[diagnostic::on_unimplemented(
    message = "the weight takes `{Self}` input channels, but the input has `{In}`",
    label = "a transposed convolution's weight is [C_in, C_out / groups, ..kernel]"
)]
pub trait InputChannelsMatch<In, Carried> {
    /// `Carried`.
    type Carried: Dim;
}

#[diagnostic::do_not_recommend]
impl<Cw, Ci, X: Dim> InputChannelsMatch<Ci, X> for Cw
where
    Cw: TypeSize,
    Ci: TypeSize,
    Cw::Size: Same<Ci::Size>,
{
    type Carried = X;
}

/// `groups` (`Self`) divides the input channels `In`, and the output has
/// `PerGroup * groups` channels.
#[diagnostic::on_unimplemented(
    message = "`{Self}` groups do not divide the input's `{In}` channels",
    label = "each group reads C_in / groups of the input channels, so C_in is a multiple of groups"
)]
pub trait GroupsOfInput<In, PerGroup> {
    /// The output channels, `PerGroup * groups`.
    type OutChannels: Dim;
}

#[diagnostic::do_not_recommend]
impl<G, Ci, Cg> GroupsOfInput<Ci, Cg> for G
where
    G: TypeSize,
    Ci: TypeSize,
    Cg: TypeSize,
    Ci::Size: Rem<G::Size>,
    Mod<Ci::Size, G::Size>: Same<U0>,
    Cg::Size: Mul<G::Size>,
    Prod<Cg::Size, G::Size>: SizeDim,
{
    type OutChannels = <Prod<Cg::Size, G::Size> as SizeDim>::Dim;
}

/// The transposed convolution rule the constructor states: `Self` is the
/// input shape, `W` the weight's, `Op` the operation, then the options
/// as the macro passes them (stride, padding, output padding, groups,
/// dilation: `torch.nn.functional.conv_transpose2d`'s order).
#[diagnostic::on_unimplemented(
    message = "`{Self}` and `{W}` cannot be the input and weight of `{Op}`",
    label = "not a transposed convolution's input and weight",
    note = "conv_transpose1d takes [N, C_in, L] or [C_in, L] with a weight [C_in, C_out / groups, K]; conv_transpose2d takes [N, C_in, H, W] or [C_in, H, W] with [C_in, C_out / groups, kH, kW]"
)]
pub trait TransposedRule<W, Op, Stride, Pad, Extra, G, Dilation>: Shape {
    /// The result shape.
    type Output: Shape;
    /// The sizes the loops use: `pad` is the crop before the first
    /// element.
    const GEOMETRY: Geometry;
}

/// The rule for one operation and input rank, which [`TransposedRule`]'s
/// one impl requires of `()`, so that each carrier reports by its own
/// message (as [`super::conv::ConvParts`] explains).
#[diagnostic::on_unimplemented(
    message = "`{X}` and `{W}` cannot be the input and weight of `{Op}`",
    label = "not a transposed convolution's input and weight",
    note = "conv_transpose1d takes [N, C_in, L] or [C_in, L] with a weight [C_in, C_out / groups, K]; conv_transpose2d takes [N, C_in, H, W] or [C_in, H, W] with [C_in, C_out / groups, kH, kW]"
)]
pub trait TransposedParts<X, W, Op, Stride, Pad, Extra, G, Dilation> {
    /// The result shape.
    type Output: Shape;
    /// The sizes the loops use.
    const GEOMETRY: Geometry;
}

#[diagnostic::do_not_recommend]
impl<X, W, Op, S, P, E, G, Dl> TransposedRule<W, Op, S, P, E, G, Dl> for X
where
    X: Shape,
    (): TransposedParts<X, W, Op, S, P, E, G, Dl>,
{
    type Output = <() as TransposedParts<X, W, Op, S, P, E, G, Dl>>::Output;
    const GEOMETRY: Geometry = <() as TransposedParts<X, W, Op, S, P, E, G, Dl>>::GEOMETRY;
}

/// Writes the [`TransposedParts`] impl of one operation and input rank:
/// the input and weight dims as written, the result with `Oc`, `Ho`, `Wo`
/// for the computed sizes, then the dims by role (batch, spatial sizes,
/// kernel sizes: `One` for a role the shapes lack) and whether it is
/// batched; `first` gives the first spatial dim's padding, dilation, stride
/// and output padding, and the bounds they need (neutral for one spatial
/// dim, whose size-1 stand-in the options, written once for the real dim,
/// do not touch).
macro_rules! transposed_rule {
    ($op:ident { x ($($x:ident),*) w ($($w:ident),*) -> ($($out:ident),*)
        { $batch:ty, $h:ty, $wd:ident, $kh:ty, $kw:ident, $batched:literal }
        first [$p1:ty, $dl1:ty, $s1:ty, $e1:ty] $(where $($first_bound:tt)*)? }) => {
        impl<$($x: Dim,)* $($w: Dim,)* S, P, E, G, Dl, Any> TransposedParts<($($x,)*), ($($w,)*), kind::$op, S, P, E, G, Dl> for Any
        where
            S: PerAxis<One>,
            P: TransposedPadding,
            E: PerAxis<D<0>>,
            G: Groups,
            Dl: PerAxis<One>,
            $h: ComputableSize,
            $wd: ComputableSize,
            Ci: ComputableSize,
            E::Second: OutputPaddingFits<S::Second, Dl::Second>,
            G::Count: GroupsOfInput<<Ci as ComputableSize>::Dim, Cg>,
            $($($first_bound)*)?
            $kh: TransposedFits<<$h as ComputableSize>::Dim, $p1, $dl1, $s1, $e1>,
            $kw: TransposedFits<<$wd as ComputableSize>::Dim, P::Second, Dl::Second, S::Second, <E::Second as OutputPaddingFits<S::Second, Dl::Second>>::Checked>,
            Cw: InputChannelsMatch<<Ci as ComputableSize>::Dim, <$kw as TransposedFits<<$wd as ComputableSize>::Dim, P::Second, Dl::Second, S::Second, <E::Second as OutputPaddingFits<S::Second, Dl::Second>>::Checked>>::Length>,
        {
            type Output = transposed_rule!(@output [$($out)*]
                [<G::Count as GroupsOfInput<<Ci as ComputableSize>::Dim, Cg>>::OutChannels]
                [<$kh as TransposedFits<<$h as ComputableSize>::Dim, $p1, $dl1, $s1, $e1>>::Length]
                [<Cw as InputChannelsMatch<<Ci as ComputableSize>::Dim, <$kw as TransposedFits<<$wd as ComputableSize>::Dim, P::Second, Dl::Second, S::Second, <E::Second as OutputPaddingFits<S::Second, Dl::Second>>::Checked>>::Length>>::Carried]);
            const GEOMETRY: Geometry = geometry::<kind::$op, S, P, G, Dl>(
                $batched,
                <$batch as Dim>::SIZE,
                Ci::SIZE,
                <<G::Count as GroupsOfInput<<Ci as ComputableSize>::Dim, Cg>>::OutChannels as Dim>::SIZE,
                [<$h as Dim>::SIZE, $wd::SIZE],
                [<$kh as Dim>::SIZE, $kw::SIZE],
                [
                    <<$kh as TransposedFits<<$h as ComputableSize>::Dim, $p1, $dl1, $s1, $e1>>::Length as Dim>::SIZE,
                    <<$kw as TransposedFits<<$wd as ComputableSize>::Dim, P::Second, Dl::Second, S::Second, <E::Second as OutputPaddingFits<S::Second, Dl::Second>>::Checked>>::Length as Dim>::SIZE,
                ],
            );
        }
    };
    (@output [$($out:ident)*] $oc:tt $ho:tt $wo:tt) => {
        ($(transposed_rule!(@dim $out $oc $ho $wo),)*)
    };
    (@dim Oc [$($oc:tt)*] $ho:tt $wo:tt) => { $($oc)* };
    (@dim Ho $oc:tt [$($ho:tt)*] $wo:tt) => { $($ho)* };
    (@dim Wo $oc:tt $ho:tt [$($wo:tt)*]) => { $($wo)* };
    (@dim $d:ident $oc:tt $ho:tt $wo:tt) => { $d };
}

transposed_rule!(conv_transpose1d { x (N, Ci, L) w (Cw, Cg, K) -> (N, Oc, Wo) { N, One, L, One, K, true } first [EachSide<D<0>>, One, One, D<0>] });
transposed_rule!(conv_transpose1d { x (Ci, L) w (Cw, Cg, K) -> (Oc, Wo) { One, One, L, One, K, false } first [EachSide<D<0>>, One, One, D<0>] });
transposed_rule!(conv_transpose2d { x (N, Ci, H, Wd) w (Cw, Cg, KH, KW) -> (N, Oc, Ho, Wo) { N, H, Wd, KH, KW, true } first [P::First, Dl::First, S::First, <E::First as OutputPaddingFits<S::First, Dl::First>>::Checked] where E::First: OutputPaddingFits<S::First, Dl::First>, });
transposed_rule!(conv_transpose2d { x (Ci, H, Wd) w (Cw, Cg, KH, KW) -> (Oc, Ho, Wo) { One, H, Wd, KH, KW, false } first [P::First, Dl::First, S::First, <E::First as OutputPaddingFits<S::First, Dl::First>>::Checked] where E::First: OutputPaddingFits<S::First, Dl::First>, });

/// The [`TransposedParts`] impls of `$op` for inputs of each rank listed
/// (the ranks it does not take), each requiring the convolution's
/// [`InputRank`], whose message names the shape.
macro_rules! wrong_rank {
    ($op:ident: $(($($x:ident),+))+) => {$(
        impl<$($x: Dim,)+ W, S, P, Ex, G, Dl, Any> TransposedParts<($($x,)+), W, kind::$op, S, P, Ex, G, Dl> for Any
        where
            Any: InputRank<($($x,)+), kind::$op>,
        {
            type Output = ($($x,)+);
            const GEOMETRY: Geometry = geometry::<kind::$op, (), (), (), ()>(false, 0, 0, 0, [0; 2], [0; 2], [0; 2]);
        }
    )+};
}

wrong_rank!(conv_transpose1d: (A) (A, B, C, D) (A, B, C, D, E) (A, B, C, D, E, F));
wrong_rank!(conv_transpose2d: (A) (A, B) (A, B, C, D, E) (A, B, C, D, E, F));

/// The geometry of a transposed convolution of operation `Op`: `stride`,
/// `dilation` and `pad` (the crop before the first element) are the
/// transposed convolution's own, `input` the size it reads, `output` the
/// size it writes.
#[allow(clippy::too_many_arguments)]
const fn geometry<Op, S, P, G, Dl>(
    batched: bool,
    batch: usize,
    in_channels: usize,
    out_channels: usize,
    input: [usize; 2],
    kernel: [usize; 2],
    output: [usize; 2],
) -> Geometry
where
    Op: OpKind,
    S: PerAxis<One>,
    P: TransposedPadding,
    G: Groups,
    Dl: PerAxis<One>,
{
    let mut geometry = Geometry {
        spatial: Op::SPATIAL,
        batched,
        batch,
        in_channels,
        out_channels,
        groups: <G::Count as Dim>::SIZE,
        channels_last: false,
        input,
        kernel,
        output,
        stride: [<S::First as Dim>::SIZE, <S::Second as Dim>::SIZE],
        dilation: [<Dl::First as Dim>::SIZE, <Dl::Second as Dim>::SIZE],
        pad: [
            <<P::First as PaddingSides>::Before as Dim>::SIZE,
            <<P::Second as PaddingSides>::Before as Dim>::SIZE,
        ],
    };
    if Op::SPATIAL == 1 {
        // One spatial dim is the second; the first is a size-1 stand-in.
        geometry.output[0] = 1;
        geometry.stride[0] = 1;
        geometry.dilation[0] = 1;
        geometry.pad[0] = 0;
    }
    geometry
}
