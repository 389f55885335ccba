"""Pooling, padding, resampling and pixel shuffles, in numpy's vocabulary.

Every function acts on the LAST ``d`` axes of its input (the spatial axes; whatever comes
before them, batch and channels or nothing, is carried along), so one code path serves the
1-d, 2-d and 3-d forms and batched and unbatched inputs alike.  Pairs of paddings are
``(before, after)`` per spatial axis, in axis order.

How each is computed (no Python loop over positions; loops run over kernel taps or axes):

- average pooling: ``window_sum``, one primitive summing strided slices per kernel tap,
  whose adjoint ``window_scatter`` adds the gradient back per tap (each the other's
  derivative, so every order comes free), divided by the divisor of the dialect's choice;
- max pooling: the index of the first maximum per window found over per-tap strided views
  (bare arrays), then the values gathered at those indices with ``gather`` (its gradient
  goes to exactly that element, also at ties);
- adaptive pooling and linear/cubic resampling: separable per axis, as a product with a
  small (out, in) matrix along each axis (adaptive max: a gather of each bin's candidates);
- padding: ``index_add`` into zeros (constant) or a gather per axis (reflect, replicate,
  circular); pixel and channel shuffles: reshapes and transposes.
"""
from __future__ import annotations

import itertools
import math
import struct

from janusgrad.array.backend import host, xp_of
from janusgrad.core.mode import state
from janusgrad.core.tensor import Tensor, record
from janusgrad.ops import defop, spec
from janusgrad.ops import elementwise as E
from janusgrad.ops import index as I
from janusgrad.ops import linalg as L
from janusgrad.ops import shape as S
from janusgrad.ops.testing import array, distinct_array


def _prod(v) -> int:
    n = 1
    for e in v:
        n *= e
    return n


def _const(like, a):
    return type(like).wrap(a)


