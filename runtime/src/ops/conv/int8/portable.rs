//! The int8 convolution's kernel without VNNI: the sums of a tile of
//! output positions by one or two blocks of 16 channels, from weights
//! copied once per evaluation into `i32`s, 16 channels side by side
//! ([`pack`]), so that each weight of the window is one load of a vector
//! per block, multiplied by each position's input (widened, plus its
//! constant, broadcast) and added to that position's sums. A tap in the
//! padding adds nothing, as the convolution's definition reads it.
//!
//! It is compiled once in the runtime, not once per expression: the
//! expression's tile only applies its epilogue to the sums. It sums every
//! int8 tile the VNNI and `pairs` kernels do not: on other architectures
//! (at each instruction-set level of the kernels' one ladder), at the SSE2
//! level, and for inputs or weights whose constants take their values past
//! `i16` (on x86-64, at the compile-time target's level: [`block`]).
//!
//! The arithmetic wraps, as `i32` arithmetic does in a release build.

use super::{tap_pixel, Int8Tile, SumsOut, CHANNEL_BLOCK, TILE_ROWS};
#[cfg(not(target_arch = "x86_64"))]
use crate::kernel::at_selected_level;
use crate::kernel::Nest;
use crate::ops::conv::{input_at, Position};
use crate::rules::conv::Geometry;
use alloc::vec::Vec;

/// The lanes of the weights of a convolution of at most 8 output
/// channels: a block of 16 would multiply as many zeros as weights.
const NARROW: usize = 8;

/// The lanes the packed weights of a convolution of `g` have side by
/// side: [`NARROW`] for at most that many output channels, else 16 (a
/// block of the VNNI kernel's).
pub(super) const fn lanes(g: &Geometry) -> usize {
    if g.out_channels <= NARROW {
        NARROW
    } else {
        CHANNEL_BLOCK
    }
}

/// The kernel's layout of `w` (`[C_out, kH, kW, C_in]` bytes) plus the
/// constant `w_offset`: for each block of [`lanes`] output channels and
/// each weight of a window, the block's weights (zero past `C_out`).
///
/// # Panics
/// If `w` is shorter than the geometry's weights.
pub(super) fn pack(w: &[i8], g: &Geometry, w_offset: i32) -> Vec<i32> {
    let per_channel = g.kernel[0] * g.kernel[1] * g.in_channels;
    assert!(
        w.len() >= g.out_channels * per_channel,
        "int8 weights shorter than their geometry"
    );
    let lanes = lanes(g);
    let blocks = g.out_channels.div_ceil(lanes);
    let mut packed = alloc::vec![0; blocks * per_channel * lanes];
    for (channel, weights) in w.chunks_exact(per_channel).take(g.out_channels).enumerate() {
        let (block, lane) = (channel / lanes, channel % lanes);
        let block = &mut packed[block * per_channel * lanes..][..per_channel * lanes];
        for (k, &weight) in weights.iter().enumerate() {
            block[k * lanes + lane] = i32::from(weight).wrapping_add(w_offset);
        }
    }
    packed
}

/// Writes the tile's sums (its channels: at most `blocks`, 1 or 2, blocks
/// of 16 from its first, a multiple of 16) into `out`. The tile fits its
/// convolution and `out` ([`super::block`] checked it) and `weights` were
/// packed for its geometry.
///
/// On x86-64 it runs at the compile-time target's level: where AVX2 is
/// selected, the `pairs` and VNNI kernels sum every tile but those of
/// constants past `i16`, so the kernel's AVX2 and AVX-512 copies (about
/// 20 KB in every program with an int8 convolution) would serve only
/// those. Elsewhere, at the selected level.
pub(super) fn block(tile: &Int8Tile, blocks: usize, weights: &[i32], out: &mut SumsOut) {
    let kernel = Kernel {
        blocks,
        weights,
        stride: out.stride,
    };
    #[cfg(target_arch = "x86_64")]
    kernel.run_target(out.data, tile, 0);
    #[cfg(not(target_arch = "x86_64"))]
    at_selected_level(kernel, out.data, tile, 0);
}

/// The kernel as a nest of the ladder: `out` holds the tile's rows of
/// sums, `stride` apart ([`SumsOut`]).
struct Kernel<'w> {
    blocks: usize,
    weights: &'w [i32],
    stride: usize,
}

impl Nest<i32, Int8Tile<'_>> for Kernel<'_> {
    #[inline(always)]
    #[rustfmt::skip]
    fn run<const L: usize, const ROWS: usize, const WIDE: usize, const ROW_WIDE: usize, const FUSE: bool>(self, out: &mut [i32], tile: &Int8Tile, _first: usize) {
        self.run_target(out, tile, 0);
    }

    /// Integer sums: no multiply-add to fuse.
    const FUSES: bool = false;

    #[inline(always)]
    fn run_target(self, out: &mut [i32], tile: &Int8Tile, _first: usize) {
        debug_assert!(tile.positions.len() <= TILE_ROWS);
        let narrow = lanes(tile.geometry) == NARROW;
        let mut out = SumsOut {
            data: out,
            stride: self.stride,
        };
        for (chunk, positions) in tile.positions.chunks(POSITIONS).enumerate() {
            for block in 0..self.blocks {
                let first_row = chunk * POSITIONS;
                if narrow {
                    sums::<NARROW>(tile, positions, 0, self.weights, &mut out, first_row);
                } else {
                    sums::<CHANNEL_BLOCK>(
                        tile,
                        positions,
                        block,
                        self.weights,
                        &mut out,
                        first_row,
                    );
                }
            }
        }
    }
}

