"""Fits the polynomials of f32 `erf` and `gelu` (runtime/src/math.rs) and
prints their coefficients, highest degree first, as the code writes them.
Run with NumPy and SciPy:

    python3 tests/vectors/fit_erf.py

- `erf(a) = a P(a^2)` on `0 <= a < 1`, `P` of degree 6, for least relative
  error;
- `erfc(t) = e^(-t^2) v R(v)`, `v = 1 / (1 + t/2)` (the substitution of
  Numerical Recipes' `erfcc`), on `0 <= t <= 10.5` (where GELU's left tail
  underflows), `R` of degree 8, for least relative error.

Least squares on Chebyshev nodes, reweighted towards the largest errors
(Lawson's iteration), which approaches the minimax fit; the printed maximum
errors are those of the exact coefficients, before rounding to f32.
"""
import numpy as np
from scipy import special


def fit(f, lo, hi, degree, variable, nodes=6000, rounds=60):
    k = np.arange(nodes)
    x = (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / nodes)
    v, y = variable(x), f(x)
    basis = np.vander(v, degree + 1, increasing=True) / y[:, None]
    weights = np.ones(nodes)
    for _ in range(rounds):
        c, *_ = np.linalg.lstsq(basis * weights[:, None], weights, rcond=None)
        error = basis @ c - 1.0
        weights *= 1.0 + np.abs(error) / np.abs(error).max()
    return c[::-1], np.abs(error).max()


def show(name, coefficients, error):
    print(f"{name}: max relative error {error:.3e}")
    print(", ".join(f"{np.float32(c)!r}".replace("np.float32(", "").rstrip(")") for c in coefficients))


small = lambda a: special.erf(a) / np.where(a == 0, 1.0, a) + (a == 0) * 2 / np.sqrt(np.pi)
p, error = fit(small, 0.0, 1.0, 6, lambda a: a * a)
p[-1] -= 1.0  # the code evaluates P - 1: erf(a) = a + a (P - 1)
show("P - 1", p, error)
show("R", *fit(lambda t: special.erfcx(t) * (1 + t / 2), 0.0, 10.5, 8, lambda t: 1 / (1 + t / 2)))
