//! Programs with planned memory: the arena a `#[tensor_expr::program]`
//! function's tensors live in, and the plan that places them.
//!
//! The attribute turns each `let name = tensor_expr!(e);` of the function's
//! body into a tensor in one [`Arena`], at an offset [`plan`] computes from
//! the tensors' sizes and lifetimes: a tensor whose last reader has run
//! frees its bytes for a later one, as TensorFlow Lite Micro's greedy
//! planner does. The sizes come from the tensors' types (`size_of`), read
//! through a function the attribute writes and never calls (a *witness*:
//! the body again, each tensor's type pushed on a [`Footprints`] list that
//! is its return type), so the offsets and the arena's size are constants
//! that `cargo check` computes.
//!
//! Everything here but [`Arena`] exists for the attribute's expansion.

#[cfg(feature = "alloc")]
use crate::access::Heap;
use crate::access::Stack;
use crate::element::Element;
use crate::expr::Expr;
use crate::placement::Evaluate;
use crate::scratch::{KernelScratch, Scratch, SCRATCH_ALIGN};
use crate::tensor::Tensor;
use core::marker::PhantomData;
use core::mem::{align_of, size_of, MaybeUninit};

/// The alignment of an [`Arena`]'s first byte: a cache line, which is also
/// the widest vector (AVX-512) any kernel reads.
pub const ARENA_ALIGN: usize = 64;

/// `N` bytes that a program's tensors live in, aligned for every element
/// type and vector width. `const fn new` lets it be a `static` (on a
/// microcontroller, a buffer the linker places); a program's `_in` function
/// borrows it for one call.
///
/// ```
/// use tensor_expr_runtime::Arena;
/// static mut ARENA: Arena<1024> = Arena::new();
/// let arena = Arena::<256>::new();
/// assert_eq!(core::mem::size_of_val(&arena), 256);
/// assert_eq!(core::mem::align_of_val(&arena), 64);
/// ```
#[repr(C, align(64))]
pub struct Arena<const N: usize> {
    bytes: [MaybeUninit<u8>; N],
}

impl<const N: usize> Arena<N> {
    /// Its size in bytes.
    pub const BYTES: usize = N;

    /// An arena whose bytes are not yet written (a program writes each
    /// tensor before reading it).
    pub const fn new() -> Self {
        Arena {
            bytes: [MaybeUninit::uninit(); N],
        }
    }
}

impl<const N: usize> Default for Arena<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> core::fmt::Debug for Arena<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Arena<{N}>")
    }
}

/// A tensor of a program: its bytes and alignment, the statement (counted
/// from 0 in the function's body) that writes it and the last that reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lifetime {
    /// `size_of` its type.
    pub bytes: usize,
    /// `align_of` its type.
    pub align: usize,
    /// The statement that writes it.
    pub first: usize,
    /// The last statement that reads it (`first` if none does).
    pub last: usize,
}

impl Lifetime {
    /// No bytes, alive at statement 0 alone: what an array of lifetimes
    /// holds before a `const fn` fills it.
    pub const NONE: Lifetime = Lifetime {
        bytes: 0,
        align: 1,
        first: 0,
        last: 0,
    };

    /// Whether the two are alive at one statement (a statement's output
    /// and its inputs are).
    pub const fn overlaps_in_time(&self, other: &Lifetime) -> bool {
        self.first <= other.last && other.first <= self.last
    }
}

/// Where each tensor of a program lives in its arena, and the arena's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan<const K: usize> {
    /// Each tensor's offset from the arena's start.
    pub offsets: [usize; K],
    /// The arena's size: the end of the tensor that ends last.
    pub bytes: usize,
}

/// Places the tensors greedily by size, as TensorFlow Lite Micro's
/// `GreedyMemoryPlanner` does: the largest first (ties: the one written
/// first), each at the lowest offset, aligned for it, where it overlaps no
/// tensor already placed that is alive at one of its statements. Two
/// tensors alive at one statement never share a byte; otherwise bytes are
/// reused.
///
/// ```
/// use tensor_expr_runtime::program::{plan, Lifetime};
/// let t = |bytes, first, last| Lifetime { bytes, align: 4, first, last };
/// // a -> b -> c: `c` takes `a`'s bytes, which nothing reads after `b`.
/// let p = plan(&[t(100, 0, 1), t(60, 1, 2), t(100, 2, 2)]);
/// assert_eq!(p.offsets, [0, 100, 0]);
/// assert_eq!(p.bytes, 160);
/// ```
pub const fn plan<const K: usize>(tensors: &[Lifetime; K]) -> Plan<K> {
    let order = by_size(tensors);
    let mut offsets = [0; K];
    let mut placed = [false; K];
    let mut bytes = 0;
    let mut n = 0;
    while n < K {
        let k = order[n];
        let tensor = &tensors[k];
        let mut offset = 0;
        // Bumped past each placed tensor it collides with, until none: the
        // lowest aligned offset that fits (a collision rules out every
        // offset below the colliding tensor's end).
        let mut moved = true;
        while moved {
            moved = false;
            let mut other = 0;
            while other < K {
                let end = offsets[other] + tensors[other].bytes;
                if placed[other]
                    && tensor.overlaps_in_time(&tensors[other])
                    && offset < end
                    && offsets[other] < offset + tensor.bytes
                    && tensor.bytes > 0
                    && tensors[other].bytes > 0
                {
                    offset = align_up(end, tensor.align);
                    moved = true;
                }
                other += 1;
            }
        }
        offsets[k] = offset;
        placed[k] = true;
        if offset + tensor.bytes > bytes {
            bytes = offset + tensor.bytes;
        }
        n += 1;
    }
    Plan { offsets, bytes }
}

