"""Math and statistics beyond the basics: inverse hyperbolics, statistics (cov, corrcoef,
quantile, var_mean, nanmean ...), differences and integrals (diff, gradient, trapezoid),
distances (cdist, dist, renorm), histograms, the orthogonal polynomials of torch.special and
the window functions of torch.signal.windows.

Most are compositions of engine ops (their derivatives come from those ops); the inverse
hyperbolics are primitives with a rule.  The polynomials, frexp and histograms have no
derivative in the frameworks (forward only, nothing recorded).
"""
from __future__ import annotations

import importlib
import math

from janusgrad.array.backend import (
    as_array,
    default_float,
    float64,
    host,
    int64,
    module_for,
    quiet,
    special_of,
    xp_of,
)
from janusgrad.core.tensor import Tensor
from janusgrad.ops import elementwise as E
from janusgrad.ops import index as I
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.ops import sorting as Q
from janusgrad.ops import spec
from janusgrad.ops.creation import linspace_values
from janusgrad.ops.elementwise import _def_unary
from janusgrad.ops.linalg import matmul
from janusgrad.ops.manip import diagonal
from janusgrad.ops.testing import array, distinct_array, unary

# ---------------------------------------------------------------- inverse hyperbolics
acosh = _def_unary("acosh", "arccosh",
                   lambda np, g, x: g / np.sqrt((x - 1.0) * (x + 1.0)), "x")
asinh = _def_unary("asinh", "arcsinh", lambda np, g, x: g / np.sqrt(np.square(x) + 1.0), "x")
atanh = _def_unary("atanh", "arctanh", lambda np, g, x: g / (1.0 - np.square(x)), "x")


# ---------------------------------------------------------------- helpers
def _const(x, a):
    """An unrecorded tensor of ``x``'s class holding array ``a``."""
    return type(x).wrap(as_array(a))


def _floated(x):
    return x if x.array.dtype.kind == "f" else E.cast(x, default_float)


def _axis(x, axis, nd=None):
    nd = x.array.ndim if nd is None else nd
    n = max(nd, 1)
    if not -n <= axis < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}],"
                         f" but got {axis})")
    return axis % n if nd else 0


def _slice(x, axis, start, stop):
    n = x.array.shape[axis]
    start, stop = max(0, min(start, n)), max(0, min(stop, n))
    return S.narrow(x, axis, start, max(0, stop - start))


# ---------------------------------------------------------------- products, blocks
def vdot(x, y):
    """The dot product of two 1-D tensors (real: no conjugation)."""
    a, b = x.array, y.array
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.dtype != b.dtype:
        raise RuntimeError("vdot : expected both vectors to have same dtype, but found "
                           f"{_long(a.dtype)} and {_long(b.dtype)}")
    if a.shape[0] != b.shape[0]:
        n, m = a.shape[0], b.shape[0]
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to "
                           f"have the same number of elements, but got {n} and {m} elements "
                           "respectively")
    return R.sum(E.mul(x, y))


def _long(dt):
    names = {"float64": "Double", "float32": "Float", "int64": "Long", "int32": "Int",
             "bool": "Bool", "float16": "Half", "int16": "Short", "int8": "Char",
             "uint8": "Byte"}
    return names.get(str(dt), str(dt))


def block_diag(tensors):
    """The tensors (0-d, 1-D as a row, 2-D) along the diagonal of a 2-D tensor of zeros."""
    tensors = list(tensors)
    mats = []
    for i, t in enumerate(tensors):
        nd = t.array.ndim
        if nd > 2:
            raise RuntimeError(f"block_diag: Input tensors must have 2 or fewer "
                               f"dimensions. Input {i} has {nd} dimensions")
        mats.append(S.reshape(t, (1, 1)) if nd == 0 else
                    S.reshape(t, (1, t.array.shape[0])) if nd == 1 else t)
    if not mats:
        return None
    xp = xp_of(mats[0].array)
    dt = xp.result_type(*[m.array for m in mats])
    cols = sum(m.array.shape[1] for m in mats)
    rows, at = [], 0
    for m in mats:
        r, c = m.array.shape
        m = E.cast(m, dt) if m.array.dtype != dt else m
        rows.append(S.unnarrow(m, (r, cols), 1, at))
        at += c
    return S.concatenate(rows, 0)


