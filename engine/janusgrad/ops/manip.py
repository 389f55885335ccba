"""Manipulation ops: triangles and diagonals, rolls and rotations, splits and stacks,
scatters and index updates, einsum and its relatives.

Most are compositions of engine ops (getitem and its adjoint index_add, narrow, transpose,
reshape, broadcast_to, concatenate, where, matmul, sum): they differentiate through the ops
they are made of.  Three are primitives with a rule of their own: ``tril``/``triu`` (the
gradient masked by the same triangle), ``diagonal`` (a view; its adjoint places the gradient
on the diagonal through index_add) and ``scatter`` (the overwritten entries get no gradient,
each source entry the gradient of the place it went to).
"""
from __future__ import annotations

import itertools

from janusgrad.array.backend import broadcast_shapes, host, int64, is_array, xp_of
from janusgrad.core.tensor import Tensor, record
from janusgrad.core.views import mark_view
from janusgrad.ops import defop, spec
from janusgrad.ops.elementwise import add, broadcast_failure, cast, clone, mul, where_
from janusgrad.ops.elementwise import mul as _m
from janusgrad.ops.index import (
    _along,
    _index_error,
    _int_index,
    array_key,
    gather,
    index_add,
    out_of_bounds,
    place_key,
    take,
)
from janusgrad.ops.linalg import matmul
from janusgrad.ops.reduce import sum as _sum
from janusgrad.ops.shape import (
    _inverse,
    _make_moveaxis,
    broadcast_to,
    checked_axis,
    concatenate,
    flip,
    moveaxis,
    narrow,
    reshape,
    stack,
    transpose,
)
from janusgrad.ops.testing import array, small_shape


def _invalid(x, op, message, **facts):
    return x.dialect.invalid(op, message, caller=op, **facts)


def _need_ndim(x, op, n, message=None):
    if x.array.ndim < n:
        raise _invalid(x, op, message or f"{op}: input tensor must have at least {n} "
                       f"dimensions", ndim=x.array.ndim)


# ---------------------------------------------------------------- tril, triu
def _triangle(op, lower, x, k):
    _need_ndim(x, op, 2)
    a = x.array
    xp = xp_of(a)
    n, m = a.shape[-2:]
    diff = xp.arange(m).reshape(1, m) - xp.arange(n).reshape(n, 1)  # j - i
    keep = diff <= k if lower else diff >= k
    out = xp.where(keep, a, xp.zeros((), dtype=a.dtype))
    return record(_tril if lower else _triu, out, (x,), attrs=keep)


def tril(x, k=0):
    """The lower triangle of the last two axes (entries with j - i <= k); the rest zero."""
    return _triangle("tril", True, x, int(k))


def triu(x, k=0):
    """The upper triangle of the last two axes (entries with j - i >= k); the rest zero."""
    return _triangle("triu", False, x, int(k))


_tril = defop("tril", rule=lambda np, g, keep: np.where(keep, g, 0.0), uses="attrs")
_triu = defop("triu", rule=lambda np, g, keep: np.where(keep, g, 0.0), uses="attrs")


# ---------------------------------------------------------------- diagonals
def _diag_positions(xp, n1, n2, offset):
    """Row and column indices of the ``offset`` diagonal of an n1 x n2 matrix."""
    if offset >= 0:
        n = max(min(n1, n2 - offset), 0)
        r = xp.arange(n)
        return r, r + offset
    n = max(min(n1 + offset, n2), 0)
    r = xp.arange(n)
    return r - offset, r


def _two_axes(x, op, axis1, axis2, ndim=None):
    nd = x.array.ndim if ndim is None else ndim
    a1, a2 = checked_axis(x, op, axis1, nd), checked_axis(x, op, axis2, nd)
    if a1 == a2:
        raise _invalid(x, op, f"diagonal dimensions cannot be identical {axis1}, {axis2}",
                       axis1=axis1, axis2=axis2)
    return a1, a2


def diagonal(x, offset=0, axis1=0, axis2=1, copy=False):
    """The ``offset`` diagonal of the matrices spanned by ``axis1`` and ``axis2``, as a new
    last axis: a view of x (``copy``: a new array, as paddle's)."""
    _need_ndim(x, "diagonal", 2, "diagonal dimensions requires ndim larger than 1")
    a1, a2 = _two_axes(x, "diagonal", axis1, axis2)
    a = x.array
    offset = int(offset)
    out = a.diagonal(offset, a1, a2)
    if copy:
        out = out.copy()
    else:
        flags = getattr(out, "flags", None)
        if flags is not None and not flags.writeable and getattr(a, "flags", flags).writeable:
            flags.writeable = True  # numpy's diagonal is read-only; torch's can be written
    perm = [d for d in range(a.ndim) if d not in (a1, a2)] + [a1, a2]
    moved = tuple(a.shape[p] for p in perm)
    rows, cols = _diag_positions(xp_of(a), moved[-2], moved[-1], offset)
    t = record(_diagonal, out, (x,), attrs=(tuple(perm), moved, (Ellipsis, rows, cols)))
    return t if copy else mark_view(t, x, diagonal, offset, a1, a2)


def _diagonal_rule(np, g, attrs):
    perm, moved, key = attrs
    return np.transpose(np.index_add(g, moved, key), _inverse(perm))


_diagonal = defop("diagonal", rule=_diagonal_rule, uses="attrs")


def diag_embed(x, offset=0, axis1=-2, axis2=-1):
    """Each vector along the last axis of x placed on the ``offset`` diagonal of a matrix
    spanning ``axis1`` and ``axis2`` of the result (zeros elsewhere)."""
    _need_ndim(x, "diag_embed", 1, "diag_embed: input must have at least 1 dimension")
    a = x.array
    nd = a.ndim + 1
    a1, a2 = _two_axes(x, "diag_embed", axis1, axis2, nd)
    offset = int(offset)
    n = a.shape[-1] + abs(offset)
    rows, cols = _diag_positions(xp_of(a), n, n, offset)
    rest = a.shape[:-1]
    placed = index_add(x, rest + (n, n), (Ellipsis, rows, cols))
    # placed has the matrix axes last; move them to a1, a2
    order = [None] * nd
    order[a1], order[a2] = nd - 2, nd - 1
    it = iter(range(nd - 2))
    order = [o if o is not None else next(it) for o in order]
    return placed if order == list(range(nd)) else transpose(placed, order)


def diag(x, offset=0, padding=0):
    """A 1-D x on the ``offset`` diagonal of a square matrix (``padding`` elsewhere); the
    ``offset`` diagonal of a 2-D x (a new array)."""
    nd = x.array.ndim
    if nd == 1:
        out = diag_embed(x, offset, 0, 1)
        if padding:
            a = out.array
            xp = xp_of(a)
            n = a.shape[0]
            on = (xp.arange(n).reshape(1, n) - xp.arange(n).reshape(n, 1)) == offset
            out = where_(on, out, _same_kind(x, padding))
        return out
    if nd != 2:
        raise _invalid(x, "diag", "diag(): Supports 1D or 2D tensors. Got "
                       f"{nd}D", ndim=nd)
    return diagonal(x, offset, 0, 1, copy=True)