/// No tensor: a [`plan_taking`] entry of a tensor that takes no other's
/// bytes.
pub const TAKES_NONE: usize = usize::MAX;

/// [`plan`], where `takes[k]` names the tensor whose bytes tensor `k`
/// takes ([`TAKES_NONE`] for none): a statement's result written in place
/// of an input the statement reads last, element by element
/// ([`evaluate_in_place`]), of the same size. Such a pair is one entry of
/// the plan ([`merged`]): alive from the first's statement to the last
/// reader of the second; both get its offset.
///
/// ```
/// use tensor_expr_runtime::program::{plan_taking, Lifetime, TAKES_NONE};
/// let t = |bytes, first, last| Lifetime { bytes, align: 4, first, last };
/// // b = f(a) in a's bytes, then c = g(b) beside it.
/// let tensors = [t(100, 0, 1), t(100, 1, 2), t(100, 2, 2)];
/// let p = plan_taking(&tensors, &[TAKES_NONE, 0, TAKES_NONE]);
/// assert_eq!((p.offsets, p.bytes), ([0, 0, 100], 200));
/// ```
pub const fn plan_taking<const K: usize>(tensors: &[Lifetime; K], takes: &[usize; K]) -> Plan<K> {
    let (merged, owner) = merged_with_owners(tensors, takes);
    let mut p = plan(&merged);
    let mut k = 0;
    while k < K {
        p.offsets[k] = p.offsets[owner[k]];
        k += 1;
    }
    p
}

/// The lifetimes of [`plan_taking`]'s entries: each tensor that takes
/// another's bytes (`takes`) folded into the one that first held them,
/// which lives until the last of them is read; the others' bytes 0. What
/// a budget's peak is counted over.
pub const fn merged<const K: usize>(tensors: &[Lifetime; K], takes: &[usize; K]) -> [Lifetime; K] {
    merged_with_owners(tensors, takes).0
}

/// Whether tensor `k` takes another's bytes in [`plan_taking`]'s plan:
/// the one decision [`evaluate_in_place`] follows ([`InPlace`]).
pub const fn takes_bytes<const K: usize>(
    tensors: &[Lifetime; K],
    takes: &[usize; K],
    k: usize,
) -> bool {
    merged_with_owners(tensors, takes).1[k] != k
}

/// [`merged`], and for each tensor the one whose entry holds its bytes.
const fn merged_with_owners<const K: usize>(
    tensors: &[Lifetime; K],
    takes: &[usize; K],
) -> ([Lifetime; K], [usize; K]) {
    let mut merged = *tensors;
    let mut owner = [0; K];
    let mut k = 0;
    while k < K {
        owner[k] = k;
        let source = takes[k];
        // Only an earlier tensor, whose last reader is this one's writer,
        // and of the same size and alignment (the macro names such pairs;
        // the sizes come from the types).
        if source < k
            && tensors[source].last == tensors[k].first
            && tensors[source].bytes == tensors[k].bytes
            && tensors[source].align == tensors[k].align
        {
            let root = owner[source];
            owner[k] = root;
            if merged[k].last > merged[root].last {
                merged[root].last = merged[k].last;
            }
            merged[k].bytes = 0;
        }
        k += 1;
    }
    (merged, owner)
}

/// The first `K` of `N` lifetimes (a program's tensors, before their
/// statements' scratch).
pub const fn first<const K: usize, const N: usize>(lifetimes: &[Lifetime; N]) -> [Lifetime; K] {
    let mut first = [Lifetime::NONE; K];
    let mut k = 0;
    while k < K {
        first[k] = lifetimes[k];
        k += 1;
    }
    first
}

/// The first `K` of `N` entries of [`plan_taking`]'s `takes`, for
/// [`first`]'s lifetimes.
pub const fn first_takes<const K: usize, const N: usize>(takes: &[usize; N]) -> [usize; K] {
    let mut first = [TAKES_NONE; K];
    let mut k = 0;
    while k < K {
        first[k] = takes[k];
        k += 1;
    }
    first
}

/// The tensors' indices, largest first; of equal sizes, the one written
/// first first.
const fn by_size<const K: usize>(tensors: &[Lifetime; K]) -> [usize; K] {
    let mut order = [0; K];
    let mut i = 0;
    while i < K {
        order[i] = i;
        i += 1;
    }
    // Insertion sort: a program has tens of tensors.
    let mut i = 1;
    while i < K {
        let mut j = i;
        while j > 0 && comes_first(&tensors[order[j]], &tensors[order[j - 1]]) {
            let swap = order[j];
            order[j] = order[j - 1];
            order[j - 1] = swap;
            j -= 1;
        }
        i += 1;
    }
    order
}

/// Whether `a` is placed before `b`.
const fn comes_first(a: &Lifetime, b: &Lifetime) -> bool {
    a.bytes > b.bytes || (a.bytes == b.bytes && a.first < b.first)
}

/// `offset` rounded up to a multiple of `align` (a power of two).
const fn align_up(offset: usize, align: usize) -> usize {
    (offset + align - 1) & !(align - 1)
}

/// The most bytes alive at one statement: no plan needs fewer.
pub const fn peak<const K: usize>(tensors: &[Lifetime; K]) -> usize {
    peak_statement(tensors).1
}

/// The statement at which the most bytes are alive, and how many.
const fn peak_statement<const K: usize>(tensors: &[Lifetime; K]) -> (usize, usize) {
    let (mut best, mut best_bytes) = (0, 0);
    let mut k = 0;
    while k < K {
        // The live bytes change only where a tensor is written.
        let statement = tensors[k].first;
        let bytes = live_bytes(tensors, statement);
        if bytes > best_bytes {
            best = statement;
            best_bytes = bytes;
        }
        k += 1;
    }
    (best, best_bytes)
}

