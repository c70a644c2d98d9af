//! The int8 convolution's kernels channels last: `conv2d(cast::<i32>(x) -
//! zx, cast::<i32>(w), layout = nhwc)` over stored `i8` data, summed from
//! the bytes themselves, as TFLite's int8 kernels compute. A convolution of
//! one group and either form ([`Form`]) has its every tile summed here,
//! compiled once in the runtime whatever the expression: the expression's
//! nodes give the kernels slices and the geometry, and apply their
//! epilogue (bias, requantisation, clamp) to the sums. Only without an
//! allocator (the weights are packed on the heap) does such a convolution
//! compile the general path of `conv` into its expression.
//!
//! - **Pixels** (input channels a multiple of 4, as every layer past a
//!   network's first): each tap reads the position's input pixel where it
//!   is stored.
//! - **Rows** (other input channels: an image's 1 or 3, a keyword
//!   spotter's one MFCC plane; no dilation along the row): each row of the
//!   window (its taps' pixels side by side, at most [`MAX_ROW`] bytes) is
//!   read as one long tap.
//!
//! The weights are copied once per evaluation into the layout of the kernel
//! that sums the tiles ([`PackedWeights`]): with AVX-512 VNNI (selected at
//! run time, `std` on x86-64; or the compile-time target's), weights
//! without a constant and an input whose zero point is a byte, the VNNI
//! kernel below; else, on x86-64 with AVX2 or AVX-512 selected, the
//! [`pairs`] kernel (`vpmaddwd` on bytes widened to 16-bit pairs, the
//! input read as the VNNI kernel reads it); otherwise the [`portable`] one, at the
//! selected instruction-set level. A tile of up to 8 output positions (any: each
//! its own) by up to 32 channels is summed as one or two whole blocks of 16
//! channels ([`by_blocks`]).
//!
//! The VNNI kernel keeps one vector of 16 `i32` sums per position and 16
//! channels. The weights are stored, for each 16 output channels
//! and each four bytes of a window's row (tap by tap, input channels
//! innermost, each row rounded up to four bytes), as 64 bytes holding every
//! channel's four weights side by side, so that one load gives the vector
//! `vpdpbusd` multiplies by. For each four bytes of a window, one
//! `vpdpbusd` per position and vector multiplies the position's four input
//! bytes (broadcast) by the 16 channels' weights and adds them. `vpdpbusd`
//! takes unsigned bytes on the left: each input byte is read as `x + 128`
//! (its sign bit flipped as it is broadcast), and `(128 - c)` times each
//! channel's weight sum is taken off at the end, where `c` is the constant
//! added to the input (`-zx`). A tap in the padding reads bytes equal to
//! `-c` (the zero point), whose term the same correction cancels, so the
//! padding contributes zero as TFLite's does. The input is read in place
//! where no window reaches past it, else from a padded copy
//! ([`PaddedInput`]; a whole layer's a band of rows at a time), so that a
//! tap (or, in the rows form, a window's row) is read at a constant offset
//! from its position's first pixel, with no check of the padding, and
//! each four bytes are one broadcast from memory. A row's last four bytes
//! may reach past it; their weights are zero.
//!
//! A depthwise convolution is not among the forms: each output takes one
//! input channel's 9 or 25 taps, so a tile's cost is its addressing more
//! than its multiply-adds, and the general path, compiled per expression,
//! has the geometry as constants (its loops unrolled, its offsets
//! folded), which a kernel compiled once cannot. A kernel of 16 channels
//! a tap, compiled once, measured no faster than it for tiles, nor did one
//! of four taps a `vpdpbusd` from a copy of the input interleaved once per
//! evaluation (PERFORMANCE.md, "Int8 depthwise convolutions").
//!
//! A whole int8 layer (module [`crate::expr::layer`]) is stored by
//! [`store_layer`] instead, its epilogue in registers ([`requantize`]): by
//! the VNNI kernel for the forms (with AVX2 alone, the [`pairs`] kernel's
//! sums), by the [`depthwise`] layer kernels for a depthwise convolution
//! (there, without a tile's plumbing or the expression's epilogue, a
//! kernel compiled once is the faster); a layer channels first by the
//! same kernels over copies channels last ([`channels_first`]); a
//! program's layer over its own input by the same kernels, or a portable
//! one, over a copy of a band of rows and a halo ([`over_input`]).

#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
#[macro_use]
mod windows; // first: its `each_row!` is the other kernels' too
#[cfg(all(feature = "alloc", vnni_kernel))]
mod channels_first;
#[cfg(all(feature = "alloc", vnni_kernel))]
mod depthwise;
#[cfg(all(feature = "alloc", vnni_kernel))]
mod over_input;
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
mod pairs;
#[cfg(feature = "alloc")]
mod portable;
#[cfg(all(feature = "alloc", vnni_kernel))]
mod requantize;

#[cfg(feature = "alloc")]
use super::input_at;
use super::Position;
use crate::rules::conv::Geometry;
#[cfg(all(feature = "alloc", vnni_kernel))]
use crate::scratch::scratch_len;
#[cfg(all(test, feature = "alloc", vnni_kernel))]
use crate::scratch::SCRATCH_ALIGN;
#[cfg(feature = "alloc")]
use crate::scratch::{Buf, Scratch};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
#[cfg(all(feature = "alloc", vnni_kernel))]
use core::mem::size_of;
#[cfg(all(feature = "alloc", vnni_kernel))]
use requantize::{Steps, Steps8};

/// The most output positions of one tile.
pub(crate) const TILE_ROWS: usize = 8;

/// The most output channels of one tile.
pub(crate) const TILE_CHANNELS: usize = 32;

/// The output channels of one block of the packed weights.
#[cfg(feature = "alloc")]
const CHANNEL_BLOCK: usize = 16;

/// A once-set cell: shared by the threads of a split walk with `std`
/// (`rayon` implies it), a plain cell without.
#[cfg(feature = "std")]
type Once<T> = std::sync::OnceLock<T>;
#[cfg(all(feature = "alloc", not(feature = "std")))]
type Once<T> = core::cell::OnceCell<T>;

/// A convolution's weights in a kernel's layout, made on the first tile
/// and kept for the rest of the evaluation. Without an allocator it holds
/// nothing, and the convolution takes its general path.
#[derive(Default)]
pub struct PackedWeights {
    #[cfg(feature = "alloc")]
    /// Boxed: the cell sits in every int8 convolution's node, and so in
    /// the frames that build the trees (a program's function among them),
    /// where the weights' layouts inline took some 140 bytes.
    once: Once<alloc::boxed::Box<Packed>>,
}

impl core::fmt::Debug for PackedWeights {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("PackedWeights")
    }
}

/// The weights in one kernel's layout.
#[cfg(feature = "alloc")]
enum Packed {
    /// The VNNI kernel's ([`VnniWeights`]), and the input padded.
    #[cfg(vnni_kernel)]
    Vnni(VnniWeights<'static>, PaddedInput<'static>),
    /// The [`portable`] kernel's: for each block of 16 output channels and
    /// each weight of a window (tap by tap, input channels innermost), the
    /// 16 channels' weights plus the weights' constant, as `i32`
    /// (channels past `C_out` zero).
    Wide(Vec<i32>),
    /// The [`pairs`] kernel's weights in pairs, and the input padded.
    #[cfg(target_arch = "x86_64")]
    Pairs(pairs::Pairs<'static>, PaddedInput<'static>),
}

/// The weights in the VNNI kernel's layout and each channel's sum.
#[cfg(all(feature = "alloc", vnni_kernel))]
struct VnniWeights<'s> {
    /// For each block of 16 output channels and each four bytes of a row
    /// of the window, 16 times the channel's four bytes (bytes past the
    /// row and channels past `C_out` zero).
    bytes: Buf<'s, i8>,
    /// Each channel's weights summed, over every tap and input channel
    /// (a multiple of 16 of them, those past `C_out` zero).
    sums: Buf<'s, i32>,
}

/// The input of a convolution as the VNNI, [`pairs`] and [`depthwise`]
/// kernels read it: `[N, Hp, Wp, C_in]` bytes as stored (each kernel
/// makes them the values it multiplies in registers), `Hp` and `Wp` the
/// extent every window of the output spans, padded with the zero point,
/// whose term the kernels' correction for the input's constant cancels.
/// A tap is then one load at a constant offset from its position's first
/// pixel, with no check of the padding, and a group of values one
/// broadcast from memory.
///
/// Where no window reaches into the padding or past the input's last
/// value ([`reads_in_place`]), the input itself (a 1x1 layer's, a valid
/// convolution's). Else a copy: a layer kernel copies a band of output
/// rows' windows at a time ([`Self::for_layer`], [`Self::store_bands`]),
/// the tiles of an expression the whole input once an evaluation
/// ([`Self::whole`]).
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
struct PaddedInput<'s> {
    values: InputBytes<'s>,
    /// The rows of one image in `values`: `Hp`, a band's, or `H` in place.
    rows: usize,
    /// The columns of a row in `values`: `Wp`, or `W` in place.
    columns: usize,
    /// Whether the padding columns of a band's copy hold the padding: a
    /// band after the first leaves them as they are ([`copy_rows`]). Read
    /// by the layer kernels' band walks (`vnni_kernel`).
    #[cfg_attr(not(vnni_kernel), allow(dead_code))]
    columns_padded: bool,
}

/// The bytes of a [`PaddedInput`]: the input's own, or a copy.
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
enum InputBytes<'s> {
    /// The input itself, read by the layer kernels (`vnni_kernel`).
    #[cfg_attr(not(vnni_kernel), allow(dead_code))]
    InPlace(&'s [i8]),
    Copy(Buf<'s, i8>),
}

#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
impl core::ops::Deref for InputBytes<'_> {
    type Target = [i8];
    #[inline(always)]
    fn deref(&self) -> &[i8] {
        match self {
            InputBytes::InPlace(values) => values,
            InputBytes::Copy(values) => values,
        }
    }
}

