//! One error for a shape with several clashing dims.
//!
//! The per-dim rules (broadcasting, the in-place rule) check each aligned pair
//! of dims with a message carrier that names the pair's position. Checked side
//! by side, two clashing pairs would give two errors. Here the pairs are
//! checked as a chain, from the rightmost pair leftwards: each pair's carrier
//! takes its right neighbour's *witness* as a parameter `W`, and holds for the
//! concrete pairs that fit only when `W` is `()` (all pairs to its right fit).
//! Once a pair fails, rustc cannot compute its witness, so the pairs to its
//! left are ambiguous rather than failing, and rustc reports only the first
//! failure: one error, the rightmost clashing dim, as PyTorch counts it.
//!
//! The layout that makes rustc report that one error with no note (measured on
//! rustc 1.95; every other variant tried gave a second error or a note):
//! - the carrier has one impl per concrete pair shape for `W = ()` (so a
//!   clashing pair fails when rustc *selects* the impl, which is what stops the
//!   chain) and one impl for `W = `[`Unchecked`] over every pair (so a pair
//!   whose `W` is unknown has two candidates and stays ambiguous);
//! - the rule's output is the chain of carrier projections, so rustc finds the
//!   failure while it computes the node's type, and reports the carrier;
//! - the rule's where-clauses name each pair through a `LinkN` trait of this
//!   module, whose parameters are the plain pairs to its right; the chained
//!   projections appear only inside `LinkN`, so rustc meets them one level
//!   deeper than the output, after it has reported the carrier.

/// The witness of a pair checked after a failure to its right: implements
/// every carrier, so that no second error is reported. No compiling program
/// computes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unchecked;

/// The witness of a chain of pairs, nearest first: `witness!(Carrier L R;
/// P1 A1 P2 A2)` is `<P1 as Carrier<L, R, A1, <P2 as Carrier<L, R, A2,
/// ()>>::Checked>>::Checked`, and `()` for no pairs.
macro_rules! witness {
    ($carrier:ident $l:tt $r:tt;) => { () };
    ($carrier:ident $l:tt $r:tt; $pair:tt $axis:tt $($rest:tt)*) => {
        <$pair as $carrier<$l, $r, $axis, $crate::rules::chain::witness!($carrier $l $r; $($rest)*)>>::Checked
    };
}
pub(crate) use witness;

/// Defines, for the carrier trait `$carrier<L, R, const AXIS: isize, W>` with
/// a `Checked` witness, the traits `Link0` to `Link5`: `P: LinkN<L, R, AXIS,
/// P1, A1, .., PN, AN>` is `P`'s carrier with the witness of the `N` pairs to
/// its right (nearest first), stated with plain pairs as parameters.
macro_rules! define_links {
    ($carrier:ident) => {
        $crate::rules::chain::define_links!(@one $carrier Link0 []);
        $crate::rules::chain::define_links!(@one $carrier Link1 [P1 A1]);
        $crate::rules::chain::define_links!(@one $carrier Link2 [P1 A1 P2 A2]);
        $crate::rules::chain::define_links!(@one $carrier Link3 [P1 A1 P2 A2 P3 A3]);
        $crate::rules::chain::define_links!(@one $carrier Link4 [P1 A1 P2 A2 P3 A3 P4 A4]);
        $crate::rules::chain::define_links!(@one $carrier Link5 [P1 A1 P2 A2 P3 A3 P4 A4 P5 A5]);
    };
    (@one $carrier:ident $name:ident [$($p:ident $a:ident)*]) => {
        $crate::rules::chain::define_links!(@bounds $carrier $name [$($p $a)*] [$($p $a)*] []);
    };
    // Each pair to the right must itself hold, with the witness of the pairs
    // to its own right (for the projections in the supertrait to be well formed).
    (@bounds $carrier:ident $name:ident $all:tt [$p:ident $a:ident $($rest:ident)*] [$($bounds:tt)*]) => {
        $crate::rules::chain::define_links!(@bounds $carrier $name $all [$($rest)*]
            [$($bounds)* $p: $carrier<L, R, $a, $crate::rules::chain::witness!($carrier L R; $($rest)*)>,]);
    };
    (@bounds $carrier:ident $name:ident [$($p:ident $a:ident)*] [] [$($bounds:tt)*]) => {
        #[doc = concat!("A pair's [`", stringify!($carrier), "`] after the pairs to its right; see [`crate::rules::chain`].")]
        pub trait $name<L, R, const AXIS: isize, $($p, const $a: isize,)*>:
            $carrier<L, R, AXIS, $crate::rules::chain::witness!($carrier L R; $($p $a)*)>
        where
            $($bounds)*
        {
        }

        #[diagnostic::do_not_recommend]
        impl<L, R, const AXIS: isize, $($p, const $a: isize,)* Pair> $name<L, R, AXIS, $($p, $a,)*> for Pair
        where
            Pair: $carrier<L, R, AXIS, $crate::rules::chain::witness!($carrier L R; $($p $a)*)>,
            $($bounds)*
        {
        }
    };
}
pub(crate) use define_links;

