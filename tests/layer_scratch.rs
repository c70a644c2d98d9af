//! The int8 layer kernels' scratch in a program's plan: called with the
//! caller's arena, a program of int8 layers takes nothing from the heap
//! (the arena holds each statement's packed weights, padded input and
//! epilogue vectors, sized from the types), and computes what its
//! statements compute written separately (their scratch on the heap).
//! Counted by a global allocator that counts the calls made on the current
//! thread. CI runs this at every instruction-set level: each layer kernel's
//! scratch is then checked against the size the plan reserves for it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tensor_expr::isa::{self, Level};
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

/// Deterministic bytes.
fn bytes<S: Shape>(seed: u32) -> Tensor<i8, S> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    Tensor::from_fn(|_| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state >> 24) as u8 as i8
    })
}

type Bias<const C: usize> = Tensor<i32, Shape![C]>;

/// A keyword spotter's kinds of layers channels last: the rows form (one
/// input channel, stride 2, TFLite's SAME padding), a depthwise layer, a
/// pointwise one of 24 channels (a block and a half).
#[tensor_expr::program]
fn channels_last(
    x: &Tensor<i8, Shape![1, 13, 10, 1]>,
    w1: &Tensor<i8, Shape![16, 5, 4, 1]>,
    dw: &Tensor<i8, Shape![16, 3, 3, 1]>,
    pw: &Tensor<i8, Shape![24, 1, 1, 16]>,
    b16: &Bias<16>,
    b24: &Bias<24>,
) -> Tensor<i8, Shape![1, 7, 5, 24]> {
    let c1 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(x) + 5,
                cast::<i32>(w1),
                stride = 2,
                padding = same,
                layout = nhwc
            ) + b16,
            1_300_000_000,
            -8
        ) - 128,
        -128
    )));
    let d1 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(c1) + 128,
                cast::<i32>(dw),
                padding = same,
                groups = 16,
                layout = nhwc
            ) + b16,
            1_200_000_000,
            -7
        ) - 128,
        -128
    )));
    tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(cast::<i32>(d1) + 128, cast::<i32>(pw), layout = nhwc) + b24,
            1_100_000_000,
            -9
        ) + 3
    ))
}

/// Layers channels first: a 3x3 layer of 8 input channels (its weights
/// reordered into scratch too), then a pointwise one.
#[tensor_expr::program]
fn channels_first(
    x: &Tensor<i8, Shape![1, 8, 6, 5]>,
    w: &Tensor<i8, Shape![16, 8, 3, 3]>,
    pw: &Tensor<i8, Shape![24, 16, 1, 1]>,
) -> Tensor<i8, Shape![1, 24, 6, 5]> {
    let c = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(cast::<i32>(x) - 1, cast::<i32>(w), padding = 1),
            1_250_000_000,
            -8
        ) - 128,
        -128
    )));
    tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(cast::<i32>(c) + 128, cast::<i32>(pw)),
            1_150_000_000,
            -8
        ) - 2
    ))
}

/// Whether the layer kernels store these layers at the selected level
/// (AVX2 or above); below, the expressions' nests compute them, whose
/// tiles pack the weights on the heap.
fn layer_kernels_run() -> bool {
    cfg!(target_arch = "x86_64") && isa::selected() >= Level::Avx2
}

#[test]
fn int8_layers_take_their_scratch_from_the_arena() {
    let (x, w1, dw, pw) = (
        bytes::<Shape![1, 13, 10, 1]>(1),
        bytes::<Shape![16, 5, 4, 1]>(2),
        bytes::<Shape![16, 3, 3, 1]>(3),
        bytes::<Shape![24, 1, 1, 16]>(4),
    );
    let b16 = Bias::<16>::from_fn(|[c]| c as i32 * 97 - 700);
    let b24 = Bias::<24>::from_fn(|[c]| 500 - c as i32 * 41);
    let mut arena = Box::new(tensor_expr::Arena::<CHANNELS_LAST_ARENA_BYTES>::new());
    let mut y = channels_last(&x, &w1, &dw, &pw, &b16, &b24);
    let count = allocations(|| y = channels_last_in(&x, &w1, &dw, &pw, &b16, &b24, &mut arena));
    let expected = {
        let c1 = tensor_expr!(saturating_cast::<i8>(max(
            requantize(
                conv2d(
                    cast::<i32>(x) + 5,
                    cast::<i32>(w1),
                    stride = 2,
                    padding = same,
                    layout = nhwc
                ) + b16,
                1_300_000_000,
                -8
            ) - 128,
            -128
        )));
        let d1 = tensor_expr!(saturating_cast::<i8>(max(
            requantize(
                conv2d(
                    cast::<i32>(c1) + 128,
                    cast::<i32>(dw),
                    padding = same,
                    groups = 16,
                    layout = nhwc
                ) + b16,
                1_200_000_000,
                -7
            ) - 128,
            -128
        )));
        tensor_expr!(saturating_cast::<i8>(
            requantize(
                conv2d(cast::<i32>(d1) + 128, cast::<i32>(pw), layout = nhwc) + b24,
                1_100_000_000,
                -9
            ) + 3
        ))
    };
    assert_eq!(y, expected, "the program against its statements");
    if layer_kernels_run() {
        assert_eq!(count, 0, "heap allocations in a call with the arena lent");
    }

    let (x, w, pw) = (
        bytes::<Shape![1, 8, 6, 5]>(5),
        bytes::<Shape![16, 8, 3, 3]>(6),
        bytes::<Shape![24, 16, 1, 1]>(7),
    );
    let mut arena = Box::new(tensor_expr::Arena::<CHANNELS_FIRST_ARENA_BYTES>::new());
    let mut y = channels_first(&x, &w, &pw);
    let count = allocations(|| y = channels_first_in(&x, &w, &pw, &mut arena));
    let c = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(cast::<i32>(x) - 1, cast::<i32>(w), padding = 1),
            1_250_000_000,
            -8
        ) - 128,
        -128
    )));
    let expected = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(cast::<i32>(c) + 128, cast::<i32>(pw)),
            1_150_000_000,
            -8
        ) - 2
    ));
    assert_eq!(
        y, expected,
        "channels first: the program against its statements"
    );
    if layer_kernels_run() {
        assert_eq!(
            count, 0,
            "channels first: heap allocations with the arena lent"
        );
    }
}

