//! Kernel scratch lent by the caller: the bytes a kernel needs for the
//! length of one call (the int8 layer kernels' packed weights, padded
//! input and epilogue vectors), taken from a buffer the caller owns (a
//! program's arena, where its plan places each statement's scratch) so
//! that the call takes no heap. A buffer too short for a request, or none
//! lent, gives a heap allocation instead, and says so
//! ([`Scratch::used_heap`]): the sizes the plan reserves are the kernels'
//! own ([`scratch_len`] per buffer), and a test holds them to it.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::mem::MaybeUninit;
#[cfg(feature = "alloc")]
use core::mem::{align_of, size_of};

/// The alignment of each buffer taken from a [`Scratch`]: a cache line,
/// the widest vector a kernel keeps there (AVX-512).
pub const SCRATCH_ALIGN: usize = 64;

/// The bytes one buffer of `bytes` bytes takes from a [`Scratch`] whose
/// start is aligned to [`SCRATCH_ALIGN`]: rounded up to it, so that the
/// next starts aligned too.
///
/// ```
/// use tensor_expr_runtime::scratch::scratch_len;
/// assert_eq!(scratch_len(0), 0);
/// assert_eq!(scratch_len(1), 64);
/// assert_eq!(scratch_len(130), 192);
/// ```
pub const fn scratch_len(bytes: usize) -> usize {
    bytes.div_ceil(SCRATCH_ALIGN) * SCRATCH_ALIGN
}

/// The scratch bytes an expression's kernels take, as a type without the
/// tree's borrows ([`Expr::KernelScratch`](crate::expr::Expr)): what a
/// program's plan reserves for the statement ([`crate::program`]).
pub trait KernelScratch {
    /// The bytes, counted as [`Scratch`] takes them from an aligned start.
    const BYTES: usize;
    /// Whether the expression stores its result over its input: an int8
    /// layer built over its destination (a planned program's statement,
    /// [`crate::program::evaluate_layer_over_input`]) whose geometry
    /// allows it.
    const WRITES_OVER_INPUT: bool = false;
    /// The bytes where a statement's layer is written over its input, 0
    /// where it cannot be ([`crate::program::OverInputScratch`]).
    const OVER_INPUT_BYTES: usize = 0;
}

/// No kernel scratch.
#[derive(Clone, Copy, Debug)]
pub struct NoScratch;

impl KernelScratch for NoScratch {
    const BYTES: usize = 0;
}

/// Bytes lent to a kernel for one call, cut into buffers front to back.
#[derive(Debug)]
pub struct Scratch<'s> {
    rest: &'s mut [MaybeUninit<u8>],
    used_heap: bool,
}

impl<'s> Scratch<'s> {
    /// Scratch over `bytes` (best aligned to [`SCRATCH_ALIGN`]: each buffer
    /// starts aligned, and a plan's sizes count from an aligned start).
    pub fn new(bytes: &'s mut [MaybeUninit<u8>]) -> Self {
        Scratch {
            rest: bytes,
            used_heap: false,
        }
    }

    /// No bytes lent: every buffer is a heap allocation.
    pub fn none() -> Scratch<'static> {
        Scratch {
            rest: &mut [],
            used_heap: false,
        }
    }

    /// The lent bytes no buffer has taken.
    pub fn unused(&self) -> usize {
        self.rest.len()
    }

    /// Whether a buffer did not fit the bytes lent and was allocated on
    /// the heap instead.
    pub fn used_heap(&self) -> bool {
        self.used_heap
    }

    /// `len` values of `T` from the lent bytes, at the next aligned start,
    /// if they fit (`T`'s alignment at most [`SCRATCH_ALIGN`]).
    #[cfg(feature = "alloc")]
    fn take<T>(&mut self, len: usize) -> Option<&'s mut [MaybeUninit<T>]> {
        let bytes = len.checked_mul(size_of::<T>())?;
        let skip = self.rest.as_ptr().align_offset(SCRATCH_ALIGN);
        let end = skip.checked_add(scratch_len(bytes))?;
        if align_of::<T>() > SCRATCH_ALIGN || end > self.rest.len() {
            return None;
        }
        let rest = core::mem::take(&mut self.rest);
        let (taken, rest) = rest.split_at_mut(end);
        self.rest = rest;
        let taken = &mut taken[skip..][..bytes];
        // SAFETY: `taken` is `len * size_of::<T>()` bytes at an address
        // aligned to `SCRATCH_ALIGN`, a multiple of `T`'s alignment;
        // `MaybeUninit<T>` has no validity requirement; the borrow moves
        // from `self.rest` to the result.
        Some(unsafe { core::slice::from_raw_parts_mut(taken.as_mut_ptr().cast(), len) })
    }

    /// A buffer of `len` values, value `i` made by `make(i)`: from the lent
    /// bytes where they hold it, else on the heap. Each value is written
    /// where it stays, by one loop for either place (a value made aside and
    /// moved, or made in two copies of the loop, would take a frame's worth
    /// of stack more where it is large).
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(crate) fn made_by<T: Copy>(
        &mut self,
        len: usize,
        mut make: impl FnMut(usize) -> T,
    ) -> Buf<'s, T> {
        let mut buffer = self.uninit(len);
        for (i, slot) in buffer.slots().iter_mut().enumerate() {
            slot.write(make(i));
        }
        // SAFETY: each value was written above.
        unsafe { buffer.assume_init() }
    }

    /// A buffer of `len` copies of `value` ([`Self::made_by`]).
    #[cfg(feature = "alloc")]
    #[inline(always)]
    pub(crate) fn filled<T: Copy>(&mut self, len: usize, value: T) -> Buf<'s, T> {
        self.made_by(len, |_| value)
    }

    /// A buffer of `len` values not yet written: from the lent bytes where
    /// they hold it, else the spare capacity of a heap vector
    /// ([`UninitBuf`]).
    #[cfg(feature = "alloc")]
    pub(crate) fn uninit<T: Copy>(&mut self, len: usize) -> UninitBuf<'s, T> {
        if let Some(slots) = self.take::<T>(len) {
            return UninitBuf::Lent(slots);
        }
        self.used_heap = true;
        UninitBuf::Heap(Vec::with_capacity(len), len)
    }
}

