"""Times ONNX Runtime's Conv (MLAS kernels) on one thread for the shapes of
benches/convolution.rs, so the convolution bench's figures can be set beside
it on the same machine. Not part of CI (it needs Python):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install -r tests/vectors/requirements.txt
    /tmp/venv/bin/python benches/onnxruntime_conv.py

Prints the median ns per call over timed batches, and GFLOP/s, per case.
"""
import time

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper


def session(x_shape, w_shape, op="Conv", **attrs):
    node = helper.make_node(op, ["x", "w"], ["y"], **attrs)
    graph = helper.make_graph(
        [node],
        "conv",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape)),
            helper.make_tensor_value_info("w", TensorProto.FLOAT, list(w_shape)),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), options)


def median_ns(run, iterations):
    for _ in range(max(1, iterations // 4)):
        run()
    samples = []
    for _ in range(21):
        start = time.perf_counter_ns()
        for _ in range(iterations):
            run()
        samples.append((time.perf_counter_ns() - start) / iterations)
    return sorted(samples)[len(samples) // 2]


def case(name, x_shape, w_shape, flops, iterations, **attrs):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    s = session(x_shape, w_shape, **attrs)
    ns = median_ns(lambda: s.run(None, {"x": x, "w": w}), iterations)
    print(f"{name:<34} {ns:>10.0f} ns {flops / ns:>6.1f} GFLOP/s")


print("ONNX Runtime", ort.__version__, "Conv, one thread (ns per call)")
case("conv2d 64->64 3x3 56x56", (1, 64, 56, 56), (64, 64, 3, 3), 2 * 64 * 64 * 9 * 56 * 56, 20, pads=[1, 1, 1, 1])
case("kws conv2d 1->8 3x3 49x10", (1, 1, 49, 10), (8, 1, 3, 3), 2 * 8 * 9 * 490, 20000, pads=[1, 1, 1, 1])
case("depthwise 3x3 64x56x56", (1, 64, 56, 56), (64, 1, 3, 3), 2 * 64 * 9 * 3136, 200, pads=[1, 1, 1, 1], group=64)
case("FIR 64 taps over 4096", (1, 1, 4096), (1, 1, 64), 2 * 64 * 4033, 2000)
case("conv_transpose2d 64->32 4x4 s2 28->56", (1, 64, 28, 28), (64, 32, 4, 4), 2 * 32 * 64 * 4 * 3136, 20, op="ConvTranspose", strides=[2, 2], pads=[1, 1, 1, 1])
