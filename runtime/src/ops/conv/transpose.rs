//! `conv_transpose1d` and `conv_transpose2d`, as `torch.nn.functional`
//! defines them: the gradient of `conv1d`/`conv2d` with respect to its
//! input, i.e. each input element scatters its weights, `stride` apart,
//! into a `(L - 1) * stride + dilation * (k - 1) + output_padding + 1`
//! long output, of which `padding` is cut from each side; `groups` split
//! the channels, the weight is `[C_in, C_out / groups, *kernel]`. Channels
//! first, batched or not. The shape rule is
//! [`crate::rules::conv_transpose`].
//!
//! Evaluated as a gather, so the node is read like a convolution (tiles
//! in registers, the enclosing expression applied before the one store,
//! no scattered partial sums): output position `o` takes tap `k` from
//! input `(o + padding - k * dilation) / stride` where that divides
//! exactly and lands in the input. A tile is `R` output channels of one
//! group by `C` positions of one output row: each input row a tap reads
//! is loaded once for the `R` channels, each weight one broadcast. Any
//! other tile sums element by element. An `f32` tile of 8 channels by 8,
//! 16 or 32 columns with a stride of 2 along the row (a decoder's
//! upsampling) is summed by an AVX-512 kernel compiled once
//! (`ops/conv/float.rs`, `transposed`): its columns as two phases, with no
//! product by a column a tap does not reach.

use super::inputs::{ConvInput, Plain, Reader};
use super::{
    float, group_planes, output_position, transposed_input_at, ConvSpec, Position, PADDING_SIZES,
    STRIDE,
};
use crate::element::Element;
use crate::expr::block::{multiply_add, with_named_rows, Block};
use crate::expr::{Context, Expr, Own, Reading, Row, Shaped, Tile, TileOrigin, TileRows};
use crate::ops::{Build, NamedOption, Operation, Reads, Signature};
use crate::rules::conv::Geometry;
use crate::rules::conv_transpose::TransposedRule;
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

pub use crate::rules::conv::kind::{conv_transpose1d, conv_transpose2d};

/// `output_padding = e` or `[eh, ew]`: default 0, each below the stride or
/// the dilation.
pub const OUTPUT_PADDING: NamedOption = NamedOption::sizes("output_padding", true);

/// The table entry of `conv_transpose1d`.
pub const CONV_TRANSPOSE1D: Operation = entry(
    "conv_transpose1d",
    "conv::transpose::conv_transpose1d",
    &[
        STRIDE.one(),
        PADDING_SIZES.one(),
        OUTPUT_PADDING.one(),
        super::GROUPS,
        super::DILATION.one(),
    ],
    "A 1-D transposed convolution, as `torch.nn.functional.conv_transpose1d`.",
    &[
        "conv_transpose1d(x, w)",
        "conv_transpose1d(x, w, stride = s, padding = p, output_padding = e, groups = g, dilation = d)",
    ],
);

/// The table entry of `conv_transpose2d`.
pub const CONV_TRANSPOSE2D: Operation = entry(
    "conv_transpose2d",
    "conv::transpose::conv_transpose2d",
    &[
        STRIDE,
        PADDING_SIZES,
        OUTPUT_PADDING,
        super::GROUPS,
        super::DILATION,
    ],
    "A 2-D transposed convolution, as `torch.nn.functional.conv_transpose2d`.",
    &[
        "conv_transpose2d(x, w)",
        "conv_transpose2d(x, w, stride = [sh, sw], padding = [ph, pw], output_padding = [eh, ew], groups = g, dilation = [dh, dw])",
    ],
);

/// The entry of a transposed convolution with these options.
const fn entry(
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
            constructor: "conv::transpose::conv_transpose",
            marker: Some(marker),
        },
        elements: "Element",
        summary,
        forms,
    }
}

/// A transposed convolution's shapes and options (stride, padding, output
/// padding, groups, dilation, as the macro passes them).
pub struct TransposedSpec<O, X, W, Op, Options>(PhantomData<(O, X, W, Op, Options)>);