/// Whether a kernel whose reads reach `spare` values past a window's last
/// one reads the input of `g` in place: no padding on either side (every
/// window inside the input) and no such reach.
#[cfg(all(feature = "alloc", vnni_kernel))]
const fn reads_in_place(g: &Geometry, spare: usize) -> bool {
    let (rows, columns) = PaddedInput::extent(g);
    g.pad[0] == 0 && g.pad[1] == 0 && rows <= g.input[0] && columns <= g.input[1] && spare == 0
}

/// The bytes of input a band of a layer's output rows takes where more
/// rows than a band's least fit ([`band_rows`]): a few rows' halo read
/// twice per band against the scratch a band adds to the plan.
#[cfg(all(feature = "alloc", vnni_kernel))]
const BAND_BYTES: usize = 4 * 1024;

/// The output rows a layer kernel stores at a time from one band of its
/// padded input ([`PaddedInput::store_bands`]), at most the output's: a
/// whole number of tiles of 8 positions where the rows allow it, at least
/// 32 positions, more while their input fits [`BAND_BYTES`]. (An image's
/// last band may hold fewer positions than a tile: the layer kernels
/// store those one at a time, as they do a layer of so few.)
#[cfg(all(feature = "alloc", vnni_kernel))]
const fn band_rows(g: &Geometry) -> usize {
    let [oh, ow] = g.output;
    // The fewest rows whose positions are a multiple of 8.
    let mut whole = 1;
    while whole < TILE_ROWS && !(whole * ow).is_multiple_of(TILE_ROWS) {
        whole += 1;
    }
    let mut rows = whole * (32usize.div_ceil(whole * ow));
    let row_bytes = PaddedInput::extent(g).1 * g.in_channels;
    while rows < oh && band_input_rows(g, rows + whole) * row_bytes <= BAND_BYTES {
        rows += whole;
    }
    if rows < oh {
        rows
    } else {
        oh
    }
}

/// The rows of the padded input that `rows` output rows of `g` read.
#[cfg(all(feature = "alloc", vnni_kernel))]
const fn band_input_rows(g: &Geometry, rows: usize) -> usize {
    (rows - 1) * g.stride[0] + (g.kernel[0] - 1) * g.dilation[0] + 1
}

/// The bytes a layer kernel whose reads reach `spare` values past a
/// window takes for its input over `g` ([`PaddedInput::for_layer`]).
#[cfg(all(feature = "alloc", vnni_kernel))]
const fn layer_input_bytes(g: &Geometry, spare: usize) -> usize {
    if reads_in_place(g, spare) {
        0
    } else {
        over_input::band_copy_bytes(g, spare)
    }
}

#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
impl<'p> PaddedInput<'p> {
    /// `x` (`[N, H, W, C_in]`) whole for a convolution of `g`, padded with
    /// `padding` (the zero point), and `spare` values more at the end (the
    /// last broadcast of a window's row may reach past the last pixel;
    /// its weights are zero).
    ///
    /// # Panics
    /// If `x` is shorter than the geometry's input.
    fn whole(x: &[i8], g: &Geometry, padding: i8, spare: usize, scratch: &mut Scratch<'p>) -> Self {
        let (rows, columns) = Self::extent(g);
        let image = rows * columns * g.in_channels;
        let mut values = scratch.filled(g.batch * image + spare, padding);
        for (n, to) in values.chunks_exact_mut(image).enumerate() {
            copy_rows(x, g, n, 0, rows, columns, padding, false, to);
        }
        PaddedInput {
            values: InputBytes::Copy(values),
            rows,
            columns,
            columns_padded: true,
        }
    }

    /// `x` for a layer kernel over `g` whose reads reach `spare` values past
    /// a window: `x` itself where it reads it in place ([`reads_in_place`]),
    /// else a buffer for one band's copy ([`Self::store_bands`] fills it),
    /// [`layer_input_bytes`] of `scratch`.
    #[cfg(vnni_kernel)]
    fn for_layer<'s: 'p>(
        x: &'p [i8],
        g: &Geometry,
        spare: usize,
        scratch: &mut Scratch<'s>,
    ) -> Self {
        if reads_in_place(g, spare) {
            return PaddedInput {
                values: InputBytes::InPlace(x),
                rows: g.input[0],
                columns: g.input[1],
                columns_padded: true,
            };
        }
        Self::band_copy(g, spare, scratch)
    }

    /// A buffer for one band's copy of the input of `g` (for a kernel
    /// whose reads reach `spare` values past a window), from `scratch`:
    /// [`over_input::band_copy_bytes`].
    #[cfg(vnni_kernel)]
    fn band_copy<'s: 'p>(g: &Geometry, spare: usize, scratch: &mut Scratch<'s>) -> Self {
        let (_, columns) = Self::extent(g);
        let rows = band_input_rows(g, band_rows(g));
        let values = scratch.filled(rows * columns * g.in_channels + spare, 0);
        PaddedInput {
            values: InputBytes::Copy(values),
            rows,
            columns,
            columns_padded: false,
        }
    }

    /// Copies `rows` input rows of image `n` of `x` from padded row
    /// `first`, padded as `g` pads them with `padding`, into this band's
    /// copy ([`copy_rows`]; the padding columns only the first time), and
    /// gives those rows of the copy.
    #[cfg(vnni_kernel)]
    #[allow(clippy::too_many_arguments)]
    fn copy_band_rows(
        &mut self,
        x: &[i8],
        g: &Geometry,
        n: usize,
        first: usize,
        rows: usize,
        padding: i8,
    ) -> &mut [i8] {
        let InputBytes::Copy(values) = &mut self.values else {
            unreachable!("a band's copy")
        };
        let to = &mut values[..rows * self.columns * g.in_channels];
        copy_rows(
            x,
            g,
            n,
            first,
            rows,
            self.columns,
            padding,
            self.columns_padded,
            to,
        );
        (self.rows, self.columns_padded) = (rows, true);
        to
    }

    /// Stores a layer over `layer`'s convolution into `out` by `store`
    /// (a layer kernel's walk over every position of the geometry it is
    /// given, reading this input): once over the whole of it where the
    /// input is read in place, else band by band ([`band_rows`] output
    /// rows of one image at a time), each band's input rows copied and
    /// padded with `padding` first and `store` given the band as a
    /// convolution of its own (one image, no padding) and its part of
    /// `out`.
    #[cfg(vnni_kernel)]
    #[inline(always)]
    fn store_bands<O>(
        &mut self,
        layer: &Int8Tile,
        padding: i8,
        out: &mut [O],
        mut store: impl FnMut(&Int8Tile, &PaddedInput, &mut [O]),
    ) {
        let g = layer.geometry;
        if let InputBytes::InPlace(_) = self.values {
            store(layer, self, out);
            return;
        }
        let (oh_len, ow_len, columns) = (g.output[0], g.output[1], self.columns);
        let per_row = ow_len * g.out_channels;
        // One image, no padding: each band's rows set below.
        let mut band = Geometry {
            batch: 1,
            input: [0, columns],
            pad: [0, 0],
            ..*g
        };
        for n in 0..g.batch {
            let mut oh = 0;
            while oh < oh_len {
                let rows = band_rows(g).min(oh_len - oh);
                let input_rows = band_input_rows(g, rows);
                self.copy_band_rows(layer.x, g, n, oh * g.stride[0], input_rows, padding);
                (band.input[0], band.output[0]) = (input_rows, rows);
                let first = (n * oh_len + oh) * per_row;
                store(
                    &Int8Tile {
                        geometry: &band,
                        ..*layer
                    },
                    self,
                    &mut out[first..][..rows * per_row],
                );
                oh += rows;
            }
        }
    }

    /// `Hp` and `Wp`: the rows and columns every window of the output
    /// spans.
    const fn extent(g: &Geometry) -> (usize, usize) {
        const fn along(g: &Geometry, axis: usize) -> usize {
            (g.output[axis] - 1) * g.stride[axis] + (g.kernel[axis] - 1) * g.dilation[axis] + 1
        }
        (along(g, 0), along(g, 1))
    }

    /// The index of position `p`'s window's first value.
    #[inline(always)]
    fn window(&self, g: &Geometry, p: &Position) -> usize {
        ((p.n * self.rows + p.oh * g.stride[0]) * self.columns + p.ow * g.stride[1]) * g.in_channels
    }
}

/// Where [`copy_rows`] puts an input row's values in a padded row of
/// `columns` pixels of `g`: after `.0` values of padding, `.1` of them
/// (the input's columns that windows read: those left of `Wp - pad`).
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
const fn row_values(g: &Geometry, columns: usize) -> (usize, usize) {
    let c_in = g.in_channels;
    let left = if g.pad[1] < columns {
        g.pad[1]
    } else {
        columns
    };
    let inside = columns.saturating_sub(g.pad[1]);
    let inside = if inside < g.input[1] {
        inside
    } else {
        g.input[1]
    };
    (left * c_in, inside * c_in)
}

