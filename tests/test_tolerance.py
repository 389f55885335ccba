"""tests/tolerance.py's bound of a long float32 computation by its own float32 error
(``assert_within_reference_error``): it holds for the same math summed in another order,
and fails on a difference of the math or on a float32 error of ours out of line with the
reference's."""
from __future__ import annotations

import numpy as np
import pytest

from .tolerance import assert_within_reference_error


def _chain(x, order):
    """A deep-ish float computation in x's dtype: sums of products over 20 layers, each
    row summed in ``order`` (another kernel's order)."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        w = (rng.standard_normal((x.shape[1], x.shape[1])) / 8).astype(x.dtype)
        terms = x[:, :, None] * w[None]
        x = np.tanh(terms[:, order].sum(axis=1) + x)
    return x


X = np.random.default_rng(0).standard_normal((16, 64)).astype(np.float32)
FORWARD, BACKWARD = np.arange(64), np.arange(64)[::-1]


def test_another_summation_order_is_within_the_two_float32_errors():
    ref, ref64 = _chain(X, FORWARD), _chain(X.astype(np.float64), FORWARD)
    ours, ours64 = _chain(X, BACKWARD), _chain(X.astype(np.float64), BACKWARD)
    assert not np.array_equal(ours, ref)  # (the orders do round differently)
    assert_within_reference_error(ours, ref, ours64, ref64, n=64 * 20)


def test_other_math_fails_even_inside_a_fixed_float32_tolerance():
    ref, ref64 = _chain(X, FORWARD), _chain(X.astype(np.float64), FORWARD)
    ours, ours64 = ref.copy(), ref64.copy()
    ours64[3, 5] += 1e-9 * np.abs(ref64).max()  # (far below float32's rounding)
    with pytest.raises(AssertionError, match="in float64"):
        assert_within_reference_error(ours, ref, ours64, ref64, n=64 * 20)


def test_a_float32_error_of_ours_beyond_the_references_fails():
    ref, ref64 = _chain(X, FORWARD), _chain(X.astype(np.float64), FORWARD)
    ours64 = _chain(X.astype(np.float64), BACKWARD)
    ours = _chain(X.astype(np.float16), BACKWARD).astype(np.float32)  # (precision lost)
    with pytest.raises(AssertionError, match="our float32 error"):
        assert_within_reference_error(ours, ref, ours64, ref64, n=64 * 20)
