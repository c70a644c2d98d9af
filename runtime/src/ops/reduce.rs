//! Axis reductions inside the nest: `sum`, `mean`, `prod`, `max`, `min` over a
//! literal list of axes, with or without the reduced dims kept as size 1.
//!
//! The axes rule (in range, each once, negative axes counted from the end) is
//! checked where the macro calls the node's constructor, by a local trait the
//! macro writes for the literal axes (see `tensor_expr_macros`): it gives the
//! shape with the reduced dims set to `One` (`K`, "keepdim") and the result
//! shape `R` (`K`, or `K` without the reduced dims; both have `K`'s row-major
//! layout). This module only evaluates.
//!
//! A [`Reduction`] computes one row of its result at a time and caches it
//! (`expr::buffered`): a reduction over the last axis (softmax, layer norm)
//! is one pass over the input row per output row, made while the previous
//! output row is read where its input holds no cached node; one over outer
//! axes (`x - mean(x, [0], keepdim)`) is computed once and read by every
//! output row. A reduction over a short last axis (each `[N, 3]` point's
//! norm) keeps no cache: each element is folded where it is read
//! (`Reduction::DIRECT`). A fold along a row keeps 16 independent partial results, so
//! it vectorises (and sums in a different order than a plain left-to-right
//! loop, as NumPy's pairwise sum also does).

use super::{axes_signature, Build, Operation, Reads};
use crate::dim::RUN_TIME;
use crate::element::{fold_row_with, reducer_steps, Element, FoldStep, RowFold};
use crate::expr::buffered::{outer_of_row, source_row, CachedRow, OwnedRow, RowPair};
use crate::expr::fresh::Fresh;
use crate::expr::function::{impl_domain, Domain};
use crate::expr::{reading, Context, Expr, Flat, Own, Reading, Row, Shaped, SHORT_ROW};
use crate::lanes::Read;
use crate::rules::broadcast::BroadcastStrides;
use crate::shape::{has_no_elements, Shape, MAX_RANK};
use core::cell::Cell;
use core::marker::PhantomData;
use core::mem::MaybeUninit;

/// How a reduction combines elements: its step (one of [`reducer_steps`], which
/// also gives its start and a quiet step for the lanes), and what is
/// particular to it.
pub trait Reducer<T: Element> {
    /// The step.
    type Step: FoldStep<T>;
    /// The step as a value, for the compiled folds of stored rows.
    const ROW_FOLD: RowFold = <Self::Step as FoldStep<T>>::FOLD;
    /// The value of an empty reduction, and the start of every fold.
    const IDENTITY: T = Self::ROW_FOLD.identity();
    /// Whether a reduction over no element has a value. `max` and `min` have
    /// none (NumPy raises "zero-size array to reduction operation maximum
    /// which has no identity"): over a zero-length axis they are a
    /// compile-time error, not -inf.
    const DEFINED_WHEN_EMPTY: bool = true;
    /// Whether the step adds, from `ZERO` (`sum`, `mean`): a row that
    /// knows its sum ([`Row::known_sum`]) is then not folded again.
    const SUM: bool = false;
    /// Folds one more element in.
    #[inline(always)]
    fn combine(acc: T, x: T) -> T {
        <Self::Step as FoldStep<T>>::combine(acc, x)
    }
    /// The result from the folded value and the number of elements folded.
    #[inline(always)]
    fn finish(acc: T, _count: usize) -> T {
        acc
    }
}

