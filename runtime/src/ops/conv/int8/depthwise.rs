//! An int8 depthwise layer channels last (one input channel per output
//! channel, TFLite's `DEPTHWISE_CONV_2D` with a depth multiplier of 1)
//! stored whole with its epilogue (module [`crate::expr::layer`]) by a
//! kernel compiled once in the runtime: AVX-512 VNNI's, else AVX2's.
//!
//! Each output position reads one pixel of its input channel per tap, so
//! the channels are the vector: for each block of 16 channels, the taps'
//! weights widened to `i16` once per evaluation ([`DepthwiseWeights`]) and
//! to `i32` lanes as they are loaded (zero above the weight), and for each
//! tap of each position one load of the pixel's 16 bytes from the input
//! as the other kernels read it ([`PaddedInput`]: in place, or a padded
//! copy, so that no tap checks the padding), each byte sign-extended to a
//! lane,
//! multiplied and added by one `vpdpwssd` (each lane read as a pair of
//! `i16`: the byte times the weight, its sign times zero). With AVX2 (and
//! at AVX-512 without VNNI) each half of a block is 8 lanes, and the tap a
//! `vpmaddwd` and an add ([`store_layer_avx2`]).
//! Eight positions at a time (four with AVX2) keep as many sums in flight,
//! their windows found once for every block of channels; each sum starts
//! at the correction for the input's constant (which cancels the padding's
//! zero points) and the bias, and the epilogue is applied in registers
//! ([`Steps`], [`Steps8`]) and the bytes stored.

use super::requantize::{Steps, Steps8};
use super::{is_depthwise, Int8Tile, PaddedInput, CHANNEL_BLOCK};
use crate::rules::conv::Geometry;
use crate::scratch::{Buf, Scratch};
use core::arch::x86_64::*;
use core::marker::PhantomData;
use core::mem::MaybeUninit;

/// A depthwise convolution's weights in the kernel's layout, made once
/// per evaluation.
pub(super) struct DepthwiseWeights<'s> {
    /// For each block of 16 channels and each tap (row by row), the 16
    /// channels' weights (channels past `C` zero), as `u16`: each the low
    /// half of its lane once widened, zero above it.
    weights: Buf<'s, u16>,
    /// Each channel's weights summed (a multiple of 16 of them).
    sums: Buf<'s, i32>,
}

/// The values past the padded input's last pixel: a last block's load of
/// 16 bytes reaches past it.
pub(super) const SPARE: usize = CHANNEL_BLOCK;

/// The values a tap's load of a block reaches past the last pixel's
/// channels: none where the channels are whole blocks.
pub(super) const fn spare(g: &Geometry) -> usize {
    if g.in_channels.is_multiple_of(CHANNEL_BLOCK) {
        0
    } else {
        SPARE
    }
}

impl DepthwiseWeights<'_> {
    /// Each channel's weights summed (the epilogue's correction for the
    /// input's constant), a multiple of 16 of them.
    pub(super) fn sums(&self) -> &[i32] {
        &self.sums
    }
}

/// Whether the kernel stores `layer`'s convolution: depthwise, AVX-512
/// with VNNI selected (without `std`, the compile-time target's), the
/// weights with no constant added, and an input constant `c` whose
/// padding bytes `-c` are bytes.
pub(super) fn runs(layer: &Int8Tile) -> bool {
    is_depthwise(layer.geometry)
        && layer.w_offset == 0
        && (-127..=128).contains(&layer.x_offset)
        && crate::isa::selected() >= crate::isa::Level::Avx512Vnni
}

/// Whether the AVX2 kernel ([`store_layer_avx2`]) stores `layer`'s
/// convolution: as [`runs`], with AVX2 selected.
pub(super) fn runs_avx2(layer: &Int8Tile) -> bool {
    is_depthwise(layer.geometry)
        && layer.w_offset == 0
        && (-127..=128).contains(&layer.x_offset)
        && crate::isa::selected() >= crate::isa::Level::Avx2
}

