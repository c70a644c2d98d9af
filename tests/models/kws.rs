//! MLPerf Tiny's keyword-spotting model (the int8 DS-CNN of mlcommons/tiny)
//! written as `tensor_expr!` statements, one per TFLite operator, its
//! parameters read from `tests/vectors/kws.txt` (`tests/vectors/kws.py`
//! writes them from the `.tflite` file). Shared by `tests/kws.rs`, which
//! compares its outputs with TFLite Micro's byte for byte, and
//! `benches/kws.rs`, which times it.

use tensor_expr::element::softmax_multiplier;
use tensor_expr::prelude::*;

/// The model's input: 49 frames of 10 MFCC features, one channel.
pub type Input = Shape![1, 49, 10, 1];
/// The feature maps between the layers.
pub type Maps = Shape![1, 25, 5, 64];
/// The 12 classes.
pub type Classes = Shape![1, 12];

/// The text of the vectors.
const TEXT: &str = include_str!("../vectors/kws.txt");

/// The values of line `key` of the vectors.
pub fn values(key: &str) -> Vec<i64> {
    let line = TEXT
        .lines()
        .find(|line| line.split(' ').next() == Some(key))
        .unwrap_or_else(|| panic!("no {key} in kws.txt"));
    line.split(' ')
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect()
}

fn i8s(key: &str) -> Vec<i8> {
    values(key)
        .into_iter()
        .map(|v| i8::try_from(v).unwrap())
        .collect()
}

fn i32s(key: &str) -> Vec<i32> {
    values(key)
        .into_iter()
        .map(|v| i32::try_from(v).unwrap())
        .collect()
}

/// One layer's requantisation: bias, per-channel multiplier and shift,
/// zero points, the fused RELU's lower bound.
pub struct Requantize<const C: usize>
where
    Shape![C]: Shape,
{
    bias: Tensor<i32, Shape![C]>,
    m: Tensor<i32, Shape![C]>,
    s: Tensor<i32, Shape![C]>,
    zx: i32,
    zy: i32,
    lo: i32,
}

impl<const C: usize> Requantize<C>
where
    Shape![C]: Shape,
{
    fn load(layer: &str) -> Self {
        let tensor = |key: &str| Tensor::try_from_slice(&i32s(&format!("{layer}.{key}"))).unwrap();
        let scalar = |key: &str| i32s(&format!("{layer}.{key}"))[0];
        Requantize {
            bias: tensor("bias"),
            m: tensor("multiplier"),
            s: tensor("shift"),
            zx: scalar("zx"),
            zy: scalar("zy"),
            lo: scalar("min"),
        }
    }
}

/// A layer's weights of shape `W` and its requantisation of `C` channels.
type Layer<W, const C: usize> = (Tensor<i8, W>, Requantize<C>);

/// A depthwise layer and the pointwise layer after it.
struct Block {
    depthwise: Layer<Shape![64, 3, 3, 1], 64>,
    pointwise: Layer<Shape![64, 1, 1, 64], 64>,
}

/// The model's parameters.
pub struct Kws {
    first: Layer<Shape![64, 10, 4, 1], 64>,
    blocks: [Block; 4],
    dense: Layer<Shape![64, 12], 12>,
    softmax: (i32, i32),
}

impl Kws {
    /// The parameters from the vectors.
    pub fn load() -> Kws {
        let weights = |layer: usize| i8s(&format!("{layer}.w"));
        let block = |k: usize| Block {
            depthwise: (
                Tensor::try_from_slice(&weights(2 * k + 1)).unwrap(),
                Requantize::load(&(2 * k + 1).to_string()),
            ),
            pointwise: (
                Tensor::try_from_slice(&weights(2 * k + 2)).unwrap(),
                Requantize::load(&(2 * k + 2).to_string()),
            ),
        };
        let scale: f32 = TEXT
            .lines()
            .find_map(|line| line.strip_prefix("softmax.scale "))
            .unwrap()
            .parse()
            .unwrap();
        Kws {
            first: (
                Tensor::try_from_slice(&weights(0)).unwrap(),
                Requantize::load("0"),
            ),
            blocks: [block(0), block(1), block(2), block(3)],
            dense: (
                Tensor::try_from_slice(&i8s("fc.w")).unwrap(),
                Requantize::load("fc"),
            ),
            softmax: softmax_multiplier(scale, 1.0),
        }
    }