# ---------------------------------------------------------------- sizes
def pool_out_size(size, k, s, p0, p1, dil=1, ceil_mode=False, ceil_trim=True) -> int:
    """Output length of a pooling window sweep (torch's formula; ``ceil_trim``: a last
    window that would start in the right padding is dropped, as torch does)."""
    eff = dil * (k - 1) + 1
    num = size + p0 + p1 - eff
    o = (num + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and ceil_trim and (o - 1) * s >= size + p0:
        o -= 1
    return o


def adaptive_bounds(size: int, out: int):
    """torch's adaptive bins: start floor(i*L/out), end ceil((i+1)*L/out), as lists."""
    starts = [(i * size) // out for i in range(out)]
    ends = [-((-(i + 1) * size) // out) for i in range(out)]
    return starts, ends


# ---------------------------------------------------------------- window sums (a primitive pair)
def _tap_slices(d, ks, ss, ds, outs, tap):
    key = []
    for i in range(d):
        start = tap[i] * ds[i]
        key.append(slice(start, start + (outs[i] - 1) * ss[i] + 1, ss[i]))
    return (Ellipsis, *key)


def _taps(ks):
    taps = [()]
    for k in ks:
        taps = [t + (j,) for t in taps for j in range(k)]
    return taps


def _padded_sizes(shape, d, ks, ss, ds, p0s, outs):
    sp = shape[-d:]
    return tuple(max(p0s[i] + sp[i], (outs[i] - 1) * ss[i] + ds[i] * (ks[i] - 1) + 1)
                 for i in range(d))


def _window_sum_array(a, attrs):
    in_shape, d, ks, ss, ds, p0s, outs = attrs
    xp = xp_of(a)
    lead = a.shape[:-d]
    tot = _padded_sizes(in_shape, d, ks, ss, ds, p0s, outs)
    if tot != a.shape[-d:] or any(p0s):
        padded = xp.zeros(lead + tot, dtype=a.dtype)
        padded[(Ellipsis, *(slice(p, p + n) for p, n in zip(p0s, a.shape[-d:])))] = a
    else:
        padded = a
    out = None
    for tap in _taps(ks):
        v = padded[_tap_slices(d, ks, ss, ds, outs, tap)]
        out = v.copy() if out is None else out.__iadd__(v)
    return out


def _window_scatter_array(g, attrs):
    in_shape, d, ks, ss, ds, p0s, outs = attrs
    xp = xp_of(g)
    lead = g.shape[:-d]
    tot = _padded_sizes(in_shape, d, ks, ss, ds, p0s, outs)
    padded = xp.zeros(lead + tot, dtype=g.dtype)
    for tap in _taps(ks):
        padded[_tap_slices(d, ks, ss, ds, outs, tap)] += g
    sp = in_shape[-d:]
    return padded[(Ellipsis, *(slice(p, p + n) for p, n in zip(p0s, sp)))]


def window_sum(x, attrs):
    """Sums over pooling windows of the last d axes (zero padding inside)."""
    return record(_window_sum, _window_sum_array(x.array, attrs), (x,), attrs=attrs)


def window_scatter(g, attrs):
    """The adjoint of ``window_sum``: each window's value added back over its window."""
    return record(_window_scatter, _window_scatter_array(g.array, attrs), (g,), attrs=attrs)


_window_sum = defop("window_sum", rule=lambda np, g, attrs: (
    window_scatter(g, attrs) if isinstance(g, Tensor) else _window_scatter_array(g, attrs)),
    uses="attrs")
_window_scatter = defop("window_scatter", rule=lambda np, g, attrs: (
    window_sum(g, attrs) if isinstance(g, Tensor) else _window_sum_array(g, attrs)),
    uses="attrs")


# ---------------------------------------------------------------- average pooling
def _counts(xp, n_out, size, k, s, p0, p1, mode):
    """Per-axis divisor counts of average pooling."""
    start = xp.arange(n_out) * s - p0
    if mode == "padded":  # torch count_include_pad: the window clipped to the padded input
        return xp.minimum(start + k, size + p1) - start
    if mode == "padded_before":  # paddle exclusive=False: clipped at the input + its
        return xp.minimum(start + k, size + p0) - start  # padding before (as if symmetric)
    # "valid": the cells inside the input
    return xp.minimum(start + k, size) - xp.maximum(start, 0)


def avg_pool(x, kernel, stride, padding, ceil_mode=False, divisor="padded",
             divisor_override=None, ceil_trim=True):
    """Average over windows of the last len(kernel) axes; ``divisor``: "padded" (torch's
    count_include_pad=True: the window clipped to the padded input), "valid" (cells inside
    the input: torch's False, paddle's exclusive=True) or "padded_before" (paddle's
    exclusive=False: clipped at the input plus its padding before)."""
    d = len(kernel)
    a = x.array
    sp = a.shape[-d:]
    outs = tuple(pool_out_size(sp[i], kernel[i], stride[i], padding[i][0], padding[i][1], 1,
                               ceil_mode, ceil_trim) for i in range(d))
    attrs = (a.shape, d, tuple(kernel), tuple(stride), (1,) * d,
             tuple(p[0] for p in padding), outs)
    total = window_sum(x, attrs)
    if divisor_override is not None:
        return E.div(total, divisor_override)
    xp = xp_of(a)
    div = None
    for i in range(d):
        c = _counts(xp, outs[i], sp[i], kernel[i], stride[i], padding[i][0], padding[i][1],
                    divisor)
        c = c.reshape((-1,) + (1,) * (d - 1 - i))
        div = c if div is None else div * c
    return E.div(total, _const(x, div.astype(a.dtype)))


# ---------------------------------------------------------------- max pooling
def _fill_low(dtype, xp):
    return -xp.inf if dtype.kind == "f" else xp.iinfo(dtype).min


def _gather_plane(x, idx, d):
    """x's values at flat indices ``idx`` (lead + outs) of each plane of its last d axes."""
    a = x.array
    lead = a.shape[:-d]
    outs = idx.shape[len(lead):]
    flat = S.reshape(x, lead + (_prod(a.shape[-d:]),))
    picked = I.gather(flat, len(lead), idx.reshape(lead + (-1,)))
    return S.reshape(picked, lead + tuple(outs))


def _first_max(best, bi, v, j, nan):
    """Update the running maximum ``best``/its tap ``bi`` with tap j's values ``v``:
    strictly greater only (the first maximum stays); NaN taken ("propagate") or never."""
    xp = xp_of(v)
    upd = v > best
    if nan == "propagate" and v.dtype.kind == "f":
        upd |= xp.isnan(v)
    best = xp.where(upd, v, best)
    bi = xp.where(upd, j, bi)
    return best, bi


def _finish_max(x, idx, valid, d, low):
    # (a trace takes the general form, which gives the same bits, instead of reading values)
    if valid is not None and (state.tracing is not None or not bool(valid.all())):
        xp = xp_of(idx)
        out = _gather_plane(x, xp.where(valid, idx, 0), d)
        return E.where_(_const(x, valid), out, low), idx
    return _gather_plane(x, idx, d), idx


def max_pool(x, kernel, stride, padding, dilation=None, ceil_mode=False, nan="propagate",
             empty=None, ceil_trim=True):
    """Maximum over windows of the last len(kernel) axes: (values, indices), the indices
    flat within each plane of the spatial axes (torch's), at the first maximum of each
    window.  ``nan``: "propagate" (torch) or "ignore" (paddle).  ``empty``: the value of
    a window that holds padding only (paddle's lowest float; torch refuses such padding)."""
    d = len(kernel)
    a = x.array
    xp = xp_of(a)
    sp = a.shape[-d:]
    lead = a.shape[:-d]
    dilation = tuple(dilation) if dilation is not None else (1,) * d
    p0s = tuple(p[0] for p in padding)
    outs = tuple(pool_out_size(sp[i], kernel[i], stride[i], p0s[i], padding[i][1],
                               dilation[i], ceil_mode, ceil_trim) for i in range(d))
    tot = _padded_sizes(a.shape, d, kernel, stride, dilation, p0s, outs)
    low = _fill_low(a.dtype, xp)
    if tot != sp or any(p0s):
        padded = xp.full(lead + tot, low, dtype=a.dtype)
        padded[(Ellipsis, *(slice(p, p + n) for p, n in zip(p0s, sp)))] = a
    else:
        padded = a
    best = bi = None
    taps = _taps(kernel)
    for j, tap in enumerate(taps):
        v = padded[_tap_slices(d, kernel, stride, dilation, outs, tap)]
        if best is None:
            best = v
            bi = xp.zeros(v.shape, dtype=xp.int64)
            if nan == "ignore" and v.dtype.kind == "f":
                nanv = xp.isnan(v)
                best = xp.where(nanv, -xp.inf, v)
            continue
        best, bi = _first_max(best, bi, v, j, nan)
    # the winning tap's position in the input, per axis, as one flat index per plane
    flat = None
    valid = None
    rest = len(taps)
    for i in range(d):
        rest //= kernel[i]
        t = (bi // rest) % kernel[i]
        shp = [1] * len(outs)
        shp[i] = outs[i]
        pos = xp.arange(outs[i]).reshape(shp) * stride[i] - p0s[i] + t * dilation[i]
        ok = (pos >= 0) & (pos < sp[i])
        valid = ok if valid is None else valid & ok
        flat = pos if flat is None else flat * sp[i] + pos
    fill = low if empty is None else empty
    return _finish_max(x, flat, valid, d, fill)


def adaptive_max_pool(x, out_sizes, nan="propagate"):
    """Maximum over torch's adaptive bins of the last len(out_sizes) axes: (values,
    indices flat per plane, at each bin's first maximum)."""
    d = len(out_sizes)
    a = x.array
    xp = xp_of(a)
    sp = a.shape[-d:]
    lead = a.shape[:-d]
    flat = None
    for i in range(d):
        st, en = adaptive_bounds(sp[i], out_sizes[i])
        m = max(e - s for s, e in zip(st, en))
        start = xp.asarray(st).reshape(-1, 1)
        end = xp.asarray(en).reshape(-1, 1)
        # a bin shorter than the longest repeats its last cell (never a new first maximum)
        cand = xp.minimum(start + xp.arange(m).reshape(1, -1), end - 1)
        shp = [1] * (2 * d)
        shp[i], shp[d + i] = out_sizes[i], m
        cand = cand.reshape(shp)
        flat = cand if flat is None else flat * sp[i] + cand
    outs = tuple(out_sizes)
    flat = xp.broadcast_to(flat, outs + flat.shape[d:]).reshape(outs + (-1,))
    plane = a.reshape(lead + (-1,))
    vals = plane[..., flat.reshape(-1)].reshape(lead + flat.shape)
    if nan == "propagate" and vals.dtype.kind == "f":
        hasnan = xp.isnan(vals)
        # torch keeps the last NaN of a bin: its position, when a bin has one
        last = vals.shape[-1] - 1 - xp.argmax(hasnan[..., ::-1], axis=-1)
        pick = xp.where(hasnan.any(axis=-1), last, xp.argmax(vals, axis=-1))
    else:
        if vals.dtype.kind == "f":
            vals = xp.where(xp.isnan(vals), -xp.inf, vals)
        pick = xp.argmax(vals, axis=-1)
    idx = xp.take_along_axis(xp.broadcast_to(flat, lead + flat.shape), pick[..., None],
                             axis=-1)[..., 0]
    return _gather_plane(x, idx, d), idx


def _unpool_array(a, attrs):
    lead, n, size, idx, keep, out_shape = attrs
    xp = xp_of(a)
    out = xp.zeros(lead + (size,), dtype=a.dtype)
    m = len(lead)
    plane = xp.arange(_prod(lead)).reshape(lead + (1,)) if m else 0
    flat = (plane * size + idx).reshape(-1)
    out.reshape(-1)[flat[keep.reshape(-1)]] = a.reshape(-1)[keep.reshape(-1)]
    return out.reshape(out_shape)


def _unpool_grad(g, attrs):
    """torch's derivative of unpooling: the gradient at each input's index (for every
    input, also one whose value another overwrote)."""
    lead, n, size, idx, keep, out_shape = attrs
    if isinstance(g, Tensor):
        picked = I.gather(S.reshape(g, lead + (size,)), len(lead), idx)
        return S.reshape(picked, lead + (n,))
    return xp_of(g).take_along_axis(g.reshape(lead + (size,)), idx, axis=-1)


_unpool = defop("max_unpool", rule=lambda np, g, attrs: _unpool_grad(g, attrs), uses="attrs")


def max_unpool(x, indices, out_sizes):
    """The inverse of max pooling: zeros of spatial size ``out_sizes`` with x's values at
    the flat per-plane ``indices`` (x's shape); where indices repeat, the last one written
    wins (as torch's loop does)."""
    d = len(out_sizes)
    a = x.array
    xp = xp_of(a)
    idx = indices.array if isinstance(indices, Tensor) else indices
    if type(idx) is not type(a):
        idx = I.place_key(x, (idx,))[0]
    lead = a.shape[:-d]
    n = _prod(a.shape[-d:])
    size = _prod(out_sizes)
    idx = idx.reshape(lead + (n,)).astype(xp.int64)
    # the last writer of each target: sort (target, position) and keep each group's last
    pos = xp.arange(n).reshape((1,) * len(lead) + (n,))
    comb = (idx * n + pos).reshape(-1, n) if lead else (idx * n + pos).reshape(1, n)
    srt = xp.sort(comb, axis=-1)
    grp = srt // n
    last = xp.concatenate([grp[:, 1:] != grp[:, :-1], xp.ones_like(grp[:, :1], dtype=bool)],
                          axis=-1)
    keep = xp.zeros(comb.shape, dtype=bool)
    rows = xp.arange(comb.shape[0]).reshape(-1, 1)
    keep[rows, srt % n] = last
    keep = keep.reshape(lead + (n,))
    out_shape = lead + tuple(out_sizes)
    attrs = (lead, n, size, idx, keep, out_shape)
    flat = S.reshape(x, lead + (n,))
    return record(_unpool, _unpool_array(flat.array, attrs), (flat,), attrs=attrs)


# ---------------------------------------------------------------- separable resampling
def _along(x, axis, w):
    """``x`` with its axis ``axis`` (negative) mapped through matrix w (out, in)."""
    wt = _const(x, xp_of(x.array).ascontiguousarray(w.T).astype(x.array.dtype))
    if axis == -1:
        return L.matmul(x, wt)
    y = S.swapaxes(x, axis, -1)
    return S.swapaxes(L.matmul(y, wt), axis, -1)


def _adaptive_matrix(xp, size, out):
    st, en = adaptive_bounds(size, out)
    start = xp.asarray(st).reshape(-1, 1)
    end = xp.asarray(en).reshape(-1, 1)
    col = xp.arange(size).reshape(1, -1)
    inside = (col >= start) & (col < end)
    return inside / (end - start)


def adaptive_avg_pool(x, out_sizes):
    """Average over torch's adaptive bins of the last len(out_sizes) axes."""
    d = len(out_sizes)
    xp = xp_of(x.array)
    sp = x.array.shape[-d:]
    for i in range(d):
        if sp[i] != out_sizes[i]:
            x = _along(x, i - d, _adaptive_matrix(xp, sp[i], out_sizes[i]))
    return x


def _f32(v: float) -> float:
    return struct.unpack("f", struct.pack("f", v))[0]


def source_index(xp, out, size, align_corners, scale, mode, align_mode=0, f32=False):
    """Source coordinates of output positions 0..out-1 (float64); ``f32``: the ratio
    rounded to float32 first (paddle's kernels keep it in a float)."""
    dst = xp.arange(out, dtype=xp.float64)
    rnd = _f32 if f32 else float
    if align_corners:
        return dst * (rnd((size - 1) / (out - 1)) if out > 1 else 0.0)
    ratio = rnd((size / out) if scale is None else scale)
    if align_mode == 1:
        return dst * ratio
    src = (dst + 0.5) * ratio - 0.5
    if mode != "cubic":
        src = xp.maximum(src, 0.0)
    return src


def _linear_matrix(xp, size, out, align_corners, scale, align_mode=0, f32=False):
    src = source_index(xp, out, size, align_corners, scale, "linear", align_mode, f32)
    i0 = xp.minimum(xp.floor(src).astype(xp.int64), size - 1)
    i1 = xp.minimum(i0 + 1, size - 1)
    lam = src - i0
    col = xp.arange(size).reshape(1, -1)
    return ((col == i0.reshape(-1, 1)) * (1.0 - lam).reshape(-1, 1)
            + (col == i1.reshape(-1, 1)) * lam.reshape(-1, 1))


def _cubic_weights(t, a=-0.75):
    def near(v):  # |v| <= 1
        return ((a + 2) * v - (a + 3)) * v * v + 1

    def far(v):  # 1 < |v| < 2
        return ((a * v - 5 * a) * v + 8 * a) * v - 4 * a
    return far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)


def _cubic_matrix(xp, size, out, align_corners, scale, f32=False):
    src = source_index(xp, out, size, align_corners, scale, "cubic", 0, f32)
    i0 = xp.floor(src)
    t = src - i0
    i0 = i0.astype(xp.int64)
    col = xp.arange(size).reshape(1, -1)
    w = 0.0
    for k, wk in zip(range(-1, 3), _cubic_weights(t)):
        j = xp.clip(i0 + k, 0, size - 1).reshape(-1, 1)
        w = w + (col == j) * wk.reshape(-1, 1)
    return w


def nearest_index(xp, out, size, scale, exact=False):
    ratio = (size / out) if scale is None else scale
    dst = xp.arange(out, dtype=xp.float64)
    if exact:
        dst = dst + 0.5
    src = xp.floor(dst * ratio).astype(xp.int64)
    return xp.minimum(src, size - 1)


def interpolate(x, sizes, mode="nearest", align_corners=False, scales=None, align_mode=0,
                f32_ratio=False):
    """Resample the last len(sizes) axes to ``sizes``.  ``mode``: "nearest",
    "nearest-exact", "linear" (linear, bilinear, trilinear), "cubic" (bicubic, A=-0.75) or
    "area" (adaptive average); ``scales`` per axis: the in/out ratio to use instead of
    size/out (torch passes 1/scale_factor); ``align_mode`` 1: paddle's src = dst*ratio;
    ``f32_ratio``: the coordinate ratio rounded to float32 (paddle's)."""
    d = len(sizes)
    xp = xp_of(x.array)
    sp = x.array.shape[-d:]
    scales = scales or (None,) * d
    if mode == "area":
        return adaptive_avg_pool(x, sizes)
    for i in range(d):
        ax = i - d
        if mode in ("nearest", "nearest-exact"):
            if sp[i] == sizes[i] and scales[i] is None:
                continue
            idx = nearest_index(xp, sizes[i], sp[i], scales[i], mode == "nearest-exact")
            x = I.getitem(x, (Ellipsis, idx) + (slice(None),) * (-ax - 1))
        elif mode == "linear":
            x = _along(x, ax, _linear_matrix(xp, sp[i], sizes[i], align_corners, scales[i],
                                             align_mode, f32_ratio))
        elif mode == "cubic":
            x = _along(x, ax, _cubic_matrix(xp, sp[i], sizes[i], align_corners, scales[i],
                                            f32_ratio))
        else:
            raise ValueError(f"unknown interpolation mode {mode!r}")
    return x


# ---------------------------------------------------------------- padding
def _pad_index(xp, size, before, after, mode):
    p = xp.arange(-before, size + after)
    if mode == "reflect":
        if size == 1:
            return xp.zeros_like(p)
        period = 2 * (size - 1)
        m = p % period
        return xp.where(m < size, m, period - m)
    if mode == "replicate":
        return xp.clip(p, 0, size - 1)
    return p % size  # circular


def pad(x, pads, mode="constant", value=0.0):
    """Pad the last len(pads) axes by ``pads`` [(before, after), ...] in axis order;
    negative amounts crop.  ``mode``: constant (``value``), reflect, replicate, circular."""
    a = x.array
    xp = xp_of(a)
    nd = len(pads)
    shape = a.shape
    if mode != "constant":
        for i, (b, e) in enumerate(pads):
            if b or e:
                ax = a.ndim - nd + i
                idx = _pad_index(xp, shape[ax], b, e, mode)
                x = I.getitem(x, (slice(None),) * ax + (idx, Ellipsis))
        return x
    if any(b < 0 or e < 0 for b, e in pads):
        key = (Ellipsis, *(slice(max(-b, 0), shape[a.ndim - nd + i] - max(-e, 0))
                           for i, (b, e) in enumerate(pads)))
        x = I.getitem(x, key)
        pads = [(max(b, 0), max(e, 0)) for b, e in pads]
    if not any(b or e for b, e in pads):
        return x
    inner = x.array.shape
    lead = inner[:len(inner) - nd]
    new = lead + tuple(inner[len(lead) + i] + b + e for i, (b, e) in enumerate(pads))
    key = (Ellipsis, *(slice(b, b + inner[len(lead) + i]) for i, (b, e) in enumerate(pads)))
    out = I.index_add(x, new, key)
    if value != 0:
        border = xp.full(new, value, dtype=x.array.dtype)
        border[key] = 0
        out = E.add(out, _const(x, border))
    return out


# ---------------------------------------------------------------- shuffles
def pixel_shuffle(x, r):
    """(..., C*r*r, H, W) -> (..., C, H*r, W*r)."""
    s = x.array.shape
    lead, c, h, w = s[:-3], s[-3], s[-2], s[-1]
    n = len(lead)
    y = S.reshape(x, lead + (c // (r * r), r, r, h, w))
    y = S.transpose(y, tuple(range(n)) + tuple(n + i for i in (0, 3, 1, 4, 2)))
    return S.reshape(y, lead + (c // (r * r), h * r, w * r))


def pixel_unshuffle(x, r):
    """(..., C, H*r, W*r) -> (..., C*r*r, H, W)."""
    s = x.array.shape
    lead, c, h, w = s[:-3], s[-3], s[-2], s[-1]
    n = len(lead)
    y = S.reshape(x, lead + (c, h // r, r, w // r, r))
    y = S.transpose(y, tuple(range(n)) + tuple(n + i for i in (0, 2, 4, 1, 3)))
    return S.reshape(y, lead + (c * r * r, h // r, w // r))


def channel_shuffle(x, groups, axis=1):
    """Channels (axis ``axis``) regrouped: (g, C/g) -> (C/g, g)."""
    s = x.array.shape
    axis %= len(s)
    c = s[axis]
    y = S.reshape(x, s[:axis] + (groups, c // groups) + s[axis + 1:])
    y = S.swapaxes(y, axis, axis + 1)
    return S.reshape(y, s)


# ---------------------------------------------------------------- references (naive loops)
def _windows_ref(a, d, ks, ss, ds, pads, outs):
    """(positions inside, positions all) per output index, by plain loops."""
    sp = a.shape[-d:]
    for o in itertools.product(*(range(n) for n in outs)):
        cells = []
        for tap in itertools.product(*(range(k) for k in ks)):
            pos = tuple(o[i] * ss[i] - pads[i][0] + tap[i] * ds[i] for i in range(d))
            cells.append(pos)
        inside = [p for p in cells if all(0 <= p[i] < sp[i] for i in range(d))]
        yield o, inside


def _max_pool_ref(a, kernel, stride, padding, dilation=None, ceil_mode=False):
    d = len(kernel)
    dil = dilation or (1,) * d
    sp = a.shape[-d:]
    outs = tuple(pool_out_size(sp[i], kernel[i], stride[i], *padding[i], dil[i], ceil_mode)
                 for i in range(d))
    out = host.zeros(a.shape[:-d] + outs)
    for o, inside in _windows_ref(a, d, kernel, stride, dil, padding, outs):
        vals = host.stack([a[(Ellipsis, *p)] for p in inside], -1)
        out[(Ellipsis, *o)] = vals.max(-1)
    return out


def _avg_pool_ref(a, kernel, stride, padding, ceil_mode=False, divisor="padded"):
    d = len(kernel)
    sp = a.shape[-d:]
    outs = tuple(pool_out_size(sp[i], kernel[i], stride[i], *padding[i], 1, ceil_mode)
                 for i in range(d))
    out = host.zeros(a.shape[:-d] + outs)
    for o, inside in _windows_ref(a, d, kernel, stride, (1,) * d, padding, outs):
        total = sum(a[(Ellipsis, *p)] for p in inside)
        if divisor == "valid":
            n = len(inside)
        else:
            n = 1
            for i in range(d):
                s0 = o[i] * stride[i] - padding[i][0]
                n *= min(s0 + kernel[i], sp[i] + padding[i][1]) - s0
        out[(Ellipsis, *o)] = total / n
    return out


def _adaptive_ref(a, out_sizes, how):
    d = len(out_sizes)
    sp = a.shape[-d:]
    bounds = [adaptive_bounds(sp[i], out_sizes[i]) for i in range(d)]
    out = host.zeros(a.shape[:-d] + tuple(out_sizes))
    for o in itertools.product(*(range(n) for n in out_sizes)):
        key = (Ellipsis, *(slice(bounds[i][0][o[i]], bounds[i][1][o[i]]) for i in range(d)))
        block = a[key].reshape(a.shape[:-d] + (-1,))
        out[(Ellipsis, *o)] = block.mean(-1) if how == "avg" else block.max(-1)
    return out


def _linear_ref(a, size, align_corners):
    """1-d linear resampling of the last axis by the textbook formula."""
    n = a.shape[-1]
    out = host.zeros(a.shape[:-1] + (size,))
    for j in range(size):
        if align_corners:
            src = j * (n - 1) / (size - 1) if size > 1 else 0.0
        else:
            src = max((j + 0.5) * n / size - 0.5, 0.0)
        i0 = min(int(math.floor(src)), n - 1)
        i1 = min(i0 + 1, n - 1)
        t = src - i0
        out[..., j] = a[..., i0] * (1 - t) + a[..., i1] * t
    return out


def _pad_ref(a, pads, mode, value=0.0):
    nd = len(pads)
    a = a[(Ellipsis, *(slice(max(-b, 0), a.shape[a.ndim - nd + i] - max(-e, 0))
                       for i, (b, e) in enumerate(pads)))]
    pads = [(max(b, 0), max(e, 0)) for b, e in pads]
    width = [(0, 0)] * (a.ndim - len(pads)) + list(pads)
    if mode == "constant":
        return host.pad(a, width, mode="constant", constant_values=value)
    return host.pad(a, width, mode={"reflect": "reflect", "replicate": "edge",
                                    "circular": "wrap"}[mode])


def _pixel_shuffle_ref(a, r):
    n, c, h, w = a.shape
    out = host.zeros((n, c // (r * r), h * r, w * r))
    for ch in range(c):
        oc, rem = divmod(ch, r * r)
        i, j = divmod(rem, r)
        out[:, oc, i::r, j::r] = a[:, ch]
    return out


def _unpool_ref(a, indices, out_sizes):
    idx = indices
    d = len(out_sizes)
    lead = a.shape[:-d]
    out = host.zeros(lead + (_prod(out_sizes),))
    fa = a.reshape(lead + (-1,))
    fi = idx.reshape(lead + (-1,))
    for pos in host.ndindex(*lead):
        out[pos][fi[pos]] = fa[pos]
    return out.reshape(lead + tuple(out_sizes))


# ---------------------------------------------------------------- specs
def _make_pool(d, pad_max=1, dil=False, distinct=False):
    def make(draw, st, hnp):
        ks = tuple(draw(st.integers(1, 3)) for _ in range(d))
        ss = tuple(draw(st.integers(1, 2)) for _ in range(d))
        ds = tuple(draw(st.integers(1, 2)) if dil else 1 for _ in range(d))
        pads = tuple((p, p) for p in (draw(st.integers(0, min(pad_max, k // 2)))
                                      for k in ks))
        sp = tuple(draw(st.integers(ds[i] * (ks[i] - 1) + 1, ds[i] * (ks[i] - 1) + 3))
                   for i in range(d))
        shape = (2,) + sp if d == 3 else (2, 1) + sp
        ceil_mode = draw(st.booleans())
        a = distinct_array(draw, st, hnp, shape) if distinct else array(draw, st, hnp, shape)
        kw = dict(kernel=ks, stride=ss, padding=pads, ceil_mode=ceil_mode)
        if dil:
            kw["dilation"] = ds
        return [a], kw
    return make


def _make_adaptive(d, distinct=False):
    def make(draw, st, hnp):
        sp = tuple(draw(st.integers(1, 5)) for _ in range(d))
        outs = tuple(draw(st.integers(1, 4)) for _ in range(d))
        shape = (2,) + sp
        a = distinct_array(draw, st, hnp, shape) if distinct else array(draw, st, hnp, shape)
        return [a], dict(out_sizes=outs)
    return make


def _make_pad(draw, st, hnp):
    mode = draw(st.sampled_from(["constant", "reflect", "replicate", "circular"]))
    shape = (2, draw(st.integers(2, 4)), draw(st.integers(2, 4)))
    lo = -1 if mode == "constant" else 0
    pads = [(draw(st.integers(lo, n - 1)), draw(st.integers(lo, n - 1))) for n in shape[1:]]
    kw = dict(pads=pads, mode=mode)
    if mode == "constant":
        kw["value"] = draw(st.sampled_from([0.0, 1.5]))
    return [array(draw, st, hnp, shape)], kw


def _make_interp(draw, st, hnp):
    shape = (2, draw(st.integers(1, 4)), draw(st.integers(1, 4)))
    sizes = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return [array(draw, st, hnp, shape)], dict(sizes=sizes, align_corners=draw(st.booleans()))


def _interp_ref(a, sizes, align_corners):
    a = _linear_ref(a, sizes[1], align_corners)
    return host.swapaxes(_linear_ref(host.swapaxes(a, -1, -2), sizes[0], align_corners), -1, -2)


def _make_shuffle(draw, st, hnp):
    r = draw(st.integers(1, 2))
    shape = (2, r * r * draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    return [array(draw, st, hnp, shape)], dict(r=r)


def _make_unpool(draw, st, hnp):
    outs = (draw(st.integers(2, 4)), draw(st.integers(2, 4)))
    n = draw(st.integers(1, outs[0] * outs[1]))
    rows = []
    for _ in range(2):
        perm = draw(st.permutations(range(outs[0] * outs[1])))
        rows.append(list(itertools.islice(perm, n)))
    idx = host.asarray(rows, dtype=host.int64).reshape(2, 1, n)
    return [array(draw, st, hnp, (2, 1, n))], dict(indices=idx, out_sizes=outs)


def _make_cubic(draw, st, hnp):
    shape = (2, draw(st.integers(1, 4)), draw(st.integers(1, 4)))
    sizes = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return [array(draw, st, hnp, shape)], dict(sizes=sizes, mode="cubic",
                                               align_corners=draw(st.booleans()))


for _d in (1, 2, 3):
    spec(f"nn.max_pool{_d}d", lambda x, **kw: max_pool(x, **kw)[0],
         _make_pool(_d, dil=True, distinct=True), ref=_max_pool_ref)
    spec(f"nn.avg_pool{_d}d", avg_pool, _make_pool(_d), ref=_avg_pool_ref)
    spec(f"nn.adaptive_avg_pool{_d}d", adaptive_avg_pool, _make_adaptive(_d),
         ref=lambda a, out_sizes: _adaptive_ref(a, out_sizes, "avg"))
    spec(f"nn.adaptive_max_pool{_d}d", lambda x, **kw: adaptive_max_pool(x, **kw)[0],
         _make_adaptive(_d, distinct=True),
         ref=lambda a, out_sizes: _adaptive_ref(a, out_sizes, "max"))
spec("nn.avg_pool2d_valid", lambda x, **kw: avg_pool(x, divisor="valid", **kw),
     _make_pool(2), ref=lambda a, **kw: _avg_pool_ref(a, divisor="valid", **kw))
spec("nn.window_scatter", lambda g, **kw: window_scatter(g, kw["attrs"]),
     lambda draw, st, hnp: ([array(draw, st, hnp, (2, 2, 2))],
                            dict(attrs=((2, 4, 5), 2, (2, 3), (2, 1), (1, 1), (1, 0),
                                        (2, 2)))),
     ref=lambda a, attrs: _window_scatter_array(a, attrs))
spec("nn.max_unpool2d", max_unpool, _make_unpool, ref=_unpool_ref)
spec("nn.pad", pad, _make_pad, ref=_pad_ref)
spec("nn.interpolate_bilinear", lambda x, **kw: interpolate(x, mode="linear", **kw),
     _make_interp, ref=_interp_ref)
spec("nn.interpolate_bicubic", lambda x, **kw: interpolate(x, **kw), _make_cubic)
spec("nn.interpolate_nearest", lambda x, sizes: interpolate(x, sizes, "nearest"),
     lambda draw, st, hnp: ([array(draw, st, hnp, (2, 3, 2))],
                            dict(sizes=(draw(st.integers(1, 5)), draw(st.integers(1, 5))))),
     ref=lambda a, sizes: a[..., (host.arange(sizes[0]) * 3 // sizes[0])[:, None],
                            (host.arange(sizes[1]) * 2 // sizes[1])[None, :]])
spec("nn.pixel_shuffle", pixel_shuffle, _make_shuffle, ref=_pixel_shuffle_ref)
spec("nn.pixel_unshuffle", lambda x, r: pixel_unshuffle(pixel_shuffle(x, r), r),
     _make_shuffle, ref=lambda a, r: a)
spec("nn.channel_shuffle", lambda x: channel_shuffle(x, 2),
     lambda draw, st, hnp: ([array(draw, st, hnp, (2, 4, 3))], {}),
     ref=lambda a: a.reshape(2, 2, 2, 3).swapaxes(1, 2).reshape(2, 4, 3))