/// The bytes of the tensors alive at `statement`.
const fn live_bytes<const K: usize>(tensors: &[Lifetime; K], statement: usize) -> usize {
    let mut bytes = 0;
    let mut k = 0;
    while k < K {
        if tensors[k].first <= statement && statement <= tensors[k].last {
            bytes += tensors[k].bytes;
        }
        k += 1;
    }
    bytes
}

/// Fails compilation, at the program's name, when its arena exceeds the
/// budget of `#[tensor_expr::program(ram <= N)]`: the message names the
/// arena's size, the budget, and the tensors alive where the most bytes
/// are, with their sizes (a result written over a tensor it reads last,
/// [`plan_taking`]'s `takes`, named with it: "`b` over `a`").
pub const fn check_ram_budget<const K: usize>(
    program: &str,
    names: &[&str; K],
    tensors: &[Lifetime; K],
    takes: &[usize; K],
    bytes: usize,
    budget: usize,
) {
    if bytes <= budget {
        return;
    }
    let (merged, owner) = merged_with_owners(tensors, takes);
    let mut message = Message::new();
    message.push("program `");
    message.push(program);
    message.push("` needs ");
    message.number(bytes);
    message.push(" B of arena, over its budget of ");
    message.number(budget);
    message.push(" B; the most alive at one statement: ");
    let (statement, live) = peak_statement(&merged);
    message.number(live);
    message.push(" B, where `");
    // The tensor written there (the tensors come before their statements'
    // scratch).
    let mut k = 0;
    while k < K && tensors[k].first != statement {
        k += 1;
    }
    if k < K {
        message.push(names[k]);
    }
    message.push("` is written:");
    let mut k = 0;
    let mut first = true;
    while k < K {
        if merged[k].first <= statement && statement <= merged[k].last && merged[k].bytes > 0 {
            message.push(if first { " `" } else { ", `" });
            // The entry's tensors alive there: one, or the one written
            // over the other.
            let mut j = K;
            let mut named = false;
            while j > 0 {
                j -= 1;
                if owner[j] == k && tensors[j].first <= statement && statement <= tensors[j].last {
                    if named {
                        message.push("` over `");
                    }
                    message.push(names[j]);
                    named = true;
                }
            }
            message.push("` (");
            message.number(merged[k].bytes);
            message.push(" B)");
            first = false;
        }
        k += 1;
    }
    match core::str::from_utf8(message.text()) {
        Ok(text) => panic!("{}", text),
        Err(_) => panic!("a program exceeds its `ram` budget"),
    }
}

/// A message built at compile time (a `const` panic takes one `&str`).
struct Message {
    bytes: [u8; 1024],
    len: usize,
}

impl Message {
    const fn new() -> Self {
        Message {
            bytes: [0; 1024],
            len: 0,
        }
    }

    /// Appends `text`, cut where the buffer ends (at a character boundary).
    const fn push(&mut self, text: &str) {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() && self.len < self.bytes.len() - 4 {
            self.bytes[self.len] = text[i];
            self.len += 1;
            i += 1;
        }
        if i == text.len() {
            return;
        }
        // Cut: drop a character the end split.
        while self.len > 0 && self.bytes[self.len - 1] & 0xC0 == 0x80 {
            self.len -= 1;
        }
        if self.len > 0 && self.bytes[self.len - 1] >= 0xC0 {
            self.len -= 1;
        }
    }

    /// Appends `value` in decimal, thousands grouped by commas.
    const fn number(&mut self, value: usize) {
        let mut digits = [0u8; 40];
        let (mut n, mut v) = (0, value);
        loop {
            if n % 4 == 3 {
                digits[n] = b',';
                n += 1;
            }
            digits[n] = b'0' + (v % 10) as u8;
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        while n > 0 && self.len < self.bytes.len() {
            n -= 1;
            self.bytes[self.len] = digits[n];
            self.len += 1;
        }
    }

    const fn text(&self) -> &[u8] {
        self.bytes.split_at(self.len).0
    }
}

/// A tensor type's size and alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    /// `size_of`.
    pub bytes: usize,
    /// `align_of`.
    pub align: usize,
    /// A statement's scratch where its int8 layer is written over its
    /// input, 0 where it cannot be (a scratch entry's:
    /// [`OverInputScratch`]); [`choose_over_input`] reads it.
    pub over_input_bytes: usize,
}

/// A list of tensor types, built by the witness (one `(PhantomData<T>,
/// rest)` per tensor, [`End`] last), read back as constants.
pub trait Footprints {
    /// The first type's footprint.
    const HEAD: Footprint;
    /// The other types.
    type Rest: Footprints;
}

/// The end of a [`Footprints`] list.
#[derive(Clone, Copy, Debug)]
pub struct End;

impl Footprints for End {
    const HEAD: Footprint = Footprint {
        bytes: 0,
        align: 1,
        over_input_bytes: 0,
    };
    type Rest = End;
}

impl<T, R: Footprints> Footprints for (PhantomData<T>, R) {
    const HEAD: Footprint = Footprint {
        bytes: size_of::<T>(),
        align: align_of::<T>(),
        over_input_bytes: 0,
    };
    type Rest = R;
}

/// The type of the tensor `tensor` refers to, for a [`Footprints`] list.
#[inline(always)]
pub fn footprint<T>(_tensor: &T) -> PhantomData<T> {
    PhantomData
}

/// The list of the witness's type `W` (its return type, which only a
/// `const fn` generic over it can name).
pub const fn list_of<W: Footprints>(_witness: fn() -> W) -> PhantomData<W> {
    PhantomData
}

/// An arena lent to one call of a program, cut into its tensors' slots.
pub struct Slots<'a> {
    base: *mut u8,
    len: usize,
    _arena: PhantomData<&'a mut [u8]>,
}

