"""Reductions over all elements or over one or several axes, and the
axis-wise normalisations (softmax, log_softmax, cumsum) that pair with them."""
from __future__ import annotations

import builtins
import itertools
import math

from janusgrad.array.backend import MODULES, default_float, host, int64, ndarray, quiet
from janusgrad.core.mode import GRAD_OFF, INFERENCE_ON, state
from janusgrad.core.tensor import record, unrecorded
from janusgrad.ops import defop, spec
from janusgrad.ops.elementwise import (
    _ARRAY_OUT,
    abs,
    as_out,
    cast,
    div,
    mul,
    ne,
    where_,
)
from janusgrad.ops.index import take_along_axis
from janusgrad.ops.rules import rule_arrays, rule_tensors
from janusgrad.ops.shape import broadcast_to, checked_axis, reshape, transpose, unsqueeze
from janusgrad.ops.testing import distinct_array, small_shape, with_axis


def norm_axes(axis, ndim):
    """``axis`` as a sorted tuple of non-negative ints (all axes for None)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        return tuple(sorted(a + ndim if a < 0 else a for a in axis))
    return (axis + ndim if axis < 0 else axis,)


def reduce_axes(x, op: str, axis):
    """Checked ``norm_axes``: out-of-range axes raise ``invalid("axis")``, a repeated
    axis ``invalid(op, ..., axis=, repeated=True)``; a 0-d tensor takes 0 and -1."""
    nd = x.array.ndim
    if axis is None:
        return tuple(range(nd))
    if isinstance(axis, (tuple, list)):
        axes = tuple(sorted(checked_axis(x, op, a) for a in axis))
        if len(set(axes)) != len(axes):
            dup = next(a for a in axes if axes.count(a) > 1)
            raise x.dialect.invalid(op, f"axis {dup} appears multiple times in the list of axes",
                                    axis=dup, repeated=True)
    else:
        axes = (checked_axis(x, op, axis),)
    return axes if nd else ()


def expand_reduced(g, in_shape, axes, keepdims):
    """Reinsert the reduced axes of ``g`` as size-1 dims so it broadcasts to ``in_shape``."""
    if keepdims or not axes:
        return g
    shape = list(g.array.shape)
    for a in axes:
        shape.insert(a, 1)
    return reshape(g, shape)


_SMALL = 4096  # elements: below this a filled copy is cheaper than numpy's broadcast_to


def spread(g, shape, axes, keepdims):
    """The gradient ``g`` of a reduction over ``axes`` broadcast back over the input's
    ``shape``."""
    if (state.mode & GRAD_OFF or not g.requires_grad) and math.prod(shape) <= _SMALL:
        # (nothing would record the spread of a gradient that requires no grad either)
        return type(g).wrap(_filled(g.array, shape, axes, keepdims))
    return broadcast_to(expand_reduced(g, shape, axes, keepdims), shape)


def _spread(g, n, axes, keepdims):
    return spread(g, n.shapes[0], axes, keepdims)


def _with_kept_axes(a, axes, keepdims):
    """The array ``a`` (reduced over ``axes``) with those axes back as size-1 dims."""
    if axes and not keepdims:
        kept = list(a.shape)
        for ax in axes:
            kept.insert(ax, 1)
        a = a.reshape(kept)
    return a


def _filled(a, shape, axes, keepdims):
    """A new array of ``shape`` filled from ``a`` (reduced over ``axes``): for small
    shapes, in C, instead of the Python-level np.broadcast_to view (several microseconds
    per call)."""
    a = _with_kept_axes(a, axes, keepdims)
    out = MODULES[type(a)].empty(shape, a.dtype)
    out[...] = a
    return out


def spread_array(a, shape, axes, keepdims):
    """``spread`` on a bare array (a numpy scalar for a 0-d gradient)."""
    if math.prod(shape) <= _SMALL:
        return _filled(a, shape, axes, keepdims)
    a = _with_kept_axes(a, axes, keepdims)
    if type(a) is ndarray and 1 < _count(shape, axes) <= 16 and \
            math.prod(shape) >= _WINDOW_MIN:
        # (a pooling window's gradient: a new array by one strided copy per window
        # element, where a copy of the broadcast view, as the reshape after it makes, walks
        # the window's axes an element at a time, twice as slow)
        out = MODULES[type(a)].empty(shape, a.dtype)
        for idx in itertools.product(*(range(shape[ax]) for ax in axes)):
            key = [slice(None)] * len(shape)
            for ax, i in zip(axes, idx):
                key[ax] = slice(i, i + 1)
            out[tuple(key)] = a
        return out
    return MODULES[type(a)].broadcast_to(a, shape)


def _kept(n, axes, keepdims):
    """The node's output with the reduced axes kept as size-1 dims."""
    return expand_reduced(n.output(), n.shapes[0], axes, keepdims)


