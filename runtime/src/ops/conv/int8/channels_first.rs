//! An int8 layer channels first (`layout = nchw` / `ncw`, PyTorch's and
//! ONNX's) stored by the layer kernels channels last ([`super::store_layer`]):
//! the input copied channels last (`[N, C_in, H, W]` to `[N, H, W, C_in]`),
//! the weights too where the layouts differ (`[C_out, C_in / groups, kH,
//! kW]` to `[C_out, kH, kW, C_in / groups]`: not for a 1x1 or a depthwise
//! kernel, whose two layouts are the same bytes), the layer stored into a
//! buffer channels last and copied into the output channels first.
//!
//! The kernels sum a tile as positions by channels, each position's input
//! channels side by side: the layout the copies give them. The copies
//! are the kernels' own packing's kind of cost, linear in the bytes, where
//! the general path, per expression, reads channels first with a bounds
//! check per tap and no VNNI (PERFORMANCE.md, "Int8 layers channels
//! first").

use super::{channels_last, Int8Tile, LayerKernel};
use crate::expr::Requantization;
use crate::rules::conv::Geometry;
use crate::scratch::{scratch_len, Scratch};
use core::mem::MaybeUninit;

/// [`super::store_layer`] channels first, for a layer that fits its
/// inputs, `out` and the epilogue: false, `out` untouched, where no layer
/// kernel stores the convolution channels last. The copies, then the
/// kernel's buffers, come from `scratch` ([`scratch_bytes`] and the
/// kernel's).
pub(super) fn store_layer(
    layer: &Int8Tile,
    epilogue: &Requantization<'_>,
    out: &mut [MaybeUninit<i8>],
    scratch: &mut Scratch<'_>,
) -> bool {
    let g = layer.geometry;
    let last = channels_last(g);
    let channels_last_layer = Int8Tile {
        geometry: &last,
        ..*layer
    };
    if LayerKernel::of(&channels_last_layer).is_none() {
        return false;
    }
    let [x_len, w_len, out_len] = copies(g);
    let (pixels, positions) = (g.input[0] * g.input[1], g.output[0] * g.output[1]);
    let mut x_last = scratch.uninit(x_len);
    for (image, to) in layer.x[..x_len]
        .chunks_exact(g.in_channels * pixels)
        .zip(x_last.slots().chunks_exact_mut(g.in_channels * pixels))
    {
        transpose(image, to, g.in_channels, pixels);
    }
    // SAFETY: each image's bytes were written above.
    let x_last = unsafe { x_last.assume_init() };
    let (per_group, taps) = (g.in_channels / g.groups, g.kernel[0] * g.kernel[1]);
    let mut w_last = scratch.uninit(w_len);
    for (channel, to) in layer.w[..w_len]
        .chunks_exact(per_group * taps)
        .zip(w_last.slots().chunks_exact_mut(per_group * taps))
    {
        transpose(channel, to, per_group, taps);
    }
    // SAFETY: each channel's bytes were written above.
    let w_last = unsafe { w_last.assume_init() };
    let mut out_last = scratch.uninit(out_len);
    // The layer channels last, by the kernel `LayerKernel::of` chose
    // (`store_layer` is the one place that calls the kernels).
    let stored = super::store_layer(
        &Int8Tile {
            x: &x_last,
            w: if w_len == 0 { layer.w } else { &w_last },
            geometry: &last,
            ..*layer
        },
        epilogue,
        out_last.slots(),
        scratch,
    );
    if !stored {
        return false;
    }
    // SAFETY: the kernel stored every position's channels: each byte.
    let out_last = unsafe { out_last.assume_init() };
    for (image, to) in out_last
        .chunks_exact(positions * g.out_channels)
        .zip(out.chunks_exact_mut(positions * g.out_channels))
    {
        transpose(image, to, positions, g.out_channels);
    }
    true
}

/// The bytes of the copies of a layer over `g` (channels first): the
/// input, the weights (none where both layouts are the same bytes: a 1x1
/// or a depthwise kernel) and the output.
const fn copies(g: &Geometry) -> [usize; 3] {
    let (per_group, taps) = (g.in_channels / g.groups, g.kernel[0] * g.kernel[1]);
    let weights = if per_group > 1 && taps > 1 {
        g.out_channels * per_group * taps
    } else {
        0
    };
    [
        g.batch * g.in_channels * g.input[0] * g.input[1],
        weights,
        g.batch * g.out_channels * g.output[0] * g.output[1],
    ]
}

/// The scratch of the copies of a layer over `g` (channels first), beside
/// the kernel's own.
pub(super) const fn scratch_bytes(g: &Geometry) -> usize {
    let [x, w, out] = copies(g);
    scratch_len(x) + scratch_len(w) + scratch_len(out)
}

/// The side of the square blocks [`transpose`] moves in registers.
const BLOCK: usize = 16;