    /// The dense layer's outputs (the logits) and the softmax's, as TFLite
    /// Micro computes them.
    pub fn run(&self, x: &Tensor<i8, Input>) -> (Tensor<i8, Classes>, Tensor<i8, Classes>) {
        let (w, q) = &self.first;
        let (bias, m, s, zx, zy, lo) = (&q.bias, &q.m, &q.s, q.zx, q.zy, q.lo);
        let mut maps: Tensor<i8, Maps> = tensor_expr!(saturating_cast::<i8>(max(
            requantize(
                conv2d(
                    cast::<i32>(x) - zx,
                    cast::<i32>(w),
                    stride = 2,
                    padding = same,
                    layout = nhwc
                ) + bias,
                m,
                s
            ) + zy,
            lo
        )));
        for Block {
            depthwise: (dw, dq),
            pointwise: (pw, pq),
        } in &self.blocks
        {
            let (bias, m, s, zx, zy, lo) = (&dq.bias, &dq.m, &dq.s, dq.zx, dq.zy, dq.lo);
            let depthwise: Tensor<i8, Maps> = tensor_expr!(saturating_cast::<i8>(max(
                requantize(
                    conv2d(
                        cast::<i32>(maps) - zx,
                        cast::<i32>(dw),
                        padding = same,
                        groups = 64,
                        layout = nhwc
                    ) + bias,
                    m,
                    s
                ) + zy,
                lo
            )));
            let (bias, m, s, zx, zy, lo) = (&pq.bias, &pq.m, &pq.s, pq.zx, pq.zy, pq.lo);
            maps = tensor_expr!(saturating_cast::<i8>(max(
                requantize(
                    conv2d(cast::<i32>(depthwise) - zx, cast::<i32>(pw), layout = nhwc) + bias,
                    m,
                    s
                ) + zy,
                lo
            )));
        }
        // AVERAGE_POOL_2D over the whole 25x5 map (VALID), then RESHAPE.
        // The pool sums the bytes in `i32`.
        let pooled = tensor_expr!(saturating_cast::<i8>(avg_pool2d(
            cast::<i32>(maps),
            [25, 5],
            layout = nhwc
        )));
        let (w, q) = &self.dense;
        let (bias, m, s, zx, zy) = (&q.bias, &q.m, &q.s, q.zx, q.zy);
        let logits = tensor_expr!(saturating_cast::<i8>(
            requantize(
                (cast::<i32>(reshape::<Shape![1, 64]>(pooled)) - zx) @ cast::<i32>(w) + bias,
                m,
                s
            ) + zy
        ));
        let (m, s) = self.softmax;
        let probabilities = tensor_expr!(quantized_softmax(logits, m, s, [1]));
        (logits, probabilities)
    }
}

/// The model as a program: the layers unrolled, one statement each, its
/// tensors placed in one arena by their lifetimes (`KWS_ARENA_BYTES`).
/// Computes what [`Kws::run`] computes.
#[tensor_expr::program]
pub fn kws(x: &Tensor<i8, Input>, model: &Kws) -> (Tensor<i8, Classes>, Tensor<i8, Classes>) {
    let (w, q) = &model.first;
    let first = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(x) - q.zx,
                cast::<i32>(w),
                stride = 2,
                padding = same,
                layout = nhwc
            ) + q.bias,
            q.m,
            q.s
        ) + q.zy,
        q.lo
    )));
    let [b1, b2, b3, b4] = &model.blocks;
    let (dw, dq, pw, pq) = (
        &b1.depthwise.0,
        &b1.depthwise.1,
        &b1.pointwise.0,
        &b1.pointwise.1,
    );
    let depthwise1 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(first) - dq.zx,
                cast::<i32>(dw),
                padding = same,
                groups = 64,
                layout = nhwc
            ) + dq.bias,
            dq.m,
            dq.s
        ) + dq.zy,
        dq.lo
    )));
    let pointwise1 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(depthwise1) - pq.zx,
                cast::<i32>(pw),
                layout = nhwc
            ) + pq.bias,
            pq.m,
            pq.s
        ) + pq.zy,
        pq.lo
    )));
    let (dw, dq, pw, pq) = (
        &b2.depthwise.0,
        &b2.depthwise.1,
        &b2.pointwise.0,
        &b2.pointwise.1,
    );
    let depthwise2 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(pointwise1) - dq.zx,
                cast::<i32>(dw),
                padding = same,
                groups = 64,
                layout = nhwc
            ) + dq.bias,
            dq.m,
            dq.s
        ) + dq.zy,
        dq.lo
    )));
    let pointwise2 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(depthwise2) - pq.zx,
                cast::<i32>(pw),
                layout = nhwc
            ) + pq.bias,
            pq.m,
            pq.s
        ) + pq.zy,
        pq.lo
    )));
    let (dw, dq, pw, pq) = (
        &b3.depthwise.0,
        &b3.depthwise.1,
        &b3.pointwise.0,
        &b3.pointwise.1,
    );
    let depthwise3 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(pointwise2) - dq.zx,
                cast::<i32>(dw),
                padding = same,
                groups = 64,
                layout = nhwc
            ) + dq.bias,
            dq.m,
            dq.s
        ) + dq.zy,
        dq.lo
    )));
    let pointwise3 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(depthwise3) - pq.zx,
                cast::<i32>(pw),
                layout = nhwc
            ) + pq.bias,
            pq.m,
            pq.s
        ) + pq.zy,
        pq.lo
    )));
    let (dw, dq, pw, pq) = (
        &b4.depthwise.0,
        &b4.depthwise.1,
        &b4.pointwise.0,
        &b4.pointwise.1,
    );
    let depthwise4 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(pointwise3) - dq.zx,
                cast::<i32>(dw),
                padding = same,
                groups = 64,
                layout = nhwc
            ) + dq.bias,
            dq.m,
            dq.s
        ) + dq.zy,
        dq.lo
    )));
    let pointwise4 = tensor_expr!(saturating_cast::<i8>(max(
        requantize(
            conv2d(
                cast::<i32>(depthwise4) - pq.zx,
                cast::<i32>(pw),
                layout = nhwc
            ) + pq.bias,
            pq.m,
            pq.s
        ) + pq.zy,
        pq.lo
    )));
    let pooled = tensor_expr!(saturating_cast::<i8>(avg_pool2d(
        cast::<i32>(pointwise4),
        [25, 5],
        layout = nhwc
    )));
    let (w, q) = &model.dense;
    let logits = tensor_expr!(saturating_cast::<i8>(
        requantize((cast::<i32>(reshape::<Shape![1, 64]>(pooled)) - q.zx) @ cast::<i32>(w) + q.bias, q.m, q.s)
            + q.zy
    ));
    let (m, s) = model.softmax;
    (*logits, tensor_expr!(quantized_softmax(logits, m, s, [1])))
}