_add_reduce = host.add.reduce  # numpy's, bound once: sum's fast path (a.sum minus
# numpy's Python-level wrapper around the same ufunc reduce)


def _quiet():
    """No warning on a division by zero or an invalid value (they give inf/nan values)."""
    return quiet(invalid="ignore", divide="ignore")


def _count(shape, axes) -> int:
    count = 1
    for ax in axes:
        count *= shape[ax]
    return count


def _float_data(x):
    a = x.array
    return a if a.dtype.kind == "f" else a.astype(default_float)


# ---------------------------------------------------------------- sum, mean
# arrays from this size on, reduced over (or spread back along) axes of at most 16 elements
# in all, take the strided-slice paths (read at call time: tests/test_thresholds.py lowers it)
_WINDOW_MIN = 16384


def _small_axes_sum(a, axes, keepdims):
    """The sum over ``axes`` of a large float numpy array as a sum of strided slices,
    where those axes hold few elements in all (a 2x2 pooling window of a reshaped image,
    ...): numpy's reduce walks such axes an element at a time, about ten times slower.
    None where that does not apply."""
    count = _count(a.shape, axes)
    if not (1 < count <= 16 and a.size >= _WINDOW_MIN and type(a) is ndarray and
            a.dtype.kind == "f" and a.dtype.itemsize >= 4):
        return None
    views = []
    for idx in itertools.product(*(range(a.shape[ax]) for ax in axes)):
        key = [slice(None)] * a.ndim
        for ax, i in zip(axes, idx):
            key[ax] = slice(i, i + 1) if keepdims else i
        views.append(a[tuple(key)])
    out = views[0] + views[1]
    for v in views[2:]:
        out += v
    return out


def _axes_of(a, axis) -> tuple:
    if axis is None:
        return tuple(range(a.ndim))
    return tuple(ax % a.ndim for ax in (axis if isinstance(axis, tuple) else (axis,)))


def sum_array(a, axis=None, keepdims=False):
    """``a.sum`` on a bare array, by the same route as the ``sum`` op (so that the array
    and the recording backwards add in the same order)."""
    fast = _small_axes_sum(a, _axes_of(a, axis), keepdims) if a.ndim else None
    return fast if fast is not None else a.sum(axis=axis, keepdims=keepdims)


def mean_array(a, axis=None, keepdims=False):
    """``mean`` on a bare array, by the same route as the ``mean`` op."""
    axes = _axes_of(a, axis)
    fast = _small_axes_sum(a, axes, keepdims) if a.ndim else None
    if fast is not None:
        fast /= _count(a.shape, axes)
        return fast
    return MODULES[type(a)].mean(a, axis=axis, keepdims=keepdims)


_sum = defop("sum", rule=lambda np, g, shape, attrs: np.spread(g, shape, *attrs),
             uses=("shape", "attrs"))


_ALL_AXES = tuple(tuple(range(n)) for n in range(65))  # sum()'s axes, by ndim


