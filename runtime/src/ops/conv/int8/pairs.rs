//! The int8 convolution's kernel with AVX2 or AVX-512 but no VNNI: the
//! sums of a tile of output positions by one or two blocks of 16
//! channels, two input values at a time by `vpmaddwd`, compiled once in
//! the runtime.
//!
//! The input is read as the VNNI kernel reads it ([`PaddedInput`]: in
//! place, or a padded copy of its bytes), two bytes a broadcast, each
//! widened to `i16` in the register. The weights are copied once per
//! evaluation ([`pack`]): for each block of 16 output channels and each
//! two bytes of a window's row (taps side by side, input channels
//! innermost, each row rounded up to two), every channel's two weights
//! side by side, so that one load widened to `i16` gives the vector
//! `vpmaddwd` multiplies by; and each channel's weights summed, for the
//! input's constant `c`: the sums are of the bytes as stored, and `c`
//! times each channel's weight sum is added to them (which cancels the
//! padding's bytes, the zero point `-c`).
//!
//! The walk over each tile's windows is the VNNI kernel's
//! ([`windows::sums`]); this kernel gives it its arithmetic ([`Groups`]
//! for AVX-512 and for AVX2) and stores the sums as they are, or, for a
//! whole int8 layer ([`store_layer`]), through its epilogue in AVX2
//! registers as bytes.
//!
//! `vpmaddwd` multiplies the 16-bit pairs and adds each pair's products
//! into a 32-bit lane: one broadcast, one `vpmaddwd` and one add per
//! position and 16 channels (two of each with AVX2's 8 lanes) sum 32
//! multiply-adds, where the portable kernel's `i32` lanes take a multiply
//! and an add per 16. Sums wrap as `i32` addition does, which is `i32`
//! arithmetic in a release build. As for the VNNI kernel, weights with a
//! constant added, and an input whose zero point is not a byte, take the
//! portable kernel.

#[cfg(vnni_kernel)]
use super::requantize::Steps8;
use super::windows::{self, Groups};
use super::{Int8Tile, PaddedInput, SumsOut, CHANNEL_BLOCK};
use crate::scratch::{Buf, Scratch};
use core::arch::x86_64::*;

/// A convolution's weights in the kernel's layout (the module's header),
/// made for one evaluation.
pub(super) struct Pairs<'s> {
    /// For each block of 16 output channels and each pair of a window's
    /// row, 16 times the channel's two weights (zero past a row and past
    /// `C_out`).
    weights: Buf<'s, i8>,
    /// Each channel's weights summed (a multiple of 16 of them, those past
    /// `C_out` zero).
    sums: Buf<'s, i32>,
}

/// The values past the padded input's last pixel: a row's last pair may
/// reach one past it.
pub(super) const SPARE: usize = 1;

/// The values a window's reads of `g` reach past its last one: a row
/// rounded up to two bytes.
#[cfg(vnni_kernel)]
pub(super) const fn spare(g: &crate::rules::conv::Geometry) -> usize {
    if (g.kernel[1] * g.in_channels).is_multiple_of(2) {
        0
    } else {
        SPARE
    }
}

/// Whether the kernel sums the tiles of `tile`'s convolution: the selected
/// level has AVX2, the weights have no constant added, and the input's
/// constant `c` leaves padding bytes `-c` that are bytes. (The caller
/// checks that the convolution has a form.)
pub(super) fn runs(tile: &Int8Tile) -> bool {
    tile.w_offset == 0
        && (-127..=128).contains(&tile.x_offset)
        && crate::isa::selected() >= crate::isa::Level::Avx2
}

