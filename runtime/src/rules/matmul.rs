//! NumPy `matmul` (`a @ b`), checked by the trait solver.
//!
//! The rule, as NumPy's `matmul` documentation states it:
//! 1. Do not reverse the order: `a @ b` is not `b @ a`.
//! 2. The last two dims of each operand are a matrix, `(m, k) @ (k, n) -> (m, n)`;
//!    the two `k` (the contracted dims) must be equal. They do not broadcast.
//! 3. The dims before them (the batch dims) broadcast by the elementwise rule:
//!    left-pad the shorter batch with 1s, each pair equal or one of them 1.
//! 4. A 1-D left operand `(k,)` is promoted to `(1, k)` and that 1 is removed from
//!    the result; a 1-D right operand `(k,)` to `(k, 1)`, likewise removed; so
//!    `(k,) @ (k,)` is a scalar (a dot product). Scalars are not matrices: use `*`.
//!
//! Examples: `(3, 4) @ (2, 5, 4, 6)` gives `(2, 5, 3, 6)`; `(4, 3, 5, 3, 8) @ (8, 6)`
//! gives `(4, 3, 5, 3, 6)`; `(7, 1, 2, 3) @ (5, 3, 4)` gives `(7, 5, 2, 4)`;
//! `(1, 1, 3, 4) @ (2, 3, 5, 3)` fails (4 against 5) and `(4, 2, 3, 5) @ (3, 2, 5, 6)`
//! fails (batch dims 4 against 3).
//!
//! [`matmul_dims`] is the same rule over plain sizes, for messages and tests.

use super::broadcast::{broadcast_dims, BroadcastMismatch, Dims};
use super::chain::{chain_pairs, impl_dim_carrier};
use super::for_each_aligned_rank_pair;
use crate::dim::{Dim, One, D};
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// Whether an operand of `@` is a matrix (rank >= 2) or a promoted vector (rank 1).
pub trait Kind {
    /// `true` for a promoted 1-D operand, whose unit dim leaves the result.
    const VECTOR: bool;
}

/// A rank >= 2 operand.
pub enum Matrix {}
/// A rank-1 operand, promoted for the product and removed from the result.
pub enum Vector {}

impl Kind for Matrix {
    const VECTOR: bool = false;
}
impl Kind for Vector {
    const VECTOR: bool = true;
}

/// A shape that can stand on the left of `@`: rank 1 or more.
///
/// Every such shape can also stand on the right (the supertrait). Besides
/// being true, it lets rustc see that a scalar failing this trait also fails
/// [`MatmulRhs`], so `s @ s` is reported once, by [`MatmulLeft`].
pub trait MatmulLhs: MatmulRhs {
    /// The batch dims (all but the last two).
    type Batch: BatchShape;
    /// `m`: the rows (`One` for a promoted vector).
    type Rows: Dim;
    /// `k`: the contracted dim.
    type Inner: Dim;
    /// Matrix or promoted vector.
    type Kind: Kind;
}

/// A shape that can stand on the right of `@`: rank 1 or more.
pub trait MatmulRhs: Shape {
    /// The batch dims (all but the last two).
    type Batch: BatchShape;
    /// `k`: the contracted dim.
    type Inner: Dim;
    /// `n`: the columns (`One` for a promoted vector).
    type Cols: Dim;
    /// Matrix or promoted vector.
    type Kind: Kind;
}

/// `Self` on the left of `Self @ B`: the message carrier for a scalar there.
///
/// Like every part of the rule, it is a where-clause of a [`MatmulRule`] impl
/// whose `Output` is computed through it (here: the impls for a scalar
/// operand), so rustc reports it by this message, once, on the `@`.
#[diagnostic::on_unimplemented(
    message = "`@` needs a tensor of rank 1 or more on its left, found shape `{Self}`",
    label = "the left operand of `@` is a scalar",
    note = "to scale a tensor by a scalar, use `*`"
)]
pub trait MatmulLeft<B> {
    /// See [`MatmulLhs`].
    type Batch: BatchShape;
}