/// The positions summed together, each's sums in registers: a tile of 8
/// is two passes over the weights (which stay in the first level of
/// cache), one of fewer than 4 a pass with the others' pixels empty.
/// One count, so that the kernel is compiled once per level and lanes.
const POSITIONS: usize = 4;

/// The sums of up to [`POSITIONS`] positions by block `block` (0 or 1) of
/// 16 channels from the tile's first, into `out`'s rows from `first_row`
/// (the tile's channels in that block), from weights packed `B` channels
/// side by side: 16, or [`NARROW`] where that is every channel (the block
/// is then the convolution's only one).
#[inline(always)]
fn sums<const B: usize>(
    tile: &Int8Tile,
    positions: &[Position],
    block: usize,
    weights: &[i32],
    out: &mut SumsOut,
    first_row: usize,
) {
    let g = tile.geometry;
    let [kh_len, kw_len] = g.kernel;
    let c_in = g.in_channels;
    let per_channel = kh_len * kw_len * c_in;
    let block_len = per_channel * B;
    let first = positions[0].channel / B + block;
    let weights = &weights[first * block_len..][..block_len];
    let mut sums = [[0i32; B]; POSITIONS];
    // A row of the window is read as one pixel of `kW c_in` bytes where
    // every position has the whole row inside the input (with few input
    // channels, a tap at a time is mostly overhead), else tap by tap.
    let by_rows = kw_len > 1 && g.dilation[1] == 1 && c_in < CHANNEL_BLOCK;
    for kh in 0..kh_len {
        let mut pixels: [&[i8]; POSITIONS] = [&[]; POSITIONS];
        let mut whole = by_rows;
        if by_rows {
            for (row, p) in pixels.iter_mut().zip(positions) {
                match tap_row(tile.x, g, p, kh) {
                    Row::Inside(bytes) => *row = bytes,
                    Row::Padding => {}
                    Row::Partly => whole = false,
                }
            }
        }
        let (pieces, piece_len) = if whole {
            (1, kw_len * c_in)
        } else {
            (kw_len, c_in)
        };
        for kw in 0..pieces {
            if !whole {
                for (pixel, p) in pixels.iter_mut().zip(positions) {
                    *pixel = tap_pixel(tile.x, g, p, kh, kw).unwrap_or(&[]);
                }
            }
            let taps = &weights[(kh * kw_len + kw) * c_in * B..][..piece_len * B];
            add_taps(&mut sums, &pixels, taps, tile.x_offset);
        }
    }
    let len = tile.channels.saturating_sub(block * B).min(B);
    for (r, sums) in sums.iter().enumerate().take(positions.len()) {
        out.row(first_row + r, block * B, len)
            .copy_from_slice(&sums[..len]);
    }
}

/// Adds to each position's sums its `pixels` bytes (an empty one in the
/// padding: nothing added), each plus `cx`, times the weights of `taps`
/// (`B` channels' a byte). Byte by byte, each position's sums a vector:
/// one load of the byte's weights serves every position.
#[inline(always)]
fn add_taps<const B: usize>(
    sums: &mut [[i32; B]; POSITIONS],
    pixels: &[&[i8]; POSITIONS],
    taps: &[i32],
    cx: i32,
) {
    let (taps, []) = taps.as_chunks::<B>() else {
        unreachable!("whole blocks of weights")
    };
    let mut acc = *sums;
    for (k, w) in taps.iter().enumerate() {
        for (acc, pixel) in acc.iter_mut().zip(pixels) {
            let x = pixel.get(k).map_or(0, |&x| i32::from(x).wrapping_add(cx));
            for (sum, &w) in acc.iter_mut().zip(w) {
                *sum = sum.wrapping_add(x.wrapping_mul(w));
            }
        }
    }
    *sums = acc;
}

/// How a row of a position's window lies in the input.
enum Row<'x> {
    /// Every tap inside: the row's `kW c_in` bytes.
    Inside(&'x [i8]),
    /// The whole row in the vertical padding.
    Padding,
    /// Some taps in the horizontal padding.
    Partly,
}

/// Row `kh` of `p`'s window (dilation 1 along it).
#[inline(always)]
fn tap_row<'x>(x: &'x [i8], g: &Geometry, p: &Position, kh: usize) -> Row<'x> {
    let Some(ih) = input_at(p.oh, kh, 0, g) else {
        return Row::Padding;
    };
    let first = (p.ow * g.stride[1]).wrapping_sub(g.pad[1]);
    let len = g.kernel[1] * g.in_channels;
    if first >= g.input[1] || first + g.kernel[1] > g.input[1] {
        return Row::Partly;
    }
    let start = ((p.n * g.input[0] + ih) * g.input[1] + first) * g.in_channels;
    match x.get(start..start + len) {
        Some(bytes) => Row::Inside(bytes),
        None => Row::Partly,
    }
}
