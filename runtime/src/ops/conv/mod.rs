//! `conv1d` and `conv2d`, as `torch.nn.functional` defines them: a
//! cross-correlation (no kernel flip) with stride, symmetric or `same`
//! padding (zeros), dilation and groups, over a batched or unbatched input,
//! channels first (PyTorch's layout, the default) or channels last
//! (`layout = nwc` / `nhwc`, TFLite's). The shape rule is
//! [`crate::rules::conv`]; this module evaluates.
//!
//! A convolution is read like a matrix product: the kernel walks the output
//! in register tiles ([`Reading::PRODUCT`]), the node computes each tile's
//! sums in registers across all its taps, and the enclosing expression (a
//! bias through `in_dims(b, [0])`, an activation) is applied before the one
//! store. Channels first, a tile is `R` output channels of one group by `C`
//! positions of one output row (each input window read once for the `R`
//! channels, each tap's weight one broadcast); a depthwise or
//! one-input-channel 2-D convolution takes `R` output rows of one channel
//! instead. Tiles on the padded border read through a bounds check, tiles
//! inside without one. Channels last, a tile is `R` positions by `C`
//! output channels: each output channel a dot product of its weights with
//! each pixel along the input channels, or, depthwise, each tap a
//! multiply-add of the pixel's channels by their weights (module
//! `channels_last`). Where the CPU has AVX-512, module `float`'s kernels,
//! compiled once, sum whole `f32` tiles of either layout with the same
//! bits (512-bit vectors whatever LLVM's tuning prefers). Over stored `i8`
//! data channels last (one group), module `int8`'s kernels sum every tile
//! from the bytes. Any tile these do not cover sums element by element.
//!
//! The inputs are borrowed where they are stored: an expression input is
//! evaluated first (the macro stages it), so the taps read memory, not a
//! recomputed expression.

mod channels_last;
mod float;
pub mod inputs;
mod int8;
pub mod transpose;

use super::{Build, NamedOption, Operation, Reads, Signature};
use crate::element::Element;
use crate::expr::block::{multiply_add, with_named_rows, Block};
use crate::expr::{
    Context, Expr, Int8Layer, Int8Source, Own, Reading, Requantization, Row, Shaped, Stage, Tile,
    TileOrigin, TileRows,
};
use crate::rules::conv::{ConvRule, Geometry};
use crate::scratch::Scratch;
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use inputs::{ConvInput, Plain, Reader};

/// `stride = s` or `[sh, sw]`: positive, default 1.
pub const STRIDE: NamedOption = NamedOption::sizes("stride", false);
/// `padding = p`, `[ph, pw]`, `[[top, bottom], [left, right]]`, `same` or
/// `valid`: default 0.
pub const PADDING: NamedOption = NamedOption {
    keywords: &["same", "valid"],
    ..PADDING_SIZES
};
/// `padding = p`, `[ph, pw]` or `[[top, bottom], [left, right]]`: default 0
/// ([`PADDING`]'s values, without its keywords).
pub const PADDING_SIZES: NamedOption = NamedOption::sizes("padding", true).sides();
/// `dilation = d` or `[dh, dw]`: positive, default 1.
pub const DILATION: NamedOption = NamedOption::sizes("dilation", false);
/// `groups = g`: positive, default 1.
pub const GROUPS: NamedOption = NamedOption {
    lengths: &[1],
    ..NamedOption::sizes("groups", false)
};

/// The table entry of `conv1d`.
pub const CONV1D: Operation = convolution_entry(
    "conv1d",
    "conv::conv1d",
    OPTIONS_1D,
    "A 1-D convolution (cross-correlation), as `torch.nn.functional.conv1d`.",
    &[
        "conv1d(x, w)",
        "conv1d(x, w, stride = s, padding = p, dilation = d, groups = g, layout = nwc)",
    ],
);

/// The table entry of `conv2d`.
pub const CONV2D: Operation = convolution_entry(
    "conv2d",
    "conv::conv2d",
    OPTIONS_2D,
    "A 2-D convolution (cross-correlation), as `torch.nn.functional.conv2d`.",
    &[
        "conv2d(x, w)",
        "conv2d(x, w, stride = [sh, sw], padding = [ph, pw], dilation = [dh, dw], groups = g, layout = nhwc)",
    ],
);

/// The entry of a convolution with these options.
const fn convolution_entry(
    name: &'static str,
    marker: &'static str,
    options: &'static [NamedOption],
    summary: &'static str,
    forms: &'static [&'static str],
) -> Operation {
    Operation {
        name,
        signature: Signature {
            dims_optional: true,
            options,
            ..Signature::of(2)
        },
        reads: Reads::Tiled,
        build: Build::Node {
            constructor: "conv::convolution",
            marker: Some(marker),
        },
        elements: "Element",
        summary,
        forms,
    }
}

/// The options of `conv1d`, one value each.
const OPTIONS_1D: &[NamedOption] = &[
    STRIDE.one(),
    PADDING.one(),
    DILATION.one(),
    GROUPS,
    LAYOUT_1D,
];
/// The options of `conv2d`.
const OPTIONS_2D: &[NamedOption] = &[STRIDE, PADDING, DILATION, GROUPS, LAYOUT_2D];

