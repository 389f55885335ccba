"""Shape ops: views and rearrangements whose rules are their own adjoints."""
from __future__ import annotations

from ..backend import xp
from ..tensor import record
from . import defop, spec
from .testing import array, small_shape


def _norm_axis(axis, ndim):
    return axis + ndim if axis < 0 else axis


# ---------------------------------------------------------------- sum_to <-> broadcast_to
def sum_to(x, shape):
    """Sum ``x`` down to ``shape`` (the adjoint of broadcasting)."""
    shape = tuple(shape)
    if x.data.shape == shape:
        return x
    lead = x.data.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and x.data.shape[i + lead] != 1)
    out = x.data.sum(axis=axes, keepdims=True) if axes else x.data
    if lead:
        out = out.reshape(shape)
    return record(_sum_to, xp.asarray(out), (x,))


def broadcast_to(x, shape):
    shape = tuple(shape)
    if x.data.shape == shape:
        return x
    try:
        out = xp.broadcast_to(x.data, shape)
    except ValueError:
        raise x.dialect.invalid(
            "broadcast_to", f"cannot expand shape {tuple(x.data.shape)} to {shape}",
            in_shape=x.data.shape, shape=shape) from None
    return record(_broadcast_to, out, (x,))


_sum_to = defop("sum_to", lambda n, g: (broadcast_to(g, n.shapes[0]),))
_broadcast_to = defop("broadcast_to", lambda n, g: (sum_to(g, n.shapes[0]),))


# ---------------------------------------------------------------- reshape family
def reshape(x, shape):
    shape = tuple(shape)
    try:
        out = x.data.reshape(shape)
    except ValueError:
        raise x.dialect.invalid(
            "reshape", f"shape {list(shape)} is invalid for input of size {x.data.size}",
            shape=shape, size=x.data.size) from None
    return record(_reshape, out, (x,))


_reshape = defop("reshape", lambda n, g: (reshape(g, n.shapes[0]),))


def flatten(x, start_axis=0, end_axis=-1):
    s = x.data.shape
    if not s:
        return reshape(x, (1,))
    a, b = _norm_axis(start_axis, len(s)), _norm_axis(end_axis, len(s))
    n = 1
    for d in s[a:b + 1]:
        n *= d
    return reshape(x, s[:a] + (n,) + s[b + 1:])


def squeeze(x, axis=None):
    s = x.data.shape
    if axis is None:
        new = tuple(d for d in s if d != 1)
    else:
        axes = {_norm_axis(a, len(s)) for a in (axis if isinstance(axis, (tuple, list)) else (axis,))}
        new = tuple(d for i, d in enumerate(s) if not (i in axes and d == 1))
    return reshape(x, new)


def unsqueeze(x, axis):
    s = list(x.data.shape)
    for a in sorted(axis) if isinstance(axis, (tuple, list)) else (axis,):
        s.insert(a + len(s) + 1 if a < 0 else a, 1)
    return reshape(x, s)


def transpose(x, axes=None):
    """Permute dimensions (reverse them when ``axes`` is None)."""
    if axes is None:
        axes = tuple(range(x.data.ndim - 1, -1, -1))
    axes = tuple(_norm_axis(a, x.data.ndim) for a in axes)
    return record(_transpose, x.data.transpose(axes), (x,), attrs=axes)


def _transpose_vjp(n, g):
    inv = [0] * len(n.attrs)
    for i, a in enumerate(n.attrs):
        inv[a] = i
    return (transpose(g, inv),)


_transpose = defop("transpose", _transpose_vjp)


def swapaxes(x, a, b):
    axes = list(range(x.data.ndim))
    a, b = _norm_axis(a, x.data.ndim), _norm_axis(b, x.data.ndim)
    axes[a], axes[b] = axes[b], axes[a]
    return transpose(x, axes)


# ---------------------------------------------------------------- specs
def _one_array(draw, st, hnp):
    shape = small_shape(draw, hnp)
    return array(draw, st, hnp, shape), shape


def _make_sum_to(draw, st, hnp):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
    small = shapes.input_shapes[0]
    return [array(draw, st, hnp, shapes.result_shape)], {"shape": small}


def _make_broadcast(draw, st, hnp):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
    return [array(draw, st, hnp, shapes.input_shapes[0])], {"shape": shapes.result_shape}


def _make_reshape(draw, st, hnp):
    a, shape = _one_array(draw, st, hnp)
    return [a], {"shape": (a.size,) if draw(st.booleans()) else tuple(reversed(shape))}


def _make_transpose(draw, st, hnp):
    a, shape = _one_array(draw, st, hnp)
    return [a], {"axes": tuple(draw(st.permutations(range(len(shape)))))}


def _make_unsqueeze(draw, st, hnp):
    a, shape = _one_array(draw, st, hnp)
    return [a], {"axis": draw(st.integers(-len(shape) - 1, len(shape)))}


spec("sum_to", sum_to, _make_sum_to,
     ref=lambda a, shape: a.sum(axis=tuple(range(a.ndim - len(shape))) + tuple(
         i + a.ndim - len(shape) for i, s in enumerate(shape)
         if s == 1 and a.shape[i + a.ndim - len(shape)] != 1), keepdims=True).reshape(shape))
spec("broadcast_to", broadcast_to, _make_broadcast, ref=xp.broadcast_to)
spec("reshape", reshape, _make_reshape, ref=lambda a, shape: a.reshape(shape))
spec("transpose", transpose, _make_transpose, ref=lambda a, axes: a.transpose(axes))
spec("unsqueeze", unsqueeze, _make_unsqueeze, ref=lambda a, axis: xp.expand_dims(a, axis))
spec("squeeze", squeeze, lambda d, st, hnp: ([array(d, st, hnp, d(st.sampled_from(
    [(1, 3), (3, 1, 2), (1,), (), (2, 1, 1)])))], {}), ref=lambda a: a.squeeze())
spec("flatten", flatten, lambda d, st, hnp: ([_one_array(d, st, hnp)[0]], {}),
     ref=lambda a: a.reshape(-1))
