"""Fits the polynomials and rational functions of f32 `erf` and `gelu`
(runtime/src/math.rs) and prints their coefficients, highest degree first, as
the code writes them. Run with NumPy and SciPy:

    python3 tests/vectors/fit_erf.py

- `erf(a) = a P(a^2)` on `0 <= a < 1`, `P` of degree 6, for least relative
  error;
- `erfc(a) = N(w) / D(w)`, `w = a - 1`, on `1 <= a <= 4`, both of degree 6
  and `D(0) = 1`, for least absolute error (what `erf = 1 - erfc` needs);
- `erfcx(a / sqrt 2) = P(a) / Q(a)` on `0 <= a <= 16` (where GELU's left
  tail underflows), degrees 4 and 5, `Q(0) = 1`, for least relative error.

Least squares on Chebyshev nodes, reweighted towards the largest errors
(Lawson's iteration), which approaches the minimax fit; a rational function
`N / D` is fitted by linearising `N - f D` with the previous round's `D` as
weight. The printed maximum errors are those of the exact coefficients,
before rounding to f32, relative to the function or (for `erfc`) in units of
2^-24.
"""
import numpy as np
from scipy import special


def nodes(lo, hi, count):
    k = np.arange(count)
    return (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / count)


def fit(f, lo, hi, degree, variable, count=6000, rounds=60):
    """A polynomial in `variable(x)` for least relative error of `f`."""
    x = nodes(lo, hi, count)
    v, y = variable(x), f(x)
    basis = np.vander(v, degree + 1, increasing=True) / y[:, None]
    weights = np.ones(count)
    for _ in range(rounds):
        c, *_ = np.linalg.lstsq(basis * weights[:, None], weights, rcond=None)
        error = basis @ c - 1.0
        weights *= 1.0 + np.abs(error) / np.abs(error).max()
    return c[::-1], np.abs(error).max()


def fit_rational(f, lo, hi, m, n, variable, scale, count=8000, rounds=200):
    """`N / D` in `variable(x)`, degrees `m` and `n`, `D(0) = 1`, for least
    error of `f` measured in units of `scale(x)`."""
    x = nodes(lo, hi, count)
    v, y, s = variable(x), f(x), scale(x)
    powers = np.vander(v, max(m, n) + 1, increasing=True)
    d = np.ones(count)
    weights = np.ones(count)
    for _ in range(rounds):
        rows = np.hstack([powers[:, : m + 1], -y[:, None] * powers[:, 1 : n + 1]])
        rows /= (s * d)[:, None]
        c, *_ = np.linalg.lstsq(rows * weights[:, None], y / (s * d) * weights, rcond=None)
        num, den = c[: m + 1], np.concatenate([[1.0], c[m + 1 :]])
        d = powers[:, : n + 1] @ den
        error = ((powers[:, : m + 1] @ num) / d - y) / s
        weights *= 1.0 + np.abs(error) / np.abs(error).max()
    return num[::-1], den[::-1], np.abs(error).max()


def show(name, coefficients):
    print(name + ": " + ", ".join(repr(np.float32(c)).replace("np.float32(", "").rstrip(")") for c in coefficients))


small = lambda a: special.erf(a) / np.where(a == 0, 1.0, a) + (a == 0) * 2 / np.sqrt(np.pi)
p, error = fit(small, 0.0, 1.0, 6, lambda a: a * a)
p[-1] -= 1.0  # the code evaluates P - 1: erf(a) = a + a (P - 1)
print(f"erf_ratio, max relative error {error:.3e}")
show("P - 1", p)

num, den, error = fit_rational(special.erfc, 1.0, 4.0, 6, 6, lambda a: a - 1.0,
                               lambda a: np.full_like(a, 2.0**-24))
print(f"erfc_near, max absolute error {error:.3f} x 2^-24")
show("N", num)
show("D", den)

num, den, error = fit_rational(lambda a: special.erfcx(a / np.sqrt(2)), 0.0, 16.0, 4, 5,
                               lambda a: a, lambda a: special.erfcx(a / np.sqrt(2)), rounds=300)
print(f"half_erfcx_numerator / erfcx_denominator_up, max relative error {error:.3e}")
show("P", num)
show("Q", den)
