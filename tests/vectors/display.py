"""Writes display.txt: NumPy's `str` of small arrays, the reference of
tests/display.rs. Run with NumPy installed (any 2.x):

    python3 tests/vectors/display.py > tests/vectors/display.txt

Each case is a header `case DTYPE DIMS` (dims comma-separated, `-` for a
rank-0 array), a line of the values as NumPy's shortest round-trip text
(which parses back to the same float in Rust), then NumPy's `str` of the
array, then a line `end`.
"""
import numpy as np

rng = np.random.default_rng(20261125)


def text(x, dtype):
    """Shortest round-trip text of one value."""
    if dtype.startswith("int"):
        return str(int(x))
    if dtype == "float32":
        return str(np.float32(x))
    return repr(float(x))


def case(dtype, shape, values):
    a = np.array(values, dtype=dtype).reshape(shape)
    dims = ",".join(str(d) for d in shape) or "-"
    flat = " ".join(text(x, dtype) for x in a.reshape(-1))
    print(f"case {dtype} {dims}")
    print(flat)
    print(str(a))
    print("end")


cases = [
    ("float32", (2,), [-386984288.0, 1.5]),
    ("float32", (3,), [-386984288.0, 1.2345678e-3, 7.0]),
    ("float64", (3,), [1e-5, 2.5e8, 3.0]),
    ("float64", (), [3.0]),
    ("float64", (), [0.1]),
    ("float64", (), [1e16]),
    ("float64", (), [1.5e-5]),
    ("float64", (), [-0.0]),
    ("float64", (), [123456789.0]),
    ("float64", (), [float("nan")]),
    ("float64", (), [float("-inf")]),
    ("float32", (), [0.1]),
    ("float32", (), [3.0]),
    ("float32", (), [1e20]),
    ("int32", (), [-7]),
    ("float64", (40,), list(np.arange(40) * 1.5)),
    ("int64", (100,), list(range(100))),
    ("int32", (3, 30), list(range(-45, 45))),
    ("float64", (2, 2, 20), list(np.arange(80) / 7.0)),
    ("float32", (4, 13), list(rng.standard_normal(52) * 1e9)),
]
for shape in [(30,), (5, 17), (2, 3, 11), (1, 2, 2, 9)]:
    n = int(np.prod(shape))
    for scale in [1.0, 1e-6, 1e12]:
        for dtype in ["float32", "float64"]:
            values = rng.standard_normal(n) * scale
            values = values.astype(dtype)
            cases.append((dtype, shape, list(values)))
for dtype, shape, values in cases:
    case(dtype, shape, values)