impl<'a> Slots<'a> {
    /// The slots of `arena`.
    #[inline(always)]
    pub fn of<const N: usize>(arena: &'a mut Arena<N>) -> Self {
        Slots {
            base: arena.bytes.as_mut_ptr().cast(),
            len: N,
            _arena: PhantomData,
        }
    }

    /// No bytes: the witness's slots (the witness is never called; a slot
    /// of these would fail [`evaluate_in`]'s size check).
    pub fn none() -> Slots<'static> {
        Slots {
            base: core::ptr::NonNull::dangling().as_ptr(),
            len: 0,
            _arena: PhantomData,
        }
    }

    /// The `bytes` bytes at `offset`.
    ///
    /// # Safety
    /// While the tensor evaluated into the slot lives, no other live
    /// reference points into these bytes: the program's plan places tensors
    /// alive at one statement apart, and the attribute ends each tensor's
    /// binding after its last reader (moving it, so a borrow that outlives
    /// that is a compile error).
    #[inline(always)]
    pub unsafe fn slot(&self, offset: usize, bytes: usize) -> Slot<'a> {
        assert!(
            offset <= self.len && bytes <= self.len - offset,
            "a program's slot lies outside its arena"
        );
        Slot {
            // SAFETY: within the arena, checked above.
            start: unsafe { self.base.add(offset) },
            bytes,
            _arena: PhantomData,
        }
    }

    /// The `bytes` bytes at `offset`, lent to the kernels of the statement
    /// whose expression's [`Expr::KernelScratch`] is `S` (inferred there)
    /// for their scratch ([`Scratch`]).
    ///
    /// # Safety
    /// While the statement runs, no other live reference points into these
    /// bytes: the plan gives a statement's scratch bytes of its own while
    /// the statement runs (its lifetime is the statement's).
    #[inline(always)]
    pub unsafe fn lent<S>(&self, offset: usize, bytes: usize) -> Lent<'a, S> {
        Lent {
            // SAFETY: the caller's.
            slot: unsafe { self.slot(offset, bytes) },
            expression: PhantomData,
        }
    }

    /// A stage of a planned statement: the `bytes` bytes at `offset` for
    /// its tensor, and the `scratch_bytes` at `scratch_offset` for its
    /// kernels' scratch.
    ///
    /// # Safety
    /// As [`Slots::slot`]'s and [`Slots::lent`]'s: the plan gives the
    /// stage's tensor and scratch bytes of their own while the statement
    /// runs.
    #[inline(always)]
    pub unsafe fn staged<X, S>(
        &self,
        (offset, bytes): (usize, usize),
        (scratch_offset, scratch_bytes): (usize, usize),
    ) -> Staged<'a, X, S> {
        Staged {
            // SAFETY: the caller's.
            slot: unsafe { self.slot(offset, bytes) },
            // SAFETY: the caller's.
            lent: unsafe { self.lent(scratch_offset, scratch_bytes) },
            tensor: PhantomData,
        }
    }
}

/// A stage of a planned statement (a part of its expression evaluated
/// first, such as `f @ p` in `f @ p @ transpose(f) + q`) in a program's
/// arena: the slot of its tensor `X` and its kernels' scratch, typed by the
/// [`Expr::KernelScratch`] `S` of its expression. Both types are inferred
/// where the stage is evaluated ([`evaluate_stage_in`]), so the witness
/// lists them ([`stage_footprint`], [`stage_scratch_footprint`]).
pub struct Staged<'a, X, S> {
    slot: Slot<'a>,
    lent: Lent<'a, S>,
    tensor: PhantomData<X>,
}

impl<X, S> Staged<'static, X, S> {
    /// No bytes: the witness's (never called).
    pub fn none() -> Self {
        Staged {
            slot: Lent::<S>::none().slot,
            lent: Lent::none(),
            tensor: PhantomData,
        }
    }
}

/// The tensor of the stage `staged` will hold, for the witness's
/// [`Footprints`] list.
#[inline(always)]
pub fn stage_footprint<X, S>(_staged: &Staged<'_, X, S>) -> PhantomData<X> {
    PhantomData
}

/// The kernel scratch of the stage `staged` will hold, for the witness's
/// [`Footprints`] list.
#[inline(always)]
pub fn stage_scratch_footprint<X, S>(_staged: &Staged<'_, X, S>) -> ScratchOf<S> {
    ScratchOf(PhantomData)
}

/// Evaluates a stage of a planned statement into its bytes of the arena
/// (`staged`), which the rest of the statement reads: the program form of
/// [`evaluate_stage`](crate::placement::evaluate_stage), so a statement's
/// stages are in the plan, not on the stack.
#[inline]
pub fn evaluate_stage_in<'a, P: InArena, T: Element, E: Expr<T>>(
    staged: Staged<'a, Tensor<T, E::Shape>, E::KernelScratch>,
    placement: P,
    e: E,
) -> &'a mut Tensor<T, E::Shape> {
    let Staged { slot, mut lent, .. } = staged;
    evaluate_in((slot, &mut lent), placement, &e)
}

/// Runs a `tensor_expr!` statement of a program that the plan does not
/// place (an assignment, a fallible product): never inlined, so the frames
/// of its kernels (and its stages) are the stack's only while it runs,
/// not part of the program function's frame for all of it. One call per
/// statement.
#[inline(never)]
pub fn statement<R>(run: impl FnOnce() -> R) -> R {
    run()
}

/// A statement's kernel scratch in a program's arena ([`Slots::lent`]),
/// typed by the [`Expr::KernelScratch`] `S` of the expression it is lent
/// to (a type without the expression's borrows, which the witness lists:
/// [`scratch_footprint`]).
pub struct Lent<'a, S> {
    slot: Slot<'a>,
    expression: PhantomData<S>,
}

