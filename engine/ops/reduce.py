"""Reductions over all elements or over one or several axes."""
from __future__ import annotations

from ..backend import default_float, xp
from ..tensor import record
from . import defop, spec
from .elementwise import as_out, div, mul
from .shape import broadcast_to, reshape
from .testing import with_axis


def norm_axes(axis, ndim):
    """``axis`` as a sorted tuple of non-negative ints (all axes for None)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        return tuple(sorted(a + ndim if a < 0 else a for a in axis))
    return (axis + ndim if axis < 0 else axis,)


def expand_reduced(g, in_shape, axes, keepdims):
    """Reinsert the reduced axes of ``g`` as size-1 dims so it broadcasts to ``in_shape``."""
    if keepdims or not axes:
        return g
    shape = list(g.data.shape)
    for a in axes:
        shape.insert(a, 1)
    return reshape(g, shape)


def _sum_vjp(n, g):
    axes, keepdims = n.attrs
    return (broadcast_to(expand_reduced(g, n.shapes[0], axes, keepdims), n.shapes[0]),)


_sum = defop("sum", _sum_vjp)


def sum(x, axis=None, keepdims=False, dtype=None):
    a = x.data
    axes = norm_axes(axis, a.ndim)
    if dtype is None and a.dtype.kind in "bui":
        dtype = xp.dtype(xp.int64)
    out = as_out(a.sum(axis=axes, keepdims=keepdims, dtype=dtype))
    return record(_sum, out, (x,), attrs=(axes, keepdims))


def _mean_vjp(n, g):
    axes, keepdims, count = n.attrs
    return (broadcast_to(expand_reduced(div(g, count), n.shapes[0], axes, keepdims),
                         n.shapes[0]),)


_mean = defop("mean", _mean_vjp)


def mean(x, axis=None, keepdims=False):
    a = x.data
    if a.dtype.kind != "f":
        a = a.astype(default_float)
    axes = norm_axes(axis, a.ndim)
    count = 1
    for ax in axes:
        count *= a.shape[ax]
    out = as_out(a.mean(axis=axes, keepdims=keepdims))
    return record(_mean, out, (x,), attrs=(axes, keepdims, count))


spec("sum", sum, with_axis(), ref=lambda a, axis, keepdims: a.sum(axis=axis, keepdims=keepdims))
spec("mean", mean, with_axis(),
     ref=lambda a, axis, keepdims: a.mean(axis=axis, keepdims=keepdims))
__all__ = ["sum", "mean", "norm_axes", "expand_reduced", "mul"]