/// Writes rows `first ..+ rows` of image `n` of `x`, padded as `g` pads
/// it with `padding`, into `to`: rows of `columns` pixels. Where
/// `columns_padded`, the padding columns of `to`'s rows hold `padding`
/// already (a band's copy after the first into the same buffer: no band
/// writes a value there), and only the values and the rows of padding are
/// written. Rows without padding columns that are whole rows of `x` are
/// copied as one run: the pieces of a padded row are a few hundred bytes,
/// for which a call of `memcpy` or `memset` each costs more than the copy.
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
#[allow(clippy::too_many_arguments)]
fn copy_rows(
    x: &[i8],
    g: &Geometry,
    n: usize,
    first: usize,
    rows: usize,
    columns: usize,
    padding: i8,
    columns_padded: bool,
    to: &mut [i8],
) {
    let c_in = g.in_channels;
    let row_len = columns * c_in;
    let (left, inside) = row_values(g, columns);
    if left == 0 && inside == row_len && columns == g.input[1] {
        // The rows above the image, those inside it (one run of `x`), and
        // those below it.
        // (A band wholly above or below the image has no rows inside it.)
        let above = g.pad[0].saturating_sub(first).min(rows);
        let ih = (first + above).saturating_sub(g.pad[0]).min(g.input[0]);
        let inside_rows = (g.input[0] - ih).min(rows - above);
        let (above, rest) = to[..rows * row_len].split_at_mut(above * row_len);
        let (values, below) = rest.split_at_mut(inside_rows * row_len);
        above.fill(padding);
        values.copy_from_slice(&x[(n * g.input[0] + ih) * row_len..][..values.len()]);
        below.fill(padding);
        return;
    }
    for (row, to) in to.chunks_exact_mut(row_len).take(rows).enumerate() {
        let ih = (first + row)
            .checked_sub(g.pad[0])
            .filter(|&ih| ih < g.input[0]);
        let Some(ih) = ih.filter(|_| inside > 0) else {
            to.fill(padding);
            continue;
        };
        let (before, rest) = to.split_at_mut(left);
        let (values, after) = rest.split_at_mut(inside);
        if !columns_padded {
            before.fill(padding);
            after.fill(padding);
        }
        values.copy_from_slice(&x[(n * g.input[0] + ih) * g.input[1] * c_in..][..inside]);
    }
}

#[cfg(feature = "alloc")]
impl PackedWeights {
    /// The weights of `tile`'s convolution in the layout of the kernel
    /// that sums it: the VNNI kernel's where it runs ([`vnni_runs`]), else
    /// the [`pairs`] kernel's where it runs, else the portable one's.
    /// Every tile of an evaluation has the same weights, geometry and
    /// constants.
    fn get(&self, tile: &Int8Tile) -> &Packed {
        self.once
            .get_or_init(|| alloc::boxed::Box::new(Packed::of(tile)))
    }
}

#[cfg(feature = "alloc")]
impl Packed {
    /// The weights of `tile`'s convolution in the layout of the kernel
    /// that sums it ([`PackedWeights::get`]).
    fn of(tile: &Int8Tile) -> Packed {
        {
            #[cfg(vnni_kernel)]
            if vnni_runs(tile) {
                // SAFETY: `vnni_runs` holds only where the CPU has AVX-512
                // F, BW and VNNI (the selected level is at most the CPU's).
                let weights = unsafe { vnni::pack(tile, &mut Scratch::none()) };
                return Packed::Vnni(weights, whole_input(tile, vnni::SPARE));
            }
            #[cfg(target_arch = "x86_64")]
            if form(tile.geometry).is_some() && pairs::runs(tile) {
                let weights = pairs::pack(tile, &mut Scratch::none());
                return Packed::Pairs(weights, whole_input(tile, pairs::SPARE));
            }
            Packed::Wide(portable::pack(tile.w, tile.geometry, tile.w_offset))
        }
    }
}

/// The input of `tile`'s convolution padded whole on the heap, for
/// every tile of an evaluation ([`PaddedInput::whole`]).
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
fn whole_input(tile: &Int8Tile, spare: usize) -> PaddedInput<'static> {
    PaddedInput::whole(
        tile.x,
        tile.geometry,
        zero_point(tile),
        spare,
        &mut Scratch::none(),
    )
}

/// The byte the input's constant `c` cancels, `-c`: the padding's. The
/// kernels that pad run only where it is a byte.
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
fn zero_point(tile: &Int8Tile) -> i8 {
    tile.x_offset.wrapping_neg() as i8
}

/// Whether the VNNI kernel sums the tiles of `tile`'s convolution: it has
/// a [`Form`], the selected level (without `std`, the compile-time
/// target's) has VNNI, the weights have no constant added, and the input's
/// constant `c` leaves padding bytes `-c` that are bytes.
#[cfg(all(feature = "alloc", vnni_kernel))]
fn vnni_runs(tile: &Int8Tile) -> bool {
    form(tile.geometry).is_some()
        && tile.w_offset == 0
        && (-127..=128).contains(&tile.x_offset)
        && crate::isa::selected() >= crate::isa::Level::Avx512Vnni
}

/// The most bytes of one row of a window the rows form reads: one vector.
/// A row of 7 taps over 3 channels (21 bytes) fits.
pub(crate) const MAX_ROW: usize = 64;

/// How the VNNI kernel reads a convolution's input (the module's header);
/// a convolution with a form has int8 tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// One group, input channels a multiple of 4: taps read in place.
    Pixels,
    /// One group, rows of at most [`MAX_ROW`] bytes, no dilation along
    /// them: each row read as one tap.
    Rows,
}

/// The kernel's form for a convolution of `g` (channels last), if it has
/// one.
pub(crate) const fn form(g: &Geometry) -> Option<Form> {
    let row = g.kernel[1] * g.in_channels;
    if !g.channels_last {
        None
    } else if g.groups == 1 && g.in_channels.is_multiple_of(4) {
        Some(Form::Pixels)
    } else if g.groups == 1 && row <= MAX_ROW && (g.kernel[1] == 1 || g.dilation[1] == 1) {
        Some(Form::Rows)
    } else {
        None
    }
}

/// One tile of an int8 convolution channels last: its inputs and where it is.
/// (Without an allocator no kernel reads it: [`block`] declines.)
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
pub(crate) struct Int8Tile<'a> {
    /// The input, `[N, H, W, C_in]` bytes.
    pub(crate) x: &'a [i8],
    /// The weights, `[C_out, kH, kW, C_in]` bytes.
    pub(crate) w: &'a [i8],
    /// The weights in a kernel's layout, made on first use.
    pub(crate) packed: &'a PackedWeights,
    /// The constant added to each input byte (`-zx`).
    pub(crate) x_offset: i32,
    /// The constant added to each weight byte (0 without one).
    pub(crate) w_offset: i32,
    /// The sizes.
    pub(crate) geometry: &'a Geometry,
    /// The tile's output positions (1 to [`TILE_ROWS`]), each of the same
    /// first channel.
    pub(crate) positions: &'a [Position],
    /// The tile's output channels from that one: 1 to [`TILE_CHANNELS`].
    pub(crate) channels: usize,
}

/// Where a kernel writes a tile's sums: position `r`'s sums of the tile's
/// channels at `data[r * stride..][..channels]`, nothing else. A stride,
/// not a fixed block, so that the caller's buffer holds only the tile's
/// rows and a kernel can write one position's row of a larger tile in
/// place (no buffer of sums of its own on the stack).
pub(crate) struct SumsOut<'o> {
    /// The rows, `stride` apart.
    pub(crate) data: &'o mut [i32],
    /// The elements from one position's sums to the next's.
    pub(crate) stride: usize,
}

impl SumsOut<'_> {
    /// The `len` sums of position `r` from column `column`.
    #[cfg(feature = "alloc")]
    #[inline(always)]
    fn row(&mut self, r: usize, column: usize, len: usize) -> &mut [i32] {
        &mut self.data[r * self.stride + column..][..len]
    }
}

/// Writes the sums of the tile's positions by its channels into `out`, by
/// the VNNI kernel where it runs, else by the [`portable`] one. False,
/// `out` untouched, without an allocator (for the packed weights), or
/// where the tile does not fit its convolution (positions outside the
/// output, inputs shorter than the geometry) or `out` (rows narrower than
/// the tile or too few): never for a tile of the walk, with an allocator.
pub(crate) fn block(tile: &Int8Tile, out: &mut SumsOut) -> bool {
    let g = tile.geometry;
    let Some(channel) = tile.positions.first().map(|p| p.channel) else {
        return false;
    };
    let rows = tile.positions.len();
    let fits = (1..=TILE_ROWS).contains(&rows)
        && (1..=TILE_CHANNELS).contains(&tile.channels)
        && channel + tile.channels <= g.out_channels
        && tile.positions.iter().all(|p| {
            p.channel == channel && p.n < g.batch && p.oh < g.output[0] && p.ow < g.output[1]
        })
        && form(g).is_some()
        && tile.x.len() >= g.batch * g.input[0] * g.input[1] * g.in_channels
        && tile.w.len() >= g.out_channels * g.kernel[0] * g.kernel[1] * g.in_channels
        && out.stride >= tile.channels
        && out.data.len() >= (rows - 1) * out.stride + tile.channels;
    if !fits {
        return false;
    }
    #[cfg(feature = "alloc")]
    {
        by_blocks(tile, out, |aligned, blocks, out| {
            match tile.packed.get(tile) {
                // SAFETY: VNNI weights exist only where the CPU has AVX-512 F,
                // BW and VNNI (`vnni_runs`); they were made for this geometry,
                // and the tile fits it and `out`.
                #[cfg(vnni_kernel)]
                Packed::Vnni(weights, input) => unsafe {
                    vnni::block(aligned, blocks, weights, input, out)
                },
                Packed::Wide(weights) => portable::block(aligned, blocks, weights, out),
                #[cfg(target_arch = "x86_64")]
                Packed::Pairs(pairs, input) => pairs::block(aligned, blocks, pairs, input, out),
            }
        });
        true
    }
    #[cfg(not(feature = "alloc"))]
    {
        let _ = out;
        false
    }
}

