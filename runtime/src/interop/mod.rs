//! Interop with the crates the rest of a program already uses, each behind
//! its own feature so a `no_std` build without them pays nothing:
//!
//! | feature    | gives |
//! | ---------- | ----- |
//! | `rand`     | `Tensor::random(&mut rng, distribution)`, `fill_random` |
//! | `ndarray`  | `ArrayView` <-> `TensorView` without a copy, owned conversions both ways |
//! | `nalgebra` | `SMatrix`/`SVector` <-> `Tensor`, a zero-copy `MatrixView` of a tensor |
//! | `serde`    | nested sequences (`[[1, 2], [3, 4]]`), the shape checked on the way in |
//! | `bytemuck` | `as_bytes`, views of aligned byte buffers, `Pod` tensors |
//!
//! Zero-copy conversions that cannot hold (another shape, a strided layout,
//! a misaligned buffer) return a [`ConversionError`](crate::error::ConversionError)
//! naming what was expected and what was found.

#[cfg(feature = "bytemuck")]
pub mod bytes;
#[cfg(feature = "nalgebra")]
pub mod nalgebra;
#[cfg(feature = "ndarray")]
pub mod ndarray;
#[cfg(feature = "rand")]
pub mod random;
#[cfg(feature = "serde")]
pub mod serde;
