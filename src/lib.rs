//! # tensor-expr
//!
//! Statically shaped tensors whose shape rules are checked at compile time, and
//! tensor expressions that compile to one fused loop nest.
//!
//! ```
//! use tensor_expr::prelude::*;
//!
//! let x: Tensor<f32, Shape![2, 3]> = tensor![[1., 2., 3.], [4., 5., 6.]];
//! let v: Tensor<f32, Shape![3]> = Tensor::try_from_slice(&[7., 8., 9.])?;
//! let y = tensor_expr!(x + v); // NumPy broadcasting, shape [2, 3] inferred
//! assert_eq!(y, tensor![[8., 10., 12.], [11., 13., 15.]]);
//!
//! let z: Tensor<f32, Shape![2, 3]> = tensor_expr!(relu(x * 2 - v) / 4.0);
//! assert_eq!(z.as_slice(), &[0., 0., 0., 0.25, 0.5, 0.75]);
//!
//! let mut acc = Tensor::<f32, Shape![2, 3]>::zeros();
//! tensor_expr!(acc += x * v);          // in place: `x * v` must not grow `acc`
//! tensor_expr!(acc = acc * 0.5 + 1.0); // the target may appear on the right
//! assert_eq!(acc[[1, 2]], 6. * 9. * 0.5 + 1.);
//! # Ok::<(), tensor_expr::ShapeError>(())
//! ```
//!
//! A shape mistake is a compile error on the operator, naming both shapes:
//!
//! ```compile_fail
//! use tensor_expr::prelude::*;
//! let x = Tensor::<f32, Shape![2, 3]>::zeros();
//! let w = Tensor::<f32, Shape![4]>::zeros();
//! let bad = tensor_expr!(x + w); // shapes `(D<2>, D<3>)` and `(D<4>,)` cannot be broadcast together
//! ```
//!
//! The parts an expression evaluates first (here `f @ p`, which reads the
//! target, and `transpose(f)`) take stack bytes known at compile time;
//! `cargo build` checks them against
//! [`DEFAULT_SCRATCH_BUDGET`](placement::DEFAULT_SCRATCH_BUDGET) or the
//! budget the statement names:
//!
//! ```
//! use tensor_expr::prelude::*;
//! let f = Tensor::<f32, Shape![4, 4]>::eye();
//! let q = Tensor::<f32, Shape![4, 4]>::full(0.5);
//! let mut p = Tensor::<f32, Shape![4, 4]>::eye();
//! tensor_expr!(scratch <= 128: p = f @ p @ transpose(f) + q); // two 4x4 f32 stages
//! assert_eq!((p[[0, 0]], p[[0, 1]]), (1.5, 0.5));
//! ```
//!
//! See the README for the whole tour: the grammar, broadcasting, in-place rules,
//! views over borrowed data, and `no_std` use.
#![no_std]

pub use tensor_expr_macros::{program, tensor, tensor_expr, Shape};
pub use tensor_expr_runtime::{
    Arena, Broadcast, BroadcastInto, ConversionError, Dim, Dyn, Element, Float, Integer,
    LinalgError, One, RowsShape, RunTime, Shape, ShapeError, Signed, StridedView, Target, Tensor,
    TensorView, TensorViewMut, D, FUNCTIONS, MAX_RANK,
};

/// The run-time errors, each also at the crate root: [`ShapeError`] (data
/// of the wrong length), [`LinalgError`] (a singular or indefinite matrix)
/// and [`ConversionError`] (another library's value of another shape or
/// layout), with the details they carry.
pub use tensor_expr_runtime::error;

/// How expressions read and write containers: the traits a container or
/// element type of your own implements to be an operand (`Operand`,
/// `ElementSource`) or an assignment target (`Target`).
pub use tensor_expr_runtime::access;

/// Where `tensor_expr!` puts its result and the parts it evaluates first,
/// and the compile-time scratch budget of those parts
/// ([`DEFAULT_SCRATCH_BUDGET`](placement::DEFAULT_SCRATCH_BUDGET), or
/// `scratch <= BYTES:`).
pub use tensor_expr_runtime::placement;

/// Interop with `rand`, `ndarray`, `nalgebra`, `serde` and `bytemuck`, each
/// behind the feature of the same name (the README's features table).
pub use tensor_expr_runtime::interop;

/// Joining tensors along a static axis: `concat(Axis::<1>, &a, &b)` and
/// `stack(Axis::<0>, [a.view(), b.view()])`.
pub use tensor_expr_runtime::join;

/// Static slices (`at`, `index_axis`, `index_axis_keepdim`, `narrow`) and
/// the axis rules that type them.
pub use tensor_expr_runtime::slice;

/// A tensor with its elements on the heap, for shapes too big for the stack
/// (features `alloc` or `std`).
#[cfg(feature = "alloc")]
pub use tensor_expr_runtime::HeapTensor;