impl<O: Shape, X, W, Op, S, P, E, G, Dl> ConvSpec for TransposedSpec<O, X, W, Op, (S, P, E, G, Dl)>
where
    X: TransposedRule<W, Op, S, P, E, G, Dl>,
{
    const GEOMETRY: Geometry = X::GEOMETRY;
    type Output = O;
}

/// A transposed convolution of `x` by `w` over elements `T`, as spec `C`
/// says, each input's stored elements read as its reader says.
pub struct TransposedConvolution<'a, T, C, Xr: Reader<T> = Plain<T>, Wr: Reader<T> = Plain<T>> {
    x: &'a [Xr::Stored],
    w: &'a [Wr::Stored],
    x_reader: Xr,
    w_reader: Wr,
    spec: PhantomData<C>,
}

/// Builds `conv_transpose1d(x, w, ..)` or `conv_transpose2d(x, w, ..)`
/// (`op` says which) from the options' witnesses, `()` where left out.
#[inline(always)]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
#[rustfmt::skip]
pub fn conv_transpose<'a, T, M, Op, S, P, E, G, Dl, X, W>(
    _context: Context<T, M>,
    _op: Op,
    _stride: PhantomData<S>,
    _padding: PhantomData<P>,
    _output_padding: PhantomData<E>,
    _groups: PhantomData<G>,
    _dilation: PhantomData<Dl>,
    x: X,
    w: W,
) -> TransposedConvolution<'a, T, TransposedSpec<<X::Shape as TransposedRule<W::Shape, Op, S, P, E, G, Dl>>::Output, X::Shape, W::Shape, Op, (S, P, E, G, Dl)>, X::Reader, W::Reader>
where
    X: ConvInput<'a, T>,
    W: ConvInput<'a, T>,
    X::Shape: TransposedRule<W::Shape, Op, S, P, E, G, Dl>,
{
    let ((x, x_reader), (w, w_reader)) = (x.parts(), w.parts());
    TransposedConvolution { x, w, x_reader, w_reader, spec: PhantomData }
}

impl<T, C: ConvSpec, Xr: Reader<T>, Wr: Reader<T>> Shaped
    for TransposedConvolution<'_, T, C, Xr, Wr>
{
    type Shape = C::Output;
}