/// Whether the layer kernels ([`store_layer`]) take a layer over a
/// convolution of `g`, in either layout: one of the [`Form`]s, or
/// depthwise (one input and one output channel a group).
pub(crate) const fn layer_kernels_take(g: &Geometry) -> bool {
    let last = channels_last(g);
    form(&last).is_some() || is_depthwise(&last)
}

/// `g` channels last: the same convolution over the input, weights and
/// output in TFLite's layout.
const fn channels_last(g: &Geometry) -> Geometry {
    Geometry {
        channels_last: true,
        ..*g
    }
}

/// Whether `g` is a depthwise convolution channels last of one input and
/// one output channel a group.
const fn is_depthwise(g: &Geometry) -> bool {
    g.channels_last && g.groups > 0 && g.groups == g.in_channels && g.groups == g.out_channels
}

/// Stores a whole int8 layer over `layer`'s convolution (its tile of no
/// positions names the inputs and the geometry) into `out`: every
/// position's channels, each tile's sums through `epilogue` in registers
/// and stored as bytes (module [`crate::expr::layer`]): by the VNNI kernel
/// for a convolution of a form, by the [`depthwise`] kernels (AVX-512 VNNI,
/// or AVX2) for a depthwise one; channels first, by the same kernels over
/// copies channels last ([`channels_first`]). False, `out` untouched,
/// where none of them runs (a level below theirs, an input constant they
/// cannot pad with, no allocator, no run-time detection), or the inputs,
/// `out` or the epilogue's per-channel values are shorter than the
/// geometry's: the expression's nest computes it then. The kernels'
/// buffers come from `scratch` where it holds them
/// ([`layer_scratch_bytes`]), else from the heap.
pub(crate) fn store_layer(
    layer: &Int8Tile,
    epilogue: &crate::expr::Requantization<'_>,
    out: &mut [core::mem::MaybeUninit<i8>],
    scratch: &mut crate::scratch::Scratch<'_>,
) -> bool {
    #[cfg(all(feature = "alloc", vnni_kernel))]
    {
        let g = layer.geometry;
        let positions = g.batch * g.output[0] * g.output[1];
        let fits = positions > 0
            && out.len() == positions * g.out_channels
            && layer.x.len() >= g.batch * g.input[0] * g.input[1] * g.in_channels
            && layer.w.len()
                >= g.out_channels * g.kernel[0] * g.kernel[1] * (g.in_channels / g.groups)
            && [epilogue.bias, epilogue.multiplier, epilogue.shift]
                .iter()
                .all(|values| values.covers(g.out_channels));
        if !fits {
            return false;
        } else if !g.channels_last {
            return channels_first::store_layer(layer, epilogue, out, scratch);
        }
        let Some(kernel) = LayerKernel::of(layer) else {
            return false;
        };
        let input = PaddedInput::for_layer(layer.x, g, kernel.spare(g), scratch);
        kernel.store(layer, epilogue, Apart(input, out), scratch);
        true
    }
    #[cfg(not(all(feature = "alloc", vnni_kernel)))]
    {
        let _ = (layer, epilogue, out, scratch);
        false
    }
}

/// Whether a layer over a convolution of `g` can be written over its
/// input ([`over_input`]; never where the layer kernels do not exist).
pub(crate) const fn writes_over_input(g: &Geometry) -> bool {
    #[cfg(all(feature = "alloc", vnni_kernel))]
    {
        over_input::writes_over_input(g)
    }
    #[cfg(not(all(feature = "alloc", vnni_kernel)))]
    {
        let _ = g;
        false
    }
}

/// The scratch [`store_layer_over_input`] takes for a layer over `g` (0
/// where it is not [`writes_over_input`]).
pub(crate) const fn over_input_scratch_bytes(g: &Geometry) -> usize {
    #[cfg(all(feature = "alloc", vnni_kernel))]
    if over_input::writes_over_input(g) {
        return over_input::scratch_bytes(g);
    }
    let _ = g;
    0
}

/// Stores a whole int8 layer over `layer`'s convolution (channels last;
/// its input is `data`, not `layer.x`) through `epilogue` into `data`
/// itself ([`over_input`]), the buffers from `scratch`; false, `data`
/// untouched, where it cannot ([`over_input::store_layer_over_input`]).
pub(crate) fn store_layer_over_input(
    layer: &Int8Tile,
    epilogue: &crate::expr::Requantization<'_>,
    data: &mut [i8],
    scratch: &mut crate::scratch::Scratch<'_>,
) -> bool {
    #[cfg(all(feature = "alloc", vnni_kernel))]
    {
        over_input::store_layer_over_input(layer, epilogue, data, scratch)
    }
    #[cfg(not(all(feature = "alloc", vnni_kernel)))]
    {
        let _ = (layer, epilogue, data, scratch);
        false
    }
}

/// A layer kernel's walk over the bands of a layer's output: into an
/// output of its own ([`Apart`]), or over the input ([`over_input::Bands`]).
#[cfg(all(feature = "alloc", vnni_kernel))]
trait BandWalk {
    /// Stores the layer over `layer`'s convolution by `store`, given each
    /// band (a convolution of its own), its input and its part of the
    /// output; the input padded with `padding`.
    fn store_bands(
        &mut self,
        layer: &Int8Tile,
        padding: i8,
        store: impl FnMut(&Int8Tile, &PaddedInput, &mut [core::mem::MaybeUninit<i8>]),
    );
}

/// A layer into an output of its own: [`PaddedInput::store_bands`].
#[cfg(all(feature = "alloc", vnni_kernel))]
struct Apart<'p, 'o>(PaddedInput<'p>, &'o mut [core::mem::MaybeUninit<i8>]);

#[cfg(all(feature = "alloc", vnni_kernel))]
impl BandWalk for Apart<'_, '_> {
    #[inline(always)]
    fn store_bands(
        &mut self,
        layer: &Int8Tile,
        padding: i8,
        store: impl FnMut(&Int8Tile, &PaddedInput, &mut [core::mem::MaybeUninit<i8>]),
    ) {
        self.0.store_bands(layer, padding, self.1, store);
    }
}

/// The kernel that stores a layer channels last ([`store_layer`]).
#[cfg(all(feature = "alloc", vnni_kernel))]
#[derive(Clone, Copy, Debug)]
enum LayerKernel {
    /// [`depthwise::store_layer`] (AVX-512 VNNI).
    Depthwise,
    /// [`vnni::store_layer`] (AVX-512 VNNI), a [`Form`].
    Vnni,
    /// [`pairs::store_layer`] (AVX2), a [`Form`].
    Pairs,
    /// [`depthwise::store_layer_avx2`] (AVX2).
    DepthwiseAvx2,
}

#[cfg(all(feature = "alloc", vnni_kernel))]
impl LayerKernel {
    /// The kernel that stores `layer` (channels last) at the selected
    /// level, if one does.
    fn of(layer: &Int8Tile) -> Option<LayerKernel> {
        if depthwise::runs(layer) {
            Some(LayerKernel::Depthwise)
        } else if vnni_runs(layer) {
            Some(LayerKernel::Vnni)
        } else if pairs::layer_runs(layer) {
            Some(LayerKernel::Pairs)
        } else if depthwise::runs_avx2(layer) {
            Some(LayerKernel::DepthwiseAvx2)
        } else {
            None
        }
    }

    /// Stores `layer` (channels last; it fits its inputs, `out` and the
    /// epilogue, [`store_layer`]) by this kernel, [`Self::of`] it, its
    /// buffers from `scratch` ([`Self::scratch_bytes`] of them). The
    /// weights are packed here, not in the tiles' shared cell (one call
    /// packs them; the cell's calls would be frames below it), and the
    /// epilogue's vectors built here, in a shallow frame, for the kernel to
    /// read. Inlined into [`store_layer`], its one caller outside the tests
    /// (channels first calls that too): a frame less above the kernels.
    /// `input` is the walk over the bands ([`BandWalk`]), its input's
    /// buffers made for this kernel's reads ([`Self::spare`]).
    #[inline(always)]
    fn store(
        self,
        layer: &Int8Tile,
        epilogue: &crate::expr::Requantization<'_>,
        mut input: impl BandWalk,
        scratch: &mut Scratch<'_>,
    ) {
        let g = layer.geometry;
        let (c_out, c) = (g.out_channels, layer.x_offset);
        let padding = zero_point(layer);
        match self {
            // SAFETY (each kernel): `Self::of` chose it where its `runs`
            // holds, only where the CPU has its features (AVX-512 F, BW and
            // VNNI; AVX2 for `Pairs` and `DepthwiseAvx2`: the selected
            // level is at most the CPU's); the weights and the input are
            // made for this geometry, and each band's output is its part
            // of `out`.
            LayerKernel::Depthwise => unsafe {
                let packed = depthwise::pack(layer, scratch);
                let steps = Steps::blocks(scratch, epilogue, packed.sums(), c, c_out);
                input.store_bands(layer, padding, |band, input, out| {
                    depthwise::store_layer(band, &packed, input, &steps, out)
                });
            },
            // `vpdpbusd` reads each byte as `x + 128`: the correction is
            // `c - 128` times the weight sums.
            LayerKernel::Vnni => unsafe {
                let packed = vnni::pack(layer, scratch);
                let factor = c.wrapping_sub(128);
                let steps = Steps::blocks(scratch, epilogue, &packed.sums, factor, c_out);
                input.store_bands(layer, padding, |band, input, out| {
                    vnni::store_layer(band, &packed, input, &steps, out)
                });
            },
            LayerKernel::Pairs => unsafe {
                let packed = pairs::pack(layer, scratch);
                let steps = Steps8::blocks(scratch, epilogue, packed.sums(), c, c_out);
                input.store_bands(layer, padding, |band, input, out| {
                    pairs::store_layer(band, &packed, input, &steps, out)
                });
            },
            LayerKernel::DepthwiseAvx2 => unsafe {
                let packed = depthwise::pack(layer, scratch);
                let steps = Steps8::blocks(scratch, epilogue, packed.sums(), c, c_out);
                input.store_bands(layer, padding, |band, input, out| {
                    depthwise::store_layer_avx2(band, &packed, input, &steps, out)
                });
            },
        }
    }