def diagflat(x, offset=0):
    return diag_embed(reshape(x, (-1,)), offset, 0, 1)


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum of the ``offset`` diagonal of the matrices spanned by axis1 and axis2."""
    return _sum(diagonal(x, offset, axis1, axis2), axis=-1)


# ---------------------------------------------------------------- roll, rot90, flips
def _seq(v):
    if isinstance(v, Tensor):
        v = v.array.tolist()
    return list(v) if isinstance(v, (tuple, list)) else [v]


def roll(x, shifts, axes=None):
    """Elements shifted cyclically by ``shifts`` along ``axes`` (over the flattened tensor
    when ``axes`` is None)."""
    shifts = [int(s) for s in _seq(shifts)]
    if axes is None:
        if len(shifts) != 1:
            raise _invalid(x, "roll", f"shifts and dimensions must align. shifts: "
                           f"{len(shifts)}, dims:0", shifts=len(shifts), dims=0)
        return reshape(roll(reshape(x, (-1,)), shifts, 0), x.array.shape)
    axes = [int(a) for a in _seq(axes)]
    if len(shifts) != len(axes):
        raise _invalid(x, "roll", f"shifts and dimensions must align. shifts: {len(shifts)},"
                       f" dims:{len(axes)}", shifts=len(shifts), dims=len(axes))
    xp = xp_of(x.array)
    out = x
    for s, a in zip(shifts, axes):
        a = checked_axis(x, "roll", a)
        n = x.array.shape[a] if x.array.ndim else 1
        if n == 0 or s % n == 0 or not x.array.ndim:
            continue
        idx = (xp.arange(n) - s) % n
        out = take(out, (slice(None),) * a + (idx, Ellipsis), "roll")
    return out if out is not x else _copy(x)


def _copy(x):
    return clone(x)


def rot90(x, k=1, axes=(0, 1)):
    """Rotate by 90 degrees ``k`` times in the plane of ``axes`` (from the first axis
    towards the second)."""
    axes = list(axes)
    if len(axes) != 2:
        raise _invalid(x, "rot90", f"expected total rotation dims == 2, but got dims = "
                       f"{len(axes)}", dims=len(axes))
    nd = x.array.ndim
    if nd < 2:
        raise _invalid(x, "rot90", f"expected total dims >= 2, but got total dims = {nd}",
                       ndim=nd)
    a0, a1 = checked_axis(x, "rot90", axes[0]), checked_axis(x, "rot90", axes[1])
    if a0 == a1:
        raise _invalid(x, "rot90", f"expected rotation dims to be different, but got dim0 = "
                       f"{a0} and dim1 = {a1}", axis0=a0, axis1=a1)
    k %= 4
    swap = list(range(nd))
    swap[a0], swap[a1] = a1, a0
    if k == 1:
        return transpose(flip(x, (a1,)), swap)
    if k == 2:
        return flip(x, (a0, a1))
    if k == 3:
        return transpose(flip(x, (a0,)), swap)
    return _copy(x)


# ---------------------------------------------------------------- select, unbind, movedim
def select(x, axis, index):
    """The slice at ``index`` along ``axis`` (that axis removed): a view."""
    nd = x.array.ndim
    if not nd:
        raise _invalid(x, "select", "select() cannot be applied to a 0-dim tensor.", ndim=0)
    axis = checked_axis(x, "select", axis)
    size = x.array.shape[axis]
    index = int(index)
    if not -size <= index < size:
        raise _invalid(x, "select", f"select(): index {index} out of range for tensor of "
                       f"size {list(x.array.shape)} at dimension {axis}", index=index,
                       size=size, axis=axis, shape=x.array.shape)
    return take(x, (slice(None),) * axis + (index, Ellipsis), "select")


def unbind(x, axis=0, copy=False):
    """The slices of x along ``axis``, as a list (views; ``copy``: new arrays)."""
    if not x.array.ndim:
        raise _invalid(x, "unbind", "Dimension specified as 0 but tensor has no dimensions",
                       ndim=0)
    axis = checked_axis(x, "unbind", axis)
    parts = [select(x, axis, i) for i in range(x.array.shape[axis])]
    if copy:
        parts = [clone(p) for p in parts]
    return parts


def movedim(x, source, destination):
    """numpy.moveaxis with torch's checks (as many sources as destinations, no repeats)."""
    src = _seq(source)
    dst = _seq(destination)
    if len(src) != len(dst):
        raise _invalid(x, "movedim", f"movedim: Invalid source or destination dims: source "
                       f"({src} dims) should contain the same number of dims as destination "
                       f"({dst} dims)", source=src, destination=dst)
    nd = x.array.ndim
    for name, dims in (("source", src), ("destination", dst)):
        norm = [checked_axis(x, "movedim", d) for d in dims]
        if len(set(norm)) != len(norm):
            raise _invalid(x, "movedim", f"movedim: repeated dim in `{name}` ({dims})",
                           repeated_in=name, dims=dims)
    if not nd:
        return reshape(x, ())
    return moveaxis(x, [int(s) for s in src], [int(d) for d in dst])


# ---------------------------------------------------------------- meshgrid, broadcasting
def meshgrid(tensors, indexing="ij", copy=False):
    """Coordinate grids from 0-d or 1-d tensors (``indexing`` 'ij': matrix, 'xy': the first
    two axes swapped); broadcast views of the inputs (``copy``: new arrays)."""
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if indexing not in ("ij", "xy"):
        raise ValueError(f"meshgrid: indexing must be one of \"xy\" or \"ij\", "
                         f"but received: {indexing}")
    for t in tensors:
        if t.array.ndim > 1:
            raise _invalid(t, "meshgrid", "meshgrid: Expected 0D or 1D tensor in the "
                           f"tensor list but got: {t.array.ndim}", ndim=t.array.ndim)
    first = tensors[0]
    for t in tensors[1:]:
        if t.array.dtype != first.array.dtype:
            raise _invalid(first, "meshgrid", "meshgrid expects all tensors to have the "
                           "same dtype", dtypes=(first.array.dtype, t.array.dtype))
    sizes = [t.array.size for t in tensors]
    pos = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) > 1:
        pos[0], pos[1] = 1, 0
    shape = [0] * len(tensors)
    for p, s in zip(pos, sizes):
        shape[p] = s
    out = []
    for t, p in zip(tensors, pos):
        lined = [1] * len(tensors)
        lined[p] = t.array.size
        out.append(broadcast_to(reshape(t, lined), tuple(shape), copy=copy))
    return out


def broadcast_tensors(tensors, copy=False):
    tensors = list(tensors)
    try:
        shape = broadcast_shapes(*(t.array.shape for t in tensors))
    except ValueError:
        a = tensors[0].array
        b = next(t.array for t in tensors[1:] if not _broadcasts(a.shape, t.array.shape))
        raise broadcast_failure(type(tensors[0]), a, b) from None
    return [broadcast_to(t, shape, copy=copy) for t in tensors]


def _broadcasts(a, b):
    try:
        broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


def repeat_interleave(x, repeats, axis=None):
    """Each element (each slice along ``axis``) repeated ``repeats`` times (an int, or one
    count per element); over the flattened tensor when ``axis`` is None."""
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = checked_axis(x, "repeat_interleave", axis)
    if not x.array.ndim:
        x = reshape(x, (1,))
    n = x.array.shape[axis]
    xp = xp_of(x.array)
    if isinstance(repeats, Tensor) or is_array(repeats):
        r = repeats.array if isinstance(repeats, Tensor) else repeats
        if r.ndim > 1:
            raise _invalid(x, "repeat_interleave", "repeat_interleave only accept 1D vector "
                           "as repeat", repeats_ndim=r.ndim)
        if r.ndim == 0 or r.shape[0] == 1:
            repeats = int(r.reshape(-1)[0])
        else:
            if r.shape[0] != n:
                raise _invalid(x, "repeat_interleave", "repeats must have the same size as "
                               f"input along dim, but got repeats.size(0) = {r.shape[0]} and "
                               f"input.size({axis}) = {n}", repeats=r.shape[0], size=n,
                               axis=axis)
            if bool((r < 0).any()):
                raise _invalid(x, "repeat_interleave", "repeats can not be negative")
            r = r if type(r) is type(x.array) else place_key(x, (r,))[0]
            idx = xp.repeat(xp.arange(n), r)
            return take(x, (slice(None),) * axis + (idx, Ellipsis), "repeat_interleave")
    repeats = int(repeats)
    if repeats < 0:
        raise _invalid(x, "repeat_interleave", "repeats can not be negative")
    idx = xp.repeat(xp.arange(n), repeats)
    return take(x, (slice(None),) * axis + (idx, Ellipsis), "repeat_interleave")


def repeat_counts(repeats):
    """torch.repeat_interleave(repeats): each position repeated its own count (int64)."""
    r = repeats.array
    xp = xp_of(r)
    if r.ndim != 1:
        raise _invalid(repeats, "repeat_interleave", "repeat_interleave only accept 1D "
                       "vector as repeat", repeats_ndim=r.ndim)
    return type(repeats).wrap(xp.repeat(xp.arange(r.shape[0], dtype=int64), r))


