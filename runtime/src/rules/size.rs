//! Arithmetic on dim sizes at the type level: the sizes convolutions,
//! pools and `windows` compute (`(L + 2p - d (k - 1) - 1) / s + 1`) and the
//! element counts `reshape` compares.
//!
//! Stable Rust cannot write `D<{(L - K) / S + 1}>` for a generic `L`
//! ("generic parameters may not be used in const operations"), so sizes are
//! mapped to typenum numbers ([`TypeSize`]), computed on with typenum, and
//! mapped back ([`SizeDim`]). Both maps are tables the build script writes:
//! a const `N` becomes a type only through an impl naming `N`. rustc checks
//! every pair of impls of a trait whose self types have the same outer type
//! for overlap, so a table's cost grows with the square of its length; each
//! table is laid out to keep that check small, and the tables stop at
//! [`LARGEST_TABLED_SIZE`] (PERFORMANCE.md, "The size tables", has what a table
//! to 65,536 cost):
//! - `D<N>` to typenum for every `N` up to [`LARGEST_TABLED_SIZE`] and every
//!   power of 2 and of 10, as `SizeTable: Holds<N>` behind one generic
//!   impl for every `D<N>`;
//! - typenum back to a dim for every size up to [`LARGEST_TABLED_SIZE`]
//!   (1 gives [`One`], as `Shape![1]` does), split by the size's high bits
//!   into 65 blocks of 64 with a type of their own.
//!
//! A size beyond the tables is a compile-time error naming it, never a wrong
//! shape: each rule reads the dims it computes with through
//! [`ComputableSize`], whose message is the one error.
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
    note = "convolutions, pools, `windows` and `reshape` compute sizes with typenum, over dims up to 4096 and powers of 2 and 10"
)]
pub trait TypeSize {
    /// The size as a typenum type.
    type Size;
}

/// Marked, as the impl for `D<N>` is, so that the error for a size beyond
/// the table lists no impl.
#[diagnostic::do_not_recommend]
impl TypeSize for One {
    type Size = U1;
}

/// Every `D<N>` has an impl, which holds where the forward table has `N`.
/// Marked so that a size beyond the table is reported as `D<N>:
/// TypeSize`, by this trait's message, rather than as a missing entry.
#[diagnostic::do_not_recommend]
impl<const N: usize> TypeSize for D<N>
where
    SizeTable: Holds<N>,
{
    type Size = <SizeTable as Holds<N>>::Size;
}

/// The forward table: `SizeTable: Holds<N>` for every size it covers.
#[doc(hidden)]
pub struct SizeTable;

/// One entry of the forward table.
#[doc(hidden)]
pub trait Holds<const N: usize> {
    /// `N` as a typenum number.
    type Size;
    /// `D<N>`.
    type Dim: Dim;
}

/// A dim whose size [`TypeSize`] covers. A rule reads its input's dims (the
/// sizes, the channels) as `<X as ComputableSize>::Dim`: a size beyond the
/// table then fails here, once, by this message, and the rule's carriers
/// over that dim are left undecided (rustc reports an undecided obligation
/// only where nothing else failed) instead of failing with a message about
/// the shapes that would not be true ("a kernel of size 3 does not fit an
/// input of 16000"). A kernel, window or option beyond the table is left
/// to the carriers: in a convolution, pool or window it is then larger than
/// the input dim it must fit, which is their message; a transposed
/// convolution's kernel over 4096 taps is reported as leaving no output,
/// which is not the reason.
#[diagnostic::on_unimplemented(
    message = "the size of `{Self}` is beyond the sizes computed on at compile time",
    label = "a dim over 4096 that is not a power of 2 or 10",
    note = "convolutions, pools, `windows` and `reshape` compute sizes with typenum, over dims up to 4096 and powers of 2 and 10; view a longer axis in parts with `narrow::<AXIS, START, LEN>()`"
)]
pub trait ComputableSize {
    /// `Self`.
    type Dim: Dim;
}

/// `Dim` is read from the table, not written as `D<N>`, so that beyond the
/// table it cannot be normalised at all: the carriers that read it are
/// then undecided rather than failing.
#[diagnostic::do_not_recommend]
impl<const N: usize> ComputableSize for D<N>
where
    SizeTable: Holds<N>,
{
    type Dim = <SizeTable as Holds<N>>::Dim;
}

#[diagnostic::do_not_recommend]
impl ComputableSize for One {
    type Dim = One;
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

    #[test]
    fn a_computable_size_is_the_same_dim() {
        fn id<X: ComputableSize>() -> TypeId {
            TypeId::of::<X::Dim>()
        }
        assert_eq!(id::<D<4096>>(), TypeId::of::<D<4096>>());
        assert_eq!(id::<D<1>>(), TypeId::of::<D<1>>());
        assert_eq!(id::<One>(), TypeId::of::<One>());
        assert_eq!(id::<D<1048576>>(), TypeId::of::<D<1048576>>());
    }
}
