//! The widening product's kernel: `cast::<i32>(x) @ cast::<i32>(w)` over
//! stored `i8` operands, summed from the bytes themselves.
//!
//! With AVX-512 VNNI (detected at run time, `std` on x86-64), one
//! `vpdpbusd` multiplies 64 pairs of bytes and adds them, four at a time,
//! into 16 `i32` sums: a tile of `R` rows by 16 or 32 columns takes four
//! rows of the right operand at a time, interleaved so that each column's
//! four bytes are adjacent, and each row of the left operand contributes
//! four bytes broadcast. `vpdpbusd` takes unsigned bytes on the left: each left
//! byte is read as `x + 128` (its top bit flipped), and `128 - offset`
//! times each column's sum is taken off at the end (the column sums come
//! from the same instruction over bytes of 1), which also applies the left
//! operand's offset (`cast::<i32>(x) - zx`). Without `std`, the kernel is
//! used where the compile-time target has those instructions. Elsewhere
//! [`block`] gives `None` and the product takes its general path.

/// Reads rows of the right operand of a widening product as bytes.
// Read only by the VNNI kernel, where it is compiled.
#[cfg_attr(not(vnni_kernel), allow(dead_code))]
pub(super) trait RightBytes {
    /// Columns `j0 .. j0 + C` of row `kk` (`C` of the tile), if the row
    /// is stored `i8` data with no offset.
    fn row(&self, kk: usize) -> Option<&[i8]>;
}

/// `sum_k (a[r][k] + offsets[r]) * b(k)[j]` for `R` rows and `C` (16 or
/// 32) columns, over `k` (a multiple of 4) elements, where the CPU can;
/// `None` where it cannot or a right row is not stored bytes.
#[inline(always)]
pub(super) fn block<Rb: RightBytes, const R: usize, const C: usize>(
    a: &[&[i8]; R],
    offsets: &[i32; R],
    k: usize,
    b: &Rb,
) -> Option<[[i32; C]; R]> {
    #[cfg(vnni_kernel)]
    {
        if const { C == 16 || C == 32 }
            && k.is_multiple_of(4)
            && a.iter().all(|row| row.len() >= k)
            && crate::isa::selected() >= crate::isa::Level::Avx512Vnni
        {
            // SAFETY: the selected level is at most the CPU's
            // (`isa::selected`; without `std`, the compile-time target's):
            // it has AVX-512 F, BW and VNNI.
            return unsafe { vnni::block(a, offsets, k, b) };
        }
    }
    let _ = (a, offsets, k, b);
    None
}

#[cfg(vnni_kernel)]
mod vnni {
    use super::RightBytes;
    use core::arch::x86_64::*;

