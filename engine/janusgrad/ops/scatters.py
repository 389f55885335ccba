"""Tensor odds and ends: scatters into views (select/slice/diagonal/as_strided), strided
windows (unfold, as_strided), reductions into places (scatter_reduce, index_reduce, put),
clamp with tensor bounds, triangle index lists, in-place resize, and a few random samplers
(multinomial, bernoulli).

All are compositions of engine ops (getitem and its adjoint index_add, where, reshape,
moveaxis, the reductions): they differentiate, to any order, through the ops they are made
of.  The index arithmetic (which flat place each element goes to) is done on index arrays
that carry no gradient.
"""
from __future__ import annotations

from janusgrad.array.backend import (
    bool_,
    device_of,
    float64,
    from_host,
    host,
    int64,
    to_host,
    xp_of,
)
from janusgrad.core.tensor import Tensor, unrecorded
from janusgrad.ops import spec
from janusgrad.ops.creation import _gen
from janusgrad.ops.elementwise import (
    add,
    cast,
    ceil,
    check_int_zero,
    clone,
    div,
    floor,
    floor_divide,
    gt,
    lt,
    where_,
)
from janusgrad.ops.elementwise import clamp as _clamp
from janusgrad.ops.index import getitem, index_add, place_key
from janusgrad.ops.reduce import amax, amin, prod
from janusgrad.ops.reduce import sum as _sum
from janusgrad.ops.shape import concatenate, moveaxis, reshape
from janusgrad.ops.testing import array, distinct_array, small_shape


def _invalid(x, op, message, **facts):
    return x.dialect.invalid(op, message, caller=op, **facts)


def _const(x, a):
    """An index or mask array as an unrecorded tensor beside ``x``."""
    return type(x).wrap(a)


def _norm(x, op, axis, nd=None):
    nd = x.array.ndim if nd is None else nd
    n = max(nd, 1)
    if not -n <= axis < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}]"
                         f", but got {axis})")
    return axis % n


# ---------------------------------------------------------------- scatter into a view
def scatter_at(x, key, src, op="scatter"):
    """``x`` with ``x[key]`` replaced by ``src`` (a new tensor): the gradient of ``x`` is
    masked where ``key`` reaches, that of ``src`` is the gradient read at ``key``."""
    xp = xp_of(x.array)
    mask = xp.zeros(x.array.shape, dtype=bool_)
    mask[key] = True
    want = mask[key].shape
    if tuple(src.array.shape) != tuple(want):
        raise _invalid(x, op, f"expected src to have a size equal to the slice of self. src "
                       f"size = {list(src.array.shape)}, slice size = {list(want)}")
    if src.array.dtype != x.array.dtype:
        src = cast(src, x.array.dtype)
    return where_(_const(x, mask), index_add(src, x.array.shape, key), x)


def select_scatter(x, src, axis, index):
    if x.array.ndim == 0:
        raise _invalid(x, "select_scatter", "select() cannot be applied to a 0-dim tensor.")
    axis = _norm(x, "select_scatter", axis)
    n = x.array.shape[axis]
    if not -n <= index < n:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(x.array.shape)} at dimension {axis}")
    return scatter_at(x, (slice(None),) * axis + (index % n,), src, "select_scatter")


def slice_scatter(x, src, axis=0, start=None, end=None, step=1):
    axis = _norm(x, "slice_scatter", axis)
    if step is None:
        step = 1
    if step <= 0:
        raise _invalid(x, "slice_scatter", "slice step must be positive")
    key = (slice(None),) * axis + (slice(start, end, step),)
    return scatter_at(x, key, src, "slice_scatter")


def _diag_key(n1, n2, offset, xp):
    if offset >= 0:
        k = max(0, min(n1, n2 - offset))
        rows = xp.arange(k, dtype=int64)
        return rows, rows + offset
    k = max(0, min(n1 + offset, n2))
    cols = xp.arange(k, dtype=int64)
    return cols - offset, cols


def diagonal_scatter(x, src, offset=0, axis1=0, axis2=1):
    nd = x.array.ndim
    if nd < 2:
        raise _invalid(x, "diagonal_scatter", "diagonal dimensions requires ndim larger than 1")
    a1, a2 = _norm(x, "diagonal_scatter", axis1), _norm(x, "diagonal_scatter", axis2)
    if a1 == a2:
        raise _invalid(x, "diagonal_scatter", f"diagonal dimensions cannot be identical "
                       f"{axis1}, {axis2}")
    xm = moveaxis(x, (a1, a2), (-2, -1))
    n1, n2 = xm.array.shape[-2:]
    rows, cols = _diag_key(n1, n2, offset, xp_of(x.array))
    out = scatter_at(xm, (Ellipsis, rows, cols), src, "diagonal_scatter")
    return moveaxis(out, (-2, -1), (a1, a2))


