"""Writes tflite_int8.txt: int8 layers quantised by the TFLite converter and
run by TFLite Micro's interpreter, the reference of tests/quantized.rs.

Each layer is a one-operator model (a dense layer, a conv2d, a depthwise
conv2d, an average and a max pool, an ADD and a MUL of two inputs, a
softmax, a logistic and a tanh) converted with
full-integer
quantisation (int8 activations, per-channel int8 weights, int32 bias);
TFLite Micro runs it on random int8 inputs. The multipliers and shifts are
TFLite's `QuantizeMultiplier` of `input_scale * weight_scale[c] /
output_scale`, computed in double as TFLite Micro's kernels compute them.
Run with tensorflow-cpu and tflite-micro from PyPI (pip install
tensorflow-cpu tflite-micro):

    python3 tests/vectors/tflite_int8.py > tests/vectors/tflite_int8.txt

Each case is a header `case NAME`, then lines `key v0 v1 ...`: `x_shape`,
`x` (the int8 inputs, NHWC for images), `w_shape` and `w` (the weights in
the layout the test reads: `[in, out]` for the dense layer, `[out, kh, kw,
in / groups]` for the convolutions), `bias`, `zx` and `zy` (the input and
output zero points), `multiplier` and `shift` (one per output channel), and
`y` (TFLite Micro's int8 outputs). The ADD and MUL cases have `a`, `b` and their
zero points `za`, `zb` instead of `x` and `zx`, and `scales` (the two
inputs' and the output's, as TFLite stores them). The dense case also has `scale` (the
real multipliers, one per output channel, as shortest round-trip text)
and `y_litert`: desktop LiteRT's outputs from its reference kernels
(`OpResolverType.BUILTIN_REF`), which requantise in double precision,
`round(acc * scale)` with ties away from zero; its inputs are 4 random
rows and the rows of 2,000 random ones on which the two interpreters
differ. (Its default optimised
kernel rounds otherwise at near-ties: 14 of 9,600 outputs differ from
both forms.)
"""

import numpy as np
import tensorflow as tf
from tflite_micro.python.tflite_micro import runtime

from tflite_common import line, quantize_multiplier, run_micro

rng = np.random.default_rng(20261126)


def normal_inputs(*shapes_and_spreads):
    """The converter's representative data: 200 draws of normal inputs, one
    per `(shape, mean, deviation)`."""

    def representative():
        for _ in range(200):
            yield [rng.normal(mean, deviation, size=shape).astype(np.float32)
                   for shape, mean, deviation in shapes_and_spreads]

    return representative


def convert(function, representative):
    """The function as a full-integer int8 TFLite model, quantised on the
    `representative` data."""
    converter = tf.lite.TFLiteConverter.from_concrete_functions(
        [function.get_concrete_function()], function
    )
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = representative
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    converter.inference_input_type = tf.int8
    converter.inference_output_type = tf.int8
    return converter.convert()


def tensors(model):
    """Each tensor's quantisation and, for constants, its value, by role:
    of the model's operator (a PAD the converter puts first for an explicit
    padding is left out)."""
    interpreter = tf.lite.Interpreter(model_content=model)
    interpreter.allocate_tensors()
    op = [op for op in interpreter._get_ops_details() if op["op_name"] != "PAD"][0]
    details = {t["index"]: t for t in interpreter.get_tensor_details()}

    def part(index):
        t = details[index]
        q = t["quantization_parameters"]
        try:
            value = interpreter.get_tensor(index)
        except ValueError:
            value = None
        return q["scales"], q["zero_points"], value

    return [part(i) for i in op["inputs"] if i >= 0], part(op["outputs"][0])


def run_litert_reference(model, inputs):
    resolver = tf.lite.experimental.OpResolverType.BUILTIN_REF
    interpreter = tf.lite.Interpreter(model_content=model, experimental_op_resolver_type=resolver)
    interpreter.allocate_tensors()
    outputs = []
    for x in inputs:
        interpreter.set_tensor(interpreter.get_input_details()[0]["index"], x)
        interpreter.invoke()
        outputs.append(interpreter.get_tensor(interpreter.get_output_details()[0]["index"]).copy())
    return np.stack(outputs)


def near_ties(model, input_shape, candidates=2000, most=8):
    """Inputs on which TFLite Micro and LiteRT's reference kernels differ
    (outputs at near-ties, where the two roundings part), so that each test
    fails with the other's form."""
    inputs = [rng.integers(-128, 128, size=input_shape, dtype=np.int8) for _ in range(candidates)]
    micro, litert = run_micro(model, inputs), run_litert_reference(model, inputs)
    differ = [x for x, a, b in zip(inputs, micro, litert) if (a != b).any()]
    return differ[:most]


