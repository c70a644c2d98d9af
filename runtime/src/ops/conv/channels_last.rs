//! The tiles of a convolution channels last (`layout = nhwc` / `nwc`, the
//! layout of TFLite and CMSIS-NN): `R` consecutive output positions by `C`
//! output channels. Each output channel is a dot product of its weights
//! with each pixel along the input channels; with few input channels a
//! group, the tile is a small matrix product over the taps and input
//! channels; a depthwise convolution multiplies a pixel's channels by their
//! weights, a vector at a time.

use super::inputs::Reader;
use super::{input_at, input_index, ConvSpec, Convolution, Position};
use crate::element::Element;
use crate::expr::block::{multiply_add, with_named_rows};

impl<T: Element, C: ConvSpec, Xr: Reader<T>, Wr: Reader<T>> Convolution<'_, T, C, Xr, Wr> {
    /// A tile channels last: `R` consecutive output positions of one row
    /// (`rows`), `CC` output channels. Each output channel is a dot product
    /// of its weights (`[kH, kW, C_in / groups]`, contiguous along the input
    /// channels) with each position's input pixels, summed along the input
    /// channels [`DOT_LANES`] at a time and added across the lanes at the
    /// end.
    #[inline(always)]
    pub(super) fn pixel_dots<const R: usize, const CC: usize, const FUSE: bool>(
        &self,
        rows: &[Position; R],
        block: &mut [[T; CC]; R],
    ) {
        let (g, p) = (Self::G, rows[0]);
        let [kh_len, kw_len] = g.kernel;
        let per_group = Self::PER_GROUP;
        let per_channel = Self::TAPS * per_group;
        macro_rules! named_rows {
            ($($acc:ident $r:literal)+) => {{
                for j in 0..CC {
                    let co = p.channel + j;
                    let c0 = Self::first_input(co);
                    let w_co = &self.w[co * per_channel..][..per_channel];
                    $(let mut $acc = [T::ZERO; DOT_LANES];)+
                    for kh in 0..kh_len {
                        let Some(ih) = input_at(p.oh, kh, 0, &g) else {
                            continue;
                        };
                        for kw in 0..kw_len {
                            let w_tap = &w_co[(kh * kw_len + kw) * per_group..][..per_group];
                            $(
                                if let Some(iw) = input_at(p.ow + $r, kw, 1, &g) {
                                    let x_pixel = &self.x[input_index(&g, p.n, c0, ih, iw)..][..per_group];
                                    dot_into::<T, _, _, FUSE>(&mut $acc, x_pixel, w_tap, self.x_reader, self.w_reader);
                                }
                            )+
                        }
                    }
                    $(block[$r][j] = $acc.iter().fold(T::ZERO, |sum, &lane| sum + lane);)+
                }
            }};
        }
        with_named_rows!(R, named_rows, self.element_rows(rows, block))
    }

    /// A tile channels last with few input channels a group (fewer than
    /// [`DOT_LANES`], as a keyword-spotting model's first layer has one):
    /// `R` consecutive output positions of one row, `CC` output channels of
    /// one group, summed as a small matrix product over the taps and input
    /// channels: each (tap, input channel) weight of the `CC` channels read
    /// once for the tile, each input element broadcast to them.
    #[inline(always)]
    pub(super) fn pixel_taps<const R: usize, const CC: usize, const FUSE: bool>(
        &self,
        rows: &[Position; R],
        block: &mut [[T; CC]; R],
    ) {
        let (g, p) = (Self::G, rows[0]);
        let [kh_len, kw_len] = g.kernel;
        let per_group = Self::PER_GROUP;
        let per_channel = Self::TAPS * per_group;
        let c0 = Self::first_input(p.channel);
        let w_tile = &self.w[p.channel * per_channel..][..CC * per_channel];
        macro_rules! named_rows {
            ($($acc:ident $r:literal)+) => {{
                $(let mut $acc = [T::ZERO; CC];)+
                for kh in 0..kh_len {
                    let Some(ih) = input_at(p.oh, kh, 0, &g) else {
                        continue;
                    };
                    for kw in 0..kw_len {
                        for ci in 0..per_group {
                            let tap = (kh * kw_len + kw) * per_group + ci;
                            let mut weights = [T::ZERO; CC];
                            for (j, weight) in weights.iter_mut().enumerate() {
                                *weight = self.w_reader.read(w_tile[j * per_channel + tap]);
                            }
                            $(
                                if let Some(iw) = input_at(p.ow + $r, kw, 1, &g) {
                                    let xv = self.x_reader.read(self.x[input_index(&g, p.n, c0 + ci, ih, iw)]);
                                    for j in 0..CC {
                                        $acc[j] = multiply_add::<T, FUSE>(weights[j], xv, $acc[j]);
                                    }
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

    /// A depthwise tile channels last (one input channel per output
    /// channel): `R` consecutive output positions of one row, `CC`
    /// channels, each tap a multiply-add of the pixel's `CC` channels by
    /// the tap's `CC` weights (read `kH * kW` apart, once for the tile).
    #[inline(always)]
    pub(super) fn depthwise_pixels<const R: usize, const CC: usize, const FUSE: bool>(
        &self,
        rows: &[Position; R],
        block: &mut [[T; CC]; R],
    ) {
        let (g, p) = (Self::G, rows[0]);
        let [kh_len, kw_len] = g.kernel;
        let taps = Self::TAPS;
        let w_tile = &self.w[p.channel * taps..][..CC * taps];
        macro_rules! named_rows {
            ($($acc:ident $r:literal)+) => {{
                $(let mut $acc = [T::ZERO; CC];)+
                for kh in 0..kh_len {
                    let Some(ih) = input_at(p.oh, kh, 0, &g) else {
                        continue;
                    };
                    for kw in 0..kw_len {
                        let mut weights = [T::ZERO; CC];
                        for (j, weight) in weights.iter_mut().enumerate() {
                            *weight = self.w_reader.read(w_tile[j * taps + kh * kw_len + kw]);
                        }
                        $(
                            if let Some(iw) = input_at(p.ow + $r, kw, 1, &g) {
                                let x_pixel = &self.x[input_index(&g, p.n, p.channel, ih, iw)..][..CC];
                                for j in 0..CC {
                                    let xv = self.x_reader.read(x_pixel[j]);
                                    $acc[j] = multiply_add::<T, FUSE>(weights[j], xv, $acc[j]);
                                }
                            }
                        )+
                    }
                }
                $(block[$r] = $acc;)+
            }};
        }
        with_named_rows!(R, named_rows, self.element_rows(rows, block))
    }

    /// A depthwise tile channels last of any `R` positions of one first
    /// channel (a tile of merged positions that crosses an image row):
    /// as [`Self::depthwise_pixels`], each tap's `CC` weights read once
    /// for the whole tile, each position's taps checked against the
    /// padding on their own. The weights of a tap are `kH * kW` apart, so
    /// reading them once for all `R` positions, not once per position,
    /// is most of what a narrow image's tile saves. Positions of one row
    /// keep `depthwise_pixels`, whose one row check per tap for the
    /// whole tile this per-position check is slower than (PERFORMANCE.md,
    /// "Int8 depthwise convolutions").
    #[inline(always)]
    pub(super) fn depthwise_positions<const R: usize, const CC: usize, const FUSE: bool>(
        &self,
        rows: &[Position; R],
        block: &mut [[T; CC]; R],
    ) {
        let g = Self::G;
        let [kh_len, kw_len] = g.kernel;
        let taps = Self::TAPS;
        let channel = rows[0].channel;
        let w_tile = &self.w[channel * taps..][..CC * taps];
        macro_rules! named_rows {
            ($($acc:ident $r:literal)+) => {{
                $(let mut $acc = [T::ZERO; CC];)+
                for kh in 0..kh_len {
                    for kw in 0..kw_len {
                        let mut weights = [T::ZERO; CC];
                        for (j, weight) in weights.iter_mut().enumerate() {
                            *weight = self.w_reader.read(w_tile[j * taps + kh * kw_len + kw]);
                        }
                        $(
                            let p = rows[$r];
                            if let (Some(ih), Some(iw)) = (input_at(p.oh, kh, 0, &g), input_at(p.ow, kw, 1, &g)) {
                                let x_pixel = &self.x[input_index(&g, p.n, channel, ih, iw)..][..CC];
                                for j in 0..CC {
                                    let xv = self.x_reader.read(x_pixel[j]);
                                    $acc[j] = multiply_add::<T, FUSE>(weights[j], xv, $acc[j]);
                                }
                            }
                        )+
                    }
                }
                $(block[$r] = $acc;)+
            }};
        }
        with_named_rows!(R, named_rows, self.element_rows(rows, block))
    }
}

/// The lanes of the partial sums of a channels-last dot product: a
/// 512-bit vector of `f32`, two 256-bit ones.
pub(super) const DOT_LANES: usize = 16;

/// `acc[k % DOT_LANES] += w[k] * x[k]` over `x` and `w` (of one length),
/// each read by its reader.
#[inline(always)]
fn dot_into<T: Element, Xr: Reader<T>, Wr: Reader<T>, const FUSE: bool>(
    acc: &mut [T; DOT_LANES],
    x: &[Xr::Stored],
    w: &[Wr::Stored],
    x_reader: Xr,
    w_reader: Wr,
) {
    let (x_chunks, x_tail) = x.as_chunks::<DOT_LANES>();
    let (w_chunks, w_tail) = w.as_chunks::<DOT_LANES>();
    for (xs, ws) in x_chunks.iter().zip(w_chunks) {
        for l in 0..DOT_LANES {
            let (xv, wv) = (x_reader.read(xs[l]), w_reader.read(ws[l]));
            acc[l] = multiply_add::<T, FUSE>(wv, xv, acc[l]);
        }
    }
    for (l, (&xs, &ws)) in x_tail.iter().zip(w_tail).enumerate() {
        acc[l] = multiply_add::<T, FUSE>(w_reader.read(ws), x_reader.read(xs), acc[l]);
    }
}