# ---------------------------------------------------------------- strided windows
def _strided_index(x, op, shape, strides, offset):
    xp = xp_of(x.array)
    shape, strides = tuple(int(s) for s in shape), tuple(int(s) for s in strides)
    if len(shape) != len(strides):
        raise _invalid(x, op, "mismatch in length of strides and shape")
    idx = xp.full(shape, int(offset), dtype=int64)
    for d, (n, st) in enumerate(zip(shape, strides)):
        idx = idx + (xp.arange(n, dtype=int64) * st).reshape(
            [n if e == d else 1 for e in range(len(shape))])
    need = int(offset) + sum((n - 1) * st for n, st in zip(shape, strides)) + 1 \
        if all(shape) else 0
    size = x.array.size
    if need > size:
        item = x.array.dtype.itemsize
        raise _invalid(x, op, f"setStorage: sizes {list(shape)}, strides {list(strides)}, "
                       f"storage offset {offset}, and itemsize {item} requiring a storage "
                       f"size of {need * item} are out of bounds for storage of size "
                       f"{size * item}")
    return idx


def as_strided(x, shape, strides, offset=0):
    """The elements of ``x``'s row-major storage at ``offset + sum(i_d * strides_d)``."""
    idx = _strided_index(x, "as_strided", shape, strides, offset or 0)
    return getitem(reshape(x, (-1,)), (idx,))


def as_strided_scatter(x, src, shape, strides, offset=0):
    idx = _strided_index(x, "as_strided_scatter", shape, strides, offset or 0)
    flat = scatter_at(reshape(x, (-1,)), (idx,), src, "as_strided_scatter")
    return reshape(flat, x.array.shape)


def unfold(x, axis, size, step):
    """Windows of ``size`` along ``axis`` every ``step``, as a new last axis."""
    nd = x.array.ndim
    if nd == 0:
        _norm(x, "unfold", axis)
        if size > 1:
            raise _invalid(x, "unfold", f"maximum size for tensor at dimension 0 is 1 but "
                           f"size is {size}")
        if step <= 0:
            raise _invalid(x, "unfold", f"step is {step} but must be > 0")
        return reshape(x, (1,))
    axis = _norm(x, "unfold", axis)
    n = x.array.shape[axis]
    if size > n:
        raise _invalid(x, "unfold", f"maximum size for tensor at dimension {axis} is {n} but "
                       f"size is {size}")
    if step <= 0:
        raise _invalid(x, "unfold", f"step is {step} but must be > 0")
    if size < 0:
        raise _invalid(x, "unfold", f"size is {size} but must be >= 0")
    xp = xp_of(x.array)
    count = (n - size) // step + 1
    idx = (xp.arange(count, dtype=int64) * step)[:, None] + xp.arange(size, dtype=int64)
    out = getitem(moveaxis(x, axis, -1), (Ellipsis, idx))
    return moveaxis(out, -2, axis)


# ---------------------------------------------------------------- reductions into places
_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


def _pad_value(dtype, reduce):
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -host.inf if reduce == "amax" else host.inf  # host-ok: a Python scalar
    info = host.iinfo(dtype) if dtype.kind in "iu" else None  # host-ok: dtype facts
    if info is None:
        return reduce == "amin"
    return info.min if reduce == "amax" else info.max


