//! The `f32` convolution's tiles compiled once in the runtime, in AVX-512
//! registers, whatever the expression.
//!
//! The general paths (`Convolution::channel_rows` and `pixel_dots`,
//! compiled per expression) leave the vector width to LLVM, whose tuning
//! for some CPUs with AVX-512 (Intel's server parts, and a native build's)
//! prefers 256-bit vectors. Each kernel here computes the same sums as its
//! general path in every bit: the same fused multiply-adds in the same
//! order, the same taps skipped or read as zero.
//!
//! - **Channels first** ([`tile`]): 8 output channels by 32 columns of one
//!   output row, a stride of 1 along the row. 16 accumulators of 16
//!   lanes; each tap's 32 columns are two loads masked to the input row
//!   (the lanes in the padding read as zero, as the general path reads
//!   them, where it read a border tile's taps element by element), each
//!   tap's weight one broadcast per channel. Narrower tiles (a row's last
//!   columns) keep the general path, whose narrower vectors measured
//!   faster there.
//! - **Channels last** ([`pixels`]): 4 or 8 output positions of one row by
//!   a multiple of 4 output channels, at least 16 input channels a group.
//!   Each output is the general path's dot product: 16 lanes of
//!   partial sums along the input channels, folded in lane order at the
//!   end. Here 4 positions by 4 channels are 16 accumulators, so each
//!   input vector is loaded once for 4 channels and each weight vector
//!   once for 4 positions (the general path loads both for every
//!   multiply-add); a tap in the padding is skipped for its position. The
//!   16 accumulators are transposed, so that the lane-order fold is 16
//!   vector adds.
//! - **Transposed, channels first** ([`transposed`]): 8 output channels
//!   by 8, 16 or 32 columns of one output row of a transposed convolution
//!   (1-D or 2-D) with a stride of 2 along the row (a decoder's
//!   upsampling). Each tap
//!   of the kernel reaches every other output column, so the columns are
//!   summed as two phases (the even and the odd ones), each a vector of
//!   contiguous input columns: one masked load a tap, no product by a
//!   column the tap does not reach, where the general path gathers the
//!   tap's window element by element and multiplies its zeros. The phases
//!   are interleaved at the end. The general path's products by those
//!   zeros add nothing (its sums start at `+0` and never become `-0`),
//!   so the bits are the same for finite weights.
//!
//! A tile a kernel does not take (another element type or instruction
//! set, another geometry, a tile that does not fit its inputs) is left to
//! the general path: the functions return false.

use super::channels_last::DOT_LANES;
use crate::rules::conv::Geometry;

/// The output channels of a tile.
pub(crate) const TILE_CHANNELS: usize = 8;

/// The output columns of a tile.
pub(crate) const TILE_COLUMNS: usize = 32;

/// One tile of an `f32` convolution channels first: `TILE_CHANNELS`
/// consecutive output channels of one group by `TILE_COLUMNS` columns of
/// output row `oh` from column `ow`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct FloatTile<'a> {
    /// The input planes the group reads, of one image: `in_channels /
    /// groups` planes of `H * W`.
    pub(crate) planes: &'a [f32],
    /// The tile's channels' weights: for each channel, `in_channels /
    /// groups` planes of `kH * kW`.
    pub(crate) weights: &'a [f32],
    /// The sizes.
    pub(crate) geometry: &'a Geometry,
    /// The output row.
    pub(crate) oh: usize,
    /// The first output column.
    pub(crate) ow: usize,
}