def atleast(x, n):
    """x with leading (and, for 3, trailing) axes of size 1 up to ``n`` axes (numpy's
    atleast_1d/2d/3d)."""
    s = x.array.shape
    if len(s) >= n:
        return x
    if n == 3:
        new = {0: (1, 1, 1), 1: (1,) + s + (1,), 2: s + (1,)}[len(s)]
    else:
        new = (1,) * (n - len(s)) + s
    return reshape(x, new)


def hstack(tensors):
    tensors = [atleast(t, 1) for t in _nonempty(tensors, "hstack")]
    return concatenate(tensors, 0 if tensors[0].array.ndim == 1 else 1)


def vstack(tensors):
    return concatenate([atleast(t, 2) for t in _nonempty(tensors, "vstack")], 0)


def dstack(tensors):
    return concatenate([atleast(t, 3) for t in _nonempty(tensors, "dstack")], 2)


def column_stack(tensors):
    tensors = _nonempty(tensors, "column_stack")
    return concatenate([reshape(t, (t.array.size, 1)) if t.array.ndim <= 1 else t
                        for t in tensors], 1)


def _nonempty(tensors, op):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError(f"{op} expects a non-empty TensorList")
    return tensors


# ---------------------------------------------------------------- splits, unflatten
def tensor_split(x, sections=None, indices=None, axis=0, copy=False):
    """x cut along ``axis`` into ``sections`` nearly equal pieces (the first ones one
    longer), or at ``indices``: views (``copy``: new arrays)."""
    if not x.array.ndim:
        raise _invalid(x, "tensor_split", "tensor_split expected at least a 1-dimensional "
                       "tensor, but got a tensor with 0 dims", ndim=0)
    axis = checked_axis(x, "tensor_split", axis)
    n = x.array.shape[axis]
    if indices is None:
        sections = int(sections)
        if sections <= 0:
            raise _invalid(x, "tensor_split", f"number of sections must be larger than 0, "
                           f"got {sections}", sections=sections)
        q, r = divmod(n, sections)
        bounds, start = [], 0
        for i in range(sections):
            length = q + (1 if i < r else 0)
            bounds.append((start, length))
            start += length
    else:
        bounds, prev = [], 0
        for i in list(indices) + [n]:
            i = int(i)
            i = min(max(i + n if i < 0 else i, 0), n)
            start = min(prev, n)
            bounds.append((start, max(i - start, 0)))
            prev = max(i, start) if i >= start else i
    return [narrow(x, axis, s, length, copy) for s, length in bounds]


def unflatten(x, axis, sizes):
    """``axis`` of x split into the axes ``sizes`` (one -1 is inferred): a view."""
    s = x.array.shape
    axis = checked_axis(x, "unflatten", axis)
    sizes = [int(v) for v in sizes]
    if not sizes:
        raise _invalid(x, "unflatten", "unflatten: sizes must be non-empty", sizes=sizes)
    if -1 in sizes:
        known = 1
        for v in sizes:
            if v != -1:
                known *= v
        if sizes.count(-1) > 1 or (known and s[axis] % known) or (not known and s[axis]):
            raise _invalid(x, "unflatten", f"unflatten: Provided sizes {sizes} don't "
                           f"multiply up to the size of dim {axis} ({s[axis]}) in the input "
                           "tensor", sizes=sizes, size=s[axis], axis=axis)
        sizes = [s[axis] // known if v == -1 and known else (0 if v == -1 else v)
                 for v in sizes]
    prod = 1
    for v in sizes:
        prod *= v
    if prod != s[axis]:
        raise _invalid(x, "unflatten", f"unflatten: Provided sizes {sizes} don't multiply up "
                       f"to the size of dim {axis} ({s[axis]}) in the input tensor",
                       sizes=sizes, size=s[axis], axis=axis)
    return reshape(x, s[:axis] + tuple(sizes) + s[axis + 1:])


# ---------------------------------------------------------------- scatter and index updates
def _along_key(x, idx, axis):
    """The key placing the entries of an index of torch's scatter/gather kind."""
    return _along(x, idx, axis, idx.shape, "scatter")


def _scatter_index(x, axis, index, src, op):
    """(axis, index array) checked as torch's scatter checks them."""
    xs = x.array.shape
    axis = checked_axis(x, op, axis)
    idx = _int_index(x, index, op)
    if not xs:
        xs = (1,)
    if idx.ndim != len(xs) and not (idx.ndim <= 1 and len(xs) <= 1):
        raise _invalid(x, op, "Index tensor must have the same number of dimensions as self "
                       "tensor", index_shape=idx.shape, shape=xs)
    if idx.ndim == 0:
        idx = idx.reshape(1)
    ss = None if src is None else (src.array.shape or (1,))
    for d in range(len(xs)):
        if (d != axis and idx.shape[d] > xs[d]) or (ss is not None and idx.shape[d] > ss[d]):
            raise _invalid(x, op, f"Expected index {list(idx.shape)} to be no larger than self "
                           f"{list(xs)} apart from dimension {axis} and to be no larger size "
                           f"than src {list(ss or ())}", index_shape=idx.shape, shape=xs)
    if idx.size:
        bad = (idx < -xs[axis]) | (idx >= xs[axis])
        if bool(bad.any()):
            raise out_of_bounds(x, int(idx[bad].reshape(-1)[0]), xs[axis], axis, op)
    return axis, idx


def scatter(x, axis, index, src):
    """x with the entries of ``src`` (a tensor, or a number) written at ``index`` along
    ``axis`` (torch.scatter): out[i][index[i][j]] = src[i][j] for axis 1."""
    is_t = isinstance(src, Tensor)
    if is_t and src.array.dtype != x.array.dtype:
        raise _invalid(x, "scatter", "scatter(): Expected self.dtype to be equal to "
                       "src.dtype", a_dtype=x.array.dtype, b_dtype=src.array.dtype)
    axis, idx = _scatter_index(x, axis, index, src if is_t else None, "scatter")
    a = x.array
    flat = not a.ndim
    out = a.reshape(1) if flat else a.copy()
    if flat:
        out = out.copy()
    key = _along_key(x, idx, axis)
    xp = xp_of(a)
    written = xp.zeros(out.shape, dtype=bool)
    written[key] = True
    if is_t:
        s = src.array.reshape(1) if not src.array.ndim else src.array
        corner = tuple(slice(0, n) for n in idx.shape) + (Ellipsis,)
        out[key] = s[corner]
        res = out.reshape(()) if flat else out
        return record(_scatter, res, (x, src),
                      attrs=(key, written, corner, src.array.shape, flat))
    out[key] = src
    return record(_scatter_value, out.reshape(()) if flat else out, (x,), attrs=(written,))


def _scatter_src(np, g, attrs):
    key, _, corner, shape, flat = attrs
    if flat:
        g = np.reshape(g, (1,))
    got = np.getitem(g, key)
    if got.shape != tuple(shape if shape else (1,)):
        got = np.index_add(got, shape if shape else (1,), corner)
    return np.reshape(got, shape) if flat or not shape else got


def _scatter_value_x(np, g, attrs):
    return np.where(attrs[0], g * 0.0, g)


_scatter = defop("scatter", rule=(lambda np, g, attrs: np.where(attrs[1], g * 0.0, g),
                                  _scatter_src), uses="attrs")
_scatter_value = defop("scatter_value", rule=_scatter_value_x, uses="attrs")


_scatter_reduced = defop("scatter_reduced", None)  # no derivative (torch's backward refuses)


