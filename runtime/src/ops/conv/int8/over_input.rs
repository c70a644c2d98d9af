//! An int8 layer channels last written over its own input, as TinyEngine
//! writes its depthwise layers: the planned program's way of holding one
//! tensor where a layer reads one and writes another of the same size (a
//! depthwise or 1x1 convolution keeping the channels).
//!
//! The layer kernels already read the input a band of output rows at a
//! time, from a padded copy of the rows the band's windows span
//! ([`PaddedInput::store_bands`]). Over the input, before band `b` is
//! stored, the input rows it overwrites that band `b + 1` reads (its
//! window's rows above: a 3x3 layer's one) are saved in a halo of a few
//! rows, which band `b + 1`'s copy then reads in their place ([`Bands`]).
//! Whether that serves every band is a constant of the geometry
//! ([`writes_over_input`]): each image's output has the input's bytes,
//! and no band's output reaches the first row the band after next reads.
//!
//! Where no layer kernel runs (a level below AVX2, weights with a
//! constant), a portable kernel sums each output from the same copies
//! ([`store_band_portable`]): the layer is written over its input at every
//! level. An input constant whose padding is not a byte (`-c` outside
//! `i8`), which the copies cannot hold, is declined
//! ([`store_layer_over_input`]; the program then evaluates the layer from
//! a heap copy of its input).

use super::{band_input_rows, band_rows, layer_kernels_take, LayerKernel, PaddedInput};
use super::{BandWalk, Int8Tile};
use crate::expr::Requantization;
use crate::rules::conv::Geometry;
use crate::scratch::{scratch_len, Buf, Scratch};
use core::mem::MaybeUninit;

/// Whether a layer over `g` (channels last, one the layer kernels take)
/// can be written over its input: each image's output has the input's
/// bytes, and no band's output reaches a row that a band after the next
/// reads (the module's header; [`halo_rows`]).
pub(crate) const fn writes_over_input(g: &Geometry) -> bool {
    halo_rows(g).is_some()
}

/// The most input rows of `g` one band's store overwrites that the next
/// band reads ([`Bands`] saves them first); `None` where the layer cannot
/// be written over its input ([`writes_over_input`]).
const fn halo_rows(g: &Geometry) -> Option<usize> {
    let in_row = g.input[1] * g.in_channels;
    let out_row = g.output[1] * g.out_channels;
    if !g.channels_last
        || !layer_kernels_take(g)
        || g.output[0] == 0
        || g.input[0] * in_row != g.output[0] * out_row
    {
        return None;
    }
    let (rows, oh) = (band_rows(g), g.output[0]);
    let mut halo = 0;
    // `end`: the output rows stored after band b, which overwrite the
    // input's rows below `overwritten`.
    let mut end = rows;
    while end < oh {
        let overwritten = (end * out_row).div_ceil(in_row);
        // The first input rows bands b + 1 and b + 2 read.
        let next = first_read(g, end);
        if overwritten > next && overwritten - next > halo {
            halo = overwritten - next;
        }
        if end + rows < oh && overwritten > first_read(g, end + rows) {
            return None;
        }
        end += rows;
    }
    Some(halo)
}

/// The first input row the band from output row `oh` of `g` reads.
const fn first_read(g: &Geometry, oh: usize) -> usize {
    (oh * g.stride[0]).saturating_sub(g.pad[0])
}

/// The bytes of one band's padded copy of the input of `g` for a kernel
/// whose reads reach `spare` values past a window.
pub(super) const fn band_copy_bytes(g: &Geometry, spare: usize) -> usize {
    let (_, columns) = PaddedInput::extent(g);
    scratch_len(band_input_rows(g, band_rows(g)) * columns * g.in_channels + spare)
}

/// The bytes of the halo of a layer over `g` written over its input
/// ([`halo_rows`] input rows).
pub(super) const fn halo_bytes(g: &Geometry) -> usize {
    match halo_rows(g) {
        Some(rows) => scratch_len(rows * g.input[1] * g.in_channels),
        None => 0,
    }
}

/// The scratch [`store_layer_over_input`] takes for a layer over `g`
/// ([`writes_over_input`]): the most of the layer kernels' (a band's copy
/// and the halo each, [`LayerKernel::scratch_bytes`]) and the portable
/// kernel's.
pub(crate) const fn scratch_bytes(g: &Geometry) -> usize {
    let kernels = if super::is_depthwise(g) {
        super::max(
            LayerKernel::Depthwise.scratch_bytes(g, true),
            LayerKernel::DepthwiseAvx2.scratch_bytes(g, true),
        )
    } else {
        super::max(
            LayerKernel::Vnni.scratch_bytes(g, true),
            LayerKernel::Pairs.scratch_bytes(g, true),
        )
    };
    super::max(kernels, band_copy_bytes(g, 0) + halo_bytes(g))
}