def segment_reduce(x, src, dest, reduce, include_self):
    """``x`` with each place ``p`` replaced by the ``reduce`` of the ``src`` elements whose
    ``dest`` (flat place in ``x``) is ``p`` (and of ``x[p]`` itself with ``include_self``);
    places no element reaches keep ``x``.  Made of getitem (a dense [places, most members]
    table padded with the reduction's neutral value), the reduction along its rows, and
    where: gradients and ties follow those ops (amax/amin share a tie evenly)."""
    xp = xp_of(x.array)
    shape, n = x.array.shape, x.array.size
    xf, sf = reshape(x, (-1,)), reshape(src, (-1,))
    if sf.array.dtype != xf.array.dtype:
        sf = cast(sf, xf.array.dtype)
    dest = xp.asarray(dest, dtype=int64).reshape(-1)
    if include_self:
        vals = concatenate([xf, sf])
        seg = xp.concatenate([xp.arange(n, dtype=int64), dest])
    else:
        vals, seg = sf, dest
    counts = xp.bincount(seg, minlength=n) if seg.size else xp.zeros(n, dtype=int64)
    width = int(counts.max()) if n else 0
    if width == 0:
        return clone(x)
    order = xp.argsort(seg, kind="stable")
    starts = xp.cumsum(counts) - counts
    sorted_seg = seg[order]
    rank = xp.arange(seg.size, dtype=int64) - starts[sorted_seg]
    table = xp.full((n, width), seg.size, dtype=int64)
    table[sorted_seg, rank] = order
    dt = x.array.dtype
    pad = _const(x, xp.full((1,), _pad_value(dt, reduce), dtype=dt))
    dense = getitem(concatenate([vals, pad]), (table,))
    if reduce == "sum":
        red = _sum(dense, 1)
    elif reduce == "mean":
        total = _sum(dense, 1)
        den = _const(x, xp.maximum(counts, 1).astype(dt))
        red = div(total, den) if dt.kind == "f" else floor_divide(total, den)
    elif reduce == "prod":
        red = prod(dense, 1)
    else:
        red = (amax if reduce == "amax" else amin)(dense, 1)
    if red.array.dtype != dt:
        red = cast(red, dt)
    return reshape(where_(_const(x, counts > 0), red, xf), shape)


def _check_index(x, op, index, size, axis):
    xp = xp_of(x.array)
    idx = index.array if isinstance(index, Tensor) else xp.asarray(index)
    if type(idx) is not type(x.array):
        idx = place_key(x, (idx,))[0]
    if idx.dtype != int64:
        raise _invalid(x, op, f"{op}(): Expected dtype int64 for index")
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        bad = lo if lo < -size else hi if hi >= size else None
        if bad is not None:
            raise IndexError(f"index {bad} is out of bounds for dimension {axis} with size "
                             f"{size}")
    return xp.where(idx < 0, idx + size, idx)


def scatter_reduce(x, axis, index, src, reduce, include_self=True):
    """torch.scatter_reduce: ``x[..index[p]..] = reduce(x[...], src[p])`` along ``axis``."""
    if reduce not in _REDUCTIONS:
        raise _invalid(x, "scatter_reduce", "reduce argument must be either sum, prod, mean, "
                       "amax or amin, got " + str(reduce))
    xp = xp_of(x.array)
    zero_d = x.array.ndim == 0
    if zero_d:
        x = reshape(x, (1,))
        src = reshape(src, (1,)) if src.array.ndim == 0 else src
        index = reshape(index, (1,)) if index.array.ndim == 0 else index
    nd = x.array.ndim
    axis = _norm(x, "scatter_reduce", axis)
    if index.array.ndim != nd or src.array.ndim != nd:
        raise _invalid(x, "scatter_reduce", "Index tensor must have the same number of "
                       "dimensions as self tensor")
    idx = _check_index(x, "scatter_reduce", index, x.array.shape[axis], axis)
    ishape = idx.shape
    if any(i > s for d, (i, s) in enumerate(zip(ishape, x.array.shape)) if d != axis) or \
            any(i > s for i, s in zip(ishape, src.array.shape)):
        raise _invalid(x, "scatter_reduce", f"Expected index {list(ishape)} to be smaller than "
                       f"self {list(x.array.shape)} apart from dimension {axis} and to be "
                       f"smaller size than src {list(src.array.shape)}")
    coords = list(xp.indices(ishape, dtype=int64)) if nd else []
    coords[axis] = idx
    dest = xp.ravel_multi_index(tuple(coords), x.array.shape) if idx.size else \
        xp.zeros(0, dtype=int64)
    picked = getitem(src, tuple(slice(0, s) for s in ishape))
    out = segment_reduce(x, picked, dest, reduce, include_self)
    return reshape(out, ()) if zero_d else out


