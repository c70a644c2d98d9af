//! The 8 x 32 `f32` tile of a product in AVX-512 registers, written with
//! the instructions themselves.
//!
//! The generic kernel ([`super::kernel`]) leaves the vector width to LLVM,
//! whose tuning for some CPUs with AVX-512 (Intel's server parts) prefers
//! 256-bit vectors: an 8 x 32 tile is then 32 halves in 32 registers, and
//! the `k` loop spills. Here the tile is 16 accumulators of 16 lanes,
//! whatever the tuning, with two loads of the right row and one broadcast
//! of each left element per term. The tiled nests of AVX-512 (the default
//! build's run-time dispatch, and native builds with AVX-512) use 8 x 32
//! tiles, so an `f32` product takes this kernel in either.

use crate::element::Element;
use crate::expr::block::RightBlock;
use crate::expr::Row;
use core::any::Any;

/// Sums `a_rows[r][kk] * b(kk)[j]` over `kk < k` into `block`, where the
/// elements are `f32`, the tile 8 x 32 and the CPU has AVX-512F; false
/// (nothing done) otherwise.
#[inline(always)]
pub(super) fn accumulate<T: Element, Ra: Row<T>, const R: usize, const C: usize>(
    a_rows: &[Ra; R],
    k: usize,
    block: &mut [[T; C]; R],
    b: &impl RightBlock<T, C>,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let Some(block) = (block as &mut dyn Any).downcast_mut::<[[f32; 32]; 8]>() else {
            return false;
        };
        if !available() {
            return false;
        }
        // SAFETY: the CPU has AVX-512F (checked above).
        unsafe { x86::accumulate_8x32(a_rows, k, block, b) };
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (a_rows, k, block, b);
        false
    }
}

/// Whether the kernels run with AVX-512: known at compile time where the
/// target has it, else the selected level ([`crate::isa`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn available() -> bool {
    if cfg!(target_feature = "avx512f") {
        return true;
    }
    crate::isa::selected() >= crate::isa::Level::Avx512
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use crate::element::Element;
    use crate::expr::block::RightBlock;
    use crate::expr::Row;
    use core::any::Any;
    use core::arch::x86_64::{
        __m512, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_set1_ps, _mm512_setzero_ps,
        _mm512_storeu_ps,
    };

    /// The kernel of [`super::accumulate`]: `block` is the tile as `f32`;
    /// `T` is `f32` (the caller's downcast of the tile succeeded), which
    /// the reads of `a_rows` and `b` downcast again, for free once inlined.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) unsafe fn accumulate_8x32<T: Element, Ra: Row<T>, const R: usize, const C: usize>(
        a_rows: &[Ra; R],
        k: usize,
        block: &mut [[f32; 32]; 8],
        b: &impl RightBlock<T, C>,
    ) {
        let Ok(a_rows) = <&[Ra; 8]>::try_from(a_rows.as_slice()) else {
            unreachable!("an 8-row tile (the caller's downcast)")
        };
        let zero = _mm512_setzero_ps();
        let mut sums: [[__m512; 2]; 8] = [[zero; 2]; 8];
        // In a runtime optimised for size (`cfg(size_profile)`) rows by
        // constant index: at `opt-level = "s"` a loop over the rows is
        // kept, and the tile with it in memory. Elsewhere the loop, which
        // LLVM unrolls and schedules better: written out there, large
        // products ran at 0.8-0.9x their speed (PERFORMANCE.md, "Release
        // speed since the build-cost work").
        for kk in 0..k {
            let row = b.load(kk);
            let row = (&row as &dyn Any)
                .downcast_ref::<[f32; 32]>()
                .unwrap_or(&[0.0; 32]);
            // SAFETY: 16 floats from element 0 and from element 16 of a
            // 32-float array.
            let (low, high) = unsafe {
                (
                    _mm512_loadu_ps(row.as_ptr()),
                    _mm512_loadu_ps(row.as_ptr().add(16)),
                )
            };
            macro_rules! fmadd_row {
                ($($r:literal)*) => {$(
                    let a = a_rows[$r].get(kk, T::ZERO);
                    let a = _mm512_set1_ps(*(&a as &dyn Any).downcast_ref::<f32>().unwrap_or(&0.0));
                    sums[$r][0] = _mm512_fmadd_ps(a, low, sums[$r][0]);
                    sums[$r][1] = _mm512_fmadd_ps(a, high, sums[$r][1]);
                )*};
            }
            if cfg!(size_profile) {
                fmadd_row!(0 1 2 3 4 5 6 7);
            } else {
                for (sum, a_row) in sums.iter_mut().zip(a_rows) {
                    let a = a_row.get(kk, T::ZERO);
                    let a = _mm512_set1_ps(*(&a as &dyn Any).downcast_ref::<f32>().unwrap_or(&0.0));
                    sum[0] = _mm512_fmadd_ps(a, low, sum[0]);
                    sum[1] = _mm512_fmadd_ps(a, high, sum[1]);
                }
            }
        }
        macro_rules! store_row {
            ($($r:literal)*) => {$(
                // SAFETY: 16 floats from element 0 and from element 16 of
                // a 32-float array.
                unsafe {
                    _mm512_storeu_ps(block[$r].as_mut_ptr(), sums[$r][0]);
                    _mm512_storeu_ps(block[$r].as_mut_ptr().add(16), sums[$r][1]);
                }
            )*};
        }
        store_row!(0 1 2 3 4 5 6 7);
    }
}
