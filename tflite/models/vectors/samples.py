"""Writes the sample-input references of tests/models.rs: MLPerf Tiny's own
sample inputs (from a checkout of mlcommons/tiny), converted to each
model's int8 input as its reference submission converts them, and TFLite
Micro's outputs for them.

    python3 tflite/models/vectors/samples.py PATH_OF_MLCOMMONS_TINY

- keyword spotting: `kws_input_data.cc`'s int8 MFCC features, as they are;
- image classification: `ic_inputs.cc`'s uint8 RGB images, each byte
  minus 128 (the submission's `input_asint`);
- anomaly detection: the float32 spectrogram
  `normal_id_01_00000000_hist_librosa.bin` (200 slices of 128 bins), in
  windows of 5 slices every 4 slices (the benchmark's windows step by one;
  every fourth keeps the file small), quantised with the model's input
  scale and zero point as the submission's `QuantizeFloatToInt8` does
  (rounded half away from zero, saturated).

The visual wake words model has none: `vww_inputs.cc` holds two 96x96
images of one channel (9,216 values each) in arrays of the RGB model's
27,648, the rest zero.

For each model NAME it writes `NAME.samples` (the int8 inputs, one after
another) and `NAME.samples.out` (TFLite Micro's int8 outputs).
"""
import os
import re
import sys

import numpy as np
from tensorflow.lite.python import schema_py_generated as schema

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "vectors"))
from tflite_common import run_micro  # noqa: E402

SUBMISSIONS = "benchmark/reference_submissions"
SOURCES = {
    "kws": f"{SUBMISSIONS}/keyword_spotting/kws/kws_input_data.cc",
    "resnet": f"{SUBMISSIONS}/image_classification/ic/ic_inputs.cc",
    "anomaly": f"{SUBMISSIONS}/anomaly_detection/datasets/dcase01/normal_id_01_00000000_hist_librosa.bin",
}
# The anomaly detector's window: 5 slices of 128 bins, every 4 slices.
SLICE, SLICES, STEP = 128, 5, 4


def c_array(path):
    """The numbers of the first array initialiser in a C source file."""
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    body = text[text.index("=") + 1:]
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?", body)]


def quantize(values, scale, zero_point):
    """TFLite's reference submissions' `QuantizeFloatToInt8`."""
    scaled = np.asarray(values, np.float32) / np.float32(scale)
    rounded = np.where(scaled >= 0, np.floor(scaled + 0.5), np.ceil(scaled - 0.5))
    return np.clip(rounded + zero_point, -128, 127).astype(np.int8)


def samples(name, tiny, shape, scale, zero_point):
    """The model's sample inputs, int8, each of `shape`."""
    path = os.path.join(tiny, SOURCES[name])
    size = int(np.prod(shape))
    if name == "kws":
        flat = np.array(c_array(path), np.int64).astype(np.int8)
    elif name == "resnet":
        flat = (np.array(c_array(path), np.int64) - 128).astype(np.int8)
    else:
        spectrogram = np.fromfile(path, "<f4")
        windows = [
            spectrogram[s * SLICE:(s + SLICES) * SLICE]
            for s in range(0, len(spectrogram) // SLICE - SLICES + 1, STEP)
        ]
        flat = quantize(np.concatenate(windows), scale, zero_point)
    assert flat.size % size == 0, f"{name}: {flat.size} values, inputs of {size}"
    return [x.reshape(shape) for x in flat.reshape(-1, size)]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tiny = sys.argv[1]
    for name in SOURCES:
        model = open(os.path.join(HERE, "..", "tflite", name + ".tflite"), "rb").read()
        flat = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(model, 0))
        graph = flat.subgraphs[0]
        x = graph.tensors[graph.inputs[0]]
        q = x.quantization
        xs = samples(name, tiny, tuple(x.shape), q.scale[0], int(q.zeroPoint[0]))
        outputs = run_micro(model, xs)
        with open(os.path.join(HERE, f"{name}.samples"), "wb") as f:
            f.write(np.concatenate([v.reshape(-1) for v in xs]).tobytes())
        with open(os.path.join(HERE, f"{name}.samples.out"), "wb") as f:
            f.write(outputs.astype(np.int8).tobytes())
        print(name, len(xs), "inputs", outputs.shape)


if __name__ == "__main__":
    main()
