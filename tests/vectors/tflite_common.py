"""What the TFLite scripts (tflite_int8.py, kws.py, the benches'
kws_litert.py and tflite/models' scripts) share: TFLite's
QuantizeMultiplier, TFLite Micro's interpreter over a list of inputs, the
vectors' line format, and the benches' timing and CPU name."""
import math
import pathlib
import platform
import time

import numpy as np
from tflite_micro.python.tflite_micro import runtime


def quantize_multiplier(real):
    """TFLite's QuantizeMultiplier: a Q31 multiplier and a power-of-two shift."""
    if real == 0.0:
        return 0, 0
    q, shift = math.frexp(real)
    fixed = int(math.floor(abs(q) * (1 << 31) + 0.5)) * (1 if q >= 0 else -1)
    if fixed == 1 << 31:
        fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return fixed, shift


def run_micro(model, inputs):
    """TFLite Micro's outputs for each of `inputs` (the model's one input)."""
    micro = runtime.Interpreter.from_bytes(model)
    outputs = []
    for x in inputs:
        micro.set_input(x, 0)
        micro.invoke()
        outputs.append(micro.get_output(0).copy())
    return np.stack(outputs)


def line(key, values):
    """A line of the vectors: `key v0 v1 ...`, the values as integers."""
    values = np.asarray(values).reshape(-1)
    print(key, " ".join(str(int(v)) for v in values))


def median_us(invoke, batch, rounds=21):
    """Median us per call of `invoke` over `rounds` rounds of `batch` calls."""
    for _ in range(batch):
        invoke()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(batch):
            invoke()
        samples.append((time.perf_counter() - start) / batch * 1e6)
    return sorted(samples)[len(samples) // 2]


def cpu_name():
    """The CPU's model name, for the benches' headings."""
    return next(
        (l.split(":", 1)[1].strip()
         for l in pathlib.Path("/proc/cpuinfo").read_text().splitlines()
         if l.startswith("model name")),
        platform.processor(),
    )