impl<S> Lent<'static, S> {
    /// No bytes: the witness's (never called).
    pub fn none() -> Self {
        Lent {
            slot: Slot {
                start: core::ptr::NonNull::dangling().as_ptr(),
                bytes: 0,
                _arena: PhantomData,
            },
            expression: PhantomData,
        }
    }
}

/// A statement's kernel scratch as a [`Footprints`] entry: `S` is the
/// expression's [`Expr::KernelScratch`], a type without its borrows.
pub struct ScratchOf<S>(PhantomData<S>);

impl<S: KernelScratch, R: Footprints> Footprints for (ScratchOf<S>, R) {
    const HEAD: Footprint = Footprint {
        bytes: S::BYTES,
        align: SCRATCH_ALIGN,
        over_input_bytes: S::OVER_INPUT_BYTES,
    };
    type Rest = R;
}

/// The scratch footprint of the statement `lent` is lent to, for the
/// witness's [`Footprints`] list.
#[inline(always)]
pub fn scratch_footprint<S>(_lent: &Lent<'_, S>) -> ScratchOf<S> {
    ScratchOf(PhantomData)
}

/// The bytes of one tensor of a program.
pub struct Slot<'a> {
    start: *mut u8,
    bytes: usize,
    _arena: PhantomData<&'a mut [u8]>,
}

/// Ends a planned tensor's binding after its last reader. It reborrows the
/// binding mutably, so a borrow of the tensor that is still alive (which
/// would see a later tensor's bytes) is a compile error here.
#[inline(always)]
pub fn end<T: ?Sized>(_tensor: &mut T) {}

/// The placements a program's tensor may have: its shape is static. (A
/// tensor whose first dim is `Dyn` has no size before run time.)
#[diagnostic::on_unimplemented(
    message = "a program's tensors need static shapes: this one has run-time rows",
    label = "its first dim is `Dyn`",
    note = "compute it outside the program, or into a `HeapTensor` target: `tensor_expr!(out = ..)`"
)]
pub trait InArena {}
impl InArena for Stack {}
#[cfg(feature = "alloc")]
impl InArena for Heap {}

/// Evaluates `e` into `slot`, its kernels' scratch in `lent`: the program
/// form of [`evaluate`](crate::placement::evaluate), each element written
/// once. Out of line where the runtime is optimised for size
/// (`cfg(size_profile)`): there LLVM does not overlap the frames of the
/// statements' nests inlined into one program function. The tree by
/// reference: a tree moved in by value may be a local whose storage rustc's
/// MIR copy propagation no longer ends, which then keeps its bytes in the
/// program function's frame for the whole call.
#[cfg_attr(not(size_profile), inline)]
#[cfg_attr(size_profile, inline(never))]
pub fn evaluate_in<'a, P: InArena, T: Element, E: Expr<T>>(
    (slot, lent): (Slot<'a>, &mut Lent<'_, E::KernelScratch>),
    _placement: P,
    e: &E,
) -> &'a mut Tensor<T, E::Shape> {
    assert!(
        size_of::<Tensor<T, E::Shape>>() <= slot.bytes
            && slot.start.cast::<Tensor<T, E::Shape>>().is_aligned(),
        "a program's slot does not fit its tensor"
    );
    let start = slot.start.cast::<MaybeUninit<T>>();
    // SAFETY: the slot holds `size_of::<Tensor<T, S>>()` bytes, aligned for
    // it (checked above), which no other live reference points into
    // (`Slots::slot`); a `Tensor` is `LEN` consecutive `T`s
    // (`Tensor::from_uninit` says why).
    let slots = unsafe { core::slice::from_raw_parts_mut(start, <E::Shape as crate::Shape>::LEN) };
    crate::kernel::drive_into_uninit_in::<T, E>(slots, e, &mut lent.scratch());
    // SAFETY: every slot was written (`drive_into_uninit_in`); `Tensor` is
    // `repr(transparent)` over its nested array of those elements.
    unsafe { &mut *slot.start.cast::<Tensor<T, E::Shape>>() }
}

/// Whether a planned statement's result takes the bytes of the tensor it
/// reads last ([`takes_bytes`] of its plan), as a type.
#[derive(Clone, Copy, Debug)]
pub struct InPlace<const TAKEN: bool>;