def case(name, function, input_shape, weights_for_test=None, count=4, litert=False):
    model = convert(function, normal_inputs((input_shape, 0.0, 1.0)))
    ins, (sy, zy, _) = tensors(model)
    (sx, zx, _) = ins[0]
    inputs = [rng.integers(-128, 128, size=input_shape, dtype=np.int8) for _ in range(count)]
    if litert:
        inputs += near_ties(model, input_shape)
    y = run_micro(model, inputs)
    print("case", name)
    line("x_shape", [len(inputs)] + list(input_shape[1:]))
    line("x", np.stack(inputs))
    line("zx", [zx[0]])
    line("zy", [zy[0]])
    if len(ins) > 1:
        (sw, _, w), (_, _, bias) = ins[1], ins[2]
        w = weights_for_test(w)
        line("w_shape", w.shape)
        line("w", w)
        line("bias", bias)
        scales = [float(sx[0]) * float(s) / float(sy[0]) for s in sw]
        pairs = [quantize_multiplier(scale) for scale in scales]
        line("multiplier", [m for m, _ in pairs])
        line("shift", [s for _, s in pairs])
        if litert:
            print("scale", " ".join(repr(scale) for scale in scales))
    line("y", y)
    if litert:
        line("y_litert", run_litert_reference(model, inputs))


def dense():
    w = (rng.normal(size=(64, 32)) * 0.2).astype(np.float32)
    b = (rng.normal(size=(32,)) * 0.1).astype(np.float32)

    @tf.function(input_signature=[tf.TensorSpec([1, 64], tf.float32)])
    def layer(x):
        return tf.matmul(x, w) + b

    # TFLite stores [out, in]; the test multiplies by [in, out].
    case("dense", layer, (1, 64), lambda w: w.T, litert=True)


def convolution(name, input_shape, kernel_shape, stride=1, padding="SAME", depthwise=False):
    """A one-layer convolution model of random weights `kernel_shape`
    (TensorFlow's HWIO; HWC1 for a depthwise one) and bias, run as `case`
    with the weights in the channels-last layout the test reads: TFLite's
    OHWI is `[out, kh, kw, in]`, and its depthwise `[1, kh, kw, C]` is
    `[C, kh, kw, 1]`."""
    w = (rng.normal(size=kernel_shape) * 0.3).astype(np.float32)
    # One bias per output channel: HWIO's O, or a depthwise layer's C.
    outputs = kernel_shape[2] * kernel_shape[3] if depthwise else kernel_shape[3]
    b = (rng.normal(size=(outputs,)) * 0.1).astype(np.float32)

    @tf.function(input_signature=[tf.TensorSpec(input_shape, tf.float32)])
    def layer(x):
        if depthwise:
            strides = [1, stride, stride, 1]
            return tf.nn.depthwise_conv2d(x, w, strides=strides, padding=padding) + b
        return tf.nn.conv2d(x, w, strides=stride, padding=padding) + b

    if depthwise:
        case(name, layer, input_shape, lambda w: np.transpose(w, (3, 1, 2, 0)))
    else:
        case(name, layer, input_shape, lambda w: w)


def conv2d():
    convolution("conv2d", (1, 9, 10, 4), (3, 3, 4, 8))


def depthwise_conv2d():
    convolution("depthwise_conv2d", (1, 9, 10, 8), (3, 3, 8, 1), depthwise=True)


def strided_same():
    """TensorFlow's SAME padding with a stride, as the converter keeps it:
    the keyword spotter's first layer (10x4, stride 2 over 49x10: 4 rows
    of padding on top, 5 below) and a stride-2 depthwise layer over an
    even height (no row on top, one below)."""
    convolution("conv2d_same_stride2", (1, 49, 10, 1), (10, 4, 1, 8), stride=2)
    convolution("depthwise_same_stride2", (1, 12, 11, 8), (3, 3, 8, 1), stride=2, depthwise=True)


def explicit_padding():
    """A padding per side written out (TensorFlow's explicit padding): the
    converter makes it a PAD (with the input's zero point) before a VALID
    convolution, which one expression computes."""
    sides = [[0, 0], [2, 0], [0, 1], [0, 0]]
    convolution("conv2d_padding_sides", (1, 7, 6, 4), (3, 3, 4, 8), padding=sides)


def pools():
    @tf.function(input_signature=[tf.TensorSpec([1, 8, 10, 4], tf.float32)])
    def average(x):
        return tf.nn.avg_pool2d(x, 2, 2, "VALID")

    @tf.function(input_signature=[tf.TensorSpec([1, 8, 10, 4], tf.float32)])
    def maximum(x):
        return tf.nn.max_pool2d(x, 2, 2, "VALID")

    case("avg_pool2d", average, (1, 8, 10, 4))
    case("max_pool2d", maximum, (1, 8, 10, 4))


dense()
conv2d()
depthwise_conv2d()
pools()
strided_same()
explicit_padding()


