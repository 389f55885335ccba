"""Sorting, searching, logical reductions, cumulative products and extremes, and the
counting and set ops (nonzero, unique, bincount, histc, searchsorted, isin).

The value-selecting ops (sort, topk, kthvalue, median and mode along an axis, cummax,
cummin) compute their indices on the arrays and pick the values with ``take_along_axis``:
their gradient then goes to the selected element only (a tie gets it at the returned
index, not shared), as in torch and paddle, and every order of derivative comes from
the getitem / index_add pair.  ``median_all`` (the median of all elements) shares its
gradient among the elements equal to it, as torch's does.  cumprod and logcumsumexp
are primitives with derivatives written in engine ops (cumprod's right where the input
holds zeros; logcumsumexp's without overflow).
"""
from __future__ import annotations

import builtins

from janusgrad.array.backend import bool_, default_float, float64, host, int64, quiet, xp_of
from janusgrad.core.tensor import record, unrecorded
from janusgrad.ops import defop, spec
from janusgrad.ops.elementwise import add as _add
from janusgrad.ops.elementwise import as_out, cast, div, exp, gt, log, lt, mul, neg, sub, where_
from janusgrad.ops.index import take_along_axis
from janusgrad.ops.reduce import _extreme_rule, reduce_axes
from janusgrad.ops.reduce import cumsum as _cumsum
from janusgrad.ops.reduce import prod as _prod
from janusgrad.ops.reduce import sum as _sum
from janusgrad.ops.shape import checked_axis, concatenate, flip, narrow, reshape
from janusgrad.ops.testing import array, distinct_array, small_shape, with_axis


def _plain(x, a):
    """A result without a gradient (indices, masks, counts)."""
    return unrecorded(type(x), as_out(a))


def _axis(x, op, axis):
    return checked_axis(x, op, axis)


def _accumulate(xp, name, a, axis):
    """``xp.<name>.accumulate(a, axis)``; a loop along ``axis`` where the array module's
    ufunc has no accumulate (cupy's extreme ufuncs, the fake device)."""
    acc = getattr(getattr(xp, name), "accumulate", None)
    if acc is not None:
        return acc(a, axis=axis)
    f = getattr(xp, name)
    out = xp.moveaxis(a, axis, 0).copy()
    for j in range(1, out.shape[0]):
        out[j] = f(out[j - 1], out[j])
    return xp.moveaxis(out, 0, axis)


# ---------------------------------------------------------------- all, any
def _logical(x, op, axis, keepdims):
    a = x.array
    axes = reduce_axes(x, op, axis)
    xp = xp_of(a)
    out = (xp.all if op == "all" else xp.any)(a, axis=axes, keepdims=keepdims)
    return _plain(x, out)