/// Evaluates a planned statement whose result may take the bytes of
/// `source`, a planned tensor its expression reads only element by element
/// (at the top, in no operation but elementwise ones) and no later
/// statement reads. Where the plan gave the result those bytes (`TAKEN`,
/// [`plan_taking`]: where the result has `source`'s size; its element type
/// is `source`'s, so the same elements in the same order, its shape
/// `source`'s or that with leading ones), `in_place` (the same expression
/// reading `source` through the output's own elements, as `out = e` reads
/// its target) is written into `source`'s bytes, each element read before
/// it is written; else `otherwise` evaluates the expression reading
/// `source` as an operand into the result's own slot ([`evaluate_in`]).
#[cfg_attr(not(size_profile), inline)]
#[cfg_attr(size_profile, inline(never))]
pub fn evaluate_in_place<'a, 'l, const TAKEN: bool, T, S, B, L>(
    _taken: InPlace<TAKEN>,
    source: &'a mut Tensor<T, S>,
    lent: &mut Lent<'l, L>,
    in_place: &B,
    otherwise: impl FnOnce(&Tensor<T, S>, &mut Lent<'l, L>) -> &'a mut Tensor<T, B::Shape>,
) -> &'a mut Tensor<T, B::Shape>
where
    T: Element,
    S: crate::Shape,
    B: Expr<T>,
{
    const {
        assert!(
            !TAKEN || size_of::<Tensor<T, B::Shape>>() == size_of::<Tensor<T, S>>(),
            "a program's plan put a result in the bytes of a tensor of another size"
        );
    }
    if const { TAKEN } {
        crate::kernel::drive_in::<T, B::Shape, B, T>(
            source.as_mut_slice(),
            in_place,
            &mut lent.scratch(),
        );
        // SAFETY: `Tensor` is `repr(transparent)` over its nested arrays of
        // `T`; the two shapes have as many elements (equal sizes, asserted
        // above; one element type), so the two types are the same bytes.
        unsafe { &mut *(source as *mut Tensor<T, S>).cast::<Tensor<T, B::Shape>>() }
    } else {
        otherwise(source, lent)
    }
}

/// The kernel scratch of a statement that may write an int8 layer over
/// its input ([`evaluate_layer_over_input`]): `Apart`'s, the expression's
/// written apart, and where `Over` (the layer's over its input) writes so,
/// [`KernelScratch::OVER_INPUT_BYTES`] for both (the kernels may decline
/// at run time, [`evaluate_layer_over_input`]).
pub struct OverInputScratch<Over, Apart>(PhantomData<(Over, Apart)>);

impl<Over: KernelScratch, Apart: KernelScratch> KernelScratch for OverInputScratch<Over, Apart> {
    const BYTES: usize = Apart::BYTES;
    const OVER_INPUT_BYTES: usize = if !Over::WRITES_OVER_INPUT {
        0
    } else if Over::BYTES > Apart::BYTES {
        Over::BYTES
    } else {
        Apart::BYTES
    };
}

/// A program's lifetimes and [`plan_taking`]'s `takes` with its layers
/// written over their inputs where that makes the arena no larger:
/// [`choose_over_input`].
#[derive(Clone, Copy, Debug)]
pub struct OverInputChoice<const K: usize> {
    /// The entries' lifetimes, a statement's scratch as its layer is
    /// written.
    pub lifetimes: [Lifetime; K],
    /// The tensor whose bytes each takes ([`TAKES_NONE`] for none).
    pub takes: [usize; K],
}

/// A program's lifetimes, from its entries' `footprints` (the witness's
/// list) and the statements each is alive over (`spans`, first and last),
/// and which layers it writes over their inputs. `takes` names every pair
/// that may be in place (elementwise results, and layers over their
/// inputs: those with a `scratch_entry`, the index of their statement's
/// scratch entry, whose footprint's [`Footprint::over_input_bytes`] is
/// not 0). A layer over its input keeps one tensor where there were two
/// but may take more scratch (a band of the input copied, and a halo of
/// rows), so each is kept only where dropping it would make the arena
/// larger: all are taken first, then each in turn is written apart where
/// the arena is then no larger (apart, the layer kernels read a 1x1
/// layer's input in place, with no copy). The one decision
/// [`evaluate_layer_over_input`] follows, through [`takes_bytes`].
///
/// ```
/// use tensor_expr_runtime::program::{choose_over_input, Footprint, TAKES_NONE};
/// let f = |bytes, over_input_bytes| Footprint { bytes, align: 64, over_input_bytes };
/// // a (1,000 B), then b = layer(a) (1,000 B, its scratch 64 B apart or
/// // 256 B over `a`), then c reads b.
/// let footprints = [f(1000, 0), f(1000, 0), f(64, 256), f(64, 0)];
/// let spans = [(0, 1), (1, 2), (1, 1), (2, 2)];
/// let takes = [TAKES_NONE, 0, TAKES_NONE, TAKES_NONE];
/// let entry = [TAKES_NONE, 2, TAKES_NONE, TAKES_NONE];
/// let choice = choose_over_input(&footprints, &spans, &takes, &entry);
/// // Over its input: 1,024 B and 256 B of scratch, not 2,048 B and 64.
/// assert_eq!((choice.takes[1], choice.lifetimes[2].bytes), (0, 256));
/// ```
pub const fn choose_over_input<const K: usize>(
    footprints: &[Footprint; K],
    spans: &[(usize, usize); K],
    takes: &[usize; K],
    scratch_entry: &[usize; K],
) -> OverInputChoice<K> {
    let mut lifetimes = [Lifetime::NONE; K];
    let mut k = 0;
    while k < K {
        lifetimes[k] = Lifetime {
            bytes: footprints[k].bytes,
            align: footprints[k].align,
            first: spans[k].0,
            last: spans[k].1,
        };
        k += 1;
    }
    let mut choice = OverInputChoice {
        lifetimes,
        takes: *takes,
    };
    let mut k = 0;
    while k < K {
        let entry = scratch_entry[k];
        if entry != TAKES_NONE {
            let over_input_bytes = footprints[entry].over_input_bytes;
            if takes[k] != TAKES_NONE && over_input_bytes > 0 {
                choice.lifetimes[entry].bytes = over_input_bytes;
            } else {
                choice.takes[k] = TAKES_NONE;
            }
        }
        k += 1;
    }
    let mut best = plan_taking(&choice.lifetimes, &choice.takes).bytes;
    let mut k = 0;
    while k < K {
        let entry = scratch_entry[k];
        if entry != TAKES_NONE && choice.takes[k] != TAKES_NONE {
            let mut apart = choice;
            apart.takes[k] = TAKES_NONE;
            apart.lifetimes[entry].bytes = lifetimes[entry].bytes;
            let bytes = plan_taking(&apart.lifetimes, &apart.takes).bytes;
            if bytes <= best {
                (choice, best) = (apart, bytes);
            }
        }
        k += 1;
    }
    choice
}

impl<'l, Over, Apart> Lent<'l, OverInputScratch<Over, Apart>> {
    /// The same bytes lent to the expression written apart.
    fn apart(&mut self) -> Lent<'_, Apart> {
        Lent {
            slot: Slot {
                start: self.slot.start,
                bytes: self.slot.bytes,
                _arena: PhantomData,
            },
            expression: PhantomData,
        }
    }
}