/// The weights of `layer`'s convolution in the kernels' layout, and their
/// sums.
///
/// # Panics
/// If the weights are shorter than the geometry's.
#[target_feature(enable = "avx2")]
pub(super) fn pack<'s>(layer: &Int8Tile, scratch: &mut Scratch<'s>) -> DepthwiseWeights<'s> {
    let g = layer.geometry;
    let (channels, taps) = (g.out_channels, g.kernel[0] * g.kernel[1]);
    assert!(
        layer.w.len() >= channels * taps,
        "int8 weights shorter than their geometry"
    );
    let blocks = channels.div_ceil(CHANNEL_BLOCK);
    let mut weights = scratch.filled(blocks * taps * CHANNEL_BLOCK, 0u16);
    let mut sums = scratch.filled(blocks * CHANNEL_BLOCK, 0i32);
    let w = &layer.w[..channels * taps];
    for (block, (weights, sums)) in weights
        .chunks_exact_mut(taps * CHANNEL_BLOCK)
        .zip(sums.chunks_exact_mut(CHANNEL_BLOCK))
        .enumerate()
    {
        // Where the runtime is optimised for size, whose code keeps the
        // transpose's vectors in the frame, channel by channel.
        if taps <= CHANNEL_BLOCK && !cfg!(size_profile) {
            pack_block_by_transpose(w, taps, block * CHANNEL_BLOCK, weights, sums);
        } else {
            pack_block(w, taps, block * CHANNEL_BLOCK, weights, sums);
        }
    }
    DepthwiseWeights { weights, sums }
}

/// Packs the block of 16 channels from `first` of the weights `w` (each
/// channel's `taps` side by side) into `weights` (each tap's 16 lanes, as
/// [`DepthwiseWeights`] holds them) and their sums into `sums`, channel by
/// channel: where a kernel has more taps than one transpose takes.
fn pack_block(w: &[i8], taps: usize, first: usize, weights: &mut [u16], sums: &mut [i32]) {
    for ((lane, sum), channel_weights) in sums
        .iter_mut()
        .enumerate()
        .zip(w[first * taps..].chunks_exact(taps))
    {
        *sum = channel_weights
            .iter()
            .map(|&weight| i32::from(weight))
            .sum();
        for (row, &weight) in weights.chunks_exact_mut(CHANNEL_BLOCK).zip(channel_weights) {
            // The weight in the lane's low `i16`, zero above: the
            // sign-extended byte's upper half adds nothing.
            row[lane] = weight as i16 as u16;
        }
    }
}

