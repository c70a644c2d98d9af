//! The constructors of `inv`, `det`, `cholesky`, `solve` and
//! `cholesky_solve` inside `tensor_expr!` (their table entries are in
//! `ops::linalg`): each copies its operands into `Tensor`s on the stack and
//! calls the method of the same name; the macro evaluates the call first,
//! as a stage, and an error of `inv`, `solve` or `cholesky` ends the
//! expression with `Err`.

use super::SolveRhs;
use crate::access::{Contiguous, Operand};
use crate::dim::{One, D};
use crate::element::Float;
use crate::error::LinalgError;
use crate::expr::Context;
use crate::shape::Shape;
use crate::tensor::Tensor;

/// The shapes `inv`, `det` and `cholesky` take, a square matrix `[n, n]`
/// or a batch `[B, n, n]`: implemented for those shapes, for any `Self`,
/// giving the shape back. [`Square`] states it as a bound.
pub trait SquareShape<S> {
    /// `S`.
    type Matrices: Shape;
}

impl<X, const N: usize> SquareShape<(D<N>, D<N>)> for X {
    type Matrices = (D<N>, D<N>);
}

impl<X, const B: usize, const N: usize> SquareShape<(D<B>, D<N>, D<N>)> for X {
    type Matrices = (D<B>, D<N>, D<N>);
}

/// A 1x1 matrix written `Shape![1, 1]` (a product of a row by a column).
impl<X> SquareShape<(One, One)> for X {
    type Matrices = (One, One);
}

/// The rule that `inv`, `det` and `cholesky` take a square shape
/// ([`SquareShape`]), as the constructors state it. Its one impl is
/// `do_not_recommend`, so a shape that is not square is this trait's
/// message at the operation's name, in 7 lines, with no note pointing
/// into the constructor (the constructors also bound its projection,
/// `Checked<X::Shape>: Matrices<T>`, which is what keeps that note away).
#[diagnostic::on_unimplemented(
    message = "`inv`, `det` and `cholesky` take a square matrix `[n, n]` or a batch `[B, n, n]`, not `{Self}`",
    label = "not square"
)]
pub trait Square: Shape {
    /// The shape itself.
    type Matrices: Shape;
}

#[diagnostic::do_not_recommend]
impl<S: Shape> Square for S
where
    (): SquareShape<S>,
{
    type Matrices = <() as SquareShape<S>>::Matrices;
}

/// The shape `inv`, `det` and `cholesky` see for an operand of shape `S`.
type Checked<S> = <S as Square>::Matrices;

/// What `inv`, `det` and `cholesky` do for a square shape: the methods of
/// a matrix or of a batch.
pub trait Matrices<T>: Shape {
    /// The shape of the determinants: `()` or `[B]`.
    type Det: Shape;
    /// The inverses.
    fn inv(a: &Tensor<T, Self>) -> Result<Tensor<T, Self>, LinalgError>;
    /// The determinants.
    fn det(a: &Tensor<T, Self>) -> Tensor<T, Self::Det>;
    /// The lower Cholesky factors.
    fn cholesky(a: &Tensor<T, Self>) -> Result<Tensor<T, Self>, LinalgError>;
}

impl<T: Float, const N: usize> Matrices<T> for (D<N>, D<N>) {
    type Det = ();
    #[inline]
    fn inv(a: &Tensor<T, Self>) -> Result<Tensor<T, Self>, LinalgError> {
        a.inv()
    }
    #[inline]
    fn det(a: &Tensor<T, Self>) -> Tensor<T, ()> {
        Tensor::new(a.det())
    }
    #[inline]
    fn cholesky(a: &Tensor<T, Self>) -> Result<Tensor<T, Self>, LinalgError> {
        a.cholesky()
    }
}

/// As the same matrix of shape `[1, 1]` in `D<1>`s (the same one element).
impl<T: Float> Matrices<T> for (One, One) {
    type Det = ();
    #[inline]
    fn inv(a: &Tensor<T, Self>) -> Result<Tensor<T, Self>, LinalgError> {
        as_d1(a)
            .inv()
            .map(|inverse| Tensor::new([[inverse.as_slice()[0]]]))
    }
    #[inline]
    fn det(a: &Tensor<T, Self>) -> Tensor<T, ()> {
        Tensor::new(as_d1(a).det())
    }
    #[inline]
    fn cholesky(a: &Tensor<T, Self>) -> Result<Tensor<T, Self>, LinalgError> {
        as_d1(a)
            .cholesky()
            .map(|l| Tensor::new([[l.as_slice()[0]]]))
    }
}

/// A `[1, 1]` matrix of `One`s as one of `D<1>`s.
#[inline(always)]
fn as_d1<T: Float>(a: &Tensor<T, (One, One)>) -> Tensor<T, (D<1>, D<1>)> {
    Tensor::new([[a.as_slice()[0]]])
}

