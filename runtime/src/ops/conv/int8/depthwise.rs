//! The int8 depthwise convolution's kernel channels last (each output
//! channel reads its one input channel: `groups` = `C_in` = `C_out`), as
//! TFLite's DEPTHWISE_CONV_2D with a depth multiplier of 1: the sums of a
//! tile of output positions by one or two blocks of 16 channels. Each tap
//! of a position reads the block's 16 input bytes where they are stored
//! (one load), widens them, adds the input's constant, and multiplies them
//! by the tap's 16 weights (copied once per evaluation into `i32`s, 16
//! channels side by side, [`pack`]): a multiply-add of 16 lanes per tap,
//! where the general path took each channel's taps one by one. A tap in
//! the padding adds nothing, as the convolution's definition reads it.
//!
//! With VNNI too: `vpdpbusd` sums four neighbouring bytes of one lane,
//! which a depthwise tap's one byte per channel does not fill.
//!
//! Compiled once in the runtime for each instruction-set level (the
//! kernels' one ladder, [`at_selected_level`]), whatever the expression.
//! The arithmetic wraps, as `i32` arithmetic does in a release build.

use super::portable::{lanes, NARROW};
use super::{Int8Tile, SumsOut, CHANNEL_BLOCK, TILE_ROWS};
use crate::kernel::{at_selected_level, Nest};
use crate::ops::conv::Position;
use crate::rules::conv::Geometry;
use alloc::vec::Vec;

/// The kernel's layout of `w` (`[C, kH, kW, 1]` bytes) plus the constant
/// `w_offset`: for each block of [`lanes`] channels and each tap, the
/// block's weights (zero past `C`).
///
/// # Panics
/// If `w` is shorter than the geometry's weights.
pub(super) fn pack(w: &[i8], g: &Geometry, w_offset: i32) -> Vec<i32> {
    let taps = g.kernel[0] * g.kernel[1];
    assert!(
        w.len() >= g.out_channels * taps,
        "int8 weights shorter than their geometry"
    );
    let lanes = lanes(g);
    let blocks = g.out_channels.div_ceil(lanes);
    let mut packed = alloc::vec![0; blocks * taps * lanes];
    for (channel, weights) in w.chunks_exact(taps).take(g.out_channels).enumerate() {
        let (block, lane) = (channel / lanes, channel % lanes);
        let block = &mut packed[block * taps * lanes..][..taps * lanes];
        for (tap, &weight) in weights.iter().enumerate() {
            block[tap * lanes + lane] = i32::from(weight).wrapping_add(w_offset);
        }
    }
    packed
}

/// Writes the tile's sums (its channels: at most `blocks`, 1 or 2, blocks
/// of 16 from its first, a multiple of 16) into `out`, at the selected
/// instruction-set level. The tile fits its convolution and `out`
/// ([`super::block`] checked it) and `weights` were packed for its
/// geometry.
pub(super) fn block(tile: &Int8Tile, blocks: usize, weights: &[i32], out: &mut SumsOut) {
    let kernel = Kernel {
        blocks,
        weights,
        stride: out.stride,
    };
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

    #[inline(always)]
    fn run_target(self, out: &mut [i32], tile: &Int8Tile, _first: usize) {
        debug_assert!(tile.positions.len() <= TILE_ROWS);
        let narrow = lanes(tile.geometry) == NARROW;
        let mut out = SumsOut {
            data: out,
            stride: self.stride,
        };
        for (r, p) in tile.positions.iter().enumerate() {
            if narrow {
                sums::<NARROW, 1>(tile, p, self.weights, &mut out, r);
            } else if self.blocks == 2 {
                sums::<CHANNEL_BLOCK, 2>(tile, p, self.weights, &mut out, r);
            } else {
                sums::<CHANNEL_BLOCK, 1>(tile, p, self.weights, &mut out, r);
            }
        }
    }
}

