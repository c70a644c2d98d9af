//! Arithmetic on dim sizes at the type level: the sizes a convolution
//! computes (`(L + 2p - d (k - 1) - 1) / s + 1`) and the element counts
//! `reshape` compares.
//!
//! Stable Rust cannot write `D<{(L - K) / S + 1}>` for a generic `L`
//! ("generic parameters may not be used in const operations"), so sizes are
//! mapped to typenum numbers ([`TypeSize`]), computed on with typenum, and
//! mapped back ([`SizeDim`]). Both maps are tables the build script writes,
//! each laid out so that rustc's check that no two impls overlap stays cheap
//! (it compares impls whose self types have the same outer type; 4,097
//! impls on `D<N>` took it 4 s, 4,097 nested typenum self types 7 s):
//! - `D<N>` to typenum for every `N` up to [`LARGEST_TABLED_SIZE`] and every
//!   power of 2 and of 10, as `SizeTable: Tabled<N>` behind one generic
//!   impl for every `D<N>`; a size beyond the table then fails that impl's
//!   bound, once, rather than finding no impl at every rule that reads it;
//! - typenum back to a dim for every size up to [`LARGEST_TABLED_SIZE`]
//!   (1 gives [`One`], as `Shape![1]` does), split by the size's high bits
//!   into 65 blocks of 64 with a type of their own.
//!
//! Measured (rustc 1.95, `touch runtime/src/lib.rs && cargo build -p
//! tensor-expr-runtime`): 2.5 s with the tables, 1.9 s without.
//!
//! A size beyond the tables is a compile-time error naming it, never a wrong
//! shape.
//!
//! ```
//! use tensor_expr_runtime::rules::size::{SizeDim, TypeSize};
//! use tensor_expr_runtime::{D, One};
//! use typenum::Sum;
//! // 4033 + 63 computed on types, then read back as a dim.
//! type Back = <Sum<<D<4033> as TypeSize>::Size, <D<63> as TypeSize>::Size> as SizeDim>::Dim;
//! let _: D<4096> = Back::default();
//! let _: One = <<D<1> as TypeSize>::Size as SizeDim>::Dim::default();
//! ```

use crate::dim::{Dim, One, D};
use core::marker::PhantomData;
use core::ops::{BitAnd, Shr};
use typenum::{UInt, UTerm, B0, B1, U1, U6, U63};

/// The largest size every dim arithmetic covers (powers of 2 and of 10 go
/// further as operands of `reshape`).
pub const LARGEST_TABLED_SIZE: usize = 4096;

/// A dim's size as a typenum unsigned: every size up to
/// [`LARGEST_TABLED_SIZE`], and every power of 2 and of 10.
#[diagnostic::on_unimplemented(
    message = "the size of `{Self}` is beyond the sizes computed on at compile time",
    label = "a dim over 4096 that is not a power of 2 or 10",
    note = "convolutions and `reshape` compute sizes with typenum, over dims up to 4096 and powers of 2 and 10"
)]
pub trait TypeSize {
    /// The size as a typenum type.
    type Size;
}

impl TypeSize for One {
    type Size = U1;
}

/// Every `D<N>` has an impl, which holds where the table has `N`: a size
/// beyond the table then fails this impl's bound (as typenum's own
/// `Const<N>: ToUInt` does) rather than finding no impl, which rustc
/// reports once more at every rule that reads the size.
impl<const N: usize> TypeSize for D<N>
where
    SizeTable: Tabled<N>,
{
    type Size = <SizeTable as Tabled<N>>::Size;
}

/// The forward table: `SizeTable: Tabled<N>` for every size it covers.
#[doc(hidden)]
pub struct SizeTable;

/// One entry of the forward table.
#[doc(hidden)]
pub trait Tabled<const N: usize> {
    /// `N` as a typenum number.
    type Size;
}

/// A typenum size read back as a dim: `D<N>`, or [`One`] for 1.
#[diagnostic::on_unimplemented(
    message = "a computed size is over 4096, the largest that is read back as a dim",
    label = "this shape would have a dim over 4096",
    note = "convolutions compute their result sizes with typenum, over dims up to 4096"
)]
pub trait SizeDim {
    /// The dim of that size.
    type Dim: Dim;
}

#[diagnostic::do_not_recommend]
impl<N> SizeDim for N
where
    N: Shr<U6> + BitAnd<U63>,
    <N as Shr<U6>>::Output: HighBits,
    <<N as Shr<U6>>::Output as HighBits>::Block<<N as BitAnd<U63>>::Output>: BlockDim,
{
    type Dim =
        <<<N as Shr<U6>>::Output as HighBits>::Block<<N as BitAnd<U63>>::Output> as BlockDim>::Dim;
}

/// A size's bits above the low six: names the block of the reverse table
/// that holds it.
#[doc(hidden)]
pub trait HighBits {
    /// The block, given the low six bits.
    type Block<Low>;
}

/// One entry of the reverse table: a block and the low bits of a size.
#[doc(hidden)]
pub trait BlockDim {
    /// The dim of that size.
    type Dim: Dim;
}

include!(concat!(env!("OUT_DIR"), "/size_tables.rs"));

#[cfg(test)]
mod tests {
    use super::*;
    use core::any::TypeId;

    fn round_trip<N: TypeSize>() -> TypeId
    where
        N::Size: SizeDim,
    {
        TypeId::of::<<N::Size as SizeDim>::Dim>()
    }

    #[test]
    fn sizes_map_to_typenum_and_back() {
        assert_eq!(round_trip::<D<0>>(), TypeId::of::<D<0>>());
        assert_eq!(round_trip::<D<1>>(), TypeId::of::<One>());
        assert_eq!(round_trip::<D<63>>(), TypeId::of::<D<63>>());
        assert_eq!(round_trip::<D<64>>(), TypeId::of::<D<64>>());
        assert_eq!(round_trip::<D<1093>>(), TypeId::of::<D<1093>>());
        assert_eq!(round_trip::<D<4096>>(), TypeId::of::<D<4096>>());
        // The build script's table reaches the documented size.
        assert_eq!(
            round_trip::<D<LARGEST_TABLED_SIZE>>(),
            TypeId::of::<D<LARGEST_TABLED_SIZE>>()
        );
        assert_eq!(
            <<D<1000> as TypeSize>::Size as typenum::Unsigned>::USIZE,
            1000
        );
        assert_eq!(
            <<D<65536> as TypeSize>::Size as typenum::Unsigned>::USIZE,
            65536
        );
    }
}