def all(x, axis=None, keepdims=False):  # noqa: A001
    """Whether every element over ``axis`` is nonzero (a bool tensor)."""
    return _logical(x, "all", axis, keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return _logical(x, "any", axis, keepdims)


# ---------------------------------------------------------------- sort, argsort, topk
def _argsort_array(a, axis, descending):
    """Stable ascending (or descending, equal elements kept in their order) indices;
    NaN sorts as the largest value."""
    xp = xp_of(a)
    if not descending:
        return xp.argsort(a, axis=axis, kind="stable").astype(int64, copy=False)
    n = a.shape[axis]
    idx = xp.flip(xp.argsort(xp.flip(a, axis), axis=axis, kind="stable"), axis)
    return ((n - 1) - idx).astype(int64, copy=False)


def _pick(x, idx, axis):
    """x's values at the indices ``idx`` along ``axis`` (0-d x: idx of shape ())."""
    if not x.array.ndim:
        return reshape(take_along_axis(reshape(x, (1,)), idx.reshape(1), 0), ())
    return take_along_axis(x, idx, axis)


def argsort(x, axis=-1, descending=False):
    axis = _axis(x, "argsort", axis)
    a = x.array
    if not a.ndim:
        return _plain(x, xp_of(a).zeros((), dtype=int64))
    return _plain(x, _argsort_array(a, axis, descending))


def sort(x, axis=-1, descending=False):
    """(values, int64 indices) sorted along ``axis``; stable; the gradient of the values
    goes back through the indices."""
    axis = _axis(x, "sort", axis)
    idx = argsort(x, axis, descending)
    return _pick(x, idx.array, axis), idx


def msort(x):
    return sort(x, 0)[0]


def topk(x, k, axis=-1, largest=True, sorted=True):  # noqa: A002
    """(values, indices) of the ``k`` largest (smallest) elements along ``axis``, in
    order; of equal elements, the first ones."""
    axis = _axis(x, "topk", axis)
    a = x.array
    n = a.shape[axis] if a.ndim else 1
    if not 0 <= k <= n:
        raise x.dialect.invalid("topk", "selected index k out of range", k=k, size=n,
                                axis=axis)
    if not a.ndim:
        idx = xp_of(a).zeros((), dtype=int64)
    else:
        idx = _argsort_array(a, axis, largest)[(slice(None),) * axis + (slice(0, k),)]
    return _pick(x, idx, axis), _plain(x, idx)


def _kth(x, op, k, axis, keepdims):
    """(values, indices) of the k-th smallest (1-based) along ``axis``."""
    axis = _axis(x, op, axis)
    a = x.array
    n = a.shape[axis] if a.ndim else 1
    if not 1 <= k <= n:
        raise x.dialect.invalid(op, f"kthvalue(): selected number k out of range for "
                                f"dimension {axis}", k=k, size=n, axis=axis)
    if not a.ndim:
        idx = xp_of(a).zeros((), dtype=int64)
        return _pick(x, idx, 0), _plain(x, idx)
    order = _argsort_array(a, axis, False)
    return _selected(x, order, (k - 1) * xp_of(a).ones(_one_at(a.shape, axis), int64), axis,
                     keepdims)


def _one_at(shape, axis):
    return tuple(1 if i == axis else s for i, s in enumerate(shape))


def _selected(x, order, pos, axis, keepdims):
    """Values and indices of x at the sorted positions ``pos`` (size 1 along ``axis``)
    of the ascending ``order``."""
    xp = xp_of(order)
    idx = xp.take_along_axis(order, pos, axis=axis)
    values = take_along_axis(x, idx, axis)
    if not keepdims:
        shape = values.array.shape[:axis] + values.array.shape[axis + 1:]
        values = reshape(values, shape)
        idx = idx.reshape(shape)
    return values, _plain(x, idx)


def kthvalue(x, k, axis=-1, keepdims=False):
    return _kth(x, "kthvalue", k, axis, keepdims)


def _empty_check(x, op, axis=None):
    a = x.array
    if a.size == 0 or (axis is not None and a.ndim and a.shape[axis] == 0):
        raise x.dialect.invalid(op, f"{op}() input tensor cannot be empty", shape=a.shape,
                                axis=axis)


def median(x, axis=-1, keepdims=False, ignore_nan=False):
    """(values, indices) of the lower median along ``axis``: a slice holding NaN gives
    its first NaN (``ignore_nan``: the lower median of the slice's other elements,
    torch's nanmedian)."""
    op = "nanmedian" if ignore_nan else "median"
    axis = _axis(x, op, axis)
    _empty_check(x, op, axis)
    a = x.array
    xp = xp_of(a)
    if not a.ndim:
        idx = xp.zeros((), dtype=int64)
        return _pick(x, idx, 0), _plain(x, idx)
    order = _argsort_array(a, axis, False)
    n = a.shape[axis]
    if a.dtype.kind == "f":
        count = (~xp.isnan(a)).sum(axis=axis, keepdims=True)  # NaN sorts last
        if ignore_nan:
            pos = xp.maximum(count - 1, 0) // 2
        else:
            pos = xp.where(count < n, count, (n - 1) // 2)
    else:
        pos = ((n - 1) // 2) * xp.ones(_one_at(a.shape, axis), int64)
    return _selected(x, order, pos.astype(int64, copy=False), axis, keepdims)


_median_all = defop("median_all", rule=_extreme_rule, uses=("x", "out", "shape", "attrs"))


def median_all(x, ignore_nan=False):
    """The lower median of all elements (NaN where one is NaN; ``ignore_nan``: of the
    others); the gradient is shared among the elements equal to it, as torch's."""
    a = x.array
    if not a.size:  # torch: nan
        out = xp_of(a).full((), float("nan"), a.dtype if a.dtype.kind == "f" else float64)
        return record(_median_all, out, (x,), (x,), attrs=((), False), save_out=True)
    flat = a.reshape(-1)
    v, _ = median(type(x).wrap(flat), 0, False, ignore_nan)
    axes = tuple(range(a.ndim))
    return record(_median_all, as_out(v.array), (x,), (x,), attrs=(axes, False),
                  save_out=True)


def median_avg(x, axis=None, keepdims=False, ignore_nan=False):
    """paddle's median (mode 'avg'): the mean of the two middle elements along ``axis``
    (all elements for None) for an even count, the middle one for an odd count, each
    taking its share of the gradient; NaN where the slice holds one (``ignore_nan``: of
    the slice's other elements, NaN where all are)."""
    if axis is None:
        out = median_avg(reshape(x, (-1,)), 0, False, ignore_nan)
        return reshape(out, (1,) * x.array.ndim) if keepdims else out
    axis = _axis(x, "median", axis)
    a = x.array
    xp = xp_of(a)
    xf = x if a.dtype.kind == "f" else cast(x, default_float)
    if not a.ndim:
        return _pick(xf, xp.zeros((), dtype=int64), 0)
    _empty_check(x, "median", axis)
    n = a.shape[axis]
    order = _argsort_array(a, axis, False)
    ones = xp.ones(_one_at(a.shape, axis), int64)
    if a.dtype.kind == "f":
        count = (~xp.isnan(a)).sum(axis=axis, keepdims=True).astype(int64)  # NaN sorts last
    else:
        count = n * ones
    if ignore_nan:
        lo, hi = xp.maximum(count - 1, 0) // 2, count // 2
        hi = xp.minimum(hi, n - 1)
    else:
        lo = xp.where(count < n, count, (n - 1) // 2)
        hi = xp.where(count < n, count, n // 2)
    low, _ = _selected(xf, order, lo * ones, axis, keepdims)
    high, _ = _selected(xf, order, hi * ones, axis, keepdims)
    return mul(_add(low, high), 0.5)


def mode(x, axis=-1, keepdims=False):
    """(values, indices) of the most frequent value along ``axis`` (of equally frequent
    values the smallest), its index the last at which it occurs."""
    axis = _axis(x, "mode", axis)
    a = x.array
    xp = xp_of(a)
    if not a.ndim:
        idx = xp.zeros((), dtype=int64)
        return _pick(x, idx, 0), _plain(x, idx)
    _empty_check(x, "mode", axis)
    moved = xp.moveaxis(a, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    m, n = rows.shape
    order = xp.argsort(rows, axis=1, kind="stable")
    s = xp.take_along_axis(rows, order, axis=1)
    start = xp.ones((m, n), dtype=bool_)
    start[:, 1:] = s[:, 1:] != s[:, :-1]
    run = xp.cumsum(start, axis=1) - 1                  # run number of each position
    flat_run = (run + xp.arange(m).reshape(-1, 1) * n).reshape(-1)
    counts = xp.bincount(flat_run, minlength=m * n).reshape(m, n)
    count_at = xp.take_along_axis(counts, run, axis=1)  # the run's length at each position
    first = xp.argmax(count_at, axis=1).reshape(-1, 1)  # first position of the best run
    last = first + xp.take_along_axis(count_at, first, axis=1) - 1
    idx = xp.take_along_axis(order, last, axis=1).astype(int64, copy=False)
    idx = xp.moveaxis(idx.reshape(moved.shape[:-1] + (1,)), -1, axis)
    values = take_along_axis(x, idx, axis)
    if not keepdims:
        shape = idx.shape[:axis] + idx.shape[axis + 1:]
        values, idx = reshape(values, shape), idx.reshape(shape)
    return values, _plain(x, idx)


def _as_vector(x, op, axis, fn):
    """``fn`` along axis 0 of the 0-d ``x`` taken as a vector of one element."""
    checked_axis(x, op, axis)
    return reshape(fn(reshape(x, (1,)), 0), ())


# ---------------------------------------------------------------- cummax, cummin
def _cum_extreme(x, op, axis):
    a = x.array
    xp = xp_of(a)
    if not a.ndim:
        checked_axis(x, op, axis)
        idx = xp.zeros((), dtype=int64)
        return _pick(x, idx, 0), _plain(x, idx)
    axis = _axis(x, op, axis)
    if a.dtype == bool_:
        a = a.astype(int64)
    running = _accumulate(xp, "maximum" if op == "cummax" else "minimum", a, axis)
    hit = a == running  # the element is the running extreme (ties: the later one)
    if a.dtype.kind == "f":
        hit = hit | xp.isnan(a)
    shape = [1] * a.ndim
    shape[axis] = a.shape[axis]
    pos = xp.where(hit, xp.arange(a.shape[axis]).reshape(shape), 0)
    idx = _accumulate(xp, "maximum", pos, axis).astype(int64, copy=False)
    return take_along_axis(x, idx, axis), _plain(x, idx)


def cummax(x, axis):
    """(values, indices) of the running maximum along ``axis``; the index of a tie is the
    later element's, and the gradient goes to the indexed element."""
    return _cum_extreme(x, "cummax", axis)


def cummin(x, axis):
    return _cum_extreme(x, "cummin", axis)


# ---------------------------------------------------------------- cumprod
def _rev_cumsum(t, axis):
    return flip(_cumsum(flip(t, (axis,)), axis), (axis,))


def _cumprod_vjp(n, g):
    # d out_i / d x_k = prod_{j <= i, j != k} x_j: out_i / x_k where x holds no zero.
    # With zeros: the products with x_k left out, built for each k from engine ops
    # (O(n^2), as torch's create_graph form), so that the derivative of the gradient is
    # right too (past a zero the gradient is zero, its derivative is not); the same
    # formula with and without create_graph, so that both give the same bits.
    axis = n.attrs
    x = n.saved[0]
    if not (x.array == 0).any():
        return (div(_rev_cumsum(mul(g, n.output()), axis), x),)
    return (_cumprod_grad_with_zeros(x, g, axis),)


def _cumprod_grad_with_zeros(x, g, axis):
    n = x.array.shape[axis]
    parts = []
    for k in range(n):
        until = _prod(narrow(x, axis, 0, k), axis, keepdims=True)
        rest = cumprod(narrow(x, axis, k + 1, n - k - 1), axis)
        omitted = concatenate([until, mul(rest, until)], axis)
        parts.append(_sum(mul(narrow(g, axis, k, n - k), omitted), axis, keepdims=True))
    return concatenate(parts, axis)


_cumprod = defop("cumprod", _cumprod_vjp)


def _scan(op, kernel):
    """The public scan ``op(x, axis)``: ``kernel`` on a checked axis (0-d x as a vector)."""
    def scan(x, axis):
        if not x.array.ndim:
            return _as_vector(x, op, axis, scan)
        return kernel(x, _axis(x, op, axis))
    scan.__name__ = scan.__qualname__ = op
    scan.__doc__ = kernel.__doc__
    return scan


def _cumprod_kernel(x, axis):
    """Running product along ``axis``; integer and bool inputs accumulate in int64."""
    a = x.array
    dtype = int64 if a.dtype.kind in "bui" else None
    return record(_cumprod, xp_of(a).cumprod(a, axis=axis, dtype=dtype), (x,), (x,),
                  attrs=axis, save_out=True)


cumprod = _scan("cumprod", _cumprod_kernel)


# ---------------------------------------------------------------- logcumsumexp
def _logcumsumexp_vjp(n, g):
    # grad_k = sum_{i >= k} g_i exp(x_k - out_i), summed in log space for the positive
    # and the negative parts of g apart (no overflow, as torch's); zeros of g count as
    # the smallest normal number (a contribution below rounding, and finite derivatives)
    axis = n.attrs
    x = n.saved[0]
    out = n.output()
    tiny = float(xp_of(x.array).finfo(x.array.dtype).tiny)

    def part(mask, mag):
        lg = log(where_(mask, mag, tiny))
        return exp(_add(x, flip(logcumsumexp(flip(sub(lg, out), (axis,)), axis), (axis,))))

    return (sub(part(gt(g, 0.0), g), part(lt(g, 0.0), neg(g))),)


_logcumsumexp = defop("logcumsumexp", _logcumsumexp_vjp)


def _logcumsumexp_kernel(x, axis):
    """log(cumsum(exp(x))) along ``axis``, without overflow."""
    a = x.array
    if a.dtype.kind != "f":
        a = a.astype(default_float)
    with quiet(invalid="ignore", divide="ignore"):
        out = _accumulate(xp_of(a), "logaddexp", a, axis)
    return record(_logcumsumexp, out, (x,), (x,), attrs=axis, save_out=True)


logcumsumexp = _scan("logcumsumexp", _logcumsumexp_kernel)


# ---------------------------------------------------------------- nonzero, counting
def nonzero(x):
    """The indices of the nonzero elements, one row each: int64 of shape (count, ndim)."""
    a = x.array
    xp = xp_of(a)
    if not a.ndim:
        return _plain(x, xp.zeros((int(bool(a)), 0), dtype=int64))
    return _plain(x, xp.stack(xp.nonzero(a), axis=-1).astype(int64, copy=False)
                  .reshape(-1, a.ndim))


def nonzero_tuple(x):
    """The indices of the nonzero elements, one 1-D int64 tensor per axis (a 0-d input
    counts as a vector)."""
    a = x.array
    if not a.ndim:
        a = a.reshape(1)
    return tuple(_plain(x, i.astype(int64, copy=False)) for i in xp_of(a).nonzero(a))


def count_nonzero(x, axis=None, keepdims=False):
    axes = reduce_axes(x, "count_nonzero", axis)
    a = x.array
    return _plain(x, (a != 0).sum(axis=axes, keepdims=keepdims).astype(int64, copy=False))


# ---------------------------------------------------------------- unique
def unique(x, axis=None):
    """(sorted unique values, index of each one's first occurrence, inverse (x's shape
    for axis None, else x.shape[axis]), counts); NaNs are each their own value."""
    a = x.array
    xp = xp_of(a)
    if axis is None:
        flat = a.reshape(-1)
        kw = {"equal_nan": False} if flat.dtype.kind == "f" else {}
        v, first, inv, cnt = xp.unique(flat, return_index=True, return_inverse=True,
                                       return_counts=True, **kw)
        inv = inv.reshape(a.shape)
    else:
        axis = _axis(x, "unique", axis)
        v, first, inv, cnt = xp.unique(a, return_index=True, return_inverse=True,
                                       return_counts=True, axis=axis)
        inv = inv.reshape(-1)
    return (_plain(x, v), _plain(x, first.astype(int64, copy=False)),
            _plain(x, inv.astype(int64, copy=False)), _plain(x, cnt.astype(int64, copy=False)))


def unique_consecutive(x, axis=None):
    """(values with consecutive repeats collapsed, inverse, counts)."""
    a = x.array
    xp = xp_of(a)
    if axis is None:
        moved = a.reshape(-1, 1)
        ax = 0
    else:
        ax = _axis(x, "unique_consecutive", axis)
        moved = xp.moveaxis(a, ax, 0)
        moved = moved.reshape(moved.shape[0], -1)
    n = moved.shape[0]
    start = xp.ones(n, dtype=bool_)
    if n:
        start[1:] = (moved[1:] != moved[:-1]).any(axis=1)
    inv = xp.cumsum(start) - 1
    pos = xp.nonzero(start)[0]
    cnt = xp.diff(xp.concatenate([pos, xp.asarray([n], dtype=pos.dtype)]))
    if axis is None:
        values = a.reshape(-1)[pos]
        inv = inv.reshape(a.shape)
    else:
        values = xp.take(a, pos, axis=ax)
    return (_plain(x, values), _plain(x, inv.astype(int64, copy=False)),
            _plain(x, cnt.astype(int64, copy=False)))


# ---------------------------------------------------------------- bincount, histc
def bincount(x, weights=None, minlength=0):
    """Counts of each value of the non-negative 1-D integer ``x`` (with ``weights``: their
    sums, in the weights' float dtype, float64 for other weights)."""
    a = x.array
    if a.ndim != 1 or a.dtype.kind not in "iub":
        raise x.dialect.invalid("bincount", "bincount only supports 1-d non-negative "
                                "integral inputs.", shape=a.shape, dtype=a.dtype)
    if minlength < 0:
        raise x.dialect.invalid("bincount", "minlength should be >= 0", minlength=minlength)
    if a.size and a.min() < 0:
        raise x.dialect.invalid("bincount", "bincount only supports 1-d non-negative "
                                "integral inputs.", negative=True)
    xp = xp_of(a)
    if weights is None:
        return _plain(x, xp.bincount(a, minlength=minlength).astype(int64, copy=False))
    w = weights.array
    if w.shape != a.shape:
        raise x.dialect.invalid("bincount", "weights should be 1-d and have the same length "
                                "as input", shape=a.shape, weights_shape=w.shape)
    dt = w.dtype if w.dtype.kind == "f" else float64
    return _plain(x, xp.bincount(a, weights=w, minlength=minlength).astype(dt, copy=False))


def histc(x, bins=100, min=0, max=0, weights=None, density=False):  # noqa: A002
    """Counts in ``bins`` equal bins over [min, max] (the data's range where both are
    equal; widened by one each side where that is a point); elements outside are left
    out.  Same float dtype as ``x``."""
    a = x.array
    xp = xp_of(a)
    if bins <= 0:
        raise x.dialect.invalid("histc", f"histc(): bins must be > 0, but got "
                                f"{bins} for dimension 0", bins=bins)
    lo, hi = float(min), float(max)
    if lo > hi:
        raise x.dialect.invalid("histc", "max must be larger than min", min=lo, max=hi)
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (builtins.abs(lo) < float("inf") and builtins.abs(hi) < float("inf")):
        raise x.dialect.invalid("histc", f"range of [{lo}, {hi}] is not finite", min=lo,
                                max=hi)
    inside = (a >= lo) & (a <= hi)
    v = a[inside].astype(float64)
    pos = ((v - lo) * bins / (hi - lo)).astype(int64)
    pos = xp.minimum(pos, bins - 1)
    w = None if weights is None else weights.array[inside]
    out = xp.bincount(pos, weights=w, minlength=bins)[:bins]
    if density:
        with quiet(invalid="ignore", divide="ignore"):
            out = out / (out.sum() * ((hi - lo) / bins))
    if w is not None and w.dtype.kind == "f":
        dt = w.dtype
    else:
        dt = a.dtype if a.dtype.kind == "f" else default_float
    return _plain(x, out.astype(dt))


# ---------------------------------------------------------------- searchsorted, isin
def searchsorted(seq, values, right=False, sorter=None):
    """For each of ``values`` the position in the sorted last axis of ``seq`` where it
    would go (the first such for ``right`` False, the last for True); ``seq``'s leading
    axes (when more than one) match ``values``'s.  int64."""
    a = seq.array
    xp = xp_of(a)
    v = values.array if hasattr(values, "array") else xp.asarray(values)
    side = "right" if right else "left"
    if sorter is not None:
        s = sorter.array if hasattr(sorter, "array") else xp.asarray(sorter)
        if s.shape != a.shape:
            raise seq.dialect.invalid("searchsorted", "boundaries and sorter must have the "
                                      "same size", shape=a.shape, sorter_shape=s.shape)
        a = xp.take_along_axis(a, s.astype(int64), axis=-1) if a.ndim else a
    if a.ndim <= 1:
        out = xp.searchsorted(a.reshape(-1), v, side=side)
        return _plain(seq, xp.asarray(out).astype(int64, copy=False))
    if a.shape[:-1] != v.shape[:-1]:
        raise seq.dialect.invalid(
            "searchsorted", "boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {list(a.shape)} and input value tensor {list(v.shape)}",
            shape=a.shape, values_shape=v.shape)
    rows, vrows = a.reshape(-1, a.shape[-1]), v.reshape(-1, v.shape[-1])
    out = xp.zeros(vrows.shape, dtype=int64)
    for i in range(rows.shape[0]):
        out[i] = xp.searchsorted(rows[i], vrows[i], side=side)
    return _plain(seq, out.reshape(v.shape))


def bucketize(x, boundaries, right=False):
    """The bucket of each element of ``x`` among the 1-D sorted ``boundaries``."""
    b = boundaries.array
    if b.ndim != 1:
        raise boundaries.dialect.invalid(
            "bucketize", f"boundaries tensor must be 1 dimension, but got dim({b.ndim})",
            ndim=b.ndim)
    return searchsorted(boundaries, x, right)


def isin(x, test, invert=False):
    """Whether each element of ``x`` is among ``test``'s elements (bool, x's shape)."""
    a = x.array
    xp = xp_of(a)
    t = test.array if hasattr(test, "array") else xp.asarray(test)
    t = xp.sort(t.reshape(-1))
    if t.size:
        pos = xp.minimum(xp.searchsorted(t, a.reshape(-1)), t.size - 1)
        hit = (t[pos] == a.reshape(-1)).reshape(a.shape)
    else:
        hit = xp.zeros(a.shape, dtype=bool_)
    return _plain(x, ~hit if invert else hit)


# ---------------------------------------------------------------- specs
def _axis_case(min_dims=1, distinct=True, **extra):
    def make(draw, st, hnp):
        shape = small_shape(draw, hnp, min_dims=min_dims)
        a = distinct_array(draw, st, hnp, shape) if distinct else array(draw, st, hnp, shape)
        axis = draw(st.integers(-len(shape), len(shape) - 1)) if shape else 0
        kw = {"axis": axis}
        for k, choices in extra.items():
            kw[k] = draw(st.sampled_from(choices))
        return [a], kw
    return make


def _sort_ref(a, axis, descending=False):
    if not a.ndim:
        return a
    s = host.sort(a, axis=axis)
    return host.flip(s, axis) if descending else s


def _topk_case(draw, st, hnp):
    [a], kw = _axis_case()(draw, st, hnp)
    n = a.shape[kw["axis"]]
    kw["k"] = draw(st.integers(0, n))
    kw["largest"] = draw(st.booleans())
    return [a], kw


def _topk_ref(a, k, axis, largest):
    s = _sort_ref(a, axis, largest)
    return s[(slice(None),) * (axis % a.ndim) + (slice(0, k),)]


def _kth_case(draw, st, hnp):
    [a], kw = _axis_case()(draw, st, hnp)
    kw["k"] = draw(st.integers(1, a.shape[kw["axis"]]))
    kw["keepdims"] = draw(st.booleans())
    return [a], kw


def _kth_ref(a, k, axis, keepdims):
    return host.take(host.sort(a, axis=axis), [k - 1], axis=axis).squeeze(
        () if keepdims else axis)


def _median_ref(a, axis, keepdims):
    n = a.shape[axis]
    return _kth_ref(a, (n - 1) // 2 + 1, axis, keepdims)


def _median_avg_ref(a, axis, keepdims):
    return host.median(a, axis=axis, keepdims=keepdims)


def _mode_case(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    a = draw(hnp.arrays(float64, shape, elements=st.sampled_from([-1.0, 0.5, 2.0])))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    return [a], {"axis": axis, "keepdims": draw(st.booleans())}


def _mode_ref(a, axis, keepdims):
    moved = host.moveaxis(a, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    out = []
    for r in rows:
        vals, cnt = host.unique(r, return_counts=True)
        out.append(host.nonzero(r == vals[host.argmax(cnt)])[0][-1])
    res = host.array(out).reshape(moved.shape[:-1])
    return host.expand_dims(res, axis % a.ndim) if keepdims else res


def _cum_ref(fn):
    def ref(a, axis):
        return fn(a if a.ndim else a.reshape(1), axis=axis).reshape(a.shape)
    return ref


def _cumprod_case(draw, st, hnp):
    shape = small_shape(draw, hnp)
    a = array(draw, st, hnp, shape, avoid=(0.0,))
    if a.size:
        flat = a.reshape(-1)
        for i in draw(st.lists(st.integers(0, a.size - 1), max_size=3)):
            flat[i] = 0.0
    axis = draw(st.integers(-len(shape), len(shape) - 1)) if shape else 0
    return [a], {"axis": axis}


def _lcse_ref(a, axis):
    b = a if a.ndim else a.reshape(1)
    return host.logaddexp.accumulate(b, axis=axis).reshape(a.shape)


def _int_case(draw, st, hnp, lo=0, hi=4):
    shape = small_shape(draw, hnp)
    return [draw(hnp.arrays(float64, shape, elements=st.integers(lo, hi).map(float)))]


def _logical_case(op):
    def make(draw, st, hnp):
        [a], kw = with_axis()(draw, st, hnp)
        return [host.where(host.abs(a) < 0.7, 0.0, a)], kw  # host-ok: drawn data
    return make


def _unique_case(draw, st, hnp):
    [a] = _int_case(draw, st, hnp)
    axis = draw(st.sampled_from([None] + list(range(a.ndim))))
    return [a], {"axis": axis, "part": draw(st.integers(0, 3))}


def _unique_ref(a, axis, part):
    if axis is None:
        r = host.unique(a.reshape(-1), return_index=True, return_inverse=True,
                        return_counts=True)
        r = (r[0], r[1], r[2].reshape(a.shape), r[3])
    else:
        r = host.unique(a, return_index=True, return_inverse=True, return_counts=True,
                        axis=axis)
        r = (r[0], r[1], r[2].reshape(-1), r[3])
    return r[part]


def _uc_ref(a, axis, part):
    if axis is None:
        flat = a.reshape(-1)
        keep = host.ones(flat.shape, bool)
        keep[1:] = flat[1:] != flat[:-1]
        inv = (host.cumsum(keep) - 1).reshape(a.shape)
        vals = flat[keep]
    else:
        m = host.moveaxis(a, axis, 0).reshape(a.shape[axis], -1)
        keep = host.ones(m.shape[0], bool)
        keep[1:] = (m[1:] != m[:-1]).any(axis=1)
        inv = host.cumsum(keep) - 1
        vals = host.compress(keep, a, axis=axis)
    counts = host.bincount(inv.reshape(-1)) if inv.size else host.zeros(0, int)
    return (vals, inv, counts)[part]


def _bincount_case(draw, st, hnp):
    n = draw(st.integers(0, 6))
    values = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    a = host.array(values, float64)  # host-ok: drawn data
    w = array(draw, st, hnp, (n,))
    return [a, w], {"minlength": draw(st.integers(0, 8)), "weighted": draw(st.booleans())}


def _bincount_case_fn(x, w, minlength, weighted):
    return bincount(cast(x, int64), w if weighted else None, minlength)


def _bincount_ref(a, w, minlength, weighted):
    return host.bincount(a.astype(int64), w if weighted else None, minlength)


def _histc_case(draw, st, hnp):
    [a] = _int_case(draw, st, hnp, -3, 3)
    bins = draw(st.integers(1, 6))
    lo = draw(st.sampled_from([0.0, -2.0, -1.0]))
    hi = draw(st.sampled_from([0.0, 1.0, 2.5]))
    return [a], {"bins": bins, "min": lo, "max": hi}


def _histc_ref(a, bins, min, max):  # noqa: A002
    lo, hi = min, max
    if lo == hi and a.size:
        lo, hi = a.min(), a.max()
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    return host.histogram(a, bins=bins, range=(lo, hi))[0].astype(float64)


def _search_case(draw, st, hnp):
    seq = host.sort(array(draw, st, hnp, (draw(st.integers(0, 5)),)))  # host-ok: drawn data
    [v] = _int_case(draw, st, hnp, -2, 2)
    return [seq, v], {"right": draw(st.booleans())}


def _isin_case(draw, st, hnp):
    [a] = _int_case(draw, st, hnp)
    [t] = _int_case(draw, st, hnp)
    return [a, t], {"invert": draw(st.booleans())}


spec("all", all, _logical_case("all"),
     ref=lambda a, axis, keepdims: host.all(a, axis=axis, keepdims=keepdims),
     differentiable=False)
spec("any", any, _logical_case("any"),
     ref=lambda a, axis, keepdims: host.any(a, axis=axis, keepdims=keepdims),
     differentiable=False)
spec("sort", lambda x, axis, descending: sort(x, axis, descending)[0],
     _axis_case(min_dims=0, descending=(False, True)), ref=_sort_ref)
spec("argsort", argsort, _axis_case(min_dims=1, descending=(False, True)),
     ref=lambda a, axis, descending: host.argsort(-a if descending else a, axis=axis),
     differentiable=False)
spec("msort", msort, lambda d, st, hnp: ([distinct_array(d, st, hnp, small_shape(
    d, hnp, min_dims=1))], {}), ref=lambda a: host.sort(a, axis=0))
spec("topk", lambda x, k, axis, largest: topk(x, k, axis, largest)[0], _topk_case,
     ref=_topk_ref)
spec("kthvalue", lambda x, k, axis, keepdims: kthvalue(x, k, axis, keepdims)[0], _kth_case,
     ref=_kth_ref)
spec("median", lambda x, axis, keepdims: median(x, axis, keepdims)[0],
     _axis_case(keepdims=(False, True)), ref=_median_ref)
spec("median_all", median_all, lambda d, st, hnp: ([distinct_array(d, st, hnp, small_shape(
    d, hnp, min_dims=1))], {}), ref=lambda a: host.sort(a.reshape(-1))[(a.size - 1) // 2])
spec("median_avg", median_avg, _axis_case(keepdims=(False, True)), ref=_median_avg_ref)
# mode's value jumps when a tied element moves (no finite differences): its indices are
# checked here, its gradient is take_along_axis's
spec("mode", lambda x, axis, keepdims: mode(x, axis, keepdims)[1], _mode_case,
     ref=_mode_ref, differentiable=False)
spec("cummax", lambda x, axis: cummax(x, axis)[0], _axis_case(min_dims=0),
     ref=_cum_ref(host.maximum.accumulate))
spec("cummin", lambda x, axis: cummin(x, axis)[0], _axis_case(min_dims=0),
     ref=_cum_ref(host.minimum.accumulate))
spec("cumprod", cumprod, _cumprod_case, ref=_cum_ref(host.cumprod))
spec("logcumsumexp", logcumsumexp, _axis_case(min_dims=0, distinct=False), ref=_lcse_ref)
def _sparse_case(draw, st, hnp):
    a = array(draw, st, hnp, small_shape(draw, hnp))
    return [host.where(host.abs(a) < 0.7, 0.0, a)], {}  # host-ok: drawn data


spec("nonzero", nonzero, _sparse_case,
     ref=lambda a: host.argwhere(a) if a.ndim else host.zeros((int(a != 0), 0)),
    differentiable=False)
spec("count_nonzero", count_nonzero, _logical_case("count_nonzero"),
     ref=lambda a, axis, keepdims: host.count_nonzero(a, axis=axis, keepdims=keepdims),
     differentiable=False)
spec("unique", lambda x, axis, part: unique(x, axis)[part], _unique_case, ref=_unique_ref,
     differentiable=False)
spec("unique_consecutive", lambda x, axis, part: unique_consecutive(x, axis)[part % 3],
     _unique_case, ref=lambda a, axis, part: _uc_ref(a, axis, part % 3),
     differentiable=False)
spec("bincount", _bincount_case_fn, _bincount_case, ref=_bincount_ref, differentiable=False)
spec("histc", histc, _histc_case, ref=_histc_ref, differentiable=False)
spec("searchsorted", searchsorted, _search_case,
     ref=lambda s, v, right: host.searchsorted(s, v, side="right" if right else "left"),
     differentiable=False)
spec("isin", isin, _isin_case, ref=lambda a, t, invert: host.isin(a, t, invert=invert),
     differentiable=False)
