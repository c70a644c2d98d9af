//! The `f32` convolution's tile channels first, 8 output channels by 32
//! columns of one output row, in AVX-512 registers, compiled once in the
//! runtime whatever the expression.
//!
//! The general path (`Convolution::channel_rows`, compiled per expression)
//! leaves the vector width to LLVM, whose tuning for some CPUs with
//! AVX-512 (Intel's server parts, and a native build's) prefers 256-bit
//! vectors, and reads the taps of a tile on the padded border element by
//! element. Here the tile is 16 accumulators of 16 lanes whatever the
//! tuning, and every tap of a window's row is two loads masked to the
//! input row: the lanes in the padding read as zero, as the general path
//! reads them, so the sums are the same in every bit (the same fused
//! multiply-adds in the same order: input channel, kernel row, kernel
//! column). Each tap's weight is one broadcast per output channel.
//!
//! A tile it does not take (another element type or instruction set, a
//! stride along the row, a tile that does not fit its inputs) is left to
//! the general path: [`tile`] returns false.

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

/// Whether the kernel runs: AVX-512 known at compile time, or selected
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
    use super::{inside, FloatTile, TILE_CHANNELS, TILE_COLUMNS};
    use crate::ops::conv::input_at;
    use core::arch::x86_64::{
        _mm512_fmadd_ps, _mm512_maskz_loadu_ps, _mm512_set1_ps, _mm512_setzero_ps, _mm512_storeu_ps,
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