/// `layout = ncw | nwc`.
pub const LAYOUT_1D: NamedOption = NamedOption::keywords("layout", &["ncw", "nwc"]);
/// `layout = nchw | nhwc`.
pub const LAYOUT_2D: NamedOption = NamedOption::keywords("layout", &["nchw", "nhwc"]);

pub use crate::rules::conv::kind::{conv1d, conv2d};

/// A convolution's shapes and `Options` (stride, padding, dilation, groups,
/// layout, as the macro passes them), which give its [`Geometry`] and
/// result shape through [`ConvRule`].
pub struct Spec<O, X, W, Op, Options>(PhantomData<(O, X, W, Op, Options)>);

/// What the node needs of its [`Spec`]: the sizes and the result shape.
pub trait ConvSpec {
    /// The sizes.
    const GEOMETRY: Geometry;
    /// The result shape.
    type Output: Shape;
}

impl<O: Shape, X, W, Op, S, P, Dl, G, L> ConvSpec for Spec<O, X, W, Op, (S, P, Dl, G, L)>
where
    X: ConvRule<W, Op, S, P, Dl, G, L>,
{
    const GEOMETRY: Geometry = X::GEOMETRY;
    type Output = O;
}

/// A convolution of `x` by `w` over elements `T`, as spec `C` says, each
/// input's stored elements read as its reader says ([`inputs`]).
pub struct Convolution<'a, T, C, Xr: Reader<T> = Plain<T>, Wr: Reader<T> = Plain<T>> {
    x: &'a [Xr::Stored],
    w: &'a [Wr::Stored],
    x_reader: Xr,
    w_reader: Wr,
    /// The weights in the int8 kernel's layout, made on its first tile
    /// (where the weights are narrow integers).
    packed: Wr::Packed,
    spec: PhantomData<C>,
}

/// Builds `conv1d(x, w, ..)` or `conv2d(x, w, ..)` (`op` says which): the
/// options are the witnesses the macro writes, `()` where left out; the
/// inputs are nodes the convolution reads in place ([`ConvInput`]).
// Its arguments and return type carry what a convolution is: two inputs,
// the operation and five options.
#[inline(always)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
#[rustfmt::skip]
pub fn convolution<'a, T, M, Op, S, P, Dl, G, L, X, W>(
    _context: Context<T, M>,
    _op: Op,
    _stride: PhantomData<S>,
    _padding: PhantomData<P>,
    _dilation: PhantomData<Dl>,
    _groups: PhantomData<G>,
    _layout: PhantomData<L>,
    x: X,
    w: W,
) -> Convolution<'a, T, Spec<<X::Shape as ConvRule<W::Shape, Op, S, P, Dl, G, L>>::Output, X::Shape, W::Shape, Op, (S, P, Dl, G, L)>, X::Reader, W::Reader>
where
    X: ConvInput<'a, T>,
    W: ConvInput<'a, T>,
    X::Shape: ConvRule<W::Shape, Op, S, P, Dl, G, L>,
{
    let ((x, x_reader), (w, w_reader)) = (x.parts(), w.parts());
    Convolution { x, w, x_reader, w_reader, packed: Default::default(), spec: PhantomData }
}

impl<T, C: ConvSpec, Xr: Reader<T>, Wr: Reader<T>> Shaped for Convolution<'_, T, C, Xr, Wr> {
    type Shape = C::Output;
}

/// Where one output element of a convolution (or pool) is, in plain
/// indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) n: usize,
    pub(crate) channel: usize,
    pub(crate) oh: usize,
    pub(crate) ow: usize,
}

impl Position {
    /// The first element.
    const ORIGIN: Position = Position {
        n: 0,
        channel: 0,
        oh: 0,
        ow: 0,
    };
}

impl<'a, T: Element, C: ConvSpec, Xr: Reader<T>, Wr: Reader<T>> Convolution<'a, T, C, Xr, Wr> {
    const G: Geometry = C::GEOMETRY;
    /// Input channels each group reads (and each weight row holds).
    const PER_GROUP: usize = Self::G.in_channels / Self::G.groups;
    /// Output channels per group.
    const OUT_PER_GROUP: usize = Self::G.out_channels / Self::G.groups;
    /// The rank of the node's own shape.
    const OWN_RANK: usize = <C::Output as Shape>::RANK;
    /// The kernel's taps, `kH * kW`.
    const TAPS: usize = Self::G.kernel[0] * Self::G.kernel[1];
    /// The elements of one input channel's plane, `H * W`.
    const PLANE: usize = Self::G.input[0] * Self::G.input[1];

    /// The first input channel of the group output channel `channel` is in.
    #[inline(always)]
    const fn first_input(channel: usize) -> usize {
        channel / Self::OUT_PER_GROUP * Self::PER_GROUP
    }

    /// The plane of input channel `ci` of the group output channel
    /// `p.channel` reads, in image `p.n` (channels first).
    #[inline(always)]
    fn input_plane(&self, p: Position, ci: usize) -> &[Xr::Stored] {
        let c = Self::first_input(p.channel) + ci;
        &self.x[(p.n * Self::G.in_channels + c) * Self::PLANE..][..Self::PLANE]
    }