impl<T: Float, const B: usize, const N: usize> Matrices<T> for (D<B>, D<N>, D<N>) {
    type Det = (D<B>,);
    #[inline]
    fn inv(a: &Tensor<T, Self>) -> Result<Tensor<T, Self>, LinalgError> {
        a.inv()
    }
    #[inline]
    fn det(a: &Tensor<T, Self>) -> Tensor<T, (D<B>,)> {
        a.det()
    }
    #[inline]
    fn cholesky(a: &Tensor<T, Self>) -> Result<Tensor<T, Self>, LinalgError> {
        a.cholesky()
    }
}

/// An operand of an operation that reads whole matrices: contiguous data
/// of elements that convert to `T`, copied into a `Tensor` on the stack.
/// (A strided view is reported by [`Contiguous`]'s message.)
pub trait MatrixOperand<T> {
    /// The operand's shape.
    type Shape: Shape;
    /// The elements copied into a `Tensor` of shape `S` (the operand's
    /// own, as the rule checked it).
    fn copied<S: Shape>(&self) -> Tensor<T, S>;
}

impl<T: Copy, X: Operand<T> + ?Sized> MatrixOperand<T> for X
where
    X::Layout: Contiguous,
    X::Element: Copy + Into<T>,
{
    type Shape = <X as Operand<T>>::Shape;
    #[inline(always)]
    fn copied<S: Shape>(&self) -> Tensor<T, S> {
        let data = self.elements();
        Tensor::from_flat_fn(|i| data[i].into())
    }
}

/// `inv(a)`.
#[inline]
#[allow(clippy::type_complexity)]
pub fn inv<T: Float, M, X: MatrixOperand<T> + ?Sized>(
    _context: Context<T, M>,
    a: &X,
) -> Result<Tensor<T, Checked<X::Shape>>, LinalgError>
where
    X::Shape: Square,
    Checked<X::Shape>: Matrices<T>,
{
    <Checked<X::Shape> as Matrices<T>>::inv(&a.copied())
}

/// `det(a)`.
#[inline]
pub fn det<T: Float, M, X: MatrixOperand<T> + ?Sized>(
    _context: Context<T, M>,
    a: &X,
) -> Tensor<T, <Checked<X::Shape> as Matrices<T>>::Det>
where
    X::Shape: Square,
    Checked<X::Shape>: Matrices<T>,
{
    <Checked<X::Shape> as Matrices<T>>::det(&a.copied())
}

/// `cholesky(a)`.
#[inline]
pub fn cholesky<T: Float, M, X: MatrixOperand<T> + ?Sized>(
    _context: Context<T, M>,
    a: &X,
) -> Result<Tensor<T, Checked<X::Shape>>, LinalgError>
where
    X::Shape: Square,
    Checked<X::Shape>: Matrices<T>,
{
    <Checked<X::Shape> as Matrices<T>>::cholesky(&a.copied())
}

/// The shape pairs `solve(a, b)` and `cholesky_solve(l, b)` take: a square
/// matrix `[n, n]` and `b` of `n` rows (`[n]` or `[n, m]`), or a batch
/// `[B, n, n]` and a vector for each, `[B, n]`: implemented for those
/// pairs, for any `Self`, giving them back. [`Solvable`] states it as a
/// bound.
pub trait SolveShapes<A, B> {
    /// `A`.
    type Matrix: Solve<Self::Rhs>;
    /// `B`.
    type Rhs: Shape;
}

impl<X, const N: usize> SolveShapes<(D<N>, D<N>), (D<N>,)> for X {
    type Matrix = (D<N>, D<N>);
    type Rhs = (D<N>,);
}

impl<X, const N: usize, const M: usize> SolveShapes<(D<N>, D<N>), (D<N>, D<M>)> for X {
    type Matrix = (D<N>, D<N>);
    type Rhs = (D<N>, D<M>);
}

impl<X, const N: usize> SolveShapes<(D<N>, D<N>), (D<N>, crate::dim::One)> for X {
    type Matrix = (D<N>, D<N>);
    type Rhs = (D<N>, crate::dim::One);
}

/// A batch of matrices and one vector for each (`solve` only).
impl<X, const B: usize, const N: usize> SolveShapes<(D<B>, D<N>, D<N>), (D<B>, D<N>)> for X {
    type Matrix = (D<B>, D<N>, D<N>);
    type Rhs = (D<B>, D<N>);
}

/// `solve` and `cholesky_solve` for a square shape (or a batch of them)
/// and a right-hand side `B`: the methods of a matrix or a batch.
pub trait Solve<B: Shape>: Shape {
    /// `x` with `a @ x = b`.
    fn solve<T: Float>(a: &Tensor<T, Self>, b: &Tensor<T, B>) -> Result<Tensor<T, B>, LinalgError>;
    /// `x` with `l @ transpose(l) @ x = b`.
    fn cholesky_solve<T: Float>(l: &Tensor<T, Self>, b: &Tensor<T, B>) -> Tensor<T, B>;
}

