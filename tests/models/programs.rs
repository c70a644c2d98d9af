//! The MLP, a Kalman step and MLPerf Tiny's int8 keyword spotter
//! (`crate::kws`) as programs with planned memory, each checked against
//! the same statements written separately, and the stack a call of each
//! takes: shared by `examples/programs.rs`, which prints the figures, and
//! `tests/program_stack_app`, which `tests/program_stack.rs` builds in
//! release to hold them to their bound.

use crate::kws;
use std::hint::black_box;
use tensor_expr::prelude::*;

/// The classifier's layers: `[784, 128]`, `[128]`, `[128, 10]`, `[10]`.
pub type Layers<'a> = (
    &'a HeapTensor<f32, Shape![784, 128]>,
    &'a Tensor<f32, Shape![128]>,
    &'a HeapTensor<f32, Shape![128, 10]>,
    &'a Tensor<f32, Shape![10]>,
);

/// One image through the classifier as a program (`#[tensor_expr::program]`):
/// the hidden layer and the logits live in one arena.
#[tensor_expr::program]
pub fn classify_one(
    image: &Tensor<f32, Shape![1, 784]>,
    layers: Layers,
) -> Tensor<f32, Shape![1, 10]> {
    let (w1, b1, w2, b2) = layers;
    let hidden = tensor_expr!(relu(image @ w1 + b1));
    let logits = tensor_expr!(hidden @ w2 + b2);
    tensor_expr!(softmax(logits, [1]))
}

/// The constant-velocity Kalman filter's model: `F`, `H`, `Q`, `R`.
pub struct Kalman {
    pub f: Tensor<f64, Shape![4, 4]>,
    pub h: Tensor<f64, Shape![2, 4]>,
    pub q: Tensor<f64, Shape![4, 4]>,
    pub r: Tensor<f64, Shape![2, 2]>,
}

impl Kalman {
    /// Position and velocity in two dims, a step of 0.1, both positions
    /// measured.
    pub fn constant_velocity() -> Kalman {
        Kalman {
            f: Tensor::<f64, Shape![4, 4]>::from_fn(|[i, j]| {
                if i == j {
                    1.0
                } else if j == i + 2 {
                    0.1
                } else {
                    0.0
                }
            }),
            h: Tensor::<f64, Shape![2, 4]>::from_fn(|[i, j]| if i == j { 1.0 } else { 0.0 }),
            q: tensor_expr!({ Tensor::<f64, Shape![4, 4]>::eye() } * 0.01),
            r: tensor_expr!({ Tensor::<f64, Shape![2, 2]>::eye() } * 0.1),
        }
    }
}

/// One step of the filter as a program: the prediction, the innovation and
/// its covariance in one arena; `S`'s inverse (a `Result`) and the updates
/// of the state run out of line.
#[tensor_expr::program]
pub fn kalman_step(
    x: &mut Tensor<f64, Shape![4]>,
    p: &mut Tensor<f64, Shape![4, 4]>,
    z: &Tensor<f64, Shape![2]>,
    model: &Kalman,
) -> Result<(), tensor_expr::LinalgError> {
    let Kalman { f, h, q, r } = model;
    let predicted = tensor_expr!(f @ x);
    let covariance = tensor_expr!(f @ p @ transpose(f) + q);
    let s = tensor_expr!(h @ covariance @ transpose(h) + r);
    let k = tensor_expr!(covariance @ transpose(h) @ inv(s))?;
    let innovation = tensor_expr!(z - h @ predicted);
    tensor_expr!(x = predicted + k @ innovation);
    tensor_expr!(p = ({ Tensor::<f64, Shape![4, 4]>::eye() } - k @ h) @ covariance);
    Ok(())
}

/// The deepest the stack went below this function's frame during `f`:
/// the bytes below are painted first, and the lowest one `f` changed is
/// found after (release builds; a debug build's frames are larger). Run
/// on a thread of 8 MiB of stack ([`on_a_large_stack`]).
#[inline(never)]
pub fn stack_high_water(f: &mut dyn FnMut()) -> usize {
    const DEPTH: usize = 256 * 1024;
    const PAINT: u8 = 0xA5;
    #[inline(never)]
    fn paint() {
        let mut area = [0u8; DEPTH];
        for byte in area.iter_mut() {
            // SAFETY: a byte of this frame; volatile so the writes stay.
            unsafe { core::ptr::write_volatile(byte, PAINT) };
        }
        black_box(&mut area);
    }
    let marker = 0u8;
    let top = black_box(&marker) as *const u8 as usize;
    paint();
    f();
    (0..DEPTH)
        .find(|&depth| {
            // SAFETY: within this thread's stack (8 MiB), which `paint`
            // wrote; a measurement of the stack as memory.
            unsafe { core::ptr::read_volatile((top - DEPTH + depth) as *const u8) != PAINT }
        })
        .map_or(0, |depth| DEPTH - depth)
}

/// `f` on a thread of 8 MiB of stack, which [`stack_high_water`] paints.
pub fn on_a_large_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn_scoped(scope, f)
            .unwrap()
            .join()
            .unwrap()
    })
}