type Maps = Shape![2, 40, 6, 32];
type Weights = Tensor<i8, Shape![32, 3, 3, 1]>;
type Pointwise = Tensor<i8, Shape![32, 1, 1, 32]>;

/// Layers written over their inputs, as TinyEngine writes its depthwise
/// layers: two images of 40 rows (several bands each), a depthwise layer
/// (3x3, SAME), a pointwise one keeping the channels, a dilated depthwise
/// one, and a pointwise one whose input constant is no byte (the kernels
/// decline it: the expression's nest computes it from a heap copy, into
/// the same bytes). Every planned tensor then lives in one slot.
#[tensor_expr::program]
fn over_inputs(
    x: &Tensor<i8, Maps>,
    dw: &Weights,
    pw: &Pointwise,
    b: &Bias<32>,
) -> Tensor<i8, Shape![2, 40, 6, 8]> {
    let a = tensor_expr!(x / 2);
    let d1 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(a) + 3,
                cast::<i32>(dw),
                padding = same,
                groups = 32,
                layout = nhwc
            ) + b,
            1_200_000_000,
            -6
        ) - 20,
        -128
    )));
    let p1 = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(cast::<i32>(d1) - 7, cast::<i32>(pw), layout = nhwc) + b,
            1_100_000_000,
            -8
        ) + 5
    ));
    let d2 = tensor_expr!(saturating_cast::<i8>(requantize(
        conv2d(
            cast::<i32>(p1) + 128,
            cast::<i32>(dw),
            padding = 2,
            dilation = 2,
            groups = 32,
            layout = nhwc
        ),
        1_300_000_000,
        -7
    )));
    let p2 = tensor_expr!(saturating_cast::<i8>(requantize(
        conv2d(cast::<i32>(d2) + 1000, cast::<i32>(pw), layout = nhwc),
        1_000_000_000,
        -12
    )));
    tensor_expr!(p2.narrow::<3, 0, 8>() + 1)
}

#[test]
fn layers_are_written_over_their_inputs() {
    let (x, dw, pw) = (
        bytes::<Maps>(8),
        bytes::<Shape![32, 3, 3, 1]>(9),
        bytes::<Shape![32, 1, 1, 32]>(10),
    );
    let b = Bias::<32>::from_fn(|[c]| c as i32 * 53 - 900);
    let a = tensor_expr!(x / 2);
    let d1 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(a) + 3,
                cast::<i32>(dw),
                padding = same,
                groups = 32,
                layout = nhwc
            ) + b,
            1_200_000_000,
            -6
        ) - 20,
        -128
    )));
    let p1 = tensor_expr!(saturating_cast::<i8>(
        requantize(
            conv2d(cast::<i32>(d1) - 7, cast::<i32>(pw), layout = nhwc) + b,
            1_100_000_000,
            -8
        ) + 5
    ));
    let d2 = tensor_expr!(saturating_cast::<i8>(requantize(
        conv2d(
            cast::<i32>(p1) + 128,
            cast::<i32>(dw),
            padding = 2,
            dilation = 2,
            groups = 32,
            layout = nhwc
        ),
        1_300_000_000,
        -7
    )));
    let p2 = tensor_expr!(saturating_cast::<i8>(requantize(
        conv2d(cast::<i32>(d2) + 1000, cast::<i32>(pw), layout = nhwc),
        1_000_000_000,
        -12
    )));
    let expected = tensor_expr!(p2.narrow::<3, 0, 8>() + 1);
    assert_eq!(over_inputs(&x, &dw, &pw, &b), expected);
    // `a`, `d1`, `p1`, `d2` and `p2` in one slot.
    let maps = core::mem::size_of::<Tensor<i8, Maps>>();
    let over = cfg!(target_arch = "x86_64");
    assert_eq!(OVER_INPUTS_TENSOR_BYTES, if over { maps } else { 2 * maps });
}