def index_reduce(x, axis, index, source, reduce, include_self=True):
    """torch.index_reduce: slice ``index[i]`` of ``x`` along ``axis`` reduced with slice
    ``i`` of ``source``."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise _invalid(x, "index_reduce", "index_reduce(): Expected reduce to be one of prod, "
                       f"mean, amax or amin but got {reduce}.")
    xp = xp_of(x.array)
    zero_d = x.array.ndim == 0
    if zero_d:
        x = reshape(x, (1,))
        source = reshape(source, (1,)) if source.array.ndim == 0 else source
    axis = _norm(x, "index_reduce", axis)
    idx = _check_index(x, "index_reduce", index, x.array.shape[axis], axis).reshape(-1)
    sshape = list(x.array.shape)
    sshape[axis] = idx.size
    if tuple(source.array.shape) != tuple(sshape):
        raise _invalid(x, "index_reduce", "index_reduce_(): Source/destination tensor must "
                       "have same slice shapes.")
    coords = list(xp.indices(sshape, dtype=int64))
    coords[axis] = idx[coords[axis]]
    dest = xp.ravel_multi_index(tuple(coords), x.array.shape) if idx.size else \
        xp.zeros(0, dtype=int64)
    out = segment_reduce(x, source, dest, reduce, include_self)
    return reshape(out, ()) if zero_d else out


def put(x, index, source, accumulate=False):
    """torch.put: ``source`` written (or added) at flat places ``index`` of ``x``."""
    n = x.array.size
    idx = _check_index(x, "put", index, n, 0).reshape(-1)
    if source.array.size != idx.size:
        raise _invalid(x, "put", f"put_(): Expected source and index to have the same number "
                       f"of elements, but got source.numel() = {source.array.size}, "
                       f"index.numel() = {idx.size}")
    flat = reshape(x, (-1,))
    src = reshape(source, (-1,))
    if src.array.dtype != x.array.dtype:
        src = cast(src, x.array.dtype)
    if accumulate:
        out = add(flat, index_add(src, (n,), (idx,)))
    else:
        out = scatter_at(flat, (idx,), src, "put")
    return reshape(out, x.array.shape)


# ---------------------------------------------------------------- clamp with tensor bounds
def clamp(x, min=None, max=None):  # noqa: A002
    """``min(max(x, lo), hi)`` as torch differentiates it: ``x`` gets the gradient where
    ``lo <= x <= hi``, ``lo`` where ``x < lo`` (and lo <= hi), ``hi`` where the result is
    ``hi``.  Scalar bounds take the elementwise op."""
    if not isinstance(min, Tensor) and not isinstance(max, Tensor):
        return _clamp(x, min, max)
    out = x
    if min is not None:
        out = where_(lt(out, min), min, out)
    if max is not None:
        out = where_(gt(out, max), max, out)
    return out


def div_trunc(x, y):
    """``x / y`` rounded toward zero; integer inputs keep the integer dtype (that of their
    floor division)."""
    check_int_zero(x, y, "trunc_divide")
    q = div(x, y)
    r = where_(lt(q, 0), ceil(q), floor(q))
    exact = floor_divide(x, y)
    return r if exact.array.dtype.kind == "f" else cast(r, exact.array.dtype)


# ---------------------------------------------------------------- creation-like
def tri_indices(cls, row, col, offset=0, lower=True, dtype=int64, *, device=None):
    """The (2, N) row/column positions of a row x col matrix's lower (upper) triangle."""
    if row < 0 or col < 0:
        raise cls.dialect.invalid("tril_indices" if lower else "triu_indices",
                                  f"row must be non-negative, got{row}" if row < 0 else
                                  f"col must be non-negative, got{col}")
    f = host.tril_indices if lower else host.triu_indices  # host-ok: made here, then moved
    r, c = f(row, offset, col)
    rc = host.stack([r, c]).astype(dtype)  # host-ok: host index lists, moved to the device
    return unrecorded(cls, from_host(rc, device))


def unravel_index(indices, shape):
    """The coordinates of flat ``indices`` in ``shape``, one integer tensor per axis."""
    x = indices
    xp = xp_of(x.array)
    if x.array.dtype.kind not in "iu":
        raise TypeError("expected 'indices' to be integer dtype, but got "
                        f"{x.array.dtype}")
    shape = (shape,) if isinstance(shape, int) else tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise _invalid(x, "unravel_index", "'shape' cannot have negative values, but got "
                       f"{tuple(shape)}")
    a = x.array.astype(int64)
    out = []  # (torch wraps out-of-range and negative indices: floor division and modulo)
    for s in reversed(shape):
        out.append(a % s if s else a * 0)
        a = a // s if s else a * 0
    return tuple(unrecorded(type(x), xp.asarray(o)) for o in reversed(out))