/// Declares, from one table, each reduction's marker, its constructor and
/// its [`Operation`] entry.
macro_rules! reductions {
    (@empty undefined) => {
        false
    };
    (@empty floats_only) => {
        T::IS_FLOAT
    };
    (@sums sums) => {
        true
    };
    ($(#[doc = $doc:literal] $name:ident ($entry:ident): $bound:ident, $fold:ident $(($sums:ident))?
        $([$empty:ident when empty])?
        $(, finish($facc:ident, $count:ident) => $finish:expr)?;)*) => {
        /// The reductions, one zero-sized marker each.
        #[allow(non_camel_case_types)]
        pub mod reductions {
            use super::*;
            $(
                #[doc = $doc]
                #[derive(Clone, Copy, Debug, Default)]
                pub struct $name;
                // For every element type, so that only `Domain` reports a
                // type outside the domain (`mean` of integers), once.
                impl<T: Element> Reducer<T> for $name {
                    type Step = reducer_steps::$fold;
                    $(const DEFINED_WHEN_EMPTY: bool = reductions!(@empty $empty);)?
                    $(const SUM: bool = reductions!(@sums $sums);)?
                    $(#[inline(always)]
                    fn finish($facc: T, $count: usize) -> T { $finish })?
                }
                impl_domain!($name: $bound);
            )*
        }

        $(
            #[doc = concat!("The table entry of `", stringify!($name), "`.")]
            pub const $entry: Operation = Operation {
                name: stringify!($name),
                signature: axes_signature(true, true),
                reads: Reads::AlongAxes,
                build: Build::Node {
                    constructor: "reduce::reduction",
                    marker: Some(concat!("reduce::reductions::", stringify!($name))),
                },
                elements: stringify!($bound),
                summary: $doc,
                forms: &[
                    concat!(stringify!($name), "(x)"),
                    concat!(stringify!($name), "(x, [axes])"),
                    concat!(stringify!($name), "(x, [axes], keepdim)"),
                ],
            };
        )*
    };
}

reductions! {
    /// The sum of the elements.
    sum (SUM): Element, Add (sums);
    /// The arithmetic mean (NaN over an empty axis, as NumPy; integers round half away from zero, as TFLite's, and have no mean of nothing).
    mean (MEAN): Element, Add (sums) [floats_only when empty],
        finish(acc, count) => crate::element::mean_of(acc, count);
    /// The product of the elements.
    prod (PROD): Element, Mul;
    /// The largest element (NaN if any is NaN; no value over an empty axis).
    max (MAX): Element, Max [undefined when empty];
    /// The smallest element (NaN if any is NaN; no value over an empty axis).
    min (MIN): Element, Min [undefined when empty];
}

/// The reduction `F` of `expr` (shape `E::Shape`) to shape `R`; `K` is the
/// input shape with the reduced dims set to `One`.
pub struct Reduction<T, F, E, K, R: Shape> {
    expr: Fresh<E>,
    cache: RowPair<T, R>,
    types: PhantomData<(F, K)>,
}

/// Builds a reduction; `_shapes` is the witness the macro's local axes check
/// returns: the kept shape `K` and the result shape `R`.
#[inline(always)]
pub fn reduction<T, M, F, E, K, R>(
    _context: Context<T, M>,
    _f: F,
    _shapes: PhantomData<(K, R)>,
    expr: E,
) -> Reduction<T, <F as Domain<T>>::Function, E, K, R>
where
    T: Element,
    F: Reducer<T> + Domain<T>,
    E: Shaped,
    K: Shape,
    R: Shape,
{
    Reduction {
        expr: Fresh::new(expr),
        cache: RowPair::new(),
        types: PhantomData,
    }
}