#[diagnostic::do_not_recommend]
impl<A: MatmulLhs, B> MatmulLeft<B> for A {
    type Batch = <A as MatmulLhs>::Batch;
}

/// `Self` on the right of `A @ Self`: the message carrier for a scalar there.
#[diagnostic::on_unimplemented(
    message = "`@` needs a tensor of rank 1 or more on its right, found shape `{Self}`",
    label = "the right operand of `@` is a scalar",
    note = "to scale a tensor by a scalar, use `*`"
)]
pub trait MatmulRight<A> {
    /// See [`MatmulRhs`].
    type Batch: BatchShape;
}

#[diagnostic::do_not_recommend]
impl<B: MatmulRhs, A> MatmulRight<A> for B {
    type Batch = B::Batch;
}

/// Two dims of equal size: `D<K>` twice, or size 1 either way. One impl per
/// kind of dim, so rustc normalises the pair before matching.
///
/// `Same` is the dim itself. [`Contracted`] is computed through it, so a
/// mismatch fails while rustc normalises the product's shape, and is reported
/// there once (see [`MatmulRule`]).
pub trait SameSize<Other> {
    /// `Self`.
    type Same: Dim;
}

impl<const K: usize> SameSize<D<K>> for D<K> {
    type Same = D<K>;
}
impl SameSize<One> for One {
    type Same = One;
}
impl SameSize<D<1>> for One {
    type Same = One;
}
impl SameSize<One> for D<1> {
    type Same = D<1>;
}
/// Never used: with a second impl for every `D<K>`, rustc cannot infer the
/// right dim from the left one, so it reports the mismatch with the message of
/// [`Contracted`] instead of a bare type mismatch.
impl<const K: usize> SameSize<NotADim> for D<K> {
    type Same = D<K>;
}

/// See the last impl of [`SameSize`]; not a [`Dim`], so never a shape's dim.
pub enum NotADim {}

/// The contracted dims `(k_a, k_b)` of `A @ B` are equal: the message carrier
/// for rule 2, naming both shapes and both sizes.
#[diagnostic::on_unimplemented(
    message = "matrix product `{A} @ {B}`: the contracted dims `{Self}` differ",
    label = "`{A} @ {B}`: inner dims `{Self}` differ",
    note = "`@` multiplies (.., m, k) by (.., k, n): the last dim of the left operand must equal the second-to-last of the right (for a 1-D right operand, its only dim)"
)]
pub trait Contracted<A, B> {
    /// The left operand's contracted dim.
    type Inner: Dim;
}

#[diagnostic::do_not_recommend]
impl<A, B, X: Dim + SameSize<Y>, Y> Contracted<A, B> for (X, Y) {
    type Inner = X::Same;
}

/// One aligned pair of batch dims at position `AXIS` (counted from the right
/// of the batch dims) of `A @ B`, checked after the pairs to its right, whose
/// witness is `W` (see [`super::chain`]): the message carrier for rule 3, one
/// error naming the failing batch dim however many clash.
#[diagnostic::on_unimplemented(
    message = "matrix product `{A} @ {B}`: the batch dims cannot be broadcast together: at batch dim {AXIS} the sizes `{Self}` differ",
    label = "`{A} @ {B}`: batch sizes `{Self}` at batch dim {AXIS} (counted from the right of the batch dims); neither is `One`",
    note = "the dims before the last two broadcast by the NumPy rule: aligned on the right, each pair equal or one of them 1"
)]
pub trait BatchAt<A, B, const AXIS: isize, W> {
    /// The larger of the two dims.
    type Output: Dim;
    /// `()` when this pair and every pair to its right fit.
    type Checked;
}