def scatter_reduced(x, axis, index, src, reduce):
    """torch's legacy ``scatter(..., reduce='add'|'multiply')``: entries combined into x at
    ``index``.  'add' is scatter_add (with its derivative, where torch's backward refuses);
    'multiply' has no derivative."""
    is_t = isinstance(src, Tensor)
    if reduce == "add" and is_t:
        return scatter_add(x, axis, index, src)
    axis, idx = _scatter_index(x, axis, index, src if is_t else None, "scatter")
    a = x.array
    out = a.reshape(1).copy() if not a.ndim else a.copy()
    key = _along_key(x, idx, axis)
    xp = xp_of(a)
    if is_t:
        s = src.array.reshape(1) if not src.array.ndim else src.array
        vals = s[tuple(slice(0, n) for n in idx.shape) + (Ellipsis,)]
    else:
        vals = xp.full(idx.shape, src, dtype=a.dtype)
    (xp.add if reduce == "add" else xp.multiply).at(out, key, vals)
    return record(_scatter_reduced, out.reshape(a.shape), (x, src) if is_t else (x,))


def scatter_add(x, axis, index, src):
    """x plus the entries of ``src`` added at ``index`` along ``axis`` (repeats add up)."""
    if src.array.dtype != x.array.dtype:
        raise _invalid(x, "scatter_add", "scatter(): Expected self.dtype to be equal to "
                       "src.dtype", a_dtype=x.array.dtype, b_dtype=src.array.dtype)
    axis, idx = _scatter_index(x, axis, index, src, "scatter_add")
    flat = not x.array.ndim
    xv = reshape(x, (1,)) if flat else x
    sv = reshape(src, (1,)) if not src.array.ndim else src
    corner = tuple(slice(0, n) for n in idx.shape) + (Ellipsis,)
    piece = take(sv, corner, "scatter_add") if sv.array.shape != idx.shape else sv
    out = add(xv, index_add(piece, xv.array.shape, _along_key(x, idx, axis)))
    return reshape(out, ()) if flat else out


def _slab_key(x, axis, index, op):
    """(key, index array) selecting whole slices at ``index`` (0-d or 1-d) along ``axis``."""
    axis = checked_axis(x, op, axis)
    idx = _int_index(x, index, op)
    if idx.ndim > 1:
        raise _invalid(x, op, "Index is supposed to be a vector", index_shape=idx.shape)
    idx = idx.reshape(-1)
    n = x.array.shape[axis] if x.array.ndim else 1
    if idx.size:
        bad = (idx < -n) | (idx >= n)
        if bool(bad.any()):
            raise out_of_bounds(x, int(idx[bad].reshape(-1)[0]), n, axis, op)
    return (slice(None),) * axis + (idx, Ellipsis), idx


def _mask_of(x, key):
    m = xp_of(x.array).zeros(x.array.shape, dtype=bool)
    m[key] = True
    return m


def index_add_along(x, axis, index, source, alpha=1):
    """x plus ``alpha`` times the slices of ``source`` added at ``index`` along ``axis``
    (torch.index_add; repeated indices add up)."""
    if not x.array.ndim:
        x1 = reshape(x, (1,))
        return reshape(index_add_along(x1, axis, index, reshape(source, (-1,)), alpha), ())
    key, idx = _slab_key(x, axis, index, "index_add")
    if not source.array.ndim:
        source = reshape(source, (1,))
    if source.array.dtype != x.array.dtype:
        raise _invalid(x, "index_add", f"index_add_(): self ({x.array.dtype}) and source "
                       f"({source.array.dtype}) must have the same scalar type",
                       a_dtype=x.array.dtype, b_dtype=source.array.dtype)
    if alpha != 1:
        source = mul(source, alpha)
    return add(x, index_add(source, x.array.shape, key))


def index_copy(x, axis, index, source):
    """x with the slices at ``index`` along ``axis`` replaced by those of ``source``."""
    if not x.array.ndim:
        x1 = reshape(x, (1,))
        return reshape(index_copy(x1, axis, index, reshape(source, (-1,))), ())
    key, _ = _slab_key(x, axis, index, "index_copy")
    if not source.array.ndim:
        source = reshape(source, (1,))
    if source.array.dtype != x.array.dtype:
        raise _invalid(x, "index_copy", "index_copy_(): self and source expected to have the "
                       f"same dtype, but got (self) {x.array.dtype} and (source) "
                       f"{source.array.dtype}", a_dtype=x.array.dtype,
                       b_dtype=source.array.dtype)
    return where_(_mask_of(x, key), index_add(source, x.array.shape, key), x)


def _same_kind(x, value):
    """A Python number as x's kind of number (torch's fills keep x's dtype)."""
    if isinstance(value, Tensor):
        return cast(value, x.array.dtype)
    k = x.array.dtype.kind
    return bool(value) if k == "b" else int(value) if k in "iu" else float(value)


def index_fill(x, axis, index, value):
    """x with the slices at ``index`` along ``axis`` set to ``value``."""
    if not x.array.ndim:
        return reshape(index_fill(reshape(x, (1,)), axis, index, value), ())
    key, _ = _slab_key(x, axis, index, "index_fill")
    return where_(_mask_of(x, key), _same_kind(x, value), x)


def index_put(x, indices, values, accumulate=False):
    """x with ``values`` (broadcast) written at ``x[indices]`` (added with ``accumulate``)."""
    key = array_key(tuple(slice(None) if i is None else i for i in indices), x)
    try:
        picked = x.array[key]
    except (IndexError, TypeError, ValueError) as e:
        raise _index_error(x, key, e, "index_put") from None
    if isinstance(values, Tensor) and values.array.dtype != x.array.dtype:
        raise _invalid(x, "index_put", "Index put requires the source and destination dtypes "
                       f"match, got {x.array.dtype} for the destination and "
                       f"{values.array.dtype} for the source.", a_dtype=x.array.dtype,
                       b_dtype=values.array.dtype)
    v = values if isinstance(values, Tensor) else type(x).wrap(
        xp_of(x.array).asarray(values, dtype=x.array.dtype))
    v = broadcast_to(v, picked.shape)
    placed = index_add(v, x.array.shape, key)
    if accumulate:
        return add(x, placed)
    return where_(_mask_of(x, key), placed, x)


def masked_scatter(x, mask, source):
    """x with the entries where ``mask`` holds taken, in order, from ``source``."""
    m = mask.array if isinstance(mask, Tensor) else mask
    if m.dtype != bool:
        raise _invalid(x, "masked_scatter", "masked_scatter_ only supports boolean masks, but "
                       f"got mask with dtype {m.dtype}", mask_dtype=m.dtype)
    shape = broadcast_shapes(x.array.shape, m.shape)
    if type(m) is not type(x.array):
        m = place_key(x, (m,))[0]
    m = xp_of(m).broadcast_to(m, shape)
    x = broadcast_to(x, shape)
    n = int(m.sum())
    if source.array.size < n:
        raise _invalid(x, "masked_scatter", "masked_scatter: expected source to have at "
                       "least as many elements as ones in mask", count=n,
                       size=source.array.size)
    piece = take(reshape(source, (-1,)), (slice(0, n),), "masked_scatter")
    if piece.array.dtype != x.array.dtype:
        piece = cast(piece, x.array.dtype)
    return where_(m, index_add(piece, shape, (m,)), x)


def take_flat(x, index):
    """The entries of the flattened x at ``index`` (the shape of index)."""
    idx = _int_index(x, index, "take")
    n = x.array.size
    if idx.size:
        bad = (idx < -n) | (idx >= n)
        if bool(bad.any()):
            raise _invalid(x, "take", f"out of range: tried to access index "
                           f"{int(idx[bad].reshape(-1)[0])} on a tensor of {n} elements.",
                           index=int(idx[bad].reshape(-1)[0]), size=n)
    return take(reshape(x, (-1,)), (idx, Ellipsis), "take")