impl<T, F, E, K, R> Reduction<T, F, E, K, R>
where
    T: Element,
    F: Reducer<T>,
    E: Expr<T>,
    K: Shape,
    R: Shape,
{
    /// Whether input dim `k` is reduced. A dim of size 1 counts as kept: reducing
    /// it changes nothing.
    const fn reduced(k: usize) -> bool {
        K::DIMS[k] == 1 && <E::Shape as Shape>::DIMS[k] != 1
    }

    /// Whether each result element folds whole input rows: the last input
    /// dim is reduced, or is a size-1 dim (which a reduction without keepdim
    /// may drop, so that a result row no longer matches an input row).
    /// Otherwise the last dim is kept and not 1, the result's rows are the
    /// input's rows, and a result row folds input rows column by column.
    const LAST_REDUCED: bool = K::RANK > 0 && K::DIMS[K::RANK - 1] == 1;

    /// The number of input rows folded into each result element (the product
    /// of the reduced outer dims), but for a reduced first dim counted at
    /// run time ([`Self::RUN_TIME_FOLD`]), whose rows [`Self::group`] adds.
    const GROUP: usize = {
        let mut group = 1;
        let mut k = 0;
        while k + 1 < K::RANK {
            if Self::reduced(k) && <E::Shape as Shape>::DIMS[k] != RUN_TIME {
                group *= <E::Shape as Shape>::DIMS[k];
            }
            k += 1;
        }
        group
    };

    /// The number of input elements per result element (for a fold over
    /// run-time rows, per row of them: [`Self::count`]).
    const COUNT: usize = if Self::LAST_REDUCED {
        Self::GROUP * Self::INPUT_ROW
    } else {
        Self::GROUP
    };

    /// The input's last dim, or 1 where it is the rows counted at run time
    /// (a `[Dyn]` input).
    const INPUT_ROW: usize = if Self::RUN_TIME_INPUT_ROW {
        1
    } else {
        <E::Shape as Shape>::ROW_LEN
    };

    /// Whether the input is `[Dyn]` alone: its one row is its run-time rows.
    const RUN_TIME_INPUT_ROW: bool = <E::Shape as Shape>::RUN_TIME_ROW;

    /// Whether the reduction folds the input's first dim, counted at run time
    /// (`sum(x, [0])` over `[Dyn, n]`): its result is static, and the number
    /// of rows it folds is the operands' ([`run_time_rows`](crate::expr::run_time_rows)).
    const RUN_TIME_FOLD: bool = <E::Shape as Shape>::RUN_TIME_ROWS && Self::reduced(0);

    /// The rows of the run-time first dim where the reduction folds it, else 1.
    #[inline(always)]
    fn folded_rows(&self) -> usize {
        if Self::RUN_TIME_FOLD {
            self.expr
                .run_time_rows::<T>()
                .expect("a reduction over a `Dyn` dim finds its rows in an operand")
        } else {
            1
        }
    }

    /// [`Self::GROUP`] with the folded run-time rows.
    #[inline(always)]
    fn group(&self) -> usize {
        if const { Self::RUN_TIME_FOLD && !Self::RUN_TIME_INPUT_ROW } {
            Self::GROUP * self.folded_rows()
        } else {
            Self::GROUP
        }
    }

    /// The length of an input row as folded: [`Self::INPUT_ROW`], or the
    /// run-time rows of a `[Dyn]` input.
    #[inline(always)]
    fn input_row(&self) -> usize {
        if Self::RUN_TIME_INPUT_ROW {
            self.folded_rows()
        } else {
            Self::INPUT_ROW
        }
    }

    /// [`Self::COUNT`] with the folded run-time rows; panics for `max`,
    /// `min` or an integer `mean` over none (they have no value, where
    /// NumPy raises).
    #[inline(always)]
    fn count(&self) -> usize {
        let count = if Self::LAST_REDUCED {
            self.group() * self.input_row()
        } else {
            self.group()
        };
        assert!(
            !Self::RUN_TIME_FOLD || F::DEFINED_WHEN_EMPTY || count > 0,
            "`max`, `min` or an integer `mean` over zero rows has no value (NumPy: \"zero-size array to reduction operation which has no identity\")"
        );
        count
    }

    /// `max`, `min` and an integer `mean` over a zero-length axis have no
    /// value. The shapes are known
    /// at compile time, so this is a compile-time error; a `const` assertion
    /// (reported by `cargo build`, not `cargo check`), since stable Rust cannot
    /// state "a dim other than 0" as a trait bound.
    const NOT_EMPTY_OR_DEFINED: () = assert!(
        F::DEFINED_WHEN_EMPTY || Self::COUNT > 0 || has_no_elements(<R as Shape>::DIMS),
        "`max`, `min` or an integer `mean` over a zero-length axis has no value (NumPy: \"zero-size array to reduction operation which has no identity\")"
    );

    /// The input's outer index of member `member` of the group that folds into
    /// the result element whose keepdim index is `kept` (reduced dims at 0).
    #[inline(always)]
    fn member(kept: [usize; MAX_RANK], mut member: usize) -> [usize; MAX_RANK] {
        let mut outer = kept;
        let mut k = K::RANK.saturating_sub(1);
        while k > 0 {
            k -= 1;
            if Self::reduced(k) {
                let dim = <E::Shape as Shape>::DIMS[k];
                outer[k] = member % dim;
                member /= dim;
            }
        }
        outer
    }

    /// Whether computing a result row reads exactly the input row that an
    /// output row reads directly (a reduction over the last axis with keepdim,
    /// as in softmax and layer norm): it may then read the input through its
    /// row caches, which is what lets a softmax's shared `exp(..)` be computed
    /// once. Any other reduction reads its input fresh (`Expr::row_fresh`).
    const ALIGNED: bool =
        Self::GROUP == 1 && !Self::RUN_TIME_FOLD && R::RANK == <E::Shape as Shape>::RANK;

    /// Whether the row the next output row reads is computed while the
    /// present one is read ([`RowPair`]): where the input holds no cached
    /// node, so computing another row of it disturbs no reader, and costs no
    /// more than computing it when it is needed.
    const READS_AHEAD: bool = !reading::<T, E>().holds.cached_rows;

    /// Whether each result element is read straight from one short input
    /// row, with no row cache: a reduction over a last axis of fewer than
    /// [`SHORT_ROW`] elements (the norm of each `[N, 3]` point), whose
    /// input holds no cached node or product. Folding a few elements where
    /// they are read costs less than a cache filled row by row, and with
    /// no cache the expression keeps the row walk that vectorises across
    /// rows.
    /// A result of rank 1 whose length is counted at run time (`sum(x,
    /// [1])` over `[Dyn, n]`) is read so too, whatever the input row's
    /// length: it is one row, which no cache of constant size holds
    /// ([`Self::RUN_TIME_ROW`]).
    const DIRECT: bool = Self::LAST_REDUCED
        && Self::GROUP == 1
        && !Self::RUN_TIME_FOLD
        && (<E::Shape as Shape>::ROW_LEN < SHORT_ROW || Self::RUN_TIME_RESULT)
        && !reading::<T, E>().holds.cached_rows
        && reading::<T, E>().holds.products == 0;

    /// Whether a build of the dev profile (`cfg(dev_profile)`, set by
    /// `build.rs`) copies a computed input row
    /// into a buffer on the stack for [`fold_row_compiled`]: a row of
    /// constant length, short enough for that buffer.
    const ROW_COPIED: bool = !Self::RUN_TIME_INPUT_ROW && Self::INPUT_ROW <= COPIED_ROW;

    /// Whether the result is `[Dyn]` alone.
    const RUN_TIME_RESULT: bool = R::RUN_TIME_ROW;

    /// A `[Dyn]` result is read [`Self::DIRECT`], or fails to build.
    const RUN_TIME_ROW: () = assert!(
        !Self::RUN_TIME_RESULT || Self::DIRECT,
        "a reduction to `[Dyn]` alone reads its input where it is read: keep the axis (`keepdim`), or make the input a plain operand or elementwise expression"
    );

    /// Result element `t` of result row `row`, folded from its input row.
    /// (`compute`'s fold of whole rows, for a group of one; through one
    /// shared helper, layer norm ran 2.3x slower on the default target.)
    #[inline(always)]
    fn direct(&self, row: usize, t: usize) -> T {
        let kept = outer_of_row::<K>(row * R::ROW_LEN + t);
        let source = self.expr.row::<T, E::Shape>(kept);
        F::finish(
            F::combine(
                F::IDENTITY,
                fold_row::<T, F>(&source, <E::Shape as Shape>::ROW_LEN),
            ),
            Self::COUNT,
        )
    }

    /// Computes row `row` of the result into `cells`.
    #[inline(always)]
    fn fill(&self, row: usize, cells: &[Cell<T>]) {
        let set = |j: usize, value| cells[j].set(value);
        if Self::ALIGNED {
            self.compute(row, set, |outer| {
                self.expr.aligned_row::<T, E::Shape>(outer)
            });
        } else {
            self.compute(row, set, |outer| self.expr.row::<T, E::Shape>(outer));
        }
    }

    /// Computes row `row` of the result, giving each element to `set`, reading
    /// input rows with `read`.
    #[inline(always)]
    fn compute<Source: Row<T>>(
        &self,
        row: usize,
        mut set: impl FnMut(usize, T),
        read: impl Fn([usize; MAX_RANK]) -> Source,
    ) {
        let (group, count, input_row) = (self.group(), self.count(), self.input_row());
        if Self::LAST_REDUCED {
            // Each result element folds whole input rows.
            for t in 0..R::ROW_LEN {
                let kept = outer_of_row::<K>(row * R::ROW_LEN + t);
                let mut acc = F::IDENTITY;
                for member in 0..group {
                    let outer = Self::member(kept, member);
                    // Stored rows in a dev-profile build: the runtime's compiled
                    // fold ([`Element::fold_row`]), the same lanes in the
                    // same order.
                    if const { cfg!(dev_profile) && !Self::RUN_TIME_INPUT_ROW } {
                        if let Some(stored) = self.expr.stored_row::<T, E::Shape>(outer) {
                            acc = F::combine(acc, T::fold_row(F::ROW_FOLD, stored));
                            continue;
                        }
                        // A product of stored rows (a window times taps):
                        // a dot product compiled there.
                        if let Some((a, b)) = self.expr.stored_factors::<T, E::Shape>(outer) {
                            acc = F::combine(acc, T::fold_product_row(F::ROW_FOLD, a, b));
                            continue;
                        }
                    }
                    let source = read(outer);
                    let folded = if const { cfg!(dev_profile) && Self::ROW_COPIED } {
                        fold_row_compiled::<T, F, E::Shape>(&source)
                    } else {
                        fold_row::<T, F>(&source, input_row)
                    };
                    acc = F::combine(acc, folded);
                }
                set(t, F::finish(acc, count));
            }
        } else {
            // A result row folds input rows column by column.
            // Counted loops over the row, not iterator adapters: the same
            // code in a release build, two calls per element fewer in a
            // debug build.
            let kept = outer_of_row::<K>(row);
            let mut values = R::row_from_fn(|_| F::IDENTITY);
            let values = values.as_mut();
            for member in 0..group {
                let outer = Self::member(kept, member);
                // Stored rows in a dev-profile build: the runtime's compiled loop
                // ([`Element::fold_rows_into`]), not this one unoptimised.
                if const { cfg!(dev_profile) } {
                    if let Some(stored) = self.expr.stored_row::<T, E::Shape>(outer) {
                        T::fold_rows_into(F::ROW_FOLD, values, stored);
                        continue;
                    }
                }
                let source = read(outer);
                #[allow(clippy::needless_range_loop)]
                for j in 0..values.len() {
                    values[j] = F::combine(values[j], source.get(j, T::ZERO));
                }
            }
            #[allow(clippy::needless_range_loop)]
            for j in 0..values.len() {
                set(j, F::finish(values[j], count));
            }
        }
    }
}

