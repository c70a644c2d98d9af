//! Where `tensor_expr!(e)` puts the tensor it creates, and each part it
//! evaluates first (a stage): on the heap when an operand lives there, else
//! on the stack. So an expression over `Tensor`s allocates nothing, however
//! many parts it stages.
//!
//! Each operand has a [`Placement`] ([`Operand::Placement`]): [`Stack`] for a
//! `Tensor`, a view or a scalar, [`Heap`] for a `HeapTensor`. The macro joins
//! the placements of all operands ([`join`]: heap wins) and evaluates into a
//! tensor of the joined placement ([`Evaluate::Tensor`]), so
//! `tensor_expr!(heap_image * scale)` is a `HeapTensor` with no annotation and
//! a big result never passes through the stack. A view's data may live
//! anywhere (a `Vec`, a static, a DMA buffer), so a view counts as the stack:
//! an expression over big views only should write into a `HeapTensor` target
//! (`tensor_expr!(out = ..)`) instead.
//!
//! A view or `HeapTensor` whose first dim is [`Dyn`](crate::Dyn) is placed
//! by its rows ([`Rows`]): the result is a `HeapTensor` of as many. Two of
//! them join to [`CheckedRows`], the check of their rows, and the result is
//! then a `Result`; a stage keeps a failed check in its placement (its
//! tensor is empty), so the expression that reads it returns the error. An
//! assignment joins its target's placement the same way ([`target_placement`]).
//!
//! Every placement writes each element of the new tensor exactly once: the
//! loop nest writes into uninitialised memory, which is never read (there is
//! no target to read in place when a new tensor is created).
//!
//! The stages of one expression live together on the stack for the length of
//! its block, and their bytes are known at compile time ([`StackBytes`]): the
//! macro checks them against a budget, [`DEFAULT_SCRATCH_BUDGET`] unless the
//! statement names its own (`tensor_expr!(scratch <= 256: p = f @ p @
//! transpose(f) + q)`), so a hidden stage never overflows a small stack.

#[cfg(feature = "alloc")]
use crate::access::Heap;
use crate::access::{CheckedRows, Operand, Placement, Rows, Stack};
use crate::element::Element;
use crate::error::{check_same_rows, ShapeError};
use crate::expr::{Context, Expr};
use crate::shape::Shape;
use crate::tensor::Tensor;
use core::mem::size_of;

/// A placement's new tensors: the type, and how an expression fills one.
#[diagnostic::on_unimplemented(
    message = "an expression over a `Dyn` dim makes a `HeapTensor`, which needs the `alloc` feature",
    label = "a new tensor of run-time rows",
    note = "without an allocator, write the result into a target: `tensor_expr!(out = ..)`"
)]
pub trait Evaluate: Placement {
    /// The tensor type of this placement.
    type Tensor<T: Element, S: Shape>;
    /// Evaluates `e` into a new tensor of its shape, each element written once.
    fn evaluate<T: Element, E: Expr<T>>(self, e: E) -> Self::Tensor<T, E::Shape>;

    /// [`Self::evaluate`], the kernels' buffers from `scratch` where it
    /// holds them (a program's result: [`crate::program::evaluate_result`]); a
    /// placement that cannot pass them on evaluates as without.
    #[inline]
    fn evaluate_with<T: Element, E: Expr<T>>(
        self,
        e: E,
        scratch: &mut crate::scratch::Scratch<'_>,
    ) -> Self::Tensor<T, E::Shape> {
        let _ = scratch;
        self.evaluate(e)
    }

    /// A part evaluated first (a stage): always a tensor, which the rest of
    /// the expression reads.
    type Stage<T: Element, S: Shape>;
    /// Evaluates a stage. Where rows are checked and differ, the stage is
    /// an empty tensor and the error stays in the placement, which the
    /// expression that reads it joins, so that expression returns it.
    fn evaluate_stage<T: Element, E: Expr<T>>(self, e: E) -> Self::Stage<T, E::Shape>;
}

/// The stack: a [`Tensor`], whose elements are its own nested array.
impl Evaluate for Stack {
    type Tensor<T: Element, S: Shape> = Tensor<T, S>;
    #[inline]
    fn evaluate<T: Element, E: Expr<T>>(self, e: E) -> Tensor<T, E::Shape> {
        // SAFETY: `drive_into_new_tensor` writes every one of the `LEN`
        // slots (`kernel/`: the row nest sets each slot of `out[..LEN]`,
        // the tile nest each row of each block of every matrix).
        unsafe {
            Tensor::from_uninit(|slots| crate::kernel::drive_into_new_tensor::<T, E>(slots, &e))
        }
    }
    #[inline]
    fn evaluate_with<T: Element, E: Expr<T>>(
        self,
        e: E,
        scratch: &mut crate::scratch::Scratch<'_>,
    ) -> Tensor<T, E::Shape> {
        // SAFETY: as `evaluate`'s (`drive_into_uninit_in` writes every slot).
        unsafe {
            Tensor::from_uninit(|slots| {
                crate::kernel::drive_into_uninit_in::<T, E>(slots, &e, scratch)
            })
        }
    }
    type Stage<T: Element, S: Shape> = Tensor<T, S>;
    #[inline]
    fn evaluate_stage<T: Element, E: Expr<T>>(self, e: E) -> Tensor<T, E::Shape> {
        self.evaluate(e)
    }
}