/// Stores the layer over `layer`'s convolution (channels last; its input
/// is `data`, not `layer.x`) through `epilogue` into `data` itself, its
/// buffers from `scratch` ([`scratch_bytes`] of them): by the layer kernel
/// [`LayerKernel::of`] it, else by the portable one. False, `data`
/// untouched, where the geometry does not allow it
/// ([`writes_over_input`]), `data`, the weights or the epilogue's values
/// do not fit it, or the input's constant leaves padding that is not a
/// byte.
pub(crate) fn store_layer_over_input(
    layer: &Int8Tile,
    epilogue: &Requantization<'_>,
    data: &mut [i8],
    scratch: &mut Scratch<'_>,
) -> bool {
    let g = layer.geometry;
    let fits = writes_over_input(g)
        && data.len() == g.batch * g.input[0] * g.input[1] * g.in_channels
        && layer.w.len() >= g.out_channels * g.kernel[0] * g.kernel[1] * (g.in_channels / g.groups)
        && (-127..=128).contains(&layer.x_offset)
        && [epilogue.bias, epilogue.multiplier, epilogue.shift]
            .iter()
            .all(|values| values.covers(g.out_channels));
    if !fits {
        return false;
    }
    match LayerKernel::of(layer) {
        Some(kernel) => {
            let bands = Bands::new(g, kernel.spare(g), data, scratch);
            kernel.store(layer, epilogue, bands, scratch);
        }
        None => store_portable(layer, epilogue, data, scratch),
    }
    true
}

/// [`store_layer_over_input`] by the portable kernel. Out of line: the
/// frame above the layer kernels is then theirs alone.
#[inline(never)]
fn store_portable(
    layer: &Int8Tile,
    epilogue: &Requantization<'_>,
    data: &mut [i8],
    scratch: &mut Scratch<'_>,
) {
    let mut bands = Bands::new(layer.geometry, 0, data, scratch);
    bands.store_bands(layer, super::zero_point(layer), |band, input, out| {
        store_band_portable(band, input, epilogue, out)
    });
}

/// The walk over a layer's bands whose output overwrites its input: a
/// band's padded copy, and the halo of the input rows the band before
/// overwrote (the module's header).
pub(super) struct Bands<'p, 'd> {
    input: PaddedInput<'p>,
    halo: Buf<'p, i8>,
    /// The input rows the halo holds, from row `.0` of image `.1`: `.2`.
    saved: (usize, usize, usize),
    data: &'d mut [i8],
}

impl<'p, 'd> Bands<'p, 'd> {
    /// The walk over `data` (a layer's input, `g`'s) for a kernel whose
    /// reads reach `spare` values past a window, its copy and halo from
    /// `scratch` ([`band_copy_bytes`] and [`halo_bytes`]).
    pub(super) fn new<'s: 'p>(
        g: &Geometry,
        spare: usize,
        data: &'d mut [i8],
        scratch: &mut Scratch<'s>,
    ) -> Self {
        let input = PaddedInput::band_copy(g, spare, scratch);
        let halo_len = halo_rows(g).unwrap_or(0) * g.input[1] * g.in_channels;
        Bands {
            input,
            halo: scratch.filled(halo_len, 0),
            saved: (0, 0, 0),
            data,
        }
    }

    /// Copies the rows band `(n, oh)` of a layer over `g` reads (output
    /// rows from `oh` of image `n`), padded with `padding`: from the data,
    /// and those the halo holds from it.
    fn copy_band(&mut self, g: &Geometry, (n, oh): (usize, usize), padding: i8) {
        let rows = band_rows(g).min(g.output[0] - oh);
        let input_rows = band_input_rows(g, rows);
        let columns = self.input.columns;
        let row_len = columns * g.in_channels;
        let first = oh * g.stride[0];
        let to = self
            .input
            .copy_band_rows(self.data, g, n, first, input_rows, padding);
        // The rows overwritten since, from the halo, where `copy_rows`
        // puts a row's values (`row_values`).
        let (saved_first, image, count) = self.saved;
        if image != n || count == 0 {
            return;
        }
        let row_bytes = g.input[1] * g.in_channels;
        let (left, inside) = super::row_values(g, columns);
        for ih in saved_first..saved_first + count {
            let Some(row) = (ih + g.pad[0])
                .checked_sub(first)
                .filter(|&r| r < input_rows)
            else {
                continue;
            };
            let saved = &self.halo[(ih - saved_first) * row_bytes..][..inside];
            to[row * row_len + left..][..inside].copy_from_slice(saved);
        }
    }