# ---------------------------------------------------------------- distances
def cdist(x1, x2, p=2.0):
    """Pairwise p-norm distances between the rows of x1 (..., P, M) and x2 (..., R, M)."""
    a, b = x1.array, x2.array
    if a.ndim < 2 or b.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {a.ndim}D"
                           if a.ndim < 2 else
                           f"cdist only supports at least 2D tensors, X2 got: {b.ndim}D")
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{a.shape[-1]} X2: {b.shape[-1]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    d = E.sub(S.unsqueeze(x1, -2), S.unsqueeze(x2, -3))
    if d.array.size == 0:
        return E.mul(R.sum(d, -1), 0.0)
    return _dist_rows(d, p)


def _dist_rows(d, p):
    """p-norms over the last axis, with torch's cdist gradient at a zero distance (0)."""
    if p == 0:
        return E.add(R.sum(E.ne(d, 0.0), -1, False, d.array.dtype), E.mul(R.sum(d, -1), 0.0))
    if math.isinf(p):
        return R.amax(E.abs(d), -1)
    zero = R.amax(E.abs(_const(d, d.array)), -1, True)
    zero = E.eq(zero, 0.0)
    safe = E.where_(zero, 1.0, d)  # (no 0/0 in the gradient of a zero distance)
    out = R.norm(safe, p, -1, False)
    return E.where_(S.squeeze(zero, -1), 0.0, out)


def dist(x, y, p=2.0):
    """The p-norm of x - y (broadcast) over all elements."""
    d = E.sub(x, y)
    if isinstance(p, Tensor):
        p = float(p.array)
    if p == 0:
        return E.add(R.sum(E.ne(d, 0.0), None, False, d.array.dtype), E.mul(R.sum(d), 0.0))
    return R.norm(d, p, None, False)


def renorm(x, p, axis, maxnorm):
    """Each slice along ``axis`` scaled down to p-norm ``maxnorm`` where its norm exceeds it
    (by maxnorm / (norm + 1e-7), as torch)."""
    nd = x.array.ndim
    axis = _axis(x, axis)
    others = tuple(i for i in range(nd) if i != axis)
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    norm = R.norm(x, p, others, True) if others else E.abs(x)
    return E.mul(x, E.where_(E.gt(norm, maxnorm), E.div(maxnorm, E.add(norm, 1e-7)), 1.0))


# ---------------------------------------------------------------- statistics
def cov(x, correction=1, fweights=None, aweights=None):
    """The covariance of the rows (variables) of ``x`` over its columns (observations), with
    frequency and analytic weights and ``correction``, as torch.cov."""
    a = x.array
    if a.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got "
                           f"an input with {a.ndim} dimensions")
    x = S.reshape(x, (1, -1)) if a.ndim < 2 else x
    x = _floated(x)
    n_obs = x.array.shape[1]
    w = None
    for wt, what in ((fweights, "fweights"), (aweights, "aweights")):
        if wt is None:
            continue
        wa = wt.array
        if wa.ndim > 1:
            raise RuntimeError(f"cov(): expected {what} to have one or fewer dimensions but "
                               f"got {what} with {wa.ndim} dimensions")
        if wa.size != n_obs:
            raise RuntimeError(f"cov(): expected {what} to have the same numel as there are "
                               f"observations in the input but got {wa.size} != {n_obs}")
        if what == "fweights" and wa.dtype.kind not in "iub":
            raise RuntimeError(f"cov(): expected fweights to have integral dtype but got "
                               f"fweights with {_long(wa.dtype)} dtype")
        if what == "aweights" and wa.dtype.kind != "f":
            raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got"
                               f" aweights with {_long(wa.dtype)} dtype")
        if bool((wa < 0).any()):
            raise RuntimeError(f"cov(): {what} cannot be negative")
        w = wt if w is None else E.mul(w, wt)
    if w is None:
        w_sum = float(n_obs)
        avg = R.mean(x, 1) if n_obs else E.mul(R.sum(x, 1), math.nan)
    else:
        w = E.cast(w, x.array.dtype) if w.array.dtype != x.array.dtype else w
        w_sum = R.sum(w)
        avg = E.div(R.sum(E.mul(x, w), 1), w_sum)
    if w is None or aweights is None or correction == 0:
        norm = E.sub(w_sum, correction) if w is not None else w_sum - correction
        if correction == 0 and w is not None:
            norm = w_sum
    else:
        aw = aweights if aweights.array.dtype == x.array.dtype else E.cast(aweights,
                                                                           x.array.dtype)
        norm = E.sub(w_sum, E.div(E.mul(R.sum(E.mul(w, aw)), correction), w_sum))
    if isinstance(norm, Tensor):
        norm = E.where_(E.le(norm, 0.0), 0.0, norm)
    else:
        norm = max(norm, 0.0)
    xm = E.sub(x, S.unsqueeze(avg, 1))
    right = E.mul(xm, w) if w is not None else xm
    c = matmul(xm, S.swapaxes(right, 0, 1))
    c = E.div(c, norm)
    return S.squeeze(c)


def corrcoef(x):
    """Pearson correlation coefficients of the rows of ``x`` (clipped to [-1, 1])."""
    c = cov(x)
    if c.array.ndim == 0:
        return E.div(c, c)
    sd = E.sqrt(diagonal(c, 0, 0, 1))
    c = E.div(c, S.unsqueeze(sd, 1))
    c = E.div(c, S.unsqueeze(sd, 0))
    return E.clamp(c, -1.0, 1.0)


def var_mean(x, axis=None, correction=1, keepdims=False):
    return R.var(x, axis, correction, keepdims), R.mean(x, axis, keepdims)


def std_mean(x, axis=None, correction=1, keepdims=False):
    return R.std(x, axis, correction, keepdims), R.mean(x, axis, keepdims)


def nansum(x, axis=None, keepdims=False, dtype=None):
    """The sum of the elements that are not NaN."""
    if x.array.dtype.kind == "f":
        x = E.where_(E.isnan(x), 0.0, x)
    return R.sum(x, axis, keepdims, dtype)


def nanmean(x, axis=None, keepdims=False):
    """The mean of the elements that are not NaN (NaN where there are none)."""
    count = R.sum(E.logical_not(E.isnan(x)), axis, keepdims)
    return E.div(nansum(x, axis, keepdims), E.cast(count, x.array.dtype))


def aminmax(x, axis=None, keepdims=False):
    """(amin, amax) over ``axis`` (all elements for None)."""
    a = x.array
    if a.size == 0 and (axis is None or a.shape[axis] == 0):
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity." if axis is not None else
                           "aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    if axis is None and keepdims:
        axes = tuple(range(a.ndim))
        return R.amin(x, axes, True), R.amax(x, axes, True)
    return R.amin(x, axis, keepdims), R.amax(x, axis, keepdims)


