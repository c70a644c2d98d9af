//! Storage that starts on a 64-byte boundary: `AlignedBox`, the storage of a
//! `HeapTensor` (feature `alloc`).
//!
//! The fused loop reads and writes whole vectors (32 or 64 bytes). A plain
//! `Box<[f32]>` is only promised 4-byte alignment (glibc's large blocks start
//! 16 bytes past a page boundary), so every other 32-byte load of a row spans
//! two cache lines: natively over `[64, 1024]`, `exp` ran 3% and `sigmoid` 5%
//! slower from such storage than from 64-byte aligned storage. PyTorch and
//! Eigen align their tensors the same way, to 64 bytes: one cache line, and
//! the widest x86 vector.

mod boxed;

pub(crate) use boxed::AlignedBox;

/// The alignment, in bytes: one cache line, which is also the widest x86
/// vector (AVX-512).
const ALIGN: usize = 64;
