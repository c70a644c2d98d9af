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
//! read one element at a time, the alignment decides more than the cache
//! lines: natively on this project's AMD EPYC, a 4-byte load from a 64-byte
//! store at an odd multiple of 16 bytes was not forwarded from the store
//! buffer, and a 6x6 Cholesky factorisation took 57-62 ns in runs whose
//! stack sat there, 37 ns in the others (`benches/linalg.rs`).

#[cfg(feature = "alloc")]
mod boxed;

#[cfg(feature = "alloc")]
pub(crate) use boxed::AlignedBox;

/// The alignment, in bytes: one cache line, which is also the widest x86
/// vector (AVX-512).
#[cfg(feature = "alloc")]
const ALIGN: usize = 64;

/// `X` starting on a 64-byte boundary (a row cache, a matrix being
/// factorised): see the module's documentation for why.
#[repr(align(64))]
pub(crate) struct LineAligned<X>(pub(crate) X);