    /// The values this kernel's reads of the input of `g` reach past a
    /// window's last one.
    const fn spare(self, g: &Geometry) -> usize {
        match self {
            LayerKernel::Depthwise | LayerKernel::DepthwiseAvx2 => depthwise::spare(g),
            LayerKernel::Vnni => vnni::spare(g),
            LayerKernel::Pairs => pairs::spare(g),
        }
    }

    /// The scratch [`Self::store`] takes for a layer over `g` (channels
    /// last), written apart or over its input (`over_input`: a band's
    /// copy and a halo of rows, [`over_input::Bands`]): its buffers'
    /// [`scratch_len`]s, as the packing makes them.
    const fn scratch_bytes(self, g: &Geometry, over_input: bool) -> usize {
        let blocks = g.out_channels.div_ceil(CHANNEL_BLOCK);
        let taps = g.kernel[0] * g.kernel[1];
        let steps = blocks * size_of::<Steps>();
        let steps8 = g.out_channels.div_ceil(CHANNEL_BLOCK / 2) * size_of::<Steps8>();
        let sums = scratch_len(blocks * CHANNEL_BLOCK * size_of::<i32>());
        let input = if over_input {
            over_input::band_copy_bytes(g, self.spare(g)) + over_input::halo_bytes(g)
        } else {
            layer_input_bytes(g, self.spare(g))
        };
        let depthwise =
            scratch_len(blocks * taps * CHANNEL_BLOCK * size_of::<u16>()) + sums + input;
        match self {
            LayerKernel::Depthwise => depthwise + scratch_len(steps),
            LayerKernel::DepthwiseAvx2 => depthwise + scratch_len(steps8),
            LayerKernel::Vnni => {
                scratch_len(blocks * windows::block_len(g, 4)) + sums + input + scratch_len(steps)
            }
            LayerKernel::Pairs => {
                scratch_len(blocks * windows::block_len(g, 2)) + sums + input + scratch_len(steps8)
            }
        }
    }
}

/// The scratch the layer kernels take for a layer over a convolution of
/// `g`, in either layout: the most of those that may store it
/// ([`LayerKernel`]; which one runs is known at run time), channels first
/// plus its copies ([`channels_first`]). 0 where no layer kernel takes it
/// (or none exists in this build).
pub(crate) const fn layer_scratch_bytes(g: &Geometry) -> usize {
    #[cfg(all(feature = "alloc", vnni_kernel))]
    {
        let last = channels_last(g);
        let kernels = if form(&last).is_some() {
            max(
                LayerKernel::Vnni.scratch_bytes(&last, false),
                LayerKernel::Pairs.scratch_bytes(&last, false),
            )
        } else if is_depthwise(&last) {
            max(
                LayerKernel::Depthwise.scratch_bytes(&last, false),
                LayerKernel::DepthwiseAvx2.scratch_bytes(&last, false),
            )
        } else {
            return 0;
        };
        if g.channels_last {
            kernels
        } else {
            kernels + channels_first::scratch_bytes(g)
        }
    }
    #[cfg(not(all(feature = "alloc", vnni_kernel)))]
    {
        let _ = g;
        0
    }
}

/// The larger of `a` and `b`, in a `const fn`.
#[cfg(all(feature = "alloc", vnni_kernel))]
const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// The `R` output positions of `g` from `start` (counted across the
/// batch, rows and columns of the output), each of channel `channel`: the
/// first by division, the others stepped along the rows.
#[cfg(all(feature = "alloc", vnni_kernel))]
#[inline(always)]
fn positions_from<const R: usize>(g: &Geometry, start: usize, channel: usize) -> [Position; R] {
    let [oh_len, ow_len] = g.output;
    let (n, at) = (start / (oh_len * ow_len), start % (oh_len * ow_len));
    let mut next = Position {
        n,
        channel,
        oh: at / ow_len,
        ow: at % ow_len,
    };
    // Without branches: where a row ends varies from tile to tile.
    core::array::from_fn(|_| {
        let position = next;
        let row_ends = next.ow + 1 == ow_len;
        next.ow = if row_ends { 0 } else { next.ow + 1 };
        next.oh += usize::from(row_ends);
        let image_ends = next.oh == oh_len;
        next.oh = if image_ends { 0 } else { next.oh };
        next.n += usize::from(image_ends);
        position
    })
}

/// Stops the walk where [`block`] declined a tile of it, which the walk's
/// tiles never give it: out of line, so that an expression holds one call
/// here and not the general convolution path.
#[cold]
#[inline(never)]
pub(crate) fn tile_declined() -> ! {
    panic!("an int8 convolution's tile that its kernels cannot sum")
}

/// The `c_in` input bytes tap `(kh, kw)` of position `p` reads (from
/// channel 0), or `None` in the padding (or past `x`, which a tile that
/// fits its convolution never reads).
#[cfg(feature = "alloc")]
#[inline(always)]
fn tap_pixel<'x>(
    x: &'x [i8],
    g: &Geometry,
    p: &Position,
    kh: usize,
    kw: usize,
) -> Option<&'x [i8]> {
    let (ih, iw) = (input_at(p.oh, kh, 0, g)?, input_at(p.ow, kw, 1, g)?);
    let start = ((p.n * g.input[0] + ih) * g.input[1] + iw) * g.in_channels;
    x.get(start..start + g.in_channels)
}

/// Calls `sum` for the tile's whole blocks of 16 channels, one or two at a
/// time (`aligned`: the tile's positions at the first block's first
/// channel, and how many of its channels to write; `blocks`: 1 or 2). A
/// tile that starts at a block's first channel and spans at most two
/// blocks (every tile of a convolution of up to 32 channels, and the
/// wider ones' but a last narrow one) is summed into `out` directly.
#[cfg(feature = "alloc")]
#[inline(always)]
fn by_blocks(tile: &Int8Tile, out: &mut SumsOut, sum: impl Fn(&Int8Tile, usize, &mut SumsOut)) {
    let lane = tile.positions[0].channel % CHANNEL_BLOCK;
    let blocks = (lane + tile.channels).div_ceil(CHANNEL_BLOCK);
    if lane == 0 && blocks <= 2 {
        sum(tile, blocks, out);
    } else {
        by_blocks_aside(tile, out, sum);
    }
}

/// [`by_blocks`] for a tile that starts inside a block or spans more than
/// two: each one or two blocks summed aside, whole, and the tile's
/// columns copied. Out of line, so that its buffer is on the stack only
/// while it runs.
#[cfg(feature = "alloc")]
#[cold]
#[inline(never)]
fn by_blocks_aside(
    tile: &Int8Tile,
    out: &mut SumsOut,
    sum: impl Fn(&Int8Tile, usize, &mut SumsOut),
) {
    let channel = tile.positions[0].channel;
    let (lane, first_block) = (channel % CHANNEL_BLOCK, channel / CHANNEL_BLOCK);
    let blocks = (lane + tile.channels).div_ceil(CHANNEL_BLOCK);
    let mut positions = [Position::ORIGIN; TILE_ROWS];
    for (aligned, p) in positions.iter_mut().zip(tile.positions) {
        *aligned = *p;
    }
    let rows = tile.positions.len();
    let mut done = 0;
    let mut block = first_block;
    while done < tile.channels {
        let count = (blocks - (block - first_block)).min(2);
        let start = block * CHANNEL_BLOCK;
        for p in &mut positions {
            p.channel = start;
        }
        let aligned = Int8Tile {
            positions: &positions[..rows],
            channels: (count * CHANNEL_BLOCK).min(tile.geometry.out_channels - start),
            ..*tile
        };
        let mut sums = [[0; TILE_CHANNELS]; TILE_ROWS];
        let mut aside = SumsOut {
            data: sums.as_flattened_mut(),
            stride: TILE_CHANNELS,
        };
        sum(&aligned, count, &mut aside);
        // Columns `channel + done ..` of the tile are columns
        // `channel + done - start ..` of these sums.
        let from = channel + done - start;
        let len = (aligned.channels - from).min(tile.channels - done);
        for (r, sums) in sums.iter().enumerate().take(rows) {
            out.row(r, done, len)
                .copy_from_slice(&sums[from..from + len]);
        }
        done += len;
        block += count;
    }
}

#[cfg(all(feature = "alloc", vnni_kernel))]
mod vnni {
    use super::requantize::Steps;
    use super::windows::Groups;
    use super::{form, Form, Int8Tile, PaddedInput, Scratch, SumsOut, VnniWeights, CHANNEL_BLOCK};
    use crate::rules::conv::Geometry;
    use core::arch::x86_64::*;
    use core::mem::MaybeUninit;

    /// The values past the padded input's last pixel: a row's last
    /// broadcast of four bytes reaches at most three past it.
    pub(super) const SPARE: usize = 3;

    /// The values a window's reads of `g` reach past its last one: a row
    /// rounded up to four bytes (none in the pixels form).
    pub(super) const fn spare(g: &Geometry) -> usize {
        if (g.kernel[1] * g.in_channels).is_multiple_of(4) {
            0
        } else {
            SPARE
        }
    }