/// [`pack_block`] for at most 16 taps, 8 channels at a time: their rows
/// of taps, one 16-byte load each, transposed as an 8 x 16 matrix of
/// bytes, so that each tap's 8 weights are half a vector, widened and
/// stored, and summed into the channels' sums (a channel at a time, the
/// packing took a few cycles a weight, on every evaluation). Eight rows,
/// not 16: the transpose of 16 did not fit AVX2's registers and its
/// frame was on the deepest path of a program's stack.
#[target_feature(enable = "avx2")]
fn pack_block_by_transpose(
    w: &[i8],
    taps: usize,
    first: usize,
    weights: &mut [u16],
    sums: &mut [i32],
) {
    const HALF: usize = CHANNEL_BLOCK / 2;
    let lanes = (w.len() / taps - first).min(CHANNEL_BLOCK);
    for half in 0..2 {
        let rows: [__m128i; HALF] = core::array::from_fn(|row| {
            let lane = HALF * half + row;
            let at = (first + lane) * taps;
            if lane >= lanes {
                _mm_setzero_si128()
            } else if let Some(row) = w.get(at..at + CHANNEL_BLOCK) {
                // SAFETY: 16 readable bytes; the load is unaligned.
                unsafe { _mm_loadu_si128(row.as_ptr().cast()) }
            } else {
                // The last rows of `w`: a load of 16 would read past it.
                let mut row = [0i8; CHANNEL_BLOCK];
                row[..taps].copy_from_slice(&w[at..at + taps]);
                // SAFETY: 16 readable bytes; the load is unaligned.
                unsafe { _mm_loadu_si128(row.as_ptr().cast()) }
            }
        });
        let columns = transpose_8x16_bytes(rows);
        let mut total = _mm_setzero_si128();
        for (tap, row) in weights.chunks_exact_mut(CHANNEL_BLOCK).enumerate() {
            // Tap `tap`'s 8 weights: a half of a pair of columns.
            let pair = columns[tap / 2];
            let column = if tap % 2 == 0 {
                pair
            } else {
                _mm_unpackhi_epi64(pair, pair)
            };
            // Each weight in its lane's low `i16`, sign-extended: the
            // kernels widen it to 32 bits with zeros above (`vpmovzxwd`).
            let widened = _mm_cvtepi8_epi16(column);
            let row: &mut [u16; HALF] = (&mut row[HALF * half..][..HALF])
                .try_into()
                .unwrap_or_else(|_| unreachable!());
            // SAFETY: 8 writable `u16`s; the store is unaligned.
            unsafe { _mm_storeu_si128(row.as_mut_ptr().cast(), widened) };
            total = _mm_add_epi16(total, widened);
        }
        let sums: &mut [i32; HALF] = (&mut sums[HALF * half..][..HALF])
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: 8 writable `i32`s; the store is unaligned. (At most 16
        // taps of at most 128 each: the `i16` sums do not overflow.)
        unsafe { _mm256_storeu_si256(sums.as_mut_ptr().cast(), _mm256_cvtepi16_epi32(total)) };
    }
}

/// The transpose of 8 rows of 16 bytes: result `p` holds column `2p`'s 8
/// bytes (one from each row, in order), then column `2p + 1`'s. Pairs of
/// rows interleave by 8 bits, then by 16 and 32.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose_8x16_bytes(r: [__m128i; 8]) -> [__m128i; 8] {
    // `t[2i]`, `t[2i + 1]`: columns 0-7 and 8-15 of rows 2i and 2i + 1,
    // interleaved.
    let t: [__m128i; 8] = core::array::from_fn(|i| {
        let (a, b) = (r[i & !1], r[i | 1]);
        if i % 2 == 0 {
            _mm_unpacklo_epi8(a, b)
        } else {
            _mm_unpackhi_epi8(a, b)
        }
    });
    // `u[4j + m]`: columns 4m ..+ 4 of rows 4j ..+ 4, each column's 4
    // bytes side by side.
    let u: [__m128i; 8] = core::array::from_fn(|i| {
        let (j, m) = (i / 4, i % 4);
        let (a, b) = (t[4 * j + m / 2], t[4 * j + m / 2 + 2]);
        if m % 2 == 0 {
            _mm_unpacklo_epi16(a, b)
        } else {
            _mm_unpackhi_epi16(a, b)
        }
    });
    // Columns 4m + 2k and 4m + 2k + 1 of all 8 rows.
    core::array::from_fn(|p| {
        let (m, k) = (p / 2, p % 2);
        if k == 0 {
            _mm_unpacklo_epi32(u[m], u[4 + m])
        } else {
            _mm_unpackhi_epi32(u[m], u[4 + m])
        }
    })
}

/// [`super::store_layer`] for a depthwise convolution: tiles of 8
/// positions (the last one ending at the last position, some of its
/// positions computed again; one at a time where there are fewer than 8),
/// each tile's windows found once and each block of 16 channels of them
/// summed and stored through the epilogue's vectors `steps`, a block's
/// each ([`Steps::blocks`], over [`DepthwiseWeights::sums`]).
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
pub(super) fn store_layer(
    layer: &Int8Tile,
    packed: &DepthwiseWeights,
    input: &PaddedInput,
    steps: &[Steps],
    out: &mut [MaybeUninit<i8>],
) {
    // Where the runtime is optimised for size (`cfg(size_profile)`), whose
    // code keeps a tile's sums in the frame, tiles of 2 positions.
    const TILE: usize = if cfg!(size_profile) { 2 } else { 8 };
    let g = layer.geometry;
    let total = g.batch * g.output[0] * g.output[1];
    if total >= TILE {
        let mut done = 0;
        while done < total {
            let start = done.min(total - TILE);
            let windows = Windows::<TILE>::new(g, input, start, CHANNEL_BLOCK);
            for steps in steps {
                tile(g, packed, &windows, steps, out, start);
            }
            done = start + TILE;
        }
    } else {
        for start in 0..total {
            let windows = Windows::<1>::new(g, input, start, CHANNEL_BLOCK);
            for steps in steps {
                tile(g, packed, &windows, steps, out, start);
            }
        }
    }
}