// A batch has at most four dims, so `Link4` and `Link5` go unused.
impl_dim_carrier!(BatchAt, Output, one_left: D<N>, batch_links);
use batch_links::{Link0, Link1, Link2, Link3};

/// The batch dims `(batch_a, batch_b)` of `A @ B` broadcast together (NumPy
/// rule, each aligned pair checked by [`BatchAt`]), giving `Output`. One impl
/// per pair of batch ranks whose result has at most `MAX_RANK - 2` dims.
pub trait BatchesBroadcast<A, B> {
    /// The broadcast batch dims.
    type Output: BatchShape;
}

macro_rules! impl_batches_broadcast {
    // Results with more dims than a batch can have get no impl.
    (@guard [$_a:ident $_b:ident $_c:ident $_d:ident $_e:ident $($_rest:ident)*] $($tail:tt)*) => {};
    (@guard [$($_x:ident)*] $($tail:tt)*) => { impl_batches_broadcast!($($tail)*); };
    ([] [] [] $p:tt) => {
        impl<A, B> BatchesBroadcast<A, B> for ((), ()) {
            type Output = ();
        }
    };
    ([] [] [$($l:ident)+] $p:tt) => {
        impl_batches_broadcast!(@guard [$($l)*] @plain [$($l)*] (($($l,)*), ()));
        impl_batches_broadcast!(@guard [$($l)*] @plain [$($l)*] ((), ($($l,)*)));
    };
    ([$($a:ident)+] [$($b:ident)+] [$($l:ident)*] [$($p:tt)+]) => {
        impl_batches_broadcast!(@guard [$($l)* $($a)*] @chain [$($l)* $($a)* $($b)*] ($($l,)* $($a,)*) ($($b,)*) [$($l)*] [$(($a, $b, $p))*]);
        impl_batches_broadcast!(@guard [$($l)* $($a)*] @flipped [$($l)*] [$($l)* $($a)* $($b)*] ($($b,)*) ($($l,)* $($a,)*) [$($l)*] [$(($b, $a, $p))*]);
    };
    (@plain [$($l:ident)*] $self_:ty) => {
        impl<A, B, $($l: Dim,)*> BatchesBroadcast<A, B> for $self_ {
            type Output = ($($l,)*);
        }
    };
    // Equal batch ranks give the same impl both ways: emit it once.
    (@flipped [] $($tail:tt)*) => {};
    (@flipped [$($l:ident)+] $($tail:tt)*) => { impl_batches_broadcast!(@chain $($tail)*); };
    (@chain [$($g:ident)*] $self_:tt $rhs:tt [$($l:ident)*] $pairs:tt) => {
        chain_pairs!(impl_batches_broadcast, BatchAt, Output, [[$($g)*] A B [[$($l)*] $self_ $rhs]] $pairs);
    };
    (@emit_chained [$($g:ident)*] A B [[$($l:ident)*] $self_:tt $rhs:tt] [$($bounds:tt)*] [$($outputs:tt)*]) => {
        #[diagnostic::do_not_recommend]
        impl<A, B, $($g: Dim,)*> BatchesBroadcast<A, B> for ($self_, $rhs)
        where $($bounds)*
        {
            type Output = ($($l,)* $($outputs)*);
        }
    };
}
for_each_aligned_rank_pair!(impl_batches_broadcast);