/// Writes `from`, a `rows` by `columns` matrix of bytes (row-major), into
/// `to` transposed (`columns` by `rows`): each of its first `rows *
/// columns` bytes. Blocks of 16 by 16 bytes are transposed in SSE2
/// registers (x86-64's baseline: 16 loads, four rounds of 16 unpacks, 16
/// stores), the last block along a side overlapping the one before where
/// the side is not a multiple of 16 (its bytes written twice, the same);
/// a side shorter than 16 byte by byte.
///
/// # Panics
/// If either slice is shorter than `rows * columns`.
fn transpose(from: &[i8], to: &mut [MaybeUninit<i8>], rows: usize, columns: usize) {
    use core::arch::x86_64::*;
    let (from, to) = (&from[..rows * columns], &mut to[..rows * columns]);
    if rows < BLOCK || columns < BLOCK {
        for (r, row) in from.chunks_exact(columns).enumerate() {
            for (c, &value) in row.iter().enumerate() {
                to[c * rows + r] = MaybeUninit::new(value);
            }
        }
        return;
    }
    // Every block's first row (or column): 16 apart, the last 16 from the end.
    let starts = |len: usize| (0..len.div_ceil(BLOCK)).map(move |b| (b * BLOCK).min(len - BLOCK));
    for r0 in starts(rows) {
        for c0 in starts(columns) {
            // Vector `i` holds row `r0 + i` reversed in its four bits: the
            // rounds below then leave vector `j` holding column `c0 + j`.
            // SAFETY: rows `r0..r0 + 16` of `from` hold columns `c0..c0 +
            // 16` (`r0 + 16 <= rows`, `c0 + 16 <= columns`); the loads are
            // unaligned.
            let mut a: [__m128i; BLOCK] = core::array::from_fn(|i| unsafe {
                let row = r0 + (i.reverse_bits() >> (usize::BITS - 4));
                _mm_loadu_si128(from.as_ptr().add(row * columns + c0).cast())
            });
            // SAFETY (each unpack): SSE2 is x86-64's baseline.
            a = interleave(&a, |x, y| unsafe {
                (_mm_unpacklo_epi8(x, y), _mm_unpackhi_epi8(x, y))
            });
            a = interleave(&a, |x, y| unsafe {
                (_mm_unpacklo_epi16(x, y), _mm_unpackhi_epi16(x, y))
            });
            a = interleave(&a, |x, y| unsafe {
                (_mm_unpacklo_epi32(x, y), _mm_unpackhi_epi32(x, y))
            });
            a = interleave(&a, |x, y| unsafe {
                (_mm_unpacklo_epi64(x, y), _mm_unpackhi_epi64(x, y))
            });
            for (j, column) in a.iter().enumerate() {
                // SAFETY: row `c0 + j` of `to` holds columns `r0..r0 + 16`
                // (`c0 + j < columns`, `r0 + 16 <= rows`); the store is
                // unaligned.
                unsafe {
                    _mm_storeu_si128(to.as_mut_ptr().add((c0 + j) * rows + r0).cast(), *column)
                };
            }
        }
    }
}

/// One round of [`transpose`]'s: vectors `2k` and `2k + 1` of the result
/// are `unpack`'s low and high halves of vectors `k` and `k + 8`, its
/// elements (bytes, then pairs, quads and eights of them) interleaved.
#[inline(always)]
fn interleave(
    a: &[core::arch::x86_64::__m128i; BLOCK],
    unpack: impl Fn(
        core::arch::x86_64::__m128i,
        core::arch::x86_64::__m128i,
    ) -> (core::arch::x86_64::__m128i, core::arch::x86_64::__m128i),
) -> [core::arch::x86_64::__m128i; BLOCK] {
    let mut result = *a;
    for k in 0..BLOCK / 2 {
        (result[2 * k], result[2 * k + 1]) = unpack(a[k], a[k + BLOCK / 2]);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::transpose;
    use core::mem::MaybeUninit;

    /// Each byte lands at its transposed index, for sizes on both sides of
    /// a 16 by 16 block and not multiples of it.
    #[test]
    fn transpose_moves_each_byte_to_its_transposed_index() {
        for (rows, columns) in [
            (1, 1),
            (3, 17),
            (16, 16),
            (33, 5),
            (64, 125),
            (125, 64),
            (48, 32),
        ] {
            let from: alloc::vec::Vec<i8> =
                (0..rows * columns).map(|i| (i * 7 % 251) as i8).collect();
            let mut to = alloc::vec![MaybeUninit::new(0i8); rows * columns];
            transpose(&from, &mut to, rows, columns);
            for r in 0..rows {
                for c in 0..columns {
                    // SAFETY: initialised above.
                    let value = unsafe { to[c * rows + r].assume_init() };
                    assert_eq!(
                        value,
                        from[r * columns + c],
                        "{rows}x{columns} at ({r}, {c})"
                    );
                }
            }
        }
    }
}