/// The windows of `R` output positions from `start` (counted across the
/// batch, rows and columns of the output) in the padded input, each
/// checked once to hold every tap's bytes of every block of channels: the
/// tiles of each block read them from its first channel. Borrows the
/// input (`'x`) for as long as the pointers are read.
struct Windows<'x, const R: usize> {
    /// Each position's window's first byte.
    starts: [*const i8; R],
    /// The input's values between a tap and the next row's.
    row_step: usize,
    /// The input's values between a tap and the next column's.
    tap_step: usize,
    input: PhantomData<&'x [i8]>,
}

impl<'x, const R: usize> Windows<'x, R> {
    /// The windows of the `R` positions from `start`; a tap of a block
    /// reads `lanes` bytes.
    ///
    /// # Panics
    /// If a window's last block's bytes lie past the input's values.
    #[inline(always)]
    fn new(g: &Geometry, input: &'x PaddedInput, start: usize, lanes: usize) -> Self {
        let ([kh_len, kw_len], channels) = (g.kernel, g.out_channels);
        let row_step = g.dilation[0] * input.columns * channels;
        let tap_step = g.dilation[1] * channels;
        // From the window's first value to past its last block's last tap.
        let last_block = (channels - 1) / lanes * lanes;
        let span = (kh_len - 1) * row_step + (kw_len - 1) * tap_step + last_block + lanes;
        let mut starts = [input.values.as_ptr(); R];
        for (window, p) in starts
            .iter_mut()
            .zip(&super::positions_from::<R>(g, start, 0))
        {
            *window = input.values[input.window(g, p)..][..span].as_ptr();
        }
        Windows {
            starts,
            row_step,
            tap_step,
            input: PhantomData,
        }
    }
}

/// The `R` positions of `windows` from `start` by the block of 16
/// channels of `steps`: summed tap by tap, through `steps`, stored as
/// bytes. Inlined into [`store_layer`] (a function with target features
/// is not always inlined where it is called, and this one measured 5%
/// slower so).
#[inline(always)]
fn tile<const R: usize>(
    g: &Geometry,
    packed: &DepthwiseWeights,
    windows: &Windows<'_, R>,
    steps: &Steps,
    out: &mut [MaybeUninit<i8>],
    start: usize,
) {
    let ([kh_len, kw_len], channels) = (g.kernel, g.out_channels);
    let taps = kh_len * kw_len;
    let block = steps.channel / CHANNEL_BLOCK;
    let weights = &packed.weights[block * taps * CHANNEL_BLOCK..][..taps * CHANNEL_BLOCK];
    // SAFETY (every block below but the loads'): `store_layer`'s features.
    let mut sums = [unsafe { steps.first() }; R];
    for kh in 0..kh_len {
        for kw in 0..kw_len {
            let tap = &weights[(kh * kw_len + kw) * CHANNEL_BLOCK..][..CHANNEL_BLOCK];
            // SAFETY: 16 readable `u16`s; the load is unaligned.
            let w = unsafe { _mm512_cvtepu16_epi32(_mm256_loadu_si256(tap.as_ptr().cast())) };
            let offset = kh * windows.row_step + kw * windows.tap_step + steps.channel;
            each_row!(R, r => {
                // SAFETY: the tap's 16 bytes of the block lie in the
                // window (`Windows::new`).
                let x = unsafe { _mm512_cvtepi8_epi32(_mm_loadu_si128(windows.starts[r].add(offset).cast())) };
                sums[r] = unsafe { _mm512_dpwssd_epi32(sums[r], x, w) };
            });
        }
    }
    // The steps stay in registers across the tile's rows, read once from
    // where they are (`Steps::blocks`).
    let steps = core::hint::black_box(steps);
    each_row!(R, r => {
        let row = &mut out[(start + r) * channels..][..channels];
        unsafe { steps.store(row, steps.apply(sums[r])) };
    });
}