    /// The position of the element at output index `outer` (every dim but
    /// the last, of the whole expression's shape `O`) and column `j`.
    #[inline(always)]
    fn position<O: Shape>(outer: [usize; MAX_RANK], j: usize) -> Position {
        output_position::<C::Output, O>(&Self::G, outer, j)
    }

    /// One output element, summed tap by tap (the general path).
    #[inline(always)]
    fn element(&self, p: Position) -> T {
        let g = Self::G;
        let group = p.channel / Self::OUT_PER_GROUP;
        let mut sum = T::ZERO;
        for ci in 0..Self::PER_GROUP {
            let c = group * Self::PER_GROUP + ci;
            for kh in 0..g.kernel[0] {
                let Some(ih) = input_at(p.oh, kh, 0, &g) else {
                    continue;
                };
                for kw in 0..g.kernel[1] {
                    let Some(iw) = input_at(p.ow, kw, 1, &g) else {
                        continue;
                    };
                    let x = self.x_reader.read(self.x[input_index(&g, p.n, c, ih, iw)]);
                    let w = self
                        .w_reader
                        .read(self.w[weight_index(&g, p.channel, ci, kh, kw)]);
                    sum = w.mul_add(x, sum);
                }
            }
        }
        sum
    }
}

/// The position of the element at output index `outer` (every dim but the
/// last, of the whole expression's shape `O`) and column `j`, for a node of
/// shape `Own` and geometry `g`.
#[inline(always)]
pub(crate) fn output_position<Own: Shape, O: Shape>(
    g: &Geometry,
    outer: [usize; MAX_RANK],
    j: usize,
) -> Position {
    let own = Own::DIMS;
    let offset = O::RANK - Own::RANK;
    // The node's own index, a broadcast (size-1) dim read at 0.
    let mut index = [0usize; MAX_RANK];
    let mut k = 0;
    while k + 1 < Own::RANK {
        index[k] = if own[k] == 1 { 0 } else { outer[offset + k] };
        k += 1;
    }
    index[Own::RANK - 1] = if own[Own::RANK - 1] == 1 { 0 } else { j };
    layout_position(g, index)
}

/// The input position of tap `k` of output position `o` along spatial dim
/// `axis`, or `None` where it falls in the padding.
#[inline(always)]
pub(crate) fn input_at(o: usize, k: usize, axis: usize, g: &Geometry) -> Option<usize> {
    let i = (o * g.stride[axis] + k * g.dilation[axis]).wrapping_sub(g.pad[axis]);
    (i < g.input[axis]).then_some(i)
}

/// The input position tap `k` of output position `o` of a transposed
/// convolution reads along spatial dim `axis`, or `None` where no input
/// lands there (between strided elements, or beyond either end).
#[inline(always)]
pub(crate) fn transposed_input_at(o: usize, k: usize, axis: usize, g: &Geometry) -> Option<usize> {
    let t = (o + g.pad[axis]).checked_sub(k * g.dilation[axis])?;
    let s = g.stride[axis];
    (t % s == 0 && t / s < g.input[axis]).then_some(t / s)
}

/// The `count` input planes (`H * W` each) of image `n` of a
/// channels-first input `x` from channel `first` (a group's, for the float
/// kernels); `None` where `x` is shorter.
#[inline(always)]
pub(crate) fn group_planes<'x, S>(
    x: &'x [S],
    g: &Geometry,
    n: usize,
    first: usize,
    count: usize,
) -> Option<&'x [S]> {
    let plane = g.input[0] * g.input[1];
    x.get((n * g.in_channels + first) * plane..)?
        .get(..count * plane)
}

/// The flat index of input element `(n, c, ih, iw)`.
#[inline(always)]
pub(crate) const fn input_index(g: &Geometry, n: usize, c: usize, ih: usize, iw: usize) -> usize {
    let [h, w] = g.input;
    if g.channels_last {
        ((n * h + ih) * w + iw) * g.in_channels + c
    } else {
        ((n * g.in_channels + c) * h + ih) * w + iw
    }
}

/// The flat index of weight element `(co, ci, kh, kw)` (`ci` within the
/// group).
#[inline(always)]
const fn weight_index(g: &Geometry, co: usize, ci: usize, kh: usize, kw: usize) -> usize {
    let [kh_len, kw_len] = g.kernel;
    let per_group = g.in_channels / g.groups;
    if g.channels_last {
        ((co * kh_len + kh) * kw_len + kw) * per_group + ci
    } else {
        ((co * per_group + ci) * kh_len + kh) * kw_len + kw
    }
}

/// The position of the result's own index `index`.
#[inline(always)]
const fn layout_position(g: &Geometry, index: [usize; MAX_RANK]) -> Position {
    // The result's dims, channels first: [N?, C, H?, W]; last: [N?, H?, W, C].
    let k = g.batched as usize;
    let n = if g.batched { index[0] } else { 0 };
    let s = g.spatial;
    let (channel, oh, ow) = if g.channels_last {
        let oh = if s == 2 { index[k] } else { 0 };
        (index[k + s], oh, index[k + s - 1])
    } else {
        let oh = if s == 2 { index[k + 1] } else { 0 };
        (index[k], oh, index[k + s])
    };
    Position { n, channel, oh, ow }
}

