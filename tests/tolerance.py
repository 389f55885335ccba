"""Tolerances for comparing results that two different kernels computed (ours against
real torch's or paddle's, numpy's BLAS against another): float rounding and summation
order differ between kernels (and between OpenBLAS's per-CPU kernels), so such results
agree to a few units of rounding of the array's magnitude, never bit for bit.

Bit equality is right only when one kernel computes both sides (a round trip of stored
values, a copy, integer results).

A long float32 computation (a deep model's training step, several steps of a layer) is
bounded instead by its float32 error measured on the same input (``assert_within_reference_
error``): rounding grows with depth and conditioning beyond any fixed model, and the real
framework's own result moves by as much with the kernels it picks by CPU
(``ATEN_CPU_CAPABILITY``, oneDNN's ISA).
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


def assert_within_reference_error(ours, ref, ours64, ref64, n: int = 1, k: float = 4.0,
                                  scale: float | None = None, err_msg: str = "") -> None:
    """``ours`` and ``ref``: float32 results of one computation by our kernels and by the
    real framework's; ``ours64`` / ``ref64``: the same computation by each from the same
    inputs widened to float64.  ``|x - x64|`` is x's own float32 error, so:

    - the float64 results agree within ``kernel_tolerance`` of float64 (``n`` terms, held
      to ``scale``, default the largest |ref64|): the same math;
    - ``|ours - ref| <= k * (|ref - ref64| + |ours - ours64|)`` element by element, plus
      that float64 tolerance;
    - our float32 error is of the reference's order: ``max|ours - ours64| <= k *
      max|ref - ref64|`` plus k float32 units of ``scale`` (else a float32-only error of
      ours would excuse itself).
    """
    ours, ref = np.asarray(ours), np.asarray(ref)
    ours64, ref64 = np.asarray(ours64, np.float64), np.asarray(ref64, np.float64)
    assert ours.shape == ref.shape == ours64.shape == ref64.shape, \
        (ours.shape, ref.shape, ours64.shape, ref64.shape, err_msg)
    if scale is None:
        scale = float(np.max(np.abs(ref64))) if ref64.size else 0.0
    atol64, rtol64 = kernel_tolerance(np.array([scale]), n, dtype=np.float64)
    np.testing.assert_allclose(ours64, ref64, rtol=rtol64, atol=atol64,
                               err_msg=f"{err_msg} (in float64)")
    err_ref = np.abs(ref.astype(np.float64) - ref64)
    err_ours = np.abs(ours.astype(np.float64) - ours64)
    gap = np.abs(ours.astype(np.float64) - ref.astype(np.float64))
    bound = k * (err_ref + err_ours) + atol64 + rtol64 * np.abs(ref64)
    worst = int(np.argmax(gap - bound)) if gap.size else 0
    assert not (gap > bound).any(), (
        f"{err_msg}: {int((gap > bound).sum())} of {gap.size} float32 results differ by "
        f"more than {k} x the two float32 errors; the worst at flat index {worst}: ours "
        f"{ours.flat[worst]!r}, reference {ref.flat[worst]!r}, bound {bound.flat[worst]:.3g}")
    eps32 = float(np.finfo(np.float32).eps)
    own, theirs = float(err_ours.max(initial=0.0)), float(err_ref.max(initial=0.0))
    assert own <= k * theirs + k * eps32 * scale, (
        f"{err_msg}: our float32 error {own:.3g} against the reference's {theirs:.3g} "
        f"(scale {scale:.3g})")