#[cfg(feature = "alloc")]
impl<'a> Slot<'a> {
    /// The bytes of `tensor`, as a slot to write a tensor of its size
    /// into.
    fn over<T, S: crate::Shape>(tensor: &'a mut Tensor<T, S>) -> Self {
        Slot {
            start: (tensor as *mut Tensor<T, S>).cast::<u8>(),
            bytes: size_of::<Tensor<T, S>>(),
            _arena: PhantomData,
        }
    }
}

/// Evaluates a planned statement whose value is an int8 layer whose
/// convolution reads `source`, a planned tensor no later statement reads
/// (`cast::<i32>(source) - zx`). Where the plan gave the result `source`'s
/// bytes (`TAKEN`: where the layer's geometry lets the int8 kernels write
/// it over its input, [`KernelScratch::WRITES_OVER_INPUT`], so the two
/// have one size), `over_input` (the same expression reading `source` as
/// the destination it is written over) is stored over `source` by the
/// int8 kernels, with the scratch for a band of its input and a halo. Else
/// `apart` evaluates the expression reading `source` as an operand into
/// `slot`, the result's own place. Where the kernels decline at run time
/// (an epilogue they do not take), `apart` reads a heap copy of `source`
/// and writes into its bytes.
#[inline(never)]
#[allow(clippy::type_complexity)]
pub fn evaluate_layer_over_input<'a, 'l, const TAKEN: bool, S, B, Apart>(
    _taken: InPlace<TAKEN>,
    source: &'a mut Tensor<i8, S>,
    slot: Slot<'a>,
    lent: &mut Lent<'l, OverInputScratch<B::KernelScratch, Apart>>,
    over_input: &B,
    apart: impl FnOnce(&Tensor<i8, S>, Slot<'a>, &mut Lent<'_, Apart>) -> &'a mut Tensor<i8, B::Shape>,
) -> &'a mut Tensor<i8, B::Shape>
where
    S: crate::Shape,
    B: Expr<i8>,
{
    const {
        assert!(
            !TAKEN || size_of::<Tensor<i8, B::Shape>>() == size_of::<Tensor<i8, S>>(),
            "a program's plan put a result in the bytes of a tensor of another size"
        );
    }
    if const { !TAKEN } {
        return apart(source, slot, &mut lent.apart());
    }
    let stored = over_input
        .int8_layer::<B::Shape>()
        .is_some_and(|layer| layer.store_over_input(source.as_mut_slice(), &mut lent.scratch()));
    if stored {
        // SAFETY: `Tensor` is `repr(transparent)` over its nested arrays of
        // `i8`; the two shapes have as many elements (equal sizes, asserted
        // above), so the two types are the same bytes.
        return unsafe { &mut *(source as *mut Tensor<i8, S>).cast::<Tensor<i8, B::Shape>>() };
    }
    over_input_on_the_heap(source, lent, apart)
}

/// [`evaluate_layer_over_input`] where the kernels declined: `apart` over
/// a heap copy of `source`, into `source`'s bytes. Without an allocator
/// no layer is written over its input ([`KernelScratch::WRITES_OVER_INPUT`]
/// is false), so the plan never takes this path.
#[inline(never)]
fn over_input_on_the_heap<'a, 'l, S, O, Over, Apart>(
    source: &'a mut Tensor<i8, S>,
    lent: &mut Lent<'l, OverInputScratch<Over, Apart>>,
    apart: impl FnOnce(&Tensor<i8, S>, Slot<'a>, &mut Lent<'_, Apart>) -> &'a mut Tensor<i8, O>,
) -> &'a mut Tensor<i8, O>
where
    S: crate::Shape,
    O: crate::Shape,
{
    #[cfg(feature = "alloc")]
    {
        let bytes = source.as_slice().to_vec();
        // SAFETY: `Tensor<i8, S>` is `repr(transparent)` over nested arrays
        // of `S::LEN` bytes (alignment 1), which `bytes` holds for the call.
        let copy = unsafe { &*bytes.as_ptr().cast::<Tensor<i8, S>>() };
        apart(copy, Slot::over(source), &mut lent.apart())
    }
    #[cfg(not(feature = "alloc"))]
    {
        let _ = (source, lent, apart);
        unreachable!("a layer is written over its input only with an allocator")
    }
}

/// Evaluates `e`, a program's result, into a new tensor on `placement`
/// (returned, not in the arena), its kernels' scratch in `lent`.
#[cfg_attr(not(size_profile), inline)]
#[cfg_attr(size_profile, inline(never))]
pub fn evaluate_result<P: Evaluate, T: Element, E: Expr<T>>(
    lent: &mut Lent<'_, E::KernelScratch>,
    placement: P,
    e: E,
) -> P::Tensor<T, E::Shape> {
    placement.evaluate_with(e, &mut lent.scratch())
}