/// The result shape of `Self @ B`, assembled from the parts of the rule.
///
/// Each part is a where-clause of the impl *and* a projection its `Output` is
/// computed through (the contracted dim goes into [`Assemble`], the batch is
/// [`BatchesBroadcast::Output`], a scalar operand's carrier gives the scalar
/// impls' `Output`). The constructor states only this trait and takes its
/// node's shape from `Output`. A failing part is then reported once, while
/// rustc normalises that projection: by the part's own message carrier, on
/// the `@`, with no note pointing into the library.
///
/// The impls are one per pair of operand ranks, over plain tuples, like
/// [`Broadcast`](super::broadcast::Broadcast)'s. Measured on rustc 1.95: with a single impl for a given
/// `Self` (one blanket impl, or impls whose `Self` is generic), the
/// constructor's bound fails first instead, and its error names only
/// `MatmulRule`, with a "required by a bound" note.
pub trait MatmulRule<B> {
    /// The shape of `Self @ B`.
    type Output: Shape;
    /// How the product reads its operands ([`ProductPlan`]), computed
    /// through the same parts as `Output`: the node carries it, so its
    /// evaluation needs no bound that could fail again after the rule did
    /// (a second error for one mistake, when the product sat inside a
    /// larger expression).
    type Plan: ProductLayout;
}

/// Writes the [`MatmulRule`] impls. Each operand is written as
/// `kind [batch dims] [rows or cols] contracted`; a promoted vector has no
/// rows (left) or cols (right).
macro_rules! impl_matmul_rule {
    // Every right operand for one left operand.
    (@left $left:tt) => {
        impl_matmul_rule!(@pair $left (Vector [] [] Kb));
        impl_matmul_rule!(@pair $left (Matrix [] [N] Kb));
        impl_matmul_rule!(@pair $left (Matrix [B0] [N] Kb));
        impl_matmul_rule!(@pair $left (Matrix [B0 B1] [N] Kb));
        impl_matmul_rule!(@pair $left (Matrix [B0 B1 B2] [N] Kb));
        impl_matmul_rule!(@pair $left (Matrix [B0 B1 B2 B3] [N] Kb));
        impl_matmul_rule!(@scalar_right $left);
    };
    // A scalar on the right of `Self`, reported by `MatmulRight`.
    (@scalar_right ($lkind:ident [$($ab:ident)*] [$($m:ident)?] $k:ident)) => {
        #[diagnostic::do_not_recommend]
        impl<$($ab: Dim,)* $($m: Dim,)? $k: Dim> MatmulRule<()> for ($($ab,)* $($m,)? $k,)
        where
            (): MatmulRight<Self>,
        {
            type Output = <() as MatmulRight<Self>>::Batch;
            type Plan = ProductPlan<<() as MatmulRight<Self>>::Batch, One, One, One, One, Vector, Vector>;
        }
    };
    (@pair ($lkind:ident [$($ab:ident)*] [$($m:ident)?] $k:ident)
           ($rkind:ident [$($bb:ident)*] [$($n:ident)?] $kb:ident)) => {
        #[diagnostic::do_not_recommend]
        impl<$($ab: Dim,)* $($m: Dim,)? $k: Dim, $($bb: Dim,)* $kb: Dim, $($n: Dim,)?>
            MatmulRule<($($bb,)* $kb, $($n,)?)> for ($($ab,)* $($m,)? $k,)
        where
            ($k, $kb): Contracted<Self, ($($bb,)* $kb, $($n,)?)>,
            (($($ab,)*), ($($bb,)*)): BatchesBroadcast<Self, ($($bb,)* $kb, $($n,)?)>,
        {
            type Output = <($lkind, $rkind) as Assemble<
                <(($($ab,)*), ($($bb,)*)) as BatchesBroadcast<Self, ($($bb,)* $kb, $($n,)?)>>::Output,
                impl_matmul_rule!(@or_one $($m)?),
                <($k, $kb) as Contracted<Self, ($($bb,)* $kb, $($n,)?)>>::Inner,
                impl_matmul_rule!(@or_one $($n)?),
            >>::Output;
            type Plan = ProductPlan<
                <(($($ab,)*), ($($bb,)*)) as BatchesBroadcast<Self, ($($bb,)* $kb, $($n,)?)>>::Output,
                impl_matmul_rule!(@or_one $($m)?),
                <($k, $kb) as Contracted<Self, ($($bb,)* $kb, $($n,)?)>>::Inner,
                $kb,
                impl_matmul_rule!(@or_one $($n)?),
                $lkind,
                $rkind,
            >;
        }
    };
    (@or_one) => { One };
    (@or_one $d:ident) => { $d };
}
impl_matmul_rule!(@left (Vector [] [] Ka));
impl_matmul_rule!(@left (Matrix [] [M] Ka));
impl_matmul_rule!(@left (Matrix [A0] [M] Ka));
impl_matmul_rule!(@left (Matrix [A0 A1] [M] Ka));
impl_matmul_rule!(@left (Matrix [A0 A1 A2] [M] Ka));
impl_matmul_rule!(@left (Matrix [A0 A1 A2 A3] [M] Ka));

