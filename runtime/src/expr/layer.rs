//! An int8 layer read off an expression's tree: the sums of an int8
//! convolution through TFLite's requantising epilogue into `i8`, as the
//! README's int8 recipe writes a layer:
//!
//! ```text
//! saturating_cast::<i8>(max(requantize(conv2d(..) + bias, m, s) + zy, lo))
//! ```
//!
//! Each node of such a chain adds its step to the [`Requantization`] its
//! child gives ([`Expr::int8_layer`](super::Expr::int8_layer)), and the
//! root hands the whole layer to the int8 kernels, which apply the steps to
//! each tile's sums in registers and store the bytes, compiled once in the
//! runtime (oneDNN's and BLIS's post-ops): no buffer of `i32` sums, no
//! per-expression epilogue, and none of the nest's stack. Where the
//! kernels decline (no VNNI, no allocator for the packed weights), the
//! expression's own nest computes the same values.
//!
//! Which trees are such a layer is known from their types ([`Stage`], the
//! [`Own::layer`](super::Own) of each node), so every other expression
//! compiles none of this; the operands' values (a per-channel bias, a
//! scalar zero point) are read at run time, where a tree whose operands do
//! not fit gives no layer.

use crate::scratch::Scratch;
use core::mem::MaybeUninit;

/// How much of an int8 layer's chain a subtree is, from its sums up
/// (the order TFLite's kernels apply the steps in). A tree that strays from
/// the order (a bias after the requantisation, a zero point after a clamp)
/// is [`Stage::None`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// No int8 layer.
    None,
    /// An int8 convolution's `i32` sums.
    Sums,
    /// The sums plus a bias.
    Biased,
    /// Requantised (`requantize`), with constants added after it or not.
    Requantized,
    /// Clamped (`max`, `min`, `clamp`, `relu`) after the requantisation.
    Clamped,
    /// Narrowed to `i8` (`saturating_cast::<i8>`): the whole layer.
    Stored,
}

impl Stage {
    /// The stage of `child + c` (`sign` 1) or `child - c` (`sign` -1): a
    /// bias on the sums, a zero point on the requantised values.
    pub const fn offset(self, sign: i32) -> Stage {
        match (self, sign) {
            (Stage::Sums, 1) => Stage::Biased,
            (Stage::Requantized, 1 | -1) => Stage::Requantized,
            _ => Stage::None,
        }
    }

    /// The stage of a requantisation of `child`.
    pub const fn requantized(self) -> Stage {
        match self {
            Stage::Sums | Stage::Biased => Stage::Requantized,
            _ => Stage::None,
        }
    }

    /// The stage of a clamp of `child` from below or above.
    pub const fn clamped(self) -> Stage {
        match self {
            Stage::Requantized | Stage::Clamped => Stage::Clamped,
            _ => Stage::None,
        }
    }

    /// The stage of `child` narrowed to `i8` by `saturating_cast`.
    pub const fn stored(self) -> Stage {
        match self {
            Stage::Requantized | Stage::Clamped => Stage::Stored,
            _ => Stage::None,
        }
    }

    /// The stage of a function's node over a child at `self`, by the
    /// function's [`LayerStep`] (`offset_sign` for `+` and `-`); only
    /// `i32` elements (`is_i32`) carry a layer.
    pub const fn after(self, step: LayerStep, offset_sign: i32, is_i32: bool) -> Stage {
        if !is_i32 {
            return Stage::None;
        }
        match step {
            LayerStep::Requantize => self.requantized(),
            LayerStep::Max | LayerStep::Min | LayerStep::Clamp | LayerStep::Relu => self.clamped(),
            LayerStep::None if offset_sign != 0 => self.offset(offset_sign),
            LayerStep::None => Stage::None,
        }
    }
}

/// What an elementwise function does as a step of an int8 layer's
/// epilogue (`BinaryFunction::LAYER_STEP` and the others'): nothing for
/// every function but these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerStep {
    /// Not a step (`+` and `-` are, by their offset sign).
    None,
    /// `requantize(x, multiplier, shift)`.
    Requantize,
    /// `max(x, lo)`.
    Max,
    /// `min(x, hi)`.
    Min,
    /// `clamp(x, lo, hi)`.
    Clamp,
    /// `relu(x)`: `max(x, 0)`.
    Relu,
}

/// A parameter of the epilogue: one value for every channel, or each
/// channel's (at least the layer's output channels of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerChannel<'a> {
    /// The same value for every channel.
    All(i32),
    /// Channel `c`'s value at `[c]`.
    Each(&'a [i32]),
}

impl PerChannel<'_> {
    /// Channel `c`'s value (0 past the values given).
    #[inline(always)]
    pub fn at(self, c: usize) -> i32 {
        match self {
            PerChannel::All(value) => value,
            PerChannel::Each(values) => values.get(c).copied().unwrap_or(0),
        }
    }

    /// Whether it gives a value for each of `channels` channels.
    #[inline(always)]
    pub fn covers(self, channels: usize) -> bool {
        match self {
            PerChannel::All(_) => true,
            PerChannel::Each(values) => values.len() >= channels,
        }
    }
}

/// An int8 layer's epilogue, TFLite's: each output channel `c`'s sum
/// `acc` becomes `min(max(requantize(acc + bias[c], multiplier[c],
/// shift[c]) + offset, lo), hi)`, stored as `i8` (`lo` and `hi` within its
/// range, the saturation included). The `+` is `i32`'s wrapping add, as a
/// release build computes the expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requantization<'a> {
    /// Added to the sums.
    pub bias: PerChannel<'a>,
    /// `requantize`'s multiplier (Q31).
    pub multiplier: PerChannel<'a>,
    /// `requantize`'s shift (left where positive).
    pub shift: PerChannel<'a>,
    /// Added to the requantised value (the output's zero point).
    pub offset: i32,
    /// The clamp's lower bound, applied first.
    pub lo: i32,
    /// The clamp's upper bound, applied after `lo`.
    pub hi: i32,
}

