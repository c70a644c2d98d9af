//! The int8 convolution's kernel channels last: `conv2d(cast::<i32>(x) -
//! zx, cast::<i32>(w), layout = nhwc)` over stored `i8` data (groups 1,
//! input channels a multiple of 4), summed from the bytes themselves, as
//! TFLite's int8 kernels compute.
//!
//! With AVX-512 VNNI (selected at run time, `std` on x86-64; or the
//! compile-time target's, with an allocator), the weights `[C_out, kH, kW,
//! C_in]` are first copied once per evaluation into the kernel's layout
//! ([`PackedWeights`]): for each 16 output channels, each tap and each
//! four input channels, 64 bytes holding every channel's four weights side
//! by side, so that one load gives the vector `vpdpbusd` multiplies by; the
//! copy also sums each channel's weights. A tile of up to 8 output
//! positions (any: each its own) by 16 or 32 output channels then keeps
//! one vector of 16 `i32` sums per position and 16 channels: for each tap
//! and four input channels, one `vpdpbusd` per position and vector
//! multiplies the position's four input bytes (broadcast) by the 16
//! channels' weights and adds them; a pixel's input bytes are loaded 16 at
//! a time. `vpdpbusd` takes unsigned bytes on the left: each input byte is
//! read as `x + 128`, and `(128 - c)` times each channel's weight sum is
//! taken off at the end, where `c` is the constant added to the input
//! (`-zx`). A tap in the padding reads bytes equal to `-c` (the zero
//! point), whose term the same correction cancels, so the padding
//! contributes zero as TFLite's does.
//!
//! The copy and the kernel are functions of the runtime, compiled once
//! whatever the expression: the expression's nodes give them slices and
//! the geometry, and apply their epilogue (bias, requantisation, clamp) to
//! the sums. Where the kernel cannot run, [`block`] gives `None` and the
//! convolution takes its general path.

use super::Position;
use crate::rules::conv::Geometry;
#[cfg(all(feature = "alloc", vnni_kernel))]
use alloc::vec::Vec;

/// The most output positions of one tile.
pub(crate) const TILE_ROWS: usize = 8;

/// The most output channels of one tile.
pub(crate) const TILE_CHANNELS: usize = 32;

/// The output channels of one block of the packed weights.
const CHANNEL_BLOCK: usize = 16;

/// The sums of a tile: a row per position, a column per channel.
pub(crate) type Sums = [[i32; TILE_CHANNELS]; TILE_ROWS];

/// A once-set cell: shared by the threads of a split walk with `std`
/// (`rayon` implies it), a plain cell without.
#[cfg(all(feature = "std", vnni_kernel))]
type Once<T> = std::sync::OnceLock<T>;
#[cfg(all(feature = "alloc", not(feature = "std"), vnni_kernel))]
type Once<T> = core::cell::OnceCell<T>;

/// A convolution's weights in the kernel's layout, made on the first tile
/// that asks for them (none where the kernel cannot run) and kept for the
/// rest of the evaluation. Without an allocator, or where the kernel is
/// not compiled (not x86-64; without `std`, a target without VNNI), it
/// holds nothing and the kernel does not run.
#[derive(Default)]
pub struct PackedWeights {
    #[cfg(all(feature = "alloc", vnni_kernel))]
    once: Once<Option<Packed>>,
}

impl core::fmt::Debug for PackedWeights {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("PackedWeights")
    }
}

/// The weights in the kernel's layout and each channel's sum.
#[cfg(all(feature = "alloc", vnni_kernel))]
struct Packed {
    /// For each block of 16 output channels, each tap and each four input
    /// channels: 16 times the channel's four bytes (channels past `C_out`
    /// zero).
    bytes: Vec<i8>,
    /// Each channel's weights summed, over every tap and input channel
    /// (a multiple of 16 of them, those past `C_out` zero).
    sums: Vec<i32>,
}

impl PackedWeights {
    /// The weights `w` of a convolution of `g` in the kernel's layout,
    /// where the kernel can run on this CPU; `None` otherwise.
    #[cfg(all(feature = "alloc", vnni_kernel))]
    fn get(&self, w: &[i8], g: &Geometry) -> Option<&Packed> {
        self.once
            .get_or_init(|| {
                // SAFETY: `runs` holds only where the CPU has AVX-512 F, BW
                // and VNNI (the selected level is at most the CPU's).
                runs(g).then(|| unsafe { vnni::pack(w, g) })
            })
            .as_ref()
    }
}