/// The shape rules as plain functions over `&[usize]`: the same rules the
/// compiler checks through the types, for checks at run time, messages and
/// tests. Each reports the dim the compile-time rule names (the rightmost
/// clash).
///
/// ```
/// use tensor_expr::rules::broadcast::broadcast_dims;
/// use tensor_expr::rules::matmul::matmul_dims;
/// assert_eq!(broadcast_dims(&[8, 1, 6, 1], &[7, 1, 5]).unwrap().as_slice(), &[8, 7, 6, 5]);
/// assert_eq!(matmul_dims(&[7, 1, 2, 3], &[5, 3, 4]).unwrap().as_slice(), &[7, 5, 2, 4]);
/// ```
///
/// The traits through which the compiler checks the rules (per-dim message
/// carriers, chain links, verdict types) are the implementation of the
/// error messages, not API: they live in `__private` and change whenever a
/// message is improved. Name only what is re-exported here and at the crate
/// root ([`Broadcast`], [`BroadcastInto`], [`rules::matmul::MatmulRule`]).
pub mod rules {
    /// NumPy broadcasting.
    pub mod broadcast {
        pub use tensor_expr_runtime::rules::broadcast::{
            broadcast_dims, broadcast_strides, Broadcast, BroadcastMismatch, Dims,
        };
    }
    /// PyTorch's in-place rule: the value must not change the target's shape.
    pub mod in_place {
        pub use tensor_expr_runtime::rules::in_place::{check_in_place, BroadcastInto};
    }
    /// NumPy `matmul`.
    pub mod matmul {
        pub use tensor_expr_runtime::rules::matmul::{matmul_dims, MatmulMismatch, MatmulRule};
    }
    /// XLA's `in_dims`: where each dim of an operand lands in the output.
    pub mod in_dims {
        pub use tensor_expr_runtime::rules::in_dims::place_dims;
    }
    /// XLA's strict mode: no implicit rank promotion.
    pub mod rank {
        pub use tensor_expr_runtime::rules::rank::ranks_agree_strictly;
    }
}

/// Element types: the [`Element`], [`Float`] and [`Signed`] bounds, and the
/// markers an element type of your own names when it implements
/// [`Element`] ([`element::IsFloat`] or [`element::NotFloat`],
/// [`element::HasSign`] or [`element::NoSign`]), which decide the
/// functions of the table it may use; the conversions of `cast::<U>(e)`
/// ([`element::Cast`], Rust's `as`) and `saturating_cast::<U>(e)`
/// ([`element::SaturatingCast`]), and TFLite's int8 arithmetic: its
/// fixed-point requantisation ([`element::Accumulator`],
/// [`element::quantize_multiplier`]), the parameters of its ADD
/// ([`element::AddParameters`]) and of its softmax
/// ([`element::softmax_multiplier`], for `quantized_softmax(x, m, s,
/// [axes])`).
///
/// An expression has one element type; a cast's input has its own, so
/// `cast::<i32>(x) @ cast::<i32>(w)` reads `i8` data and sums in `i32`:
///
/// ```
/// use tensor_expr::prelude::*;
/// let x = Tensor::<i8, Shape![2, 3]>::new([[-128, 0, 127], [1, 2, 3]]);
/// let w = Tensor::<i8, Shape![3, 2]>::full(127);
/// let y = tensor_expr!(cast::<i32>(x) @ cast::<i32>(w));
/// assert_eq!(y.as_slice(), &[-127, -127, 762, 762]);
/// assert_eq!(tensor_expr!(saturating_cast::<i8>(y)).as_slice(), &[-127, -127, 127, 127]);
/// assert_eq!(tensor_expr!(cast::<i8>(y)).as_slice(), &[-127, -127, -6, -6]);
/// ```
pub use tensor_expr_runtime::element;

/// gemmlowp's fixed-point arithmetic as TFLite's int8 kernels use it (the
/// rounding multiply and divide of `requantize`, the exponential and
/// reciprocal of `quantized_softmax`), callable on its own.
pub use tensor_expr_runtime::fixed_point;

/// The instruction-set level the kernels run with: detected once (AVX2,
/// AVX-512, VNNI with `std` on x86-64), and lowered for tests by the
/// environment variable `TENSOR_EXPR_ISA` (`sse2`, `avx2`, `avx512`,
/// `avx512vnni`).
///
/// ```
/// use tensor_expr::isa::{self, Level};
/// println!("kernels run with {}", isa::selected().name());
/// assert!(isa::selected() <= isa::detected() && isa::detected() >= Level::Sse2);
/// ```
pub use tensor_expr_runtime::isa;

/// The float functions of `tensor_expr!` (`exp`, `ln`, `tanh`, `sigmoid`, ...)
/// for f32 and f64, callable on their own: pure Rust that LLVM vectorises,
/// with their accuracy and special values stated as a contract.
pub use tensor_expr_runtime::math;