    /// Saves the input rows of image `n` that storing output rows up to
    /// `end` overwrites and the band from output row `next` reads.
    fn save_halo(&mut self, g: &Geometry, n: usize, end: usize, next: usize) {
        let row_bytes = g.input[1] * g.in_channels;
        let overwritten = (end * g.output[1] * g.out_channels).div_ceil(row_bytes);
        let first = first_read(g, next);
        let count = overwritten.min(g.input[0]).saturating_sub(first);
        let image = n * g.input[0] * row_bytes;
        let rows = &self.data[image + first * row_bytes..][..count * row_bytes];
        self.halo[..count * row_bytes].copy_from_slice(rows);
        self.saved = (first, n, count);
    }
}

impl BandWalk for Bands<'_, '_> {
    /// Each band's rows copied (padded with `padding`, those overwritten
    /// from the halo), then the rows the next band reads that its store
    /// overwrites saved in the halo, then the band stored.
    #[inline(always)]
    fn store_bands(
        &mut self,
        layer: &Int8Tile,
        padding: i8,
        mut store: impl FnMut(&Int8Tile, &PaddedInput, &mut [MaybeUninit<i8>]),
    ) {
        let g = layer.geometry;
        let (oh_len, per_row) = (g.output[0], g.output[1] * g.out_channels);
        let mut band = Geometry {
            batch: 1,
            input: [0, self.input.columns],
            pad: [0, 0],
            ..*g
        };
        let step = band_rows(g);
        for n in 0..g.batch {
            self.saved = (0, n, 0);
            let mut oh = 0;
            while oh < oh_len {
                let rows = step.min(oh_len - oh);
                self.copy_band(g, (n, oh), padding);
                if oh + rows < oh_len {
                    self.save_halo(g, n, oh + rows, oh + rows);
                }
                (band.input[0], band.output[0]) = (self.input.rows, rows);
                let first = (n * oh_len + oh) * per_row;
                let out = &mut self.data[first..][..rows * per_row];
                // SAFETY: `MaybeUninit<i8>` has `i8`'s layout, and the
                // kernels write only initialised bytes into it, so `data`
                // stays initialised.
                let out = unsafe { &mut *(out as *mut [i8] as *mut [MaybeUninit<i8>]) };
                store(
                    &Int8Tile {
                        geometry: &band,
                        ..*layer
                    },
                    &self.input,
                    out,
                );
                oh += rows;
            }
        }
    }
}