    /// [`super::block`] with AVX-512 VNNI; the caller has checked that
    /// every row of `a` holds at least `k` bytes, `k.is_multiple_of(4)` and `C` is
    /// 16 or 32.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    pub(super) fn block<Rb: RightBytes, const R: usize, const C: usize>(
        a: &[&[i8]; R],
        offsets: &[i32; R],
        k: usize,
        b: &Rb,
    ) -> Option<[[i32; C]; R]> {
        let vectors = C / 16;
        let flip = _mm512_set1_epi32(0x8080_8080_u32 as i32);
        let ones = _mm512_set1_epi32(0x0101_0101);
        let mut sums = [[_mm512_setzero_si512(); 2]; R];
        let mut column_sums = [_mm512_setzero_si512(); 2];
        let mut kk = 0;
        while kk < k {
            let rows = [b.row(kk)?, b.row(kk + 1)?, b.row(kk + 2)?, b.row(kk + 3)?];
            let right = if C == 32 {
                interleaved_32(rows)?
            } else {
                [interleaved_16(rows)?, _mm512_setzero_si512()]
            };
            for v in 0..vectors {
                column_sums[v] = _mm512_dpbusd_epi32(column_sums[v], ones, right[v]);
            }
            for (row, sums) in a.iter().zip(sums.iter_mut()) {
                let four = i32::from_le_bytes(bytes_at(row, kk));
                let left = _mm512_xor_si512(_mm512_set1_epi32(four), flip);
                for v in 0..vectors {
                    sums[v] = _mm512_dpbusd_epi32(sums[v], left, right[v]);
                }
            }
            kk += 4;
        }
        let mut out = [[0i32; C]; R];
        for ((sums, out), &offset) in sums.iter().zip(out.iter_mut()).zip(offsets) {
            let scale = _mm512_set1_epi32(128i32.wrapping_sub(offset));
            let [low, high] = [0, 1]
                .map(|v| _mm512_sub_epi32(sums[v], _mm512_mullo_epi32(column_sums[v], scale)));
            if const { C == 32 } {
                // Columns in order: the interleave left them in 128-bit
                // groups [0-3, 16-19, 4-7, 20-23] and [8-11, 24-27, 12-15,
                // 28-31].
                let (left, right) = out.split_at_mut(16);
                store(left, _mm512_shuffle_i32x4::<0x88>(low, high));
                store(right, _mm512_shuffle_i32x4::<0xDD>(low, high));
            } else {
                store(out, low);
            }
        }
        Some(out)
    }

    /// The four bytes of `row` from `kk`, as the little-endian bytes of one
    /// `i32`.
    #[inline(always)]
    fn bytes_at(row: &[i8], kk: usize) -> [u8; 4] {
        let four: [i8; 4] = row[kk..kk + 4].try_into().unwrap_or([0; 4]);
        four.map(|byte| byte as u8)
    }

    /// Four rows of 32 bytes as two vectors of 16 columns, each column's
    /// four bytes adjacent (rows in order); the columns in 128-bit groups
    /// of four, in the order [`block`] undoes.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn interleaved_32(rows: [&[i8]; 4]) -> Option<[__m512i; 2]> {
        let [r0, r1, r2, r3] = [
            load_32(rows[0])?,
            load_32(rows[1])?,
            load_32(rows[2])?,
            load_32(rows[3])?,
        ];
        let (low01, high01) = (_mm256_unpacklo_epi8(r0, r1), _mm256_unpackhi_epi8(r0, r1));
        let (low23, high23) = (_mm256_unpacklo_epi8(r2, r3), _mm256_unpackhi_epi8(r2, r3));
        let q0 = _mm256_unpacklo_epi16(low01, low23);
        let q1 = _mm256_unpackhi_epi16(low01, low23);
        let q2 = _mm256_unpacklo_epi16(high01, high23);
        let q3 = _mm256_unpackhi_epi16(high01, high23);
        Some([
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(q0), q1),
            _mm512_inserti64x4::<1>(_mm512_castsi256_si512(q2), q3),
        ])
    }

    /// Four rows of 16 bytes as one vector of 16 columns in order, each
    /// column's four bytes adjacent.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn interleaved_16(rows: [&[i8]; 4]) -> Option<__m512i> {
        let [r0, r1, r2, r3] = [
            load_16(rows[0])?,
            load_16(rows[1])?,
            load_16(rows[2])?,
            load_16(rows[3])?,
        ];
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
        Some(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(low), high))
    }

    /// The first 16 bytes of `row` as a vector.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn load_16(row: &[i8]) -> Option<__m128i> {
        let row: &[i8; 16] = row.get(..16)?.try_into().ok()?;
        // SAFETY: `row` is 16 readable bytes; the load is unaligned.
        Some(unsafe { _mm_loadu_si128(row.as_ptr().cast()) })
    }

    /// The first 32 bytes of `row` as a vector.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    fn load_32(row: &[i8]) -> Option<__m256i> {
        let row: &[i8; 32] = row.get(..32)?.try_into().ok()?;
        // SAFETY: `row` is 32 readable bytes; the load is unaligned.
        Some(unsafe { _mm256_loadu_si256(row.as_ptr().cast()) })
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