/// Folds the first `len` elements of a row as [`fold_row_with`] does (the
/// lanes, in their order), unless the row knows its sum.
#[inline(always)]
fn fold_row<T: Element, F: Reducer<T>>(row: &impl Row<T>, len: usize) -> T {
    if F::SUM {
        if let Some(sum) = row.known_sum() {
            return sum;
        }
    }
    fold_row_with::<T, F::Step>(&RowRead(row), len)
}

/// The longest computed row a dev-profile build copies for
/// [`fold_row_compiled`] (4 KiB of `f32` on the stack).
const COPIED_ROW: usize = 1024;

/// [`fold_row`] of a computed row of shape `S`'s row length, for builds
/// of the dev profile: the row copied into a buffer, then folded by
/// [`Element::fold_row`], compiled in the runtime crate. The lanes' own
/// bookkeeping, compiled into the caller's crate without optimisation,
/// cost more than reading the row (an FIR filter's rows of 64); the fold
/// is the same, in the same order.
#[inline(always)]
fn fold_row_compiled<T: Element, F: Reducer<T>, S: Shape>(row: &impl Row<T>) -> T {
    if F::SUM {
        if let Some(sum) = row.known_sum() {
            return sum;
        }
    }
    // A buffer left uninitialised and a counted loop: `array::from_fn`
    // and a filled array each cost more than the fold at opt-level 0.
    let len = S::ROW_LEN.min(COPIED_ROW);
    let mut buffer = [const { MaybeUninit::<T>::uninit() }; COPIED_ROW];
    #[allow(clippy::needless_range_loop)]
    for j in 0..len {
        buffer[j].write(row.get(j, T::ZERO));
    }
    // SAFETY: the first `len` elements were written just above.
    let values = unsafe { core::slice::from_raw_parts(buffer.as_ptr().cast::<T>(), len) };
    T::fold_row(F::ROW_FOLD, values)
}