/// [`store_layer`] with AVX2: tiles of 4 positions, each tile's windows
/// found once and each block of 8 channels of them (half of one of the
/// packed weights' blocks) summed, each tap one widening load and one
/// `vpmaddwd` (an input byte, sign-extended, times its weight; the upper
/// halves' product is zero) and an add per position, the epilogue in
/// registers (`steps`, 8 channels' each, [`Steps8`]). Four, not eight:
/// AVX2's 16 registers hold four sums beside the epilogue's vectors
/// (eight spilled, and were slower); two where the runtime is optimised
/// for size, whose code keeps a tile's sums in the frame.
#[target_feature(enable = "avx2")]
pub(super) fn store_layer_avx2(
    layer: &Int8Tile,
    packed: &DepthwiseWeights,
    input: &PaddedInput,
    steps: &[Steps8],
    out: &mut [MaybeUninit<i8>],
) {
    const LANES: usize = 8;
    const TILE: usize = if cfg!(size_profile) { 2 } else { 4 };
    let g = layer.geometry;
    let total = g.batch * g.output[0] * g.output[1];
    if total >= TILE {
        let mut done = 0;
        while done < total {
            let start = done.min(total - TILE);
            let windows = Windows::<TILE>::new(g, input, start, LANES);
            for steps in steps {
                tile_avx2(g, packed, &windows, steps, out, start);
            }
            done = start + TILE;
        }
    } else {
        for start in 0..total {
            let windows = Windows::<1>::new(g, input, start, LANES);
            for steps in steps {
                tile_avx2(g, packed, &windows, steps, out, start);
            }
        }
    }
}

/// [`tile`] for [`store_layer_avx2`]: the `R` positions of `windows` from
/// `start` by the 8 channels of `steps`.
#[inline(always)]
fn tile_avx2<const R: usize>(
    g: &Geometry,
    packed: &DepthwiseWeights,
    windows: &Windows<'_, R>,
    steps: &Steps8,
    out: &mut [MaybeUninit<i8>],
    start: usize,
) {
    const LANES: usize = 8;
    let ([kh_len, kw_len], channels) = (g.kernel, g.out_channels);
    let taps = kh_len * kw_len;
    // The packed block of 16 holding these 8 channels, and which half.
    let (block, half) = (steps.channel / CHANNEL_BLOCK, steps.channel % CHANNEL_BLOCK);
    let weights = &packed.weights[block * taps * CHANNEL_BLOCK..][..taps * CHANNEL_BLOCK];
    // SAFETY (every block below but the loads'): `store_layer_avx2`'s
    // features.
    let mut sums = [unsafe { steps.first() }; R];
    for kh in 0..kh_len {
        for kw in 0..kw_len {
            let tap = &weights[(kh * kw_len + kw) * CHANNEL_BLOCK + half..][..LANES];
            // SAFETY: 8 readable `u16`s; the load is unaligned.
            let w = unsafe { _mm256_cvtepu16_epi32(_mm_loadu_si128(tap.as_ptr().cast())) };
            let offset = kh * windows.row_step + kw * windows.tap_step + steps.channel;
            each_row!(R, r => {
                // SAFETY: the tap's 8 bytes of the block lie in the window
                // (`Windows::new`).
                let x = unsafe { _mm256_cvtepi8_epi32(_mm_loadl_epi64(windows.starts[r].add(offset).cast())) };
                sums[r] = unsafe { _mm256_add_epi32(sums[r], _mm256_madd_epi16(x, w)) };
            });
        }
    }
    each_row!(R, r => {
        let row = &mut out[(start + r) * channels..][..channels];
        // Each row reads the steps from where they are (`Steps8::blocks`).
        let steps = core::hint::black_box(steps);
        unsafe { steps.store(row, steps.apply(sums[r])) };
    });
}
