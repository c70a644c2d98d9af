"""Writes operations.txt: SciPy's and NumPy's values of the composite
operations, the reference of tests/operations.rs. Run with NumPy 2.x and
SciPy installed:

    python3 tests/vectors/operations.py > tests/vectors/operations.txt

Each case is a header `case NAME DIMS AXES KEEPDIM` (dims and axes
comma-separated, axes `-` for none), a line of the float64 input values
and a line of the expected float64 output values (shortest round-trip
text; `inf`, `-inf`, `nan` as such).
"""
import numpy as np
from scipy import special

rng = np.random.default_rng(20261125)


def text(values):
    return " ".join(repr(float(v)) for v in np.asarray(values).reshape(-1))


def case(name, x, axes, keepdim, expected):
    dims = ",".join(str(d) for d in x.shape)
    listed = ",".join(str(a) for a in axes) if axes is not None else "-"
    print(f"case {name} {dims} {listed} {int(keepdim)}")
    print(text(x))
    print(text(expected))


def axis(axes):
    return None if axes is None else tuple(axes)


def softmax(x, axes, keepdim):
    case("softmax", x, axes, keepdim, special.softmax(x, axis=axis(axes)))


def log_softmax(x, axes, keepdim):
    case("log_softmax", x, axes, keepdim, special.log_softmax(x, axis=axis(axes)))


def logsumexp(x, axes, keepdim):
    expected = special.logsumexp(x, axis=axis(axes), keepdims=keepdim)
    case("logsumexp", x, axes, keepdim, expected)


def norm(x, axes, keepdim):
    expected = np.linalg.vector_norm(x, axis=axis(axes), keepdims=keepdim)
    case("norm", x, axes, keepdim, expected)


wide = rng.normal(0.0, 4.0, size=(3, 5))
cube = rng.normal(0.0, 2.0, size=(2, 3, 4))
# Rows PyTorch and SciPy treat specially: every logit masked (-inf), one
# infinite logit, and logits far from 0 (the max shift keeps exp finite).
masked = np.array([[-np.inf, -np.inf, -np.inf], [np.inf, 1.0, 2.0], [800.0, 801.0, 799.0]])

for f in (softmax, log_softmax):
    f(wide, [1], False)
    f(wide, [0], False)
    f(wide, [-1], False)
    f(cube, [0, 2], False)
    f(masked[2:], [1], False)
for keepdim in (False, True):
    logsumexp(wide, [1], keepdim)
    logsumexp(cube, [0, 2], keepdim)
    logsumexp(masked, [1], keepdim)
    norm(wide, [1], keepdim)
    norm(cube, [0, 2], keepdim)
    norm(cube, [-1], keepdim)
logsumexp(cube, None, False)
norm(cube, None, False)

# Structural operations and scans: NumPy's values (exact, as rearrangements
# and sequential sums are). A triangle's diagonal is written in its name
# (`tril-1` for `diagonal = -1`).
block = rng.normal(0.0, 2.0, size=(3, 4))
for axes in ([0], [1], [-1], None, [0, 1]):
    case("flip", block, axes, False, np.flip(block, axis=axis(axes)))
case("flip", cube, [0, 2], False, np.flip(cube, axis=(0, 2)))
for axes in ([0], [1], [-1]):
    case("cumsum", block, axes, False, np.cumsum(block, axis=axes[0]))
    case("cumprod", block, axes, False, np.cumprod(block, axis=axes[0]))
case("cumsum", cube, [1], False, np.cumsum(cube, axis=1))
case("cumsum", block, [0, 1], False, np.cumsum(np.cumsum(block, axis=0), axis=1))
for k in (0, 1, -1, 3, -5):
    case(f"tril{k}", block, None, False, np.tril(block, k))
    case(f"triu{k}", block, None, False, np.triu(block, k))
case("tril0", cube, None, False, np.tril(cube))

# Gathers: NumPy's fancy indexing and `take` (exact). The ids are written in
# tests/operations.rs: embedding [[5, 0, 2], [2, 2, 1]]; index_select along
# axis 0 [2, 0, 2], axis 1 [3, 1], axis 2 [4, 0, 4, 1].
table = rng.normal(0.0, 1.0, size=(6, 4))
case("embedding", table, None, False, table[np.array([[5, 0, 2], [2, 2, 1]])])
volume = rng.normal(0.0, 1.0, size=(3, 4, 5))
for axis_, ids in ((0, [2, 0, 2]), (1, [3, 1]), (2, [4, 0, 4, 1])):
    case("index_select", volume, [axis_], False, np.take(volume, ids, axis=axis_))

# gather: NumPy's take_along_axis (exact), the index written in
# tests/operations.rs: along axis 0 a [2, 4, 5] index, along axis 2 a
# [3, 4, 2] index, each value (i + 2 j + 3 k) mod the axis's size.
for axis_, shape in ((0, (2, 4, 5)), (2, (3, 4, 2))):
    index = np.fromfunction(lambda i, j, k: (i + 2 * j + 3 * k) % volume.shape[axis_], shape, dtype=int)
    case("gather", volume, [axis_], False, np.take_along_axis(volume, index, axis=axis_))