def nonzero_static(x, size, fill_value=-1):
    """nonzero's (n, ndim) positions cut or padded with ``fill_value`` to ``size`` rows."""
    xp = xp_of(x.array)
    a = x.array
    pos = xp.stack(xp.nonzero(a), axis=-1).astype(int64) if a.ndim else \
        xp.zeros((int(bool(a)), 0), dtype=int64)
    if size < 0:
        raise _invalid(x, "nonzero_static", f"nonzero_static: 'size' must be an non-negative "
                       f"integer but got {size}")
    pos = pos[:size]
    if pos.shape[0] < size:
        pad = xp.full((size - pos.shape[0], a.ndim), fill_value, dtype=int64)
        pos = xp.concatenate([pos, pad])
    return unrecorded(type(x), pos)


def resize_(x, shape):
    """In place: ``x`` gets ``shape``; its first elements are kept, new ones are zeros."""
    xp = xp_of(x.array)
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise _invalid(x, "resize_", f"Trying to create tensor with negative dimension "
                       f"{min(shape)}: {list(shape)}")
    n = 1
    for s in shape:
        n *= s
    old = x.array.reshape(-1)
    new = xp.zeros(n, dtype=x.array.dtype)
    k = min(n, old.size)
    new[:k] = old[:k]
    x.array = new.reshape(shape)
    return x


# ---------------------------------------------------------------- random samplers
def multinomial(x, num_samples, replacement=False, generator=None):
    """Category indices drawn with the probabilities (weights) in the last axis of ``x``."""
    a = x.array
    op = "multinomial"
    if a.ndim not in (1, 2):
        raise _invalid(x, op, "prob_dist must be 1 or 2 dim")
    if a.dtype.kind != "f":
        raise _invalid(x, op, "multinomial only supports floating-point dtypes for input, "
                       f"got: {a.dtype}")
    if num_samples <= 0:
        raise _invalid(x, op, "cannot sample n_sample <= 0 samples")
    # (drawn on the host, as every random value is, then moved)
    w = to_host(a).astype(float64).reshape(
        -1, a.shape[-1])
    if not replacement and num_samples > w.shape[-1]:
        raise _invalid(x, op, "cannot sample n_sample > prob_dist.size(-1) samples without "
                       "replacement")
    if (w < 0).any() or not (abs(w) < float("inf")).all():
        raise _invalid(x, op, "probability tensor contains either `inf`, `nan` or element < 0")
    rng = _gen(generator).rng
    rows = []
    for p in w:
        if p.sum() <= 0:
            raise _invalid(x, op, "invalid multinomial distribution (sum of probabilities "
                           "<= 0)")
        rows.append(rng.choice(p.size, num_samples, replace=replacement, p=p / p.sum()))
    out = host.stack(rows).astype(int64).reshape(  # host-ok: host draws, moved below
        a.shape[:-1] + (num_samples,))
    return unrecorded(type(x), from_host(out, device_of(a)))


def bernoulli(x, p=None, generator=None):
    """0/1 samples with probability ``p`` (or ``x``'s values), in ``x``'s dtype."""
    a = x.array
    probs = a if p is None else xp_of(a).full(a.shape, p, dtype=a.dtype)
    hp = to_host(probs).astype(float64)
    if ((hp < 0) | (hp > 1)).any():
        raise _invalid(x, "bernoulli", "Expected p_in >= 0 && p_in <= 1 to be true, but got "
                       "false.")
    draw = _gen(generator).rng.random(hp.shape) < hp
    return unrecorded(type(x), from_host(draw.astype(a.dtype), device_of(a)))