def take_along(x, index, axis=None):
    """torch.take_along_dim: gather along ``axis`` with x and index broadcast against each
    other off that axis (over the flattened tensors when ``axis`` is None)."""
    idx = _int_index(x, index, "take_along_dim")
    if axis is None:
        return gather(reshape(x, (-1,)), 0, idx.reshape(-1))
    if idx.ndim != x.array.ndim:
        raise _invalid(x, "take_along_dim", "take_along_dim(): input and indices should "
                       f"have the same number of dimensions, but got {x.array.ndim} dimensions"
                       f" for input, and {idx.ndim} dimensions for indices",
                       ndim=x.array.ndim, index_ndim=idx.ndim)
    axis = checked_axis(x, "take_along_dim", axis)
    if not x.array.ndim:
        return gather(x, 0, idx)
    xs, js = list(x.array.shape), list(idx.shape)
    xs1, js1 = xs[:], js[:]
    xs1[axis] = js1[axis] = 1
    b = list(broadcast_shapes(tuple(xs1), tuple(js1)))
    bx, bi = b[:], b[:]
    bx[axis], bi[axis] = xs[axis], js[axis]
    x = broadcast_to(x, tuple(bx))
    idx = xp_of(idx).broadcast_to(idx, tuple(bi))
    return gather(x, axis, idx)


def one_hot(x, num_classes=-1, dtype=int64):
    """Rows of the identity picked by the integer tensor x (a new trailing axis);
    ``num_classes`` -1: one more than x's largest value."""
    a = x.array
    if a.dtype.kind not in "iu":
        raise _invalid(x, "one_hot", "one_hot is only applicable to index tensor of type "
                       "LongTensor.", dtype=a.dtype)
    if num_classes == -1:
        if not a.size:
            raise _invalid(x, "one_hot", "Can not infer total number of classes from empty "
                           "tensor.")
        num_classes = int(a.max()) + 1
    if a.size:
        if int(a.min()) < 0:
            raise _invalid(x, "one_hot", "Class values must be non-negative.")
        if int(a.max()) >= num_classes:
            raise _invalid(x, "one_hot", "Class values must be smaller than num_classes.")
    xp = xp_of(a)
    return type(x).wrap((a[..., None] == xp.arange(num_classes)).astype(dtype))


# ---------------------------------------------------------------- einsum and products
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _parse_einsum(equation, operands):
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation" if len(operands) > len(ins) else
                           "einsum(): fewer operands were provided than specified in the "
                           "equation")
    used = set(c for c in eq if c.isalpha())
    for c in eq:
        if not (c.isalpha() or c in ",.->"):
            raise RuntimeError(f"einsum(): invalid subscript given at index {eq.index(c)} in "
                               f"the equation string, subscripts must be in [a-zA-Z]")
    spare = [c for c in _LETTERS if c not in used]
    ell = 0
    for s, t in zip(ins, operands):
        k = len(s.replace("...", ""))
        nd = t.array.ndim
        if "..." in s:
            ell = max(ell, nd - k)
        elif k != nd:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({k}) does "
                               f"not match the number of dimensions ({nd}) for operand "
                               f"{ins.index(s)} and no ellipsis was given")
    E = "".join(spare[:ell])
    subs = []
    for s, t in zip(ins, operands):
        if "..." in s:
            m = t.array.ndim - len(s.replace("...", ""))
            s = s.replace("...", E[ell - m:] if m else "")
        subs.append(s)
    if arrow:
        out = rhs.replace("...", E)
    else:
        counts = {}
        for s in subs:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        out = E + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in E))
    return subs, out


def _letter_sizes(subs, operands):
    sizes = {}
    for s, t in zip(subs, operands):
        for c, n in zip(s, t.array.shape):
            if sizes.get(c, 1) == 1:
                sizes[c] = n
            elif n != 1 and sizes[c] != n:
                raise RuntimeError(f"einsum(): operands do not broadcast with remapped shapes "
                                   f"(original->remapped): subscript {c} has sizes "
                                   f"{sizes[c]} and {n}")
    return sizes


def _prepare(t, s, keep):
    """Operand t (subscripts s) with repeated letters taken on the diagonal and letters not
    in ``keep`` summed away."""
    while True:
        dup = next((c for c in s if s.count(c) > 1), None)
        if dup is None:
            break
        i = s.index(dup)
        j = s.index(dup, i + 1)
        t = diagonal(t, 0, i, j)
        s = "".join(c for k, c in enumerate(s) if k not in (i, j)) + dup
    gone = tuple(i for i, c in enumerate(s) if c not in keep)
    if gone:
        t = _sum(t, axis=gone)
        s = "".join(c for c in s if c in keep)
    return t, s


def _contract(a, sa, b, sb, keep):
    """The product of a (letters sa) and b (letters sb) summed over the shared letters not
    in ``keep``, as one matmul; returns (tensor, letters)."""
    shared = [c for c in sa if c in sb]
    batch = [c for c in shared if c in keep]
    con = [c for c in shared if c not in keep]
    # a contracted letter of size 1 on one side only: sum it out of the other side first
    for c in list(con):
        na, nb = a.array.shape[sa.index(c)], b.array.shape[sb.index(c)]
        if na != nb:
            if na == 1:
                a, sa = _sum(a, axis=sa.index(c)), sa.replace(c, "")
                b, sb = _sum(b, axis=sb.index(c)), sb.replace(c, "")
            else:
                b, sb = _sum(b, axis=sb.index(c)), sb.replace(c, "")
                a, sa = _sum(a, axis=sa.index(c)), sa.replace(c, "")
            con.remove(c)
    ao = [c for c in sa if c not in sb]
    bo = [c for c in sb if c not in sa]
    a = transpose(a, [sa.index(c) for c in batch + ao + con])
    b = transpose(b, [sb.index(c) for c in batch + con + bo])
    ab = [a.array.shape[i] for i in range(len(batch))]
    bb = [b.array.shape[i] for i in range(len(batch))]
    ao_sizes = tuple(a.array.shape[len(batch):len(batch) + len(ao)])
    bo_sizes = tuple(b.array.shape[len(batch) + len(con):])
    pa, pb = _prod(ao_sizes), _prod(bo_sizes)
    k = _prod(a.array.shape[len(batch) + len(ao):])
    a = reshape(a, tuple(ab) + (pa, k))
    b = reshape(b, tuple(bb) + (k, pb))
    r = matmul(a, b)
    bshape = tuple(r.array.shape[:len(batch)])
    return reshape(r, bshape + ao_sizes + bo_sizes), "".join(batch + ao + bo)


def _prod(shape):
    n = 1
    for v in shape:
        n *= v
    return n


def einsum(equation, operands):
    """numpy/torch einsum: repeated letters take diagonals, letters left out of the output
    are summed; pairs of operands contract through matmul."""
    operands = list(operands)
    subs, out = _parse_einsum(equation, operands)
    sizes = _letter_sizes(subs, operands)
    for c in out:
        if c not in sizes:
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the "
                               "equation for any input operand")
        if out.count(c) > 1:
            raise RuntimeError(f"einsum(): output subscript {c} appears more than once in "
                               "the output")
    ts = list(operands)
    for i, (t, s) in enumerate(zip(ts, subs)):
        others = set(out).union(*(set(x) for j, x in enumerate(subs) if j != i))
        ts[i], subs[i] = _prepare(t, s, others)
    acc, sa = ts[0], subs[0]
    for i in range(1, len(ts)):
        keep = set(out).union(*(set(x) for x in subs[i + 1:]))
        acc, sa = _contract(acc, sa, ts[i], subs[i], keep)
        acc, sa = _prepare(acc, sa, keep)
    # letters of the output that some operand had only with size 1 broadcast back
    if sa != out:
        acc = transpose(acc, [sa.index(c) for c in out])
    if tuple(acc.array.shape) != tuple(sizes[c] for c in out):
        acc = broadcast_to(acc, tuple(sizes[c] for c in out), copy=True)
    if acc is operands[0] and len(operands) == 1:
        acc = _copy(acc)
    return acc