/// Stores a band (a convolution of one image, no padding, over `input`'s
/// copy) through `epilogue` one output at a time: each output channel's
/// sum over its window's taps and its group's input channels of
/// `(x + c) * (w + c_w)`, wrapping as `i32` arithmetic does in a release
/// build. The padding's bytes are `-c`, whose terms are zero.
fn store_band_portable(
    band: &Int8Tile,
    input: &PaddedInput,
    epilogue: &Requantization<'_>,
    out: &mut [MaybeUninit<i8>],
) {
    let g = band.geometry;
    let per_group = g.in_channels / g.groups;
    let out_per_group = g.out_channels / g.groups;
    let [kh_len, kw_len] = g.kernel;
    let outputs = out.chunks_exact_mut(g.out_channels);
    for (position, out) in outputs.enumerate() {
        let (oh, ow) = (position / g.output[1], position % g.output[1]);
        for (co, out) in out.iter_mut().enumerate() {
            let first = co / out_per_group * per_group;
            let mut acc = 0i32;
            for kh in 0..kh_len {
                let row = oh * g.stride[0] + kh * g.dilation[0];
                for kw in 0..kw_len {
                    let column = ow * g.stride[1] + kw * g.dilation[1];
                    let pixel = (row * input.columns + column) * g.in_channels + first;
                    let weights = ((co * kh_len + kh) * kw_len + kw) * per_group;
                    let taps = input.values[pixel..][..per_group]
                        .iter()
                        .zip(&band.w[weights..][..per_group]);
                    for (&x, &w) in taps {
                        let x = i32::from(x).wrapping_add(band.x_offset);
                        let w = i32::from(w).wrapping_add(band.w_offset);
                        acc = acc.wrapping_add(x.wrapping_mul(w));
                    }
                }
            }
            // Within `i8`: the epilogue ends with the saturation.
            out.write(epilogue.apply(acc, co) as i8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::PerChannel;
    use crate::isa::{selected, Level};
    use crate::ops::conv::int8::PackedWeights;
    use alloc::vec::Vec;

    /// A channels-last geometry: `[C_in, C_out, groups]`, `[H, W]`, a
    /// square kernel, `stride`, `dilation`, TensorFlow's SAME padding at
    /// stride 1 (`pad` before), `batch` images.
    fn geometry(
        [c_in, c_out, groups]: [usize; 3],
        input: [usize; 2],
        kernel: usize,
        [stride, dilation, pad, batch]: [usize; 4],
    ) -> Geometry {
        let span = (kernel - 1) * dilation + 1;
        let output = input.map(|i| (i + 2 * pad - span) / stride + 1);
        Geometry {
            spatial: 2,
            batched: true,
            batch,
            in_channels: c_in,
            out_channels: c_out,
            groups,
            channels_last: true,
            input,
            kernel: [kernel; 2],
            output,
            stride: [stride; 2],
            dilation: [dilation; 2],
            pad: [pad; 2],
        }
    }

    /// Deterministic bytes.
    fn bytes(len: usize, seed: u32) -> Vec<i8> {
        let mut state = seed.wrapping_mul(2_654_435_761) | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state >> 24) as u8 as i8
            })
            .collect()
    }

    /// The layer by its definition: each output's sum of `(x + c) * w`
    /// over the taps inside the input, through the epilogue.
    fn reference(g: &Geometry, x: &[i8], w: &[i8], c: i32, epilogue: &Requantization) -> Vec<i8> {
        let (per_group, out_per_group) = (g.in_channels / g.groups, g.out_channels / g.groups);
        let mut out = Vec::new();
        for n in 0..g.batch {
            for oh in 0..g.output[0] {
                for ow in 0..g.output[1] {
                    for co in 0..g.out_channels {
                        let mut acc = 0i32;
                        for kh in 0..g.kernel[0] {
                            for kw in 0..g.kernel[1] {
                                let ih =
                                    (oh * g.stride[0] + kh * g.dilation[0]).wrapping_sub(g.pad[0]);
                                let iw =
                                    (ow * g.stride[1] + kw * g.dilation[1]).wrapping_sub(g.pad[1]);
                                if ih >= g.input[0] || iw >= g.input[1] {
                                    continue;
                                }
                                for ci in 0..per_group {
                                    let channel = co / out_per_group * per_group + ci;
                                    let pixel =
                                        ((n * g.input[0] + ih) * g.input[1] + iw) * g.in_channels;
                                    let weight = ((co * g.kernel[0] + kh) * g.kernel[1] + kw)
                                        * per_group
                                        + ci;
                                    let x = i32::from(x[pixel + channel]) + c;
                                    acc = acc.wrapping_add(x.wrapping_mul(i32::from(w[weight])));
                                }
                            }
                        }
                        out.push(epilogue.apply(acc, co) as i8);
                    }
                }
            }
        }
        out
    }

    /// Every layer written over its input ([`writes_over_input`]) by each
    /// kernel the CPU runs and the portable one equals its definition:
    /// depthwise layers (SAME, dilated, several bands, two images), 1x1
    /// layers keeping the channels, and strided layers of four times the
    /// channels (whose output rows are twice their input's, so a band's
    /// output reaches rows the next band reads).
    #[test]
    fn layers_written_over_their_inputs_equal_their_definition() {
        let bias: Vec<i32> = (0..64).map(|c| c * 37 - 1000).collect();
        let epilogue = Requantization {
            bias: PerChannel::Each(&bias),
            multiplier: PerChannel::All(1_200_000_000),
            shift: PerChannel::All(-7),
            offset: -5,
            ..Requantization::SUMS
        }
        .max(-128)
        .min(127);
        let mut layers = Vec::new();
        for (c, input) in [(16, [40, 6]), (24, [13, 9]), (64, [25, 5]), (32, [3, 1])] {
            for batch in [1, 2] {
                layers.push(geometry([c, c, c], input, 3, [1, 1, 1, batch]));
                layers.push(geometry([c, c, c], input, 3, [1, 2, 2, batch]));
                layers.push(geometry([c, c, c], input, 5, [1, 1, 2, batch]));
                layers.push(geometry([c, c, 1], input, 1, [1, 1, 0, batch]));
            }
        }
        // Not written over its input (the test below): kept, so that a
        // rule that let it would fail here.
        layers.push(geometry([16, 16, 16], [20, 32], 5, [1, 4, 8, 1]));
        for input in [[16, 16], [40, 8], [9, 9]] {
            layers.push(geometry([8, 32, 1], input, 3, [2, 1, 1, 1]));
            layers.push(geometry([16, 64, 1], input, 1, [2, 1, 0, 2]));
        }
        let mut kernels = Vec::new();
        if selected() >= Level::Avx512Vnni {
            kernels.extend([LayerKernel::Vnni, LayerKernel::Depthwise]);
        }
        if selected() >= Level::Avx2 {
            kernels.extend([LayerKernel::Pairs, LayerKernel::DepthwiseAvx2]);
        }
        let mut written = 0;
        for (i, g) in layers.iter().enumerate() {
            if !writes_over_input(g) {
                continue;
            }
            written += 1;
            let x = bytes(g.batch * g.input[0] * g.input[1] * g.in_channels, i as u32);
            let per_channel = g.kernel[0] * g.kernel[1] * g.in_channels / g.groups;
            let w = bytes(g.out_channels * per_channel, 100 + i as u32);
            let expected = reference(g, &x, &w, 3, &epilogue);
            let packed = PackedWeights::default();
            let layer = Int8Tile {
                x: &[],
                w: &w,
                packed: &packed,
                x_offset: 3,
                w_offset: 0,
                geometry: g,
                positions: &[],
                channels: g.out_channels,
            };
            let depthwise = super::super::is_depthwise(g);
            let runs = kernels.iter().filter(|k| {
                depthwise == matches!(k, LayerKernel::Depthwise | LayerKernel::DepthwiseAvx2)
            });
            for kernel in runs.map(Some).chain([None]) {
                let mut data = x.clone();
                let mut scratch = Scratch::none();
                match kernel {
                    Some(kernel) => {
                        let bands = Bands::new(g, kernel.spare(g), &mut data, &mut scratch);
                        kernel.store(&layer, &epilogue, bands, &mut scratch);
                    }
                    None => store_portable(&layer, &epilogue, &mut data, &mut scratch),
                }
                assert!(data == expected, "{kernel:?} over {g:?}");
            }
        }
        assert!(
            written >= 30,
            "{written} of the layers written over their inputs"
        );
    }

    /// Layers whose output does not have their input's bytes, or whose
    /// bands' output would reach rows a band not yet copied reads, are
    /// not written over their inputs.
    #[test]
    fn a_layer_is_written_over_its_input_only_where_no_row_is_lost() {
        // Stride 2 to the same channels: a quarter of the bytes.
        assert!(!writes_over_input(&geometry(
            [16, 16, 16],
            [20, 20],
            3,
            [2, 1, 1, 1]
        )));
        // A valid 3x3 (no padding): two rows fewer.
        assert!(!writes_over_input(&geometry(
            [16, 16, 16],
            [20, 8],
            3,
            [1, 1, 0, 1]
        )));
        // Channels first.
        let g = geometry([16, 16, 16], [20, 8], 3, [1, 1, 1, 1]);
        assert!(writes_over_input(&g));
        assert!(!writes_over_input(&Geometry {
            channels_last: false,
            ..g
        }));
        // A window of 17 rows (5 taps, dilation 4), padded by 8, in bands
        // of one row: band b's output overwrites input row b, which the
        // bands up to b + 8 read.
        let tall = geometry([16, 16, 16], [20, 32], 5, [1, 4, 8, 1]);
        assert_eq!((tall.output, band_rows(&tall)), ([20, 32], 1));
        assert!(!writes_over_input(&tall));
        // The keyword spotter's depthwise layers save the one row above
        // each band; its 1x1 layers none.
        let depthwise = geometry([64, 64, 64], [25, 5], 3, [1, 1, 1, 1]);
        let pointwise = geometry([64, 64, 1], [25, 5], 1, [1, 1, 0, 1]);
        assert_eq!(
            (halo_rows(&depthwise), halo_rows(&pointwise)),
            (Some(1), Some(0))
        );
    }
}