def binary(name, operation):
    """A residual's ADD (or a MUL): two int8 inputs of different scales and
    zero points, and the output's own (TFLite's reference AddElementwise,
    MulElementwise)."""
    spec = tf.TensorSpec([1, 6, 5, 8], tf.float32)

    @tf.function(input_signature=[spec, spec])
    def layer(a, b):
        return operation(a, b)

    model = convert(layer, normal_inputs(((1, 6, 5, 8), 0.3, 1.0), ((1, 6, 5, 8), -0.5, 2.5)))
    (sa, za, _), (sb, zb, _) = tensors(model)[0]
    (sy, zy, _) = tensors(model)[1]
    micro = runtime.Interpreter.from_bytes(model)
    a = rng.integers(-128, 128, size=(4, 6, 5, 8), dtype=np.int8)
    b = rng.integers(-128, 128, size=(4, 6, 5, 8), dtype=np.int8)
    y = []
    for x1, x2 in zip(a, b):
        micro.set_input(x1[None], 0)
        micro.set_input(x2[None], 1)
        micro.invoke()
        y.append(micro.get_output(0).copy())
    print("case", name)
    line("x_shape", a.shape)
    line("a", a)
    line("b", b)
    line("za", [za[0]])
    line("zb", [zb[0]])
    line("zy", [zy[0]])
    # The scales as TFLite stores them (float32), as shortest text.
    print("scales", " ".join(repr(float(np.float32(s[0]))) for s in (sa, sb, sy)))
    line("y", np.stack(y))


binary("add", lambda a, b: a + b)


def near_ties_of_softmax(model, shape, scale, candidates=200000, most=24):
    """Inputs on which TFLite Micro's softmax rounds otherwise than the
    exact probability would: near-ties at the scale of the fixed-point
    exponential's and reciprocal's own errors, where the output depends on
    each of their roundings."""
    inputs = [rng.integers(-128, 128, size=shape, dtype=np.int8) for _ in range(candidates)]
    micro = run_micro(model, inputs).astype(np.int64)
    x = np.stack(inputs).astype(np.float64)
    z = (x - x.max(axis=-1, keepdims=True)) * scale
    exact = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True) * 256
    rounded = np.clip(np.floor(exact + 0.5) - 128, -128, 127)
    differ = (micro != rounded).reshape(candidates, -1).any(axis=1)
    return [x for x, d in zip(inputs, differ) if d][:most]


def softmax(name, shape, spread):
    """An int8 SOFTMAX over the last dim (TFLite Micro's reference kernel:
    fixed-point exponentials, output scale 1/256, zero point -128); the
    input's scale follows from `spread`, the representative data's
    standard deviation."""

    @tf.function(input_signature=[tf.TensorSpec(shape, tf.float32)])
    def layer(x):
        return tf.nn.softmax(x)

    model = convert(layer, normal_inputs((shape, 0.0, spread)))
    ([(sx, zx, _)], (sy, zy, _)) = tensors(model)
    assert float(sy[0]) == 1.0 / 256 and zy[0] == -128
    inputs = [rng.integers(-128, 128, size=shape, dtype=np.int8) for _ in range(6)]
    # Rows of equal logits and rows with one large logit: ties in the sum
    # and differences below TFLite's `diff_min`.
    inputs[0][..., :] = 17
    inputs[1][..., :] = -128
    inputs[1][..., 0] = 127
    inputs += near_ties_of_softmax(model, shape, float(sx[0]))
    count = len(inputs)
    y = run_micro(model, inputs)
    print("case", name)
    line("x_shape", [count] + list(shape[1:]))
    line("x", np.stack(inputs))
    print("scale", repr(float(np.float32(sx[0]))))
    line("y", y)


def activation(name, function, spread, offset):
    """An int8 LOGISTIC or TANH (TFLite Micro's reference kernels:
    gemmlowp's fixed-point functions, output scale 1/256 and zero point
    -128, or 1/128 and 0) over every int8 input; the input's scale and zero
    point follow from the representative data's `spread` and `offset`."""
    shape = (1, 256)

    @tf.function(input_signature=[tf.TensorSpec(shape, tf.float32)])
    def layer(x):
        return function(x)

    model = convert(layer, normal_inputs((shape, offset, spread)))
    ([(sx, zx, _)], (sy, zy, _)) = tensors(model)
    x = np.arange(-128, 128, dtype=np.int8).reshape(shape)
    y = run_micro(model, [x])
    print("case", name)
    line("x_shape", list(shape))
    line("x", x)
    print("scale", repr(float(np.float32(sx[0]))))
    line("zx", [int(zx[0])])
    print("y_scale", repr(float(np.float32(sy[0]))))
    line("zy", [int(zy[0])])
    line("y", y)


softmax("softmax", (1, 12), 4.0)
softmax("softmax_wide", (1, 3, 40), 12.0)
binary("mul", lambda a, b: a * b)
activation("logistic", tf.sigmoid, 3.0, 0.5)
activation("logistic_wide", tf.sigmoid, 12.0, -4.0)
activation("tanh", tf.tanh, 1.5, 0.25)
activation("tanh_wide", tf.tanh, 8.0, 2.0)
