"""Writes singular.txt: square matrices with a repeated row that
`numpy.linalg.inv` refuses (LinAlgError), the reference of the singular
cases in tests/linalg.rs. Run with NumPy 2.x:

    python3 tests/vectors/singular.py > tests/vectors/singular.txt

Each line is `DTYPE N` then the matrix's N*N values, row-major, as the
shortest text that reads back to the same float32 or float64.

Only repeated rows: elimination that divides by the pivot turns a row
equal to the pivot's into exact zeros whatever the values, so such a
matrix is singular in any LU. A repeated column leaves an exact zero pivot
only where the rounding of its updates happens to cancel, which depends on
the order a BLAS sums them in (NumPy refuses about half of them).
"""
import numpy as np

rng = np.random.default_rng(20261129)

# The case of the report: rows 0 and 2 equal, float32.
REPORTED = np.array(
    [
        [1.259104609489441, -0.37237146496772766, -0.757605791091919],
        [-0.35281696915626526, 3.0831995010375977, 0.5793346166610718],
        [1.259104609489441, -0.37237146496772766, -0.757605791091919],
    ],
    dtype=np.float32,
)


def refused(a):
    try:
        np.linalg.inv(a)
    except np.linalg.LinAlgError:
        return True
    return False


def emit(a):
    values = " ".join(repr(v.item()) if a.dtype == np.float64 else str(v) for v in a.reshape(-1))
    print(f"{a.dtype} {a.shape[0]} {values}")


assert refused(REPORTED)
emit(REPORTED)
for dtype in (np.float32, np.float64):
    for n in (2, 3, 4, 5, 6):
        found = 0
        while found < 8:
            a = rng.standard_normal((n, n)).astype(dtype)
            i, j = rng.choice(n, 2, replace=False)
            a[j] = a[i]
            if refused(a):
                emit(a)
                found += 1