/// The heap: a [`HeapTensor`](crate::HeapTensor), allocated once and filled
/// in place.
#[cfg(feature = "alloc")]
impl Evaluate for Heap {
    type Tensor<T: Element, S: Shape> = crate::HeapTensor<T, S>;
    #[inline]
    fn evaluate<T: Element, E: Expr<T>>(self, e: E) -> crate::HeapTensor<T, E::Shape> {
        // SAFETY: `drive_into_uninit` writes every one of the `LEN` slots
        // (`kernel/`, as for the stack above); `from_uninit` frees the
        // block without dropping its elements if it panics.
        unsafe {
            crate::HeapTensor::from_uninit(|slots| {
                crate::kernel::drive_into_uninit::<T, E>(slots, &e)
            })
        }
    }
    type Stage<T: Element, S: Shape> = crate::HeapTensor<T, S>;
    #[inline]
    fn evaluate_stage<T: Element, E: Expr<T>>(self, e: E) -> crate::HeapTensor<T, E::Shape> {
        self.evaluate(e)
    }
}

/// Two placements joined: the heap if either is; the rows of the one with
/// run-time rows ([`Rows`]); both rows checked where both have them
/// ([`CheckedRows`]).
pub trait Join<Other> {
    /// The joined placement.
    type Output: Placement;
    /// The joined placement's value (the row count, or its check).
    fn join(self, other: Other) -> Self::Output;
}