def sum(x, axis=None, keepdims=False, dtype=None):
    """Sum over ``axis``; integer and bool inputs accumulate in int64 (as torch)."""
    a = x.array
    if axis is None and dtype is None and type(a) is ndarray and a.dtype.kind == "f":
        # the loss's sum(): what the general path below does, with less to decide
        axes = _ALL_AXES[a.ndim]
        out = _add_reduce(a, axes, keepdims=keepdims, out=_ARRAY_OUT)
        if type(out) is not ndarray:
            out = as_out(out)
        mode = state.mode
        if mode:  # grad off or inference mode: nothing recorded
            return unrecorded(type(x), out) if mode & INFERENCE_ON else type(x).wrap(out)
        return record(_sum, out, (x,), (), (axes, keepdims), False, type(x))
    axes = reduce_axes(x, "sum", axis)
    if dtype is None and a.dtype.kind in "bui":
        dtype = int64
    fast = _small_axes_sum(a, axes, keepdims) if dtype is None else None
    if fast is not None:
        out = fast
    elif type(a) is ndarray:
        out = as_out(_add_reduce(a, axis=axes, dtype=dtype, keepdims=keepdims))
    else:
        out = as_out(a.sum(axis=axes, dtype=dtype, keepdims=keepdims))
    return record(_sum, out, (x,), attrs=(axes, keepdims))


# (a primitive, not sum / count: frontends show its own node)
_mean = defop("mean", uses=("shape", "attrs"),
              rule=lambda np, g, shape, attrs: np.spread(g / attrs[2], shape, *attrs[:2]))


def mean(x, axis=None, keepdims=False):
    a = _float_data(x)
    axes = reduce_axes(x, "mean", axis)
    count = _count(a.shape, axes)
    fast = _small_axes_sum(a, axes, keepdims)
    if fast is not None:
        fast /= count  # (numpy's mean: the sum, then a division by the count)
        out = fast
    elif count:
        out = as_out(a.mean(axis=axes, keepdims=keepdims))
    else:  # nan, as torch gives, without numpy's warning
        with _quiet():
            out = as_out(a.sum(axis=axes, keepdims=keepdims) / 0.0)
    return record(_mean, out, (x,), attrs=(axes, keepdims, count))


# ---------------------------------------------------------------- prod
def _prod_vjp(n, g):
    axes, keepdims = n.attrs
    x = n.saved[0]
    return (mul(_spread(g, n, axes, keepdims), _prod_of_others(x, axes, n, keepdims)),)


def _prod_of_others(x, axes, n, keepdims):
    """For every element, the product of the other elements of its slice.

    Never divides by a zero (nor by an element so small that the second
    derivative's x*x would underflow), so the result and its own derivative
    are right when the input holds zeros.
    """
    a = x.array
    xp = MODULES[type(a)]
    special = xp.abs(a) < xp.finfo(a.dtype).tiny ** 0.5
    if not special.any():
        return div(_kept(n, axes, keepdims), x)
    count = special.sum(axis=axes, keepdims=True)
    if count.max() >= 2:
        return _prod_of_others_pairwise(x, axes)
    # at most one special element z per slice: with it replaced by one, the product of
    # the others is p/x; off z it is further multiplied by x_z itself.
    safe = where_(special, 1.0, x)
    p = prod(safe, axes, keepdims=True)
    x_z = sum(where_(special, x, 0.0), axes, keepdims=True)
    factor = where_(special, 1.0, where_(count == 1, x_z, 1.0))
    return mul(div(p, safe), factor)


def _prod_of_others_pairwise(x, axes):
    """The product of the others by brute force: an n-by-n copy of each slice with
    ones on its diagonal (memory n^2 per slice; used only when a slice has 2+ zeros)."""
    nd = x.array.ndim
    rest = [a for a in range(nd) if a not in axes]
    order = rest + list(axes)
    moved = transpose(x, order)
    rest_shape = moved.array.shape[:len(rest)]
    count = _count(x.array.shape, axes)
    flat = reshape(moved, rest_shape + (count,))
    square = broadcast_to(unsqueeze(flat, -2), rest_shape + (count, count))
    eye = MODULES[type(x.array)].eye(count, dtype=bool)
    others = prod(where_(eye, 1.0, square), -1)
    inv = [0] * nd
    for i, a in enumerate(order):
        inv[a] = i
    return transpose(reshape(others, moved.array.shape), inv)


_prod = defop("prod", _prod_vjp)


def prod(x, axis=None, keepdims=False):
    """Product over ``axis``; integer and bool inputs accumulate in int64 (as torch)."""
    a = x.array
    axes = reduce_axes(x, "prod", axis)
    dtype = int64 if a.dtype.kind in "bui" else None
    out = as_out(a.prod(axis=axes, keepdims=keepdims, dtype=dtype))
    return record(_prod, out, (x,), (x,), attrs=(axes, keepdims), save_out=True)