/// The kernel scratch of a convolution ([`Expr::KernelScratch`]): the int8
/// layer kernels' for a layer over it (`int8::layer_scratch_bytes`),
/// where they take one (stored `i8` inputs read as `i32`).
pub struct LayerScratch<T, C, Xr, Wr>(PhantomData<(T, C, Xr, Wr)>);

impl<T, C: ConvSpec, Xr: Reader<T>, Wr: Reader<T>> crate::scratch::KernelScratch
    for LayerScratch<T, C, Xr, Wr>
{
    const BYTES: usize = if !(Xr::INT8 && Wr::INT8) {
        0
    } else if Xr::IS_DESTINATION {
        int8::over_input_scratch_bytes(&C::GEOMETRY)
    } else if int8::layer_kernels_take(&C::GEOMETRY) {
        int8::layer_scratch_bytes(&C::GEOMETRY)
    } else {
        0
    };
    const WRITES_OVER_INPUT: bool =
        Xr::IS_DESTINATION && Xr::INT8 && Wr::INT8 && int8::writes_over_input(&C::GEOMETRY);
}

unsafe impl<T: Element, C: ConvSpec, Xr: Reader<T>, Wr: Reader<T>> Expr<T>
    for Convolution<'_, T, C, Xr, Wr>
{
    /// Its input and weight have static shapes (the rule computes every size): no run-time rows.
    type Children = ();
    type KernelScratch = LayerScratch<T, C, Xr, Wr>;
    #[inline(always)]
    fn children(&self) {}

    // The sums of an int8 layer, where the int8 kernels sum it.
    const OWN: Own = Own {
        layer: if Self::INT8_LAYER && cfg!(feature = "alloc") {
            Stage::Sums
        } else {
            Stage::None
        },
        ..Own::alone(
            Reading::product_along(if Self::CHANNEL_TILES {
                TileRows::Channels
            } else if Self::INT8_TILES || Self::NARROW_DEPTHWISE {
                TileRows::Positions
            } else {
                TileRows::Matrix
            })
            .contracting(Self::TAPS * Self::PER_GROUP),
        )
    };

    /// The layer's sums, where the output is the node's own (not
    /// broadcast).
    #[inline(always)]
    fn int8_layer<O: Shape>(&self) -> Option<Int8Layer<'_>> {
        if const {
            matches!(Self::OWN.layer, Stage::None)
                || !Self::columns_are_own::<O>()
                || O::LEN != <C::Output as Shape>::LEN
        } {
            return None;
        }
        // Counted from the right: `[N?, C, H?, W]` or `[N?, H?, W, C]`.
        let channel_axis = if Self::G.channels_last {
            O::RANK - 1
        } else {
            O::RANK - 1 - Self::G.spatial
        };
        Some(Int8Layer {
            source: self,
            epilogue: Requantization::SUMS,
            channel_axis,
        })
    }

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        ConvolutionRow::<T, C, O, Xr, Wr> {
            node: self,
            outer,
            shape: PhantomData,
        }
    }

    #[inline(always)]
    fn tile<O: Shape, const R: usize, const CC: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl Tile<T> + '_ {
        // A loop, not `core::array::from_fn`, which LLVM may keep out of line
        // and call once per tile.
        let mut rows = [Position::ORIGIN; R];
        for (r, p) in rows.iter_mut().enumerate() {
            *p = Self::position::<O>(at.row::<O>(r), j0);
        }
        // An int8 convolution's tiles are the runtime's int8 kernels' sums
        // (compiled once, whatever the expression; their weights are
        // packed on the heap); only the other convolutions, and any
        // without an allocator, compile the general path below.
        if const { Self::INT8_TILES && Self::columns_are_own::<O>() && cfg!(feature = "alloc") } {
            return Block(self.int8_tile(&rows));
        }
        let mut block = [[T::ZERO; CC]; R];
        self.general_tile::<O, R, CC, FUSE>(at, j0, &rows, &mut block);
        Block(block)
    }
}

impl<T: Element, C: ConvSpec, Xr: Reader<T>, Wr: Reader<T>> Int8Source
    for Convolution<'_, T, C, Xr, Wr>
{
    /// The int8 kernels' layer (`int8::store_layer`) over the stored
    /// bytes; false for a convolution they do not sum.
    fn store(
        &self,
        epilogue: &Requantization<'_>,
        out: &mut [MaybeUninit<i8>],
        scratch: &mut Scratch<'_>,
    ) -> bool {
        if const { !Self::INT8_LAYER || Xr::IS_DESTINATION } {
            return false;
        }
        self.int8_tile_of(&[], Self::G.out_channels)
            .is_some_and(|layer| int8::store_layer(&layer, epilogue, out, scratch))
    }

    /// The int8 kernels' layer over its input (`int8::store_layer_over_input`),
    /// where that input is the destination `data`; false for any other.
    fn store_over_input(
        &self,
        epilogue: &Requantization<'_>,
        data: &mut [i8],
        scratch: &mut Scratch<'_>,
    ) -> bool {
        if const { !Self::INT8_LAYER || !Xr::IS_DESTINATION } {
            return false;
        }
        self.int8_tile_of(&[], Self::G.out_channels)
            .is_some_and(|layer| int8::store_layer_over_input(&layer, epilogue, data, scratch))
    }
}