/// Writes the tile's sums into `out` (channel `r`'s [`TILE_COLUMNS`]
/// sums at `out[r * TILE_COLUMNS..]`) where the CPU has AVX-512 (the
/// selected level, or the compile-time target's), the convolution is
/// channels first with a stride of 1 along the row, and the slices hold
/// what the geometry says; false, `out` untouched, otherwise.
///
/// Only whole tiles: a narrower one (a row's last columns) does the
/// per-tap work of a whole one for fewer sums, and the general path's
/// narrower vectors measured faster there.
#[inline(always)]
pub(crate) fn tile(tile: &FloatTile, out: &mut [f32]) -> bool {
    let g = tile.geometry;
    let per_group = g.in_channels / g.groups;
    let fits = !g.channels_last
        && g.stride[1] == 1
        && tile.oh < g.output[0]
        && out.len() >= TILE_CHANNELS * TILE_COLUMNS
        && tile.planes.len() >= per_group * g.input[0] * g.input[1]
        && tile.weights.len() >= TILE_CHANNELS * per_group * g.kernel[0] * g.kernel[1];
    #[cfg(target_arch = "x86_64")]
    if fits && available() {
        // SAFETY: the CPU has AVX-512F (`available`), and the slices hold
        // the planes, weights and sums the geometry says (`fits`).
        unsafe { x86::tile(tile, out) };
        return true;
    }
    let _ = (fits, out);
    false
}

/// One tile of an `f32` convolution channels last: `positions`
/// consecutive output positions of one output row by `channels`
/// consecutive output channels of one group.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct PixelTile<'a> {
    /// The input, `[N, H, W, C_in]`.
    pub(crate) x: &'a [f32],
    /// The tile's channels' weights: for each channel, `kH * kW` taps of
    /// `in_channels / groups`.
    pub(crate) weights: &'a [f32],
    /// The sizes.
    pub(crate) geometry: &'a Geometry,
    /// The image.
    pub(crate) n: usize,
    /// The output row.
    pub(crate) oh: usize,
    /// The first output column.
    pub(crate) ow: usize,
    /// The group's first input channel.
    pub(crate) first_input: usize,
    /// The tile's positions: 4 or 8.
    pub(crate) positions: usize,
    /// The tile's channels: a multiple of 4.
    pub(crate) channels: usize,
}

/// Writes the tile's sums into `out` (position `r`'s `channels` sums at
/// `out[r * channels..]`) where the CPU has AVX-512, the convolution is
/// channels last with at least 16 input channels a group, the tile
/// is 4 or 8 positions of one row by a multiple of 4 channels, and the
/// slices hold what the geometry says; false, `out` untouched, otherwise.
#[inline(always)]
pub(crate) fn pixels(tile: &PixelTile, out: &mut [f32]) -> bool {
    let g = tile.geometry;
    let per_group = g.in_channels / g.groups;
    let fits = g.channels_last
        && per_group >= DOT_LANES
        && matches!(tile.positions, 4 | 8)
        && tile.channels.is_multiple_of(4)
        && tile.n < g.batch
        && tile.oh < g.output[0]
        && tile.first_input + per_group <= g.in_channels
        && out.len() >= tile.positions * tile.channels
        && tile.x.len() >= g.batch * g.input[0] * g.input[1] * g.in_channels
        && tile.weights.len() >= tile.channels * per_group * g.kernel[0] * g.kernel[1];
    #[cfg(target_arch = "x86_64")]
    if fits && available() {
        // SAFETY: the CPU has AVX-512F (`available`), and the slices hold
        // the input, weights and sums the geometry and the tile say
        // (`fits`).
        unsafe { x86::pixels(tile, out) };
        return true;
    }
    let _ = (fits, out);
    false
}

/// One tile of an `f32` transposed convolution channels first:
/// `TILE_CHANNELS` consecutive output channels of one group (from `co`
/// within it) by `columns` columns of output row `oh` from column `ow`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct TransposedTile<'a> {
    /// The input planes the group reads, of one image: `in_channels /
    /// groups` planes of `H * W`.
    pub(crate) planes: &'a [f32],
    /// The group's weights: for each of its input channels, `out_channels
    /// / groups` output channels of `kH * kW` taps.
    pub(crate) weights: &'a [f32],
    /// The sizes (the input's, and the output's along with them).
    pub(crate) geometry: &'a Geometry,
    /// The tile's first output channel within its group.
    pub(crate) co: usize,
    /// The output row.
    pub(crate) oh: usize,
    /// The first output column.
    pub(crate) ow: usize,
    /// The tile's columns: 8, 16 or 32.
    pub(crate) columns: usize,
}