/// The kernel's copy of the tile's convolution's weights and their sums
/// (the module's header). The tile fits its convolution ([`super::block`]
/// checked it): `w` holds the geometry's elements.
pub(super) fn pack<'s>(tile: &Int8Tile, scratch: &mut Scratch<'s>) -> Pairs<'s> {
    let g = tile.geometry;
    let ([kh_len, kw_len], c_in, c_out) = (g.kernel, g.in_channels, g.out_channels);
    let row_len = kw_len * c_in;
    let (row_pairs, block_len) = (windows::row_groups(g, 2), windows::block_len(g, 2));
    let blocks = c_out.div_ceil(CHANNEL_BLOCK);
    let mut weights = scratch.filled(blocks * block_len, 0i8);
    let mut sums = scratch.filled(blocks * CHANNEL_BLOCK, 0i32);
    for ((channel, w), sum) in tile
        .w
        .chunks_exact(kh_len * row_len)
        .take(c_out)
        .enumerate()
        .zip(sums.iter_mut())
    {
        *sum = w.iter().map(|&b| i32::from(b)).sum();
        let (block, lane) = (channel / CHANNEL_BLOCK, channel % CHANNEL_BLOCK);
        let to = &mut weights[block * block_len..][..block_len];
        for (row, w) in w.chunks_exact(row_len).enumerate() {
            for (k, &weight) in w.iter().enumerate() {
                let pair = row * row_pairs + k / 2;
                to[pair * 2 * CHANNEL_BLOCK + 2 * lane + k % 2] = weight;
            }
        }
    }
    Pairs { weights, sums }
}

#[cfg(vnni_kernel)]
impl Pairs<'_> {
    /// Each channel's weights summed (the correction for the input's
    /// constant), a multiple of 16 of them.
    pub(super) fn sums(&self) -> &[i32] {
        &self.sums
    }
}

/// Writes the tile's sums (its channels: at most `blocks`, 1 or 2, blocks
/// of 16 from its first, a multiple of 16) into `out`, with AVX-512 where
/// the selected level has it, else AVX2. The tile fits its convolution and
/// `out` ([`super::block`] checked it), and `pairs` was made for its
/// evaluation where [`runs`] held, `input` for it.
pub(super) fn block(
    tile: &Int8Tile,
    blocks: usize,
    pairs: &Pairs,
    input: &PaddedInput,
    out: &mut SumsOut,
) {
    use crate::isa::{selected, Level};
    if selected() >= Level::Avx512 {
        // SAFETY: the selected level is at most the CPU's (`isa::selected`),
        // and it has AVX-512 F and BW.
        unsafe { avx512(tile, blocks, pairs, input, out) };
    } else {
        // SAFETY: as above, with AVX2 (`runs`).
        unsafe { avx2(tile, blocks, pairs, input, out) };
    }
}

/// [`block`] with AVX-512 F and BW.
///
/// # Safety
/// The CPU has AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw,avx2,fma")]
unsafe fn avx512(
    tile: &Int8Tile,
    blocks: usize,
    pairs: &Pairs,
    input: &PaddedInput,
    out: &mut SumsOut,
) {
    // SAFETY: the CPU has the features.
    unsafe {
        if blocks == 2 {
            sums::<Avx512, 8, 2>(tile, pairs, input, out);
        } else {
            sums::<Avx512, 8, 1>(tile, pairs, input, out);
        }
    }
}

/// [`block`] with AVX2: fewer positions at a time with two blocks, whose
/// sums take four of its 16 registers each.
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2,fma")]
unsafe fn avx2(
    tile: &Int8Tile,
    blocks: usize,
    pairs: &Pairs,
    input: &PaddedInput,
    out: &mut SumsOut,
) {
    // SAFETY: the CPU has the features.
    unsafe {
        if blocks == 2 {
            sums::<Avx2, 2, 2>(tile, pairs, input, out);
        } else {
            sums::<Avx2, 4, 1>(tile, pairs, input, out);
        }
    }
}

/// The pairs' arithmetic with AVX-512: one vector of 16 lanes.
#[derive(Clone, Copy)]
struct Avx512(__m512i);

impl Groups for Avx512 {
    type Weight = i8;
    const GROUP: usize = 2;
    #[inline(always)]
    unsafe fn zero() -> Self {
        Avx512(_mm512_setzero_si512())
    }
    #[inline(always)]
    unsafe fn broadcast(p: *const i8) -> Self {
        // SAFETY: the caller's: two readable bytes.
        let pair = unsafe { p.cast::<i16>().read_unaligned() };
        Avx512(_mm512_cvtepi8_epi16(_mm256_set1_epi16(pair)))
    }
    #[inline(always)]
    unsafe fn load_weights(p: *const i8) -> Self {
        // SAFETY: the caller's: 32 bytes; the load is unaligned.
        Avx512(_mm512_cvtepi8_epi16(unsafe {
            _mm256_loadu_si256(p.cast())
        }))
    }
    #[inline(always)]
    unsafe fn multiply_add(acc: Self, x: Self, w: Self) -> Self {
        Avx512(_mm512_add_epi32(acc.0, _mm512_madd_epi16(x.0, w.0)))
    }
}