/// A scalar on the left of anything, reported by `MatmulLeft`.
#[diagnostic::do_not_recommend]
impl<B> MatmulRule<B> for ()
where
    (): MatmulLeft<B>,
{
    type Output = <() as MatmulLeft<B>>::Batch;
    type Plan = ProductPlan<<() as MatmulLeft<B>>::Batch, One, One, One, One, Vector, Vector>;
}

/// Batch dims (rank 0 to 4): they can be extended by one or two trailing dims.
pub trait BatchShape: Shape {
    /// The batch followed by one dim.
    type Push1<X: Dim>: Shape;
    /// The batch followed by two dims.
    type Push2<X: Dim, Y: Dim>: Shape;
}

/// How `A @ B` reads its operands: the broadcast batch, the left operand's
/// rows `M` and contracted dim `Ka`, the right operand's contracted dim `Kb`
/// and columns `N` (`One` for a promoted vector), and each operand's kind.
pub struct ProductPlan<Batch, M, Ka, Kb, N, LeftKind, RightKind>(
    PhantomData<(Batch, M, Ka, Kb, N, LeftKind, RightKind)>,
);

/// What a product's evaluation reads from its [`ProductPlan`].
pub trait ProductLayout {
    /// The left operand as the product reads it: `batch ++ (m, k)`.
    type LhsView: Shape;
    /// The right operand as the product reads it: `batch ++ (k, n)`.
    type RhsView: Shape;
    /// The number of broadcast batch dims.
    const BATCH_RANK: usize;
    /// The contracted size.
    const K: usize;
    /// `true` if the right operand is a promoted vector (`n` is removed).
    const RHS_VECTOR: bool;
    /// `true` if the left operand is a promoted vector (`m` is removed).
    const LHS_VECTOR: bool;
}

impl<Batch, M, Ka, Kb, N, LeftKind, RightKind> ProductLayout
    for ProductPlan<Batch, M, Ka, Kb, N, LeftKind, RightKind>
where
    Batch: BatchShape,
    M: Dim,
    Ka: Dim,
    Kb: Dim,
    N: Dim,
    LeftKind: Kind,
    RightKind: Kind,
{
    type LhsView = Batch::Push2<M, Ka>;
    type RhsView = Batch::Push2<Kb, N>;
    const BATCH_RANK: usize = Batch::RANK;
    const K: usize = Ka::SIZE;
    const RHS_VECTOR: bool = RightKind::VECTOR;
    const LHS_VECTOR: bool = LeftKind::VECTOR;
}

/// The result shape for a pair of operand kinds: `batch ++ (m, n)`, without `m`
/// if the left operand was a vector and without `n` if the right one was.
///
/// `K`, the contracted dim, leaves the result; it is a parameter so that the
/// result is computed through the [`Contracted`] check (see [`MatmulRule`]).
pub trait Assemble<Batch: BatchShape, M: Dim, K: Dim, N: Dim> {
    /// The result shape.
    type Output: Shape;
}

