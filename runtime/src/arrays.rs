//! Arrays built element by element in one counted loop.
//!
//! `core::array::from_fn` goes through `try_from_fn`, a drop guard and a
//! wrapped closure: several functions for each array type and closure,
//! which every tile of every expression instantiates and a debug build
//! compiles and calls as they are. [`from_index_fn`] is one function with a
//! loop, which LLVM unrolls as it does `from_fn` in a release build. It is
//! for the small arrays of a tile (its rows, a leaf's window); a tensor's
//! storage, which may be large, keeps `core::array::from_fn`.

use core::mem::MaybeUninit;

/// `[f(0), f(1), .., f(N - 1)]`, `f` called in that order. If `f` panics,
/// the elements made so far are leaked, not dropped.
#[inline(always)]
pub(crate) fn from_index_fn<X, const N: usize>(mut f: impl FnMut(usize) -> X) -> [X; N] {
    let mut out = MaybeUninit::<[X; N]>::uninit();
    let first = out.as_mut_ptr().cast::<X>();
    let mut i = 0;
    while i < N {
        // SAFETY: `i < N`, within the array `out` holds room for.
        unsafe { first.add(i).write(f(i)) };
        i += 1;
    }
    // SAFETY: the loop wrote every element.
    unsafe { out.assume_init() }
}

#[cfg(test)]
mod tests {
    use super::from_index_fn;
    use alloc::rc::Rc;
    use alloc::string::{String, ToString};

    #[test]
    fn elements_are_made_in_order_and_owned_once() {
        let squares: [usize; 5] = from_index_fn(|i| i * i);
        assert_eq!(squares, [0, 1, 4, 9, 16]);
        let mut calls = 0;
        let words: [String; 3] = from_index_fn(|i| {
            assert_eq!(i, calls);
            calls += 1;
            i.to_string()
        });
        assert_eq!(words, ["0", "1", "2"]);
        let shared = Rc::new(());
        let copies: [Rc<()>; 4] = from_index_fn(|_| Rc::clone(&shared));
        assert_eq!(Rc::strong_count(&shared), 5);
        drop(copies);
        assert_eq!(Rc::strong_count(&shared), 1);
        let empty: [String; 0] = from_index_fn(|_| unreachable!());
        assert!(empty.is_empty());
    }
}
