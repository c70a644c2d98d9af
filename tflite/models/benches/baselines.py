"""MLPerf Tiny's four int8 models: the generated programs (`cargo bench -p
tensor-expr-tflite-models`) beside LiteRT's default CPU kernels (XNNPACK,
one thread) and TFLite Micro's interpreter (its reference kernels), on the
same models and input (input 1 of the vectors), in one run; prints us per
inference and each baseline's time over this library's.

    python3 tflite/models/benches/baselines.py [--native] [--rounds N]

`--native` builds the bench with `-C target-cpu=native`. The bench's
executable and XNNPACK are timed in turn, `N` rounds (5 unless given), and
each one's fastest round is kept: on a shared machine whose speed drifts
over seconds, times taken minutes apart are not comparable. TFLite Micro is
timed once. Needs tensorflow-cpu (or ai-edge-litert) and tflite-micro from
PyPI. The Python interpreters' call overhead (a few us per `invoke`) is in
their figures.
"""
import json
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
rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
build = subprocess.run(
    ["cargo", "bench", "-p", "tensor-expr-tflite-models", "--bench", "models", "--no-run",
     "--message-format=json"],
    cwd=crate, capture_output=True, text=True, check=True, env=env,
).stdout
executable = next(
    message["executable"]
    for message in map(json.loads, build.splitlines())
    if message.get("reason") == "compiler-artifact" and message.get("executable")
    and message["target"]["name"] == "models"
)

litert = {}
inputs_of = {}
for name in MODELS:
    model = (crate / "tflite" / f"{name}.tflite").read_bytes()
    interpreter = tf.lite.Interpreter(model_content=model, num_threads=1)
    interpreter.allocate_tensors()
    detail = interpreter.get_input_details()[0]
    x = inputs(tuple(detail["shape"]), int(detail["quantization"][1]), 2)[1]
    interpreter.set_tensor(detail["index"], x)
    litert[name] = interpreter
    inputs_of[name] = (model, x)

ours = {name: float("inf") for name in MODELS}
theirs = {name: float("inf") for name in MODELS}
for _ in range(rounds):
    bench = subprocess.run([executable, "--bench"], capture_output=True, text=True, check=True).stdout
    for name in MODELS:
        us = float(re.search(rf"^{name} tensor-expr ([0-9.]+) us", bench, re.M).group(1))
        ours[name] = min(ours[name], us)
        theirs[name] = min(theirs[name], median_us(litert[name].invoke, 50))

cpu = cpu_name()
target = "native" if "--native" in sys.argv else "default target"
print(f"MLPerf Tiny int8 models, {cpu}, one thread, tensor-expr at {target}, "
      f"fastest of {rounds} alternated rounds")
print(f"{'model':8} {'tensor-expr':>12} {'XNNPACK':>10} {'ratio':>6} {'TFLM':>10} {'ratio':>6}")
for name in MODELS:
    model, x = inputs_of[name]
    micro = runtime.Interpreter.from_bytes(model)
    micro.set_input(x, 0)
    micro_us = median_us(micro.invoke, 3)
    print(f"{name:8} {ours[name]:10.1f}us {theirs[name]:8.1f}us {theirs[name] / ours[name]:5.2f}x "
          f"{micro_us:8.1f}us {micro_us / ours[name]:5.1f}x")