/// The pairs' arithmetic with AVX2: two vectors of 8 lanes.
#[derive(Clone, Copy)]
struct Avx2(__m256i, __m256i);

impl Groups for Avx2 {
    type Weight = i8;
    const GROUP: usize = 2;
    #[inline(always)]
    unsafe fn zero() -> Self {
        Avx2(_mm256_setzero_si256(), _mm256_setzero_si256())
    }
    #[inline(always)]
    unsafe fn broadcast(p: *const i8) -> Self {
        // SAFETY: the caller's: two readable bytes.
        let pair = unsafe { p.cast::<i16>().read_unaligned() };
        let pair = _mm256_cvtepi8_epi16(_mm_set1_epi16(pair));
        Avx2(pair, pair)
    }
    #[inline(always)]
    unsafe fn load_weights(p: *const i8) -> Self {
        // SAFETY: the caller's: 32 bytes; the loads are unaligned.
        unsafe {
            Avx2(
                _mm256_cvtepi8_epi16(_mm_loadu_si128(p.cast())),
                _mm256_cvtepi8_epi16(_mm_loadu_si128(p.add(16).cast())),
            )
        }
    }
    #[inline(always)]
    unsafe fn multiply_add(acc: Self, x: Self, w: Self) -> Self {
        Avx2(
            _mm256_add_epi32(acc.0, _mm256_madd_epi16(x.0, w.0)),
            _mm256_add_epi32(acc.1, _mm256_madd_epi16(x.1, w.1)),
        )
    }
}

/// Sums whose 16 lanes can be read out.
trait ToArray {
    /// The 16 lanes.
    ///
    /// # Safety
    /// The CPU has the kernel's features.
    unsafe fn to_array(self) -> [i32; 16];
}

impl ToArray for Avx512 {
    #[inline(always)]
    unsafe fn to_array(self) -> [i32; 16] {
        let mut lanes = [0; 16];
        // SAFETY: 16 writable `i32`s; the store is unaligned.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), self.0) };
        lanes
    }
}

impl ToArray for Avx2 {
    #[inline(always)]
    unsafe fn to_array(self) -> [i32; 16] {
        let mut lanes = [0; 16];
        // SAFETY: 16 writable `i32`s; the stores are unaligned.
        unsafe {
            _mm256_storeu_si256(lanes.as_mut_ptr().cast(), self.0);
            _mm256_storeu_si256(lanes.as_mut_ptr().add(8).cast(), self.1);
        }
        lanes
    }
}

/// The sums of the tile's positions, `P` at a time ([`windows::sums`]),
/// by `V` blocks of 16 channels from its first, plus the input's constant
/// times each channel's weight sum, into `out`.
///
/// # Safety
/// The CPU has the features of `L`'s level.
#[inline(always)]
unsafe fn sums<L: Groups<Weight = i8> + ToArray, const P: usize, const V: usize>(
    tile: &Int8Tile,
    pairs: &Pairs,
    input: &PaddedInput,
    out: &mut SumsOut,
) {
    let weight_sums = &pairs.sums[tile.positions[0].channel..][..tile.channels];
    for first in (0..tile.positions.len()).step_by(P) {
        // SAFETY: the caller's; `pairs` and `input` were made for the
        // tile's evaluation.
        let sums =
            unsafe { windows::sums::<L, P, V>(tile, input, &pairs.weights, first, [L::zero(); V]) };
        for (r, sums) in sums.iter().enumerate().take(tile.positions.len() - first) {
            let row = out.row(first + r, 0, tile.channels);
            for ((to, sum), weight_sums) in row
                .chunks_mut(CHANNEL_BLOCK)
                .zip(sums)
                .zip(weight_sums.chunks(CHANNEL_BLOCK))
            {
                // SAFETY: the caller's.
                let lanes = unsafe { sum.to_array() };
                for ((to, lane), &weight_sum) in to.iter_mut().zip(lanes).zip(weight_sums) {
                    *to = lane.wrapping_add(tile.x_offset.wrapping_mul(weight_sum));
                }
            }
        }
    }
}

