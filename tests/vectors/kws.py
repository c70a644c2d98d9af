"""Writes kws.txt: MLPerf Tiny's keyword-spotting model (the int8 DS-CNN
`kws_ref_model.tflite` of mlcommons/tiny, Apache-2.0) as the parameters of
its 13 layers, and TFLite Micro's outputs for inputs of it: the reference
of tests/kws.rs, which writes the model as `tensor_expr!` statements, and
of benches/kws.rs.

    python3 tests/vectors/kws.py PATH/TO/kws_ref_model.tflite > tests/vectors/kws.txt

The model (TFLite's own layouts): CONV_2D 10x4 stride 2 SAME 1 -> 64, then
four DEPTHWISE_CONV_2D 3x3 SAME and CONV_2D 1x1 pairs, each with a fused
RELU; AVERAGE_POOL_2D 25x5 VALID; RESHAPE; FULLY_CONNECTED 64 -> 12;
SOFTMAX. Each line is `key v0 v1 ...`. Per layer `L` (0 to 8 the
convolutions, `fc` the dense layer): `L.w` (weights in the layout
tests/kws.rs reads: `[out, kh, kw, in]` for the convolutions, `[64, 12]`
for the dense layer, `[64, 3, 3, 1]` for the depthwise ones, TFLite's
`[1, 3, 3, 64]` transposed), `L.bias`, `L.multiplier` and `L.shift` (TFLite
Micro's per-channel requantisation, `QuantizeMultiplier(in_scale *
w_scale[c] / out_scale)` in double), `L.zx`, `L.zy` (zero points) and
`L.min` (the fused RELU's lower bound, `max(-128, zy)`). `softmax.scale`
is the softmax input's scale (shortest float32 text). `x` holds the inputs
(`count` of them, `[49, 10]` each, random int8 and the model's own zero
point), `y` TFLite Micro's outputs, `logits` its dense layer's outputs
(from the same model cut before the softmax: the interpreter's own
intermediate tensors are not kept).
"""
import sys

import numpy as np
import tensorflow as tf
from tensorflow.lite.python import schema_py_generated as schema

from tflite_common import line, quantize_multiplier, run_micro

rng = np.random.default_rng(20261129)
path = sys.argv[1]
model = open(path, "rb").read()


flat = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model, 0))
graph = flat.subgraphs[0]
names = {v: k for k, v in schema.BuiltinOperator.__dict__.items() if not k.startswith("_")}
interpreter = tf.lite.Interpreter(model_content=model)
interpreter.allocate_tensors()


def tensor(index):
    t = graph.tensors[index]
    q = t.quantization
    data = flat.buffers[t.buffer].data
    value = None
    if data is not None:
        dtype = {schema.TensorType.INT8: np.int8, schema.TensorType.INT32: np.int32}[t.type]
        value = np.frombuffer(bytes(data), dtype=dtype).reshape(t.shape)
    return np.asarray(q.scale, np.float32), np.asarray(q.zeroPoint), value


kinds = []
convolutions = 0
for op in graph.operators:
    code = flat.operatorCodes[op.opcodeIndex]
    name = names[max(code.builtinCode, code.deprecatedBuiltinCode)]
    kinds.append(name)
    if name in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"):
        (sx, zx, _), (sw, _, w), (_, _, bias) = (tensor(i) for i in op.inputs)
        sy, zy, _ = tensor(op.outputs[0])
        key = "fc" if name == "FULLY_CONNECTED" else str(convolutions)
        if name == "DEPTHWISE_CONV_2D":
            w = np.transpose(w, (3, 1, 2, 0))
        elif name == "FULLY_CONNECTED":
            w = w.T
        pairs = [
            quantize_multiplier(float(sx[0]) * float(s) / float(sy[0]))
            for s in np.broadcast_to(sw, (bias.shape[0],))
        ]
        line(key + ".w", w)
        line(key + ".bias", bias)
        line(key + ".multiplier", [m for m, _ in pairs])
        line(key + ".shift", [s for _, s in pairs])
        line(key + ".zx", [zx[0]])
        line(key + ".zy", [zy[0]])
        relu = op.builtinOptions.fusedActivationFunction == schema.ActivationFunctionType.RELU
        line(key + ".min", [max(-128, int(zy[0])) if relu else -128])
        if name != "FULLY_CONNECTED":
            convolutions += 1
    if name == "SOFTMAX":
        s, _, _ = tensor(op.inputs[0])
        print("softmax.scale", repr(float(np.float32(s[0]))))
assert kinds == ["CONV_2D"] + ["DEPTHWISE_CONV_2D", "CONV_2D"] * 4 + [
    "AVERAGE_POOL_2D",
    "RESHAPE",
    "FULLY_CONNECTED",
    "SOFTMAX",
], kinds

input_zero = int(interpreter.get_input_details()[0]["quantization"][1])
count = 8
inputs = [rng.integers(-128, 128, size=(1, 49, 10, 1), dtype=np.int8) for _ in range(count - 1)]
inputs.append(np.full((1, 49, 10, 1), input_zero, np.int8))


# The model without its softmax: the dense layer's tensor as the output.
cut = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model, 0))
cut_graph = cut.subgraphs[0]
cut_graph.outputs = [cut_graph.operators[-1].inputs[0]]
cut_graph.operators = cut_graph.operators[:-1]
builder = __import__("flatbuffers").Builder(0)
builder.Finish(cut.Pack(builder), file_identifier=b"TFL3")
cut_model = bytes(builder.Output())

line("count", [count])
line("x", np.stack(inputs))
line("logits", run_micro(cut_model, inputs))
line("y", run_micro(model, inputs))