# ---------------------------------------------------------------- amax, amin, argmax, argmin
def _extreme_rule(np, g, x, out, shape, attrs):
    # the gradient is shared evenly among the elements equal to the extreme, as in torch
    axes, keepdims = attrs
    hit = np.equal(x, _kept_out(np, out, shape, axes, keepdims))
    # the count as floats: an integer count divided into a float gradient is refused by a
    # strict dialect when the rule is recorded (paddle, create_graph)
    return np.where(hit, np.spread(g, shape, axes, keepdims), 0.0) / (np.sum(
        hit, axes, keepdims=True) * 1.0)


_amax = defop("amax", rule=_extreme_rule, uses=("x", "out", "shape", "attrs"))
_amin = defop("amin", rule=_extreme_rule, uses=("x", "out", "shape", "attrs"))


def _extreme(opdef, x, axis, keepdims):
    largest = opdef is _amax or opdef is _max
    name = "amax" if largest else "amin"
    axes = reduce_axes(x, name, axis)
    a = x.array
    if a.size == 0 and (not axes or _count(a.shape, axes) == 0):
        raise x.dialect.invalid(name, "cannot reduce an empty tensor without an "
                                "identity", shape=a.shape, axis=axis)
    out = as_out((a.max if largest else a.min)(axis=axes, keepdims=keepdims))
    attrs = (axes, keepdims)
    if opdef is _max or opdef is _min:  # (whole: the NaN elements, where the result is NaN)
        nans = MODULES[type(a)].isnan(a) if a.dtype.kind in "fc" and out != out else None
        attrs += (nans, 0.0 if nans is None else float(nans.sum()))
    return record(opdef, out, (x,), (x,), attrs=attrs, save_out=True)


def amax(x, axis=None, keepdims=False):
    return _extreme(_amax, x, axis, keepdims)


def amin(x, axis=None, keepdims=False):
    return _extreme(_amin, x, axis, keepdims)


def _whole_rule(np, g, x, out, shape, attrs):
    axes, keepdims, nans, count = attrs
    if nans is None:
        return _extreme_rule(np, g, x, out, shape, (axes, keepdims))
    return np.where(nans, np.spread(g, shape, axes, keepdims), 0.0) / count


_max = defop("max", rule=_whole_rule, uses=("x", "out", "shape", "attrs"))
_min = defop("min", rule=_whole_rule, uses=("x", "out", "shape", "attrs"))


def _whole(opdef, x):
    """amax / amin over every element, whose gradient at a NaN result goes to the NaN
    elements, shared evenly (torch's max() / min(); its amax, like paddle's max, gives NaN
    everywhere)."""
    return _extreme(opdef, x, None, False)


def max(x):  # noqa: A001
    return _whole(_max, x)


def min(x):  # noqa: A001
    return _whole(_min, x)


def _arg_extreme(op, x, axis, keepdims):
    """argmax for ``op`` "argmax" or "max", argmin otherwise."""
    a = x.array
    if axis is not None:
        axis = checked_axis(x, op, axis)
        if a.ndim == 0:
            axis = None
    if a.size == 0:
        raise x.dialect.invalid(op, "cannot take the index of the extreme of an empty tensor",
                                shape=a.shape, axis=axis)
    largest = op in _ARGMAX
    if x.dialect.arg_extremes_skip_nan and a.dtype.kind == "f":
        xp = MODULES[type(a)]
        nans = xp.isnan(a)
        if nans.any():  # a NaN ranks below (above) every number; all NaN: index 0
            a = xp.where(nans, -xp.inf if largest else xp.inf, a)
    out = (a.argmax if largest else a.argmin)(axis=axis, keepdims=keepdims)
    return type(x).wrap(as_out(out).astype(int64, copy=False))


_ARGMAX = frozenset({"argmax", "max"})


def argmax(x, axis=None, keepdims=False):
    """Index of the first maximum (of the flattened tensor for None); int64, no gradient."""
    return _arg_extreme("argmax", x, axis, keepdims)


def argmin(x, axis=None, keepdims=False):
    return _arg_extreme("argmin", x, axis, keepdims)


