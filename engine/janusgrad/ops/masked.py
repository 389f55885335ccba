"""Masked reductions and normalisations (torch.masked): each is the plain op on the input
with its masked-out elements replaced by the op's identity (``where(mask, x, identity)``),
as torch.masked computes them.  All are compositions of engine ops (where, the reductions,
softmax, logaddexp, vector_norm): they differentiate, to any order, through the ops they
are made of, and a masked-out element gets a zero gradient.

``mask`` is a tensor broadcastable to the input (of no more dimensions; any dtype, read as
bool) or None (every element in).  ``axis``: the reduced axes as a sorted tuple of
non-negative ints (the frontend reads its dialect's ``dim`` into it); ``dtype`` a numpy
dtype or None.  A slice with no element in gives the identity: 0 for sum, 1 for prod,
-inf for amax and logsumexp, inf for amin; NaN for mean, median, var and std.
"""
from __future__ import annotations

import builtins
import functools
import math

from janusgrad.array.backend import bool_, default_float, float64, host, int64, quiet
from janusgrad.ops import spec
from janusgrad.ops.elementwise import cast, div, isnan, maximum, mul, ne, neg, sqrt, sub, where_
from janusgrad.ops.linalg_factor import vector_norm
from janusgrad.ops.math import logaddexp as _logaddexp
from janusgrad.ops.reduce import amax as _amax
from janusgrad.ops.reduce import amin as _amin
from janusgrad.ops.reduce import argmax as _argmax
from janusgrad.ops.reduce import argmin as _argmin
from janusgrad.ops.reduce import cumsum as _cumsum
from janusgrad.ops.reduce import log_softmax as _log_softmax
from janusgrad.ops.reduce import logsumexp as _logsumexp
from janusgrad.ops.reduce import prod as _prod
from janusgrad.ops.reduce import softmax as _softmax
from janusgrad.ops.reduce import sum as _sum
from janusgrad.ops.shape import broadcast_to, reshape
from janusgrad.ops.sorting import cumprod as _cumprod
from janusgrad.ops.sorting import median as _median
from janusgrad.ops.testing import array, distinct_array, small_shape


def _quietly(fn):
    """``fn`` without numpy's floating-point warnings: an empty slice's 0/0, log(0) and
    -inf - -inf are the values meant (torch warns of none of them)."""
    @functools.wraps(fn)
    def quietly(*args, **kwargs):
        with quiet():
            return fn(*args, **kwargs)
    return quietly


# the integer and bool dtypes sum and prod accumulate in int64 (as torch.masked)
_WIDENED = frozenset("bool uint8 int8 int16 int32".split())


def input_mask(x, mask):
    """``mask`` as a bool tensor of ``x``'s shape (None stays None)."""
    if mask is None:
        return None
    if mask.array.shape != x.array.shape:
        mask = broadcast_to(mask, x.array.shape)
    return mask if mask.array.dtype == bool_ else cast(mask, bool_)


def _identity(op, x):
    """The fill of the masked-out elements: ``op``'s identity in ``x``'s dtype (a Python
    float for a float tensor: it keeps the tensor's dtype)."""
    dt = x.array.dtype
    if dt.kind == "f":
        return {"sum": 0.0, "prod": 1.0, "max": -math.inf, "min": math.inf,
                "nan": math.nan}[op]
    if op in ("sum", "prod"):
        return dt.type(op == "prod")
    if dt == bool_:
        return dt.type(op == "min")
    info = host.iinfo(dt)  # host-ok: a dtype's limits, no tensor data
    return dt.type(info.min if op == "max" else info.max)


def _combined(x, mask, op):
    """``x`` with its masked-out elements replaced by ``op``'s identity."""
    if mask is None:
        return x
    return where_(input_mask(x, mask), x, _identity(op, x))


def _widened(x, dtype):
    if dtype is None:
        dt = x.array.dtype
        return int64 if dt.name in _WIDENED else dt
    return dtype


def _cast(x, dtype):
    return x if dtype is None else cast(x, dtype)


# ---------------------------------------------------------------- reductions
@_quietly
def sum(x, axis=(), keepdims=False, dtype=None, mask=None):  # noqa: A001
    """Sum of the masked-in elements over ``axis``; integer and bool inputs in int64."""
    return _sum(_combined(x, mask, "sum"), axis, keepdims, _widened(x, dtype))


