//! The shape rules, one module each. Every module states its rule as the
//! documentation of NumPy, PyTorch or XLA does and implements it at the type
//! level. The per-dim rules, whose impls the private
//! `for_each_aligned_rank_pair!` generator writes (broadcasting, in place,
//! `in_dims`, matmul, rank), also give a plain reference version over
//! `&[usize]` (`broadcast_dims`, `check_in_place`, `place_dims`,
//! `matmul_dims`, `ranks_agree_strictly`), used for strides, messages and
//! property tests, and reporting the same dim as the type-level rule. The
//! others (axes, permutations, reshape, element types) are checked by their
//! impls per rank or per type, and tested against ndarray instead. What the
//! generators write for small ranks is checked in as plain Rust,
//! `tests/golden/<rule>.expanded.rs` in this crate, kept current by
//! `tests/golden_rules.rs`.
//!
//! # How a rule reports a mistake (measured on rustc 1.95)
//!
//! Every rule, here and in the traits the macro writes, has the same three
//! parts, so that a mistake is one error of at most 8 lines, spanned where the
//! macro put the constructor call, with no note pointing into the library:
//! 1. a **message carrier**: a trait with `#[diagnostic::on_unimplemented]`
//!    whose parameters name what the message prints (both shapes, the dim);
//!    where it needs a leaf, its one impl is a `do_not_recommend` blanket impl
//!    over that leaf, so rustc reports the carrier, not the leaf;
//! 2. a **rule** the constructor states, with one impl per concrete shape (per
//!    rank, or per pair of ranks, or per function marker), never one blanket
//!    impl. Where the rule cannot hold, the impl still exists and requires
//!    the carrier of a verdict that implements nothing ([`CannotReduce`],
//!    [`permute::CannotPermute`], [`in_dims::CannotPlace`],
//!    [`elements::MixedElements`]; the leaf is [`NeverHolds`]);
//! 3. the rule's output **computed through the carrier** (an associated type
//!    of the carrier), and the constructor's node **typed through the rule's
//!    output**.
//!
//! rustc then finds the mistake while it computes the node's type and reports
//! the carrier. With a blanket impl, or with no impl for the failing shape, the
//! constructor's own bound fails first instead, and the error gains a
//! five-line "required by a bound" note (and, through `do_not_recommend`,
//! names the message-free rule).
//!
//! Two refinements:
//! - **Per-dim rules** (broadcasting, in place, `in_dims` sizes, matmul batch
//!   dims) check their aligned pairs as a chain, so that several clashing dims
//!   are still one error, naming the rightmost: see [`chain`].
//! - **A scalar operand** needs a failing impl for `()`, whose bound would be
//!   trivially false (rustc rejects it); the rule and its carrier therefore
//!   take an `Anchor` type parameter, default `()`, that only that impl names
//!   ([`permute::Transpose`], and the macro's local `Reduce` and `Permute`).

pub mod axes;
pub mod broadcast;
pub mod chain;
pub mod conv;
pub mod conv_transpose;
pub mod elements;
pub mod gather;
pub mod in_dims;
pub mod in_place;
pub mod matmul;
pub mod matrices;
pub mod permute;
pub mod rank;
pub mod reshape;
pub mod size;
pub mod window;

/// The leaf under the message-carrying traits whose `Self` is a verdict type
/// ([`rank::StrictRanks`] for [`rank::ImplicitRankPromotion`],
/// [`in_place::TargetRankFits`] for [`in_place::ValueHasMoreDims`]): no type
/// implements it, so such a requirement always fails, and rustc reports it by
/// the message of the trait above this leaf.
pub trait NeverHolds {}

/// The verdict on a reduction whose axes do not fit the operand's rank (out of
/// range, or one dim named twice): it implements nothing ([`NeverHolds`]), so the
/// macro's local message carrier over it fails.
pub struct CannotReduce;

/// Calls `$callback!([a dims] [b dims] [leading dims] [positions])` once for
/// every way of right-aligning two shapes whose ranks add up to at most
/// [`MAX_RANK`] per side: the `a` and `b` lists are the aligned (zipped) dims,
/// equally long, outermost first; the leading list holds the extra outer dims of
/// the longer shape; the positions list gives each aligned pair's dim counted
/// from the right, NumPy style (`{-2} {-1}`), for error messages.
///
/// [`MAX_RANK`]: crate::shape::MAX_RANK
macro_rules! for_each_aligned_rank_pair {
    ($callback:ident) => {
        for_each_aligned_rank_pair!(@zip $callback [] [] [] [L0 L1 L2 L3 L4 L5] [A0 A1 A2 A3 A4 A5] [B0 B1 B2 B3 B4 B5]
            [{-1} {-2} {-3} {-4} {-5} {-6}]);
    };
    (@zip $callback:ident [$($a:ident)*] [$($b:ident)*] [$($p:tt)*] [$($pool:ident)*] [] [] []) => {
        for_each_aligned_rank_pair!(@lead $callback [$($a)*] [$($b)*] [$($p)*] [] [$($pool)*]);
    };
    (@zip $callback:ident [$($a:ident)*] [$($b:ident)*] [$($p:tt)*] [$l:ident $($pool:ident)*]
        [$na:ident $($ra:ident)*] [$nb:ident $($rb:ident)*] [$np:tt $($rp:tt)*]) => {
        for_each_aligned_rank_pair!(@lead $callback [$($a)*] [$($b)*] [$($p)*] [] [$l $($pool)*]);
        for_each_aligned_rank_pair!(@zip $callback [$($a)* $na] [$($b)* $nb] [$np $($p)*] [$($pool)*] [$($ra)*] [$($rb)*] [$($rp)*]);
    };
    (@lead $callback:ident $a:tt $b:tt $p:tt [$($l:ident)*] []) => {
        $callback!($a $b [$($l)*] $p);
    };
    (@lead $callback:ident $a:tt $b:tt $p:tt [$($l:ident)*] [$n:ident $($pool:ident)*]) => {
        $callback!($a $b [$($l)*] $p);
        for_each_aligned_rank_pair!(@lead $callback $a $b $p [$($l)* $n] [$($pool)*]);
    };
}
pub(crate) use for_each_aligned_rank_pair;
