//! What `tensor_expr!` allocates, counted by a global allocator that counts
//! the calls made on the current thread: an expression over `Tensor`s
//! allocates nothing, however many parts it evaluates first (stages are
//! placed as results are, on the stack when every operand is), and one over
//! a `HeapTensor` puts its stages on the heap.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tensor_expr::prelude::*;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above, with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn a_kalman_step_over_tensors_allocates_nothing() {
    let f = Tensor::<f32, Shape![4, 4]>::from_fn(|[i, j]| if i == j { 1.0 } else { 0.1 });
    let h = Tensor::<f32, Shape![2, 4]>::from_fn(|[i, j]| if i == j { 1.0 } else { 0.0 });
    let q = Tensor::<f32, Shape![4, 4]>::eye();
    let r = Tensor::<f32, Shape![2, 2]>::eye();
    let eye = Tensor::<f32, Shape![4, 4]>::eye();
    let z = Tensor::<f32, Shape![2]>::new([1.0, 2.0]);
    let (mut x, mut p) = (
        Tensor::<f32, Shape![4]>::zeros(),
        Tensor::<f32, Shape![4, 4]>::eye(),
    );
    let count = allocations(|| {
        // Each of these stages at least one part (chained products,
        // transposed right operands, products that read their target), on
        // the stack: the budgets are the stages' bytes, checked by the build.
        tensor_expr!(scratch <= 16: x = f @ x);
        tensor_expr!(scratch <= 128: p = f @ p @ transpose(f) + q);
        let s = tensor_expr!(scratch <= 64: h @ p @ transpose(h) + r);
        let k = tensor_expr!(scratch <= 80: p @ transpose(h) @ inv(s)).unwrap();
        tensor_expr!(scratch <= 8: x = x + k @ (z - h @ x));
        tensor_expr!(scratch <= 128: p = (eye - k @ h) @ p);
    });
    assert_eq!(count, 0);
    assert!(x
        .as_slice()
        .iter()
        .chain(p.as_slice())
        .all(|v| v.is_finite()));
}

#[test]
fn stages_over_a_heap_tensor_are_on_the_heap() {
    let x = HeapTensor::<f32, Shape![4, 4]>::full(1.0);
    let w = Tensor::<f32, Shape![4, 4]>::eye();
    let mut y = Tensor::<f32, Shape![4, 4]>::zeros();
    // One stage (x @ w, an operand of `@`), on the heap as `x` is; the
    // result goes into `y`.
    let count = allocations(|| tensor_expr!(y = (x @ w) @ w));
    assert_eq!(count, 1);
    assert_eq!(y, Tensor::full(1.0));
}
