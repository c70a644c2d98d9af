//! The int8 convolution's kernel channels last: `conv2d(cast::<i32>(x) -
//! zx, cast::<i32>(w), layout = nhwc)` over stored `i8` data (groups 1,
//! input channels a multiple of 4), summed from the bytes themselves, as
//! TFLite's int8 kernels compute.
//!
//! With AVX-512 VNNI (selected at run time, `std` on x86-64; or the
//! compile-time target's), a tile of up to 8 output positions (any, in
//! the order the nest walks them) by 16 or 32 output channels keeps one
//! vector of 16 `i32` sums per position and 16 channels. For each tap
//! and each four input channels, one `vpdpbusd` per position and vector
//! multiplies the position's four input bytes (broadcast) by the 16
//! channels' four weights and adds them. The weights `[C_out, kH, kW,
//! C_in]` are read in place: sixteen input channels of 16 output channels
//! at a time are loaded and transposed in registers, so that each
//! vector holds one four-byte group of every channel; input channels past
//! a multiple of 16 are gathered four at a time.
//! `vpdpbusd` takes unsigned bytes on the left: each input byte is read
//! as `x + 128`, and `(128 - c)` times each channel's weight sum is taken
//! off at the end, where `c` is the constant added to the input (`-zx`).
//! A tap in the padding reads bytes equal to `-c` (the zero point), whose
//! term the same correction cancels, so the padding contributes zero as
//! TFLite's does.
//!
//! The kernel is one function of the runtime, compiled once whatever the
//! expression: the expression's nodes give it slices and the geometry,
//! and apply their epilogue (bias, requantisation, clamp) to its sums.
//! Where it cannot run, [`block16`] gives `None` and the convolution takes
//! its general path.

use super::Position;
use crate::rules::conv::Geometry;

/// The most output positions of one tile.
pub(crate) const TILE_ROWS: usize = 8;

/// The most output channels of one tile.
pub(crate) const TILE_CHANNELS: usize = 32;

/// One tile of an int8 convolution channels last: its inputs and where it is.
pub(crate) struct Int8Tile<'a> {
    /// The input, `[N, H, W, C_in]` bytes.
    pub(crate) x: &'a [i8],
    /// The weights, `[C_out, kH, kW, C_in]` bytes.
    pub(crate) w: &'a [i8],
    /// The constant added to each input byte (`-zx`).
    pub(crate) x_offset: i32,
    /// The sizes.
    pub(crate) geometry: &'a Geometry,
    /// The tile's output positions (1, 2, 4 or 8), each of the same first
    /// channel.
    pub(crate) positions: &'a [Position],
    /// The tile's output channels from that one: 16 or 32.
    pub(crate) channels: usize,
}

/// The sums of the tile's positions by its channels, rows and columns past
/// them zero; `None` where the CPU lacks the instructions or the tile is
/// not of the kernel's form.
pub(crate) fn block(tile: &Int8Tile) -> Option<[[i32; TILE_CHANNELS]; TILE_ROWS]> {
    let (g, positions) = (tile.geometry, tile.positions);
    let channel = positions.first()?.channel;
    let fits = g.channels_last
        && g.groups == 1
        && g.in_channels.is_multiple_of(4)
        && matches!(positions.len(), 1 | 2 | 4 | 8)
        && matches!(tile.channels, 16 | 32)
        && channel + tile.channels <= g.out_channels
        && positions.iter().all(|p| {
            p.channel == channel && p.n < g.batch && p.oh < g.output[0] && p.ow < g.output[1]
        })
        && (-127..=128).contains(&tile.x_offset)
        && tile.x.len() >= g.batch * g.input[0] * g.input[1] * g.in_channels
        && tile.w.len() >= g.out_channels * g.kernel[0] * g.kernel[1] * g.in_channels
        // The gather's offsets are `i32`.
        && i32::try_from(g.out_channels * g.kernel[0] * g.kernel[1] * g.in_channels).is_ok();
    if !fits {
        return None;
    }
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        if crate::isa::selected() >= crate::isa::Level::Avx512Vnni {
            // SAFETY: the selected level is at most the CPU's
            // (`isa::selected`): it has AVX-512 F, BW and VNNI; `fits`
            // holds.
            return Some(unsafe { vnni::block(tile) });
        }
    }
    // Without `std` there is no run-time detection: a target built with
    // the instructions (`-C target-feature=+avx512vnni,+avx512bw`) has them.
    #[cfg(all(
        not(feature = "std"),
        target_arch = "x86_64",
        target_feature = "avx512vnni",
        target_feature = "avx512bw"
    ))]
    {
        // SAFETY: the target has AVX-512 F, BW and VNNI (compile time);
        // `fits` holds.
        return Some(unsafe { vnni::block(tile) });
    }
    #[allow(unreachable_code)]
    None
}

