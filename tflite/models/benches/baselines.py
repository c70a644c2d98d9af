"""MLPerf Tiny's four int8 models: the generated programs (`cargo bench -p
tensor-expr-tflite-models`) beside LiteRT's default CPU kernels (XNNPACK,
one thread) and TFLite Micro's interpreter (its reference kernels), on the
same models and input (input 1 of the vectors), in one run; prints us per
inference and each baseline's time over this library's.

    python3 tflite/models/benches/baselines.py [--native]

`--native` builds the bench with `-C target-cpu=native`. Needs
tensorflow-cpu (or ai-edge-litert) and tflite-micro from PyPI. The Python
interpreters' call overhead (a few us per `invoke`) is in their figures.
"""
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import tensorflow as tf
from tflite_micro.python.tflite_micro import runtime

here = pathlib.Path(__file__).resolve().parent
crate = here.parent
sys.path.insert(0, str(crate / "vectors"))
from reference import inputs  # noqa: E402  (the vectors' input generator)
from tflite_common import cpu_name, median_us  # noqa: E402  (on the path reference.py sets)

MODELS = ["kws", "resnet", "vww", "anomaly"]



env = dict(os.environ)
if "--native" in sys.argv:
    env["RUSTFLAGS"] = (env.get("RUSTFLAGS", "") + " -C target-cpu=native").strip()
bench = subprocess.run(
    ["cargo", "bench", "-p", "tensor-expr-tflite-models", "--bench", "models"],
    cwd=crate, capture_output=True, text=True, check=True, env=env,
).stdout

cpu = cpu_name()
target = "native" if "--native" in sys.argv else "default target"
print(f"MLPerf Tiny int8 models, {cpu}, one thread, tensor-expr at {target}")
print(f"{'model':8} {'tensor-expr':>12} {'XNNPACK':>10} {'ratio':>6} {'TFLM':>10} {'ratio':>6}")
for name in MODELS:
    model = (crate / "tflite" / f"{name}.tflite").read_bytes()
    litert = tf.lite.Interpreter(model_content=model, num_threads=1)
    litert.allocate_tensors()
    detail = litert.get_input_details()[0]
    x = inputs(tuple(detail["shape"]), int(detail["quantization"][1]), 2)[1]
    litert.set_tensor(detail["index"], x)
    litert_us = median_us(litert.invoke, 50)
    micro = runtime.Interpreter.from_bytes(model)
    micro.set_input(x, 0)
    micro_us = median_us(micro.invoke, 3)
    ours = float(re.search(rf"^{name} tensor-expr ([0-9.]+) us", bench, re.M).group(1))
    print(f"{name:8} {ours:10.1f}us {litert_us:8.1f}us {litert_us / ours:5.2f}x "
          f"{micro_us:8.1f}us {micro_us / ours:5.1f}x")