    /// [`super::block`] with AVX-512 VNNI: the tile's channels (at most
    /// `blocks`, 1 or 2, blocks of 16 from its first, a multiple of 16),
    /// for a tile that fits its convolution and `out`, and the weights
    /// packed for its geometry.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    pub(super) fn block(
        tile: &Int8Tile,
        blocks: usize,
        packed: &VnniWeights,
        input: &PaddedInput,
        out: &mut SumsOut,
    ) {
        macro_rules! by_size {
            ($kernel:ident) => {
                match (tile.positions.len(), blocks) {
                    (8, 2) => $kernel::<8, 2>(tile, packed, input, out),
                    (4, 2) => $kernel::<4, 2>(tile, packed, input, out),
                    (2, 2) => $kernel::<2, 2>(tile, packed, input, out),
                    (1, 2) => $kernel::<1, 2>(tile, packed, input, out),
                    (8, _) => $kernel::<8, 1>(tile, packed, input, out),
                    (4, _) => $kernel::<4, 1>(tile, packed, input, out),
                    (2, _) => $kernel::<2, 1>(tile, packed, input, out),
                    (1, _) => $kernel::<1, 1>(tile, packed, input, out),
                    // Other counts, a position at a time.
                    (_, blocks) => {
                        for (r, p) in tile.positions.iter().enumerate() {
                            let one = Int8Tile {
                                positions: core::slice::from_ref(p),
                                ..*tile
                            };
                            let mut row = SumsOut {
                                data: &mut out.data[r * out.stride..],
                                stride: out.stride,
                            };
                            block(&one, blocks, packed, input, &mut row);
                        }
                    }
                }
            };
        }
        match form(tile.geometry) {
            Some(Form::Pixels | Form::Rows) => by_size!(windows),
            None => unreachable!("VNNI weights exist only for a form"),
        }
    }

    /// The VNNI kernel's arithmetic: four bytes of the input broadcast,
    /// each plus 128 (its sign bit flipped: the unsigned byte `vpdpbusd`
    /// takes on the left), by `vpdpbusd`, on one vector of 16 sums.
    #[derive(Clone, Copy)]
    struct Quads(__m512i);

    impl Groups for Quads {
        type Weight = i8;
        const GROUP: usize = 4;
        #[inline(always)]
        unsafe fn zero() -> Self {
            Quads(_mm512_setzero_si512())
        }
        #[inline(always)]
        unsafe fn broadcast(p: *const i8) -> Self {
            // SAFETY: the caller's: four readable bytes; the CPU has AVX-512 F.
            Quads(unsafe { broadcast_flipped(p) })
        }
        #[inline(always)]
        unsafe fn load_weights(p: *const i8) -> Self {
            // SAFETY: the caller's; the load is unaligned.
            Quads(unsafe { _mm512_loadu_si512(p.cast()) })
        }
        #[inline(always)]
        unsafe fn multiply_add(acc: Self, x: Self, w: Self) -> Self {
            Quads(_mm512_dpbusd_epi32(acc.0, x.0, w.0))
        }
    }

    /// The four bytes at `p` in every lane, each plus 128 (the sign bits
    /// flipped): one `vpxord` with a broadcast from memory, written out,
    /// as LLVM makes `xor(broadcast(a), broadcast(b))` a `vpxor` of `a` and
    /// `b` and a `vpbroadcastd`, a vector operation more a broadcast.
    ///
    /// # Safety
    /// Four readable bytes at `p`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn broadcast_flipped(p: *const i8) -> __m512i {
        let signs = _mm512_set1_epi32(0x8080_8080_u32 as i32);
        let quads: __m512i;
        // SAFETY: the caller's: the instruction reads the four bytes at
        // `p` and nothing else.
        unsafe {
            core::arch::asm!(
                "vpxord {quads}, {signs}, dword ptr [{p}]{{1to16}}",
                quads = lateout(zmm_reg) quads,
                signs = in(zmm_reg) signs,
                p = in(reg) p,
                options(pure, readonly, nostack, preserves_flags),
            );
        }
        quads
    }

    /// The sums of `R` positions by `16 V` channels from the padded input
    /// ([`super::windows::sums`]), corrected for the bytes' 128 and
    /// written into `out`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn windows<const R: usize, const V: usize>(
        tile: &Int8Tile,
        packed: &VnniWeights,
        input: &PaddedInput,
        out: &mut SumsOut,
    ) {
        // SAFETY: the CPU has the features; the tile fits (`super::block`)
        // and `packed` and `input` were made for its evaluation.
        let sums = unsafe {
            super::windows::sums::<Quads, R, V>(tile, input, &packed.bytes, 0, [Quads::zero(); V])
        };
        store_corrected(&sums, tile, packed, tile.x_offset.wrapping_sub(128), out);
    }

    /// Writes the sums plus `factor` (`c - 128`: `vpdpbusd` read each input
    /// byte as `x + 128`) times each channel's weight sum into `out`: the
    /// tile's channels of each position, the last 16 masked.
    #[inline(always)]
    fn store_corrected<const R: usize, const V: usize>(
        sums: &[[Quads; V]; R],
        tile: &Int8Tile,
        packed: &VnniWeights,
        factor: i32,
        out: &mut SumsOut,
    ) {
        // SAFETY (every block): the kernels that inline this have AVX-512 F.
        let factor = unsafe { _mm512_set1_epi32(factor) };
        let mut corrections = [factor; V];
        for (v, correction) in corrections.iter_mut().enumerate() {
            let channel = tile.positions[0].channel + CHANNEL_BLOCK * v;
            let weight_sums = unsafe { load_16_i32(&packed.sums[channel..channel + 16]) };
            *correction = unsafe { _mm512_mullo_epi32(weight_sums, factor) };
        }
        let channels = tile.channels;
        for (r, sums) in sums.iter().enumerate() {
            let row = out.row(r, 0, channels);
            for (v, (&sum, &correction)) in sums.iter().zip(&corrections).enumerate() {
                let sum = unsafe { _mm512_add_epi32(sum.0, correction) };
                if let Some(whole) = row.get_mut(CHANNEL_BLOCK * v..CHANNEL_BLOCK * (v + 1)) {
                    // SAFETY: `whole` is 16 writable `i32`s; the store is
                    // unaligned.
                    unsafe { _mm512_storeu_si512(whole.as_mut_ptr().cast(), sum) };
                } else if let Some(part) = row.get_mut(CHANNEL_BLOCK * v..) {
                    let mask: __mmask16 = (1 << part.len()) - 1;
                    // SAFETY: the mask's lanes are `part`'s writable `i32`s
                    // (fewer than 16); masked lanes touch no memory; the
                    // store is unaligned.
                    unsafe { _mm512_mask_storeu_epi32(part.as_mut_ptr().cast(), mask, sum) };
                }
            }
        }
    }

    /// [`super::store_layer`] by the VNNI kernel: tiles of 8 positions (the
    /// last one ending at the last position, its positions before the ones
    /// not yet stored computed again; one at a time where there are fewer
    /// than 8), each tile's windows found once and its blocks of 16
    /// channels summed two at a time (the last one alone where the blocks
    /// are odd), through the epilogue (its vectors `steps`, a block's each,
    /// [`Steps::blocks`]) and stored as bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    pub(super) fn store_layer(
        layer: &Int8Tile,
        packed: &VnniWeights,
        input: &PaddedInput,
        steps: &[Steps],
        out: &mut [MaybeUninit<i8>],
    ) {
        let g = layer.geometry;
        let total = g.batch * g.output[0] * g.output[1];
        // Each layer kernel writes this walk out: one helper taking the
        // tile as a closure, inlined, measured 5-8% slower in all of them.
        let mut done = 0;
        if total >= TILE {
            while done < total {
                let start = done.min(total - TILE);
                layer_tile::<TILE>(layer, packed, input, steps, out, start, done - start);
                done = start + TILE;
            }
            return;
        }
        // Fewer than 8 positions: one at a time (each tile height is code
        // of its own, and such layers are small).
        while done < total {
            layer_tile::<1>(layer, packed, input, steps, out, done, 0);
            done += 1;
        }
    }

    /// The positions of a tile of [`store_layer`]: 8, or 2 in a runtime
    /// optimised for size (`cfg(size_profile)`), whose code spills a tile
    /// of 8 positions' sums beside the epilogue's vectors.
    const TILE: usize = if cfg!(size_profile) { 2 } else { 8 };

    /// The `R` positions from `start` (counted across the batch, rows and
    /// columns of the output) by every block of 16 channels, two at a time
    /// ([`layer_blocks`]) over windows found once; the first `skip` of
    /// them not stored (a last tile's, already stored). Inlined into
    /// [`store_layer`]: a frame of its own beside the walk's deepened a
    /// program's stack.
    #[inline(always)]
    fn layer_tile<const R: usize>(
        layer: &Int8Tile,
        packed: &VnniWeights,
        input: &PaddedInput,
        steps: &[Steps],
        out: &mut [MaybeUninit<i8>],
        start: usize,
        skip: usize,
    ) {
        let positions = super::positions_from::<R>(layer.geometry, start, 0);
        let tile = Int8Tile {
            positions: &positions,
            ..*layer
        };
        let windows = super::windows::windows::<R>(&tile, input, 0, Quads::GROUP);
        let blocks = steps.len();
        let mut block = 0;
        while block < blocks {
            if blocks - block >= 2 {
                let steps = (&steps[block..block + 2])
                    .try_into()
                    .unwrap_or_else(|_| unreachable!());
                layer_blocks::<R, 2>(&windows, layer, packed, input, steps, out, start, skip);
                block += 2;
            } else {
                let steps = (&steps[block..block + 1])
                    .try_into()
                    .unwrap_or_else(|_| unreachable!());
                layer_blocks::<R, 1>(&windows, layer, packed, input, steps, out, start, skip);
                block += 1;
            }
        }
    }

    /// The `R` positions of `windows` from `start` by the `V` blocks of 16
    /// channels of `steps`: summed, through `steps`, stored as bytes; the
    /// first `skip` of them not stored.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn layer_blocks<const R: usize, const V: usize>(
        windows: &[*const i8; R],
        layer: &Int8Tile,
        packed: &VnniWeights,
        input: &PaddedInput,
        steps: &[Steps; V],
        out: &mut [MaybeUninit<i8>],
        start: usize,
        skip: usize,
    ) {
        let g = layer.geometry;
        // Each block's sums start at its steps' first value.
        // SAFETY: the CPU has AVX-512 F (the caller's features).
        let initial = core::array::from_fn(|v| Quads(unsafe { steps[v].first() }));
        // SAFETY: the CPU has the features; the windows are the tile's, its
        // blocks the convolution's, and `packed` and `input` were made for
        // its geometry.
        let sums = unsafe {
            super::windows::sums_at::<Quads, R, V>(
                windows,
                g,
                input,
                &packed.bytes,
                steps[0].channel / CHANNEL_BLOCK,
                initial,
            )
        };
        let c_out = g.out_channels;
        // One block's steps stay in registers across the tile's rows; two
        // blocks' do not fit beside their sums, so each row reads them
        // from where they are (`Steps::blocks`).
        let tile_steps = core::hint::black_box(steps);
        each_row!(R, r => {
            if r >= skip {
                let row = &mut out[(start + r) * c_out..][..c_out];
                let steps = if V == 1 { tile_steps } else { core::hint::black_box(steps) };
                // Blocks by constant index, as the sums were made
                // (`windows::sums`): a loop here, kept where optimised
                // for size, would keep the whole tile in memory.
                each_row!(V, v => {
                    // SAFETY: the CPU has AVX-512 F and BW (the caller's
                    // features).
                    unsafe { steps[v].store(row, steps[v].apply(sums[r][v].0)) };
                });
            }
        });
    }

    /// Copies the tile's convolution's weights into the kernel's layout
    /// (the module's header) and sums each channel's.
    ///
    /// # Panics
    /// If `w` is shorter than the geometry's.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    pub(super) fn pack<'s>(tile: &Int8Tile, scratch: &mut Scratch<'s>) -> VnniWeights<'s> {
        let (w, g) = (tile.w, tile.geometry);
        let c_out = g.out_channels;
        let per_channel = g.kernel[0] * g.kernel[1] * g.in_channels;
        assert!(
            w.len() >= c_out * per_channel,
            "int8 weights shorter than their geometry"
        );
        let blocks = c_out.div_ceil(CHANNEL_BLOCK);
        let mut sums = scratch.filled(blocks * CHANNEL_BLOCK, 0i32);
        for (sum, weights) in sums.iter_mut().zip(w.chunks_exact(per_channel)) {
            *sum = weights.iter().map(|&b| i32::from(b)).sum();
        }
        let (rows, row_len) = (g.kernel[0], g.kernel[1] * g.in_channels);
        let mut bytes = scratch.filled(blocks * super::windows::block_len(g, 4), 0i8);
        // SAFETY: the CPU has this function's features.
        unsafe { pack_quads_apart(w, c_out, rows, row_len, &mut bytes) };
        VnniWeights { bytes, sums }
    }

    /// The pixels' and rows' layout of `w` (`c_out` channels of `rows`
    /// rows of `row_len` bytes): for each block of 16 channels, each row
    /// and each quad of the row's bytes (rounded up), the four bytes of
    /// each of the 16 channels (channel `block * 16 + lane`'s), one 16-lane
    /// gather a whole quad; bytes past a row's and lanes past `c_out` zero
    /// (`bytes` holds zeros, as many as that layout's).
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn pack_quads(w: &[i8], c_out: usize, rows: usize, row_len: usize, bytes: &mut [i8]) {
        let per_channel = rows * row_len;
        let (whole, quads) = (row_len / 4, row_len.div_ceil(4));
        let block_len = CHANNEL_BLOCK * rows * quads * 4;
        // Lane `l` reads channel `l` of the block: `per_channel` bytes on.
        let lanes: [i32; CHANNEL_BLOCK] = core::array::from_fn(|l| (l * per_channel) as i32);
        let offsets = load_16_i32(&lanes);
        for (block, out) in bytes.chunks_exact_mut(block_len).enumerate() {
            let valid = (c_out - block * CHANNEL_BLOCK).min(CHANNEL_BLOCK);
            let mask: __mmask16 = if valid == CHANNEL_BLOCK {
                !0
            } else {
                (1 << valid) - 1
            };
            let first = block * CHANNEL_BLOCK * per_channel;
            if !cfg!(size_profile) && valid == CHANNEL_BLOCK && row_len.is_multiple_of(64) {
                // Whole blocks of 16 quads: one 16 x 16 transpose of the
                // channels' 64-byte runs each, where 16 gathers would wait
                // on memory.
                for row in 0..rows {
                    for group in 0..row_len / 64 {
                        let at = first + row * row_len + 64 * group;
                        let runs: [__m512i; CHANNEL_BLOCK] =
                            core::array::from_fn(|l| load_64(w, at + l * per_channel));
                        let quads = transpose_16(runs);
                        let chunk = (row * (row_len / 4) + 16 * group) * 64;
                        for (k, quad) in quads.into_iter().enumerate() {
                            let lane_bytes: &mut [i8; 64] = (&mut out[chunk + 64 * k..][..64])
                                .try_into()
                                .unwrap_or_else(|_| unreachable!());
                            // SAFETY: 64 writable bytes; the store is unaligned.
                            unsafe { _mm512_storeu_si512(lane_bytes.as_mut_ptr().cast(), quad) };
                        }
                    }
                }
                continue;
            }
            for (at, lane_bytes) in out.chunks_exact_mut(64).enumerate() {
                let (row, quad) = (at / quads, at % quads);
                let offset = first + row * row_len + 4 * quad;
                if quad < whole {
                    // SAFETY: a lane `l` below `valid` reads 4 bytes at
                    // `offset + l * per_channel`, inside row `row` of
                    // channel `block * 16 + l < c_out` of `w` (asserted
                    // long enough); masked lanes read nothing. The store
                    // writes the 64 bytes of `lane_bytes`, unaligned.
                    unsafe {
                        let four = _mm512_mask_i32gather_epi32::<1>(
                            _mm512_setzero_si512(),
                            mask,
                            offsets,
                            w.as_ptr().add(offset).cast(),
                        );
                        _mm512_storeu_si512(lane_bytes.as_mut_ptr().cast(), four);
                    }
                } else {
                    // The row's last, partial quad.
                    let len = row_len - 4 * quad;
                    for (l, four) in lane_bytes.chunks_exact_mut(4).enumerate().take(valid) {
                        four[..len].copy_from_slice(&w[offset + l * per_channel..][..len]);
                    }
                }
            }
        }
    }

    /// [`pack_quads`] in a frame of its own, given its buffer, so that the
    /// allocations' calls are not made below its frame (the deepest stack
    /// a layer takes). A function of no target features: rustc drops
    /// `#[inline(never)]` from one with them, and LLVM inlines no function
    /// into one of fewer features.
    ///
    /// # Safety
    /// The CPU has AVX-512 F, BW and VNNI.
    #[inline(never)]
    unsafe fn pack_quads_apart(
        w: &[i8],
        c_out: usize,
        rows: usize,
        row_len: usize,
        bytes: &mut [i8],
    ) {
        // SAFETY: the caller's.
        unsafe { pack_quads(w, c_out, rows, row_len, bytes) }
    }

    /// The 16 x 16 transpose of `rows`' 32-bit lanes: lane `l` of result
    /// `k` is lane `k` of row `l`. Pairs of rows interleave by 32 bits, then
    /// by 64 (lane `4L + k` of rows `4g..4g + 4` in 128-bit lane `L` of
    /// `u[4g + k]`), then 128-bit lanes are gathered across the four groups.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn transpose_16(rows: [__m512i; 16]) -> [__m512i; 16] {
        let t: [__m512i; 16] = core::array::from_fn(|i| {
            let (a, b) = (rows[i & !1], rows[i | 1]);
            if i % 2 == 0 {
                _mm512_unpacklo_epi32(a, b)
            } else {
                _mm512_unpackhi_epi32(a, b)
            }
        });
        // u[4g + k], k = 0..4: from t[4g], t[4g + 2] (k = 0, 1) and t[4g + 1],
        // t[4g + 3] (k = 2, 3).
        let u: [__m512i; 16] = core::array::from_fn(|i| {
            let (g, k) = (i / 4, i % 4);
            let (a, b) = (t[4 * g + k / 2], t[4 * g + k / 2 + 2]);
            if k % 2 == 0 {
                _mm512_unpacklo_epi64(a, b)
            } else {
                _mm512_unpackhi_epi64(a, b)
            }
        });
        let mut out = [_mm512_setzero_si512(); 16];
        for k in 0..4 {
            let (v0, v1, v2, v3) = (u[k], u[4 + k], u[8 + k], u[12 + k]);
            let low01 = _mm512_shuffle_i32x4::<0x44>(v0, v1);
            let high01 = _mm512_shuffle_i32x4::<0xEE>(v0, v1);
            let low23 = _mm512_shuffle_i32x4::<0x44>(v2, v3);
            let high23 = _mm512_shuffle_i32x4::<0xEE>(v2, v3);
            out[k] = _mm512_shuffle_i32x4::<0x88>(low01, low23);
            out[4 + k] = _mm512_shuffle_i32x4::<0xDD>(low01, low23);
            out[8 + k] = _mm512_shuffle_i32x4::<0x88>(high01, high23);
            out[12 + k] = _mm512_shuffle_i32x4::<0xDD>(high01, high23);
        }
        out
    }

    /// The 64 bytes of `bytes` from `at`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn load_64(bytes: &[i8], at: usize) -> __m512i {
        let bytes: &[i8; 64] = bytes[at..at + 64]
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: 64 readable bytes; the load is unaligned.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
    }

    /// The first 16 `i32`s of `values`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn load_16_i32(values: &[i32]) -> __m512i {
        let values: &[i32; 16] = values[..16].try_into().unwrap_or_else(|_| unreachable!());
        // SAFETY: 16 readable `i32`s; the load is unaligned.
        unsafe { _mm512_loadu_si512(values.as_ptr().cast()) }
    }
}