def tensordot(a, b, axes=2):
    """Sum over the last ``axes`` axes of a and the first of b (or the axes listed)."""
    if isinstance(axes, int):
        if axes < 0:
            raise _invalid(a, "tensordot", "tensordot expects dims >= 0, but got dims="
                           f"{axes}", dims=axes)
        n = axes
        xa = list(range(a.array.ndim - n, a.array.ndim))
        xb = list(range(n))
    else:
        xa, xb = (_seq(v) for v in axes)
        xa = [checked_axis(a, "tensordot", d) for d in xa]
        xb = [checked_axis(b, "tensordot", d) for d in xb]
    if len(xa) != len(xb):
        raise _invalid(a, "tensordot", "both dimension lists should have same length",
                       dims=(xa, xb))
    for da, db in zip(xa, xb):
        sa, sb = a.array.shape[da], b.array.shape[db]
        if sa != sb and 1 in (sa, sb):  # a size 1 broadcasts: sum the other side's axis
            if sa == 1:
                b = _sum(b, axis=db, keepdims=True)
            else:
                a = _sum(a, axis=da, keepdims=True)
        elif sa != sb:
            raise _invalid(a, "tensordot", f"contracted dimensions need to match, but first "
                           f"has size {sa} in dim {da} and second has size {sb} in dim {db}",
                           a_size=sa, b_size=sb)
    fa = [d for d in range(a.array.ndim) if d not in xa]
    fb = [d for d in range(b.array.ndim) if d not in xb]
    k = _prod(a.array.shape[d] for d in xa)
    at = reshape(transpose(a, fa + xa), (_prod(a.array.shape[d] for d in fa), k))
    bt = reshape(transpose(b, xb + fb), (k, _prod(b.array.shape[d] for d in fb)))
    return reshape(matmul(at, bt), tuple(a.array.shape[d] for d in fa) +
                   tuple(b.array.shape[d] for d in fb))


def kron(a, b):
    """The Kronecker product: blocks a[i, j] * b."""
    nd = max(a.array.ndim, b.array.ndim)
    sa = (1,) * (nd - a.array.ndim) + a.array.shape
    sb = (1,) * (nd - b.array.ndim) + b.array.shape
    ra = reshape(a, tuple(v for s in sa for v in (s, 1)))
    rb = reshape(b, tuple(v for s in sb for v in (1, s)))
    return reshape(mul(ra, rb), tuple(x * y for x, y in zip(sa, sb)))


def cartesian_prod(tensors):
    """All tuples of one element of each 1-D tensor, as rows (lexicographic order)."""
    tensors = list(tensors)
    for t in tensors:
        if t.array.ndim != 1:
            raise _invalid(t, "cartesian_prod", "Expect a 1D vector, but got shape "
                           f"{list(t.array.shape)}", shape=t.array.shape)
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(tensors, "ij")
    return stack([reshape(g, (-1,)) for g in grids], 1)


def combinations(x, r=2, with_replacement=False):
    """The length-``r`` combinations of the elements of a 1-D x, as rows."""
    if x.array.ndim != 1:
        raise _invalid(x, "combinations", "Expect a 1D vector, but got shape "
                       f"{list(x.array.shape)}", shape=x.array.shape)
    if r < 0:
        raise _invalid(x, "combinations", f"Expect a non-negative number, but got {r}", r=r)
    xp = xp_of(x.array)
    if r == 0:
        return take(x, (xp.zeros(0, dtype=int64),), "combinations")
    n = x.array.shape[0]
    make = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    rows = list(make(range(n), r))
    cols = [xp.asarray([row[i] for row in rows], dtype=int64) for i in range(r)]
    return stack([take(x, (c,), "combinations") for c in cols], 1)


# ---------------------------------------------------------------- specs
def _matrix(draw, st, hnp, min_dims=2):
    shape = small_shape(draw, hnp, min_dims=min_dims)
    return array(draw, st, hnp, shape), shape


def _make_tri(draw, st, hnp):
    a, shape = _matrix(draw, st, hnp)
    return [a], {"k": draw(st.integers(-3, 3))}


def _make_diagonal(draw, st, hnp):
    a, shape = _matrix(draw, st, hnp)
    nd = len(shape)
    a1, a2 = draw(st.permutations(range(nd)))[:2]
    return [a], {"offset": draw(st.integers(-3, 3)), "axis1": a1 - nd * draw(st.booleans()),
                 "axis2": a2}


def _make_diag_embed(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1, max_dims=2)
    nd = len(shape) + 1
    a1, a2 = draw(st.permutations(range(nd)))[:2]
    return [array(draw, st, hnp, shape)], {"offset": draw(st.integers(-2, 2)), "axis1": a1,
                                           "axis2": a2}


def _diag_embed_ref(a, offset, axis1, axis2):
    n = a.shape[-1] + abs(offset)
    out = host.zeros(a.shape[:-1] + (n, n))
    idx = host.arange(a.shape[-1])
    r, c = (idx, idx + offset) if offset >= 0 else (idx - offset, idx)
    out[..., r, c] = a
    nd = a.ndim + 1
    order = [None] * nd
    order[axis1], order[axis2] = nd - 2, nd - 1
    it = iter(range(nd - 2))
    return out.transpose([o if o is not None else next(it) for o in order])


def _make_roll(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    nd = len(shape)
    if draw(st.booleans()):
        return [array(draw, st, hnp, shape)], {"shifts": draw(st.integers(-5, 5)), "axes": None}
    axes = draw(st.lists(st.integers(-nd, nd - 1), min_size=1, max_size=3))
    shifts = [draw(st.integers(-5, 5)) for _ in axes]
    return [array(draw, st, hnp, shape)], {"shifts": shifts, "axes": axes}


def _make_rot90(draw, st, hnp):
    a, shape = _matrix(draw, st, hnp)
    a0, a1 = draw(st.permutations(range(len(shape))))[:2]
    return [a], {"k": draw(st.integers(-5, 5)), "axes": (a0, a1)}


def _make_select(draw, st, hnp):
    a, shape = _matrix(draw, st, hnp, 1)
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    return [a], {"axis": axis, "index": draw(st.integers(-shape[axis], shape[axis] - 1))}


def _make_axis(draw, st, hnp):
    a, shape = _matrix(draw, st, hnp, 1)
    return [a], {"axis": draw(st.integers(-len(shape), len(shape) - 1))}


def _make_vectors(draw, st, hnp):
    k = draw(st.integers(1, 3))
    return [array(draw, st, hnp, (draw(st.integers(1, 4)),)) for _ in range(k)], \
        {"indexing": draw(st.sampled_from(["ij", "xy"]))}


def _weighted_list(parts):
    return concatenate([reshape(_m(p, float(i + 1)), (-1,)) for i, p in enumerate(parts)], 0)


def _make_repeat(draw, st, hnp):
    a, shape = _matrix(draw, st, hnp, 0)
    axis = draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1))) \
        if shape else None
    n = a.size if axis is None else shape[axis]
    if draw(st.booleans()):
        reps = draw(st.integers(0, 3))
    else:
        reps = host.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)),
                          dtype=int64)
    return [a], {"repeats": reps, "axis": axis}


def _repeat_ref(a, repeats, axis):
    return host.repeat(a, repeats, axis=axis)


def _make_stackable(draw, st, hnp):
    shape = draw(st.sampled_from([(), (3,), (2, 3), (2, 3, 2)]))
    k = draw(st.integers(1, 3))
    return [array(draw, st, hnp, shape) for _ in range(k)], {}


def _make_tensor_split(draw, st, hnp):
    a, shape = _matrix(draw, st, hnp, 1)
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    if draw(st.booleans()):
        return [a], {"sections": draw(st.integers(1, 5)), "indices": None, "axis": axis}
    return [a], {"sections": None, "indices": sorted(draw(st.lists(
        st.integers(0, shape[axis] + 1), max_size=3))), "axis": axis}


def _tensor_split_ref(a, sections, indices, axis):
    parts = host.array_split(a, sections if indices is None else indices, axis)
    return host.concatenate([(i + 1.0) * p.reshape(-1) for i, p in enumerate(parts)])


def _make_unflatten(draw, st, hnp):
    a, shape = _matrix(draw, st, hnp, 1)
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    sizes = draw(st.sampled_from([[n], [1, n], [n, 1], [-1], [1, -1, 1]]))
    return [a], {"axis": axis, "sizes": sizes}


def _unflatten_ref(a, axis, sizes):
    axis %= a.ndim
    return a.reshape(a.shape[:axis] + tuple(sizes) + a.shape[axis + 1:])


