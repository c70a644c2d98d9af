//! The inverse of a 4x4 `f32` matrix in SSE vectors (x86-64, whose baseline
//! has SSE2, so every build takes it): the same adjugate-over-determinant
//! as the scalar closed form, with the four elements of an output row in
//! one vector. The scalar form leaves LLVM to pack 96 multiplies into
//! vectors, which it does poorly on the default target (well behind glam,
//! `benches/linalg.rs`).
//!
//! With `s_kl = a0k a1l - a0l a1k` (the 2x2 minors of rows 0 and 1, column
//! pairs 01, 02, 03, 12, 13, 23 numbered 0 to 5) and `c_kl` the same of rows
//! 2 and 3, and with `V_k = [a1k, a0k, a3k, a2k]` (column `k`, its rows in
//! pairs swapped) and `M_n = [c_n, c_n, s_n, s_n]`, the adjugate's rows are
//!
//! ```text
//! row 0 =  (V1 M5 - V2 M4 + V3 M3) * [+, -, +, -]
//! row 1 = -(V0 M5 - V2 M2 + V3 M1) * [+, -, +, -]
//! row 2 =  (V0 M4 - V1 M2 + V3 M0) * [+, -, +, -]
//! row 3 = -(V0 M3 - V1 M1 + V2 M0) * [+, -, +, -]
//! ```
//!
//! and the determinant is `s0 c5 - s1 c4 + s2 c3 + s3 c2 - s4 c1 + s5 c0`
//! (Laplace expansion along the first two rows).

use core::arch::x86_64::{
    __m128, _mm_add_ps, _mm_and_ps, _mm_loadu_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_mul_ps,
    _mm_set1_ps, _mm_set_ps, _mm_shuffle_ps, _mm_storeu_ps, _mm_sub_ps, _mm_unpackhi_ps,
    _mm_unpacklo_ps,
};

/// Intel's `_MM_SHUFFLE(z, y, x, w)` (unstable in Rust's `core::arch`):
/// the mask of `_mm_shuffle_ps` taking lanes `w, x` of its first operand,
/// then `y, z` of its second.
const fn mm_shuffle(z: i32, y: i32, x: i32, w: i32) -> i32 {
    (z << 6) | (y << 4) | (x << 2) | w
}

/// Writes the inverse of the row-major 4x4 matrix `a` into `out` and
/// returns `true`, or returns `false` (`out` untouched) if its determinant
/// is not clear of zero: above `closed_form::rounding_bound` of `a`,
/// computed here in vectors beside the minors. (A `target_feature` function, hence `unsafe` to call, although
/// every x86-64 CPU has SSE.) The rows go straight into `out`
/// ([`store_rows`]), not through a returned array.
#[inline]
#[target_feature(enable = "sse")]
pub(super) fn inverse(a: &[f32; 16], out: &mut [f32; 16]) -> bool {
    // SAFETY: `a` is 16 floats, read as four groups of four.
    let [r0, r1, r2, r3] = [0, 4, 8, 12].map(|i| unsafe { _mm_loadu_ps(a[i..].as_ptr()) });
    let (s0123, s45) = minors(r0, r1);
    let (c0123, c45) = minors(r2, r3);
    // M_n = [c_n, c_n, s_n, s_n].
    let m0 = _mm_shuffle_ps::<{ mm_shuffle(0, 0, 0, 0) }>(c0123, s0123);
    let m1 = _mm_shuffle_ps::<{ mm_shuffle(1, 1, 1, 1) }>(c0123, s0123);
    let m2 = _mm_shuffle_ps::<{ mm_shuffle(2, 2, 2, 2) }>(c0123, s0123);
    let m3 = _mm_shuffle_ps::<{ mm_shuffle(3, 3, 3, 3) }>(c0123, s0123);
    let m4 = _mm_shuffle_ps::<{ mm_shuffle(0, 0, 0, 0) }>(c45, s45);
    let m5 = _mm_shuffle_ps::<{ mm_shuffle(1, 1, 1, 1) }>(c45, s45);
    // V_k = [a1k, a0k, a3k, a2k].
    let (low01, high01) = (_mm_unpacklo_ps(r1, r0), _mm_unpackhi_ps(r1, r0));
    let (low23, high23) = (_mm_unpacklo_ps(r3, r2), _mm_unpackhi_ps(r3, r2));
    let v0 = _mm_movelh_ps(low01, low23);
    let v1 = _mm_movehl_ps(low23, low01);
    let v2 = _mm_movelh_ps(high01, high23);
    let v3 = _mm_movehl_ps(high23, high01);
    let rows = [
        three(v1, m5, v2, m4, v3, m3),
        three(v0, m5, v2, m2, v3, m1),
        three(v0, m4, v1, m2, v3, m0),
        three(v0, m3, v1, m1, v2, m0),
    ];
    let [s, c] = [s0123, c0123].map(|v| {
        let mut lanes = [0.0f32; 4];
        // SAFETY: `lanes` is four floats.
        unsafe { _mm_storeu_ps(lanes.as_mut_ptr(), v) };
        lanes
    });
    let [s4, s5, c4, c5] = {
        let mut lanes = [0.0f32; 4];
        // SAFETY: `lanes` is four floats.
        unsafe { _mm_storeu_ps(lanes.as_mut_ptr(), _mm_movelh_ps(s45, c45)) };
        lanes
    };
    let det = s[0] * c5 - s[1] * c4 + s[2] * c[3] + s[3] * c[2] - s4 * c[1] + s5 * c[0];
    let bound = rounding_bound([r0, r1, r2, r3]);
    // A NaN determinant is not clear of zero either.
    let clear_of_zero = det.abs() > bound;
    if !clear_of_zero {
        return false;
    }
    let r = 1.0 / det;
    // Rows 0 and 2 take the signs [+, -, +, -], rows 1 and 3 their opposite.
    let even = _mm_set_ps(-r, r, -r, r);
    let odd = _mm_set_ps(r, -r, r, -r);
    let rows = [0, 1, 2, 3].map(|i| _mm_mul_ps(rows[i], if i % 2 == 0 { even } else { odd }));
    store_rows(rows, out);
    true
}

