//! Proof that tensor-expr works without std and without an allocator: a
//! freestanding program (its own entry point and panic handler, no std, no
//! `alloc`) that evaluates a broadcast, an `in_dims`, a matrix product and an
//! `exp` with `tensor_expr!`, and the allocator-free interop features (bytes,
//! nalgebra), checks each against a plain loop, and exits with
//! a status whose bits name the checks that failed (0: all right).
//!
//! Linked on x86-64 Linux without the C runtime or any C library
//! (`-C link-arg=-nostartfiles`; rustc already passes `-nodefaultlibs` for a
//! `no_std` binary): `_start` below is the entry point, the exit is a raw system
//! call, and the four memory functions `core` calls are defined here, as an
//! embedded target's `compiler_builtins` would. If std or alloc crept into the
//! library, this would not link: std brings a second panic handler and libc,
//! alloc needs an allocator.
#![no_std]
#![no_main]
// LLVM must not turn the byte loops below back into calls to themselves.
#![no_builtins]

use tensor_expr::element::Accumulator;
use tensor_expr::prelude::*;

/// Ends the process with `status` (Linux x86-64 `exit_group`).
fn exit(status: i32) -> ! {
    // SAFETY: `exit_group` takes one integer argument and does not return.
    unsafe {
        core::arch::asm!("syscall", in("rax") 231, in("rdi") status, options(noreturn));
    }
}

/// The memory functions `core` expects from the platform, as plain byte loops.
mod memory {
    #[no_mangle]
    unsafe extern "C" fn memcpy(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        for i in 0..n {
            // SAFETY: the caller passes `n` valid, non-overlapping bytes.
            unsafe { *dest.add(i) = *src.add(i) };
        }
        dest
    }

    #[no_mangle]
    unsafe extern "C" fn memmove(dest: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        if (dest as usize) < (src as usize) {
            for i in 0..n {
                // SAFETY: the caller passes `n` valid bytes; forward copy is safe here.
                unsafe { *dest.add(i) = *src.add(i) };
            }
        } else {
            for i in (0..n).rev() {
                // SAFETY: as above, copying backwards for an overlapping tail.
                unsafe { *dest.add(i) = *src.add(i) };
            }
        }
        dest
    }

    #[no_mangle]
    unsafe extern "C" fn memset(dest: *mut u8, value: i32, n: usize) -> *mut u8 {
        for i in 0..n {
            // SAFETY: the caller passes `n` valid bytes.
            unsafe { *dest.add(i) = value as u8 };
        }
        dest
    }

    #[no_mangle]
    unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
        for i in 0..n {
            // SAFETY: the caller passes `n` valid bytes on each side.
            let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
            if x != y {
                return x as i32 - y as i32;
            }
        }
        0
    }

    #[no_mangle]
    unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
        // SAFETY: same contract as `memcmp`.
        unsafe { memcmp(a, b, n) }
    }
}

/// The unwinding personality routine that the precompiled `core` refers to;
/// with `panic = "abort"` nothing unwinds, so it is never called.
#[no_mangle]
extern "C" fn rust_eh_personality() {}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    exit(100)
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-5 * (1.0 + b.abs())
}

/// The int8 layer's weights, `[8, 4]`, as a microcontroller keeps them: `i8`
/// in a `static`, viewed with no run-time check.
static WEIGHTS: [i8; 32] = [
    12, -7, 127, -128, 3, 0, 55, -90, 1, 2, 3, 4, -5, -6, -7, -8, 100, -100, 64, -64, 9, 18, 27,
    36, -1, -2, -4, -8, 77, 0, -33, 21,
];
static WEIGHT_VIEW: TensorView<'static, i8, Shape![8, 4]> = TensorView::from_array(&WEIGHTS);