def _make_scatter(draw, st, hnp, value=False):
    shape = small_shape(draw, hnp, min_dims=1)
    nd = len(shape)
    axis = draw(st.integers(-nd, nd - 1))
    ishape = [draw(st.integers(0, s)) for s in shape]
    n = shape[axis]
    ishape[axis] = draw(st.integers(0, n))
    # distinct targets along the axis (torch leaves the order of repeats open)
    perm = host.array(draw(st.permutations(range(n))), dtype=int64)[:ishape[axis]]
    index = host.broadcast_to(perm.reshape([-1 if d == axis % nd else 1 for d in range(nd)]),
                              ishape).copy()
    sshape = tuple(i + draw(st.integers(0, 1)) for i in ishape)
    arrays = [array(draw, st, hnp, shape)]
    if value:
        return arrays, {"axis": axis, "index": index, "value": draw(st.floats(-2, 2))}
    return arrays + [array(draw, st, hnp, sshape)], {"axis": axis, "index": index}


def _scatter_ref(a, src, axis, index):
    out = a.copy()
    key = tuple(index if d == axis % a.ndim else host.arange(index.shape[d]).reshape(
        [-1 if e == d else 1 for e in range(a.ndim)]) for d in range(a.ndim))
    out[key] = src[tuple(slice(0, n) for n in index.shape)]
    return out


def _scatter_add_ref(a, src, axis, index):
    out = a.copy()
    key = tuple(index if d == axis % a.ndim else host.arange(index.shape[d]).reshape(
        [-1 if e == d else 1 for e in range(a.ndim)]) for d in range(a.ndim))
    host.add.at(out, key, src[tuple(slice(0, n) for n in index.shape)])
    return out


def _scatter_value_ref(a, axis, index, value):
    out = a.copy()
    key = tuple(index if d == axis % a.ndim else host.arange(index.shape[d]).reshape(
        [-1 if e == d else 1 for e in range(a.ndim)]) for d in range(a.ndim))
    out[key] = value
    return out


def _make_index_add(draw, st, hnp, repeats=True):
    shape = small_shape(draw, hnp, min_dims=1)
    nd = len(shape)
    axis = draw(st.integers(-nd, nd - 1))
    n = shape[axis]
    if repeats:
        index = host.array(draw(st.lists(st.integers(-n, n - 1), max_size=4)), dtype=int64)
    else:
        index = host.array(draw(st.permutations(range(n))), dtype=int64)[
            :draw(st.integers(0, n))]
    sshape = list(shape)
    sshape[axis] = index.size
    return [array(draw, st, hnp, shape), array(draw, st, hnp, tuple(sshape))], \
        {"axis": axis, "index": index}


def _index_add_ref(a, src, axis, index, alpha=1):
    out = a.copy()
    host.add.at(out, (slice(None),) * (axis % a.ndim) + (index,), alpha * src)
    return out


def _index_copy_ref(a, src, axis, index):
    out = a.copy()
    out[(slice(None),) * (axis % a.ndim) + (index,)] = src
    return out


def _make_index_put(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    k = draw(st.integers(1, len(shape)))
    length = draw(st.integers(0, 4))
    acc = draw(st.booleans())
    if acc:
        idx = [host.array(draw(st.lists(st.integers(-s, s - 1), min_size=length,
                                        max_size=length)), dtype=int64) for s in shape[:k]]
    else:  # distinct positions: torch leaves the order of repeats open
        cells = list(itertools.product(*[range(s) for s in shape[:k]]))
        pick = draw(st.permutations(range(len(cells))))[:length]
        idx = [host.array([cells[p][d] for p in pick], dtype=int64) for d in range(k)]
    vshape = (len(idx[0]),) + shape[k:]
    if draw(st.booleans()):
        vshape = vshape[1:] if len(vshape) > 1 else ()
    return [array(draw, st, hnp, shape), array(draw, st, hnp, vshape)], \
        {"indices": idx, "accumulate": acc}


def _index_put_ref(a, v, indices, accumulate):
    out = a.copy()
    key = tuple(indices)
    if accumulate:
        host.add.at(out, key, host.broadcast_to(v, out[key].shape))
    else:
        out[key] = v
    return out


def _make_masked_scatter(draw, st, hnp):
    shape = small_shape(draw, hnp)
    mask = draw(hnp.arrays(host.bool_, shape))
    n = int(mask.sum())
    return [array(draw, st, hnp, shape), array(draw, st, hnp, (n + draw(st.integers(0, 2)),))], \
        {"mask": mask}


def _masked_scatter_ref(a, src, mask):
    out = a.copy()
    out[mask] = src[:int(mask.sum())]
    return out


def _make_take(draw, st, hnp):
    a, shape = _matrix(draw, st, hnp, 0)
    n = a.size
    idx = draw(hnp.arrays(int64, small_shape(draw, hnp, max_dims=2),
                          elements=st.integers(-n, n - 1)))
    return [a], {"index": idx}


def _make_take_along(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    nd = len(shape)
    axis = draw(st.one_of(st.none(), st.integers(-nd, nd - 1)))
    if axis is None:
        n = _prod(shape)
        idx = draw(hnp.arrays(int64, (draw(st.integers(0, 4)),), elements=st.integers(0, n - 1)))
        return [array(draw, st, hnp, shape)], {"index": idx, "axis": None}
    ishape = [draw(st.sampled_from([s, 1])) for s in shape]
    xshape = [s if i != 1 or draw(st.booleans()) else s for s, i in zip(shape, ishape)]
    ishape[axis] = draw(st.integers(0, 4))
    idx = draw(hnp.arrays(int64, tuple(ishape), elements=st.integers(0, shape[axis] - 1)))
    return [array(draw, st, hnp, tuple(xshape))], {"index": idx, "axis": axis}


def _take_along_ref(a, index, axis):
    if axis is None:
        return a.reshape(-1)[index]
    axis %= a.ndim
    s1, i1 = list(a.shape), list(index.shape)
    s1[axis] = i1[axis] = 1
    b = host.broadcast_shapes(tuple(s1), tuple(i1))
    bx, bi = list(b), list(b)
    bx[axis], bi[axis] = a.shape[axis], index.shape[axis]
    return host.take_along_axis(host.broadcast_to(a, bx), host.broadcast_to(index, bi), axis)


_EINSUMS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,j->i", [(3, 2), (2,)]), ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]), ("ij->ji", [(2, 3)]), ("bij,bjk->bik", [(2, 3, 2), (2, 2, 4)]),
    ("i,i->", [(3,), (3,)]), ("i,j->ij", [(2,), (3,)]), ("...ij,...jk", [(2, 2, 3), (3, 2)]),
    ("ijk->", [(2, 3, 2)]), ("iij->ji", [(2, 2, 3)]), ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]),
    ("bi,bi->b", [(1, 3), (4, 3)]), ("ij,ik", [(2, 3), (2, 2)]), ("i,i,i->i", [(3,)] * 3),
    ("bqd,bkd->bqk", [(2, 3, 2), (2, 4, 2)]), ("...", [(2, 3)]), ("ij,i->j", [(1, 3), (2,)]),
]


def _make_einsum(draw, st, hnp):
    eq, shapes = draw(st.sampled_from(_EINSUMS))
    return [array(draw, st, hnp, s) for s in shapes], {"equation": eq}


def _make_pair(draw, st, hnp):
    sa = small_shape(draw, hnp, max_dims=2)
    sb = small_shape(draw, hnp, max_dims=3)
    return [array(draw, st, hnp, sa), array(draw, st, hnp, sb)], {}


def _make_combinations(draw, st, hnp):
    return [array(draw, st, hnp, (draw(st.integers(0, 4)),))], \
        {"r": draw(st.integers(1, 3)), "with_replacement": draw(st.booleans())}


def _combinations_ref(a, r, with_replacement):
    make = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    rows = list(make(range(a.shape[0]), r))
    return host.array([[a[i] for i in row] for row in rows]).reshape(len(rows), r)


def _w(fn):
    """A spec fn giving a list of tensors, weighted and joined (one output to check)."""
    def run(*ts, **kw):
        return _weighted_list(fn(*ts, **kw))
    return run