/// A buffer taken from a [`Scratch`]: lent bytes, or a heap vector where
/// they did not hold it. Read and written as a slice.
#[cfg(feature = "alloc")]
#[derive(Debug)]
pub(crate) enum Buf<'s, T> {
    /// On the heap.
    Heap(Vec<T>),
    /// In the lent bytes.
    Lent(&'s mut [T]),
}

#[cfg(feature = "alloc")]
impl<T> core::ops::Deref for Buf<'_, T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        match self {
            Buf::Heap(values) => values,
            Buf::Lent(values) => values,
        }
    }
}

#[cfg(feature = "alloc")]
impl<T> core::ops::DerefMut for Buf<'_, T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Buf::Heap(values) => values,
            Buf::Lent(values) => values,
        }
    }
}

/// A buffer of values not yet written ([`Scratch::uninit`]): a writer
/// fills [`Self::slots`], then [`Self::assume_init`] makes it a [`Buf`].
#[cfg(feature = "alloc")]
pub(crate) enum UninitBuf<'s, T> {
    /// A heap vector of the capacity, and the length to give it.
    Heap(Vec<T>, usize),
    /// In the lent bytes.
    Lent(&'s mut [MaybeUninit<T>]),
}

#[cfg(feature = "alloc")]
impl<'s, T> UninitBuf<'s, T> {
    /// The values to write.
    pub(crate) fn slots(&mut self) -> &mut [MaybeUninit<T>] {
        match self {
            UninitBuf::Heap(values, len) => &mut values.spare_capacity_mut()[..*len],
            UninitBuf::Lent(slots) => slots,
        }
    }

    /// The buffer, its values written.
    ///
    /// # Safety
    /// Each value of [`Self::slots`] has been written.
    pub(crate) unsafe fn assume_init(self) -> Buf<'s, T> {
        match self {
            UninitBuf::Heap(mut values, len) => {
                // SAFETY: the caller's: the first `len` values are written.
                unsafe { values.set_len(len) };
                Buf::Heap(values)
            }
            // SAFETY: the caller's: each value is written.
            UninitBuf::Lent(slots) => {
                Buf::Lent(unsafe { &mut *(slots as *mut [MaybeUninit<T>] as *mut [T]) })
            }
        }
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;

    /// Buffers come from the lent bytes, each aligned and `scratch_len`
    /// apart, until one does not fit: that one is on the heap, and says so.
    #[test]
    fn buffers_are_lent_until_one_does_not_fit() {
        #[repr(align(64))]
        struct Bytes([MaybeUninit<u8>; 256]);
        let mut bytes = Bytes([MaybeUninit::uninit(); 256]);
        let start = bytes.0.as_ptr() as usize;
        let mut scratch = Scratch::new(&mut bytes.0);
        let a = scratch.filled(3, 7u16);
        let b = scratch.made_by(20, |i| i as i32);
        assert!(matches!((&a, &b), (Buf::Lent(_), Buf::Lent(_))));
        assert_eq!(
            (a.as_ptr() as usize - start, b.as_ptr() as usize - start),
            (0, 64)
        );
        assert_eq!((&a[..], b[19]), (&[7, 7, 7][..], 19));
        assert!(!scratch.used_heap());
        let c = scratch.filled(100, 0u8);
        assert!(matches!(c, Buf::Heap(_)) && scratch.used_heap());
        assert_eq!(c.len(), 100);
    }
}