/// Small-matrix linear algebra as methods of square tensors: `eye`, `diag`,
/// `det`, `inv`, `solve`, `cholesky`, `cholesky_solve` (NumPy's `linalg`),
/// with no allocation; failures are [`error::LinalgError`] values. The same
/// operations inside `tensor_expr!` make the expression a `Result` where
/// they can fail:
///
/// ```
/// use tensor_expr::prelude::*;
/// let p = Tensor::<f64, Shape![2, 2]>::new([[4.0, 1.0], [1.0, 3.0]]);
/// let h = Tensor::<f64, Shape![1, 2]>::new([[1.0, 0.0]]);
/// let s = tensor_expr!(h @ p @ transpose(h) + 1.0);
/// let k = tensor_expr!(p @ transpose(h) @ inv(s))?;
/// assert_eq!(k.as_slice(), &[0.8, 0.2]);
/// # Ok::<(), tensor_expr::error::LinalgError>(())
/// ```
pub use tensor_expr_runtime::linalg;

/// Everything an expression needs, and the bounds of code generic over
/// element types and shapes: `use tensor_expr::prelude::*;`.
///
/// ```
/// use tensor_expr::prelude::*;
///
/// // Any float type, any shape: `Float` brings every float function.
/// fn squash<T: Float, S: Shape>(x: &Tensor<T, S>) -> Tensor<T, S> {
///     tensor_expr!(exp(x) * 2 + 1)
/// }
/// // Any element type: `Element` brings the arithmetic, and `a: T` is a scalar operand.
/// fn axpy<T: Element, S: Shape>(x: &Tensor<T, S>, a: T) -> Tensor<T, S> {
///     tensor_expr!(x * a + x)
/// }
/// // A bias that broadcasts over `x` without changing its shape.
/// fn biased<S: Shape + Broadcast<B, Output = S>, B: Shape>(x: &Tensor<f32, S>, b: &Tensor<f32, B>) -> Tensor<f32, S> {
///     tensor_expr!(x + b)
/// }
/// let x = Tensor::<f64, Shape![2]>::new([0.0, 1.0]);
/// assert_eq!(squash(&x)[[0]], 3.0);
/// assert_eq!(axpy(&Tensor::<i32, Shape![2]>::new([1, 2]), 3).as_slice(), &[4, 8]);
/// let m = Tensor::<f32, Shape![2, 2]>::new([[1., 2.], [3., 4.]]);
/// assert_eq!(biased(&m, &Tensor::<f32, Shape![2]>::new([10., 20.])).as_slice(), &[11., 22., 13., 24.]);
/// ```
pub mod prelude {
    pub use crate::join::{concat, stack, Axis};
    #[cfg(feature = "alloc")]
    pub use crate::HeapTensor;
    pub use crate::{
        tensor, tensor_expr, Broadcast, BroadcastInto, Dyn, Element, Float, Integer, One, Shape,
        Signed, Tensor, TensorView, TensorViewMut, D,
    };
}

/// One entry of [`errors`]: a heading, the fix, the ui test's code and message.
macro_rules! catalogue_entry {
    ($name:literal, $fix:literal) => {
        concat!(
            "\n### `",
            $name,
            "`\n\n",
            $fix,
            "\n\n```text\n",
            include_str!(concat!("../tests/compile_errors/tests/ui/", $name, ".rs")),
            "```\n\n```text\n",
            include_str!(concat!(
                "../tests/compile_errors/tests/ui/",
                $name,
                ".stderr"
            )),
            "```\n"
        )
    };
}

