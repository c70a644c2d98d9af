//! `transpose(x)` and `permute(x, [2, 0, 1])`: `x` read in place in another
//! dim order, a [`StridedLeaf`] whose layout's strides are the operand's own
//! taken in the new order. Nothing is moved; a transposed operand's rows are
//! read with a stride (a gather), so its inner loop does not vectorise the
//! way a contiguous one does, and the right operand of `@` read transposed is
//! copied once first (staged) so the product's tiles read rows.
//!
//! The shape rules: `transpose` needs rank 2 or more (`rules::permute`); a
//! `permute` list must be a permutation of `0..n` (checked by the macro) for
//! an operand of rank `n` (a local trait the macro writes for the list, which
//! also gives the permuted layout, so `permute` is built by that rule).
//! An expression argument is evaluated first, into a tensor of its own.

use super::{Build, Dims, Operation, Reads, RowOrder, Signature};
use crate::access::{Contiguous, Layout, Operand};
use crate::expr::{Context, StridedLeaf};
use crate::rules::permute::Transpose;
use crate::shape::MAX_RANK;
use core::marker::PhantomData;

/// The table entry of `transpose(x)`.
pub const TRANSPOSE: Operation = Operation {
    name: "transpose",
    signature: Signature {
        dims_optional: true,
        ..Signature::of(1)
    },
    reads: Reads::InPlace(RowOrder::Swapped),
    build: Build::Node {
        constructor: "permute::transpose",
        marker: None,
    },
    elements: "Element",
    summary: "The last two dims swapped, read in place (PyTorch's `mT`).",
    forms: &["transpose(x)"],
};

/// The table entry of `permute(x, [..])`.
pub const PERMUTE: Operation = Operation {
    name: "permute",
    signature: Signature {
        dims: Dims::Permutation,
        ..Signature::of(1)
    },
    reads: Reads::InPlace(RowOrder::Listed),
    build: Build::ByDimsRule,
    elements: "Element",
    summary: "The dims in the listed order, read in place (PyTorch's `permute`).",
    forms: &["permute(x, [..])"],
};

/// The strides of the dims of `dims` (row-major data) taken in the order `perm`:
/// view dim `k` is data dim `perm[k]`.
///
/// ```
/// use tensor_expr_runtime::ops::permute::permuted_strides;
/// assert_eq!(permuted_strides(&[2, 3, 4], &[2, 0, 1])[..3], [1, 12, 4]);
/// ```
pub const fn permuted_strides(dims: &[usize], perm: &[usize]) -> [usize; MAX_RANK] {
    let own = crate::shape::row_major_strides(dims);
    let mut strides = [0; MAX_RANK];
    let mut k = 0;
    while k < perm.len() {
        strides[k] = own[perm[k]];
        k += 1;
    }
    strides
}

/// The transpose of shape `S` (its last two dims swapped) as a layout.
pub struct Transposed<S>(PhantomData<S>);

impl<S: Transpose> Layout for Transposed<S> {
    type Shape = S::Transposed;
    const STRIDES: [usize; MAX_RANK] = permuted_strides(S::DIMS, S::PERM);
    const DATA_LEN: usize = S::LEN;
}

/// `transpose(x)`: `x` with its last two dims swapped, read in place.
#[inline(always)]
#[rustfmt::skip]
pub fn transpose<'a, T, M, X: Operand<T> + ?Sized>(_context: Context<T, M>, x: &'a X) -> StridedLeaf<'a, X::Element, Transposed<<X::Shape as Transpose>::Checked>> where X::Shape: Transpose, X::Layout: Contiguous, X::Element: 'a {
    StridedLeaf::new(x.elements())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{context_of, Expr, Row};
    use crate::rules::rank::Numpy;
    use crate::{Tensor, D};

    #[test]
    fn a_transposed_row_is_a_column_of_the_data() {
        let m = Tensor::<i32, (D<2>, D<3>)>::from_fn(|[i, j]| (10 * i + j) as i32);
        let leaf = transpose(context_of(Numpy, &m), &m);
        let row = leaf.row::<(D<3>, D<2>)>([2, 0, 0, 0, 0, 0]);
        assert_eq!([row.get(0, 0), row.get(1, 0)], [2, 12]);
    }
}
