//! The widening product's kernel: `cast::<i32>(x) @ cast::<i32>(w)` over
//! stored `i8` operands, summed from the bytes themselves.
//!
//! With AVX-512 VNNI (detected at run time, `std` on x86-64), one
//! `vpdpbusd` multiplies 64 pairs of bytes and adds them, four at a time,
//! into 16 `i32` sums: a tile of `R` rows by 16 or 32 columns (64 for one
//! or two rows, a dense layer's: the interleave, which bounds such a
//! product, then takes half the shuffles per column) takes four rows of
//! the right operand at a time, interleaved so that each column's four
//! bytes are adjacent, and each row of the left operand contributes four
//! bytes broadcast. `vpdpbusd` takes unsigned bytes on the left: each left
//! byte is read as `x + 128` (its top bit flipped), and `128 - offset`
//! times each column's sum is taken off at the end (the column sums come
//! from the same instruction over bytes of 1; none are taken where every
//! offset is 128), which also applies the left operand's offset
//! (`cast::<i32>(x) - zx`). (Flipping the right operand's
//! bytes instead, once per four rows, needs each left row's sum, which
//! costs more than the flips it saves.) Without `std`, the kernel is
//! used where the compile-time target has those instructions. Elsewhere
//! [`sums`] declines and the product takes its general path.
//!
//! The kernel is compiled once, in this crate, for every product: a
//! product hands it the tile's left rows and the right operand as a matrix
//! of stored bytes ([`Int8Matrix`]), so what a product expression compiles
//! of its own is its reads and its epilogue, and a debug build runs the
//! kernel at the runtime's opt-level (the profile override the README
//! gives), not as a call per intrinsic.

use crate::expr::Int8Matrix;
use crate::kernel::MOST_TILE_ROWS;

/// Whether this build has the kernel: where it does not (no `std`, and a
/// compile-time target without VNNI), a product does not call [`sums`],
/// which would always decline, and its code is left out.
pub(super) const KERNEL: bool = cfg!(vnni_kernel);

/// A tile of a widening product as the kernel reads it.
pub(super) struct ProductTile<'a> {
    /// The tile's rows of the left operand: 1 to [`MOST_TILE_ROWS`], each
    /// of at least `k` bytes.
    pub(super) left: &'a [&'a [i8]],
    /// The constant added to each left row's bytes, one per row.
    pub(super) offsets: &'a [i32],
    /// The right operand from the tile's first column on: row `kk` from
    /// `kk * stride`, with no constant added.
    pub(super) right: Int8Matrix<'a>,
    /// The length of the contraction.
    pub(super) k: usize,
}

impl ProductTile<'_> {
    /// Whether the tile's operands hold what [`sums`] reads for `columns`
    /// columns, and `out` (rows `stride` apart) what it writes.
    fn fits(&self, columns: usize, out: &[i32], stride: usize) -> bool {
        let rows = self.left.len();
        let right_len = match self.k.checked_sub(1) {
            None => Some(0),
            Some(last) => last
                .checked_mul(self.right.stride)
                .and_then(|start| start.checked_add(columns)),
        };
        (1..=MOST_TILE_ROWS).contains(&rows)
            && self.offsets.len() == rows
            && (columns == 16 || (columns > 0 && columns.is_multiple_of(32)))
            && self.k.is_multiple_of(4)
            && self.left.iter().all(|row| row.len() >= self.k)
            && right_len.is_some_and(|len| len <= self.right.bytes.len())
            && stride >= columns
            && (rows - 1)
                .checked_mul(stride)
                .and_then(|last| last.checked_add(columns))
                .is_some_and(|len| len <= out.len())
    }
}

/// Writes `sum_k (left[r][k] + offsets[r]) * right[k][j]` for the tile's
/// rows by `columns` columns (16, or a multiple of 32) into `out`, row `r`
/// at `out[r * stride..][..columns]`, and says true; false, `out`
/// untouched, where the CPU lacks the instructions or the tile does not
/// fit its operands or `out`. Not generic, so compiled once, here.
#[inline(never)]
pub(super) fn sums(tile: &ProductTile, columns: usize, out: &mut [i32], stride: usize) -> bool {
    if !tile.fits(columns, out, stride) {
        return false;
    }
    #[cfg(vnni_kernel)]
    {
        if crate::isa::selected() >= crate::isa::Level::Avx512Vnni {
            // SAFETY: the selected level is at most the CPU's
            // (`isa::selected`; without `std`, the compile-time target's):
            // it has AVX-512 F, BW and VNNI. The tile fits (checked above).
            unsafe { vnni::sums(tile, columns, out, stride) };
            return true;
        }
    }
    false
}

