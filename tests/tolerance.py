"""Tolerances for comparing results that two different kernels computed (ours against
real torch's or paddle's, numpy's BLAS against another): float rounding and summation
order differ between kernels (and between OpenBLAS's per-CPU kernels), so such results
agree to a few units of rounding of the array's magnitude, never bit for bit.

Bit equality is right only when one kernel computes both sides (a round trip of stored
values, a copy, integer results).
"""
from __future__ import annotations

import math

import numpy as np


def _float_dtype(*arrays):
    dts = [a.dtype for a in arrays if a.dtype.kind in "fc"]
    return np.result_type(*dts) if dts else np.dtype(np.float64)


def kernel_tolerance(expected, n: int = 1, k: float = 8.0, dtype=None) -> tuple[float, float]:
    """(atol, rtol) for results that another kernel computed: ``k`` units of rounding
    (eps of the dtype) times sqrt(n) (``n`` terms summed per element: a matmul's inner
    size, a norm's count), atol scaled by the largest magnitude in ``expected``."""
    expected = np.asarray(expected)
    dt = np.dtype(dtype) if dtype is not None else _float_dtype(expected)
    eps = float(np.finfo(dt).eps)
    scale = float(np.max(np.abs(expected))) if expected.size else 0.0
    grow = k * eps * math.sqrt(max(n, 1))
    return grow * max(scale, np.finfo(dt).tiny), grow


def assert_kernels_close(actual, expected, n: int = 1, k: float = 8.0, dtype=None,
                         err_msg: str = "") -> None:
    """``actual`` and ``expected`` (computed by different kernels) agree within
    ``kernel_tolerance``; shapes must match exactly.  ``dtype`` defaults to the lower float
    precision of the two (the one whose rounding dominates)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if dtype is None:
        fl = [a.dtype for a in (actual, expected) if a.dtype.kind in "fc"]
        dtype = min(fl, key=lambda d: np.finfo(d).bits) if fl else np.float64
    atol, rtol = kernel_tolerance(expected, n, k, dtype)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=err_msg)