def _extreme_along(op, x, axis, keepdims):
    axis = checked_axis(x, op, axis)
    if not x.array.ndim:
        return x, type(x).wrap(MODULES[type(x.array)].zeros((), dtype=int64))
    idx = _arg_extreme(op, x, axis, True)
    values = take_along_axis(x, idx, axis)
    if values.node is not None:
        # the node keeps the indices (as torch's MaxBackward0 does), so that a second
        # backward after the graph was freed is refused as torch refuses it
        values.node.saved = (idx,)
    if not keepdims:
        values = reshape(values, values.array.shape[:axis] + values.array.shape[axis + 1:])
        idx = type(idx).wrap(idx.array.reshape(values.array.shape))
    return values, idx


def max_along(x, axis, keepdims=False):
    """(values, int64 indices) of the maximum along one axis; the gradient goes to the
    indexed element only (torch.max(x, dim)), not shared among ties as in amax."""
    return _extreme_along("max", x, axis, keepdims)


def min_along(x, axis, keepdims=False):
    return _extreme_along("min", x, axis, keepdims)


# ---------------------------------------------------------------- var, std
def _dof(shape, axes, correction):
    return builtins.max(0, _count(shape, axes) - correction)


def _kept_out(np, out, shape, axes, keepdims):
    """A reduction's output with the reduced axes back as size-1 dims."""
    if keepdims or not axes:
        return out
    kept = list(shape)
    for ax in axes:
        kept[ax] = 1
    return np.reshape(out, kept)


def _var_rule(np, g, x, shape, attrs):
    axes, keepdims, dof = attrs
    scale = 2.0 / dof if dof else math.inf
    return np.spread(g, shape, axes, keepdims) * ((x - np.mean(x, axes, keepdims=True)) * scale)


def _std_rule(np, g, x, out, shape, attrs):
    axes, keepdims, dof = attrs
    return (np.spread(g, shape, axes, keepdims) * (x - np.mean(x, axes, keepdims=True))) / (
        _kept_out(np, out, shape, axes, keepdims) * (dof if dof else 0.0))


# (primitives, not composites of mean and sqrt: frontends show their own nodes)
_var = defop("var", rule=_var_rule, uses=("x", "shape", "attrs"))
_std = defop("std", rule=_std_rule, uses=("x", "out", "shape", "attrs"))


def _variance(x, op, axis, correction, keepdims):
    a = _float_data(x)
    axes = reduce_axes(x, op, axis)
    dof = _dof(a.shape, axes, correction)
    with _quiet():
        d = a - a.mean(axis=axes, keepdims=True)
        v = (d * d).sum(axis=axes, keepdims=keepdims) / float(dof)
    return as_out(v), axes, dof


def var(x, axis=None, correction=1, keepdims=False):
    """Variance with ``correction`` subtracted from the count (Bessel's for 1)."""
    v, axes, dof = _variance(x, "var", axis, correction, keepdims)
    return record(_var, v, (x,), (x,), attrs=(axes, keepdims, dof))


def std(x, axis=None, correction=1, keepdims=False):
    v, axes, dof = _variance(x, "std", axis, correction, keepdims)
    return record(_std, as_out(MODULES[type(v)].sqrt(v)), (x,), (x,),
                  attrs=(axes, keepdims, dof),
                  save_out=True)


# ---------------------------------------------------------------- vector norms
def _norm2_rule(np, g, x, out, shape, attrs):
    # x / |x|, with 0 (not nan) where the whole slice is zero, as torch gives
    axes, keepdims, _ = attrs
    out = _kept_out(np, out, shape, axes, keepdims)
    safe = np.where(np.equal(out, 0.0), 1.0, out)
    return np.spread(g, shape, axes, keepdims) * (x / safe)


def _normp_rule(np, g, x, out, shape, attrs):
    # sign(x) |x|^(p-1) / |x|_p^(p-1), again 0 where the norm is zero (for p < 0, a slice
    # holding one zero: every element's gradient is 0 there, as torch gives)
    axes, keepdims, p = attrs
    out = _kept_out(np, out, shape, axes, keepdims)
    zero = np.equal(out, 0.0)
    safe = np.where(zero, 1.0, out)
    mag = np.abs(x)
    if p < 1:
        mag = np.where(np.equal(x, 0.0), 1.0, mag)
    grad = np.spread(g, shape, axes, keepdims) * (np.sign(x) * np.power(mag / safe, p - 1))
    return np.where(zero, 0.0, grad) if p < 0 else grad