/// Stores the four rows into `out` in the widest vectors the build has:
/// the caller moves the result on with such vectors (a 64-byte copy on
/// AVX-512), and a load that spans several smaller stores waits for them to
/// leave the store buffer instead of taking their data (`benches/linalg.rs`
/// copies the result on, as a caller does).
#[inline]
#[target_feature(enable = "sse")]
fn store_rows(rows: [__m128; 4], out: &mut [f32; 16]) {
    #[cfg(target_feature = "avx512f")]
    {
        use core::arch::x86_64::{_mm512_castps128_ps512, _mm512_insertf32x4, _mm512_storeu_ps};
        let [r0, r1, r2, r3] = rows;
        // SAFETY: the build targets AVX-512F (the `cfg`); `out` is 16 floats.
        unsafe {
            let low = _mm512_insertf32x4::<1>(_mm512_castps128_ps512(r0), r1);
            let all = _mm512_insertf32x4::<3>(_mm512_insertf32x4::<2>(low, r2), r3);
            _mm512_storeu_ps(out.as_mut_ptr(), all);
        }
    }
    #[cfg(all(target_feature = "avx", not(target_feature = "avx512f")))]
    {
        use core::arch::x86_64::{_mm256_set_m128, _mm256_storeu_ps};
        let [r0, r1, r2, r3] = rows;
        // SAFETY: the build targets AVX (the `cfg`); `out` is 16 floats,
        // written as two groups of eight.
        unsafe {
            _mm256_storeu_ps(out.as_mut_ptr(), _mm256_set_m128(r1, r0));
            _mm256_storeu_ps(out[8..].as_mut_ptr(), _mm256_set_m128(r3, r2));
        }
    }
    #[cfg(not(target_feature = "avx"))]
    for (i, row) in rows.into_iter().enumerate() {
        // SAFETY: `out[4 * i..]` holds at least four floats (i < 4).
        unsafe { _mm_storeu_ps(out[4 * i..].as_mut_ptr(), row) };
    }
}

/// `8 n eps prod_i |row_i|_1` of the rows (n = 4), as
/// `closed_form::rounding_bound` computes it: the rows' magnitudes summed
/// pairwise in two vectors, off the determinant's dependency chain.
#[inline]
#[target_feature(enable = "sse")]
fn rounding_bound(rows: [__m128; 4]) -> f32 {
    // Every bit but the sign.
    let magnitude = _mm_set1_ps(f32::from_bits(0x7fff_ffff));
    let [t0, t1, t2, t3] = rows.map(|r| _mm_and_ps(r, magnitude));
    // [t00 + t02, t10 + t12, t01 + t03, t11 + t13], then its halves added:
    // lanes 0 and 1 hold the 1-norms of the two rows.
    let pair = |p: __m128, q: __m128| {
        let sums = _mm_add_ps(_mm_unpacklo_ps(p, q), _mm_unpackhi_ps(p, q));
        _mm_add_ps(sums, _mm_movehl_ps(sums, sums))
    };
    let norms = _mm_movelh_ps(pair(t0, t1), pair(t2, t3));
    let mut lanes = [0.0f32; 4];
    // SAFETY: `lanes` is four floats.
    unsafe { _mm_storeu_ps(lanes.as_mut_ptr(), norms) };
    32.0 * f32::EPSILON * (lanes[0] * lanes[1]) * (lanes[2] * lanes[3])
}

