//! `AlignedBox`: a boxed slice whose first element sits on a 64-byte boundary,
//! the storage of a `HeapTensor`.
//!
//! This is the crate's one owned allocation with a layout of its own, so it is
//! the one place that allocates and frees by hand; everything else sees a
//! slice.

use alloc::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use alloc::vec::Vec;
use core::marker::PhantomData;
use core::mem::{ManuallyDrop, MaybeUninit};
use core::ops::{Deref, DerefMut};
use core::ptr::{self, NonNull};

use super::ALIGN;

/// `len` initialised elements of `T` starting at a 64-byte aligned address
/// (or, when they take no bytes, at a dangling well-aligned one).
pub(crate) struct AlignedBox<T> {
    ptr: NonNull<T>,
    len: usize,
    /// Owns `T`s (for drop check).
    owns: PhantomData<T>,
}

// SAFETY: an `AlignedBox<T>` owns its elements as a `Box<[T]>` does, so it may
// cross threads, and be shared between them, exactly when `T` may.
unsafe impl<T: Send> Send for AlignedBox<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for AlignedBox<T> {}

/// The layout of `len` elements at [`ALIGN`]; `None` if it takes no bytes (no
/// allocation). Panics, as `Vec` does, if the size overflows `isize`.
fn layout_of<T>(len: usize) -> Option<Layout> {
    let layout = Layout::array::<T>(len)
        .and_then(|layout| layout.align_to(ALIGN))
        .expect("tensor size overflows isize::MAX bytes");
    (layout.size() != 0).then_some(layout)
}

/// Room for `len` elements, not yet initialised.
fn allocate<T>(len: usize) -> NonNull<T> {
    match layout_of::<T>(len) {
        None => NonNull::dangling(),
        Some(layout) => {
            // SAFETY: the layout's size is not zero.
            let raw = unsafe { alloc(layout) }.cast::<T>();
            NonNull::new(raw).unwrap_or_else(|| handle_alloc_error(layout))
        }
    }
}

/// Frees what [`allocate`] returned for `len` elements, without dropping any.
///
/// # Safety
/// `ptr` came from `allocate::<T>(len)` and is not freed yet.
unsafe fn free<T>(ptr: NonNull<T>, len: usize) {
    if let Some(layout) = layout_of::<T>(len) {
        // SAFETY: allocated with this layout (the caller's promise).
        unsafe { dealloc(ptr.as_ptr().cast(), layout) }
    }
}

/// Owns an allocation while it is being filled: on a panic in the middle, it
/// drops the `written` elements so far and frees the memory.
struct Filling<T> {
    ptr: NonNull<T>,
    len: usize,
    written: usize,
}

impl<T> Drop for Filling<T> {
    fn drop(&mut self) {
        // SAFETY: the first `written` slots hold values; the block came from
        // `allocate(len)`.
        unsafe {
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.written,
            ));
            free(self.ptr, self.len);
        }
    }
}

impl<T> AlignedBox<T> {
    /// `len` elements, element `i` being `f(i)`, in order.
    pub(crate) fn from_fn(len: usize, mut f: impl FnMut(usize) -> T) -> Self {
        let mut filling = Filling {
            ptr: allocate::<T>(len),
            len,
            written: 0,
        };
        while filling.written < len {
            let value = f(filling.written);
            // SAFETY: `written < len` slots of the allocation.
            unsafe { filling.ptr.as_ptr().add(filling.written).write(value) };
            filling.written += 1;
        }
        let filled = ManuallyDrop::new(filling);
        AlignedBox {
            ptr: filled.ptr,
            len,
            owns: PhantomData,
        }
    }

    /// `len` elements written by `fill` into uninitialised slots.
    ///
    /// # Safety
    /// `fill` writes every one of the `len` slots (if it panics, the slots are
    /// freed and none is dropped).
    pub(crate) unsafe fn from_uninit(len: usize, fill: impl FnOnce(&mut [MaybeUninit<T>])) -> Self {
        let ptr = allocate::<T>(len);
        // Frees the block, and drops nothing, if `fill` panics.
        let filling = Filling {
            ptr,
            len,
            written: 0,
        };
        // SAFETY: `len` slots of `T`, allocated above; `MaybeUninit<T>` has
        // `T`'s layout.
        fill(unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr().cast(), len) });
        core::mem::forget(filling);
        AlignedBox {
            ptr,
            len,
            owns: PhantomData,
        }
    }

    /// Moves a vector's elements into aligned storage (one copy of their
    /// bytes) and frees the vector's block.
    pub(crate) fn from_vec(mut data: Vec<T>) -> Self {
        let len = data.len();
        // SAFETY: `copy_nonoverlapping` moves every element into the new block
        // (a fresh allocation, so no overlap), which owns them from then on;
        // `set_len(0)` keeps the vector from dropping them too.
        unsafe {
            Self::from_uninit(len, |slots| {
                ptr::copy_nonoverlapping(data.as_ptr(), slots.as_mut_ptr().cast::<T>(), len);
                data.set_len(0);
            })
        }
    }

    /// Moves the elements into a vector (one copy of their bytes).
    pub(crate) fn into_vec(self) -> Vec<T> {
        let this = ManuallyDrop::new(self);
        let mut out = Vec::with_capacity(this.len);
        // SAFETY: the elements move into the vector's fresh block, which owns
        // them from `set_len` on; this box is then freed without dropping
        // them.
        unsafe {
            ptr::copy_nonoverlapping(this.ptr.as_ptr(), out.as_mut_ptr(), this.len);
            out.set_len(this.len);
            free(this.ptr, this.len);
        }
        out
    }
}