@_quietly
def prod(x, axis=(), keepdims=False, dtype=None, mask=None):
    """Product of the masked-in elements over ``axis``, one axis at a time (as torch)."""
    out = cast(_combined(x, mask, "prod"), _widened(x, dtype))
    for ax in reversed(axis):
        out = _prod(out, ax, keepdims)
    return out


@_quietly
def cumsum(x, axis, dtype=None, mask=None):
    """Running sum along ``axis``, the masked-out elements counted as 0."""
    dtype = x.array.dtype if dtype is None else dtype
    out = _cumsum(cast(_combined(x, mask, "sum"), dtype), axis)
    return cast(out if x.array.ndim else reshape(out, ()), dtype)


@_quietly
def cumprod(x, axis, dtype=None, mask=None):
    """Running product along ``axis``, the masked-out elements counted as 1."""
    dtype = x.array.dtype if dtype is None else dtype
    return cast(_cumprod(cast(_combined(x, mask, "prod"), dtype), axis), dtype)


@_quietly
def amax(x, axis=(), keepdims=False, dtype=None, mask=None):
    return _cast(_amax(_combined(x, mask, "max"), axis, keepdims), dtype)


@_quietly
def amin(x, axis=(), keepdims=False, dtype=None, mask=None):
    return _cast(_amin(_combined(x, mask, "min"), axis, keepdims), dtype)


@_quietly
def argmax(x, axis=None, keepdims=False, dtype=None, mask=None):
    """Index of the first maximum of the masked-in elements, in ``dtype`` (torch.masked:
    the input's dtype by default)."""
    out = _argmax(_combined(x, mask, "max"), axis, keepdims)
    return cast(out, x.array.dtype if dtype is None else dtype)


@_quietly
def argmin(x, axis=None, keepdims=False, dtype=None, mask=None):
    out = _argmin(_combined(x, mask, "min"), axis, keepdims)
    return cast(out, x.array.dtype if dtype is None else dtype)


def _count(x, axis, keepdims, mask):
    """The number of masked-in elements of each reduced slice: a number without a mask."""
    if mask is None:
        n, shape = 1, x.array.shape
        for ax in axis if shape else ():  # (a 0-d tensor takes axis 0: one element)
            n *= shape[ax]
        return n
    return _sum(input_mask(x, mask), axis, keepdims)


@_quietly
def mean(x, axis=(), keepdims=False, dtype=None, mask=None):
    """Sum / count of the masked-in elements (NaN where none is in)."""
    dtype = x.array.dtype if dtype is None else dtype
    return div(sum(x, axis, keepdims, dtype, mask), _count(x, axis, keepdims, mask))


@_quietly
def median(x, axis=-1, keepdims=False, mask=None):
    """The lower median of the masked-in elements along ``axis`` (NaN where none is in);
    an integer input is taken as float32 (the caller casts back)."""
    if x.array.dtype.kind != "f":
        x = cast(x, default_float)
    return _median(_combined(x, mask, "nan"), axis, keepdims, ignore_nan=True)[0]


def has_nan(x) -> bool:
    return bool(isnan(x).array.any())


@_quietly
def logsumexp(x, axis=(), keepdims=False, dtype=None, mask=None):
    return _cast(_logsumexp(_combined(x, mask, "max"), axis, keepdims), dtype)


@_quietly
def logaddexp(x, y, dtype=None, x_mask=None, y_mask=None):
    """logaddexp of the two inputs, each masked-out element taken as -inf."""
    dtype = x.array.dtype if dtype is None else dtype
    return cast(_logaddexp(_combined(x, x_mask, "max"), _combined(y, y_mask, "max")), dtype)


@_quietly
def norm(x, ord=2.0, axis=(), keepdims=False, dtype=None, mask=None):
    """The vector ``ord``-norm of the masked-in elements (they count as 0; as inf for
    ``ord`` -inf)."""
    xm = _combined(x, mask, "min" if ord == -math.inf else "sum")
    return vector_norm(_cast(xm, dtype), ord, axis, keepdims)