/// Writes the impls of a chained carrier `$carrier<L, R, const AXIS: isize,
/// W>` whose pairs fit the NumPy way, with the dim-valued `$output` and the
/// `Checked` witness: one impl per fitting pair shape for `W = ()` (equal dims
/// over any `Dim`, for shape-generic code; a `One` on either side), so that a
/// clashing pair has no impl; the [`Unchecked`] impl; and the `$links` module
/// of `LinkN` traits. `$one_left` is the output for `(One, D<N>)`.
macro_rules! impl_dim_carrier {
    ($carrier:ident, $output:ident, one_left: $one_left:ty, $links:ident) => {
        #[diagnostic::do_not_recommend]
        impl<L, R, const AXIS: isize, X: Dim> $carrier<L, R, AXIS, ()> for (X, X) {
            type $output = X;
            type Checked = ();
        }
        #[diagnostic::do_not_recommend]
        impl<L, R, const AXIS: isize, const N: usize> $carrier<L, R, AXIS, ()> for (D<N>, One) {
            type $output = D<N>;
            type Checked = ();
        }
        #[diagnostic::do_not_recommend]
        impl<L, R, const AXIS: isize, const N: usize> $carrier<L, R, AXIS, ()> for (One, D<N>) {
            type $output = $one_left;
            type Checked = ();
        }
        /// A run-time dim stretches a `One` as a static dim does (and
        /// meets itself through the equal pair above; against a static
        /// size it has no impl).
        #[diagnostic::do_not_recommend]
        impl<L, R, const AXIS: isize> $carrier<L, R, AXIS, ()> for ($crate::dim::RunTime, One) {
            type $output = $crate::dim::RunTime;
            type Checked = ();
        }
        #[diagnostic::do_not_recommend]
        impl<L, R, const AXIS: isize> $carrier<L, R, AXIS, ()> for (One, $crate::dim::RunTime) {
            type $output = $crate::dim::RunTime;
            type Checked = ();
        }
        /// A pair to the left of a failure: never reported (see [`super::chain`]).
        #[diagnostic::do_not_recommend]
        impl<L, R, const AXIS: isize, X: Dim, Y> $carrier<L, R, AXIS, $crate::rules::chain::Unchecked> for (X, Y) {
            type $output = X;
            type Checked = $crate::rules::chain::Unchecked;
        }
        #[doc = concat!("The chained form of [`", stringify!($carrier), "`], one trait per number of pairs to the right.")]
        pub mod $links {
            use super::$carrier;
            $crate::rules::chain::define_links!($carrier);
        }
    };
}
pub(crate) use impl_dim_carrier;

/// Writes the impl of a per-dim rule over the aligned pairs of two shapes,
/// chained as the module doc says: `$callback!(@emit_chained [generics] Self
/// Rhs [leading dims] [where-clauses] [pair outputs])` once the pairs are
/// linked. Called as `chain_pairs!(callback, Carrier, Output, [generics] Self
/// Rhs [leading dims] [(x, y, position) ..])` with the pairs outermost first.
macro_rules! chain_pairs {
    ($callback:ident, $carrier:ident, $output:ident, $ctx:tt [$($pairs:tt)*]) => {
        $crate::rules::chain::chain_pairs!(@reverse $callback $carrier $output $ctx [] [$($pairs)*]);
    };
    (@reverse $callback:ident $carrier:ident $output:ident $ctx:tt [$($done:tt)*] [$first:tt $($rest:tt)*]) => {
        $crate::rules::chain::chain_pairs!(@reverse $callback $carrier $output $ctx [$first $($done)*] [$($rest)*]);
    };
    (@reverse $callback:ident $carrier:ident $output:ident $ctx:tt [$($done:tt)*] []) => {
        $crate::rules::chain::chain_pairs!(@link $callback $carrier $output $ctx
            [Link0 Link1 Link2 Link3 Link4 Link5] [] [$($done)*] [] []);
    };
    // Right to left: each pair is linked to the pairs already seen (nearest first).
    (@link $callback:ident $carrier:ident $output:ident
        [[$($g:ident)*] $self_:tt $rhs:tt $lead:tt]
        [$link:ident $($links:ident)*] [$($right:tt)*] [($x:ident, $y:ident, $p:tt) $($more:tt)*]
        [$($bounds:tt)*] [$($outputs:tt)*]) => {
        $crate::rules::chain::chain_pairs!(@link $callback $carrier $output
            [[$($g)*] $self_ $rhs $lead]
            [$($links)*] [($x, $y) $p $($right)*] [$($more)*]
            [$($bounds)* ($x, $y): $link<$self_, $rhs, $p, $($right,)*>,]
            [<($x, $y) as $carrier<$self_, $rhs, $p, $crate::rules::chain::witness!($carrier $self_ $rhs; $($right)*)>>::$output, $($outputs)*]);
    };
    (@link $callback:ident $carrier:ident $output:ident [$g:tt $self_:tt $rhs:tt $lead:tt]
        $links:tt $right:tt [] $bounds:tt $outputs:tt) => {
        $callback!(@emit_chained $g $self_ $rhs $lead $bounds $outputs);
    };
}
pub(crate) use chain_pairs;
