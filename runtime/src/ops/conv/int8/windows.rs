//! The walk over a tile's windows that the VNNI kernel and the pairs
//! kernel share: each position's window in the padded input
//! ([`PaddedInput`]), checked once, then for each group of a window's
//! bytes (four, or two) one broadcast per position, made the values the
//! kernel multiplies, and one multiply-add per position and block of 16
//! channels, by the weights of that group. The kernels differ only in the
//! arithmetic ([`Groups`]) and in what they do with the sums.
//!
//! A row of a window whose taps are side by side in the input (no
//! dilation along it) is read as one run of `kW C_in` values, rounded up
//! to a whole group (the weights of the values past it are zero, and the
//! padded input has values to spare at its end); otherwise tap by tap
//! (input channels a multiple of the group, the pixels' form).

use super::{Int8Tile, PaddedInput, CHANNEL_BLOCK};
use crate::rules::conv::Geometry;

/// `$body` for each row `$r` below `$rows` (at most 8), written out row by
/// row: LLVM left a loop over the rows rolled, its sums in memory.
macro_rules! each_row {
    ($rows:expr, $r:ident => $body:block) => {
        each_row!(@ $rows, $r, $body, 0 1 2 3 4 5 6 7)
    };
    (@ $rows:expr, $r:ident, $body:block, $($k:literal)*) => {
        $({
            let $r: usize = $k;
            if $r < $rows $body
        })*
    };
}

/// One kernel's 16 `i32` sums and the operations the walk needs of them.
///
/// # Safety (every method)
/// The CPU has the kernel's features; the methods are inlined into its
/// functions, which enable them.
pub(super) trait Groups: Copy {
    /// An element of the packed weights.
    type Weight: Copy;
    /// The input bytes of one group (one broadcast).
    const GROUP: usize;
    /// Zero in every lane.
    unsafe fn zero() -> Self;
    /// The group of input bytes at `p` in every lane, as the kernel
    /// multiplies them.
    ///
    /// # Safety
    /// Also: `GROUP` readable bytes at `p`.
    unsafe fn broadcast(p: *const i8) -> Self;
    /// A block's weights of one group: 16 channels' `GROUP` weights at `p`.
    ///
    /// # Safety
    /// Also: that many readable weights at `p`.
    unsafe fn load_weights(p: *const Self::Weight) -> Self;
    /// `acc` plus, in each lane, the group of `x` times the lane's group
    /// of `w`, summed.
    unsafe fn multiply_add(acc: Self, x: Self, w: Self) -> Self;
}

/// The groups of `group` values one row of a window takes: its `kW C_in`
/// values rounded up to a whole group. The packed weights and the walk
/// both follow it.
pub(super) const fn row_groups(g: &Geometry, group: usize) -> usize {
    (g.kernel[1] * g.in_channels).div_ceil(group)
}

/// The weights of one block of 16 output channels in the kernels' layout:
/// for each group of each row of the window, 16 channels' groups.
pub(super) const fn block_len(g: &Geometry, group: usize) -> usize {
    g.kernel[0] * row_groups(g, group) * CHANNEL_BLOCK * group
}

/// A row of a window as the walk reads it: `.0` pieces of `.1` groups
/// each, `.2` values apart (one piece where the row's taps are side by
/// side in the input).
#[inline(always)]
fn pieces(g: &Geometry, group: usize) -> (usize, usize, usize) {
    if g.kernel[1] == 1 || g.dilation[1] == 1 {
        (1, row_groups(g, group), 0)
    } else {
        (
            g.kernel[1],
            g.in_channels / group,
            g.dilation[1] * g.in_channels,
        )
    }
}

/// The windows in the padded `input` of the tile's positions `first ..+ R`
/// (`R` at most 8; a position past the tile's last takes position
/// `first`'s), each checked once to hold every group a kernel of `group`
/// bytes reads of it: what [`sums_at`] reads, for any block of output
/// channels.
///
/// # Panics
/// If a window's groups lie past the input's values.
#[inline(always)]
pub(super) fn windows<const R: usize>(
    tile: &Int8Tile,
    input: &PaddedInput,
    first: usize,
    group: usize,
) -> [*const i8; R] {
    let g = tile.geometry;
    let (pieces, piece_groups, piece_step) = pieces(g, group);
    let row_step = g.dilation[0] * input.columns * g.in_channels;
    let span = (g.kernel[0] - 1) * row_step + (pieces - 1) * piece_step + group * piece_groups;
    let positions = tile.positions;
    let mut windows = [input.values.as_ptr(); R];
    for (r, window) in windows.iter_mut().enumerate() {
        let p = positions.get(first + r).unwrap_or(&positions[first]);
        *window = input.values[input.window(g, p)..][..span].as_ptr();
    }
    windows
}

