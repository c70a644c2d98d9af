//! A long path of elementwise operations (`a + b - c + ...`, `relu(exp(..))`,
//! `max(max(a, b), c)`, `v + (v + ..)`) as one node whose type nests
//! logarithmically, not linearly.
//!
//! The path is a fold: `acc = head`, then one step per operation in source
//! order, each `acc = f(.., acc, ..)` with the accumulator at its [`Position`]
//! among `f`'s arguments (only, left, right, first of three) and the other
//! arguments read from their own nodes ([`Sides`]). Built as nested
//! [`Map1`]/[`Map2`] nodes, the type would be `n` levels deep, and rustc stops
//! at its recursion limit (at 62 nested elementwise nodes, measured). Here the
//! steps sit in a tree of tuples of up to [`GROUP`] subtrees, which the macro
//! assembles as they come (about `log4(n)` deep), and [`Fold`] applies them
//! from left to right: the same operations on the same values in the same
//! order, so the results are bit-identical to the nested form.
//!
//! The constructors check nothing: `tensor_expr!` first checks every step
//! with its operation's own constructor ([`map1`](super::map1),
//! [`map2`](super::map2), [`map3`](super::map3)) against the shape of the path
//! so far (a [`PhantomData`] witness, so each check is one level deep),
//! spanned on the step's operator, and passes the last check's shape to
//! [`fold`].
//!
//! [`Map1`]: super::Map1
//! [`Map2`]: super::Map2

use super::function::{BinaryFunction, Domain, TernaryFunction, UnaryFunction};
use super::{Child, Children, Context, Expr, Flat, Own, Reading, Row, Shaped, Tile, TileOrigin};
use crate::element::Element;
use crate::shape::{Shape, MAX_RANK};
use core::marker::PhantomData;

/// `head` then `Steps`, of shape `S`: the steps applied to `head` in order.
#[derive(Clone, Copy, Debug)]
pub struct Fold<T, H, Steps, S> {
    head: H,
    steps: Steps,
    types: PhantomData<(T, S)>,
}

/// One step `acc = F(..)`: the accumulator at position `P` among `F`'s
/// arguments, the other arguments read from `sides` (a [`Sides`]).
#[derive(Clone, Copy, Debug)]
pub struct Step<F, P, Sides> {
    sides: Sides,
    types: PhantomData<(F, P)>,
}

/// The most subtrees in one group of a fold's steps tree: a tuple of 2 to
/// `GROUP` subtrees is a group, its steps applied in tuple order.
///
/// Four, measured: against two (pairs), the tree is half as deep, so the
/// types of its inner nodes, whose regions rustc's type and borrow checks
/// visit once per node, add up to half as much; eight was no faster.
pub const GROUP: usize = 4;

/// Builds `head` then `steps`, of the shape `_shape` that the macro's
/// step-by-step checks computed.
#[inline(always)]
pub fn fold<T, M, H, Steps, S>(
    _context: Context<T, M>,
    _shape: PhantomData<S>,
    head: H,
    steps: Steps,
) -> Fold<T, H, Steps, S> {
    Fold {
        head,
        steps,
        types: PhantomData,
    }
}

/// The step `acc = f(acc)`.
#[inline(always)]
pub fn unary_step<T, M, F: Domain<T>>(
    _context: Context<T, M>,
    _f: F,
) -> Step<F::Function, Only, ()> {
    Step {
        sides: (),
        types: PhantomData,
    }
}

/// The step `acc = f(acc, x)`.
#[inline(always)]
pub fn left_step<T, M, F: Domain<T>, X>(
    _context: Context<T, M>,
    _f: F,
    x: X,
) -> Step<F::Function, Left, (X,)> {
    Step {
        sides: (x,),
        types: PhantomData,
    }
}

/// The step `acc = f(x, acc)`.
#[inline(always)]
pub fn right_step<T, M, F: Domain<T>, X>(
    _context: Context<T, M>,
    _f: F,
    x: X,
) -> Step<F::Function, Right, (X,)> {
    Step {
        sides: (x,),
        types: PhantomData,
    }
}

/// The step `acc = f(acc, b, c)`.
#[inline(always)]
pub fn first_step<T, M, F: Domain<T>, B, C>(
    _context: Context<T, M>,
    _f: F,
    b: B,
    c: C,
) -> Step<F::Function, First, (B, C)> {
    Step {
        sides: (b, c),
        types: PhantomData,
    }
}

impl<T, H, Steps, S: Shape> Shaped for Fold<T, H, Steps, S> {
    type Shape = S;
}

