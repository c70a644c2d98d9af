"""Writes the reference outputs of tests/models.rs: TFLite Micro's outputs
for MLPerf Tiny's four int8 models (the .tflite files in ../tflite, from
mlcommons/tiny) and the small `activations` and `padded_pools` models
(tflite/tests/models/make_models.py), over COUNT inputs each.

    python3 tflite/models/vectors/reference.py [NAME ...]

Inputs are not stored: input 0 is the model's input zero point everywhere,
the others are pseudo-random int8 from `inputs()` below, which
tests/models.rs computes the same way (splitmix64, the top byte of each
draw); a model with a float input takes `float_inputs()` instead. For
each model NAME it writes `NAME.out` (COUNT outputs, int8 as bytes,
float32 little-endian) and, for a model whose last operator is SOFTMAX, `NAME.logits`
(the softmax's input, from the same model cut before it: the
interpreter's intermediate tensors are not kept).
"""
import os
import sys

import numpy as np
from tensorflow.lite.python import schema_py_generated as schema

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "vectors"))
from tflite_common import run_micro  # noqa: E402

COUNT = 100
MODELS = ["kws", "resnet", "vww", "anomaly", "activations", "padded_pools", "float_edges"]
MASK = (1 << 64) - 1


def splitmix64(state):
    """One step of splitmix64: the new state and the draw."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def inputs(shape, zero_point, count):
    """Input 0 all `zero_point`; input k the top bytes of splitmix64's
    draws from the seed k, as int8."""
    size = int(np.prod(shape))
    out = [np.full(shape, zero_point, np.int8)]
    for k in range(1, count):
        state, values = k, []
        for _ in range(size):
            state, draw = splitmix64(state)
            values.append(draw >> 56)
        out.append(np.array(values, np.uint8).view(np.int8).reshape(shape))
    return out


def float_inputs(shape, count):
    """Input 0 all zero; input k the top 24 bits of splitmix64's draws from
    the seed k as a fraction, scaled to [-4, 4) (exact in float32)."""
    size = int(np.prod(shape))
    out = [np.zeros(shape, np.float32)]
    for k in range(1, count):
        state, values = k, []
        for _ in range(size):
            state, draw = splitmix64(state)
            values.append((draw >> 40) / 2**24 * 8 - 4)
        out.append(np.array(values, np.float32).reshape(shape))
    return out


def cut_before_last(model):
    """The model with its last operator removed: its input is the output."""
    flat = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model, 0))
    graph = flat.subgraphs[0]
    graph.outputs = [graph.operators[-1].inputs[0]]
    graph.operators = graph.operators[:-1]
    builder = __import__("flatbuffers").Builder(0)
    builder.Finish(flat.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def last_operator(model):
    flat = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model, 0))
    code = flat.operatorCodes[flat.subgraphs[0].operators[-1].opcodeIndex]
    return max(code.builtinCode, code.deprecatedBuiltinCode)


def main():
    for name in sys.argv[1:] or MODELS:
        model = open(os.path.join(HERE, "..", "tflite", name + ".tflite"), "rb").read()
        flat = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model, 0))
        graph = flat.subgraphs[0]
        x = graph.tensors[graph.inputs[0]]
        if x.type == schema.TensorType.FLOAT32:
            xs = float_inputs(tuple(x.shape), COUNT)
        else:
            xs = inputs(tuple(x.shape), int(x.quantization.zeroPoint[0]), COUNT)
        outputs = [run_micro(model, xs)]
        suffixes = ["out"]
        if last_operator(model) == schema.BuiltinOperator.SOFTMAX:
            outputs.append(run_micro(cut_before_last(model), xs))
            suffixes.append("logits")
        for values, suffix in zip(outputs, suffixes):
            with open(os.path.join(HERE, f"{name}.{suffix}"), "wb") as f:
                # int8 outputs as bytes, float outputs as little-endian f32.
                kind = "<f4" if values.dtype == np.float32 else np.int8
                f.write(values.astype(kind).tobytes())
        print(name, [v.shape for v in outputs])


if __name__ == "__main__":
    main()