def _wref(fn):
    def run(*arrs, **kw):
        parts = fn(*arrs, **kw)
        return host.concatenate([(i + 1.0) * p.reshape(-1)  # host-ok: a test reference
                                 for i, p in enumerate(parts)])
    return run


def _as_t(x, a):
    return type(x).wrap(a)


spec("tril", tril, _make_tri, ref=lambda a, k: host.tril(a, k))
spec("triu", triu, _make_tri, ref=lambda a, k: host.triu(a, k))
spec("diagonal", diagonal, _make_diagonal, ref=lambda a, offset, axis1, axis2:
     host.diagonal(a, offset, axis1, axis2))
spec("diag_embed", diag_embed, _make_diag_embed, ref=_diag_embed_ref)
spec("trace", trace, _make_diagonal, ref=lambda a, offset, axis1, axis2:
     host.trace(a, offset, axis1, axis2))
spec("roll", roll, _make_roll, ref=lambda a, shifts, axes: host.roll(a, shifts, axes))
spec("rot90", rot90, _make_rot90, ref=lambda a, k, axes: host.rot90(a, k, axes))
spec("select", select, _make_select,
     ref=lambda a, axis, index: host.take(a, index, axis=axis))
spec("unbind", _w(unbind), _make_axis,
     ref=_wref(lambda a, axis: [host.take(a, i, axis=axis) for i in range(a.shape[axis])]))
spec("movedim", movedim, _make_moveaxis, ref=host.moveaxis)
spec("meshgrid", lambda *ts, indexing: _weighted_list(meshgrid(ts, indexing)), _make_vectors,
     ref=lambda *arrs, indexing: host.concatenate([(i + 1.0) * g.reshape(-1) for i, g in
                                                   enumerate(host.meshgrid(*arrs,
                                                                           indexing=indexing))]))
spec("repeat_interleave", lambda x, repeats, axis: repeat_interleave(
    x, repeats if isinstance(repeats, int) else _as_t(x, repeats), axis), _make_repeat,
    ref=_repeat_ref)
spec("broadcast_tensors", lambda *ts: _weighted_list(broadcast_tensors(ts)),
     lambda d, st, hnp: _make_bcast(d, st, hnp),
     ref=lambda *arrs: host.concatenate([(i + 1.0) * g.reshape(-1) for i, g in
                                         enumerate(host.broadcast_arrays(*arrs))]))
for _n, _f, _r in (("atleast_1d", 1, host.atleast_1d), ("atleast_2d", 2, host.atleast_2d),
                   ("atleast_3d", 3, host.atleast_3d)):
    spec(_n, lambda x, _k=_f: atleast(x, _k), lambda d, st, hnp: (
        [_matrix(d, st, hnp, 0)[0]], {}), ref=_r)
spec("hstack", lambda *ts: hstack(ts), _make_stackable, ref=lambda *a: host.hstack(a))
spec("vstack", lambda *ts: vstack(ts), _make_stackable, ref=lambda *a: host.vstack(a))
spec("dstack", lambda *ts: dstack(ts), _make_stackable, ref=lambda *a: host.dstack(a))
spec("column_stack", lambda *ts: column_stack(ts), lambda d, st, hnp: (
    [array(d, st, hnp, s) for s in d(st.sampled_from([[(3,), (3, 2)], [(), ()], [(2, 2)]]))],
    {}), ref=lambda *a: host.column_stack(a))
spec("tensor_split", lambda x, **kw: _weighted_list(tensor_split(x, **kw)), _make_tensor_split,
     ref=_tensor_split_ref)
spec("unflatten", unflatten, _make_unflatten, ref=_unflatten_ref)
spec("scatter", lambda x, s, axis, index: scatter(x, axis, _as_t(x, index), s), _make_scatter,
     ref=_scatter_ref)
spec("scatter_value", lambda x, axis, index, value: scatter(x, axis, _as_t(x, index), value),
     lambda d, st, hnp: _make_scatter(d, st, hnp, value=True), ref=_scatter_value_ref)
spec("scatter_add", lambda x, s, axis, index: scatter_add(x, axis, _as_t(x, index), s),
     _make_scatter, ref=_scatter_add_ref)
spec("index_add_along", lambda x, s, axis, index: index_add_along(
    x, axis, _as_t(x, index), s, 2.0), _make_index_add,
    ref=lambda a, s, axis, index: _index_add_ref(a, s, axis, index, 2.0))
spec("index_copy", lambda x, s, axis, index: index_copy(x, axis, _as_t(x, index), s),
     lambda d, st, hnp: _make_index_add(d, st, hnp, repeats=False), ref=_index_copy_ref)
spec("index_fill", lambda x, axis, index: index_fill(x, axis, _as_t(x, index), 1.5),
     lambda d, st, hnp: (lambda arrs, kw: (arrs[:1], kw))(*_make_index_add(d, st, hnp)),
     ref=lambda a, axis, index: _index_copy_ref(a, 1.5, axis, index))
spec("index_put", lambda x, v, indices, accumulate: index_put(
    x, [_as_t(x, i) for i in indices], v, accumulate), _make_index_put, ref=_index_put_ref)
spec("masked_scatter", lambda x, s, mask: masked_scatter(x, _as_t(x, mask), s),
     _make_masked_scatter, ref=_masked_scatter_ref)
spec("take_flat", lambda x, index: take_flat(x, _as_t(x, index)), _make_take,
     ref=lambda a, index: a.reshape(-1)[index])
spec("take_along", lambda x, index, axis: take_along(x, _as_t(x, index), axis),
     _make_take_along, ref=_take_along_ref)
spec("einsum", lambda *ts, equation: einsum(equation, ts), _make_einsum,
     ref=lambda *arrs, equation: host.einsum(equation, *arrs))
spec("tensordot", tensordot, lambda d, st, hnp: _make_tensordot2(d, st, hnp),
     ref=lambda a, b, axes: host.tensordot(a, b, axes))
spec("kron", kron, _make_pair, ref=host.kron)
spec("cartesian_prod", lambda *ts: cartesian_prod(ts), lambda d, st, hnp: (
    [array(d, st, hnp, (d(st.integers(1, 3)),)) for _ in range(d(st.integers(1, 3)))], {}),
    ref=lambda *arrs: arrs[0] if len(arrs) == 1 else host.stack(
        [g.reshape(-1) for g in host.meshgrid(*arrs, indexing="ij")], 1))
spec("combinations", combinations, _make_combinations, ref=_combinations_ref)


def _make_bcast(draw, st, hnp):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3))
    k = draw(st.integers(1, 3))
    return [array(draw, st, hnp, s) for s in shapes.input_shapes[:k]], {}


def _make_tensordot2(draw, st, hnp):
    kind = draw(st.sampled_from([0, 1, 2, "pairs"]))
    if kind == "pairs":
        return [array(draw, st, hnp, (2, 3, 4)), array(draw, st, hnp, (4, 2, 3))], \
            {"axes": ([0, 2], [1, 0])}
    b = {0: (2,), 1: (2, 3), 2: (3, 2, 2)}[kind]
    return [array(draw, st, hnp, (2, 3, 2)), array(draw, st, hnp, b)], {"axes": kind}


def _scatter_reduced_ref(a, src, axis, index, reduce):
    out = a.copy()
    key = tuple(index if d == axis % a.ndim else host.arange(index.shape[d]).reshape(
        [-1 if e == d else 1 for e in range(a.ndim)]) for d in range(a.ndim))
    vals = src[tuple(slice(0, n) for n in index.shape)]
    (host.add if reduce == "add" else host.multiply).at(out, key, vals)
    return out


def _make_scatter_reduced(draw, st, hnp):
    arrays, kw = _make_scatter(draw, st, hnp)
    return arrays, dict(kw, reduce="multiply")  # (add is scatter_add, with its derivative)


spec("scatter_reduced", lambda x, s, axis, index, reduce: scatter_reduced(
    x, axis, _as_t(x, index), s, reduce), _make_scatter_reduced, ref=_scatter_reduced_ref,
    differentiable=False)