#[cfg(all(test, feature = "alloc", vnni_kernel))]
mod tests {
    use super::*;
    use crate::expr::{PerChannel, Requantization};
    use crate::isa::{selected, Level};
    use core::mem::MaybeUninit;

    /// A geometry of one image channels last.
    fn geometry(
        [c_in, c_out, groups]: [usize; 3],
        input: [usize; 2],
        kernel: [usize; 2],
        stride: usize,
        pad: usize,
    ) -> Geometry {
        let output = [0, 1].map(|a| (input[a] + 2 * pad - kernel[a]) / stride + 1);
        Geometry {
            spatial: 2,
            batched: true,
            batch: 1,
            in_channels: c_in,
            out_channels: c_out,
            groups,
            channels_last: true,
            input,
            kernel,
            output,
            stride: [stride; 2],
            dilation: [1; 2],
            pad: [pad; 2],
        }
    }

    /// [`copy_rows`] writes each row of a band as the padded input holds it
    /// (the padding's rows and columns, the image's values), for bands from
    /// wholly above the image to wholly below it, of layers with and
    /// without padding columns (the run of whole rows), in the last image
    /// too, whether the padding columns hold the padding already or not.
    #[test]
    fn copy_rows_writes_each_row_of_a_band_as_padded() {
        let (h, w, c, batch, padding) = (4, 5, 3, 2, -9i8);
        let x: Vec<i8> = (0..batch * h * w * c).map(|v| v as i8).collect();
        for (kernel, pad) in [
            ([1, 1], [0, 0]),
            ([1, 1], [5, 0]),
            ([3, 3], [1, 1]),
            ([3, 1], [2, 0]),
        ] {
            let g = Geometry {
                batch,
                pad,
                output: [0, 1].map(|a| [h, w][a] + 2 * pad[a] - kernel[a] + 1),
                ..geometry([c, c, 1], [h, w], kernel, 1, 0)
            };
            let (all_rows, columns) = PaddedInput::extent(&g);
            for (n, first) in (0..batch).flat_map(|n| (0..all_rows).map(move |f| (n, f))) {
                for rows in 1..=all_rows - first {
                    for columns_padded in [false, true] {
                        // Garbage where nothing was written yet; the padding
                        // where `columns_padded` says it is.
                        let mut to = alloc::vec![if columns_padded { padding } else { 77 }; rows * columns * c];
                        copy_rows(
                            &x,
                            &g,
                            n,
                            first,
                            rows,
                            columns,
                            padding,
                            columns_padded,
                            &mut to,
                        );
                        for (at, &got) in to.iter().enumerate() {
                            let (r, col, ch) = (at / (columns * c), at / c % columns, at % c);
                            let (ih, iw) =
                                ((first + r).checked_sub(pad[0]), col.checked_sub(pad[1]));
                            let expected = match (ih, iw) {
                                (Some(ih), Some(iw)) if ih < h && iw < w => {
                                    x[((n * h + ih) * w + iw) * c + ch]
                                }
                                _ => padding,
                            };
                            assert_eq!(
                                got, expected,
                                "{kernel:?} pad {pad:?} image {n} rows {first}..+{rows} at {at}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// A layer's bands of output rows ([`band_rows`]): whole tiles of 8
    /// positions where the rows allow it, the input of all but the least
    /// band within
    /// [`BAND_BYTES`]; `tests/quantized.rs` counts on 5 and 4 rows for its
    /// banded layers.
    #[test]
    fn bands_hold_whole_tiles_and_fit_their_bytes() {
        let banded = geometry([32, 16, 1], [40, 16], [3, 3], 1, 1);
        assert_eq!(band_rows(&banded), 5);
        let strided = geometry([32, 16, 1], [64, 16], [3, 3], 2, 0);
        let strided = Geometry {
            output: [32, 8],
            ..strided
        };
        assert_eq!(band_rows(&strided), 4);
        for (oh, ow, c, stride) in [
            (25, 5, 64, 1),
            (40, 16, 32, 1),
            (31, 3, 8, 2),
            (96, 96, 8, 1),
        ] {
            for rows in [oh, 1, 2, 7] {
                let input = [(rows.max(1) - 1) * stride + 1, (ow - 1) * stride + 1];
                let g = Geometry {
                    output: [rows, ow],
                    ..geometry([c, c, 1], [input[0] + 2, input[1] + 2], [3, 3], stride, 1)
                };
                let band = band_rows(&g);
                let row_bytes = PaddedInput::extent(&g).1 * c;
                assert!(band >= 1 && band <= rows, "{g:?}");
                if band < rows {
                    assert!((band * ow).is_multiple_of(TILE_ROWS) && band * ow >= 32);
                }
                if ow == 96 && rows == oh {
                    // More rows than the least (1) while they fit.
                    assert!(band > 1 && band_input_rows(&g, band) * row_bytes <= BAND_BYTES);
                    assert!(band_input_rows(&g, band + 1) * row_bytes > BAND_BYTES);
                }
            }
        }
        // The keyword spotter's depthwise layers: bands of 8 rows (the last
        // of one row, 5 positions).
        let kws = geometry([64, 64, 64], [25, 5], [3, 3], 1, 1);
        assert_eq!(band_rows(&kws), 8);
    }

    /// Each layer kernel the CPU runs takes from the scratch it is lent
    /// exactly the bytes `scratch_bytes` counts for it: none from the heap,
    /// none left over (the plan reserves what `layer_scratch_bytes` says,
    /// the most of them). The pixels form, the rows form and a depthwise
    /// layer, channel counts that leave a partial block.
    #[test]
    fn each_layer_kernel_takes_exactly_the_scratch_it_counts() {
        let layers = [
            geometry([16, 24, 1], [5, 7], [1, 1], 1, 0),
            geometry([8, 40, 1], [9, 6], [3, 3], 2, 1),
            geometry([1, 16, 1], [13, 10], [5, 4], 2, 2),
            geometry([24, 24, 24], [7, 6], [3, 3], 1, 1),
            geometry([32, 16, 1], [40, 16], [3, 3], 1, 1),
            geometry([32, 32, 32], [60, 20], [3, 3], 2, 1),
            // 1x1 layers keeping the channels (written over their inputs
            // too), one with a partial block.
            geometry([64, 64, 1], [25, 5], [1, 1], 1, 0),
            geometry([24, 24, 1], [7, 6], [1, 1], 1, 0),
        ];
        let mut kernels = Vec::new();
        if selected() >= Level::Avx512Vnni {
            kernels.extend([LayerKernel::Vnni, LayerKernel::Depthwise]);
        }
        if selected() >= Level::Avx2 {
            kernels.extend([LayerKernel::Pairs, LayerKernel::DepthwiseAvx2]);
        }
        let epilogue = Requantization {
            multiplier: PerChannel::All(1 << 30),
            shift: PerChannel::All(-6),
            ..Requantization::SUMS
        };
        for g in &layers {
            let depthwise = is_depthwise(g);
            let x = alloc::vec![3i8; g.batch * g.input[0] * g.input[1] * g.in_channels];
            let per_channel = g.kernel[0] * g.kernel[1] * g.in_channels / g.groups;
            let w = alloc::vec![-2i8; g.out_channels * per_channel];
            let packed = PackedWeights::default();
            let layer = Int8Tile {
                x: &x,
                w: &w,
                packed: &packed,
                x_offset: 7,
                w_offset: 0,
                geometry: g,
                positions: &[],
                channels: g.out_channels,
            };
            for kernel in kernels.iter().filter(|k| {
                depthwise == matches!(k, LayerKernel::Depthwise | LayerKernel::DepthwiseAvx2)
            }) {
                // Into an output of its own, and over the input where the
                // geometry allows it.
                for over_input in [false, true] {
                    if over_input && !over_input::writes_over_input(g) {
                        continue;
                    }
                    let bytes = kernel.scratch_bytes(g, over_input);
                    // An aligned start, as a program's arena gives.
                    let mut lent = alloc::vec![MaybeUninit::<u8>::uninit(); bytes + SCRATCH_ALIGN];
                    let skip = lent.as_ptr().align_offset(SCRATCH_ALIGN);
                    let mut scratch = Scratch::new(&mut lent[skip..][..bytes]);
                    let positions = g.batch * g.output[0] * g.output[1];
                    let mut out = alloc::vec![MaybeUninit::uninit(); positions * g.out_channels];
                    let mut data = x.clone();
                    if over_input {
                        let bands =
                            over_input::Bands::new(g, kernel.spare(g), &mut data, &mut scratch);
                        kernel.store(&layer, &epilogue, bands, &mut scratch);
                    } else {
                        let input = PaddedInput::for_layer(&x, g, kernel.spare(g), &mut scratch);
                        kernel.store(&layer, &epilogue, Apart(input, &mut out), &mut scratch);
                    }
                    let what = if over_input {
                        "over its input"
                    } else {
                        "apart"
                    };
                    assert!(
                        !scratch.used_heap(),
                        "{kernel:?} over {g:?} {what}: the heap"
                    );
                    assert_eq!(
                        scratch.unused(),
                        0,
                        "{kernel:?} over {g:?} {what}: bytes left"
                    );
                }
            }
        }
    }
}