#[cfg(vnni_kernel)]
mod vnni {
    use super::ProductTile;
    use core::arch::x86_64::*;

    /// Four bytes' top bits: a byte `x` xor 0x80 is `x + 128` as `u8`.
    const FLIP_BYTES: i32 = 0x8080_8080_u32 as i32;

    /// [`super::sums`] with AVX-512 VNNI, for a tile that fits: blocks of
    /// 8, 4, 2 and 1 rows by 32 or 16 columns.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    pub(super) fn sums(tile: &ProductTile, columns: usize, out: &mut [i32], stride: usize) {
        let rows = tile.left.len();
        let mut first = 0;
        while first < rows {
            let left = rows - first;
            let taken = [8, 4, 2, 1].into_iter().find(|&n| n <= left).unwrap_or(1);
            let mut column = 0;
            while column < columns {
                let wide = match columns - column {
                    // One or two rows (a dense layer's one input) take 64
                    // columns a step: half the shuffles per column.
                    64.. if taken <= 2 => 64,
                    32.. => 32,
                    _ => 16,
                };
                let out = &mut out[first * stride + column..];
                // Left bytes plus 128 are the flipped bytes themselves: no
                // column sums to take off (a layer after a ReLU at -128).
                let flipped_only = tile.offsets[first..first + taken].iter().all(|&o| o == 128);
                match (taken, wide) {
                    (2, 64) if flipped_only => {
                        block_64::<2, false>(tile, first, column, out, stride)
                    }
                    (1, 64) if flipped_only => {
                        block_64::<1, false>(tile, first, column, out, stride)
                    }
                    (2, 64) => block_64::<2, true>(tile, first, column, out, stride),
                    (1, 64) => block_64::<1, true>(tile, first, column, out, stride),
                    (8, 32) => block::<8, 32>(tile, first, column, out, stride),
                    (4, 32) => block::<4, 32>(tile, first, column, out, stride),
                    (2, 32) => block::<2, 32>(tile, first, column, out, stride),
                    (1, 32) => block::<1, 32>(tile, first, column, out, stride),
                    (8, _) => block::<8, 16>(tile, first, column, out, stride),
                    (4, _) => block::<4, 16>(tile, first, column, out, stride),
                    (2, _) => block::<2, 16>(tile, first, column, out, stride),
                    _ => block::<1, 16>(tile, first, column, out, stride),
                }
                column += wide;
            }
            first += taken;
        }
    }

    /// Rows `first ..` (`R` of them) by columns `column ..` (`C`, 16 or
    /// 32) of a tile that fits, into `out` from its first element, rows
    /// `stride` apart.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn block<const R: usize, const C: usize>(
        tile: &ProductTile,
        first: usize,
        column: usize,
        out: &mut [i32],
        stride: usize,
    ) {
        let left: [*const i8; R] = core::array::from_fn(|r| tile.left[first + r].as_ptr());
        let offsets = &tile.offsets[first..first + R];
        let right = tile.right.bytes[column..].as_ptr();
        let right_stride = tile.right.stride;
        let vectors = C / 16;
        let ones = _mm512_set1_epi8(1);
        let mut sums = [[_mm512_setzero_si512(); 2]; R];
        let mut column_sums = [_mm512_setzero_si512(); 2];
        let mut kk = 0;
        while kk < tile.k {
            // SAFETY: the tile fits (`ProductTile::fits`): the right
            // operand holds `C` bytes from column `column` of each of its
            // `k` rows, and each left row `k` bytes.
            let (right, four) = unsafe {
                let row = |m: usize| right.add((kk + m) * right_stride);
                let rows = [row(0), row(1), row(2), row(3)];
                let right = if C == 32 {
                    interleaved_32(rows)
                } else {
                    [interleaved_16(rows), _mm512_setzero_si512()]
                };
                let four: [i32; R] =
                    core::array::from_fn(|r| left[r].add(kk).cast::<i32>().read_unaligned());
                (right, four)
            };
            for v in 0..vectors {
                column_sums[v] = _mm512_dpbusd_epi32(column_sums[v], ones, right[v]);
            }
            for (sums, &four) in sums.iter_mut().zip(&four) {
                // The top bits flipped before the broadcast, in a general
                // register: fewer vector instructions than a vector xor,
                // and LLVM's instruction selection does not finish on the
                // vector xor of a broadcast where AVX-512 VBMI is enabled
                // (`-C target-cpu=native` on such a CPU; `.ci/run` builds so).
                let left = _mm512_set1_epi32(four ^ FLIP_BYTES);
                for v in 0..vectors {
                    sums[v] = _mm512_dpbusd_epi32(sums[v], left, right[v]);
                }
            }
            kk += 4;
        }
        for (r, (sums, &offset)) in sums.iter().zip(offsets).enumerate() {
            let scale = _mm512_set1_epi32(128i32.wrapping_sub(offset));
            let [low, high] = [0, 1]
                .map(|v| _mm512_sub_epi32(sums[v], _mm512_mullo_epi32(column_sums[v], scale)));
            let out = &mut out[r * stride..][..C];
            if const { C == 32 } {
                // Columns in order: the interleave left them in 128-bit
                // groups [0-3, 16-19, 8-11, 24-27] and [4-7, 20-23, 12-15,
                // 28-31].
                let (left, right) = out.split_at_mut(16);
                let first_half =
                    _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
                let second_half =
                    _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
                store(left, _mm512_permutex2var_epi32(low, first_half, high));
                store(right, _mm512_permutex2var_epi32(low, second_half, high));
            } else {
                store(out, low);
            }
        }
    }

    /// [`block`] for `R` rows (1 or 2) by 64 columns: four rows of the
    /// right operand are four whole vectors, interleaved by byte and by
    /// pair within each 128-bit lane (8 shuffles for 64 columns, where
    /// [`interleaved_32`] takes 8 for 32), and the sums' columns put back
    /// in order once, at the end. Without `COLUMN_SUMS` (every row's
    /// offset 128, which the flip itself adds) no column sums are taken.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn block_64<const R: usize, const COLUMN_SUMS: bool>(
        tile: &ProductTile,
        first: usize,
        column: usize,
        out: &mut [i32],
        stride: usize,
    ) {
        let left: [*const i8; R] = core::array::from_fn(|r| tile.left[first + r].as_ptr());
        let offsets = &tile.offsets[first..first + R];
        let right = tile.right.bytes[column..].as_ptr();
        let right_stride = tile.right.stride;
        let ones = _mm512_set1_epi8(1);
        let mut sums = [[_mm512_setzero_si512(); 4]; R];
        let mut column_sums = [_mm512_setzero_si512(); 4];
        let mut kk = 0;
        while kk < tile.k {
            // SAFETY: the tile fits (`ProductTile::fits`): the right
            // operand holds 64 bytes from column `column` of each of its
            // `k` rows (`sums` takes 64 columns only where as many are
            // left), and each left row `k` bytes.
            let (right, four) = unsafe {
                let [r0, r1, r2, r3] = [0, 1, 2, 3]
                    .map(|m| _mm512_loadu_si512(right.add((kk + m) * right_stride).cast()));
                let four: [i32; R] =
                    core::array::from_fn(|r| left[r].add(kk).cast::<i32>().read_unaligned());
                (interleaved_64([r0, r1, r2, r3]), four)
            };
            if COLUMN_SUMS {
                for (sum, &right) in column_sums.iter_mut().zip(&right) {
                    *sum = _mm512_dpbusd_epi32(*sum, ones, right);
                }
            }
            for (sums, &four) in sums.iter_mut().zip(&four) {
                // The top bits flipped as in `block`.
                let left = _mm512_set1_epi32(four ^ FLIP_BYTES);
                for (sum, &right) in sums.iter_mut().zip(&right) {
                    *sum = _mm512_dpbusd_epi32(*sum, left, right);
                }
            }
            kk += 4;
        }
        for (r, (sums, &offset)) in sums.iter().zip(offsets).enumerate() {
            let scale = _mm512_set1_epi32(128i32.wrapping_sub(offset));
            let corrected: [__m512i; 4] = core::array::from_fn(|q| {
                if COLUMN_SUMS {
                    _mm512_sub_epi32(sums[q], _mm512_mullo_epi32(column_sums[q], scale))
                } else {
                    sums[q]
                }
            });
            // Vector `q`'s 128-bit lane `L` holds columns `16 L + 4 q ..+ 4`:
            // the 16 columns from `16 L` are lane `L` of the four, in order.
            let low01 = _mm512_shuffle_i32x4::<0x44>(corrected[0], corrected[1]);
            let high01 = _mm512_shuffle_i32x4::<0xEE>(corrected[0], corrected[1]);
            let low23 = _mm512_shuffle_i32x4::<0x44>(corrected[2], corrected[3]);
            let high23 = _mm512_shuffle_i32x4::<0xEE>(corrected[2], corrected[3]);
            let out = &mut out[r * stride..][..64];
            store(&mut out[..16], _mm512_shuffle_i32x4::<0x88>(low01, low23));
            store(&mut out[16..32], _mm512_shuffle_i32x4::<0xDD>(low01, low23));
            store(
                &mut out[32..48],
                _mm512_shuffle_i32x4::<0x88>(high01, high23),
            );
            store(&mut out[48..], _mm512_shuffle_i32x4::<0xDD>(high01, high23));
        }
    }

    /// Four rows of 64 bytes as four vectors of 16 columns, each column's
    /// four bytes adjacent (rows in order): vector `q`'s 128-bit lane `L`
    /// holds columns `16 L + 4 q ..+ 4`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn interleaved_64([r0, r1, r2, r3]: [__m512i; 4]) -> [__m512i; 4] {
        let (low01, high01) = (_mm512_unpacklo_epi8(r0, r1), _mm512_unpackhi_epi8(r0, r1));
        let (low23, high23) = (_mm512_unpacklo_epi8(r2, r3), _mm512_unpackhi_epi8(r2, r3));
        [
            _mm512_unpacklo_epi16(low01, low23),
            _mm512_unpackhi_epi16(low01, low23),
            _mm512_unpacklo_epi16(high01, high23),
            _mm512_unpackhi_epi16(high01, high23),
        ]
    }

    /// Four rows of 32 bytes as two vectors of 16 columns, each column's
    /// four bytes adjacent (rows in order); the columns in 128-bit groups
    /// of four, [0-3, 16-19, 8-11, 24-27] and [4-7, 20-23, 12-15, 28-31],
    /// the order [`block`] undoes. Rows 0 and 2, 1 and 3 share a 512-bit
    /// register, so that the interleave is 6 shuffles of 512 bits and 2
    /// inserts (the shuffle port bounds the kernel's loop).
    ///
    /// # Safety
    /// Each row is 32 readable bytes.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    unsafe fn interleaved_32(rows: [*const i8; 4]) -> [__m512i; 2] {
        // SAFETY: the caller's; the loads are unaligned.
        let [r0, r1, r2, r3] = rows.map(|row| unsafe { _mm256_loadu_si256(row.cast()) });
        let rows02 = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(r0), r2);
        let rows13 = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(r1), r3);
        // Per 128-bit group: bytes of rows 0 and 1 (groups 0, 1), of rows
        // 2 and 3 (groups 2, 3), for columns 0-7 and 16-23 (`low`), 8-15
        // and 24-31 (`high`).
        let low = _mm512_unpacklo_epi8(rows02, rows13);
        let high = _mm512_unpackhi_epi8(rows02, rows13);
        // Rows 0 and 1, then 2 and 3, of columns 0-7, 16-23, 8-15, 24-31.
        let pairs01 = _mm512_shuffle_i32x4::<0x44>(low, high);
        let pairs23 = _mm512_shuffle_i32x4::<0xEE>(low, high);
        [
            _mm512_unpacklo_epi16(pairs01, pairs23),
            _mm512_unpackhi_epi16(pairs01, pairs23),
        ]
    }

    /// Four rows of 16 bytes as one vector of 16 columns in order, each
    /// column's four bytes adjacent.
    ///
    /// # Safety
    /// Each row is 16 readable bytes.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    unsafe fn interleaved_16(rows: [*const i8; 4]) -> __m512i {
        // SAFETY: the caller's; the loads are unaligned.
        let [r0, r1, r2, r3] = rows.map(|row| unsafe { _mm_loadu_si128(row.cast()) });
        let (low01, high01) = (_mm_unpacklo_epi8(r0, r1), _mm_unpackhi_epi8(r0, r1));
        let (low23, high23) = (_mm_unpacklo_epi8(r2, r3), _mm_unpackhi_epi8(r2, r3));
        let low = _mm256_set_m128i(
            _mm_unpackhi_epi16(low01, low23),
            _mm_unpacklo_epi16(low01, low23),
        );
        let high = _mm256_set_m128i(
            _mm_unpackhi_epi16(high01, high23),
            _mm_unpacklo_epi16(high01, high23),
        );
        _mm512_inserti64x4::<1>(_mm512_castsi256_si512(low), high)
    }

    /// Stores 16 sums.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn store(out: &mut [i32], sums: __m512i) {
        let out: &mut [i32; 16] = (&mut out[..16])
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: `out` is 16 writable `i32`s; the store is unaligned.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), sums) }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::{sums, ProductTile};
    use crate::expr::Int8Matrix;
    use std::vec;
    use std::vec::Vec;

    /// Bytes over the whole `i8` range.
    fn bytes(len: usize, seed: usize) -> Vec<i8> {
        (0..len)
            .map(|i| ((i * 7919 + seed * 104_729) % 256) as u8 as i8)
            .collect()
    }

    /// A tile of 5 rows by 48 columns of a `[5, 12] @ [12, 64]` product
    /// (right rows 64 apart), from column 16: the kernel's sums where it
    /// runs, the plain sums' values; and a tile whose right operand is one
    /// byte short, or whose `out` is, declined with `out` untouched.
    #[test]
    fn the_kernel_sums_a_tile_that_fits_and_declines_one_that_does_not() {
        let (k, stride, column, columns) = (12, 64, 16, 32);
        let left_rows: Vec<Vec<i8>> = (0..5).map(|r| bytes(k, r)).collect();
        let left: Vec<&[i8]> = left_rows.iter().map(|row| &row[..]).collect();
        let offsets = [128, -3, 0, 7, -128];
        let right = bytes(k * stride, 9);
        let tile = |len: usize| ProductTile {
            left: &left,
            offsets: &offsets,
            right: Int8Matrix {
                bytes: &right[column..len],
                stride,
            },
            k,
        };
        let mut out = vec![i32::MIN; 5 * columns];
        let summed = sums(&tile(right.len()), columns, &mut out, columns);
        if summed {
            for (r, row) in left.iter().enumerate() {
                for j in 0..columns {
                    let expected: i32 = (0..k)
                        .map(|kk| {
                            (i32::from(row[kk]) + offsets[r])
                                * i32::from(right[kk * stride + column + j])
                        })
                        .sum();
                    assert_eq!(out[r * columns + j], expected, "at [{r}, {j}]");
                }
            }
        }
        #[cfg(vnni_kernel)]
        assert_eq!(
            summed,
            crate::isa::selected() >= crate::isa::Level::Avx512Vnni
        );
        #[cfg(not(vnni_kernel))]
        assert!(!summed);
        let needed = column + (k - 1) * stride + columns;
        let mut untouched = vec![i32::MIN; 5 * columns];
        assert!(!sums(&tile(needed - 1), columns, &mut untouched, columns));
        assert!(!sums(&tile(needed), columns, &mut untouched[1..], columns));
        assert!(untouched.iter().all(|&v| v == i32::MIN));
    }

    /// One to three rows by 96 to 192 columns (the 64-column blocks of one
    /// or two rows, with and without column sums, then the narrower ones),
    /// over a longer contraction: the kernel's sums where it runs are the
    /// plain sums.
    #[test]
    fn rows_of_a_dense_layer_take_64_columns_a_step() {
        // The last two: every offset 128 (no column sums taken).
        let cases = [(1, 128, 40, false), (2, 192, 12, false), (3, 96, 64, false)];
        let cases = cases
            .into_iter()
            .chain([(1, 96, 8, true), (2, 128, 20, true)]);
        for (rows, columns, k, flipped_only) in cases {
            let stride = columns + 16;
            let left_rows: Vec<Vec<i8>> = (0..rows).map(|r| bytes(k, r + 3)).collect();
            let left: Vec<&[i8]> = left_rows.iter().map(|row| &row[..]).collect();
            let offsets: Vec<i32> = (0..rows)
                .map(|r| if flipped_only { 128 } else { [5, -128, 127][r] })
                .collect();
            let right = bytes(k * stride, 11);
            let tile = ProductTile {
                left: &left,
                offsets: &offsets,
                right: Int8Matrix {
                    bytes: &right,
                    stride,
                },
                k,
            };
            let mut out = vec![i32::MIN; rows * columns];
            if !sums(&tile, columns, &mut out, columns) {
                #[cfg(vnni_kernel)]
                assert!(crate::isa::selected() < crate::isa::Level::Avx512Vnni);
                continue;
            }
            for (r, row) in left.iter().enumerate() {
                for j in 0..columns {
                    let expected: i32 = (0..k)
                        .map(|kk| {
                            (i32::from(row[kk]) + offsets[r]) * i32::from(right[kk * stride + j])
                        })
                        .sum();
                    assert_eq!(
                        out[r * columns + j],
                        expected,
                        "{rows} x {columns}: at [{r}, {j}]"
                    );
                }
            }
        }
    }
}