_norm2 = defop("norm2", rule=_norm2_rule, uses=("x", "out", "shape", "attrs"))
_normp = defop("normp", rule=_normp_rule, uses=("x", "out", "shape", "attrs"))


def norm(x, ord=2, axis=None, keepdims=False):
    """Vector p-norm over ``axis`` (all axes for None; several axes are flattened).

    ``ord`` is any real p, ``inf``/``-inf`` (max/min of |x|), 0 (count of
    nonzeros) or ``"fro"`` (the 2-norm of the elements).
    """
    if x.array.dtype.kind != "f":
        x = cast(x, default_float)
    axes = reduce_axes(x, "norm", axis)
    if ord == "fro":
        ord = 2
    elif isinstance(ord, str):
        raise x.dialect.invalid("norm", f"unsupported norm order {ord!r}", ord=ord)
    a = x.array
    if ord == math.inf:
        return amax(abs(x), axes, keepdims)
    if ord == -math.inf:
        return amin(abs(x), axes, keepdims)
    if ord == 0:
        return cast(sum(ne(x, 0.0), axes, keepdims), a.dtype)
    if ord == 1:
        return sum(abs(x), axes, keepdims)
    if ord == 2:
        out = MODULES[type(a)].sqrt((a * a).sum(axis=axes, keepdims=keepdims))
        return record(_norm2, as_out(out), (x,), (x,), attrs=(axes, keepdims, 2),
                      save_out=True)
    p = float(ord)
    xp = MODULES[type(a)]
    with _quiet():
        out = (xp.abs(a) ** p).sum(axis=axes, keepdims=keepdims) ** (1.0 / p)
    return record(_normp, as_out(out).astype(a.dtype, copy=False), (x,), (x,),
                  attrs=(axes, keepdims, p), save_out=True)


# ---------------------------------------------------------------- logsumexp, softmax
def _shifted(a, axes):
    """a minus its max over ``axes`` (a finite shift, so that exp cannot overflow)."""
    xp = MODULES[type(a)]
    m = a.max(axis=axes, keepdims=True) if a.size else xp.zeros((1,) * a.ndim, a.dtype)
    m = xp.where(xp.isfinite(m), m, 0).astype(a.dtype, copy=False)
    return a - m, m


# (a primitive: the composite log(sum(exp(x))) overflows)
_logsumexp = defop("logsumexp", uses=("x", "out", "shape", "attrs"), rule=lambda np, g, x, out,
                   shape, attrs: np.spread(g, shape, *attrs) * np.exp(
                       x - _kept_out(np, out, shape, *attrs)))


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over ``axis``, computed without overflow."""
    a = _float_data(x)
    axes = reduce_axes(x, "logsumexp", axis)
    s, m = _shifted(a, axes)
    xp = MODULES[type(a)]
    with _quiet():
        out = xp.log(xp.exp(s).sum(axis=axes, keepdims=True)) + m
    if not keepdims:
        out = out.reshape([d for i, d in enumerate(a.shape) if i not in axes])
    return record(_logsumexp, as_out(out), (x,), (x,), attrs=(axes, keepdims), save_out=True)


# (primitives: fused rules, cheaper than the composites' and as stable)
_softmax = defop("softmax", uses=("out", "attrs"), rule=lambda np, g, out, axes: out * (
    g - np.sum(g * out, axes, keepdims=True)))
_log_softmax = defop("log_softmax", uses=("out", "attrs"), rule=lambda np, g, out, axes: (
    g - np.exp(out) * np.sum(g, axes, keepdims=True)))


def refuse_integers(x, op: str, axes: tuple = ()) -> None:
    """Both frameworks' softmax-family kernels exist for floating dtypes only: an integer
    input is refused (``axes``: the reduced ones; torch names its kernel by whether that is
    the last axis), not cast silently."""
    a = x.array
    if a.dtype.kind not in "fc":
        raise x.dialect.invalid(op, f"{op} expects a floating point input, got {a.dtype}",
                                float_required=True, dtype=a.dtype,
                                last_axis=a.ndim == 0 or tuple(axes) == (a.ndim - 1,))


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) over ``axis`` (all axes for None), computed stably."""
    axes = reduce_axes(x, "softmax", axis)
    refuse_integers(x, "softmax", axes)
    a = x.array
    e = MODULES[type(a)].exp(_shifted(a, axes)[0])
    out = e / e.sum(axis=axes, keepdims=True)
    return record(_softmax, as_out(out), (x,), attrs=axes, save_out=True)


