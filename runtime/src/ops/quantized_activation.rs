//! `quantized_sigmoid(x, multiplier, shift)` and `quantized_tanh(x,
//! multiplier, shift)`: TFLite's int8 `LOGISTIC` and `TANH`, byte for byte
//! as TFLite Micro's reference kernels compute them. `x` is the int8 input
//! less its zero point (`cast::<i32>(x) - zx`); the result is int8 of the
//! scale and zero point TFLite requires: 1/256 and -128 for the logistic,
//! 1/128 and 0 for tanh. `(multiplier, shift)` is
//! [`sigmoid_multiplier`](crate::element::sigmoid_multiplier)`(input_scale)`
//! (or [`tanh_multiplier`](crate::element::tanh_multiplier), the same),
//! TFLite Micro's Prepare.
//!
//! TFLite's algorithm, in gemmlowp's fixed point
//! ([`fixed_point`](crate::fixed_point)): the input scaled to Q4.27,
//! `logistic` or `tanh` of it (gemmlowp's: `exp_on_negative_values` and a
//! Newton-Raphson division), rounded to units of the output's scale; an
//! input beyond TFLite's radius (where Q4.27 would overflow) saturates.
//! Elementwise, so they fuse with what reads them.
//!
//! ```
//! use tensor_expr_runtime::element::{sigmoid_multiplier, Accumulator};
//! let (m, s) = sigmoid_multiplier(0.0625);
//! // x = 16 units of 1/16 above the zero point: logistic(1) = 0.7311,
//! // 187 units of 1/256, less 128.
//! assert_eq!(16.sigmoid_int8(m, s), 59);
//! ```

use super::{Build, Operation, Reads, Signature};

/// The table entry of `name(x, multiplier, shift)`: three inputs, no list,
/// defined as `definition`.
const fn entry(
    name: &'static str,
    definition: &'static str,
    summary: &'static str,
    forms: &'static [&'static str],
) -> Operation {
    Operation {
        name,
        signature: Signature::of(3),
        reads: Reads::AsDefined,
        build: Build::Composite(definition),
        elements: "Integer",
        summary,
        forms,
    }
}

/// The table entry of `quantized_sigmoid(x, multiplier, shift)`.
pub const SIGMOID: Operation = entry(
    "quantized_sigmoid",
    "saturating_cast::<i8>(sigmoid_int8(cast::<i32>(x), cast::<i32>(y), cast::<i32>(z)))",
    "TFLite's int8 logistic of `x` less its zero point: int8 of scale 1/256, zero point -128.",
    &["quantized_sigmoid(x, multiplier, shift)"],
);

/// The table entry of `quantized_tanh(x, multiplier, shift)`.
pub const TANH: Operation = entry(
    "quantized_tanh",
    "saturating_cast::<i8>(tanh_int8(cast::<i32>(x), cast::<i32>(y), cast::<i32>(z)))",
    "TFLite's int8 tanh of `x` less its zero point: int8 of scale 1/128, zero point 0.",
    &["quantized_tanh(x, multiplier, shift)"],
);