/// The most taps of a window the transposed kernel takes (a 5 x 5
/// window's 25 fit): past it, the general path.
const MAX_TRANSPOSED_TAPS: usize = 32;

/// One tap of a transposed tile's phase ([`transposed`]).
#[derive(Clone, Copy, Default)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
struct TransposedTap {
    /// The run's first input column from its plane's first element
    /// (negative where its first lanes lie before the row).
    column: i32,
    /// The lanes whose columns lie inside the row.
    lanes: u16,
    /// The tap's index in the window, `kh * kW + kw`.
    tap: u16,
}

/// Writes the tile's sums into `out` (channel `r`'s `columns` sums at
/// `out[r * columns..]`) where the CPU has AVX-512, the transposed
/// convolution is channels first (1-D or 2-D) with a stride of 2 along the row,
/// the tile's channels lie in its group, and the slices hold what the
/// geometry says; false, `out` untouched, otherwise.
#[inline(always)]
pub(crate) fn transposed(tile: &TransposedTile, out: &mut [f32]) -> bool {
    let g = tile.geometry;
    let (in_per_group, out_per_group) = (g.in_channels / g.groups, g.out_channels / g.groups);
    let fits = !g.channels_last
        && g.stride[1] == 2
        && matches!(tile.columns, 8 | 16 | 32)
        && g.kernel[0] * g.kernel[1] <= MAX_TRANSPOSED_TAPS
        && g.input[0] * g.input[1] <= i32::MAX as usize
        && tile.co + TILE_CHANNELS <= out_per_group
        && tile.oh < g.output[0]
        && out.len() >= TILE_CHANNELS * tile.columns
        && tile.planes.len() >= in_per_group * g.input[0] * g.input[1]
        && tile.weights.len() >= in_per_group * out_per_group * g.kernel[0] * g.kernel[1];
    #[cfg(target_arch = "x86_64")]
    if fits && available() {
        // SAFETY: the CPU has AVX-512F (`available`), and the slices hold
        // the planes, weights and sums the geometry says (`fits`).
        unsafe { x86::transposed(tile, out) };
        return true;
    }
    let _ = (fits, out);
    false
}

/// Whether the kernels run: AVX-512 known at compile time, or selected
/// at run time ([`crate::isa`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn available() -> bool {
    cfg!(target_feature = "avx512f") || crate::isa::selected() >= crate::isa::Level::Avx512
}