impl<T> Drop for AlignedBox<T> {
    fn drop(&mut self) {
        // SAFETY: `len` initialised elements in a block from `allocate(len)`;
        // neither is used again.
        unsafe {
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(self.ptr.as_ptr(), self.len));
            free(self.ptr, self.len);
        }
    }
}

impl<T> Deref for AlignedBox<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialised elements, owned by `self`.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for AlignedBox<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, borrowed mutably through `self`.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Clone> Clone for AlignedBox<T> {
    fn clone(&self) -> Self {
        Self::from_fn(self.len, |i| self[i].clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::rc::Rc;
    use alloc::string::{String, ToString};
    use alloc::vec;

    fn is_aligned<T>(b: &AlignedBox<T>) -> bool {
        (b.as_ptr() as usize).is_multiple_of(ALIGN)
    }

    #[test]
    fn every_constructor_starts_on_a_cache_line() {
        for len in [1, 3, 16, 1000] {
            assert!(is_aligned(&AlignedBox::from_fn(len, |i| i as u8)));
            assert!(is_aligned(&AlignedBox::from_fn(len, |i| i as f64)));
            let moved = AlignedBox::from_vec(vec![1.5f32; len]);
            assert!(is_aligned(&moved));
            assert!(is_aligned(&moved.clone()));
            // SAFETY: the closure writes every slot.
            let filled = unsafe {
                AlignedBox::<u16>::from_uninit(len, |slots| {
                    for (i, slot) in slots.iter_mut().enumerate() {
                        slot.write(i as u16);
                    }
                })
            };
            assert!(is_aligned(&filled));
            assert_eq!(filled[len - 1], (len - 1) as u16);
        }
    }

    #[test]
    fn elements_survive_a_round_trip_through_a_vector() {
        let strings: Vec<String> = (0..5).map(|i| i.to_string()).collect();
        let boxed = AlignedBox::from_vec(strings.clone());
        assert_eq!(&*boxed, &strings[..]);
        assert_eq!(boxed.clone().into_vec(), strings);
        assert_eq!(boxed.into_vec(), strings);
    }

    #[test]
    fn empty_and_zero_sized_take_no_allocation() {
        // No allocation: the block is the dangling pointer, never freed.
        let empty = AlignedBox::<f32>::from_fn(0, |_| unreachable!());
        assert!(empty.is_empty());
        assert_eq!(empty.as_ptr(), NonNull::<f32>::dangling().as_ptr());
        let units = AlignedBox::from_fn(7, |_| ());
        assert_eq!(units.len(), 7);
        assert_eq!(units.as_ptr(), NonNull::<()>::dangling().as_ptr());
        assert_eq!(AlignedBox::from_vec(vec![(); 3]).into_vec().len(), 3);
    }

    #[test]
    fn every_element_is_dropped_once() {
        let counter = Rc::new(());
        let boxed = AlignedBox::from_fn(10, |_| Rc::clone(&counter));
        let copy = boxed.clone();
        assert_eq!(Rc::strong_count(&counter), 21);
        drop(boxed);
        let back = copy.into_vec();
        assert_eq!(Rc::strong_count(&counter), 11);
        drop(back);
        assert_eq!(Rc::strong_count(&counter), 1);
    }

    #[cfg(feature = "std")]
    #[test]
    fn a_panic_while_filling_drops_what_was_written() {
        let counter = Rc::new(());
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            AlignedBox::from_fn(10, |i| {
                assert!(i < 4, "stop at 4");
                Rc::clone(&counter)
            })
        }));
        assert!(result.is_err());
        assert_eq!(Rc::strong_count(&counter), 1);
    }
}