# ---------------------------------------------------------------- specs
def _make_select_scatter(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    nd = len(shape)
    axis = draw(st.integers(-nd, nd - 1))
    if shape[axis] == 0:
        shape = shape[:axis % nd] + (1,) + shape[axis % nd + 1:]
    index = draw(st.integers(-shape[axis], shape[axis] - 1))
    sub = shape[:axis % nd] + shape[axis % nd + 1:]
    return [array(draw, st, hnp, shape), array(draw, st, hnp, sub)], {"axis": axis,
                                                                     "index": index}


def _select_scatter_ref(a, s, axis, index):
    out = a.copy()
    out[(slice(None),) * (axis % a.ndim) + (index,)] = s
    return out


def _make_slice_scatter(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    nd = len(shape)
    axis = draw(st.integers(-nd, nd - 1))
    n = shape[axis]
    start = draw(st.integers(0, n))
    end = draw(st.integers(start, n))
    step = draw(st.integers(1, 3))
    sub = list(shape)
    sub[axis] = len(range(start, end, step))
    return [array(draw, st, hnp, shape), array(draw, st, hnp, tuple(sub))], {
        "axis": axis, "start": start, "end": end, "step": step}


def _slice_scatter_ref(a, s, axis, start, end, step):
    out = a.copy()
    out[(slice(None),) * (axis % a.ndim) + (slice(start, end, step),)] = s
    return out


def _make_diagonal_scatter(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=2)
    nd = len(shape)
    a1 = draw(st.integers(0, nd - 1))
    a2 = draw(st.sampled_from([d for d in range(nd) if d != a1]))
    offset = draw(st.integers(-2, 2))
    x = array(draw, st, hnp, shape)
    d = host.diagonal(x, offset, a1, a2)
    return [x, array(draw, st, hnp, d.shape)], {"offset": offset, "axis1": a1, "axis2": a2}


def _diagonal_scatter_ref(a, s, offset, axis1, axis2):
    out = a.copy()
    m = host.moveaxis(out, (axis1, axis2), (-2, -1))
    n1, n2 = m.shape[-2:]
    r, c = _diag_key(n1, n2, offset, host)
    m[..., r, c] = s
    return out


def _make_as_strided(draw, st, hnp):
    n = draw(st.integers(1, 12))
    nd = draw(st.integers(0, 3))
    shape = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    strides = tuple(draw(st.integers(0, 3)) for _ in range(nd))
    need = sum((s - 1) * t for s, t in zip(shape, strides)) + 1
    offset = draw(st.integers(0, max(0, n - need)))
    n = max(n, need + offset)
    return [array(draw, st, hnp, (n,))], {"shape": shape, "strides": strides, "offset": offset}


def _as_strided_ref(a, shape, strides, offset):
    return host.lib.stride_tricks.as_strided(a[offset:], shape, [s * a.itemsize
                                                                 for s in strides]).copy()


def _make_as_strided_scatter(draw, st, hnp):
    # distinct places (no stride 0, strides past the previous extent): an overwrite, no sum
    n = draw(st.integers(1, 4))
    shape = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    strides = (shape[1] + draw(st.integers(0, 1)), 1)
    need = (shape[0] - 1) * strides[0] + shape[1]
    offset = draw(st.integers(0, n))
    return [array(draw, st, hnp, (need + offset + n,)), array(draw, st, hnp, shape)], {
        "shape": shape, "strides": strides, "offset": offset}


def _as_strided_scatter_ref(a, s, shape, strides, offset):
    out = a.copy()
    host.lib.stride_tricks.as_strided(out[offset:], shape, [t * a.itemsize
                                                            for t in strides])[...] = s
    return out


def _make_unfold(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    nd = len(shape)
    axis = draw(st.integers(-nd, nd - 1))
    size = draw(st.integers(0, shape[axis]))
    step = draw(st.integers(1, 3))
    return [array(draw, st, hnp, shape)], {"axis": axis, "size": size, "step": step}


def _unfold_ref(a, axis, size, step):
    w = host.lib.stride_tricks.sliding_window_view(a, size, axis)
    w = w[(slice(None),) * (axis % a.ndim) + (slice(None, None, step),)]
    return w.copy()


def _make_scatter_reduce(draw, st, hnp, reduce=None):
    shape = small_shape(draw, hnp, min_dims=1)
    shape = tuple(max(s, 1) for s in shape)
    nd = len(shape)
    axis = draw(st.integers(-nd, nd - 1))
    ishape = tuple(draw(st.integers(0, s + (d == axis % nd))) for d, s in enumerate(shape))
    index = host.asarray(draw(hnp.arrays(host.int64, ishape,
                                         elements=st.integers(0, shape[axis] - 1))))
    sshape = tuple(i + draw(st.integers(0, 1)) for i in ishape)
    # distinct values (ties of amax/amin share a gradient: no finite difference sees that)
    x = distinct_array(draw, st, hnp, shape, 0.5, 1.2)
    s = distinct_array(draw, st, hnp, sshape, 1.3, 2.0)
    return [x, s], {"axis": axis, "index": index,
                    "reduce": reduce or draw(st.sampled_from(_REDUCTIONS)),
                    "include_self": draw(st.booleans())}


def _scatter_reduce_ref(a, s, axis, index, reduce, include_self):
    out = a.copy()
    groups: dict = {}
    for p in host.ndindex(*index.shape):
        q = list(p)
        q[axis % a.ndim] = index[p]
        groups.setdefault(tuple(q), []).append(s[p])
    for q, vs in groups.items():
        vs = ([a[q]] if include_self else []) + vs
        out[q] = {"sum": sum, "prod": host.prod, "mean": host.mean, "amax": max,
                  "amin": min}[reduce](vs)
    return out


def _make_index_reduce(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    shape = tuple(max(s, 1) for s in shape)
    nd = len(shape)
    axis = draw(st.integers(-nd, nd - 1))
    k = draw(st.integers(0, 4))
    index = host.asarray(draw(hnp.arrays(host.int64, (k,),
                                         elements=st.integers(0, shape[axis] - 1))))
    sshape = list(shape)
    sshape[axis] = k
    x = distinct_array(draw, st, hnp, shape, 0.5, 1.2)
    s = distinct_array(draw, st, hnp, tuple(sshape), 1.3, 2.0)
    return [x, s], {"axis": axis, "index": index,
                    "reduce": draw(st.sampled_from(("prod", "mean", "amax", "amin"))),
                    "include_self": draw(st.booleans())}


def _index_reduce_ref(a, s, axis, index, reduce, include_self):
    ax = axis % a.ndim
    full = host.zeros(s.shape, dtype=host.int64) + index.reshape(
        [-1 if d == ax else 1 for d in range(a.ndim)])
    return _scatter_reduce_ref(a, s, axis, full, reduce, include_self)


def _make_put(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    shape = tuple(max(s, 1) for s in shape)
    n = 1
    for s in shape:
        n *= s
    accumulate = draw(st.booleans())
    k = draw(st.integers(0, n))
    if accumulate:
        index = host.asarray(draw(hnp.arrays(host.int64, (k,), elements=st.integers(-n, n - 1))))
    else:
        index = host.asarray(draw(st.permutations(range(n))), dtype=host.int64)[:k]
    return [array(draw, st, hnp, shape), array(draw, st, hnp, (k,))], {
        "index": index, "accumulate": accumulate}


def _put_ref(a, s, index, accumulate):
    out = a.copy().reshape(-1)
    if accumulate:
        host.add.at(out, index, s)
    else:
        out[index] = s
    return out.reshape(a.shape)


def _make_clamp(draw, st, hnp):
    shape = small_shape(draw, hnp)
    # bounds kept 0.1 away from x (finite differences never cross a switch)
    x = array(draw, st, hnp, shape, -2.0, 2.0)
    lo = x + host.where(array(draw, st, hnp, shape) > 0, 0.3, -0.3)
    hi = lo + host.where(array(draw, st, hnp, shape) > 0, 0.8, -0.8)
    return [x, lo, hi], {}


def _clamp_ref(a, lo, hi):
    return host.minimum(host.maximum(a, lo), hi)


def _t(x, a):
    return type(x).wrap(a)


spec("select_scatter", select_scatter, _make_select_scatter, ref=_select_scatter_ref)
spec("slice_scatter", slice_scatter, _make_slice_scatter, ref=_slice_scatter_ref)
spec("diagonal_scatter", diagonal_scatter, _make_diagonal_scatter, ref=_diagonal_scatter_ref)
spec("as_strided", as_strided, _make_as_strided, ref=_as_strided_ref)
spec("as_strided_scatter", as_strided_scatter, _make_as_strided_scatter,
     ref=_as_strided_scatter_ref)
spec("unfold", unfold, _make_unfold, ref=_unfold_ref)
spec("scatter_reduce", lambda x, s, axis, index, reduce, include_self: scatter_reduce(
    x, axis, _t(x, index), s, reduce, include_self), _make_scatter_reduce,
    ref=_scatter_reduce_ref)
spec("index_reduce", lambda x, s, axis, index, reduce, include_self: index_reduce(
    x, axis, _t(x, index), s, reduce, include_self), _make_index_reduce,
    ref=_index_reduce_ref)
spec("put", lambda x, s, index, accumulate: put(x, _t(x, index), s, accumulate), _make_put,
     ref=_put_ref)
spec("clamp_tensor", clamp, _make_clamp, ref=_clamp_ref)