def log_softmax(x, axis=None):
    axes = reduce_axes(x, "log_softmax", axis)
    refuse_integers(x, "log_softmax", axes)
    a = x.array
    s = _shifted(a, axes)[0]
    xp = MODULES[type(a)]
    out = s - xp.log(xp.exp(s).sum(axis=axes, keepdims=True))
    return record(_log_softmax, as_out(out), (x,), attrs=axes, save_out=True)


# ---------------------------------------------------------------- cumsum
_cumsum = defop("cumsum", uses="attrs", rule=lambda np, g, axis: np.flip(
    np.cumsum(np.flip(g, axis), axis), axis))


def cumsum(x, axis=None):
    """Running sum along ``axis`` (over the flattened tensor for None)."""
    if axis is None or x.array.ndim == 0:
        if axis is not None:
            checked_axis(x, "cumsum", axis)
        x = reshape(x, (-1,))
        axis = 0
    axis = checked_axis(x, "cumsum", axis)
    a = x.array
    dtype = int64 if a.dtype.kind in "bui" else None
    return record(_cumsum, a.cumsum(axis=axis, dtype=dtype), (x,), attrs=axis)


# ---------------------------------------------------------------- specs
def _reduce_ref(fn):
    return lambda a, axis=None, keepdims=False, **kw: fn(a, axis=_np_axis(axis),
                                                        keepdims=keepdims, **kw)


def _np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def _with_zeros(draw, st, hnp):
    """An array with some exact zeros (one, or several in a slice) for prod.

    The other elements keep away from zero: like torch's, the no-zero gradient is
    prod/x, whose own derivative loses ~eps/|x| to cancellation for tiny x."""
    [a], kw = with_axis(avoid=(0.0,))(draw, st, hnp)
    if a.size:
        flat = a.reshape(-1)
        for i in draw(st.lists(st.integers(0, a.size - 1), max_size=3)):
            flat[i] = 0.0
    return [a], kw


def _var_ref(a, axis=None, correction=1, keepdims=False):
    return a.var(axis=axis, ddof=correction, keepdims=keepdims)


def _nontrivial(make, correction):
    """``make`` restricted to reductions over more than ``correction`` elements."""
    def draw_case(draw, st, hnp):
        from hypothesis import assume
        [a], kw = make(draw, st, hnp)
        assume(_count(a.shape, norm_axes(kw["axis"], a.ndim)) > correction)
        kw["correction"] = correction
        return [a], kw
    return draw_case


def _norm_ref(a, ord=2, axis=None, keepdims=False):
    axes = norm_axes(axis, a.ndim)
    if ord == "fro":
        ord = 2
    b = host.abs(a)
    if ord == math.inf:
        r = b.max(axis=axes, keepdims=keepdims)
    elif ord == -math.inf:
        r = b.min(axis=axes, keepdims=keepdims)
    elif ord == 0:
        r = (a != 0).sum(axis=axes, keepdims=keepdims).astype(a.dtype)
    else:
        r = (b ** ord).sum(axis=axes, keepdims=keepdims) ** (1.0 / ord)
    return r


def _norm_case(*ords):
    def make(draw, st, hnp):
        [a], kw = with_axis(distinct=True, signs=True, lo=0.2)(draw, st, hnp)
        kw["ord"] = draw(st.sampled_from(ords))
        return [a], kw
    return make


def _lse_ref(a, axis=None, keepdims=False):
    axes = norm_axes(axis, a.ndim)
    m = a.max(axis=axes, keepdims=True) if a.size else 0.0
    r = host.log(host.exp(a - m).sum(axis=axes, keepdims=True)) + m
    return r if keepdims else r.reshape([d for i, d in enumerate(a.shape) if i not in axes])