impl<const B: usize, const N: usize> Solve<(D<B>, D<N>)> for (D<B>, D<N>, D<N>) {
    #[inline]
    fn solve<T: Float>(
        a: &Tensor<T, Self>,
        b: &Tensor<T, (D<B>, D<N>)>,
    ) -> Result<Tensor<T, (D<B>, D<N>)>, LinalgError> {
        a.solve(b)
    }
    /// Each matrix's factor solved against its vector.
    #[inline]
    fn cholesky_solve<T: Float>(
        l: &Tensor<T, Self>,
        b: &Tensor<T, (D<B>, D<N>)>,
    ) -> Tensor<T, (D<B>, D<N>)> {
        let (l, b) = (l.as_slice(), b.as_slice());
        let mut out = Tensor::<T, (D<B>, D<N>)>::zeros();
        for (k, chunk) in out.as_mut_slice().chunks_exact_mut(N).enumerate() {
            let factor = Tensor::<T, (D<N>, D<N>)>::from_flat_fn(|i| l[k * N * N + i]);
            let rhs = Tensor::<T, (D<N>,)>::from_flat_fn(|i| b[k * N + i]);
            chunk.copy_from_slice(factor.cholesky_solve(&rhs).as_slice());
        }
        out
    }
}

impl<const N: usize, B: SolveRhs<N>> Solve<B> for (D<N>, D<N>) {
    #[inline]
    fn solve<T: Float>(a: &Tensor<T, Self>, b: &Tensor<T, B>) -> Result<Tensor<T, B>, LinalgError> {
        a.solve(b)
    }
    #[inline]
    fn cholesky_solve<T: Float>(l: &Tensor<T, Self>, b: &Tensor<T, B>) -> Tensor<T, B> {
        l.cholesky_solve(b)
    }
}

/// The rule that `solve(a, b)` and `cholesky_solve(l, b)` take a pair of
/// shapes `(A, B)` that [`SolveShapes`] lists, as the constructors state it
/// (on [`OperandPair::Shapes`]): one `do_not_recommend` impl, so a mismatch
/// is this trait's message at the operation's name, naming both shapes.
#[diagnostic::on_unimplemented(
    message = "`solve(a, b)` takes a square `a` and `b` with as many rows (`[n, n]` and `[n]` or `[n, m]`, or `[B, n, n]` and `[B, n]`), not the shapes `{Self}`",
    label = "shapes `{Self}`"
)]
pub trait Solvable {
    /// The matrix shape.
    type Matrix: Solve<Self::Rhs>;
    /// The right-hand side's shape.
    type Rhs: Shape;
}

#[diagnostic::do_not_recommend]
impl<A, B> Solvable for (A, B)
where
    (): SolveShapes<A, B>,
{
    type Matrix = <() as SolveShapes<A, B>>::Matrix;
    type Rhs = <() as SolveShapes<A, B>>::Rhs;
}

/// The two operands of `solve(a, b)` or `cholesky_solve(l, b)`, which the
/// macro passes as one argument, `(a, b)`: the shape rule is then a bound
/// on one parameter's shapes, which rustc reports once at the operation's
/// name (two operands as two arguments drew a second note, pointing into
/// the constructor).
pub trait OperandPair<T> {
    /// The shapes of the two, `(A, B)`.
    type Shapes;
    /// The elements of each, copied into tensors of shapes `A2`, `B2` (the
    /// rule's, which are the operands' own).
    fn copies<A2: Shape, B2: Shape>(&self) -> (Tensor<T, A2>, Tensor<T, B2>);
}

impl<T, X, Y> OperandPair<T> for (&X, &Y)
where
    X: MatrixOperand<T> + ?Sized,
    Y: MatrixOperand<T> + ?Sized,
{
    type Shapes = (X::Shape, Y::Shape);
    #[inline(always)]
    fn copies<A2: Shape, B2: Shape>(&self) -> (Tensor<T, A2>, Tensor<T, B2>) {
        (self.0.copied(), self.1.copied())
    }
}

/// `solve(a, b)`, the operands as the pair `(a, b)`.
#[inline]
#[allow(clippy::type_complexity)]
pub fn solve<T: Float, M, P: OperandPair<T>>(
    _context: Context<T, M>,
    operands: P,
) -> Result<Tensor<T, <P::Shapes as Solvable>::Rhs>, LinalgError>
where
    P::Shapes: Solvable,
    <P::Shapes as Solvable>::Rhs: Shape,
{
    let (a, b) = operands.copies();
    <<P::Shapes as Solvable>::Matrix>::solve(&a, &b)
}

/// `cholesky_solve(l, b)`, the operands as the pair `(l, b)`.
#[inline]
#[allow(clippy::type_complexity)]
pub fn cholesky_solve<T: Float, M, P: OperandPair<T>>(
    _context: Context<T, M>,
    operands: P,
) -> Tensor<T, <P::Shapes as Solvable>::Rhs>
where
    P::Shapes: Solvable,
    <P::Shapes as Solvable>::Rhs: Shape,
{
    let (l, b) = operands.copies();
    <<P::Shapes as Solvable>::Matrix>::cholesky_solve(&l, &b)
}