@_quietly
def var(x, axis=(), correction=1.0, mask=None, dtype=None, keepdims=False, take_sqrt=False):
    """Variance of the masked-in elements with ``correction`` (std with ``take_sqrt``),
    as torch.masked computes it: NaN where no element is in, inf where no more than
    ``correction`` are."""
    if dtype is None:
        dtype = x.array.dtype if x.array.dtype.kind == "f" else default_float
    count = _count(x, axis, True, mask)
    x_mean = div(sum(x, axis, True, dtype, mask), count)
    d = sub(x, x_mean)
    total = sum(mul(d, d), axis, keepdims, dtype, mask)
    if not isinstance(count, int):
        if not keepdims:
            count = reshape(count, total.array.shape)
        if correction != 0:
            count = maximum(sub(cast(count, dtype), correction), 0.0)
    elif correction != 0:
        count = builtins.max(count - correction, 0.0)
    out = cast(div(total, count), dtype)
    return sqrt(out) if take_sqrt else out



@_quietly
def std(x, axis=(), correction=1.0, mask=None, dtype=None, keepdims=False):
    return var(x, axis, correction, mask, dtype, keepdims, take_sqrt=True)


# ---------------------------------------------------------------- normalisations
@_quietly
def softmax(x, axis, dtype=None, mask=None):
    """softmax along ``axis`` with the masked-out elements taken as -inf (they get 0; a
    slice with none in gives NaN)."""
    return _softmax(_cast(_combined(x, mask, "max"), dtype), axis)


@_quietly
def log_softmax(x, axis, dtype=None, mask=None):
    return _log_softmax(_cast(_combined(x, mask, "max"), dtype), axis)


@_quietly
def softmin(x, axis, dtype=None, mask=None):
    """softmax of -x along ``axis`` with the masked-out elements taken as inf."""
    return _softmax(neg(_cast(_combined(x, mask, "min"), dtype)), axis)


@_quietly
def normalize(x, ord, axis, eps=1e-12, dtype=None, mask=None):
    """x over max(its masked ``ord``-norm along ``axis``, eps); masked-out elements 0."""
    nrm = norm(x, ord, (axis,), True, dtype, mask)
    return div(_combined(x, mask, "sum"), maximum(nrm, float(eps)))


# ---------------------------------------------------------------- specs
# Each case: an array and a 0/1 mask array of a shape that broadcasts to it (placed on the
# device like the array; only the array is differentiated).  ``full``: every reduced slice
# keeps an element (for the ops whose empty slice is inf or NaN).
def _draw_mask(draw, st, shape):
    mshape = tuple(d if draw(st.booleans()) else 1
                   for d in shape[len(shape) - draw(st.integers(0, len(shape))):])
    seed = draw(st.integers(0, 2**32 - 1))
    return (host.random.default_rng(seed).random(mshape) < 0.7).astype(float64)


def _axes_of(draw, st, nd, single):
    if not nd:
        return ()
    if single:
        return (draw(st.integers(0, nd - 1)),)
    if draw(st.booleans()):
        return tuple(range(nd))
    return tuple(sorted(draw(st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd,
                                      unique=True))))


def _make_case(single=False, keepdims=True, full=False, distinct=False, lo=-2.0, hi=2.0,
          min_dims=0, one_axis=False, more=0):
    def make(draw, st, hnp):
        from hypothesis import assume

        shape = small_shape(draw, hnp, min_dims=min_dims)
        a = (distinct_array(draw, st, hnp, shape, lo, hi) if distinct
             else array(draw, st, hnp, shape, lo, hi))
        m = _draw_mask(draw, st, shape)
        axes = _axes_of(draw, st, len(shape), single or one_axis)
        if full:
            kept = host.broadcast_to(m, shape).sum(axis=axes) if shape else m
            assume(bool(host.all(kept > more)))
        kw = {"axis": axes[0] if one_axis and axes else (0 if one_axis else axes)}
        if keepdims:
            kw["keepdims"] = draw(st.booleans())
        return [a, m], kw
    return make


def _m(m):
    return ne(m, 0.0)


def _ref_fill(a, m, fill):
    return host.where(host.broadcast_to(m, a.shape) != 0, a, fill)