/// Joins of placements with no rows, and of those with rows: each pair
/// `Left + Right => Output` with the joined value as `|left, right| value`.
macro_rules! joins {
    ($($(#[$cfg:meta])* $left:ident + $right:ident => $output:ident: |$l:pat_param, $r:pat_param| $value:expr;)*) => {$(
        $(#[$cfg])*
        impl Join<$right> for $left {
            type Output = $output;
            #[inline(always)]
            fn join(self, other: $right) -> $output {
                let ($l, $r) = (self, other);
                $value
            }
        }
    )*};
}

joins! {
    Stack + Stack => Stack: |_, _| Stack;
    #[cfg(feature = "alloc")] Stack + Heap => Heap: |_, heap| heap;
    #[cfg(feature = "alloc")] Heap + Stack => Heap: |heap, _| heap;
    #[cfg(feature = "alloc")] Heap + Heap => Heap: |heap, _| heap;
    Stack + Rows => Rows: |_, rows| rows;
    #[cfg(feature = "alloc")] Heap + Rows => Rows: |_, rows| rows;
    Rows + Stack => Rows: |rows, _| rows;
    #[cfg(feature = "alloc")] Rows + Heap => Rows: |rows, _| rows;
    Rows + Rows => CheckedRows: |a, b| CheckedRows {
        rows: check_same_rows(a.dims, a.rows, b.rows),
    };
    Stack + CheckedRows => CheckedRows: |_, checked| checked;
    #[cfg(feature = "alloc")] Heap + CheckedRows => CheckedRows: |_, checked| checked;
    CheckedRows + Stack => CheckedRows: |checked, _| checked;
    #[cfg(feature = "alloc")] CheckedRows + Heap => CheckedRows: |checked, _| checked;
    CheckedRows + Rows => CheckedRows: |checked, b| CheckedRows {
        rows: checked.rows.and_then(|rows| check_same_rows(b.dims, rows, b.rows)),
    };
    Rows + CheckedRows => CheckedRows: |a, checked| CheckedRows {
        rows: checked.rows.and_then(|rows| check_same_rows(a.dims, a.rows, rows)),
    };
    CheckedRows + CheckedRows => CheckedRows: |a, b| CheckedRows {
        rows: a.rows.and_then(|rows| b.rows.and_then(|other| check_same_rows(&[], rows, other))),
    };
}

/// The placement `so_far` joined with that of one more operand (spanned on
/// the operand, like its leaf, so that a value that is not an operand is
/// reported once).
#[inline(always)]
pub fn join<P: Join<X::Placement>, T, M, X: Operand<T> + ?Sized>(
    so_far: P,
    _context: Context<T, M>,
    operand: &X,
) -> P::Output {
    so_far.join(operand.placement())
}

/// An assignment target's placement, which the operands' join: its rows,
/// where its first dim is [`Dyn`](crate::Dyn).
#[inline(always)]
pub fn target_placement<X: crate::access::Target + ?Sized>(target: &X) -> X::Placement {
    target.placement()
}

/// The placement `so_far` joined with an already known one (a stage's: the
/// part of an expression `tensor_expr!` evaluates first is placed by its
/// own operands, as a result is, and its placement counts for the
/// expression that reads it).
#[inline(always)]
pub fn join_placement<P: Join<Q>, Q>(so_far: P, other: Q) -> P::Output {
    so_far.join(other)
}

/// Run-time rows: a [`HeapTensor`](crate::HeapTensor) of as many, spelled
/// with [`Dyn`](crate::Dyn) first, filled chunk by chunk of static rows
/// ([`crate::kernel`]).
#[cfg(feature = "alloc")]
impl Evaluate for Rows {
    type Tensor<T: Element, S: Shape> = crate::HeapTensor<T, S::Spelled>;
    #[inline]
    fn evaluate<T: Element, E: Expr<T>>(
        self,
        e: E,
    ) -> crate::HeapTensor<T, <E::Shape as Shape>::Spelled> {
        let len = if <E::Shape as Shape>::RUN_TIME_ROWS {
            self.rows * <E::Shape as Shape>::ITEM_LEN
        } else {
            // A static result (a reduction over the rows): its own count.
            crate::shape::len_unless_run_time(<E::Shape as Shape>::DIMS)
        };
        // SAFETY: `drive_rows` writes every one of the `len` slots
        // (`kernel/`: each chunk of rows is a whole output of the static
        // nest, which writes each of its slots, and the chunks cover the
        // rows).
        unsafe {
            crate::HeapTensor::from_uninit_len(len, |slots| {
                crate::kernel::drive_rows::<T, E::Shape, E, _>(slots, &e, self.rows)
            })
        }
    }
    type Stage<T: Element, S: Shape> = crate::HeapTensor<T, S::Spelled>;
    #[inline]
    fn evaluate_stage<T: Element, E: Expr<T>>(
        self,
        e: E,
    ) -> crate::HeapTensor<T, <E::Shape as Shape>::Spelled> {
        self.evaluate(e)
    }
}

/// Two operands or more with run-time rows: the result, or the error
/// naming the rows that differ.
#[cfg(feature = "alloc")]
impl Evaluate for CheckedRows {
    type Tensor<T: Element, S: Shape> = Result<crate::HeapTensor<T, S::Spelled>, ShapeError>;
    #[inline]
    fn evaluate<T: Element, E: Expr<T>>(
        self,
        e: E,
    ) -> Result<crate::HeapTensor<T, <E::Shape as Shape>::Spelled>, ShapeError> {
        let rows = self.rows?;
        Ok(Rows { rows, dims: &[] }.evaluate(e))
    }
    type Stage<T: Element, S: Shape> = crate::HeapTensor<T, S::Spelled>;
    #[inline]
    fn evaluate_stage<T: Element, E: Expr<T>>(
        self,
        e: E,
    ) -> crate::HeapTensor<T, <E::Shape as Shape>::Spelled> {
        let rows = self.rows.unwrap_or(0);
        Rows { rows, dims: &[] }.evaluate(e)
    }
}

/// A new tensor, or the `Result` of one (where rows were checked), to which
/// `tensor_expr!(argmax(e, [axis]))` applies its index reduction.
pub trait Evaluated: Sized {
    /// The tensor.
    type Value;
    /// `R`, or its `Result`.
    type Then<R>;
    /// `f` of the tensor, or the error.
    fn then<R>(self, f: impl FnOnce(Self::Value) -> R) -> Self::Then<R>;
}

impl<T, S: Shape> Evaluated for Tensor<T, S> {
    type Value = Self;
    type Then<R> = R;
    #[inline(always)]
    fn then<R>(self, f: impl FnOnce(Self) -> R) -> R {
        f(self)
    }
}

#[cfg(feature = "alloc")]
impl<T, S> Evaluated for crate::HeapTensor<T, S> {
    type Value = Self;
    type Then<R> = R;
    #[inline(always)]
    fn then<R>(self, f: impl FnOnce(Self) -> R) -> R {
        f(self)
    }
}

impl<X> Evaluated for Result<X, ShapeError> {
    type Value = X;
    type Then<R> = Result<R, ShapeError>;
    #[inline(always)]
    fn then<R>(self, f: impl FnOnce(X) -> R) -> Result<R, ShapeError> {
        self.map(f)
    }
}

/// `f` applied to the tensor `value`, or to the tensor in its `Result`.
#[inline(always)]
pub fn then<V: Evaluated, R>(value: V, f: impl FnOnce(V::Value) -> R) -> V::Then<R> {
    value.then(f)
}

/// Evaluates a part of an expression into a tensor on `placement` (a
/// stage), which the rest reads.
#[inline]
pub fn evaluate_stage<P: Evaluate, T: Element, E: Expr<T>>(
    placement: P,
    e: E,
) -> P::Stage<T, E::Shape> {
    placement.evaluate_stage(e)
}

/// Evaluates `e` into a new tensor on `placement` (`tensor_expr!(e)`).
#[inline]
pub fn evaluate<P: Evaluate, T: Element, E: Expr<T>>(placement: P, e: E) -> P::Tensor<T, E::Shape> {
    placement.evaluate(e)
}

/// The stack bytes an expression's stages take, at most, unless the
/// statement names its own budget (`scratch <= N:`): 16 KiB. A Kalman
/// filter's or a rigid transform's stages fit many times over (a filter
/// update with 4x4 `f32` matrices stages 128 bytes); a convolution's
/// activation map staged inside an expression (16 channels of 49 x 10,
/// 31 KiB) needs a budget of its own, which then states its stack use.
pub const DEFAULT_SCRATCH_BUDGET: usize = 16384;

/// The bytes a stage takes on the stack: all of a [`Tensor`]'s, a pointer's
/// worth of a [`HeapTensor`](crate::HeapTensor)'s. The stages of one
/// expression are passed as nested pairs, `(&stage0, (&stage1, ()))`.
pub trait StackBytes {
    /// The bytes, a compile-time constant.
    const STACK_BYTES: usize;
}

impl StackBytes for () {
    const STACK_BYTES: usize = 0;
}

impl<A: StackBytes, B: StackBytes> StackBytes for (A, B) {
    const STACK_BYTES: usize = A::STACK_BYTES + B::STACK_BYTES;
}

impl<T, S: Shape> StackBytes for &Tensor<T, S> {
    const STACK_BYTES: usize = size_of::<Tensor<T, S>>();
}

/// A stage computed into the assignment's target: its tensor's slot is on
/// the stack whether or not it was needed, counted as the tensor (a stage
/// the budget admits as a `Tensor` is admitted here too).
impl<T, S: Shape> StackBytes for &Option<Tensor<T, S>> {
    const STACK_BYTES: usize = size_of::<Tensor<T, S>>();
}

/// A stage of a program's planned statement, in the program's arena
/// ([`crate::program::evaluate_stage_in`]): no stack, and counted by the
/// arena's plan instead.
impl<T, S: Shape> StackBytes for &&mut Tensor<T, S> {
    const STACK_BYTES: usize = 0;
}

#[cfg(feature = "alloc")]
impl<T, S> StackBytes for &crate::HeapTensor<T, S> {
    const STACK_BYTES: usize = size_of::<crate::HeapTensor<T, S>>();
}

/// A budget of `BUDGET` stack bytes for the stages `X`; its constant
/// [`FITS`](Self::FITS) fails to evaluate, naming both, when they do not fit.
pub struct ScratchBudget<X, const BUDGET: usize>(X);

impl<X: StackBytes, const BUDGET: usize> ScratchBudget<X, BUDGET> {
    /// Evaluates when the stages fit, and fails the build otherwise.
    pub const FITS: () = if X::STACK_BYTES > BUDGET {
        panic!("the stages of this `tensor_expr!` (below) take more stack than its scratch budget: evaluate a part into a `HeapTensor` first, or set the budget with `scratch <= BYTES:`")
    };
}

/// Checks at compile time (when the expression is built, as `cargo build`
/// does; `cargo check` skips it) that an expression's stages fit its
/// scratch budget. Over it, the build fails naming the stages' types.
///
/// ```
/// use tensor_expr_runtime::placement::within_scratch_budget;
/// use tensor_expr_runtime::{Tensor, D};
/// let stage = Tensor::<f32, (D<4>, D<4>)>::zeros();
/// within_scratch_budget::<64, _>((&stage, ()));
/// ```
///
/// ```compile_fail
/// # use tensor_expr_runtime::placement::within_scratch_budget;
/// # use tensor_expr_runtime::{Tensor, D};
/// let stage = Tensor::<f32, (D<4>, D<4>)>::zeros();
/// within_scratch_budget::<63, _>((&stage, ()));
/// ```
#[inline(always)]
pub fn within_scratch_budget<const BUDGET: usize, X: StackBytes>(_stages: X) {
    ScratchBudget::<X, BUDGET>::FITS
}