/// Whether a tile some of whose rows' taps fall in the padding and others
/// not has a variant of its loops without the padding checks, for the tiles
/// that need none: not in a build of the dev profile
/// ([`EVERY_LEVEL`](crate::isa::EVERY_LEVEL) false), whose code is not
/// optimised, so that there a convolution compiles one variant (the one
/// that checks) unless every tile is interior.
const INTERIOR_VARIANT: bool = crate::isa::EVERY_LEVEL;

impl<'a, T: Element, C: ConvSpec, Xr: Reader<T>, Wr: Reader<T>> Convolution<'a, T, C, Xr, Wr> {
    /// A tile of the positions `rows` (each at its first column `j0` of
    /// `at`) by `CC` columns, by the loop that suits the layout and the
    /// groups.
    #[inline(always)]
    fn general_tile<O: Shape, const R: usize, const CC: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
        rows: &[Position; R],
        block: &mut [[T; CC]; R],
    ) {
        // The layout, the groups and whether the columns are the node's own
        // are constants of the types: each test sits in `if const`, so
        // rustc compiles only the loops that can run for them (each is a
        // whole tile of unrolled sums, and a debug build keeps every loop
        // a plain `if` reaches).
        let first = rows[0];
        let channels = rows.iter().enumerate().all(|(r, p)| {
            Position {
                channel: first.channel + r,
                ..first
            } == *p
        }) && first.channel / Self::OUT_PER_GROUP
            == (first.channel + R - 1) / Self::OUT_PER_GROUP;
        let spatial = Self::G.spatial == 2
            && rows.iter().enumerate().all(|(r, p)| {
                Position {
                    oh: first.oh + r,
                    ..first
                } == *p
            });
        let positions = rows.iter().enumerate().all(|(r, p)| {
            Position {
                ow: first.ow + r,
                ..first
            } == *p
        });
        if const { Self::columns_are_own::<O>() && Self::G.channels_last } && positions {
            self.pixels::<R, CC, FUSE>(rows, block);
        } else if const { Self::columns_are_own::<O>() && Self::G.channels_last && Self::DEPTHWISE }
        {
            // A tile of merged rows (`TileRows::Positions`) that crosses
            // an image row.
            self.depthwise_positions::<R, CC, FUSE>(rows, block);
        } else if const { Self::columns_are_own::<O>() && Self::G.channels_last } {
            // A tile of merged rows (`TileRows::Positions`) that crosses
            // an image row: each position a tile of its own.
            for (row, sums) in rows.iter().zip(block.iter_mut()) {
                let mut one = [*sums];
                self.pixels::<1, CC, FUSE>(&[*row], &mut one);
                *sums = one[0];
            }
        } else if const { Self::columns_are_own::<O>() && !Self::G.channels_last }
            && (const { R == 1 } || channels)
        {
            // (One row is always a tile of consecutive channels.)
            if const { Self::always_interior::<CC>() }
                || const { INTERIOR_VARIANT } && Self::interior::<CC>(first.ow)
            {
                self.channel_rows::<R, CC, FUSE, true>(rows, block);
            } else {
                self.channel_rows::<R, CC, FUSE, false>(rows, block);
            }
        } else if const { Self::columns_are_own::<O>() && !Self::G.channels_last && Self::G.spatial == 2 }
            && spatial
        {
            if const { Self::always_interior::<CC>() }
                || const { INTERIOR_VARIANT } && Self::interior::<CC>(first.ow)
            {
                self.spatial_rows::<R, CC, FUSE, true>(rows, block);
            } else {
                self.spatial_rows::<R, CC, FUSE, false>(rows, block);
            }
        } else {
            for (r, sums) in block.iter_mut().enumerate() {
                for (j, sum) in sums.iter_mut().enumerate() {
                    *sum = self.element(Self::position::<O>(at.row::<O>(r), j0 + j));
                }
            }
        }
    }

    /// A channels-last tile of `R` consecutive positions of one image row
    /// by `CC` channels, by the loop that suits the groups.
    #[inline(always)]
    fn pixels<const R: usize, const CC: usize, const FUSE: bool>(
        &self,
        rows: &[Position; R],
        block: &mut [[T; CC]; R],
    ) {
        let first = rows[0];
        let one_group =
            first.channel / Self::OUT_PER_GROUP == (first.channel + CC - 1) / Self::OUT_PER_GROUP;
        if Self::DEPTHWISE {
            self.depthwise_pixels::<R, CC, FUSE>(rows, block);
        } else if const { Self::PER_GROUP < channels_last::DOT_LANES } && one_group {
            self.pixel_taps::<R, CC, FUSE>(rows, block);
        } else {
            let by_kernel = const {
                FUSE && (R == 4 || R == 8)
                    && CC.is_multiple_of(4)
                    && Self::PER_GROUP >= channels_last::DOT_LANES
            } && one_group
                && self.float_pixels(rows[0], block);
            if !by_kernel {
                self.pixel_dots::<R, CC, FUSE>(rows, block);
            }
        }
    }

    /// The weights of `channels` output channels from `first` (each
    /// `PER_GROUP * TAPS`, in either layout) as stored `f32` read as they
    /// are, for the float kernels; `None` otherwise.
    #[inline(always)]
    fn float_weights(&self, first: usize, channels: usize) -> Option<&[f32]> {
        let per_channel = Self::PER_GROUP * Self::TAPS;
        let weights = self
            .w
            .get(first * per_channel..)?
            .get(..channels * per_channel)?;
        self.w_reader.float(weights)
    }

    /// The channels-last tile of `R` positions from `p`'s by `CC`
    /// channels, by the float kernel: false, `block` untouched, where the
    /// elements are not stored `f32` read as they are or the kernel does
    /// not take the tile ([`float::pixels`]).
    #[inline(always)]
    fn float_pixels<const R: usize, const CC: usize>(
        &self,
        p: Position,
        block: &mut [[T; CC]; R],
    ) -> bool {
        let Some(out) = T::f32_slice_mut(block.as_flattened_mut()) else {
            return false;
        };
        let (Some(x), Some(weights)) = (
            self.x_reader.float(self.x),
            self.float_weights(p.channel, CC),
        ) else {
            return false;
        };
        let tile = float::PixelTile {
            x,
            weights,
            geometry: &Self::G,
            n: p.n,
            oh: p.oh,
            ow: p.ow,
            first_input: Self::first_input(p.channel),
            positions: R,
            channels: CC,
        };
        float::pixels(&tile, out)
    }

    /// Whether each output channel reads its one input channel (a
    /// depthwise convolution of depth multiplier 1).
    const DEPTHWISE: bool = Self::PER_GROUP == 1 && Self::OUT_PER_GROUP == 1;

    /// Whether tiles merge the positions of a depthwise convolution
    /// channels last (`TileRows::Positions`): where its output rows are
    /// narrower than the tallest tile, which a walk row by row cuts into
    /// smaller tiles, each reading the tap's weights (`kH * kW` apart)
    /// again ([`Self::depthwise_positions`]). Wider rows keep tiles
    /// within a row, which measured faster.
    const NARROW_DEPTHWISE: bool = Self::DEPTHWISE
        && Self::G.channels_last
        && Self::G.output[1] < crate::kernel::MOST_TILE_ROWS;

    /// Whether tiles channels last may be summed from stored bytes by the
    /// int8 kernel ([`int8`]): both inputs `i8` data read as `i32`, and
    /// the convolution of one of its forms.
    const INT8_TILES: bool = Xr::INT8 && Wr::INT8 && int8::form(&Self::G).is_some();

    /// Whether a whole layer over this convolution may be stored by the
    /// int8 layer kernels ([`int8::store_layer`]): both inputs `i8` data
    /// read as `i32`, the convolution of one of the tiles' forms or
    /// depthwise, in either layout. (Channels first, and depthwise, its
    /// tiles keep the general path.)
    const INT8_LAYER: bool = Xr::INT8 && Wr::INT8 && int8::layer_kernels_take(&Self::G);

    /// A channels-last tile of the `R` positions `rows` (of one channel)
    /// by `CC` channels, summed by the int8 kernels ([`int8::block`]):
    /// in one call, or, for a tile wider than [`int8::TILE_CHANNELS`] (a
    /// single position's), in one call per that many channels. The kernels
    /// sum every tile of the walk over inputs of `INT8_TILES`, so the
    /// general path is not compiled into the expression (its code, and at
    /// opt-level "s" its stack).
    #[inline(always)]
    fn int8_tile<const R: usize, const CC: usize>(&self, rows: &[Position; R]) -> [[T; CC]; R] {
        if const { CC <= int8::TILE_CHANNELS } {
            return self
                .int8_columns(rows, CC)
                .unwrap_or_else(|| int8::tile_declined());
        }
        let mut block = [[T::ZERO; CC]; R];
        for start in (0..CC).step_by(int8::TILE_CHANNELS) {
            let mut positions = *rows;
            for p in &mut positions {
                p.channel += start;
            }
            let channels = (CC - start).min(int8::TILE_CHANNELS);
            let part = self
                .int8_columns::<R, { int8::TILE_CHANNELS }>(&positions, channels)
                .unwrap_or_else(|| int8::tile_declined());
            for (row, part) in block.iter_mut().zip(&part) {
                row[start..start + channels].copy_from_slice(&part[..channels]);
            }
        }
        block
    }

    /// The int8 kernels' view of the convolution over `positions` (none
    /// for a whole layer) by `channels` channels: the stored bytes and the
    /// constants added to them, and the packed weights' cell; `None` where
    /// an input is not `i8` data read widened or there is no allocator.
    #[inline(always)]
    fn int8_tile_of<'t>(
        &'t self,
        positions: &'t [Position],
        channels: usize,
    ) -> Option<int8::Int8Tile<'t>> {
        let ((x, x_offset), (w, w_offset)) =
            (self.x_reader.int8(self.x)?, self.w_reader.int8(self.w)?);
        Some(int8::Int8Tile {
            x,
            w,
            packed: Wr::packed(&self.packed)?,
            x_offset,
            w_offset,
            geometry: &Self::G,
            positions,
            channels,
        })
    }

    /// The sums of the `positions` by `channels` channels from theirs (the
    /// block's first columns, the rest zero), summed by [`int8::block`];
    /// `None` where the inputs or the tile are not the kernel's: never for
    /// a tile of the walk over inputs of `INT8_TILES`. (Returned, not
    /// written through a reference: LLVM then keeps the block in registers
    /// for the epilogue, where through a reference it copied it twice.)
    #[inline(always)]
    fn int8_columns<const R: usize, const CC: usize>(
        &self,
        positions: &[Position; R],
        channels: usize,
    ) -> Option<[[T; CC]; R]> {
        let tile = self.int8_tile_of(positions, channels)?;
        // The tile's rows only: each tile height's buffer is its own
        // where LLVM does not share stack slots (at opt-level "s").
        let mut sums = [[0; int8::TILE_CHANNELS]; R];
        let mut out = int8::SumsOut {
            data: sums.as_flattened_mut(),
            stride: int8::TILE_CHANNELS,
        };
        if !int8::block(&tile, &mut out) {
            return None;
        }
        let mut block = [[T::ZERO; CC]; R];
        for (row, sums) in block.iter_mut().zip(sums) {
            for (value, sum) in row.iter_mut().zip(sums) {
                *value = T::from_int_literal(i128::from(sum));
            }
        }
        Some(block)
    }

    /// Whether tiles take their rows along a 2-D output's channels (each
    /// input row loaded then serves every channel of the tile) rather than
    /// its rows: channels first, several input channels to sum (with one,
    /// as a keyword-spotting model's first layer, rows of one channel are
    /// as fast and need fewer remainder tiles), and no tile of 4 or 8
    /// channels crossing a group (a depthwise convolution, one channel a
    /// group, reads rows of one channel).
    const CHANNEL_TILES: bool = Self::G.spatial == 2
        && !Self::G.channels_last
        && Self::PER_GROUP > 1
        && (Self::G.groups == 1 || Self::OUT_PER_GROUP % 8 == 0);

    /// Whether output columns are the node's own (not a size-1 last dim
    /// broadcast along the output's).
    const fn columns_are_own<O: Shape>() -> bool {
        let own = <C::Output as Shape>::DIMS;
        O::RANK >= 1 && own[Self::OWN_RANK - 1] == O::DIMS[O::RANK - 1]
    }

    /// Whether every tap of the `CC` columns from `ow` reads inside the
    /// input along the last spatial dim (no padding).
    #[inline(always)]
    const fn interior<const CC: usize>(ow: usize) -> bool {
        let g = Self::G;
        let first = ow * g.stride[1];
        let last = (ow + CC - 1) * g.stride[1] + (g.kernel[1] - 1) * g.dilation[1];
        first >= g.pad[1] && last - g.pad[1] < g.input[1]
    }

    /// Whether every tile of `CC` columns is [`Self::interior`]: the first
    /// and the last a row has are (the first tap's column grows with `ow`,
    /// and so does the last's), so the tiles' loops need no variant for
    /// the padding.
    const fn always_interior<const CC: usize>() -> bool {
        let width = Self::G.output[1];
        width >= CC && Self::interior::<CC>(0) && Self::interior::<CC>(width - CC)
    }

    /// A 2-D tile, channels first: `R` consecutive output rows of one
    /// channel (`rows`, each at its first column), `CC` columns. Each tap's
    /// weight is broadcast once for the whole tile; each row reads its input
    /// row contiguously (with the stride) and skips taps in the vertical
    /// padding.
    #[inline(always)]
    fn spatial_rows<const R: usize, const CC: usize, const FUSE: bool, const INTERIOR: bool>(
        &self,
        rows: &[Position; R],
        block: &mut [[T; CC]; R],
    ) {
        let (g, p) = (Self::G, rows[0]);
        let [kh_len, kw_len] = g.kernel;
        let wd = g.input[1];
        let (sw, dw) = (g.stride[1], g.dilation[1]);
        macro_rules! named_rows {
            ($($acc:ident $r:literal)+) => {{
                $(let mut $acc = [T::ZERO; CC];)+
                for ci in 0..Self::PER_GROUP {
                    let x_plane = self.input_plane(p, ci);
                    let w_taps = &self.w[(p.channel * Self::PER_GROUP + ci) * Self::TAPS..][..Self::TAPS];
                    for kh in 0..kh_len {
                        for kw in 0..kw_len {
                            let wv = self.w_reader.read(w_taps[kh * kw_len + kw]);
                            let col = (p.ow * sw + kw * dw).wrapping_sub(g.pad[1]);
                            $(
                                if let Some(ih) = input_at(p.oh + $r, kh, 0, &g) {
                                    let x_row = &x_plane[ih * wd..][..wd];
                                    let window = load_window::<T, _, CC, INTERIOR>(x_row, col, sw, self.x_reader);
                                    accumulate::<T, CC, FUSE>(&mut $acc, wv, &window);
                                }
                            )+
                        }
                    }
                }
                $(block[$r] = $acc;)+
            }};
        }
        with_named_rows!(R, named_rows, self.element_rows(rows, block))
    }

    /// A tile of `R` consecutive output channels of one group (`rows`, each
    /// at its first position, one output row of a 2-D result), `CC`
    /// positions, channels first. Each input window is read once for the
    /// `R` channels, each of its taps' weights one broadcast.
    #[inline(always)]
    fn channel_rows<const R: usize, const CC: usize, const FUSE: bool, const INTERIOR: bool>(
        &self,
        rows: &[Position; R],
        block: &mut [[T; CC]; R],
    ) {
        if const { R == float::TILE_CHANNELS && CC == float::TILE_COLUMNS && FUSE }
            && self.float_tile(rows[0], block)
        {
            return;
        }
        let (g, p) = (Self::G, rows[0]);
        let [kh_len, kw_len] = g.kernel;
        let wd = g.input[1];
        let (sw, dw) = (g.stride[1], g.dilation[1]);
        macro_rules! named_rows {
            ($($acc:ident $r:literal)+) => {{
                $(let mut $acc = [T::ZERO; CC];)+
                for ci in 0..Self::PER_GROUP {
                    let x_plane = self.input_plane(p, ci);
                    for kh in 0..kh_len {
                        let Some(ih) = input_at(p.oh, kh, 0, &g) else {
                            continue;
                        };
                        let x_row = &x_plane[ih * wd..][..wd];
                        for kw in 0..kw_len {
                            let col = (p.ow * sw + kw * dw).wrapping_sub(g.pad[1]);
                            let window = load_window::<T, _, CC, INTERIOR>(x_row, col, sw, self.x_reader);
                            let tap = kh * kw_len + kw;
                            $(
                                let wv = self.w_reader.read(self.w[((p.channel + $r) * Self::PER_GROUP + ci) * Self::TAPS + tap]);
                                accumulate::<T, CC, FUSE>(&mut $acc, wv, &window);
                            )+
                        }
                    }
                }
                $(block[$r] = $acc;)+
            }};
        }
        with_named_rows!(R, named_rows, self.element_rows(rows, block))
    }

    /// The tile of `R` channels from `p`'s by `CC` columns (a whole one,
    /// [`float::TILE_CHANNELS`] by [`float::TILE_COLUMNS`]), by the float
    /// kernel: false, `block` untouched, where the elements are not stored
    /// `f32` read as they are or the kernel does not take the tile
    /// ([`float::tile`]).
    #[inline(always)]
    fn float_tile<const R: usize, const CC: usize>(
        &self,
        p: Position,
        block: &mut [[T; CC]; R],
    ) -> bool {
        let Some(out) = T::f32_slice_mut(block.as_flattened_mut()) else {
            return false;
        };
        let planes = group_planes(
            self.x,
            &Self::G,
            p.n,
            Self::first_input(p.channel),
            Self::PER_GROUP,
        );
        let (Some(planes), Some(weights)) = (
            planes.and_then(|x| self.x_reader.float(x)),
            self.float_weights(p.channel, R),
        ) else {
            return false;
        };
        let tile = float::FloatTile {
            planes,
            weights,
            geometry: &Self::G,
            oh: p.oh,
            ow: p.ow,
        };
        float::tile(&tile, out)
    }

    /// The tile element by element: `CC` columns from each of `rows`.
    #[inline(always)]
    fn element_rows<const R: usize, const CC: usize>(
        &self,
        rows: &[Position; R],
        block: &mut [[T; CC]; R],
    ) {
        for (sums, p) in block.iter_mut().zip(rows) {
            for (j, sum) in sums.iter_mut().enumerate() {
                *sum = self.element(if const { Self::G.channels_last } {
                    Position {
                        channel: p.channel + j,
                        ..*p
                    }
                } else {
                    Position { ow: p.ow + j, ..*p }
                });
            }
        }
    }
}