/// The sums of position `p` by `V` blocks of `B` channels from the tile's
/// first, into `out`'s row `r` (the tile's channels in them), from weights
/// packed `B` channels side by side: 16, or [`NARROW`] where that is
/// every channel.
#[inline(always)]
fn sums<const B: usize, const V: usize>(
    tile: &Int8Tile,
    p: &Position,
    weights: &[i32],
    out: &mut SumsOut,
    r: usize,
) {
    let g = tile.geometry;
    let first = p.channel / B;
    // Every block's channels are in each pixel but in a last block of a
    // count of channels not a multiple of `B`, whose pixels are read
    // aside.
    let sums = if (first + V) * B <= g.in_channels {
        window_sums::<B, V, true>(tile, p, first, weights)
    } else {
        window_sums::<B, V, false>(tile, p, first, weights)
    };
    let mut done = 0;
    for sums in &sums {
        let len = tile.channels.saturating_sub(done).min(B);
        out.row(r, done, len).copy_from_slice(&sums[..len]);
        done += len;
    }
}

/// The taps `k` of a window along `axis` whose input `o s + k d - pad` is
/// inside the input, for output `o`: one range, as the input grows with
/// `k` (empty where none is).
#[inline(always)]
fn taps_inside(o: usize, axis: usize, g: &Geometry) -> core::ops::Range<usize> {
    let (start, d, k_len) = (o * g.stride[axis], g.dilation[axis], g.kernel[axis]);
    let (pad, len) = (g.pad[axis], g.input[axis]);
    // The first tap at or past the padding before the input, and one past
    // the last before the padding after it; divided only at the borders.
    let first = if start >= pad {
        0
    } else {
        (pad - start).div_ceil(d)
    };
    let end = if start + (k_len - 1) * d < len + pad {
        k_len
    } else {
        (len + pad).saturating_sub(start).div_ceil(d)
    };
    first.min(k_len)..end.min(k_len)
}

/// The sums of `p`'s window for `V` blocks of `B` channels from block
/// `first` (all in the input where `WHOLE`, read in place; else the rest
/// of the input's, read aside). The taps inside the input are a range
/// along each axis, so that none is tested: each row's pixels are one
/// slice, and each tap a load of its bytes at a fixed step from the
/// previous, one of its weights, and a multiply-add per block.
#[inline(always)]
fn window_sums<const B: usize, const V: usize, const WHOLE: bool>(
    tile: &Int8Tile,
    p: &Position,
    first: usize,
    weights: &[i32],
) -> [[i32; B]; V] {
    let g = tile.geometry;
    let c_in = g.in_channels;
    let [kh_len, kw_len] = g.kernel;
    let taps = kh_len * kw_len;
    let c0 = first * B;
    let width = c_in.saturating_sub(c0).min(V * B);
    let (rows, columns) = (taps_inside(p.oh, 0, g), taps_inside(p.ow, 1, g));
    let tap_step = g.dilation[1] * c_in;
    let mut acc = [[0i32; B]; V];
    if columns.is_empty() {
        return acc;
    }
    let first_column = p.ow * g.stride[1] + columns.start * g.dilation[1] - g.pad[1];
    let span = (columns.len() - 1) * tap_step + width;
    for kh in rows {
        let ih = p.oh * g.stride[0] + kh * g.dilation[0] - g.pad[0];
        let start = ((p.n * g.input[0] + ih) * g.input[1] + first_column) * c_in + c0;
        let Some(pixels) = tile.x.get(start..start + span) else {
            unreachable!("the taps inside the input")
        };
        for (i, kw) in columns.clone().enumerate() {
            let tap = kh * kw_len + kw;
            let mut aside = [0i8; 2 * CHANNEL_BLOCK];
            let bytes = if WHOLE {
                &pixels[i * tap_step..][..V * B]
            } else {
                aside[..width].copy_from_slice(&pixels[i * tap_step..][..width]);
                &aside[..V * B]
            };
            for (v, acc) in acc.iter_mut().enumerate() {
                let x: &[i8; B] = bytes[v * B..][..B]
                    .try_into()
                    .unwrap_or_else(|_| unreachable!());
                let w = weights[((first + v) * taps + tap) * B..][..B]
                    .try_into()
                    .unwrap_or_else(|_| unreachable!());
                add_tap(acc, x, w, tile.x_offset);
            }
        }
    }
    acc
}

/// `acc += (x + cx) * w`, lane by lane.
#[inline(always)]
fn add_tap<const B: usize>(acc: &mut [i32; B], x: &[i8; B], w: &[i32; B], cx: i32) {
    for ((sum, &x), &w) in acc.iter_mut().zip(x).zip(w) {
        *sum = sum.wrapping_add(i32::from(x).wrapping_add(cx).wrapping_mul(w));
    }
}