def _ref_reduce(fn, fill):
    def ref(a, m, axis=(), keepdims=False):
        return fn(_ref_fill(a, m, fill), axis=tuple(axis), keepdims=keepdims)
    return ref


def _ref_norm(a, m, axis=(), keepdims=False, ord=2.0):
    b = host.abs(_ref_fill(a, m, 0.0))
    return (b ** ord).sum(axis=tuple(axis), keepdims=keepdims) ** (1.0 / ord)


def _ref_var(a, m, axis=(), keepdims=False, sqrt=False):
    mb = host.broadcast_to(m, a.shape) != 0
    axes = tuple(axis)
    n = mb.sum(axis=axes, keepdims=True)
    mu = host.where(mb, a, 0.0).sum(axis=axes, keepdims=True) / n
    v = host.where(mb, (a - mu) ** 2, 0.0).sum(axis=axes, keepdims=keepdims) / \
        (n.reshape(host.sum(mb, axis=axes, keepdims=keepdims).shape) - 1.0)
    return host.sqrt(v) if sqrt else v


def _ref_softmax(a, m, axis=0, neg=False):
    b = _ref_fill(-a if neg else a, m, -host.inf)
    e = host.exp(b - b.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _ref_median(a, m, axis=0, keepdims=False):
    b = _ref_fill(a, m, host.nan)
    if not a.ndim:
        return b
    s = host.sort(b, axis=axis)
    n = (~host.isnan(b)).sum(axis=axis, keepdims=True)
    out = host.take_along_axis(s, (n - 1) // 2, axis)
    return out if keepdims else host.squeeze(out, axis)


def _ref_lse(a, m, axis=(), keepdims=False):
    b = _ref_fill(a, m, -host.inf)
    mx = b.max(axis=tuple(axis), keepdims=True)
    r = host.log(host.exp(b - mx).sum(axis=tuple(axis), keepdims=True)) + mx
    return r if keepdims else r.reshape(host.sum(b, axis=tuple(axis)).shape)


def _make_pair(draw, st, hnp):
    shape = small_shape(draw, hnp)
    a, b = array(draw, st, hnp, shape), array(draw, st, hnp, shape)
    ma, mb = _draw_mask(draw, st, shape), _draw_mask(draw, st, shape)
    from hypothesis import assume
    assume(bool(host.all((host.broadcast_to(ma, shape) + host.broadcast_to(mb, shape)) > 0)))
    return [a, b, ma, mb], {}


def _ref_lae(a, b, ma, mb):
    return host.logaddexp(_ref_fill(a, ma, -host.inf), _ref_fill(b, mb, -host.inf))


spec("masked_sum", lambda x, m, **kw: sum(x, mask=_m(m), **kw), _make_case(), grad_args=(0,),
     ref=_ref_reduce(host.sum, 0.0))
spec("masked_prod", lambda x, m, **kw: prod(x, mask=_m(m), **kw), _make_case(lo=0.3),
     grad_args=(0,), ref=_ref_reduce(host.prod, 1.0))
spec("masked_amax", lambda x, m, **kw: amax(x, mask=_m(m), **kw),
     _make_case(full=True, distinct=True), grad_args=(0,), ref=_ref_reduce(host.max, -host.inf))
spec("masked_amin", lambda x, m, **kw: amin(x, mask=_m(m), **kw),
     _make_case(full=True, distinct=True), grad_args=(0,), ref=_ref_reduce(host.min, host.inf))
spec("masked_argmax", lambda x, m, **kw: argmax(x, mask=_m(m), dtype=int64, **kw),
     _make_case(full=True, distinct=True, one_axis=True, min_dims=1), differentiable=False,
     ref=lambda a, m, axis, keepdims: host.argmax(_ref_fill(a, m, -host.inf), axis,
                                                  keepdims=keepdims))
spec("masked_argmin", lambda x, m, **kw: argmin(x, mask=_m(m), dtype=int64, **kw),
     _make_case(full=True, distinct=True, one_axis=True, min_dims=1), differentiable=False,
     ref=lambda a, m, axis, keepdims: host.argmin(_ref_fill(a, m, host.inf), axis,
                                                  keepdims=keepdims))
spec("masked_mean", lambda x, m, **kw: mean(x, mask=_m(m), **kw), _make_case(full=True),
     grad_args=(0,),
     ref=lambda a, m, axis, keepdims: _ref_reduce(host.sum, 0.0)(a, m, axis, keepdims) /
     host.broadcast_to(m, a.shape).sum(axis=tuple(axis), keepdims=keepdims))
spec("masked_median", lambda x, m, **kw: median(x, mask=_m(m), **kw),
     _make_case(full=True, distinct=True, one_axis=True), grad_args=(0,), ref=_ref_median)
spec("masked_norm", lambda x, m, **kw: norm(x, 2.0, mask=_m(m), **kw),
     _make_case(full=True, lo=0.2), grad_args=(0,), ref=_ref_norm)
spec("masked_norm_p", lambda x, m, **kw: norm(x, 3.0, mask=_m(m), **kw),
     _make_case(full=True, lo=0.2), grad_args=(0,), ref=lambda *a, **k: _ref_norm(*a, ord=3.0, **k))
spec("masked_var", lambda x, m, **kw: var(x, mask=_m(m), **kw), _make_case(full=True, more=1),
     grad_args=(0,), ref=_ref_var)
spec("masked_std", lambda x, m, **kw: std(x, mask=_m(m), **kw),
     _make_case(full=True, more=1, distinct=True), grad_args=(0,),
     ref=lambda *a, **k: _ref_var(*a, sqrt=True, **k))
spec("masked_logsumexp", lambda x, m, **kw: logsumexp(x, mask=_m(m), **kw), _make_case(full=True),
     grad_args=(0,), ref=_ref_lse)
spec("masked_softmax", lambda x, m, axis: softmax(x, axis, mask=_m(m)),
     _make_case(full=True, keepdims=False, one_axis=True, min_dims=1), grad_args=(0,),
     ref=_ref_softmax)
# (the masked-out outputs are -inf: the finite differences see them as 0)
spec("masked_log_softmax",
     lambda x, m, axis: where_(input_mask(x, _m(m)), log_softmax(x, axis, mask=_m(m)), 0.0),
     _make_case(full=True, keepdims=False, one_axis=True, min_dims=1), grad_args=(0,),
     ref=lambda a, m, axis: _ref_fill(host.log(_ref_softmax(a, m, axis) + (
         host.broadcast_to(m, a.shape) == 0)), m, 0.0))
spec("masked_softmin", lambda x, m, axis: softmin(x, axis, mask=_m(m)),
     _make_case(full=True, keepdims=False, one_axis=True, min_dims=1), grad_args=(0,),
     ref=lambda a, m, axis: _ref_softmax(a, m, axis, neg=True))
spec("masked_normalize", lambda x, m, axis: normalize(x, 2.0, axis, mask=_m(m)),
     _make_case(full=True, keepdims=False, one_axis=True, min_dims=1, lo=0.2), grad_args=(0,),
     ref=lambda a, m, axis: _ref_fill(a, m, 0.0) / _ref_norm(a, m, (axis,), True))
spec("masked_cumsum", lambda x, m, axis: cumsum(x, axis, mask=_m(m)),
     _make_case(keepdims=False, one_axis=True, min_dims=1), grad_args=(0,),
     ref=lambda a, m, axis: host.cumsum(_ref_fill(a, m, 0.0), axis))
spec("masked_cumprod", lambda x, m, axis: cumprod(x, axis, mask=_m(m)),
     _make_case(keepdims=False, one_axis=True, min_dims=1, lo=0.3), grad_args=(0,),
     ref=lambda a, m, axis: host.cumprod(_ref_fill(a, m, 1.0), axis))
spec("masked_logaddexp", lambda x, y, mx, my: logaddexp(x, y, x_mask=_m(mx), y_mask=_m(my)),
     _make_pair, grad_args=(0, 1), ref=_ref_lae)

__all__ = ["input_mask", "sum", "prod", "cumsum", "cumprod", "amax", "amin", "argmax",
           "argmin", "mean", "median", "has_nan", "logsumexp", "logaddexp", "norm", "var",
           "std", "softmax", "log_softmax", "softmin", "normalize"]