def _softmax_ref(a, axis=None):
    axes = norm_axes(axis, a.ndim)
    e = host.exp(a - a.max(axis=axes, keepdims=True))
    return e / e.sum(axis=axes, keepdims=True)


def _cumsum_case(draw, st, hnp):
    [a], kw = with_axis(keepdims=False, multi=False)(draw, st, hnp)
    return [a], kw


def _argmax_case(draw, st, hnp):
    return with_axis(distinct=True, multi=False)(draw, st, hnp)


spec("sum", sum, with_axis(), ref=_reduce_ref(host.sum))
spec("mean", mean, with_axis(), ref=_reduce_ref(host.mean))
spec("prod", prod, _with_zeros, ref=_reduce_ref(host.prod))
# amax/amin: distinct values keep the finite differences away from ties (where the
# derivative jumps); the second derivative there is zero and is checked as such.
spec("amax", amax, with_axis(distinct=True), ref=_reduce_ref(host.max))
spec("amin", amin, with_axis(distinct=True), ref=_reduce_ref(host.min))


def _whole_case(draw, st, hnp):
    return [distinct_array(draw, st, hnp, small_shape(draw, hnp), -2.0, 2.0, False)], {}


spec("max", max, _whole_case, ref=host.max)
spec("min", min, _whole_case, ref=host.min)
spec("argmax", argmax, _argmax_case, differentiable=False,
     ref=lambda a, axis, keepdims: host.argmax(a, axis=axis, keepdims=keepdims))
spec("argmin", argmin, _argmax_case, differentiable=False,
     ref=lambda a, axis, keepdims: host.argmin(a, axis=axis, keepdims=keepdims))
def _one_axis_case(draw, st, hnp):
    [a], kw = with_axis(distinct=True, multi=False, min_dims=1)(draw, st, hnp)
    kw["axis"] = 0 if kw["axis"] is None else kw["axis"]
    return [a], kw


spec("max_along", lambda x, axis, keepdims: max_along(x, axis, keepdims)[0], _one_axis_case,
     ref=lambda a, axis, keepdims: a.max(axis=axis, keepdims=keepdims))
spec("min_along", lambda x, axis, keepdims: min_along(x, axis, keepdims)[0], _one_axis_case,
     ref=lambda a, axis, keepdims: a.min(axis=axis, keepdims=keepdims))
spec("var", var, _nontrivial(with_axis(), 1), ref=_reduce_ref(_var_ref))
spec("var_biased", var, _nontrivial(with_axis(), 0), ref=_reduce_ref(_var_ref))
spec("std", std, _nontrivial(with_axis(distinct=True), 1),
     ref=_reduce_ref(lambda a, correction, **kw: host.sqrt(_var_ref(a, correction=correction,
                                                                   **kw))))
spec("norm", norm, _norm_case(2, "fro"), ref=_norm_ref)
spec("norm_p", norm, _norm_case(3, 1.5, 0.5, -1.5), ref=_norm_ref)
spec("norm_1_0_inf", norm, _norm_case(1, 0, math.inf, -math.inf), ref=_norm_ref)
spec("logsumexp", logsumexp, with_axis(-5.0, 5.0), ref=_lse_ref)
spec("softmax", softmax, with_axis(-5.0, 5.0, keepdims=False), ref=_softmax_ref)
spec("log_softmax", log_softmax, with_axis(-5.0, 5.0, keepdims=False),
     ref=lambda a, axis: host.log(_softmax_ref(a, axis)))
spec("cumsum", cumsum, _cumsum_case,
     ref=lambda a, axis: host.cumsum(a if a.ndim else a.reshape(1), axis=axis))
__all__ = ["sum", "mean", "prod", "amax", "amin", "max", "min", "argmax", "argmin", "max_along",
           "min_along", "var",
           "std", "norm", "logsumexp", "softmax", "log_softmax", "cumsum", "norm_axes",
           "reduce_axes", "expand_reduced", "mul"]


@rule_arrays
def _rule_arrays(xp) -> dict:
    return {"sum": sum_array, "mean": mean_array, "spread": spread_array}


@rule_tensors
def _rule_tensors() -> dict:
    return {"sum": sum, "mean": mean, "cumsum": cumsum, "spread": spread}