_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def quantile(x, q, axis=None, keepdims=False, interpolation="linear", ignore_nan=False):
    """The ``q``-th quantiles (a number or a 0-d/1-D tensor in [0, 1]) along ``axis`` (of
    all elements for None), torch's algorithm: sort, rank q (n - 1), interpolate."""
    op = "nanquantile" if ignore_nan else "quantile"
    a = x.array
    xp = xp_of(a)
    if isinstance(axis, (list, tuple)):  # several axes (paddle): moved last and merged
        axes = sorted(_axis(x, v) for v in axis)
        rest = [i for i in range(a.ndim) if i not in axes]
        moved = S.reshape(S.transpose(x, tuple(rest + axes)),
                          tuple(a.shape[i] for i in rest) + (-1,))
        out = quantile(moved, q, -1, False, interpolation, ignore_nan)
        if keepdims:
            lead = tuple(out.array.shape[:out.array.ndim - len(rest)])
            out = S.reshape(out, lead + tuple(1 if i in axes else a.shape[i]
                                              for i in range(a.ndim)))
        return out
    if isinstance(q, (list, tuple)):  # (paddle: a list of quantiles)
        q = _const(x, xp.asarray(q, dtype=a.dtype))
    if a.dtype.kind != "f":
        raise RuntimeError(f"{op}() input tensor must be either float or double dtype")
    if isinstance(q, Tensor):
        qa = q.array
        if qa.ndim > 1:
            raise RuntimeError(f"{op}() q must be a scalar or 1D tensor")
        if qa.dtype != a.dtype:
            raise RuntimeError(f"{op}() q tensor must be same dtype as the input tensor")
        qv = qa
    else:
        qv = xp.asarray(float(q), dtype=a.dtype)
    if qv.size and not bool(((qv >= 0) & (qv <= 1)).all()):
        raise RuntimeError(f"{op}() q values must be in the range [0, 1]")
    if interpolation not in _MODES:
        raise RuntimeError(f"{op}() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest. Got {interpolation}")
    nd = a.ndim
    if axis is None:
        flat = S.reshape(x, (-1,))
        out_shape = (1,) * nd if keepdims else ()
        moved = flat
    else:
        ax = _axis(x, axis)
        out_shape = tuple(1 if i == ax else s for i, s in enumerate(a.shape)) if keepdims \
            else tuple(s for i, s in enumerate(a.shape) if i != ax)
        moved = S.moveaxis(x, ax, -1) if nd else S.reshape(x, (1,))
    if moved.array.size == 0 and moved.array.shape[-1] == 0:
        raise RuntimeError(f"{op}() input tensor must be non-empty")
    srt = Q.sort(moved, -1)[0]
    sa = srt.array
    n = sa.shape[-1]
    batch = sa.shape[:-1]
    qflat = qv.reshape(-1)
    nq = qflat.shape[0]
    qb = qflat.reshape((1,) * len(batch) + (nq,))
    nan = xp.isnan(sa)
    if ignore_nan:
        count = (~nan).sum(-1, keepdims=True)
        ranks = qb * (count - 1).astype(a.dtype)
        ranks = xp.where(ranks < 0, 0, ranks).astype(a.dtype)
    else:
        last = n - 1
        ranks = xp.broadcast_to(qb * last, batch + (nq,)).astype(a.dtype)
        ranks = xp.where(nan.any(-1, keepdims=True), xp.asarray(last, a.dtype), ranks)
    ranks = xp.broadcast_to(ranks, batch + (nq,))
    if interpolation == "lower":
        ranks = xp.floor(ranks)
    elif interpolation == "nearest":
        ranks = xp.round(ranks)
    elif interpolation == "higher":
        ranks = xp.ceil(ranks)
    below = ranks.astype(int64)
    vb = I.take_along_axis(srt, _const(x, below), -1)
    if interpolation in ("linear", "midpoint"):
        if interpolation == "midpoint":
            w = xp.where(below == ranks, 0.0, 0.5).astype(a.dtype)
        else:
            w = (ranks - below).astype(a.dtype)
        above = xp.ceil(ranks).astype(int64)
        va = I.take_along_axis(srt, _const(x, above), -1)
        vb = E.add(vb, E.mul(_const(x, w), E.sub(va, vb)))
    out = S.moveaxis(vb, -1, 0)  # (nq, *batch)
    if isinstance(q, Tensor) and qv.ndim == 1:
        return S.reshape(out, (nq,) + out_shape)
    return S.reshape(out, out_shape)


def nanquantile(x, q, axis=None, keepdims=False, interpolation="linear"):
    return quantile(x, q, axis, keepdims, interpolation, True)