/// Whether the AVX2 layer kernel ([`store_layer`]) stores `layer`'s
/// convolution: one of a form whose tiles this kernel sums ([`runs`]).
#[cfg(vnni_kernel)]
pub(super) fn layer_runs(layer: &Int8Tile) -> bool {
    super::form(layer.geometry).is_some() && runs(layer)
}

/// [`super::store_layer`] with AVX2: for each block of 16 channels, tiles
/// of 4 positions (the last one ending at the last position, its positions
/// before the ones not yet stored computed again; one at a time where
/// there are fewer than 4), each tile's sums through the epilogue in
/// registers (`steps`, [`Steps8`], two a block, whose correction is the
/// input's constant times [`Pairs::sums`]) and stored as bytes.
#[cfg(vnni_kernel)]
#[target_feature(enable = "avx2,fma")]
pub(super) fn store_layer(
    layer: &Int8Tile,
    pairs: &Pairs,
    input: &PaddedInput,
    steps: &[Steps8],
    out: &mut [core::mem::MaybeUninit<i8>],
) {
    let g = layer.geometry;
    let (c_out, total) = (g.out_channels, g.batch * g.output[0] * g.output[1]);
    for (block, halves) in steps.chunks(2).enumerate() {
        let tile = Int8Tile {
            channels: (c_out - block * CHANNEL_BLOCK).min(CHANNEL_BLOCK),
            ..*layer
        };
        let mut done = 0;
        if total >= TILE {
            while done < total {
                let start = done.min(total - TILE);
                layer_tile::<TILE>(&tile, pairs, input, halves, out, start, done - start);
                done = start + TILE;
            }
        } else {
            while done < total {
                layer_tile::<1>(&tile, pairs, input, halves, out, done, 0);
                done += 1;
            }
        }
    }
}

/// The positions of a tile of [`store_layer`]: 4, or 2 in a runtime
/// optimised for size (`cfg(size_profile)`), whose code keeps part of a
/// tile of 4 positions' sums in the frame beside the epilogue's vectors.
#[cfg(vnni_kernel)]
const TILE: usize = if cfg!(size_profile) { 2 } else { 4 };

/// The `R` positions from `start` by the block of 16 channels of `halves`
/// (its one or two [`Steps8`]): summed, through the steps, stored as bytes;
/// the first `skip` of them not stored (a last tile's, already stored).
#[cfg(vnni_kernel)]
#[inline(always)]
fn layer_tile<const R: usize>(
    tile: &Int8Tile,
    pairs: &Pairs,
    input: &PaddedInput,
    halves: &[Steps8],
    out: &mut [core::mem::MaybeUninit<i8>],
    start: usize,
    skip: usize,
) {
    let g = tile.geometry;
    let positions = super::positions_from::<R>(g, start, halves[0].channel);
    let tile = Int8Tile {
        positions: &positions,
        ..*tile
    };
    // SAFETY: the CPU has AVX2 (`store_layer`'s features); the tile's
    // positions are the output's, its channels the convolution's, and
    // `pairs` and `input` were made for its geometry.
    // Each half's sums start at its steps' first value (a block of 8
    // channels or fewer has no second half: its lanes are not stored).
    // SAFETY: as below.
    let initial = unsafe {
        let high = halves
            .get(1)
            .map_or(_mm256_setzero_si256(), |high| high.first());
        Avx2(halves[0].first(), high)
    };
    let sums = unsafe { windows::sums::<Avx2, R, 1>(&tile, input, &pairs.weights, 0, [initial]) };
    let c_out = g.out_channels;
    each_row!(R, r => {
        if r >= skip {
            let row = &mut out[(start + r) * c_out..][..c_out];
            // Each row reads the steps from where they are (`Steps8::blocks`).
            let halves = core::hint::black_box(halves);
            let Avx2(low, high) = sums[r][0];
            for (steps, sum) in halves.iter().zip([low, high]) {
                // SAFETY: as above.
                unsafe { steps.store(row, steps.apply(sum)) };
            }
        }
    });
}