/// The sums of the tile's positions `first ..+ R` (`R` at most 8) by `V` blocks of 16
/// channels from its first (a position past the tile's last sums its
/// position `first` again, for the caller not to store), from the padded
/// `input` and the packed `weights`: for each block of 16 output channels
/// and each group of a window's row, 16 times the channel's group; each
/// block's sums start at `initial`'s (zero, or a layer's epilogue's
/// first addition).
///
/// # Safety
/// The CPU has the features of `A`'s kernel. The tile fits its convolution
/// (`super::block` checked it), `first` is one of its positions, and
/// `input` and `weights` were made for its geometry.
#[inline(always)]
pub(super) unsafe fn sums<A: Groups, const R: usize, const V: usize>(
    tile: &Int8Tile,
    input: &PaddedInput,
    weights: &[A::Weight],
    first: usize,
    initial: [A; V],
) -> [[A; V]; R] {
    let windows = windows::<R>(tile, input, first, A::GROUP);
    let first_block = tile.positions[0].channel / CHANNEL_BLOCK;
    // SAFETY: the caller's; the windows are the tile's ([`windows`]).
    unsafe {
        sums_at(
            &windows,
            tile.geometry,
            input,
            weights,
            first_block,
            initial,
        )
    }
}

/// [`sums`] over windows already found: `windows` ([`windows`] of a tile
/// of `g` and `input`, for `A::GROUP`), by the `V` blocks of 16 channels
/// from block `first_block`.
///
/// # Safety
/// As [`sums`]; `windows` are [`windows`] of a tile of `g` and `input`,
/// and the `V` blocks from `first_block` are the convolution's.
#[inline(always)]
pub(super) unsafe fn sums_at<A: Groups, const R: usize, const V: usize>(
    windows: &[*const i8; R],
    g: &Geometry,
    input: &PaddedInput,
    weights: &[A::Weight],
    first_block: usize,
    initial: [A; V],
) -> [[A; V]; R] {
    let kh_len = g.kernel[0];
    let row_groups = row_groups(g, A::GROUP);
    let (pieces, piece_groups, piece_step) = pieces(g, A::GROUP);
    // A group of a block's weights: 16 channels' groups.
    let group_len = CHANNEL_BLOCK * A::GROUP;
    let block_len = block_len(g, A::GROUP);
    let mut blocks: [&[A::Weight]; V] = [&[]; V];
    for (v, block) in blocks.iter_mut().enumerate() {
        *block = &weights[(first_block + v) * block_len..][..block_len];
    }
    let row_step = g.dilation[0] * input.columns * g.in_channels;
    let mut sums = [initial; R];
    for kh in 0..kh_len {
        for piece in 0..pieces {
            let offset = kh * row_step + piece * piece_step;
            let first_group = kh * row_groups + piece * piece_groups;
            for q in 0..piece_groups {
                // Blocks by constant index too (`each_row!`), as rows: a
                // loop over them, kept where optimised for size, would keep
                // the sums in memory.
                // SAFETY (every block below): the CPU has the features
                // (the caller's).
                let mut w = [unsafe { A::zero() }; V];
                each_row!(V, v => {
                    let group = &blocks[v][(first_group + q) * group_len..][..group_len];
                    // SAFETY: `group_len` readable weights.
                    w[v] = unsafe { A::load_weights(group.as_ptr()) };
                });
                each_row!(R, r => {
                    // SAFETY: `offset + GROUP (q + 1) <= span`, the
                    // window's values (`windows`).
                    let x = unsafe { A::broadcast(windows[r].add(offset + A::GROUP * q)) };
                    each_row!(V, v => {
                        sums[r][v] = unsafe { A::multiply_add(sums[r][v], x, w[v]) };
                    });
                });
            }
        }
    }
    sums
}