#[cfg(vnni_kernel)]
mod vnni {
    use super::{Int8Tile, TILE_CHANNELS, TILE_ROWS};
    use crate::ops::conv::input_at;
    use core::arch::x86_64::*;

    /// The sums of a tile, one vector per position and 16 channels.
    type Sums = [[i32; TILE_CHANNELS]; TILE_ROWS];

    /// [`super::block`] with AVX-512 VNNI, for a tile of the form it
    /// checked (`fits`).
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    pub(super) fn block(tile: &Int8Tile) -> Sums {
        match (tile.positions.len(), tile.channels) {
            (8, 32) => sums::<8, 2>(tile),
            (4, 32) => sums::<4, 2>(tile),
            (2, 32) => sums::<2, 2>(tile),
            (1, 32) => sums::<1, 2>(tile),
            (8, _) => sums::<8, 1>(tile),
            (4, _) => sums::<4, 1>(tile),
            (2, _) => sums::<2, 1>(tile),
            _ => sums::<1, 1>(tile),
        }
    }

    /// The sums of `R` positions by `16 V` channels.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn sums<const R: usize, const V: usize>(tile: &Int8Tile) -> Sums {
        let g = tile.geometry;
        let positions: &[_; R] = tile.positions.try_into().unwrap_or_else(|_| unreachable!());
        let (c_in, [kh_len, kw_len]) = (g.in_channels, g.kernel);
        let per_channel = kh_len * kw_len * c_in;
        // Each channel's weights start `per_channel` bytes after the one
        // before: the gather's offsets.
        let channel_offsets = _mm512_mullo_epi32(
            _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
            _mm512_set1_epi32(per_channel as i32),
        );
        let weights = &tile.w[positions[0].channel * per_channel..];
        // A tap in the padding reads copies of the zero point, `-c`.
        let padding = [tile.x_offset.wrapping_neg() as i8; 16];
        let flip = _mm512_set1_epi32(0x8080_8080_u32 as i32);
        let ones = _mm512_set1_epi32(0x0101_0101);
        let mut sums = [[_mm512_setzero_si512(); V]; R];
        let mut weight_sums = [_mm512_setzero_si512(); V];
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
                let tap = &weights[(kh * kw_len + kw) * c_in..];
                // Sixteen input channels at a time, the weights transposed.
                let blocks = c_in / 16;
                for block in 0..blocks {
                    let mut w = [[_mm512_setzero_si512(); 4]; V];
                    for (v, w) in w.iter_mut().enumerate() {
                        // SAFETY: `sums` has the features; `tap` holds
                        // the tile's channels' `c_in` bytes of this tap
                        // (`fits`).
                        *w = unsafe {
                            transposed(tap, per_channel, 16 * per_channel * v, 16 * block)
                        };
                        for &w in w.iter() {
                            weight_sums[v] = _mm512_dpbusd_epi32(weight_sums[v], ones, w);
                        }
                    }
                    for (sums, &(pixel, step)) in sums.iter_mut().zip(&pixels) {
                        // SAFETY: a pixel of step 1 holds `c_in` bytes,
                        // the padding 16; the load is unaligned.
                        let x = unsafe { _mm_loadu_si128(pixel.add(16 * block * step).cast()) };
                        let x = _mm512_xor_si512(_mm512_broadcast_i32x4(x), flip);
                        // Bytes `4 t ..+ 4` of the sixteen, in every lane.
                        let left = [
                            _mm512_shuffle_epi32::<0x00>(x),
                            _mm512_shuffle_epi32::<0x55>(x),
                            _mm512_shuffle_epi32::<0xAA>(x),
                            _mm512_shuffle_epi32::<0xFF>(x),
                        ];
                        for (t, &left) in left.iter().enumerate() {
                            for (sum, w) in sums.iter_mut().zip(&w) {
                                *sum = _mm512_dpbusd_epi32(*sum, left, w[t]);
                            }
                        }
                    }
                }
                // The rest four at a time, gathered.
                for q in 4 * blocks..c_in / 4 {
                    let mut w = [_mm512_setzero_si512(); V];
                    for (v, w) in w.iter_mut().enumerate() {
                        // SAFETY: channel `j < 16 V` reads bytes `j *
                        // per_channel + (kh * kw_len + kw) * c_in + 4 q ..+
                        // 4`, inside `weights` since the tile's first
                        // channel plus `16 V` is at most `C_out` and `4 q +
                        // 4 <= c_in` (`fits`).
                        *w = unsafe {
                            _mm512_i32gather_epi32::<1>(
                                channel_offsets,
                                tap.as_ptr().add(16 * per_channel * v + 4 * q).cast(),
                            )
                        };
                        weight_sums[v] = _mm512_dpbusd_epi32(weight_sums[v], ones, *w);
                    }
                    for (sums, &(pixel, step)) in sums.iter_mut().zip(&pixels) {
                        // SAFETY: as above; the read is unaligned.
                        let four =
                            unsafe { pixel.add(4 * q * step).cast::<i32>().read_unaligned() };
                        let left = _mm512_xor_si512(_mm512_set1_epi32(four), flip);
                        for (sum, &w) in sums.iter_mut().zip(&w) {
                            *sum = _mm512_dpbusd_epi32(*sum, left, w);
                        }
                    }
                }
            }
        }
        let scale = _mm512_set1_epi32(128i32.wrapping_sub(tile.x_offset));
        let corrections = weight_sums.map(|w| _mm512_mullo_epi32(w, scale));
        let mut out = [[0i32; TILE_CHANNELS]; TILE_ROWS];
        for (out, sums) in out.iter_mut().zip(&sums) {
            for ((out, &sum), &correction) in out.chunks_exact_mut(16).zip(sums).zip(&corrections) {
                // SAFETY: `out` is 16 writable `i32`s; the store is unaligned.
                unsafe {
                    _mm512_storeu_si512(out.as_mut_ptr().cast(), _mm512_sub_epi32(sum, correction))
                };
            }
        }
        out
    }

    /// Bytes `at .. at + 16` of 16 channels' weights (channel `j` from
    /// `first + j * per_channel` in `tap`) as four vectors: vector `t`
    /// holds each channel's bytes `at + 4 t ..+ 4` in its lane. Inlined
    /// into [`sums`], whose features its instructions need (a function of
    /// its own with the features would be called, not inlined).
    ///
    /// # Safety
    ///
    /// The CPU has AVX-512 F and BW; `tap` holds `first + 15 * per_channel
    /// + at + 16` bytes.
    #[inline(always)]
    unsafe fn transposed(tap: &[i8], per_channel: usize, first: usize, at: usize) -> [__m512i; 4] {
        // Four channels a vector, one channel a 128-bit lane: dword `4 l +
        // t` of vector `g` is bytes `at + 4 t ..` of channel `4 g + l`.
        let mut quads = [_mm512_setzero_si512(); 4];
        for (g, quad) in quads.iter_mut().enumerate() {
            // SAFETY: the caller's; the loads are unaligned.
            unsafe {
                let lane = |l: usize| {
                    _mm_loadu_si128(
                        tap.as_ptr()
                            .add(first + (4 * g + l) * per_channel + at)
                            .cast(),
                    )
                };
                let v = _mm512_castsi128_si512(lane(0));
                let v = _mm512_inserti32x4::<1>(v, lane(1));
                let v = _mm512_inserti32x4::<2>(v, lane(2));
                *quad = _mm512_inserti32x4::<3>(v, lane(3));
            }
        }
        let mut out = [_mm512_setzero_si512(); 4];
        for (t, out) in out.iter_mut().enumerate() {
            let t = t as i32;
            // Dword `t` of each lane of two vectors: the first's four, then
            // the second's (an index from 16 picks the second vector).
            let pick = _mm512_setr_epi32(
                t,
                4 + t,
                8 + t,
                12 + t,
                16 + t,
                20 + t,
                24 + t,
                28 + t,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
            );
            let low = _mm512_permutex2var_epi32(quads[0], pick, quads[1]);
            let high = _mm512_permutex2var_epi32(quads[2], pick, quads[3]);
            *out = _mm512_inserti64x4::<1>(low, _mm512_castsi512_si256(high));
        }
        out
    }
}