/// Where the accumulator stands among a step's arguments, and how the step
/// applies its function `F` to it and to the values `V` of the other arguments.
pub trait Position<F, T, V> {
    /// `F` of the accumulator and the other arguments, in the written order.
    fn apply(acc: T, values: V) -> T;
}

/// The accumulator is the only argument: `f(acc)`.
#[derive(Clone, Copy, Debug)]
pub struct Only;
/// The accumulator is the left argument: `acc op x`, `f(acc, x)`.
#[derive(Clone, Copy, Debug)]
pub struct Left;
/// The accumulator is the right argument: `x op acc`, `f(x, acc)`.
#[derive(Clone, Copy, Debug)]
pub struct Right;
/// The accumulator is the first of three arguments: `f(acc, b, c)`.
#[derive(Clone, Copy, Debug)]
pub struct First;

impl<T, F: UnaryFunction<T>> Position<F, T, ()> for Only {
    #[inline(always)]
    fn apply(acc: T, (): ()) -> T {
        F::apply(acc)
    }
}

impl<T, F: BinaryFunction<T>> Position<F, T, (T,)> for Left {
    #[inline(always)]
    fn apply(acc: T, (x,): (T,)) -> T {
        F::apply(acc, x)
    }
}

impl<T, F: BinaryFunction<T>> Position<F, T, (T,)> for Right {
    #[inline(always)]
    fn apply(acc: T, (x,): (T,)) -> T {
        F::apply(x, acc)
    }
}

impl<T, F: TernaryFunction<T>> Position<F, T, (T, T)> for First {
    #[inline(always)]
    fn apply(acc: T, (b, c): (T, T)) -> T {
        F::apply(acc, b, c)
    }
}

/// A step's other arguments (`()`, `(x,)` or `(b, c)`), read like an
/// [`Expr`] into a tuple of values.
pub trait Sides<T> {
    /// The values read at one index.
    type Values;
    /// How the arguments read (see [`reading`](super::reading)).
    const READING: Reading;
    /// The arguments' reader for the whole output as one row.
    fn flat_row(&self) -> impl SidesRow<T, Self::Values> + '_;
    /// The arguments' reader for one output row.
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl SidesRow<T, Self::Values> + '_;
    /// The same, without row caches.
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl SidesRow<T, Self::Values> + '_;
    /// The arguments' reader for one tile.
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl SidesTile<T, Self::Values> + '_;
    /// The arguments' run-time rows (see [`visit_run_time_rows`](super::visit_run_time_rows)).
    fn visit_run_time_rows(&self, visit: &mut impl FnMut(usize));
}

/// A step's other arguments in one row.
pub trait SidesRow<T, V> {
    /// Their values at column `j`.
    fn get(&self, j: usize, current: T) -> V;
}

/// A step's other arguments in one tile.
pub trait SidesTile<T, V> {
    /// Their values at row `r`, column `j` of the tile.
    fn get(&self, r: usize, j: usize, current: T) -> V;
}

/// The readers of an [`Expr`]-like trait for a tuple that reads as its
/// members do: each reader the tuple of its members' readers. Shared by [`Sides`] (a step's other arguments) and [`FoldSteps`]
/// (a group of steps); `[$row]` and `[$tile]` are the reader traits returned.
macro_rules! tuple_of_readers {
    ([$($row:tt)*] [$($tile:tt)*] $($x:ident $i:tt),*) => {
        #[inline(always)]
        fn flat_row(&self) -> impl $($row)* + '_ {
            ($(self.$i.flat_row(),)*)
        }
        #[inline(always)]
        fn row<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> impl $($row)* + '_ {
            ($(self.$i.row::<O>(_outer),)*)
        }
        #[inline(always)]
        fn row_fresh<O: Shape>(&self, _outer: [usize; MAX_RANK]) -> impl $($row)* + '_ {
            ($(self.$i.row_fresh::<O>(_outer),)*)
        }
        #[inline(always)]
        fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
            &self,
            _at: TileOrigin,
            _j0: usize,
        ) -> impl $($tile)* + '_ {
            ($(self.$i.tile::<O, R, C, FUSE>(_at, _j0),)*)
        }
    };
}