/// A row read by a fold along it.
struct RowRead<'a, R>(&'a R);

impl<T: Element, R: Row<T>> Read<T> for RowRead<'_, R> {
    #[inline(always)]
    fn read(&self, j: usize) -> T {
        self.0.get(j, T::ZERO)
    }
}

impl<T, F, E, K, R: Shape> Shaped for Reduction<T, F, E, K, R> {
    type Shape = R;
}

unsafe impl<T, F, E, K, R> Expr<T> for Reduction<T, F, E, K, R>
where
    T: Element,
    F: Reducer<T>,
    E: Expr<T>,
    K: Shape,
    R: Shape,
{
    type Children = (Fresh<E>,);
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) -> (&Fresh<E>,) {
        (&self.expr,)
    }
    /// Read where the output reads it (no flat walk: a reduced row is not
    /// its input's) or through a row cache; the input's run-time rows
    /// unless the reduction folds them (its result is then static).
    const OWN: Own = Own {
        hides_run_time_rows: Self::RUN_TIME_FOLD,
        ..if Self::DIRECT {
            Own::leaf(Flat::No)
        } else {
            Own::alone(Reading::CACHED_ROWS)
        }
    };
    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        #[allow(clippy::let_unit_value)]
        let ((), ()) = (Self::NOT_EMPTY_OR_DEFINED, Self::RUN_TIME_ROW);
        let row = source_row::<R, O>(outer);
        if Self::DIRECT {
            if const { BroadcastStrides::<R, O>::INNER == 0 } {
                // Every element of the output row reads the same result
                // element (`p / norm(p, [1], keepdim)`): folded once here,
                // not once per element read.
                return ReducedRow::Value(self.direct(row, 0));
            }
            return ReducedRow::Direct(DirectRow::<_, O> {
                node: self,
                row,
                shape: PhantomData,
            });
        }
        let cells = self
            .cache
            .row(row, |cells: &[Cell<T>]| self.fill(row, cells));
        // Not where `O`'s rows are counted at run time (a shared row filled
        // from whole operands): its last row has no end to stop at.
        if const { Self::READS_AHEAD && !O::RUN_TIME_ROWS } {
            let mut next = outer;
            if crate::kernel::advance_outer::<O>(&mut next) {
                let next = source_row::<R, O>(next);
                self.cache
                    .ahead(next, |cells: &[Cell<T>]| self.fill(next, cells));
            }
        }
        ReducedRow::Cached(CachedRow::<T, R, O>::new(cells))
    }
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        #[allow(clippy::let_unit_value)]
        let () = Self::NOT_EMPTY_OR_DEFINED;
        let row = source_row::<R, O>(outer);
        let mut values = R::row_from_fn(|_| T::ZERO);
        let set = |j: usize, value| values.as_mut()[j] = value;
        self.compute(row, set, |outer| self.expr.row::<T, E::Shape>(outer));
        OwnedRow::<T, R, O> {
            values,
            shape: PhantomData,
        }
    }
}

/// A row of a reduction's result as the output reads it: from its cache,
/// or folded where read ([`Reduction::DIRECT`]), or one value folded for
/// the whole row where the output row reads one result element.
enum ReducedRow<'a, T, N, O, C> {
    Direct(DirectRow<'a, N, O>),
    Value(T),
    Cached(C),
}

/// Row `row` of a [`Reduction::DIRECT`] result, read within output `O`.
struct DirectRow<'a, N, O> {
    node: &'a N,
    row: usize,
    shape: PhantomData<O>,
}

impl<T, F, E, K, R, O, C> Row<T> for ReducedRow<'_, T, Reduction<T, F, E, K, R>, O, C>
where
    T: Element,
    F: Reducer<T>,
    E: Expr<T>,
    K: Shape,
    R: Shape,
    O: Shape,
    C: Row<T>,
{
    #[inline(always)]
    fn get(&self, j: usize, current: T) -> T {
        match self {
            ReducedRow::Direct(direct) => direct
                .node
                .direct(direct.row, j * BroadcastStrides::<R, O>::INNER),
            ReducedRow::Value(value) => *value,
            ReducedRow::Cached(cached) => cached.get(j, current),
        }
    }
}