impl<'a> Requantization<'a> {
    /// The sums as they are: the epilogue of [`Stage::Sums`].
    pub const SUMS: Requantization<'static> = Requantization {
        bias: PerChannel::All(0),
        multiplier: PerChannel::All(0),
        shift: PerChannel::All(0),
        offset: 0,
        lo: i32::MIN,
        hi: i32::MAX,
    };

    /// Then `max(x, value)`.
    #[inline(always)]
    pub fn max(self, value: i32) -> Self {
        Requantization {
            lo: self.lo.max(value),
            hi: self.hi.max(value),
            ..self
        }
    }

    /// Then `min(x, value)`.
    #[inline(always)]
    pub fn min(self, value: i32) -> Self {
        Requantization {
            hi: self.hi.min(value),
            ..self
        }
    }

    /// Channel `c`'s value from the sum `acc`: the definition the kernels
    /// compute in vectors.
    ///
    /// ```
    /// use tensor_expr_runtime::expr::{PerChannel, Requantization};
    /// // requantize(acc + 100, 2^30, -1) - 128, then max(.., -120), then
    /// // the saturation of `saturating_cast::<i8>`.
    /// let layer = Requantization {
    ///     bias: PerChannel::All(100),
    ///     multiplier: PerChannel::All(1 << 30),
    ///     shift: PerChannel::All(-1),
    ///     offset: -128,
    ///     ..Requantization::SUMS
    /// }
    /// .max(-120)
    /// .max(-128)
    /// .min(127);
    /// // (900 + 100) * 0.5 / 2 = 250, less 128.
    /// assert_eq!(layer.apply(900, 0), 122);
    /// // (-1100 + 100) / 4 = -250, less 128, clamped.
    /// assert_eq!(layer.apply(-1100, 0), -120);
    /// // Crossed clamps: `max(.., 20)` then `min(.., 10)` is 10.
    /// assert_eq!(layer.max(20).min(10).apply(0, 0), 10);
    /// ```
    #[inline(always)]
    pub fn apply(&self, acc: i32, c: usize) -> i32 {
        let scaled = crate::fixed_point::multiply_by_quantized_multiplier(
            acc.wrapping_add(self.bias.at(c)),
            self.multiplier.at(c),
            self.shift.at(c),
        );
        scaled.wrapping_add(self.offset).max(self.lo).min(self.hi)
    }
}

/// What computes an int8 layer's sums and stores them through its
/// epilogue: the int8 convolution's node.
pub trait Int8Source {
    /// Writes the layer's output (`i8`, in the node's own layout) into
    /// `out` through `epilogue`, the kernels' buffers from `scratch` where
    /// it holds them; false, `out` untouched, where the int8 kernels do not
    /// run here (no VNNI, no allocator) or `out` is not the output's
    /// length.
    fn store(
        &self,
        epilogue: &Requantization<'_>,
        out: &mut [MaybeUninit<i8>],
        scratch: &mut Scratch<'_>,
    ) -> bool;

    /// Writes the layer's output over its input, `data`, where the node
    /// reads its destination ([`crate::ops::conv::inputs::Destination`]) and the
    /// int8 kernels store the layer so; false, `data` untouched, where
    /// they do not.
    fn store_over_input(
        &self,
        epilogue: &Requantization<'_>,
        data: &mut [i8],
        scratch: &mut Scratch<'_>,
    ) -> bool;
}

/// An int8 layer ([`Stage::Stored`]): its sums' source and its epilogue.
pub struct Int8Layer<'a> {
    /// The node that sums.
    pub source: &'a dyn Int8Source,
    /// What the sums go through.
    pub epilogue: Requantization<'a>,
    /// The output's dim along which the channels run: the last channels
    /// last, the one after the batch channels first.
    pub channel_axis: usize,
}

impl core::fmt::Debug for Int8Layer<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Int8Layer")
            .field("epilogue", &self.epilogue)
            .field("channel_axis", &self.channel_axis)
            .finish_non_exhaustive()
    }
}

impl<'a> Int8Layer<'a> {
    /// The layer with one more step of its epilogue (a node's above the
    /// child that gave it), where `step` gives one from the epilogue so
    /// far and the channels' dim ([`Self::channel_axis`]).
    #[inline(always)]
    pub fn then(
        self,
        step: impl FnOnce(Requantization<'a>, usize) -> Option<Requantization<'a>>,
    ) -> Option<Self> {
        Some(Int8Layer {
            epilogue: step(self.epilogue, self.channel_axis)?,
            ..self
        })
    }

    /// Stores the layer into `out` through the int8 kernels, their
    /// buffers from `scratch` where it holds them; false where they
    /// decline ([`Int8Source::store`]).
    #[inline(always)]
    pub fn store(&self, out: &mut [MaybeUninit<i8>], scratch: &mut Scratch<'_>) -> bool {
        self.source.store(&self.epilogue, out, scratch)
    }

    /// Stores the layer over its input, `data`, through the int8 kernels;
    /// false where they decline ([`Int8Source::store_over_input`]).
    #[inline(always)]
    pub fn store_over_input(&self, data: &mut [i8], scratch: &mut Scratch<'_>) -> bool {
        self.source.store_over_input(&self.epilogue, data, scratch)
    }
}