/// Implements [`Sides`] for a tuple of expressions and its readers for the
/// same tuple of row or tile readers.
macro_rules! impl_sides {
    ($($x:ident $i:tt),*) => {
        // `()` for a step with no other argument.
        #[allow(clippy::unused_unit)]
        impl<T: Element, $($x: Expr<T>),*> Sides<T> for ($($x,)*) {
            type Values = ($(impl_sides!(@t $x T),)*);
            tuple_of_readers!([SidesRow<T, Self::Values>] [SidesTile<T, Self::Values>] $($x $i),*);
            const READING: Reading = <($($x,)*) as Children<T>>::READING;
            #[inline(always)]
            fn visit_run_time_rows(&self, _visit: &mut impl FnMut(usize)) {
                <($($x,)*) as Children<T>>::visit_run_time_rows(&($(&self.$i,)*), _visit);
            }
        }
        #[allow(clippy::unused_unit)]
        impl<T: Copy, $($x: Row<T>),*> SidesRow<T, ($(impl_sides!(@t $x T),)*)> for ($($x,)*) {
            #[inline(always)]
            fn get(&self, _j: usize, _current: T) -> ($(impl_sides!(@t $x T),)*) {
                ($(self.$i.get(_j, _current),)*)
            }
        }
        #[allow(clippy::unused_unit)]
        impl<T: Copy, $($x: Tile<T>),*> SidesTile<T, ($(impl_sides!(@t $x T),)*)> for ($($x,)*) {
            #[inline(always)]
            fn get(&self, _r: usize, _j: usize, _current: T) -> ($(impl_sides!(@t $x T),)*) {
                ($(self.$i.get(_r, _j, _current),)*)
            }
        }
    };
    (@t $x:ident $t:ident) => { $t };
}

impl_sides!();
impl_sides!(X 0);
impl_sides!(X0 0, X1 1);

/// The steps of a [`Fold`], read like an [`Expr`] but applied to an accumulator.
pub trait FoldSteps<T> {
    /// How the steps read (see [`reading`](super::reading)).
    const READING: Reading;
    /// The steps' reader for the whole output as one row (see [`Expr::flat_row`]).
    fn flat_row(&self) -> impl StepsRow<T> + '_;
    /// The steps' reader for one output row (see [`Expr::row`]).
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl StepsRow<T> + '_;
    /// The same, without row caches (see [`Expr::row_fresh`]).
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl StepsRow<T> + '_;
    /// The steps' reader for one tile (see [`Expr::tile`]).
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl StepsTile<T> + '_;
    /// The steps' operands' run-time rows (see [`visit_run_time_rows`](super::visit_run_time_rows)).
    fn visit_run_time_rows(&self, visit: &mut impl FnMut(usize));
}

/// The steps of one row: applies them to the accumulator at column `j`.
pub trait StepsRow<T> {
    /// `acc` after every step, at column `j` (`current`: the target's value).
    fn fold(&self, acc: T, j: usize, current: T) -> T;
}

/// The steps of one tile: applies them at row `r`, column `j` of the tile.
pub trait StepsTile<T> {
    /// `acc` after every step, at row `r`, column `j` of the tile.
    fn fold(&self, acc: T, r: usize, j: usize, current: T) -> T;
}

impl<T, F, P, S> FoldSteps<T> for Step<F, P, S>
where
    T: Element,
    S: Sides<T>,
    P: Position<F, T, S::Values>,
{
    const READING: Reading = S::READING;
    #[inline(always)]
    fn visit_run_time_rows(&self, visit: &mut impl FnMut(usize)) {
        self.sides.visit_run_time_rows(visit);
    }
    #[inline(always)]
    fn flat_row(&self) -> impl StepsRow<T> + '_ {
        Apply::<F, P, _, S::Values>(self.sides.flat_row(), PhantomData)
    }
    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl StepsRow<T> + '_ {
        Apply::<F, P, _, S::Values>(self.sides.row::<O>(outer), PhantomData)
    }
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl StepsRow<T> + '_ {
        Apply::<F, P, _, S::Values>(self.sides.row_fresh::<O>(outer), PhantomData)
    }
    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl StepsTile<T> + '_ {
        Apply::<F, P, _, S::Values>(self.sides.tile::<O, R, C, FUSE>(at, j0), PhantomData)
    }
}