/// Whether the kernel runs for a convolution of `g` on this CPU: the
/// selected level (without `std`, the compile-time target's) has VNNI.
#[cfg(all(feature = "alloc", vnni_kernel))]
fn runs(g: &Geometry) -> bool {
    g.channels_last
        && g.groups == 1
        && g.in_channels.is_multiple_of(4)
        && crate::isa::selected() >= crate::isa::Level::Avx512Vnni
}

/// One tile of an int8 convolution channels last: its inputs and where it is.
pub(crate) struct Int8Tile<'a> {
    /// The input, `[N, H, W, C_in]` bytes.
    pub(crate) x: &'a [i8],
    /// The weights, `[C_out, kH, kW, C_in]` bytes.
    pub(crate) w: &'a [i8],
    /// The weights in the kernel's layout, made on first use (read only
    /// where the kernel is compiled).
    #[cfg_attr(not(all(feature = "alloc", vnni_kernel)), allow(dead_code))]
    pub(crate) packed: &'a PackedWeights,
    /// The constant added to each input byte (`-zx`).
    pub(crate) x_offset: i32,
    /// The sizes.
    pub(crate) geometry: &'a Geometry,
    /// The tile's output positions (1, 2, 4 or 8), each of the same first
    /// channel, a multiple of 16.
    pub(crate) positions: &'a [Position],
    /// The tile's output channels from that one: 16 or 32.
    pub(crate) channels: usize,
}

/// Writes the sums of the tile's positions by its channels into the first
/// rows and columns of `out` (written in place, not returned: a returned
/// 1 KiB block was copied once more); false, `out` untouched, where the
/// CPU lacks the instructions, there is no allocator, or the tile is not
/// of the kernel's form.
pub(crate) fn block(tile: &Int8Tile, out: &mut Sums) -> bool {
    let (g, positions) = (tile.geometry, tile.positions);
    let Some(channel) = positions.first().map(|p| p.channel) else {
        return false;
    };
    let fits = matches!(positions.len(), 1 | 2 | 4 | 8)
        && matches!(tile.channels, 16 | 32)
        && channel.is_multiple_of(CHANNEL_BLOCK)
        && channel + tile.channels <= g.out_channels
        && positions.iter().all(|p| {
            p.channel == channel && p.n < g.batch && p.oh < g.output[0] && p.ow < g.output[1]
        })
        && (-127..=128).contains(&tile.x_offset)
        && tile.x.len() >= g.batch * g.input[0] * g.input[1] * g.in_channels
        && tile.w.len() >= g.out_channels * g.kernel[0] * g.kernel[1] * g.in_channels;
    if !fits {
        return false;
    }
    #[cfg(all(feature = "alloc", vnni_kernel))]
    {
        let Some(packed) = tile.packed.get(tile.w, g) else {
            return false;
        };
        // SAFETY: `packed` exists only where the CPU has AVX-512 F, BW and
        // VNNI (`runs`: the selected level is at most the CPU's); it was
        // made for this geometry, and `fits` holds.
        unsafe { vnni::block(tile, packed, out) };
        return true;
    }
    #[allow(unreachable_code)]
    {
        let _ = out;
        false
    }
}

#[cfg(all(feature = "alloc", vnni_kernel))]
mod vnni {
    use super::{Int8Tile, Packed, Sums, CHANNEL_BLOCK};
    use crate::ops::conv::input_at;
    use core::arch::x86_64::*;