impl<S> Lent<'_, S> {
    /// The lent bytes as scratch.
    #[inline(always)]
    fn scratch(&mut self) -> Scratch<'_> {
        // SAFETY: the lent bytes lie in the arena (`Slots::slot` checked
        // them), apart from every live tensor's while the statement runs
        // (`Slots::lent`); the scratch borrows `self` mutably.
        Scratch::new(unsafe {
            core::slice::from_raw_parts_mut(
                self.slot.start.cast::<MaybeUninit<u8>>(),
                self.slot.bytes,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lifetime(bytes: usize, first: usize, last: usize) -> Lifetime {
        Lifetime {
            bytes,
            align: 4,
            first,
            last,
        }
    }

    #[test]
    fn tensors_alive_together_never_share_a_byte() {
        let tensors = [
            lifetime(64, 0, 2),
            lifetime(32, 1, 3),
            lifetime(64, 2, 4),
            lifetime(16, 3, 3),
        ];
        let p = plan(&tensors);
        for a in 0..4 {
            for b in 0..a {
                if tensors[a].overlaps_in_time(&tensors[b]) {
                    let (x, y) = (p.offsets[a], p.offsets[b]);
                    assert!(
                        x + tensors[a].bytes <= y || y + tensors[b].bytes <= x,
                        "{a} and {b} share bytes: {p:?}"
                    );
                }
            }
        }
        assert_eq!(p.bytes, peak(&tensors));
    }

    #[test]
    fn a_result_takes_the_bytes_of_an_input_it_reads_last_only_of_its_size() {
        let none = TAKES_NONE;
        // a; b from a in its bytes; c from b in them too (a chain, alive
        // until c's last reader); d beside them.
        let tensors = [
            lifetime(64, 0, 1),
            lifetime(64, 1, 2),
            lifetime(64, 2, 4),
            lifetime(32, 3, 4),
        ];
        let p = plan_taking(&tensors, &[none, 0, 1, none]);
        assert_eq!(p.offsets[..3], [0, 0, 0]);
        assert_eq!((p.offsets[3], p.bytes), (64, 96));
        let m = merged(&tensors, &[none, 0, 1, none]);
        assert_eq!((m[0].last, m[1].bytes, m[2].bytes), (4, 0, 0));
        // Not taken: a source of another size, or read after the taker's
        // statement: the plan is `plan`'s.
        let other_size = [lifetime(64, 0, 1), lifetime(32, 1, 1)];
        assert_eq!(plan_taking(&other_size, &[none, 0]), plan(&other_size));
        let read_later = [lifetime(64, 0, 2), lifetime(64, 1, 2)];
        assert_eq!(plan_taking(&read_later, &[none, 0]), plan(&read_later));
    }

    #[test]
    fn a_layer_is_written_over_its_input_only_where_the_arena_is_then_smaller() {
        let none = TAKES_NONE;
        // a (1,000 B); b = layer(a) (1,000 B; its scratch: entry 3);
        // c = layer(b) (entry 4); c read at statement 3. Its scratch over
        // its input (`over`, entries 3 and 4) or none apart.
        let spans = [(0, 1), (1, 2), (2, 3), (1, 1), (2, 2)];
        let choose_over_input = |takes: &[usize; 5], entries: &[usize; 5], over: &[usize; 5]| {
            let footprints = [0, 1, 2, 3, 4].map(|k| Footprint {
                bytes: if k < 3 { 1000 } else { 0 },
                align: 4,
                over_input_bytes: over[k],
            });
            super::choose_over_input(&footprints, &spans, takes, entries)
        };
        let takes = [none, 0, 1, none, none];
        let entries = [none, 3, 4, none, none];
        // Over its input each layer takes 300 B of scratch: both are taken,
        // one tensor and its scratch at each statement.
        let choice = choose_over_input(&takes, &entries, &[0, 0, 0, 300, 300]);
        assert_eq!(choice.takes, takes);
        assert_eq!(plan_taking(&choice.lifetimes, &choice.takes).bytes, 1300);
        // 1,500 B over its input for c's layer (2,500 B at its statement):
        // b's written apart leaves that peak (2,500 B), so it is, then c's
        // apart makes 2,000 B.
        let choice = choose_over_input(&takes, &entries, &[0, 0, 0, 300, 1500]);
        assert_eq!((choice.takes[1], choice.takes[2]), (none, none));
        assert_eq!(choice.lifetimes[4].bytes, 0);
        assert_eq!(plan_taking(&choice.lifetimes, &choice.takes).bytes, 2000);
        // 1,500 B for b's: b's apart is smaller (2,000 B at its statement,
        // 1,300 at c's); then c's apart is no larger (2,000 B), and apart
        // is the choice of a tie (a 1x1 layer then reads its input in
        // place, with no copy).
        let choice = choose_over_input(&takes, &entries, &[0, 0, 0, 1500, 300]);
        assert_eq!((choice.takes[1], choice.takes[2]), (none, none));
        // No footprint over the input (the types do not allow it): apart.
        let choice = choose_over_input(&takes, &entries, &[0; 5]);
        assert_eq!((choice.takes[1], choice.takes[2]), (none, none));
        // An elementwise pair (no scratch entry) stays.
        let choice = choose_over_input(&takes, &[none; 5], &[0; 5]);
        assert_eq!(choice.takes, takes);
    }

    #[test]
    fn offsets_are_aligned() {
        // The larger first, at 0; the other bumped past its end (12) to
        // the next multiple of its alignment.
        let tensors = [
            lifetime(12, 0, 1),
            Lifetime {
                bytes: 8,
                align: 8,
                first: 1,
                last: 1,
            },
        ];
        let p = plan(&tensors);
        assert_eq!((p.offsets, p.bytes), ([0, 16], 24));
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        let mut message = Message::new();
        message.number(18432);
        message.push(" / ");
        message.number(7);
        message.push(" / ");
        message.number(1_000_000);
        assert_eq!(message.text(), b"18,432 / 7 / 1,000,000");
    }

    #[test]
    fn names_keep_their_characters_and_a_long_message_is_cut_between_them() {
        let mut message = Message::new();
        message.push("`zähler`");
        assert_eq!(message.text(), "`zähler`".as_bytes());
        for _ in 0..600 {
            message.push("é");
        }
        let text = core::str::from_utf8(message.text()).unwrap();
        assert!(text.ends_with('é') && text.len() <= 1024);
    }
}
