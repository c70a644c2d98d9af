"""MLPerf Tiny's int8 keyword spotter: this library (`cargo bench --bench
kws`) beside LiteRT's default CPU kernels (XNNPACK, one thread) and TFLite
Micro's interpreter (its reference kernels), on the same model and input
(the first of tests/vectors/kws.txt), in one run; prints us per inference
and each baseline's time over this library's.

    python3 benches/kws_litert.py PATH/TO/kws_ref_model.tflite [--rounds N]

The bench's executable and XNNPACK are timed in turn, `N` rounds (5
unless given), and each one's fastest round is kept (as
`tflite/models/benches/baselines.py` does: on a shared machine whose
speed drifts over seconds, times taken apart are not comparable). Needs tensorflow-cpu (or ai-edge-litert) and tflite-micro from PyPI; the
model is `benchmark/training/keyword_spotting/trained_models/
kws_ref_model.tflite` of mlcommons/tiny. The Python interpreters' call
overhead (a few us per `invoke`) is in their figures.
"""
import json
import pathlib
import re
import subprocess
import sys

import numpy as np
import tensorflow as tf
from tflite_micro.python.tflite_micro import runtime

root = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(root / "tests" / "vectors"))
from tflite_common import cpu_name, median_us  # noqa: E402

model = pathlib.Path(sys.argv[1]).read_bytes()
line = next(l for l in (root / "tests/vectors/kws.txt").read_text().splitlines() if l.startswith("x "))
x = np.array([int(v) for v in line.split()[1:491]], np.int8).reshape(1, 49, 10, 1)

litert = tf.lite.Interpreter(model_content=model, num_threads=1)
litert.allocate_tensors()
litert.set_tensor(litert.get_input_details()[0]["index"], x)

micro = runtime.Interpreter.from_bytes(model)
micro.set_input(x, 0)
micro_us = median_us(micro.invoke, 20)

rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
build = subprocess.run(
    ["cargo", "bench", "--bench", "kws", "--no-run", "--message-format=json"],
    cwd=root, capture_output=True, text=True, check=True,
).stdout
executable = next(
    message["executable"]
    for message in map(json.loads, build.splitlines())
    if message.get("reason") == "compiler-artifact" and message.get("executable")
    and message["target"]["name"] == "kws"
)
ours_us = program_us = litert_us = float("inf")
for _ in range(rounds):
    bench = subprocess.run([executable, "--bench"], capture_output=True, text=True, check=True).stdout
    ours_us = min(ours_us, float(re.search(r"kws tensor-expr ([0-9.]+) us", bench).group(1)))
    program_us = min(program_us, float(re.search(r"kws as a program[^0-9]*([0-9.]+) us", bench).group(1)))
    litert_us = min(litert_us, median_us(litert.invoke, 200))

cpu = cpu_name()
print(f"keyword spotter (MLPerf Tiny kws_ref_model, int8), {cpu}, one thread, "
      f"fastest of {rounds} alternated rounds")
print(f"tensor-expr                 {ours_us:8.1f} us   (statements run separately)")
print(f"tensor-expr, a program      {program_us:8.1f} us   (one planned arena, lent)")
print(f"LiteRT (XNNPACK, 1 thread)  {litert_us:8.1f} us   {litert_us / ours_us:5.2f}x / {litert_us / program_us:5.2f}x tensor-expr's time")
print(f"TFLite Micro (reference)    {micro_us:8.1f} us   {micro_us / ours_us:5.2f}x / {micro_us / program_us:5.2f}x tensor-expr's time")