/// Bit 0: broadcast; bit 1: in_dims; bit 2: matmul; bit 3: exp; bit 4: the
/// interop features (bytes and nalgebra) without an allocator; bit 5: an
/// int8 layer (widening product, requantisation, saturating cast).
fn run() -> i32 {
    let mut failed = 0;

    // Broadcast: [2, 3] + [3].
    let x: Tensor<f32, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
    let v: Tensor<f32, Shape![3]> = tensor![10., 20., 30.];
    let sum = tensor_expr!(x + v * 2);
    for i in 0..2 {
        for j in 0..3 {
            if !close(sum[[i, j]], x[[i, j]] + v[[j]] * 2.0) {
                failed |= 1;
            }
        }
    }

    // in_dims: a length-2 vector placed on dim 0 of [2, 3] (row i gets c[i]).
    let c: Tensor<f32, Shape![2]> = tensor![100., 200.];
    let placed = tensor_expr!(x + in_dims(c, [0]));
    for i in 0..2 {
        for j in 0..3 {
            if !close(placed[[i, j]], x[[i, j]] + c[[i]]) {
                failed |= 2;
            }
        }
    }

    // A dense layer: relu(x @ w + b), x [2, 3], w [3, 4], b [4].
    let w: Tensor<f32, Shape![3, 4]> = Tensor::from_fn(|[k, n]: [usize; 2]| k as f32 - n as f32);
    let b: Tensor<f32, Shape![4]> = tensor![0.5, -0.5, 1.0, -1.0];
    let layer = tensor_expr!(relu(x @ w + b));
    for i in 0..2 {
        for n in 0..4 {
            let mut acc = b[[n]];
            for k in 0..3 {
                acc += x[[i, k]] * w[[k, n]];
            }
            if !close(layer[[i, n]], acc.max(0.0)) {
                failed |= 4;
            }
        }
    }

    // exp from libm: e^1 and e^0.
    let t: Tensor<f32, Shape![2]> = tensor![1.0, 0.0];
    let e = tensor_expr!(exp(t));
    if !close(e[[0]], core::f32::consts::E) || !close(e[[1]], 1.0) {
        failed |= 8;
    }

    // bytemuck: the tensor's bytes copied back; nalgebra: a matrix round trip.
    let back = Tensor::<f32, Shape![2, 3]>::try_from_bytes(x.as_bytes());
    let matrix: nalgebra::SMatrix<f32, 2, 3> = x.into();
    let again: Tensor<f32, Shape![2, 3]> = matrix.into();
    if back != Ok(x) || matrix[(1, 0)] != 4.0 || again != x {
        failed |= 16;
    }
    // An int8 dense layer as TFLite Micro computes it.
    let q: Tensor<i8, Shape![2, 8]> =
        Tensor::from_fn(|[i, k]: [usize; 2]| (((i * 40 + k * 13) % 200) as i32 - 100) as i8);
    let bias: Tensor<i32, Shape![4]> = tensor![100, -200, 300, -400];
    let (m, shift, zx, zy) = (1_500_000_000i32, -7i32, -3i32, 5i32);
    let y = tensor_expr!(saturating_cast::<i8>(
        requantize((cast::<i32>(q) - zx) @ cast::<i32>(WEIGHT_VIEW) + bias, m, shift) + zy
    ));
    for i in 0..2 {
        for n in 0..4 {
            let mut acc = bias[[n]];
            for k in 0..8 {
                acc += (i32::from(q[[i, k]]) - zx) * i32::from(WEIGHTS[k * 4 + n]);
            }
            let expected = (acc.requantize(m, shift) + zy).clamp(-128, 127) as i8;
            if y[[i, n]] != expected {
                failed |= 32;
            }
        }
    }
    failed
}

// The entry point: no C runtime, no std runtime. The kernel starts `_start`
// with a 16-byte aligned stack and no return address; `call` gives `entry` the
// alignment every Rust function expects.
core::arch::global_asm!(
    ".globl _start",
    "_start:",
    "xor ebp, ebp",
    "and rsp, -16",
    "call {entry}",
    entry = sym entry,
);

extern "C" fn entry() -> ! {
    exit(run())
}