/// `acc[j] += wv * window[j]`.
#[inline(always)]
fn accumulate<T: Element, const CC: usize, const FUSE: bool>(
    acc: &mut [T; CC],
    wv: T,
    window: &[T; CC],
) {
    for j in 0..CC {
        acc[j] = multiply_add::<T, FUSE>(wv, window[j], acc[j]);
    }
}

/// `x_row[col + j * stride]` for `j < CC`, read by `reader`; zeros outside
/// the row (the padding) where not `INTERIOR`.
#[inline(always)]
fn load_window<T: Element, R: Reader<T>, const CC: usize, const INTERIOR: bool>(
    x_row: &[R::Stored],
    col: usize,
    stride: usize,
    reader: R,
) -> [T; CC] {
    let mut window = [T::ZERO; CC];
    if INTERIOR {
        let xs = &x_row[col..][..(CC - 1) * stride + 1];
        for (j, value) in window.iter_mut().enumerate() {
            *value = reader.read(xs[j * stride]);
        }
    } else {
        for (j, value) in window.iter_mut().enumerate() {
            let i = col.wrapping_add(j * stride);
            if i < x_row.len() {
                *value = reader.read(x_row[i]);
            }
        }
    }
    window
}

/// One output row of a convolution, element by element.
struct ConvolutionRow<'n, 'a, T, C, O, Xr: Reader<T>, Wr: Reader<T>> {
    node: &'n Convolution<'a, T, C, Xr, Wr>,
    outer: [usize; MAX_RANK],
    shape: PhantomData<O>,
}

impl<T: Element, C: ConvSpec, O: Shape, Xr: Reader<T>, Wr: Reader<T>> Row<T>
    for ConvolutionRow<'_, '_, T, C, O, Xr, Wr>
{
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        self.node
            .element(Convolution::<T, C, Xr, Wr>::position::<O>(self.outer, j))
    }
}