impl<Batch: BatchShape, M: Dim, K: Dim, N: Dim> Assemble<Batch, M, K, N> for (Matrix, Matrix) {
    type Output = Batch::Push2<M, N>;
}
impl<Batch: BatchShape, M: Dim, K: Dim, N: Dim> Assemble<Batch, M, K, N> for (Vector, Matrix) {
    type Output = Batch::Push1<N>;
}
impl<Batch: BatchShape, M: Dim, K: Dim, N: Dim> Assemble<Batch, M, K, N> for (Matrix, Vector) {
    type Output = Batch::Push1<M>;
}
impl<Batch: BatchShape, M: Dim, K: Dim, N: Dim> Assemble<Batch, M, K, N> for (Vector, Vector) {
    type Output = Batch;
}

macro_rules! impl_matrix_shapes {
    ($($b:ident)*) => {
        impl<$($b: Dim,)*> BatchShape for ($($b,)*) {
            type Push1<X: Dim> = ($($b,)* X,);
            type Push2<X: Dim, Y: Dim> = ($($b,)* X, Y);
        }
        #[diagnostic::do_not_recommend]
        impl<$($b: Dim,)* M: Dim, K: Dim> MatmulLhs for ($($b,)* M, K) {
            type Batch = ($($b,)*);
            type Rows = M;
            type Inner = K;
            type Kind = Matrix;
        }
        #[diagnostic::do_not_recommend]
        impl<$($b: Dim,)* K: Dim, N: Dim> MatmulRhs for ($($b,)* K, N) {
            type Batch = ($($b,)*);
            type Inner = K;
            type Cols = N;
            type Kind = Matrix;
        }
    };
}
impl_matrix_shapes!();
impl_matrix_shapes!(B0);
impl_matrix_shapes!(B0 B1);
impl_matrix_shapes!(B0 B1 B2);
impl_matrix_shapes!(B0 B1 B2 B3);

#[diagnostic::do_not_recommend]
impl<K: Dim> MatmulLhs for (K,) {
    type Batch = ();
    type Rows = One;
    type Inner = K;
    type Kind = Vector;
}

#[diagnostic::do_not_recommend]
impl<K: Dim> MatmulRhs for (K,) {
    type Batch = ();
    type Inner = K;
    type Cols = One;
    type Kind = Vector;
}

/// Why two shapes cannot be multiplied, by [`matmul_dims`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatmulMismatch {
    /// An operand is a scalar (rank 0): `true` for the left one.
    Scalar {
        /// Whether the scalar is the left operand.
        left: bool,
    },
    /// The contracted dims differ: `(k_a, k_b)`.
    Inner(usize, usize),
    /// The batch dims do not broadcast.
    Batch(BroadcastMismatch),
    /// The result would have more than [`MAX_RANK`] dims.
    TooManyDims,
}

/// The NumPy `matmul` rule over plain sizes: the result dims of `a @ b`.
///
/// ```
/// use tensor_expr_runtime::rules::matmul::{matmul_dims, MatmulMismatch};
/// let dims = matmul_dims(&[7, 1, 2, 3], &[5, 3, 4]).unwrap();
/// assert_eq!(dims.as_slice(), &[7, 5, 2, 4]);
/// assert_eq!(matmul_dims(&[2], &[2]).unwrap().as_slice(), &[] as &[usize]);
/// assert_eq!(matmul_dims(&[2, 3], &[4, 5]), Err(MatmulMismatch::Inner(3, 4)));
/// ```
pub const fn matmul_dims(a: &[usize], b: &[usize]) -> Result<Dims, MatmulMismatch> {
    if a.is_empty() {
        return Err(MatmulMismatch::Scalar { left: true });
    }
    if b.is_empty() {
        return Err(MatmulMismatch::Scalar { left: false });
    }
    let (a_batch, a_matrix) = a.split_at(a.len().saturating_sub(2));
    let (b_batch, b_matrix) = b.split_at(b.len().saturating_sub(2));
    let k_a = a_matrix[a_matrix.len() - 1];
    let k_b = b_matrix[0];
    if k_a != k_b {
        return Err(MatmulMismatch::Inner(k_a, k_b));
    }
    if a_batch.len() > MAX_RANK || b_batch.len() > MAX_RANK {
        return Err(MatmulMismatch::TooManyDims);
    }
    let batch = match broadcast_dims(a_batch, b_batch) {
        Ok(batch) => batch,
        Err(mismatch) => return Err(MatmulMismatch::Batch(mismatch)),
    };
    let mut out = [0; MAX_RANK + 2];
    let batch = batch.as_slice();
    let mut len = 0;
    while len < batch.len() {
        out[len] = batch[len];
        len += 1;
    }
    if a_matrix.len() == 2 {
        out[len] = a_matrix[0];
        len += 1;
    }
    if b_matrix.len() == 2 {
        out[len] = b_matrix[1];
        len += 1;
    }
    match Dims::from_slice(out.split_at(len).0) {
        Some(dims) => Ok(dims),
        None => Err(MatmulMismatch::TooManyDims),
    }
}