    /// [`super::block`] with AVX-512 VNNI, for a tile of the form it
    /// checked (`fits`) and the weights packed for its geometry.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    pub(super) fn block(tile: &Int8Tile, packed: &Packed, out: &mut Sums) {
        match (tile.positions.len(), tile.channels) {
            (8, 32) => sums::<8, 2>(tile, packed, out),
            (4, 32) => sums::<4, 2>(tile, packed, out),
            (2, 32) => sums::<2, 2>(tile, packed, out),
            (1, 32) => sums::<1, 2>(tile, packed, out),
            (8, _) => sums::<8, 1>(tile, packed, out),
            (4, _) => sums::<4, 1>(tile, packed, out),
            (2, _) => sums::<2, 1>(tile, packed, out),
            _ => sums::<1, 1>(tile, packed, out),
        }
    }

    /// The sums of `R` positions by `16 V` channels.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn sums<const R: usize, const V: usize>(tile: &Int8Tile, packed: &Packed, out: &mut Sums) {
        let g = tile.geometry;
        let positions: &[_; R] = tile.positions.try_into().unwrap_or_else(|_| unreachable!());
        let (c_in, [kh_len, kw_len]) = (g.in_channels, g.kernel);
        let groups = c_in / 4;
        // Block `b` of the packed weights, for tap `t` and four input
        // channels `q`, starts at `((b * taps + t) * groups + q) * 64`.
        let block_len = kh_len * kw_len * groups * 64;
        let first_block = positions[0].channel / CHANNEL_BLOCK;
        let mut weights: [&[i8]; V] = [&[]; V];
        for (v, weights) in weights.iter_mut().enumerate() {
            *weights = &packed.bytes[(first_block + v) * block_len..][..block_len];
        }
        // A tap in the padding reads copies of the zero point, `-c`.
        let padding = [tile.x_offset.wrapping_neg() as i8; 16];
        let mut sums = [[_mm512_setzero_si512(); V]; R];
        for kh in 0..kh_len {
            for kw in 0..kw_len {
                // Each position's input pixel (`c_in` bytes, read at step
                // 1), or the padding (16 bytes, read at step 0).
                let mut pixels: [(*const i8, usize); R] = [(padding.as_ptr(), 0); R];
                for (pixel, p) in pixels.iter_mut().zip(positions) {
                    if let (Some(ih), Some(iw)) =
                        (input_at(p.oh, kh, 0, g), input_at(p.ow, kw, 1, g))
                    {
                        let start = ((p.n * g.input[0] + ih) * g.input[1] + iw) * c_in;
                        *pixel = (tile.x[start..start + c_in].as_ptr(), 1);
                    }
                }
                let tap = (kh * kw_len + kw) * groups * 64;
                // Sixteen input channels at a time (fewer in a last
                // block, where `c_in` is not a multiple of 16): each
                // pixel's bytes loaded once, their groups of four
                // broadcast in turn.
                for block in 0..groups.div_ceil(4) {
                    let count = (groups - 4 * block).min(4);
                    // (Loops, not `core::array::from_fn`, whose closures
                    // LLVM kept out of line.)
                    let mut w = [[_mm512_setzero_si512(); 4]; V];
                    for (w, weights) in w.iter_mut().zip(&weights) {
                        for (t, w) in w.iter_mut().enumerate().take(count) {
                            *w = load_64(weights, tap + (4 * block + t) * 64);
                        }
                    }
                    if count == 4 {
                        for (sums, &(pixel, step)) in sums.iter_mut().zip(&pixels) {
                            // SAFETY: a pixel of step 1 holds `c_in >= 16
                            // block + 16` bytes, the padding 16; the load is
                            // unaligned.
                            let x = unsafe { _mm_loadu_si128(pixel.add(16 * block * step).cast()) };
                            // SAFETY: `sums` has the features.
                            unsafe { add_block(sums, x, &w, 4) };
                        }
                    } else {
                        // The block's `4 count` bytes of each pixel.
                        let mask = u64::MAX >> (64 - 4 * count);
                        for (sums, &(pixel, step)) in sums.iter_mut().zip(&pixels) {
                            // SAFETY: a pixel of step 1 holds `c_in >= 16
                            // block + 4 count` bytes, the padding 16; the
                            // load reads only the bytes of `mask` and is
                            // unaligned.
                            let x = unsafe {
                                _mm512_maskz_loadu_epi8(mask, pixel.add(16 * block * step))
                            };
                            // SAFETY: `sums` has the features.
                            unsafe { add_block(sums, _mm512_castsi512_si128(x), &w, count) };
                        }
                    }
                }
            }
        }
        let scale = _mm512_set1_epi32(128i32.wrapping_sub(tile.x_offset));
        let mut corrections = [_mm512_setzero_si512(); V];
        for (v, correction) in corrections.iter_mut().enumerate() {
            let channel = positions[0].channel + CHANNEL_BLOCK * v;
            let sums: &[i32; 16] = packed.sums[channel..channel + 16]
                .try_into()
                .unwrap_or_else(|_| unreachable!());
            // SAFETY: 16 readable `i32`s; the load is unaligned.
            let sums = unsafe { _mm512_loadu_si512(sums.as_ptr().cast()) };
            *correction = _mm512_mullo_epi32(sums, scale);
        }
        for (out, sums) in out.iter_mut().zip(&sums) {
            for ((out, &sum), &correction) in out.chunks_exact_mut(16).zip(sums).zip(&corrections) {
                let out: &mut [i32; 16] = out.try_into().unwrap_or_else(|_| unreachable!());
                // SAFETY: 16 writable `i32`s; the store is unaligned.
                unsafe {
                    _mm512_storeu_si512(out.as_mut_ptr().cast(), _mm512_sub_epi32(sum, correction))
                };
            }
        }
    }

    /// Adds the first `count` groups of four of a pixel's bytes `x`, each
    /// broadcast, times the weights `w` of those groups, to its sums (one
    /// vector per 16 channels). Inlined into [`sums`], whose features its
    /// instructions need (a function of its own with the features would be
    /// called, not inlined).
    ///
    /// # Safety
    ///
    /// The CPU has AVX-512 F, BW and VNNI.
    #[inline(always)]
    unsafe fn add_block<const V: usize>(
        sums: &mut [__m512i; V],
        x: __m128i,
        w: &[[__m512i; 4]; V],
        count: usize,
    ) {
        let x = _mm512_xor_si512(
            _mm512_broadcast_i32x4(x),
            _mm512_set1_epi32(0x8080_8080_u32 as i32),
        );
        // Bytes `4 t ..+ 4` of the block, in every lane.
        let left = [
            _mm512_shuffle_epi32::<0x00>(x),
            _mm512_shuffle_epi32::<0x55>(x),
            _mm512_shuffle_epi32::<0xAA>(x),
            _mm512_shuffle_epi32::<0xFF>(x),
        ];
        for (t, &left) in left.iter().enumerate().take(count) {
            for (sum, w) in sums.iter_mut().zip(w) {
                *sum = _mm512_dpbusd_epi32(*sum, left, w[t]);
            }
        }
    }

    /// Copies `w` (`[C_out, kH, kW, C_in]`) into the kernel's layout: for
    /// each block of 16 channels, each tap and four input channels, the
    /// four bytes of each of the 16 channels (channel `block * 16 + lane`'s
    /// bytes `4 q..4 q + 4` of the taps' `quads`), one 16-lane gather each;
    /// lanes past `C_out` zero.
    ///
    /// # Panics
    /// If `w` is shorter than the geometry's weights (the gathers' bound).
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    pub(super) fn pack(w: &[i8], g: &crate::rules::conv::Geometry) -> Packed {
        let (c_in, c_out) = (g.in_channels, g.out_channels);
        let per_channel = g.kernel[0] * g.kernel[1] * c_in;
        assert!(
            w.len() >= c_out * per_channel,
            "int8 weights shorter than their geometry"
        );
        let blocks = c_out.div_ceil(CHANNEL_BLOCK);
        let quads = per_channel / 4;
        let mut bytes = alloc::vec![0i8; blocks * CHANNEL_BLOCK * per_channel];
        let mut sums = alloc::vec![0i32; blocks * CHANNEL_BLOCK];
        for (sum, weights) in sums.iter_mut().zip(w.chunks_exact(per_channel)) {
            *sum = weights.iter().map(|&b| i32::from(b)).sum();
        }
        // Lane `l` reads channel `l` of the block: `per_channel` bytes on.
        let lanes: [i32; CHANNEL_BLOCK] = core::array::from_fn(|l| (l * per_channel) as i32);
        // SAFETY: 16 `i32`, read unaligned.
        let offsets = unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) };
        for (block, out) in bytes
            .chunks_exact_mut(CHANNEL_BLOCK * per_channel)
            .enumerate()
        {
            let valid = (c_out - block * CHANNEL_BLOCK).min(CHANNEL_BLOCK);
            let mask: __mmask16 = if valid == CHANNEL_BLOCK {
                !0
            } else {
                (1 << valid) - 1
            };
            let first = block * CHANNEL_BLOCK * per_channel;
            for (quad, lane_bytes) in out.chunks_exact_mut(64).enumerate().take(quads) {
                // SAFETY: a lane `l` below `valid` reads 4 bytes at `first +
                // l * per_channel + 4 quad`, inside channel `block * 16 +
                // l < C_out` of `w` (asserted long enough); masked lanes
                // read nothing. The store writes the 64 bytes of
                // `lane_bytes`, unaligned.
                unsafe {
                    let base = w.as_ptr().add(first + 4 * quad);
                    let four = _mm512_mask_i32gather_epi32::<1>(
                        _mm512_setzero_si512(),
                        mask,
                        offsets,
                        base.cast(),
                    );
                    _mm512_storeu_si512(lane_bytes.as_mut_ptr().cast(), four);
                }
            }
        }
        Packed { bytes, sums }
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
}
