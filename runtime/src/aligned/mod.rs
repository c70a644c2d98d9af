//! Storage that starts on a 64-byte boundary: [`LineAligned`] on the stack,
//! `AlignedBox` on the heap (feature `alloc`, the storage of a `HeapTensor`).
//!
//! The fused loop reads and writes whole vectors (32 or 64 bytes). A plain
//! `Box<[f32]>` is only promised 4-byte alignment (glibc's large blocks start
//! 16 bytes past a page boundary), so every other 32-byte load of a row spans
//! two cache lines: natively over `[64, 1024]`, `exp` ran 3% and `sigmoid` 5%
//! slower from such storage than from 64-byte aligned storage. PyTorch and
//! Eigen align their tensors the same way, to 64 bytes: one cache line, and
//! the widest x86 vector.
//!
//! On the stack, where a small matrix is copied in whole vectors and then
//! read one element at a time, the position decided more than the cache
//! lines: natively on this project's AMD EPYC (Zen 5), a 6x6 Cholesky
//! factorisation took 57-62 ns in runs whose stack sat at one of two
//! positions 16 bytes apart and 37 ns at the other (period 32 bytes), and
//! on a copy starting on a cache line 37.5-38 ns at every position tried
//! (`benches/linalg.rs` under `setarch -R`, the stack moved by environment
//! padding). Which loads wait for which stores there is not established.

#[cfg(feature = "alloc")]
mod boxed;

#[cfg(feature = "alloc")]
pub(crate) use boxed::AlignedBox;

/// The alignment, in bytes: one cache line, which is also the widest x86
/// vector (AVX-512).
#[cfg(feature = "alloc")]
const ALIGN: usize = 64;

/// `X` starting on a 64-byte boundary (a matrix being factorised): see the
/// module's documentation for why. Not the row caches of reductions: their
/// alignment measured within noise, and its padding, once per nested
/// reduction, overflowed a debug build's stack 64 reductions deep.
#[repr(align(64))]
pub(crate) struct LineAligned<X>(pub(crate) X);

impl<X> core::ops::Deref for LineAligned<X> {
    type Target = X;
    #[inline(always)]
    fn deref(&self) -> &X {
        &self.0
    }
}

impl<X> core::ops::DerefMut for LineAligned<X> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut X {
        &mut self.0
    }
}