/// Every compile error tensor-expr can give, grouped by rule: the code that
/// triggers it, the exact message (`cargo check` prints it, spanned on your
/// operator, operand or `in_dims` tuple), and what to write instead.
///
/// Each entry includes a file of the ui test suite
/// (`tests/compile_errors/tests/ui/NAME.rs` and its `NAME.stderr`), which
/// `cargo test -p tensor-expr-compile-errors` compiles and compares, so this
/// page cannot drift from the real messages; a test checks that every ui case
/// is listed here. (Messages show the paths of this repository's checkout.)
#[doc = "\n## Broadcasting\n"]
#[doc = catalogue_entry!("broadcast_mismatch", "Make the trailing dims agree (equal, or 1 on one side), or place the lower-rank operand on other dims with `in_dims`.")]
#[doc = catalogue_entry!("broadcast_mismatch_in_function", "The arguments of `max`, `min`, `pow`, `clamp` broadcast together like operands: make their dims agree.")]
#[doc = catalogue_entry!("broadcast_mismatch_ternary", "All operands of a three-argument function broadcast together: give the bounds of `clamp` shapes that fit the value.")]
#[doc = catalogue_entry!("comparison_shape_mismatch", "A comparison broadcasts its operands like arithmetic: make their dims agree.")]
#[doc = catalogue_entry!("select_shape_mismatch", "The mask and both values of `select` broadcast together (NumPy's `where`): give the values shapes that fit the mask.")]
#[doc = catalogue_entry!("broadcast_every_dim_clashes", "Several clashing dims are one error, at the rightmost: fix it, and the next one (if any) is reported.")]
#[doc = catalogue_entry!("narrow_of_length_1_does_not_broadcast", "A `narrow` of length 1 is `D<1>`, which does not stretch: use `index_axis_keepdim::<AXIS>(j)`, whose dim is the broadcasting `One`.")]
#[doc = catalogue_entry!("broadcast_mismatch_reported_once", "One mistake is one error, even when the failing node is used again: fix the first operation.")]
#[doc = catalogue_entry!("seed_000_incompatible_degenerate", "A size-1 dim stretches only against another dim; `(2, 3)` and `(3, 2)` clash: transpose the data or use matching shapes.")]
#[doc = catalogue_entry!("seed_002_empty_with_matrix", "A size-0 dim broadcasts only with 0 or 1.")]
#[doc = catalogue_entry!("seed_002_not_broadcastable", "Align on the right: the last dims must agree first.")]
#[doc = catalogue_entry!("seed_004_two_five_with_three", "`(2, 5)` with `(3,)`: the last dims 5 and 3 differ; reshape or pick a `(5,)` operand.")]
#[doc = catalogue_entry!("seed_004_four_three_two_with_four_two", "`(4, 3, 2)` with `(4, 2)`: 3 against 4 in the middle; write `in_dims(b, [0, 2])` to place `(4, 2)` on dims 0 and 2.")]
#[doc = catalogue_entry!("generic_d1_is_not_degenerate", "In generic code, `D<1>` does not stretch: write `One` for a dim that should broadcast.")]
#[doc = catalogue_entry!("shape_too_many_dims", "Shapes have at most 6 dims.")]
#[doc = catalogue_entry!("broadcast_error_in_context", "A broadcast mistake inside a larger expression (under a function, as an operand of `@`, inside a reduction, after `+=`) is still one error, on its operator.")]
#[doc = "\n## A run-time batch (`Dyn`)\n"]
#[doc = catalogue_entry!("dyn_not_first", "Only the first dim may be `Dyn`: every stride stays a constant. Move the run-time size first (and `transpose` afterwards if needed).")]
#[doc = catalogue_entry!("dyn_against_static_rows", "A `Dyn` dim (named `RunTime` in the message) meets only another `Dyn` or a `One`: give the other operand a leading `One` or no leading dim, or make both `Dyn` (their rows are then checked at run time).")]
#[doc = catalogue_entry!("dyn_static_dims_clash", "Next to a `Dyn` dim, the static dims keep their compile-time rules: one error for the first pair that clashes.")]
#[doc = "\n## In place (PyTorch rule)\n"]
#[doc = catalogue_entry!("in_place_assign_would_grow_target", "The value must broadcast to the target's shape without changing it: use a bigger target, or write `tensor_expr!(value)` into a new tensor.")]
#[doc = catalogue_entry!("seed_002_in_place_would_grow_target", "As above: broadcasting the value would grow the target.")]
#[doc = catalogue_entry!("target_not_a_tensor", "Targets are `Tensor`, `HeapTensor` or `TensorViewMut` (or `&mut` to them).")]
#[doc = "\n## XLA broadcast dims (`in_dims`) and strict mode\n"]
#[doc = catalogue_entry!("in_dims_size_mismatch", "Each dim of the operand must equal the dim it is placed on, or be 1.")]
#[doc = catalogue_entry!("in_dims_wrong_length", "List one target dim per dim of the operand.")]
#[doc = catalogue_entry!("in_dims_out_of_range", "Each listed dim must be below the other operand's rank.")]
#[doc = catalogue_entry!("in_dims_order_reversed", "List the dims in strictly increasing order: the operand's dims are placed in their own order.")]
#[doc = catalogue_entry!("in_dims_duplicate", "Each operand dim maps to a different dim of the other operand.")]
#[doc = catalogue_entry!("in_dims_negative", "Dims are non-negative indices.")]
#[doc = catalogue_entry!("in_dims_on_both_sides", "Place only one side of an operation; the other side is what it is placed on.")]
#[doc = catalogue_entry!("in_dims_outside_binary_operation", "`in_dims` must be an operand of a binary operation, a two-argument function, or the value of `out += ...`.")]
#[doc = catalogue_entry!("strict_implicit_rank_promotion", "In `strict:` mode, place a lower-rank operand explicitly: `m + in_dims(v, [1])`.")]
#[doc = catalogue_entry!("strict_implicit_rank_promotion_ternary", "Every operand of `clamp` counts: place the lower-rank bound with `in_dims(hi, [1])`.")]
#[doc = catalogue_entry!("strict_implicit_rank_promotion_in_place", "The same for an in-place update: `out += in_dims(v, [1])`.")]
#[doc = catalogue_entry!("in_dims_error_in_context", "An `in_dims` mistake anywhere in an expression is one error, on its tuple.")]
#[doc = catalogue_entry!("strict_error_in_context", "The strict rank rule anywhere in an expression: one error, on the operator.")]
#[doc = catalogue_entry!("strict_rank_and_size_clash", "Ranks that differ are reported alone, even where the sizes would not broadcast either: place the operand with `in_dims`, and the sizes are checked there.")]
#[doc = catalogue_entry!("in_dims_same_rank", "`in_dims` binds to the other operand of its own operation; on one of its own rank it does nothing. Put the larger result in parentheses, `in_dims(n, [0]) + (n - d)`, or drop `in_dims`.")]
#[doc = "\n## Matrix products (`@`)\n"]
#[doc = catalogue_entry!("matmul_inner_dims_differ", "`(m, k) @ (k, n)`: the left operand's last dim must equal the right operand's second-to-last.")]
#[doc = catalogue_entry!("seed_004_matmul_inner_dims_differ", "Seed 004: `(1, 1, 3, 4) @ (2, 3, 5, 3)` contracts 4 against 5.")]
#[doc = catalogue_entry!("seed_004_matmul_batch_dims_incompatible", "The batch dims (all but the last two) broadcast like elementwise dims; 4 against 3 fails.")]
#[doc = catalogue_entry!("matmul_not_commutative", "`@` never swaps its operands: write them in the order that contracts.")]
#[doc = catalogue_entry!("matmul_vector_lengths_differ", "A dot product needs two vectors of the same length.")]
#[doc = catalogue_entry!("matmul_scalar_operand", "Scalars are not matrices: to scale, use `*`.")]
#[doc = catalogue_entry!("matmul_scalar_on_the_left", "Scalars are not matrices on either side of `@`; two scalars are reported once, by the left one.")]
#[doc = catalogue_entry!("matmul_result_does_not_fit_target", "The product's shape must fit the target under the in-place rule.")]
#[doc = catalogue_entry!("matmul_in_dims_operand", "`in_dims` places operands of elementwise operations; the batch dims of `@` broadcast by the NumPy rule.")]
#[doc = catalogue_entry!("nesting_too_deep", "Elementwise operations nest without limit, but products and reductions nest one type level each, and rustc builds about 60: bind an inner part to a `let`.")]
#[doc = catalogue_entry!("matmul_error_in_context", "A product inside a larger expression (under a function, as an operand of `+` or of another `@`, inside a reduction, after `+=`) is still one error, on its `@`.")]
#[doc = catalogue_entry!("matmul_batch_error_in_context", "The same for batch dims that do not broadcast.")]
#[doc = "\n## Reductions, transposes and reshapes\n"]
#[doc = catalogue_entry!("reduce_axis_out_of_range", "Axes count from 0 (outermost) to rank - 1, or from -1 (innermost) to -rank: a `[2, 3]` shape has axes 0 and 1 (or -2 and -1).")]
#[doc = catalogue_entry!("reduce_axis_listed_twice", "List each axis once.")]
#[doc = catalogue_entry!("reduce_axis_repeated_from_the_end", "`1` and `-1` are the same dim of a rank-2 shape: list it once.")]
#[doc = catalogue_entry!("syntax_as_cast", "`as` is Rust's, not the macro's: inside an expression write `cast::<U>(x)` (`as` per element) or `saturating_cast::<U>(x)`.")]
#[doc = catalogue_entry!("shift_of_floats", "`>>` and `<<` shift integers (as Rust's); scale a float by a power of two with `*` instead.")]
#[doc = catalogue_entry!("conv_channels_mismatch", "The weight of `conv2d` is `[C_out, C_in / groups, kH, kW]`: its second dim must be the input's channels divided by `groups`. The message names the three counts.")]
#[doc = catalogue_entry!("conv_zero_point_not_a_scalar", "A convolution or pool reads its input in place: a contiguous operand, `cast::<U>(x)` of one, or that plus or minus one value (a zero point: a literal or a scalar operand). Copy a strided view first (`.to_tensor()`); evaluate a per-channel offset into the input first.")]
#[doc = catalogue_entry!("conv_groups_do_not_divide", "`groups` must divide the output channels (the weight's first dim) as well as the input's.")]
#[doc = catalogue_entry!("conv_in_channels_not_divisible_by_groups", "`groups` must divide the input's channels: 3 channels in 2 groups is reported as the weight's per-group count (1) times the groups (2) not matching them (3).")]
#[doc = catalogue_entry!("conv_kernel_larger_than_input", "A kernel spans `dilation * (k - 1) + 1` elements, at most the input's size plus the padding on both sides.")]
#[doc = catalogue_entry!("conv_dilation_leaves_no_output", "The same on one dim of two: a dilation of 5 makes a 3-tap kernel span 11 columns of an 8-wide input padded by 1 on each side (10).")]
#[doc = catalogue_entry!("conv_wrong_rank", "`conv2d` takes `[N, C, H, W]` or `[C, H, W]` (and `conv1d` `[N, C, L]` or `[C, L]`).")]
#[doc = catalogue_entry!("conv_padding_side_not_a_pair", "A padding per side is `[before, after]` for each spatial dim: `padding = [[top, bottom], [left, right]]`.")]
#[doc = catalogue_entry!("conv_transpose_channels_mismatch", "The weight of `conv_transpose2d` is `[C_in, C_out / groups, kH, kW]` (PyTorch's), the other way round from `conv2d`'s: its first dim is the input's channels.")]
#[doc = catalogue_entry!("conv_transpose_output_padding_too_large", "`output_padding` picks one of the `stride` output sizes that map to the same input size, so it is smaller than the stride (or the dilation), as PyTorch requires.")]
#[doc = catalogue_entry!("conv_transpose_padding_crops_everything", "A transposed convolution's `padding` crops its full output, `(L - 1) * stride + dilation * (k - 1) + output_padding + 1` long, on both sides; it must leave at least one position.")]
#[doc = catalogue_entry!("conv_transpose_wrong_rank", "`conv_transpose2d` takes `[N, C, H, W]` or `[C, H, W]` (and `conv_transpose1d` `[N, C, L]` or `[C, L]`), as `conv2d` does.")]
#[doc = catalogue_entry!("conv_stride_zero", "Strides and dilations are positive; the macro reports a 0 on the value.")]
#[doc = catalogue_entry!("conv_unknown_padding_keyword", "`padding` takes sizes, `same` or `valid`; the error lists them on the value.")]
#[doc = catalogue_entry!("pool_padding_over_half_the_kernel", "A pool pads each side by at most half its kernel (as PyTorch requires), so that no window lies wholly in the padding; the macro reports it on the padding.")]
#[doc = catalogue_entry!("pool_count_include_pad_not_a_boolean", "`count_include_pad` is `true` (the default, as PyTorch's) or `false`, written as those words.")]
#[doc = catalogue_entry!("requantize_multipliers_of_the_wrong_length", "Per-channel multipliers and shifts broadcast along the accumulator's last dim: give one per output channel.")]
#[doc = catalogue_entry!("pool_kernel_larger_than_input", "A pool's kernel must fit the (padded) input, as a convolution's: the same message names the sizes.")]
#[doc = catalogue_entry!("windows_longer_than_the_axis", "`windows::<AXIS, SIZE, STEP>()` needs SIZE at most the axis's size; the error names both.")]
#[doc = catalogue_entry!("windows_step_zero", "Windows start every STEP positions, so STEP is at least 1.")]
#[doc = catalogue_entry!("softmax_axis_out_of_range", "`softmax`, `log_softmax`, `logsumexp` and `norm` take their axes as a reduction does, and report them the same way, on the list.")]
#[doc = catalogue_entry!("softmax_of_integers", "`softmax`, `log_softmax`, `logsumexp` and `norm` need `f32` or `f64` elements: the error names the float function they are defined with.")]
#[doc = catalogue_entry!("softmax_without_axes", "`softmax(x, [axes])` and `log_softmax` need their axes (PyTorch's `dim`); `logsumexp` and `norm` default to every axis.")]
#[doc = catalogue_entry!("broadcast_reduction_without_keepdim", "The same under a function or a factor: the error asks for `keepdim` wherever a reduction's dropped dims meet another operand.")]
#[doc = catalogue_entry!("reduce_without_keepdim_does_not_broadcast", "Without `keepdim` the reduced dims are dropped, and the result aligns on the right: write `mean(x, [1], keepdim)` to broadcast it back over `x`.")]
#[doc = catalogue_entry!("permute_not_a_permutation", "List every dim of the operand exactly once, in the order the result reads them.")]
#[doc = catalogue_entry!("permute_wrong_rank", "Give one entry per dim of the operand.")]
#[doc = catalogue_entry!("scalar_operand_of_an_axes_rule", "A scalar has no axes: reduce, transpose or permute a tensor of rank 1 or more.")]
#[doc = catalogue_entry!("flip_axis_out_of_range", "`flip`, `cumsum` and `cumprod` take axes as the reductions do: each a dim of the operand, listed once.")]
#[doc = catalogue_entry!("cumsum_without_axis", "`cumsum` and `cumprod` need their axis (PyTorch's `dim`): `cumsum(x, [1])`.")]
#[doc = catalogue_entry!("triangle_of_a_vector", "`tril` and `triu` keep a triangle of each matrix (the last two dims): make a vector a matrix first (`reshape::<Shape![1, 3]>(v)`).")]
#[doc = catalogue_entry!("embedding_table_not_a_matrix", "`embedding(ids, table)` reads row `id` of a `[V, D]` table: give it a matrix.")]
#[doc = catalogue_entry!("gather_ids_as_an_expression", "Ids are integers of their own type, read where stored: bind the expression to a tensor first (`let next = tensor_expr!(ids + 1);`).")]
#[doc = catalogue_entry!("index_select_axis_beyond_rank", "`index_select(x, ids, [axis])` selects along a dim of `x`: axes count from 0 to rank - 1.")]
#[doc = catalogue_entry!("index_select_ids_not_a_vector", "`index_select` takes a vector of ids; for ids of any shape along the rows of a matrix use `embedding(ids, table)`.")]
#[doc = catalogue_entry!("gather_index_of_another_rank", "`gather`'s index has the input's rank (as `torch.gather`'s); for one id per row of a matrix use `embedding`, for one per slice `index_select`.")]
#[doc = catalogue_entry!("narrow_as_target", "`narrow`, `at`, `index_axis` and `windows` give read-only views: assign into `y.narrow_mut::<0, 1, 2>()` or `y.at_mut(i)`, writable views of a contiguous block.")]
#[doc = catalogue_entry!("transpose_vector", "`transpose` swaps the last two dims; make a vector a matrix first (`reshape::<Shape![1, 3]>(v)`).")]
#[doc = catalogue_entry!("reshape_element_counts_differ", "The target shape must have as many elements as the operand (8 x 64 = 512 here, not 576).")]
#[doc = catalogue_entry!("reshape_dim_beyond_typenum", "Element counts are compared with typenum, which counts dims up to 4096 and powers of 2 and 10: reshape through such dims, or copy with `try_from_slice`, checked when the program runs.")]
#[doc = catalogue_entry!("conv_input_beyond_4096", "A convolution computes its result's sizes with typenum, over dims up to 4096 and powers of 2 and 10: the error names the dim beyond them. Convolve a long signal in parts (`narrow::<AXIS, START, LEN>()`).")]
#[doc = catalogue_entry!("pool_input_beyond_4096", "Pools compute sizes as convolutions do, with the same error.")]
#[doc = catalogue_entry!("conv_transpose_input_beyond_4096", "Transposed convolutions compute sizes as convolutions do, with the same error.")]
#[doc = catalogue_entry!("windows_axis_beyond_4096", "`windows` counts its windows the same way, with the same error inside `tensor_expr!` (outside it, a method call's is rustc's E0599, naming `SizeTable: Holds<16000>`). Frame a long signal in parts of at most 4096: `narrow::<0, START, LEN>()`, then `windows`.")]
#[doc = catalogue_entry!("reduce_axis_error_in_context", "A bad axis list anywhere in an expression: one error, on the list.")]
#[doc = catalogue_entry!("permute_error_in_context", "A bad permutation anywhere in an expression: one error, on the list.")]
#[doc = catalogue_entry!("reshape_error_in_context", "A reshape that changes the element count, anywhere: one error, on `reshape`.")]
#[doc = "\n## Element types\n"]
#[doc = catalogue_entry!("element_types_mixed", "One element type per expression (the first operand's or the target's): convert the others with `cast::<U>(..)`.")]
#[doc = catalogue_entry!("float_function_on_integers", "`exp`, `ln`, `sqrt`, `sin`, `cos`, `tanh`, `sigmoid`, `pow` need `f32` or `f64` elements.")]
#[doc = catalogue_entry!("float_literal_on_integers", "Write an integer literal, or use float elements.")]
#[doc = catalogue_entry!("negate_unsigned", "Negation and `abs` need a signed element type.")]
#[doc = catalogue_entry!("not_an_operand", "Operands are tensors, views or element scalars; call your own functions in a block, `{ f(&x) }`, that returns one.")]
#[doc = catalogue_entry!("float_function_error_in_context", "A float function on integers, anywhere: one error, on the function's name.")]
#[doc = catalogue_entry!("element_types_error_in_context", "Mixed element types, anywhere: one error, on the operand of the other type.")]
#[doc = catalogue_entry!("element_types_of_read_operands", "The same for an operand read through `transpose`, `permute`, `reshape` or `in_dims`, or written in place.")]
#[doc = catalogue_entry!("element_types_scalar", "A scalar of another type: drop the literal's suffix (`2.0`), or convert the value (`2.0f64 as f32`). (A longer error: a scalar is an operand of its own type only, so that an untyped variable takes the expression's type.)")]
#[doc = catalogue_entry!("quantized_softmax_without_shift", "`quantized_softmax` takes the logits, the multiplier and shift of `element::softmax_multiplier(input_scale, beta)`, then the axes.")]
#[doc = catalogue_entry!("requantize_of_floats", "`requantize` is TFLite's fixed-point step over `i32` accumulators; in float, write `round(acc * scale)`.")]
#[doc = catalogue_entry!("cast_result_mixed", "A cast gives the type it names, which must be the expression's: `scale * cast::<f32>(x)` over `f32`.")]
#[doc = catalogue_entry!("cast_to_non_element", "`cast::<U>` and `saturating_cast::<U>` convert to element types only.")]
#[doc = catalogue_entry!("cast_without_type", "A cast names its type: `cast::<i32>(x)`.")]
#[doc = catalogue_entry!("cast_misspelt", "A misspelt function or operation name suggests the nearest one.")]
#[doc = "\n## Linear algebra\n"]
#[doc = catalogue_entry!("linalg_not_square", "`inv`, `det` and `cholesky` take a square matrix `[n, n]` or a batch of them `[B, n, n]`.")]
#[doc = catalogue_entry!("linalg_solve_mismatched", "`solve(a, b)` takes `b` with as many rows as `a`: `[n]` or `[n, m]` for `a` of `[n, n]`.")]
#[doc = "\n## Static slices\n"]
#[doc = catalogue_entry!("slice_axis_out_of_range", "`index_axis`, `index_axis_keepdim` and `narrow` take an axis below the rank (0 is the outermost).")]
#[doc = catalogue_entry!("slice_strided_into_transpose", "A slice along an inner axis is strided; `transpose`, `permute`, `reshape` and `in_dims` need contiguous data: copy it with `.to_tensor()`, or slice along axis 0 with `at`.")]
#[doc = catalogue_entry!("stack_mismatched_shapes", "`stack` joins tensors of one shape; `concat(Axis::<k>, &a, &b)` joins shapes that differ at axis k (its shape errors, like a `narrow` past the end or an `argmax` over an empty axis, are reported by `cargo build`).")]
#[doc = "\n## Index reductions\n"]
#[doc = catalogue_entry!("argmax_inside_an_expression", "`argmax` and `argmin` give `usize` positions, not values: they stand only around the whole expression, `tensor_expr!(argmax(e, [1]))`; bind the result with `let` to use it further.")]
#[doc = catalogue_entry!("argmax_axis_out_of_range", "The axis is below the rank of the value it scans (0 is the outermost).")]
#[doc = catalogue_entry!("argmax_two_axes", "One axis per index reduction, as in NumPy.")]
#[doc = "\n## Programs (`#[tensor_expr::program]`)\n"]
#[doc = catalogue_entry!("program_over_its_ram_budget", "The arena the plan needs exceeds `ram <= N` (reported by `cargo check`): the message names the statement where the most bytes are alive and the tensors alive there; end a tensor's use sooner, or split a layer.")]
#[doc = catalogue_entry!("program_in_place_over_its_ram_budget", "The same where a result is written in the bytes of a tensor it reads last (an elementwise result, or an int8 layer over its input): the two are one entry, named `b over a` at the statement that writes `b`.")]
#[doc = catalogue_entry!("program_stage_over_its_ram_budget", "The same where a statement's stage (a part it evaluates first, such as `a @ b` in `a @ b @ a`) is alive at the peak: it is named `stage N of` the statement's tensor and counts as a tensor alive while that statement runs; end other tensors sooner, or split the work.")]
#[doc = catalogue_entry!("program_borrow_outlives_its_tensor", "A program's tensor ends after the last statement that names it, and a later tensor takes its bytes: copy a value out (`let first = a[[0]];`) instead of keeping a reference.")]
#[doc = catalogue_entry!("program_borrow_outlives_a_shadowed_tensor", "The same where a `let` rebinds the name: the old tensor ends as the new one is bound.")]
#[doc = catalogue_entry!("program_generic", "A program's arena size is a constant of its types: write one program per element type.")]
#[doc = catalogue_entry!("program_run_time_rows", "A program's tensors have static shapes; compute a `Dyn` batch outside it.")]
#[doc = "\n## Syntax\n"]
#[doc = catalogue_entry!("syntax_empty_input", "Write an expression: `tensor_expr!(a + b)` or `tensor_expr!(out = a + b)`.")]
#[doc = catalogue_entry!("syntax_missing_operand", "Every operator needs an operand on each side.")]
#[doc = catalogue_entry!("syntax_trailing_tokens", "One expression per call; remove what follows it.")]
#[doc = catalogue_entry!("comparisons_do_not_chain", "`a < b < c` is not a range test (as in Rust): parenthesise, or multiply the masks, `(a < b) * (b < c)`.")]
#[doc = catalogue_entry!("syntax_in_place_not_at_start", "`+=` and friends are statements: `tensor_expr!(out += e)`, with the target first.")]
#[doc = catalogue_entry!("unknown_function", "Use a function of the table (the message lists them and suggests the closest), or call your own in a block.")]
#[doc = catalogue_entry!("unknown_names_across_kinds", "Reductions and structural calls are suggested too, each error on the misspelt name.")]
#[doc = catalogue_entry!("wrong_arity", "The message gives the function's signature.")]
#[doc = "\n## Implementing the crate's sealed traits\n"]
#[doc = catalogue_entry!("dim_implemented_outside_the_crate", "`Dim` is sealed: its implementations are `D<N>` and `One`, which `Shape!` writes. Unsafe code relies on a dim's storage being `[X; SIZE]`.")]
#[doc = "\n## `tensor!` literals\n"]
#[doc = catalogue_entry!("tensor_ragged", "Every row of a nested literal has the same length.")]
#[doc = catalogue_entry!("tensor_mixed_nesting", "Nest every element to the same depth.")]
pub mod errors {}

/// The README's code blocks, compiled and run as doctests (`cargo test
/// --doc`), so the README cannot show code that does not compile.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// Used by the code `tensor_expr!` generates, and the implementation of the
/// compile-time error messages; not a public API, and not covered by
/// semantic versioning.
#[doc(hidden)]
pub use tensor_expr_runtime as __private;
