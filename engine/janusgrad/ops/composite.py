"""Ops written once in engine ops: they differentiate through the ops they are made of.

Both dialects call these (their in-place forms too) instead of spelling the formula
themselves: interpolation, the fused add-multiply/add-divide of optimisers, filling under a
mask, and closeness tests.
"""
from __future__ import annotations

from janusgrad.array.backend import host, xp_of
from janusgrad.core.tensor import Tensor
from janusgrad.ops import spec
from janusgrad.ops.elementwise import (
    abs,
    add,
    div,
    eq,
    isnan,
    le,
    logical_and,
    logical_or,
    mul,
    sub,
    where_,
)
from janusgrad.ops.testing import array, small_shape


def lerp(x, end, weight):
    """``x + weight * (end - x)``."""
    return add(x, mul(weight, sub(end, x)))


def addcmul(x, t1, t2, value=1):
    """``x + value * t1 * t2`` (the product first, then the scale, as the optimisers do)."""
    p = mul(t1, t2)
    return add(x, p if value == 1 else mul(p, value))


def addcdiv(x, t1, t2, value=1):
    """``x + value * t1 / t2``."""
    q = div(t1, t2)
    return add(x, q if value == 1 else mul(q, value))


def masked_fill(x, mask, value):
    """``x`` with ``value`` where ``mask`` holds; the result keeps ``x``'s dtype (a scalar
    ``value`` is cast to it, as torch and paddle do: 0.5 fills an integer tensor with 0)."""
    dt = x.array.dtype
    if not isinstance(value, Tensor) and (dt.kind != "f" or type(value) is not float):
        value = dt.type(value)
    return where_(mask, value, x)


def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|x - y| <= atol + rtol * |y|`` (equal values, infinities included,
    are close; NaNs only with ``equal_nan``)."""
    close = logical_or(eq(x, y), le(abs(sub(x, y)), add(mul(abs(y), rtol), atol)))
    if equal_nan:
        close = logical_or(close, logical_and(isnan(x), isnan(y)))
    return close


def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(isclose(x, y, rtol, atol, equal_nan).array.all())


def all_equal(x, y) -> bool:
    """Same shape and the same values."""
    return x.array.shape == y.array.shape and bool(eq(x, y).array.all())


# ---------------------------------------------------------------- specs
def _make_three(lo3=-2.0, hi3=2.0):
    def make(draw, st, hnp):
        shape = small_shape(draw, hnp)
        return [array(draw, st, hnp, shape), array(draw, st, hnp, shape),
                array(draw, st, hnp, shape, lo3, hi3)], {}
    return make


def _make_masked(draw, st, hnp):
    a = array(draw, st, hnp, small_shape(draw, hnp))
    return [a], {}


def _checkerboard(a):
    """A fixed mask of ``a``'s shape, on its device."""
    return xp_of(a).arange(a.size).reshape(a.shape) % 2 == 0


spec("lerp", lerp, _make_three(), ref=lambda a, b, w: a + w * (b - a))
spec("addcmul", lambda x, a, b: addcmul(x, a, b, 0.5), _make_three(),
     ref=lambda x, a, b: x + 0.5 * a * b)
spec("addcdiv", lambda x, a, b: addcdiv(x, a, b, 0.5), _make_three(0.5, 2.0),
     ref=lambda x, a, b: x + 0.5 * a / b)
spec("masked_fill",
     lambda x: masked_fill(x, type(x).wrap(_checkerboard(x.array)), 0.25), _make_masked,
     ref=lambda a: host.where(_checkerboard(a), 0.25, a))