#[cfg(test)]
mod tests {
    use super::{matmul_dims, BroadcastMismatch, MatmulMismatch, MatmulRule};
    use crate::dim::{One, D};
    use crate::shape::Shape;

    fn agree<A: Shape + MatmulRule<B>, B: Shape>(expected: &[usize]) {
        assert_eq!(
            <<A as MatmulRule<B>>::Output as Shape>::DIMS,
            expected,
            "type-level rule"
        );
        let reference = matmul_dims(A::DIMS, B::DIMS).expect("the pair multiplies");
        assert_eq!(reference.as_slice(), expected, "reference rule");
    }

    #[test]
    fn numpy_matmul_documentation_examples() {
        agree::<(D<2>, D<3>), (D<3>, D<4>)>(&[2, 4]);
        // Batch dims broadcast: (1, 1, 3, 5) @ (2, 3, 5, 3) -> (2, 3, 3, 3).
        agree::<(One, One, D<3>, D<5>), (D<2>, D<3>, D<5>, D<3>)>(&[2, 3, 3, 3]);
        // (9, 5, 7, 4) @ (9, 5, 4, 3) -> (9, 5, 7, 3).
        agree::<(D<9>, D<5>, D<7>, D<4>), (D<9>, D<5>, D<4>, D<3>)>(&[9, 5, 7, 3]);
    }

    #[test]
    fn vectors_are_promoted_and_the_promoted_dim_removed() {
        agree::<(D<3>,), (D<3>, D<4>)>(&[4]);
        agree::<(D<2>, D<3>), (D<3>,)>(&[2]);
        agree::<(D<3>,), (D<3>,)>(&[]);
        agree::<(D<5>, D<2>, D<3>), (D<3>,)>(&[5, 2]);
    }

    #[test]
    fn the_reference_rule_refuses_what_numpy_refuses() {
        assert!(matmul_dims(&[2, 3], &[4, 5]).is_err()); // 3 against 4
        assert!(matmul_dims(&[4, 2, 3], &[3, 3, 5]).is_err()); // batch 4 against 3
        assert!(matmul_dims(&[], &[3]).is_err()); // a scalar is not a matrix
                                                  // Never commutative: (2, 3) @ (3, 4) works, (3, 4) @ (2, 3) does not.
        assert!(matmul_dims(&[3, 4], &[2, 3]).is_err());
    }

    #[test]
    fn the_reference_rule_names_the_rightmost_batch_clash() {
        // Batch dims (2, 3) against (3, 2): both clash; the type-level rule
        // names batch dim -1 (tests/compile_errors/tests/ui/matmul_batch_error_in_context), so the
        // reference names that dim too.
        let clash = matmul_dims(&[2, 3, 4, 5], &[3, 2, 5, 6]);
        assert_eq!(
            clash,
            Err(MatmulMismatch::Batch(BroadcastMismatch {
                axis: 1,
                lhs: 3,
                rhs: 2
            }))
        );
    }
}