/// The lanes of a run of [`TILE_COLUMNS`] from input column `start` whose
/// column lies in a row of `width` columns: bit `j` for column `start +
/// j`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn inside(start: isize, width: usize) -> u32 {
    let first = (-start).clamp(0, 32) as u32;
    let end = (width as isize - start).clamp(0, 32) as u32;
    let below = |n: u32| ((1u64 << n) - 1) as u32;
    below(end) & !below(first)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::channels_last::DOT_LANES;
    use super::{
        inside, FloatTile, PixelTile, TransposedTap, TransposedTile, MAX_TRANSPOSED_TAPS,
        TILE_CHANNELS, TILE_COLUMNS,
    };
    use crate::ops::conv::{input_at, input_index, transposed_input_at};
    use core::arch::x86_64::{
        __m512, _mm512_add_ps, _mm512_castpd_ps, _mm512_castps_pd, _mm512_extractf32x4_ps,
        _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_maskz_loadu_ps, _mm512_permutex2var_ps,
        _mm512_set1_ps, _mm512_setr_epi32, _mm512_setzero_ps, _mm512_shuffle_f32x4,
        _mm512_storeu_ps, _mm512_unpackhi_pd, _mm512_unpackhi_ps, _mm512_unpacklo_pd,
        _mm512_unpacklo_ps, _mm_storeu_ps,
    };

    /// [`super::tile`]'s sums.
    ///
    /// # Safety
    /// The CPU must have AVX-512F; `t`'s slices hold the planes and
    /// weights its geometry says, `out` a whole tile's sums.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn tile(t: &FloatTile, out: &mut [f32]) {
        let g = t.geometry;
        let [kh_len, kw_len] = g.kernel;
        let [height, width] = g.input;
        let per_group = g.in_channels / g.groups;
        let taps = kh_len * kw_len;
        let channel_weights = per_group * taps;
        // Read through a pointer: indexed, each of a tap's eight weights
        // was a bound check in the loop.
        let weights = t.weights[..TILE_CHANNELS * channel_weights].as_ptr();
        let mut sums = [[_mm512_setzero_ps(); 2]; TILE_CHANNELS];
        for ci in 0..per_group {
            let plane = &t.planes[ci * height * width..][..height * width];
            for kh in 0..kh_len {
                let Some(ih) = input_at(t.oh, kh, 0, g) else {
                    continue;
                };
                let row = plane[ih * width..][..width].as_ptr();
                for kw in 0..kw_len {
                    let start = (t.ow + kw * g.dilation[1]) as isize - g.pad[1] as isize;
                    let lanes = inside(start, width);
                    let first = row.wrapping_offset(start);
                    // SAFETY: a masked load reads only its mask's lanes,
                    // here the run's columns inside the row.
                    let (low, high) = unsafe {
                        (
                            _mm512_maskz_loadu_ps(lanes as u16, first),
                            _mm512_maskz_loadu_ps((lanes >> 16) as u16, first.wrapping_add(16)),
                        )
                    };
                    let tap = weights.wrapping_add(ci * taps + kh * kw_len + kw);
                    for (r, sum) in sums.iter_mut().enumerate() {
                        // SAFETY: channel `r`'s weight of the tap, inside
                        // the slice of the tile's channels' weights.
                        let w = _mm512_set1_ps(unsafe { *tap.wrapping_add(r * channel_weights) });
                        sum[0] = _mm512_fmadd_ps(w, low, sum[0]);
                        sum[1] = _mm512_fmadd_ps(w, high, sum[1]);
                    }
                }
            }
        }
        for (values, sum) in out.chunks_exact_mut(TILE_COLUMNS).zip(sums) {
            // SAFETY: 16 floats from element 0 and from element 16 of a
            // chunk of 32.
            unsafe {
                _mm512_storeu_ps(values.as_mut_ptr(), sum[0]);
                _mm512_storeu_ps(values.as_mut_ptr().add(16), sum[1]);
            }
        }
    }

    /// [`super::transposed`]'s sums.
    ///
    /// # Safety
    /// The CPU must have AVX-512F; `t`'s slices hold the planes and
    /// weights its geometry says, `out` the tile's sums.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn transposed(t: &TransposedTile, out: &mut [f32]) {
        let g = t.geometry;
        let [kh_len, kw_len] = g.kernel;
        let [height, width] = g.input;
        let (in_per_group, out_per_group) = (g.in_channels / g.groups, g.out_channels / g.groups);
        let taps = kh_len * kw_len;
        // The lanes of each phase the tile has: half its columns.
        let half = t.columns / 2;
        let phase_lanes = ((1u32 << half) - 1) as u16;
        // Read through a pointer: indexed, each of a tap's eight weights
        // was a bound check in the loop.
        let weights = t.weights[..in_per_group * out_per_group * taps].as_ptr();
        // The tile's taps, found once for every input channel: for each
        // tap whose row lands in the input, its run's first column in the
        // plane, its lanes inside the row and its weight's index, listed
        // by phase in the taps' order.
        let mut phases = [[TransposedTap::default(); MAX_TRANSPOSED_TAPS]; 2];
        let mut counts = [0usize; 2];
        for kh in 0..kh_len {
            let Some(ih) = transposed_input_at(t.oh, kh, 0, g) else {
                continue;
            };
            for kw in 0..kw_len {
                // Output column `ow + j` takes this tap from input column
                // `(base + j) / 2` where `base + j` is even: the columns
                // of phase `base mod 2`, lane `i` from column `(base +
                // phase) / 2 + i`.
                let base = (t.ow + g.pad[1]) as isize - (kw * g.dilation[1]) as isize;
                let phase = base.rem_euclid(2) as usize;
                let start = (base + phase as isize) / 2;
                let lanes = inside(start, width) as u16 & phase_lanes;
                if lanes == 0 {
                    continue;
                }
                let Some(slot) = phases[phase].get_mut(counts[phase]) else {
                    unreachable!("at most `MAX_TRANSPOSED_TAPS` taps (`super::transposed`)")
                };
                // (In range: the plane has at most `i32::MAX` elements,
                // the window at most `MAX_TRANSPOSED_TAPS` taps.)
                *slot = TransposedTap {
                    column: ((ih * width) as isize + start) as i32,
                    lanes,
                    tap: (kh * kw_len + kw) as u16,
                };
                counts[phase] += 1;
            }
        }
        let [even_taps, odd_taps] = &phases;
        let (even_taps, odd_taps) = (&even_taps[..counts[0]], &odd_taps[..counts[1]]);
        // Lane `i` of `even[r]` and `odd[r]`: channel `r`'s output column
        // `ow + 2 i` and `ow + 2 i + 1`. Each phase's taps are added to
        // its own sums, in the taps' order, as the general path adds
        // them column by column.
        let mut even = [_mm512_setzero_ps(); TILE_CHANNELS];
        let mut odd = [_mm512_setzero_ps(); TILE_CHANNELS];
        for ci in 0..in_per_group {
            let plane = t.planes[ci * height * width..][..height * width].as_ptr();
            let channel_taps = weights.wrapping_add((ci * out_per_group + t.co) * taps);
            // SAFETY: each tap's lanes are columns inside its row of the
            // plane; its weights of channels `co..co + 8` lie inside the
            // group's (`co + 8` is at most the group's output channels).
            unsafe {
                add_taps(&mut even, plane, channel_taps, even_taps, taps);
                add_taps(&mut odd, plane, channel_taps, odd_taps, taps);
            }
        }
        // Lane `i` of the interleaved vectors: phase `i mod 2`'s lane
        // `i / 2` (from 8 for the second).
        let low = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
        let high = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
        for ((values, even), odd) in out.chunks_exact_mut(t.columns).zip(even).zip(odd) {
            let mut row = [0f32; TILE_COLUMNS];
            // SAFETY: 16 floats from element 0 and from element 16 of 32.
            unsafe {
                _mm512_storeu_ps(row.as_mut_ptr(), _mm512_permutex2var_ps(even, low, odd));
                _mm512_storeu_ps(
                    row.as_mut_ptr().add(16),
                    _mm512_permutex2var_ps(even, high, odd),
                );
            }
            values.copy_from_slice(&row[..t.columns]);
        }
    }

    /// Adds each of `list`'s taps of one input channel (its `plane`, its
    /// weights from `weights`, channel `r`'s `r * taps` on) to `sums`:
    /// the tap's run of input columns times each channel's weight,
    /// broadcast.
    ///
    /// # Safety
    /// The CPU must have AVX-512F; each tap's lanes from its column are
    /// readable in `plane`, and its weight of each channel `r` at
    /// `weights.add(tap + r * taps)`.
    #[inline(always)]
    unsafe fn add_taps(
        sums: &mut [__m512; TILE_CHANNELS],
        plane: *const f32,
        weights: *const f32,
        list: &[TransposedTap],
        taps: usize,
    ) {
        for tap in list {
            // SAFETY: the caller's; a masked load reads only its lanes.
            let x = unsafe {
                _mm512_maskz_loadu_ps(tap.lanes, plane.wrapping_offset(tap.column as isize))
            };
            let w = weights.wrapping_add(usize::from(tap.tap));
            for (r, sum) in sums.iter_mut().enumerate() {
                // SAFETY: the caller's.
                let w = _mm512_set1_ps(unsafe { *w.add(r * taps) });
                *sum = _mm512_fmadd_ps(w, x, *sum);
            }
        }
    }

    /// [`super::pixels`]'s sums, 4 positions by 4 channels at a time.
    ///
    /// # Safety
    /// The CPU must have AVX-512F; `t`'s slices hold the input and weights
    /// its geometry says, `out` its positions by channels, and its group's
    /// input channels lie from `first_input` in each pixel.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn pixels(t: &PixelTile, out: &mut [f32]) {
        let g = t.geometry;
        let [kh_len, kw_len] = g.kernel;
        let per_group = g.in_channels / g.groups;
        let per_channel = kh_len * kw_len * per_group;
        for p0 in (0..t.positions).step_by(4) {
            for c0 in (0..t.channels).step_by(4) {
                let mut sums = [_mm512_setzero_ps(); 16];
                for kh in 0..kh_len {
                    let Some(ih) = input_at(t.oh, kh, 0, g) else {
                        continue;
                    };
                    for kw in 0..kw_len {
                        // Each position's pixel of the tap from the group's
                        // first input channel, a checked slice (`None` in
                        // the padding); each channel's weights of the tap.
                        let mut pixel: [Option<&[f32]>; 4] = [None; 4];
                        for (p, pixel) in pixel.iter_mut().enumerate() {
                            if let Some(iw) = input_at(t.ow + p0 + p, kw, 1, g) {
                                let at = input_index(g, t.n, t.first_input, ih, iw);
                                *pixel = Some(&t.x[at..][..per_group]);
                            }
                        }
                        let tap = (kh * kw_len + kw) * per_group;
                        let mut weights: [&[f32]; 4] = [&[]; 4];
                        for (c, w) in weights.iter_mut().enumerate() {
                            *w = &t.weights[(c0 + c) * per_channel + tap..][..per_group];
                        }
                        // One block of input channels from `b`, the lanes
                        // `lanes` (16, or the tail's: the general path
                        // leaves the lanes past it alone; here they add
                        // zero, which the fold from zero cannot tell
                        // apart). Whole blocks take plain loads (masked
                        // ones measured 6-8% slower).
                        let mut block = |b: usize, lanes: u16| {
                            let load = |p: *const f32| {
                                // SAFETY: `p` is a slice's element `b`, and
                                // the lanes read lie below its length (a
                                // masked load reads only its lanes).
                                unsafe {
                                    if lanes == u16::MAX {
                                        _mm512_loadu_ps(p)
                                    } else {
                                        _mm512_maskz_loadu_ps(lanes, p)
                                    }
                                }
                            };
                            let mut w = [_mm512_setzero_ps(); 4];
                            for (w, weights) in w.iter_mut().zip(weights) {
                                *w = load(weights.as_ptr().wrapping_add(b));
                            }
                            for (p, pixel) in pixel.iter().enumerate() {
                                if let Some(pixel) = pixel {
                                    let x = load(pixel.as_ptr().wrapping_add(b));
                                    for (c, &w) in w.iter().enumerate() {
                                        sums[p * 4 + c] = _mm512_fmadd_ps(w, x, sums[p * 4 + c]);
                                    }
                                }
                            }
                        };
                        let whole = per_group / DOT_LANES * DOT_LANES;
                        for b in (0..whole).step_by(DOT_LANES) {
                            block(b, u16::MAX);
                        }
                        if whole < per_group {
                            block(whole, ((1u32 << (per_group - whole)) - 1) as u16);
                        }
                    }
                }
                // Lane `k` of the fold is output `k` (position `k / 4`,
                // channel `k % 4`): its lanes added in order, from zero.
                let mut folded = _mm512_setzero_ps();
                for lane in transpose(sums) {
                    folded = _mm512_add_ps(folded, lane);
                }
                let rows = [
                    _mm512_extractf32x4_ps::<0>(folded),
                    _mm512_extractf32x4_ps::<1>(folded),
                    _mm512_extractf32x4_ps::<2>(folded),
                    _mm512_extractf32x4_ps::<3>(folded),
                ];
                for (p, row) in rows.into_iter().enumerate() {
                    let to = &mut out[(p0 + p) * t.channels + c0..][..4];
                    // SAFETY: four floats into a checked slice of four.
                    unsafe { _mm_storeu_ps(to.as_mut_ptr(), row) };
                }
            }
        }
    }

    /// The 16 x 16 transpose of `rows`: lane `k` of result `l` is lane `l`
    /// of `rows[k]`. Interleaves of 32 and then 64 bits within each
    /// 128-bit block, then the blocks moved across vectors.
    #[target_feature(enable = "avx512f")]
    fn transpose(rows: [__m512; 16]) -> [__m512; 16] {
        let mut pairs = [_mm512_setzero_ps(); 16];
        for i in 0..8 {
            pairs[2 * i] = _mm512_unpacklo_ps(rows[2 * i], rows[2 * i + 1]);
            pairs[2 * i + 1] = _mm512_unpackhi_ps(rows[2 * i], rows[2 * i + 1]);
        }
        // `quads[4 q + e]`, block `j`: lane `4 j + e` of rows `4 q..4 q + 4`.
        let mut quads = [_mm512_setzero_ps(); 16];
        for q in 0..4 {
            for e in 0..4 {
                let (a, b) = (
                    _mm512_castps_pd(pairs[4 * q + e / 2]),
                    _mm512_castps_pd(pairs[4 * q + 2 + e / 2]),
                );
                let interleaved = if e % 2 == 0 {
                    _mm512_unpacklo_pd(a, b)
                } else {
                    _mm512_unpackhi_pd(a, b)
                };
                quads[4 * q + e] = _mm512_castpd_ps(interleaved);
            }
        }
        let mut lanes = [_mm512_setzero_ps(); 16];
        for e in 0..4 {
            let [x0, x1, x2, x3] = [quads[e], quads[4 + e], quads[8 + e], quads[12 + e]];
            let front = _mm512_shuffle_f32x4::<0x44>(x0, x1);
            let back = _mm512_shuffle_f32x4::<0x44>(x2, x3);
            lanes[e] = _mm512_shuffle_f32x4::<0x88>(front, back);
            lanes[4 + e] = _mm512_shuffle_f32x4::<0xdd>(front, back);
            let front = _mm512_shuffle_f32x4::<0xee>(x0, x1);
            let back = _mm512_shuffle_f32x4::<0xee>(x2, x3);
            lanes[8 + e] = _mm512_shuffle_f32x4::<0x88>(front, back);
            lanes[12 + e] = _mm512_shuffle_f32x4::<0xdd>(front, back);
        }
        lanes
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::inside;

    #[test]
    fn inside_marks_the_columns_within_the_row() {
        assert_eq!(inside(0, 56), u32::MAX);
        assert_eq!(inside(-1, 56), u32::MAX << 1);
        assert_eq!(inside(25, 56), u32::MAX >> 1);
        assert_eq!(inside(-3, 2), 0b11 << 3);
        assert_eq!(inside(-40, 56), 0);
        assert_eq!(inside(56, 56), 0);
        assert_eq!(inside(0, 40), u32::MAX);
    }
}