/// One program's memory: its arena, and the stack a call takes with the
/// arena on its own stack (`name`) and lent (`name_in`, where measured).
pub struct Memory {
    pub program: &'static str,
    pub arena: usize,
    pub on_stack: usize,
    pub lent: Option<usize>,
    /// The heap at the peak of a call, where the caller measures it.
    pub heap: Option<usize>,
}

/// The bytes a call may take beyond its arena, on its own stack or lent:
/// the frames of the program and of the kernels it runs.
pub const STACK_BEYOND_THE_ARENA: usize = 2048;

impl Memory {
    /// Whether both stack figures are within the arena plus
    /// [`STACK_BEYOND_THE_ARENA`].
    pub fn within_bounds(&self) -> bool {
        self.on_stack <= self.arena + STACK_BEYOND_THE_ARENA
            && self.lent.is_none_or(|lent| lent <= STACK_BEYOND_THE_ARENA)
    }
}

/// Measures the heap a call takes at its peak (a counting allocator's).
pub type HeapHighWater<'a> = &'a dyn Fn(&mut dyn FnMut()) -> usize;

/// Each program run, checked against its statements written separately,
/// and measured (on a thread of [`on_a_large_stack`]); `heap` gives the heap
/// a call takes at its peak where the caller counts it.
pub fn memory_of_programs(layers: Layers, heap: Option<HeapHighWater>) -> Vec<Memory> {
    let (w1, b1, w2, b2) = layers;
    let image = Tensor::<f32, Shape![1, 784]>::from_fn(|[_, k]| (k % 13) as f32 * 0.05 - 0.3);
    let expected = tensor_expr!(softmax(relu(image @ w1 + b1) @ w2 + b2, [1]));
    assert_eq!(classify_one(&image, layers).as_slice(), expected.as_slice());
    let on_stack = stack_high_water(&mut || {
        black_box(classify_one(black_box(&image), layers));
    });
    let mut arena = tensor_expr::Arena::<CLASSIFY_ONE_ARENA_BYTES>::new();
    let lent = stack_high_water(&mut || {
        black_box(classify_one_in(black_box(&image), layers, &mut arena));
    });
    let mlp = Memory {
        program: "MLP 784 -> 128 -> 10",
        arena: CLASSIFY_ONE_ARENA_BYTES,
        on_stack,
        lent: Some(lent),
        heap: heap.map(|heap| {
            heap(&mut || {
                black_box(classify_one_in(black_box(&image), layers, &mut arena));
            })
        }),
    };

    let model = Kalman::constant_velocity();
    let (mut x, mut p) = (
        Tensor::<f64, Shape![4]>::zeros(),
        Tensor::<f64, Shape![4, 4]>::eye(),
    );
    let (mut xs, mut ps) = (x, p);
    for t in 0..50 {
        let z = Tensor::<f64, Shape![2]>::new([t as f64 * 0.1, 2.0 - t as f64 * 0.05]);
        kalman_step(&mut x, &mut p, &z, &model).unwrap();
        let Kalman { f, h, q, r } = &model;
        tensor_expr!(xs = f @ xs);
        tensor_expr!(ps = f @ ps @ transpose(f) + q);
        let s = tensor_expr!(h @ ps @ transpose(h) + r);
        let k = tensor_expr!(ps @ transpose(h) @ inv(s)).unwrap();
        tensor_expr!(xs = xs + k @ (z - h @ xs));
        tensor_expr!(ps = ({ Tensor::<f64, Shape![4, 4]>::eye() } - k @ h) @ ps);
    }
    assert_eq!((x.as_slice(), p.as_slice()), (xs.as_slice(), ps.as_slice()));
    let z = Tensor::<f64, Shape![2]>::new([1.0, 2.0]);
    let kalman = Memory {
        program: "Kalman step",
        arena: KALMAN_STEP_ARENA_BYTES,
        on_stack: stack_high_water(&mut || {
            black_box(kalman_step(&mut x, &mut p, black_box(&z), &model)).unwrap();
        }),
        lent: None,
        heap: None,
    };

    let model = kws::Kws::load();
    let input = Tensor::<i8, kws::Input>::from_flat_fn(|i| (i * 37 % 256) as i8);
    let (logits, probabilities) = model.run(&input);
    let planned = kws::kws(&input, &model);
    assert_eq!(planned.0.as_slice(), logits.as_slice());
    assert_eq!(planned.1.as_slice(), probabilities.as_slice());
    let on_stack = stack_high_water(&mut || {
        black_box(kws::kws(black_box(&input), &model));
    });
    let mut arena = tensor_expr::Arena::<{ kws::KWS_ARENA_BYTES }>::new();
    let lent = stack_high_water(&mut || {
        black_box(kws::kws_in(black_box(&input), &model, &mut arena));
    });
    let spotter = Memory {
        program: "keyword spotter (int8 DS-CNN)",
        arena: kws::KWS_ARENA_BYTES,
        on_stack,
        lent: Some(lent),
        heap: heap.map(|heap| {
            heap(&mut || {
                black_box(kws::kws_in(black_box(&input), &model, &mut arena));
            })
        }),
    };
    vec![mlp, kalman, spotter]
}