# ---------------------------------------------------------------- differences, integrals
def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The n-th forward difference along ``axis`` (bool: !=), after joining ``prepend`` and
    ``append`` (tensors or numbers)."""
    nd = x.array.ndim
    if nd == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    ax = _axis(x, axis)
    parts = [x]
    if prepend is not None:
        parts.insert(0, _as_part(x, prepend, ax))
    if append is not None:
        parts.append(_as_part(x, append, ax))
    if len(parts) > 1:
        x = S.concatenate(parts, ax)
    for _ in range(n):
        length = x.array.shape[ax]
        if length == 0:
            break
        hi, lo = _slice(x, ax, 1, length), _slice(x, ax, 0, length - 1)
        x = E.ne(hi, lo) if x.array.dtype.kind == "b" else E.sub(hi, lo)
    return x


def _as_part(x, v, ax):
    if isinstance(v, Tensor):
        if v.array.ndim == 0:
            shape = list(x.array.shape)
            shape[ax] = 1
            return S.broadcast_to(v, tuple(shape))
        return v
    xp = xp_of(x.array)
    shape = list(x.array.shape)
    shape[ax] = 1
    return _const(x, xp.full(tuple(shape), v, dtype=x.array.dtype))


def gradient(x, spacing=1, axis=None, edge_order=1):
    """numpy.gradient's central differences (second order inside, ``edge_order`` at the
    edges) along each of ``axis`` (all axes for None); ``spacing``: a number, one per axis,
    or coordinates (1-D tensors) per axis.  A tuple of tensors, one per axis."""
    nd = x.array.ndim
    if axis is None:
        axes = list(range(nd))
    elif isinstance(axis, int):
        axes = [axis]
    else:
        axes = list(axis)
    axes = [_axis(x, a) for a in axes]
    if isinstance(spacing, (list, tuple)):
        spacings = list(spacing)
        if len(spacings) != len(axes):
            raise RuntimeError(f"gradient expected spacing to be unspecified, a scalar "
                               f"or it's spacing and dim arguments to have the same length, but"
                               f" got a spacing argument of length {len(spacings)} and a dim "
                               f"argument of length {len(axes)}.")
    else:
        spacings = [spacing] * len(axes)
    if edge_order not in (1, 2):
        raise RuntimeError("gradient only supports edge_order=1 and edge_order=2.")
    x = _floated(x)
    outs = []
    for ax, h in zip(axes, spacings):
        n = x.array.shape[ax]
        if n < edge_order + 1:
            raise RuntimeError("gradient expected each dimension size to be at least "
                               "edge_order+1")
        outs.append(_gradient_along(x, ax, h, edge_order))
    return tuple(outs)


def _seg(x, ax, start, stop):
    return _slice(x, ax, start, stop)


def _gradient_along(x, ax, h, edge_order):
    n = x.array.shape[ax]
    nd = x.array.ndim
    if isinstance(h, Tensor) and h.array.ndim == 1:
        c = E.cast(h, x.array.dtype) if h.array.dtype != x.array.dtype else h
        c = _const(x, c.array)
        shape = [1] * nd
        shape[ax] = -1
        dxs = E.sub(_seg(c, 0, 1, n), _seg(c, 0, 0, n - 1))
        dxs = S.reshape(dxs, tuple(shape))
        d1, d2 = _seg(dxs, ax, 0, n - 2), _seg(dxs, ax, 1, n - 1)
        a = E.div(E.neg(d2), E.mul(d1, E.add(d1, d2)))
        b = E.div(E.sub(d2, d1), E.mul(d1, d2))
        cc = E.div(d1, E.mul(d2, E.add(d1, d2)))
        mid = E.add(E.add(E.mul(a, _seg(x, ax, 0, n - 2)), E.mul(b, _seg(x, ax, 1, n - 1))),
                    E.mul(cc, _seg(x, ax, 2, n)))
        first_dx, last_dx = _seg(dxs, ax, 0, 1), _seg(dxs, ax, n - 2, n - 1)
        if edge_order == 1:
            first = E.div(E.sub(_seg(x, ax, 1, 2), _seg(x, ax, 0, 1)), first_dx)
            last = E.div(E.sub(_seg(x, ax, n - 1, n), _seg(x, ax, n - 2, n - 1)), last_dx)
        else:
            d1, d2 = first_dx, _seg(dxs, ax, 1, 2)
            a = E.neg(E.div(E.add(E.mul(d1, 2.0), d2), E.mul(d1, E.add(d1, d2))))
            b = E.div(E.add(d1, d2), E.mul(d1, d2))
            cc = E.neg(E.div(d1, E.mul(d2, E.add(d1, d2))))
            first = E.add(E.add(E.mul(a, _seg(x, ax, 0, 1)), E.mul(b, _seg(x, ax, 1, 2))),
                          E.mul(cc, _seg(x, ax, 2, 3)))
            d1, d2 = _seg(dxs, ax, n - 3, n - 2), last_dx
            a = E.div(d2, E.mul(d1, E.add(d1, d2)))
            b = E.neg(E.div(E.add(d2, d1), E.mul(d1, d2)))
            cc = E.div(E.add(E.mul(d2, 2.0), d1), E.mul(d2, E.add(d1, d2)))
            last = E.add(E.add(E.mul(a, _seg(x, ax, n - 3, n - 2)),
                               E.mul(b, _seg(x, ax, n - 2, n - 1))),
                         E.mul(cc, _seg(x, ax, n - 1, n)))
        return S.concatenate([first, mid, last], ax)
    if isinstance(h, Tensor):
        h = h.array.item()
    mid = E.div(E.sub(_seg(x, ax, 2, n), _seg(x, ax, 0, n - 2)), 2.0 * h)
    if edge_order == 1:
        first = E.div(E.sub(_seg(x, ax, 1, 2), _seg(x, ax, 0, 1)), h)
        last = E.div(E.sub(_seg(x, ax, n - 1, n), _seg(x, ax, n - 2, n - 1)), h)
    else:
        first = E.div(E.add(E.add(E.mul(_seg(x, ax, 0, 1), -1.5), E.mul(_seg(x, ax, 1, 2), 2.0)),
                            E.mul(_seg(x, ax, 2, 3), -0.5)), h)
        last = E.div(E.add(E.add(E.mul(_seg(x, ax, n - 3, n - 2), 0.5),
                                 E.mul(_seg(x, ax, n - 2, n - 1), -2.0)),
                           E.mul(_seg(x, ax, n - 1, n), 1.5)), h)
    return S.concatenate([first, mid, last], ax)


def _trapezoid_dx(y, x, dx, ax):
    """The widths of the panels along ``ax`` (a tensor broadcasting against the panels, or
    a number)."""
    if x is None:
        return 1.0 if dx is None else dx
    n = y.array.shape[ax]
    xa = x.array
    if xa.ndim == 1:
        if xa.shape[0] != n:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        d = E.sub(_seg(x, 0, 1, n), _seg(x, 0, 0, n - 1))
        shape = [1] * y.array.ndim
        shape[ax] = max(n - 1, 0)
        return S.reshape(d, tuple(shape))
    nx = xa.ndim
    axx = ax - y.array.ndim + nx if nx < y.array.ndim else ax
    m = xa.shape[axx]
    return E.sub(_seg(x, axx, 1, m), _seg(x, axx, 0, m - 1))


def trapezoid(y, x=None, dx=None, axis=-1):
    """The trapezoidal rule along ``axis``: sample points ``x`` or spacing ``dx``."""
    ax = _axis(y, axis)
    n = y.array.shape[ax]
    if n == 0:
        return E.mul(R.sum(_floated(y), ax), 0.0)
    d = _trapezoid_dx(y, x, dx, ax)
    pair = E.add(_seg(y, ax, 1, n), _seg(y, ax, 0, n - 1))
    if isinstance(d, Tensor):
        return E.div(R.sum(E.mul(d, pair), ax), 2.0)
    return E.mul(R.sum(pair, ax), d / 2.0)


def cumulative_trapezoid(y, x=None, dx=None, axis=-1):
    """The running trapezoidal integral along ``axis`` (one element fewer)."""
    ax = _axis(y, axis)
    n = y.array.shape[ax]
    d = _trapezoid_dx(y, x, dx, ax)
    pair = E.add(_seg(y, ax, 1, n), _seg(y, ax, 0, n - 1)) if n else _floated(y)
    if isinstance(d, Tensor):
        return R.cumsum(E.div(E.mul(d, pair), 2.0), ax)
    return R.cumsum(E.mul(pair, d / 2.0), ax)


# ---------------------------------------------------------------- frexp
def frexp(x):
    """(mantissa, exponent) with x = mantissa 2^exponent, |mantissa| in [0.5, 1); the
    mantissa is x times a constant power of two (its derivative: 2^-exponent), the
    exponent int32."""
    a = x.array
    if a.dtype.kind != "f":
        raise RuntimeError("frexp() only supports floating-point dtypes")
    xp = xp_of(a)
    m, e = xp.frexp(a)
    with_scale = E.mul(x, _const(x, xp.ldexp(xp.ones_like(a), -e)))
    fin = xp.isfinite(a)
    if not bool(fin.all()):  # (inf and NaN: the mantissa is the value itself)
        with_scale = E.where_(_const(x, fin), with_scale, x)
    return with_scale, _const(x, e.astype("int32"))


# ---------------------------------------------------------------- logspace
def logspace(cls, start, end, steps, base=10.0, dtype=None, *, device=None):
    """``steps`` powers of ``base`` with exponents evenly spaced from start to end, the
    first half counted from start and the second from end (as torch's kernel)."""
    xp = module_for(device)
    dt = xp.dtype(dtype or default_float)
    steps = int(steps)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    work = dt if dt.kind == "f" else xp.dtype(float64)
    if steps == 0:
        return cls.wrap(as_array(xp.zeros((0,), dt)))
    if steps == 1:
        v = xp.power(xp.asarray(float(base)), xp.asarray(start, work).astype(float64))
        return cls.wrap(as_array(xp.full((1,), v, dtype=float64).astype(dt)))
    s, e = work.type(start), work.type(end)
    step = (e - s) / work.type(steps - 1)
    i = xp.arange(steps)
    half = steps // 2
    expo = xp.where(i < half, s + step * i.astype(work), e - step * (steps - i - 1).astype(work))
    out = xp.power(float(base), expo.astype(float64))
    if dt.kind in "iu":
        out = xp.trunc(out)
    return cls.wrap(as_array(out.astype(dt)))


# ---------------------------------------------------------------- histograms
def histogramdd(x, bins, ranges=None, weight=None, density=False):
    """(hist, [edges per dim]) of the points (..., D) of ``x``: ``bins`` an int, an int per
    dim or a tensor of edges per dim; edges from ``ranges`` (or the data's extent, widened
    by 0.5 each side where that is a point), counted as torch (the last edge closed)."""
    a = x.array
    xp = xp_of(a)
    if a.dtype.kind != "f":
        raise RuntimeError("histogramdd: input tensor and bins tensors should have the "
                           "same dtype")
    d = a.shape[-1] if a.ndim else 1
    pts = a.reshape(-1, d)
    if isinstance(bins, Tensor) or isinstance(bins, int):
        bins = [bins] * d if isinstance(bins, int) else [bins]
    bins = list(bins)
    edges = []
    for k in range(d):
        b = bins[k]
        if isinstance(b, Tensor):
            edges.append(b.array)
            continue
        if b <= 0:
            raise RuntimeError(f"histogramdd(): bins must be > 0, but got {b} for "
                               f"dimension {k}")
        if ranges is not None:
            lo, hi = float(ranges[2 * k]), float(ranges[2 * k + 1])
        elif pts.shape[0]:
            lo, hi = float(pts[:, k].min()), float(pts[:, k].max())
        else:
            lo = hi = 0.0
        if lo > hi:
            raise RuntimeError("histogramdd(): max must be larger than min")
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise RuntimeError(f"histogramdd(): range of [{lo}, {hi}] is not finite")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges.append(linspace_values(lo, hi, b + 1, a.dtype, xp))
    counts = [e.shape[0] - 1 for e in edges]
    keep = xp.ones(pts.shape[0], dtype=bool)
    flat = xp.zeros(pts.shape[0], dtype=int64)
    for k, e in enumerate(edges):
        v = pts[:, k]
        pos = xp.searchsorted(e, v, side="right") - 1
        pos = xp.where(v == e[-1], counts[k] - 1, pos)
        keep &= (v >= e[0]) & (v <= e[-1])
        flat = flat * counts[k] + xp.clip(pos, 0, max(counts[k] - 1, 0))
    w = None if weight is None else weight.array.reshape(-1)[keep]
    size = 1
    for c in counts:
        size *= c
    hist = xp.bincount(flat[keep], weights=w, minlength=size)[:size].astype(a.dtype)
    hist = hist.reshape(counts)
    if density:
        with quiet(invalid="ignore", divide="ignore"):
            hist = hist / hist.sum()
            for k, e in enumerate(edges):
                shape = [1] * d
                shape[k] = counts[k]
                hist = hist / xp.diff(e).reshape(shape)
    return _const(x, hist.astype(a.dtype)), [_const(x, e.astype(a.dtype)) for e in edges]


def histogram(x, bins=100, range=None, weight=None, density=False):  # noqa: A002
    """(hist, bin_edges) of all elements of ``x`` (see histogramdd)."""
    flat = S.reshape(x, (-1, 1))
    w = None if weight is None else S.reshape(weight, (-1,))
    hist, edges = histogramdd(flat, [bins], range, w, density)
    return hist, edges[0]


# ---------------------------------------------------------------- orthogonal polynomials
# torch.special's polynomials of integer degree n (n truncated toward zero; a degree that
# is NaN or past int64 counts as negative: 0), evaluated as torch's kernels do: closed
# forms at the ends of the interval and for large n inside it, else the three-term
# recurrence.  No derivative (torch defines none): nothing is recorded.
def _recur(xp, x, n, p0, p1, step, first=1):
    """The recurrence from p_0 = p0, p_1 = p1 with p_{k+1} = step(k, p_k, p_{k-1}), each
    element stopped at its own n (n >= 0)."""
    out = xp.where(n == 0, p0, p1)
    top = int(n.max()) if n.size else 0
    p, q = p0 + 0 * x, p1 + 0 * x
    for k in range(first, top):
        r = step(k, q, p)
        p, q = q, r
        out = xp.where(n == k + 1, r, out)
    return out


def _degree(xp, n):
    big = ~xp.isfinite(n) | (xp.abs(n) >= 9.2e18)
    return xp.where(big, -1, xp.trunc(xp.where(big, 0, n))).astype(int64)


def _poly_t(xp, x, n):
    two = x + x
    out = _recur(xp, x, n, 1.0, x, lambda k, q, p: two * q - p)
    inside = xp.abs(x) < 1.0
    with quiet(invalid="ignore"):
        out = xp.where((n > 6) & inside, xp.cos(n * xp.arccos(xp.clip(x, -1, 1))), out)
    one = xp.abs(x) == 1.0
    out = xp.where(one, xp.where((x > 0) | (n % 2 == 0), 1.0, -1.0), out)
    return out


def _poly_u(xp, x, n):
    two = x + x
    out = _recur(xp, x, n, 1.0, two, lambda k, q, p: two * q - p)
    inside = xp.abs(x) < 1.0
    with quiet(invalid="ignore", divide="ignore"):
        t = xp.arccos(xp.clip(x, -1, 1))
        st = xp.sin(t)
        big = xp.where(st != 0, xp.sin((n + 1) * t) / xp.where(st != 0, st, 1.0),
                       (n + 1) * xp.cos((n + 1) * t) / x)
    out = xp.where((n > 8) & inside, big, out)
    one = xp.abs(x) == 1.0
    out = xp.where(one, xp.where((x > 0) | (n % 2 == 0), n + 1.0, -(n + 1.0)), out)
    return out


def _poly_v(xp, x, n):
    two = x + x
    out = _recur(xp, x, n, 1.0, two - 1.0, lambda k, q, p: two * q - p)
    inside = xp.abs(x) < 1.0
    with quiet(invalid="ignore", divide="ignore"):
        t = xp.arccos(xp.clip(x, -1, 1))
        ok = xp.sin(t / 2) != 1.0
        big = xp.where(ok, xp.cos((n + 0.5) * t) / xp.where(ok, xp.cos(t / 2), 1.0),
                       xp.where(n % 2 == 0, n + n + 1.0, -(n + n + 1.0)))
    out = xp.where((n > 8) & inside, big, out)
    one = xp.abs(x) == 1.0
    edge = xp.where(x > 0, 1.0, xp.where(n % 2 == 0, n + n + 1.0, -(n + n + 1.0)))
    return xp.where(one, edge, out)


def _poly_w(xp, x, n):
    two = x + x
    out = _recur(xp, x, n, 1.0, two + 1.0, lambda k, q, p: two * q - p)
    inside = xp.abs(x) < 1.0
    with quiet(invalid="ignore", divide="ignore"):
        t = xp.arccos(xp.clip(x, -1, 1))
        ok = xp.cos(t / 2) != 1.0
        big = xp.where(ok, xp.sin((n + 0.5) * t) / xp.where(ok, xp.sin(t / 2), 1.0),
                       xp.where(x > 0, n + n + 1.0, xp.where(n % 2 == 0, 1.0, -1.0)))
    out = xp.where((n > 8) & inside, big, out)
    one = xp.abs(x) == 1.0
    edge = xp.where(x > 0, n + n + 1.0, xp.where(n % 2 == 0, 1.0, -1.0))
    return xp.where(one, edge, out)


def _poly_h(xp, x, n):
    two = x + x
    return _recur(xp, x, n, 1.0, two, lambda k, q, p: two * q - (2.0 * k) * p)


def _poly_he(xp, x, n):
    return _recur(xp, x, n, 1.0, x, lambda k, q, p: x * q - float(k) * p)


def _poly_l(xp, x, n):
    out = _recur(xp, x, n, 1.0, 1.0 - x,
                 lambda k, q, p: ((2.0 * k + (1.0 - x)) * q - k * p) / (k + 1.0))
    return xp.where(xp.abs(x) == 0.0, 1.0, out)


def _poly_p(xp, x, n):
    out = _recur(xp, x, n, 1.0, x,
                 lambda k, q, p: ((2.0 * k + 1.0) * x * q - k * p) / (k + 1.0))
    one = xp.abs(x) == 1.0
    edge = xp.where((x > 0) | (n == 1) | (n % 2 == 0), 1.0, -1.0)
    return xp.where(one, edge, out)


def _shifted(kernel, ends):
    """A shifted Chebyshev polynomial: the kernel at 2x - 1, torch's values at x = 1 and
    x = 0 (``ends``)."""
    def run(xp, x, n):
        out = kernel(xp, x + x - 1.0, n)
        at1, at0 = ends(xp, n)
        return xp.where(x == 1.0, at1, xp.where(x == 0.0, at0, out))
    return run


def _odd(xp, n, even, odd):
    return xp.where(n % 2 == 0, even, odd)


_POLYS = {
    "chebyshev_polynomial_t": _poly_t, "chebyshev_polynomial_u": _poly_u,
    "chebyshev_polynomial_v": _poly_v, "chebyshev_polynomial_w": _poly_w,
    "hermite_polynomial_h": _poly_h, "hermite_polynomial_he": _poly_he,
    "laguerre_polynomial_l": _poly_l, "legendre_polynomial_p": _poly_p,
    "shifted_chebyshev_polynomial_t": _shifted(
        _poly_t, lambda xp, n: (1.0 + 0 * n, _odd(xp, n, 1.0, -1.0))),
    "shifted_chebyshev_polynomial_u": _shifted(
        _poly_u, lambda xp, n: (n + 1.0, _odd(xp, n, n + 1.0, -(n + 1.0)))),
    "shifted_chebyshev_polynomial_v": _shifted(
        _poly_v, lambda xp, n: (1.0 + 0 * n, _odd(xp, n, n + n + 1.0, -(n + n + 1.0)))),
    "shifted_chebyshev_polynomial_w": _shifted(
        _poly_w, lambda xp, n: (n + n + 1.0, _odd(xp, n, 1.0, -1.0))),
}


def _polynomial(name):
    kernel = _POLYS[name]

    def op(x, n):
        t = x if isinstance(x, Tensor) else n
        xa = x.array if isinstance(x, Tensor) else x
        na = n.array if isinstance(n, Tensor) else n
        xp = xp_of(t.array)
        dt = xp.result_type(xa, na)
        if dt.kind != "f":
            dt = xp.dtype(default_float)
        xa = xp.asarray(xa, dtype=dt)
        xa, nd = xp.broadcast_arrays(xa, _degree(xp, xp.asarray(na, dtype=float64)))
        with quiet(over="ignore", invalid="ignore"):
            out = kernel(xp, xa.astype(float64) if dt == float64 else xa, nd)
        out = xp.where(nd < 0, 0.0, out)
        return type(t).wrap(as_array(xp.asarray(out).astype(dt)))
    op.__name__ = name
    return op


for _name in _POLYS:
    globals()[_name] = _polynomial(_name)
chebyshev_polynomial_t = _polynomial("chebyshev_polynomial_t")  # (named for the linters)


# ---------------------------------------------------------------- windows
def _lin(xp, start, end, m, dt):
    return linspace_values(start, end, m, xp.dtype(dt), xp)


def window(cls, kind, m, sym=True, dtype=None, *, device=None, **p):
    """torch.signal.windows' ``kind`` window of length ``m`` (``sym``: symmetric, else
    periodic), as torch computes it (points from linspace, then the formula)."""
    xp = module_for(device)
    dt = xp.dtype(dtype or default_float)
    if m < 0:
        raise ValueError(f"{kind} requires non-negative window length, got M={m}")
    if dt.kind != "f" or dt.itemsize < 4:
        raise ValueError(f"{kind} expects float32 or float64 dtypes, got: {p.get('_name')}")
    if kind == "exponential":
        if p["tau"] <= 0:
            raise ValueError(f"Tau must be positive, got: {p['tau']} instead.")
        if sym and p["center"] is not None:
            raise ValueError("Center must be None for symmetric windows")
    if kind == "gaussian" and p["std"] <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {p['std']} instead.")
    if kind == "kaiser" and p["beta"] < 0:
        raise ValueError(f"beta must be non-negative, got: {p['beta']} instead.")
    if kind == "general_cosine":
        a = p["a"]
        if m > 1 and not isinstance(a, (list, tuple)) and not hasattr(a, "__iter__"):
            raise TypeError("Coefficients must be a list/tuple")
    if m == 0:
        return cls.wrap(as_array(xp.zeros((0,), dt)))
    if m == 1 and kind not in ("exponential", "cosine", "gaussian"):
        return cls.wrap(as_array(xp.ones((1,), dt)))
    period = m if not sym and m > 1 else m - 1
    if kind == "exponential":
        center = p["center"]
        if center is None:
            center = period / 2.0
        c = 1 / p["tau"]
        out = xp.exp(-xp.abs(_lin(xp, -center * c, (-center + (m - 1)) * c, m, dt)))
    elif kind == "cosine":
        c = math.pi / (m + 1 if not sym and m > 1 else m)
        out = xp.sin(_lin(xp, 0.5 * c, (0.5 + (m - 1)) * c, m, dt))
    elif kind == "gaussian":
        start = -period / 2.0
        c = 1 / (p["std"] * math.sqrt(2))
        k = _lin(xp, start * c, (start + (m - 1)) * c, m, dt)
        out = xp.exp(-(k ** 2))
    elif kind == "kaiser":
        beta = xp.asarray(p["beta"], dt)
        c = 2.0 * beta / (m if not sym else m - 1)
        end = xp.minimum(beta, -beta + (m - 1) * c)
        k = _lin(xp, float(-beta), float(end), m, dt)
        i0 = special_of(k).i0
        with quiet(invalid="ignore"):
            out = i0(xp.sqrt(beta * beta - k ** 2)).astype(dt) / i0(beta).astype(dt)
    elif kind == "bartlett":
        c = 2 / (m if not sym else m - 1)
        out = 1 - xp.abs(_lin(xp, -1, -1 + (m - 1) * c, m, dt))
    else:  # general_cosine and its kin
        a = {"hamming": [0.54, 0.46], "hann": [0.5, 0.5], "blackman": [0.42, 0.5, 0.08],
             "nuttall": [0.3635819, 0.4891775, 0.1365995, 0.0106411]}.get(kind)
        if kind == "general_hamming":
            a = [p["alpha"], 1.0 - p["alpha"]]
        elif kind == "general_cosine":
            a = list(p["a"])
            if not a:
                raise ValueError("Coefficients cannot be empty")
        c = 2 * math.pi / period
        k = _lin(xp, 0, (m - 1) * c, m, dt)
        ai = xp.asarray([(-1) ** i * w for i, w in enumerate(a)], dt)
        i = xp.arange(len(a), dtype=dt)
        out = (ai[:, None] * xp.cos(i[:, None] * k)).sum(0)
    return cls.wrap(as_array(xp.asarray(out).astype(dt)))


def legacy_window(cls, kind, length, periodic=True, dtype=None, *, device=None, **p):
    """torch.<kind>_window (hamming, hann, bartlett, blackman, kaiser): the C++ kernels'
    formulas over arange (periodic: one point longer, the last dropped)."""
    xp = module_for(device)
    dt = xp.dtype(dtype or default_float)
    if length < 0:
        raise RuntimeError(f"{kind}_window requires non-negative window_length, got "
                           f"window_length={length}")
    if dt.kind != "f":
        raise RuntimeError(f"{kind}_window expects floating point dtypes, got: {dt}")
    if length == 0:
        return cls.wrap(as_array(xp.zeros((0,), dt)))
    if length == 1:
        return cls.wrap(as_array(xp.ones((1,), dt)))
    n = length + 1 if periodic else length
    r = xp.arange(n, dtype=dt)
    if kind in ("hamming", "hann"):
        alpha, beta = (0.5, 0.5) if kind == "hann" else (p["alpha"], p["beta"])
        w = r * dt.type(2 * math.pi / (n - 1))
        out = xp.cos(w) * dt.type(-beta) + dt.type(alpha)
    elif kind == "blackman":
        w = r * dt.type(math.pi / (n - 1))
        out = xp.cos(w * 4) * dt.type(0.08) - xp.cos(w * 2) * dt.type(0.5) + dt.type(0.42)
    elif kind == "bartlett":
        out = r * dt.type(2.0 / (n - 1))
        half = ((n - 1) >> 1) + 1
        out[half:] = 2 - out[half:]
    else:  # kaiser
        beta = p["beta"]
        alpha = (n - 1) / 2.0
        i0 = special_of(r).i0
        out = i0(beta * xp.sqrt(xp.maximum(1 - ((r.astype(float64) - alpha) / alpha) ** 2,
                                           0))) / i0(xp.asarray(beta, float64))
    out = out[:length] if periodic else out
    return cls.wrap(as_array(xp.asarray(out).astype(dt)))


# ---------------------------------------------------------------- specs
def _make_shape(shape, lo=-2.0, hi=2.0, n=1):
    def make(draw, st, hnp):
        return [array(draw, st, hnp, shape, lo, hi) for _ in range(n)], {}
    return make


def _make_rows(draw, st, hnp):
    return [distinct_array(draw, st, hnp, (3, 5), -2.0, 2.0)], {}


def _sp(module):
    return importlib.import_module(f"scipy.{module}")


spec("acosh", acosh, unary(1.2, 3.0), ref=host.arccosh)
spec("asinh", asinh, unary(), ref=host.arcsinh)
spec("atanh", atanh, unary(-0.8, 0.8), ref=host.arctanh)
spec("vdot", vdot, _make_shape((4,), n=2), ref=host.vdot)
spec("block_diag", lambda a, b: block_diag([a, b]),
     lambda draw, st, hnp: ([array(draw, st, hnp, (2, 3)), array(draw, st, hnp, (1, 2))], {}),
     ref=lambda a, b: _sp("linalg").block_diag(a, b))
spec("cov", cov, _make_shape((3, 5)), ref=host.cov)
spec("corrcoef", corrcoef, _make_rows, ref=host.corrcoef)
spec("diff", lambda x: diff(x, 2, 0), _make_shape((5, 3)), ref=lambda a: host.diff(a, 2, 0))
spec("gradient", lambda x: gradient(x, 0.5, 0, 2)[0], _make_shape((5, 3)),
     ref=lambda a: host.gradient(a, 0.5, axis=0, edge_order=2))
spec("quantile", lambda x: quantile(x, 0.3, -1), _make_rows,
     ref=lambda a: host.quantile(a, 0.3, axis=-1))
spec("nansum", lambda x: nansum(x, 0), _make_shape((3, 4)), ref=lambda a: host.nansum(a, 0))
spec("nanmean", lambda x: nanmean(x, 1), _make_shape((3, 4)), ref=lambda a: host.nanmean(a, 1))
spec("trapezoid", lambda y, x: trapezoid(y, x), _make_shape((5,), n=2),
     ref=lambda y, x: host.trapezoid(y, x))
spec("cumulative_trapezoid", lambda y: cumulative_trapezoid(y, dx=0.5, axis=0),
     _make_shape((5, 2)),
     ref=lambda y: _sp("integrate").cumulative_trapezoid(y, dx=0.5, axis=0))
spec("renorm", lambda x: renorm(x, 2, 0, 1.0), _make_shape((3, 4)),
     ref=lambda a: a * host.where((n := host.sqrt((a * a).sum(1, keepdims=True))) > 1.0,
                                  1.0 / (n + 1e-7), 1.0))
spec("cdist", cdist, lambda draw, st, hnp: ([array(draw, st, hnp, (3, 2)),
                                             array(draw, st, hnp, (4, 2), 3.0, 5.0)], {}),
     ref=lambda a, b: _sp("spatial.distance").cdist(a, b))
# (the mantissa jumps at every power of two: the drawn values keep 0.05 away from them)
spec("frexp_mantissa", lambda x: frexp(x)[0],
     unary(avoid=(0.0, *(s * 2.0 ** k for s in (1, -1) for k in range(-4, 2)))),
     ref=lambda a: host.frexp(a)[0])
spec("chebyshev_polynomial_t", lambda x: chebyshev_polynomial_t(x, 3), unary(),
     ref=lambda a: _sp("special").eval_chebyt(3, a), differentiable=False)
spec("hermite_polynomial_h", lambda x: globals()["hermite_polynomial_h"](x, 4), unary(),
     ref=lambda a: _sp("special").eval_hermite(4, a), differentiable=False)
spec("laguerre_polynomial_l", lambda x: globals()["laguerre_polynomial_l"](x, 3), unary(),
     ref=lambda a: _sp("special").eval_laguerre(3, a), differentiable=False)
spec("legendre_polynomial_p", lambda x: globals()["legendre_polynomial_p"](x, 5),
     unary(-0.9, 0.9), ref=lambda a: _sp("special").eval_legendre(5, a),
     differentiable=False)