unsafe impl<T: Element, H: Expr<T>, Steps: FoldSteps<T>, S: Shape> Expr<T>
    for Fold<T, H, Steps, S>
{
    type Children = (H, StepsOf<Steps>);
    type KernelScratch = crate::scratch::NoScratch;
    #[inline(always)]
    fn children(&self) -> (&H, &Steps) {
        (&self.head, &self.steps)
    }
    const OWN: Own = Own::ELEMENTWISE;
    #[inline(always)]
    fn flat_row(&self) -> impl Row<T> + '_ {
        Folded {
            head: self.head.flat_row(),
            steps: self.steps.flat_row(),
        }
    }
    #[inline(always)]
    fn row<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        Folded {
            head: self.head.row::<O>(outer),
            steps: self.steps.row::<O>(outer),
        }
    }
    #[inline(always)]
    fn row_fresh<O: Shape>(&self, outer: [usize; MAX_RANK]) -> impl Row<T> + '_ {
        Folded {
            head: self.head.row_fresh::<O>(outer),
            steps: self.steps.row_fresh::<O>(outer),
        }
    }
    #[inline(always)]
    fn tile<O: Shape, const R: usize, const C: usize, const FUSE: bool>(
        &self,
        at: TileOrigin,
        j0: usize,
    ) -> impl Tile<T> + '_ {
        Folded {
            head: self.head.tile::<O, R, C, FUSE>(at, j0),
            steps: self.steps.tile::<O, R, C, FUSE>(at, j0),
        }
    }
}

/// A step's reader: `F` applied at position `P` to the accumulator and the
/// values `V` read from its other arguments' reader `S`.
struct Apply<F, P, S, V>(S, PhantomData<(F, P, V)>);

impl<T, F, P: Position<F, T, V>, S: SidesRow<T, V>, V> StepsRow<T> for Apply<F, P, S, V> {
    #[inline(always)]
    fn fold(&self, acc: T, j: usize, current: T) -> T {
        P::apply(acc, self.0.get(j, current))
    }
}

impl<T, F, P: Position<F, T, V>, S: SidesTile<T, V>, V> StepsTile<T> for Apply<F, P, S, V> {
    #[inline(always)]
    fn fold(&self, acc: T, r: usize, j: usize, current: T) -> T {
        P::apply(acc, self.0.get(r, j, current))
    }
}

/// The whole chain's reader (a row or a tile): the head's value, then the steps.
struct Folded<H, Steps> {
    head: H,
    steps: Steps,
}

impl<T: Copy, H: Row<T>, Steps: StepsRow<T>> Row<T> for Folded<H, Steps> {
    #[inline(always)]
    fn get(&self, j: usize, current: T) -> T {
        self.steps.fold(self.head.get(j, current), j, current)
    }
}

impl<T: Copy, H: Tile<T>, Steps: StepsTile<T>> Tile<T> for Folded<H, Steps> {
    #[inline(always)]
    fn get(&self, r: usize, j: usize, current: T) -> T {
        self.steps.fold(self.head.get(r, j, current), r, j, current)
    }
}

/// Implements [`FoldSteps`] for a group (a tuple of subtrees) and its
/// readers for the same tuple of readers: each subtree's steps in turn.
macro_rules! impl_steps_group {
    ($($x:ident $i:tt),*) => {
        impl<T: Copy, $($x: FoldSteps<T>),*> FoldSteps<T> for ($($x,)*) {
            tuple_of_readers!([StepsRow<T>] [StepsTile<T>] $($x $i),*);
            const READING: Reading = Reading::leaf(Flat::Splat) $(.and($x::READING))*;
            #[inline(always)]
            fn visit_run_time_rows(&self, _visit: &mut impl FnMut(usize)) {
                $(self.$i.visit_run_time_rows(_visit);)*
            }
        }
        impl<T: Copy, $($x: StepsRow<T>),*> StepsRow<T> for ($($x,)*) {
            #[inline(always)]
            fn fold(&self, acc: T, j: usize, current: T) -> T {
                $(let acc = self.$i.fold(acc, j, current);)*
                acc
            }
        }
        impl<T: Copy, $($x: StepsTile<T>),*> StepsTile<T> for ($($x,)*) {
            #[inline(always)]
            fn fold(&self, acc: T, r: usize, j: usize, current: T) -> T {
                $(let acc = self.$i.fold(acc, r, j, current);)*
                acc
            }
        }
    };
}

// Groups of 2 to `GROUP` subtrees.
impl_steps_group!(G0 0, G1 1);
impl_steps_group!(G0 0, G1 1, G2 2);
impl_steps_group!(G0 0, G1 1, G2 2, G3 3);

/// A fold's steps as its child ([`Expr::Children`]): their reading and
/// their operands' rows.
pub struct StepsOf<S>(PhantomData<S>);

impl<T, S: FoldSteps<T>> Child<T> for StepsOf<S> {
    type Ref<'a>
        = &'a S
    where
        Self: 'a;
    const READING: Reading = S::READING;
    #[inline(always)]
    fn visit_run_time_rows(steps: &&S, visit: &mut impl FnMut(usize)) {
        steps.visit_run_time_rows(visit);
    }
}