/// `x p - y q + z r`, lane by lane.
#[inline]
#[target_feature(enable = "sse")]
fn three(x: __m128, p: __m128, y: __m128, q: __m128, z: __m128, r: __m128) -> __m128 {
    _mm_add_ps(
        _mm_sub_ps(_mm_mul_ps(x, p), _mm_mul_ps(y, q)),
        _mm_mul_ps(z, r),
    )
}

/// The six 2x2 minors of two rows `p`, `q`: `[m01, m02, m03, m12]` and
/// `[m13, m23, m13, m23]`, where `m_kl = p_k q_l - p_l q_k`.
#[inline]
#[target_feature(enable = "sse")]
fn minors(p: __m128, q: __m128) -> (__m128, __m128) {
    (
        cross::<{ mm_shuffle(1, 0, 0, 0) }, { mm_shuffle(2, 3, 2, 1) }>(p, q),
        cross::<{ mm_shuffle(2, 1, 2, 1) }, { mm_shuffle(3, 3, 3, 3) }>(p, q),
    )
}

/// `p[K] q[L] - q[K] p[L]` lane by lane, `K` and `L` the lanes each output
/// lane takes (`_mm_shuffle_ps` masks).
#[inline]
#[target_feature(enable = "sse")]
fn cross<const K: i32, const L: i32>(p: __m128, q: __m128) -> __m128 {
    _mm_sub_ps(
        _mm_mul_ps(_mm_shuffle_ps::<K>(p, p), _mm_shuffle_ps::<L>(q, q)),
        _mm_mul_ps(_mm_shuffle_ps::<K>(q, q), _mm_shuffle_ps::<L>(p, p)),
    )
}

#[cfg(test)]
mod tests {
    /// The scalar closed form's inverse (the same formulas, element by
    /// element), and `None` for a zero determinant.
    fn scalar(a: &[f32; 16]) -> Option<[f32; 16]> {
        let mut out = [0.0f32; 16];
        super::super::closed_form::scalar_inverse4(a, &mut out).then_some(out)
    }

    #[test]
    fn the_rounding_bound_is_the_scalar_one() {
        let a: [f32; 16] = core::array::from_fn(|k| (k as f32 - 7.5) * 0.3);
        let rows = [0, 4, 8, 12].map(|i| {
            // SAFETY: `a[i..]` holds at least four floats.
            unsafe { core::arch::x86_64::_mm_loadu_ps(a[i..].as_ptr()) }
        });
        // SAFETY: every x86-64 CPU has SSE.
        let simd = unsafe { super::rounding_bound(rows) };
        let scalar = super::super::closed_form::rounding_bound(&a, 4);
        assert!((simd - scalar).abs() <= 1e-6 * scalar, "{simd} vs {scalar}");
    }

    #[test]
    fn agrees_with_the_scalar_closed_form() {
        let mut seed = 7u32;
        for _ in 0..200 {
            let a: [f32; 16] = core::array::from_fn(|_| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (seed >> 8) as f32 / (1 << 24) as f32 - 0.5
            });
            let mut simd = [0.0f32; 16];
            // SAFETY: every x86-64 CPU has SSE.
            assert!(
                unsafe { super::inverse(&a, &mut simd) },
                "random matrices are invertible"
            );
            let reference = scalar(&a).expect("invertible");
            for (x, y) in simd.iter().zip(reference) {
                assert!((x - y).abs() <= 1e-4 * (1.0 + y.abs()), "{x} vs {y}");
            }
        }
        let singular = [
            1.0, 2.0, 3.0, 4.0, 2.0, 4.0, 6.0, 8.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0,
        ];
        let mut untouched = [7.0f32; 16];
        // SAFETY: as above.
        assert!(!unsafe { super::inverse(&singular, &mut untouched) });
        assert_eq!(
            untouched, [7.0; 16],
            "a singular matrix leaves the output as it was"
        );
        assert_eq!(scalar(&singular), None);
    }
}
