//! Joining tensors along a static axis: [`concat`](fn@concat) (NumPy's `concatenate`) and
//! [`stack`] (NumPy's `stack`), with every shape checked when the code is built.
//!
//! `stack` computes its result's shape (a new dim of size `N` at `AXIS`).
//! `concat`'s result has the sum of two sizes at `AXIS`, which stable Rust
//! cannot compute in a type, so the caller names the result's shape
//! (`let c: Tensor<f32, Shape![2, 7]> = concat(Axis::<1>, &a, &b)`, or
//! through the function's return type) and a `const` assertion checks it:
//! same rank, equal dims off `AXIS`, the sum at `AXIS`.
//! Both write a new [`Tensor`].

use crate::rules::axes::ConcatFits;
pub use crate::rules::axes::InsertAxis;
use crate::shape::Shape;
use crate::tensor::Tensor;
use crate::view::TensorView;

/// A static axis, written `Axis::<1>` where ndarray writes `Axis(1)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Axis<const AXIS: usize>;

/// `a` and `b` joined along `AXIS` (NumPy's `concatenate((a, b), axis=AXIS)`).
/// The result's shape `C` is named by the caller; wrong shapes are an error
/// when the code is built.
///
/// ```
/// use tensor_expr_runtime::{join::{concat, Axis}, Tensor, D};
/// let a = Tensor::<i32, (D<2>, D<2>)>::new([[1, 2], [3, 4]]);
/// let b = Tensor::<i32, (D<2>, D<1>)>::new([[5], [6]]);
/// let c: Tensor<i32, (D<2>, D<3>)> = concat(Axis::<1>, &a, &b);
/// assert_eq!(c.as_slice(), &[1, 2, 5, 3, 4, 6]);
/// let rows: Tensor<i32, (D<4>, D<2>)> = concat(Axis::<0>, &a, &a);
/// assert_eq!(rows.as_slice(), &[1, 2, 3, 4, 1, 2, 3, 4]);
/// ```
pub fn concat<'a, const AXIS: usize, T: Copy + 'a, A: Shape, B: Shape, C: Shape>(
    _axis: Axis<AXIS>,
    a: impl Into<TensorView<'a, T, A>>,
    b: impl Into<TensorView<'a, T, B>>,
) -> Tensor<T, C> {
    #[allow(clippy::let_unit_value)]
    let () = ConcatFits::<A, B, C, AXIS>::CHECKED;
    let (a, b) = (a.into().as_slice(), b.into().as_slice());
    // Row-major: each operand is `outer` blocks of (its dim AXIS x inner).
    let inner: usize = C::DIMS[AXIS + 1..].iter().product();
    let (block_a, block_b) = (A::DIMS[AXIS] * inner, B::DIMS[AXIS] * inner);
    let block = block_a + block_b;
    Tensor::from_flat_fn(|position| {
        let (outer, within) = (position / block, position % block);
        if within < block_a {
            a[outer * block_a + within]
        } else {
            b[outer * block_b + within - block_a]
        }
    })
}

/// `N` tensors of one shape joined along a new axis `AXIS` (NumPy's
/// `stack(tensors, axis=AXIS)`); the result's shape has `D<N>` there.
///
/// ```
/// use tensor_expr_runtime::{join::{stack, Axis}, Tensor, D};
/// let a = Tensor::<i32, (D<3>,)>::new([1, 2, 3]);
/// let b = Tensor::<i32, (D<3>,)>::new([4, 5, 6]);
/// let rows = stack(Axis::<0>, [a.view(), b.view()]);
/// assert_eq!(rows.shape(), &[2, 3]);
/// let columns = stack(Axis::<1>, [a.view(), b.view()]);
/// assert_eq!(columns.as_slice(), &[1, 4, 2, 5, 3, 6]);
/// ```
pub fn stack<const AXIS: usize, T: Copy, S: InsertAxis<AXIS, N>, const N: usize>(
    _axis: Axis<AXIS>,
    tensors: [TensorView<'_, T, S>; N],
) -> Tensor<T, S::Inserted> {
    // Row-major: the result is `outer` blocks of N x inner, where `inner`
    // is the product of the operands' dims from AXIS on.
    let inner: usize = S::DIMS[AXIS..].iter().product();
    Tensor::from_flat_fn(|position| {
        let (outer, within) = (position / (N * inner), position % (N * inner));
        let (which, offset) = (within / inner, within % inner);
        tensors[which].as_slice()[outer * inner + offset]
    })
}