impl<T: Element, C: ConvSpec, Xr: Reader<T>, Wr: Reader<T>>
    TransposedConvolution<'_, T, C, Xr, Wr>
{
    const G: Geometry = C::GEOMETRY;
    /// Input channels each group reads.
    const IN_PER_GROUP: usize = Self::G.in_channels / Self::G.groups;
    /// Output channels per group (the weight's second dim).
    const OUT_PER_GROUP: usize = Self::G.out_channels / Self::G.groups;
    /// The kernel's taps, `kH * kW`.
    const TAPS: usize = Self::G.kernel[0] * Self::G.kernel[1];
    /// The rank of the node's own shape.
    const OWN_RANK: usize = <C::Output as Shape>::RANK;

    /// Row `ih` of input channel `c` in image `n`.
    #[inline(always)]
    fn input_row(&self, n: usize, c: usize, ih: usize) -> &[Xr::Stored] {
        let [h, w] = Self::G.input;
        &self.x[((n * Self::G.in_channels + c) * h + ih) * w..][..w]
    }

    /// The weights of input channel `c` to output channel `co` (within
    /// its group), `kH * kW` taps.
    #[inline(always)]
    fn taps(&self, c: usize, co: usize) -> &[Wr::Stored] {
        &self.w[(c * Self::OUT_PER_GROUP + co) * Self::TAPS..][..Self::TAPS]
    }

    /// One output element, summed tap by tap.
    #[inline(always)]
    fn element(&self, p: Position) -> T {
        let g = Self::G;
        let group = p.channel / Self::OUT_PER_GROUP;
        let co = p.channel % Self::OUT_PER_GROUP;
        let mut sum = T::ZERO;
        for ci in 0..Self::IN_PER_GROUP {
            let c = group * Self::IN_PER_GROUP + ci;
            let taps = self.taps(c, co);
            for kh in 0..g.kernel[0] {
                let Some(ih) = transposed_input_at(p.oh, kh, 0, &g) else {
                    continue;
                };
                let row = self.input_row(p.n, c, ih);
                for kw in 0..g.kernel[1] {
                    if let Some(iw) = transposed_input_at(p.ow, kw, 1, &g) {
                        let x = self.x_reader.read(row[iw]);
                        let w = self.w_reader.read(taps[kh * g.kernel[1] + kw]);
                        sum = w.mul_add(x, sum);
                    }
                }
            }
        }
        sum
    }

    /// Whether output columns are the node's own (not a size-1 last dim
    /// broadcast along the output's).
    const fn columns_are_own<O: Shape>() -> bool {
        let own = <C::Output as Shape>::DIMS;
        O::RANK >= 1 && own[Self::OWN_RANK - 1] == O::DIMS[O::RANK - 1]
    }

    /// A tile of `R` consecutive output channels of one group (`rows`,
    /// each at its first position of one output row), `CC` positions.
    #[inline(always)]
    fn channel_rows<const R: usize, const CC: usize, const FUSE: bool>(
        &self,
        rows: &[Position; R],
        block: &mut [[T; CC]; R],
    ) {
        let (g, p) = (Self::G, rows[0]);
        let group = p.channel / Self::OUT_PER_GROUP;
        let co = p.channel % Self::OUT_PER_GROUP;
        let [kh_len, kw_len] = g.kernel;
        macro_rules! named_rows {
            ($($acc:ident $r:literal)+) => {{
                $(let mut $acc = [T::ZERO; CC];)+
                for ci in 0..Self::IN_PER_GROUP {
                    let c = group * Self::IN_PER_GROUP + ci;
                    for kh in 0..kh_len {
                        let Some(ih) = transposed_input_at(p.oh, kh, 0, &g) else {
                            continue;
                        };
                        let x_row = self.input_row(p.n, c, ih);
                        for kw in 0..kw_len {
                            let Some(window) = self.window::<CC>(x_row, p.ow, kw) else {
                                continue;
                            };
                            let tap = kh * kw_len + kw;
                            $(
                                let wv = self.w_reader.read(self.taps(c, co + $r)[tap]);
                                for j in 0..CC {
                                    $acc[j] = multiply_add::<T, FUSE>(wv, window[j], $acc[j]);
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

    /// What tap `kw` reads for the `CC` output columns from `ow`: input
    /// element `(ow + j + padding - kw * dilation) / stride` where that
    /// divides exactly and lies in `x_row`, zero elsewhere; `None` where
    /// it reads nothing.
    #[inline(always)]
    fn window<const CC: usize>(
        &self,
        x_row: &[Xr::Stored],
        ow: usize,
        kw: usize,
    ) -> Option<[T; CC]> {
        let g = Self::G;
        let (s, len) = (g.stride[1], g.input[1]);
        // The column of output `ow` on the stride's grid, signed by the
        // offset from its first input element.
        let start = (ow + g.pad[1]) as isize - (kw * g.dilation[1]) as isize;
        let mut window = [T::ZERO; CC];
        if s == 1 && start >= 0 && start as usize + CC <= len {
            let xs = &x_row[start as usize..][..CC];
            for (value, &x) in window.iter_mut().zip(xs) {
                *value = self.x_reader.read(x);
            }
            return Some(window);
        }
        // The first column `j` whose position is a multiple of the stride
        // and not before the input.
        let mut j = if start >= 0 {
            (s - start as usize % s) % s
        } else {
            start.unsigned_abs()
        };
        let mut any = false;
        while j < CC {
            let i = (start + j as isize) as usize / s;
            if i >= len {
                break;
            }
            window[j] = self.x_reader.read(x_row[i]);
            any = true;
            j += s;
        }
        any.then_some(window)
    }

    /// The tile of `R` channels from `p`'s (of one group) by `CC` columns,
    /// by the float kernel: false, `block` untouched, where the elements
    /// are not stored `f32` read as they are or the kernel does not take
    /// the tile ([`float::transposed`]).
    #[inline(always)]
    fn float_tile<const R: usize, const CC: usize>(
        &self,
        p: Position,
        block: &mut [[T; CC]; R],
    ) -> bool {
        let Some(out) = T::f32_slice_mut(block.as_flattened_mut()) else {
            return false;
        };
        let first_input = p.channel / Self::OUT_PER_GROUP * Self::IN_PER_GROUP;
        let planes = group_planes(self.x, &Self::G, p.n, first_input, Self::IN_PER_GROUP);
        let group_weights = Self::IN_PER_GROUP * Self::OUT_PER_GROUP * Self::TAPS;
        let weights = self
            .w
            .get(first_input * Self::OUT_PER_GROUP * Self::TAPS..)
            .and_then(|w| w.get(..group_weights));
        let (Some(planes), Some(weights)) = (
            planes.and_then(|x| self.x_reader.float(x)),
            weights.and_then(|w| self.w_reader.float(w)),
        ) else {
            return false;
        };
        let tile = float::TransposedTile {
            planes,
            weights,
            geometry: &Self::G,
            co: p.channel % Self::OUT_PER_GROUP,
            oh: p.oh,
            ow: p.ow,
            columns: CC,
        };
        float::transposed(&tile, out)
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
                *sum = self.element(Position { ow: p.ow + j, ..*p });
            }
        }
    }
}

unsafe impl<T: Element, C: ConvSpec, Xr: Reader<T>, Wr: Reader<T>> Expr<T>
    for TransposedConvolution<'_, T, C, Xr, Wr>
{
    /// Its input and weight have static shapes (the rule computes every size): no run-time rows.
    type Children = ();
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) {}

    // Tiles take consecutive output channels: the channels axis of a 2-D
    // result (`[N, C, H, W]`), the rows of a 1-D one (`[N, C, L]`).
    const OWN: Own = Own::alone(
        Reading::product_along(if Self::G.spatial == 2 {
            TileRows::Channels
        } else {
            TileRows::Matrix
        })
        .contracting(Self::TAPS * Self::IN_PER_GROUP),
    );

    /// Reads no node's rows (stored data or a constant) and keeps no
    /// cache: its fresh rows are its rows.
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        self.row::<O>(outer)
    }

    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        TransposedRow::<T, C, O, Xr, Wr> {
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
        let mut block = [[T::ZERO; CC]; R];
        let mut rows = [Position::ORIGIN; R];
        for (r, p) in rows.iter_mut().enumerate() {
            *p = output_position::<C::Output, O>(&Self::G, at.row::<O>(r), j0);
        }
        let first = rows[0];
        let channels = rows.iter().enumerate().all(|(r, p)| {
            Position {
                channel: first.channel + r,
                ..first
            } == *p
        }) && first.channel / Self::OUT_PER_GROUP
            == (first.channel + R - 1) / Self::OUT_PER_GROUP;
        // A whole tile of 8 channels (`f32` with a stride of 2 along the
        // row) from the float kernel, compiled once; else the loops here.
        let by_kernel = const {
            Self::columns_are_own::<O>()
                && FUSE
                && R == float::TILE_CHANNELS
                && matches!(CC, 8 | 16 | 32)
        } && channels
            && self.float_tile(first, &mut block);
        if by_kernel {
            return Block(block);
        }
        if const { Self::columns_are_own::<O>() } && (const { R == 1 } || channels) {
            self.channel_rows::<R, CC, FUSE>(&rows, &mut block);
        } else {
            for (r, sums) in block.iter_mut().enumerate() {
                for (j, sum) in sums.iter_mut().enumerate() {
                    let p = output_position::<C::Output, O>(&Self::G, at.row::<O>(r), j0 + j);
                    *sum = self.element(p);
                }
            }
        }
        Block(block)
    }
}

/// One output row of a transposed convolution, element by element.
struct TransposedRow<'n, 'a, T, C, O, Xr: Reader<T>, Wr: Reader<T>> {
    node: &'n TransposedConvolution<'a, T, C, Xr, Wr>,
    outer: [usize; MAX_RANK],
    shape: PhantomData<O>,
}

impl<T: Element, C: ConvSpec, O: Shape, Xr: Reader<T>, Wr: Reader<T>> Row<T>
    for TransposedRow<'_, '_, T, C, O, Xr, Wr>
{
    #[inline(always)]
    fn get(&self, j: usize, _current: T) -> T {
        self.node.element(output_position::<C::Output, O>(
            &TransposedConvolution::<T, C, Xr, Wr>::G,
            self.outer,
            j,
        ))
    }
}
