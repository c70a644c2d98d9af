//! `quantized_softmax(x, multiplier, shift, [axes])`: TFLite's int8
//! `SOFTMAX`, byte for byte as TFLite Micro's reference kernel computes
//! it. `x` holds int8 logits; the result is int8 probabilities of scale
//! 1/256 and zero point -128 (the output TFLite requires), each slice along
//! the axes summing to about 1. `(multiplier, shift)` is
//! [`softmax_multiplier`](crate::element::softmax_multiplier)`(input_scale,
//! beta)`, TFLite Micro's Prepare (two `i32`; other integers are converted
//! as `cast::<i32>` converts them).
//!
//! TFLite's algorithm, in gemmlowp's fixed point
//! ([`fixed_point`](crate::fixed_point)): each logit less its slice's
//! maximum, scaled to Q5.26, through `exp_on_negative_values` (0 below
//! TFLite's `diff_min`); the exponentials, each rounded to Q12.19, summed;
//! each exponential times the sum's fixed-point reciprocal, rounded to
//! units of 1/256; less 128, saturated to int8.
//!
//! Defined by that expression, so it fuses and shares as the written-out
//! form: one pass for the maximum, one that fills the exponentials and
//! their sum, then the scaling as the row is stored.
//!
//! One slice by hand, the functions the definition calls:
//!
//! ```
//! use tensor_expr_runtime::element::{softmax_multiplier, Accumulator};
//! let logits: [i32; 4] = [10, 10, -20, 127];
//! let (m, s) = softmax_multiplier(0.05, 1.0);
//! let max = 127;
//! let exps = logits.map(|x| (x - max).softmax_exp(m, s));
//! let sum: i32 = exps.iter().map(|e| e.rounding_shr(12)).sum();
//! let p = exps.map(|e| (e.softmax_scale(sum) - 128).clamp(-128, 127));
//! // e^(0.05 (x - 127)) / sum in units of 1/256, less 128.
//! assert_eq!(p, [-127, -127, -128, 126]);
//! ```

use super::{Build, Dims, Operation, Reads, Signature};

/// The table entry of `quantized_softmax(x, multiplier, shift, [axes])`.
pub const OPERATION: Operation = Operation {
    name: "quantized_softmax",
    signature: Signature {
        dims: Dims::AxisList,
        ..Signature::of(3)
    },
    reads: Reads::AsDefined,
    build: Build::Composite(
        "saturating_cast::<i8>(softmax_scale(\
            softmax_exp(cast::<i32>(x) - max(cast::<i32>(x), keepdim), cast::<i32>(y), cast::<i32>(z)), \
            sum(rounding_shr(softmax_exp(cast::<i32>(x) - max(cast::<i32>(x), keepdim), cast::<i32>(y), cast::<i32>(z)), 12), keepdim)\
         ) - 128)",
    ),
    elements: "Integer",
    summary: "TFLite's int8 softmax over the axes: int8 probabilities of scale 1/256, zero point -128.",
    forms: &["quantized_softmax(x, multiplier, shift, [axes])"],
};
