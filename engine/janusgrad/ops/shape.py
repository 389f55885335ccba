"""Shape ops: views and rearrangements whose rules are their own adjoints."""
from __future__ import annotations

from janusgrad.array.backend import MODULES, as_array, host, ndarray
from janusgrad.array.dtypes import DIM, PromotionError, result_type
from janusgrad.core.tensor import record
from janusgrad.core.views import mark_view
from janusgrad.ops import check_same_device, defop, spec
from janusgrad.ops.elementwise import cast, mul
from janusgrad.ops.rules import rule_arrays, rule_tensors
from janusgrad.ops.testing import array, small_shape


def _norm_axis(axis, ndim):
    return axis + ndim if axis < 0 else axis


def checked_axis(x, op: str, axis: int, ndim: int | None = None) -> int:
    """``axis`` made non-negative; out of range raises ``invalid("axis", ...)``.

    The facts are ``op``, ``axis`` (as given) and ``ndim``; frontends word the
    framework's "dimension out of range" error from them.
    """
    if ndim is None:
        ndim = x.array.ndim
    n = ndim if ndim else 1  # a 0-d tensor accepts axis 0 and -1, as in torch
    if not -n <= axis < n:
        raise x.dialect.invalid(
            "axis", f"axis {axis} is out of range for {ndim} dimensions (op {op})",
            caller=op, axis=axis, ndim=ndim)
    return axis + n if axis < 0 else axis


# ---------------------------------------------------------------- sum_to <-> broadcast_to
def sum_to_array(a, shape: tuple):
    """The array ``a`` summed down to ``shape`` (which it broadcasts from)."""
    lead = a.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and a.shape[i + lead] != 1)
    out = a.sum(axis=axes, keepdims=True) if axes else a
    if lead:
        out = out.reshape(shape)
    return out if type(out) is ndarray else as_array(out)


def sum_to(x, shape):
    """Sum ``x`` down to ``shape`` (the adjoint of broadcasting)."""
    shape = tuple(shape)
    if x.array.shape == shape:
        return x
    return record(_sum_to, sum_to_array(x.array, shape), (x,))


def broadcast_to(x, shape, copy: bool = False):
    """Broadcast ``x`` to ``shape``; an entry -1 keeps the (right-aligned) size of x.
    A read-only view of x, as torch's expand (``copy``: a new array, as paddle's)."""
    shape = tuple(shape)
    if -1 in shape:
        lead = len(shape) - x.array.ndim
        shape = tuple(x.array.shape[i - lead] if s == -1 and i >= lead else s
                      for i, s in enumerate(shape))
    if x.array.shape == shape:
        return x
    a = x.array
    try:
        out = _np_broadcast_to(a, shape) if type(a) is ndarray else \
            MODULES[type(a)].broadcast_to(a, shape)
    except ValueError:
        raise x.dialect.invalid(
            "broadcast_to", f"cannot expand shape {tuple(x.array.shape)} to {shape}",
            in_shape=x.array.shape, shape=shape) from None
    if copy:
        return record(_broadcast_to, out.copy(), (x,))
    return mark_view(record(_broadcast_to, out, (x,)), x, broadcast_to, shape)


_np_broadcast_to = host.broadcast_to  # numpy's, bound once: the fast path of the common case
_sum_to = defop("sum_to", rule=lambda np, g, shape: np.broadcast_to(g, shape), uses="shape")
_broadcast_to = defop("broadcast_to", rule=lambda np, g, shape: np.sum_to(g, shape),
                      uses="shape")
expand = broadcast_to


# ---------------------------------------------------------------- reshape family
def reshape(x, shape):
    shape = tuple(shape)
    try:
        out = x.array.reshape(shape)
    except ValueError:
        raise x.dialect.invalid(
            "reshape", f"shape {list(shape)} is invalid for input of size {x.array.size}",
            shape=shape, size=x.array.size) from None
    return mark_view(record(_reshape, out, (x,)), x, reshape, shape)


_reshape = defop("reshape", rule=lambda np, g, shape: np.reshape(g, shape), uses="shape")


def view(x, shape):
    """``reshape`` that shares x's memory, as torch's ``view`` does (a copy would never
    pass writes on to x).  A view op's result (``x.t()``) has the framework's strides: one
    that cannot be reshaped without a copy is refused.  Any other result may be laid out
    otherwise than the framework's (numpy keeps a transposed input's order): its array is
    made C-contiguous first, where no other tensor views it."""
    a = x.array
    if a.size and not _viewable(a, shape) and type(x._view) is not tuple:
        if x._view is None or not any(r() is not None for r in x._view):
            x.array = a = MODULES[type(a)].ascontiguousarray(a)
        else:  # (its views keep the memory: a copy, as reshape makes)
            return reshape(x, shape)
    out = reshape(x, shape)
    b = out.array
    if b.size and b.base is not a and (a.base is None or b.base is not a.base):
        raise x.dialect.invalid(
            "view", "the shape cannot be viewed over the input's strides without a copy",
            incompatible_strides=True, shape=tuple(shape), in_shape=a.shape)
    return out


def _viewable(a, shape) -> bool:
    """Whether ``a`` reshapes to ``shape`` without a copy."""
    try:
        a.view().shape = shape  # numpy's in-place reshape refuses where a copy is needed
    except (AttributeError, ValueError, TypeError):
        return False
    return True


def flatten(x, start_axis=0, end_axis=-1):
    s = x.array.shape
    if not s:
        return reshape(x, (1,))
    a, b = _norm_axis(start_axis, len(s)), _norm_axis(end_axis, len(s))
    n = 1
    for d in s[a:b + 1]:
        n *= d
    return reshape(x, s[:a] + (n,) + s[b + 1:])


def squeeze(x, axis=None):
    s = x.array.shape
    if axis is None:
        new = tuple(d for d in s if d != 1)
    else:
        axis = axis if isinstance(axis, (tuple, list)) else (axis,)
        axes = {_norm_axis(a, len(s)) for a in axis}
        new = tuple(d for i, d in enumerate(s) if not (i in axes and d == 1))
    return reshape(x, new)


def unsqueeze(x, axis):
    s = list(x.array.shape)
    for a in sorted(axis) if isinstance(axis, (tuple, list)) else (axis,):
        s.insert(a + len(s) + 1 if a < 0 else a, 1)
    return reshape(x, s)


def transpose(x, axes=None):
    """Permute dimensions (reverse them when ``axes`` is None)."""
    if axes is None:
        axes = tuple(range(x.array.ndim - 1, -1, -1))
    axes = _perm(x, axes)
    out = record(_transpose, x.array.transpose(axes), (x,), attrs=axes)
    return mark_view(out, x, transpose, axes)


def _perm(x, axes) -> tuple:
    """``axes`` made non-negative, each checked in range and given once (numpy would
    wrap an axis out of range once more: -3 of two dims is 1)."""
    nd = x.array.ndim
    out = []
    for i, a in enumerate(axes):
        if not -nd <= a < max(nd, 1):
            raise x.dialect.invalid("transpose", f"axis {a} is out of range for {nd} "
                                    "dimensions", axis=a, ndim=nd, index=i)
        b = _norm_axis(a, nd)
        if b in out:
            raise x.dialect.invalid("transpose", f"axis {a} is given twice", repeated=True,
                                    axis=a, index=i)
        out.append(b)
    return tuple(out)


def _inverse(axes) -> list:
    inv = [0] * len(axes)
    for i, a in enumerate(axes):
        inv[a] = i
    return inv


_transpose = defop("transpose", rule=lambda np, g, axes: np.transpose(g, _inverse(axes)),
                   uses="attrs")


def swapaxes(x, a, b):
    axes = list(range(x.array.ndim))
    a, b = _norm_axis(a, x.array.ndim), _norm_axis(b, x.array.ndim)
    axes[a], axes[b] = axes[b], axes[a]
    return transpose(x, axes)


def moveaxis(x, source, destination):
    """numpy.moveaxis: ints or sequences of ints."""
    nd = x.array.ndim
    src = source if isinstance(source, (tuple, list)) else (source,)
    dst = destination if isinstance(destination, (tuple, list)) else (destination,)
    src = [checked_axis(x, "moveaxis", a) for a in src]
    dst = [checked_axis(x, "moveaxis", a) for a in dst]
    order = [a for a in range(nd) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)


# ---------------------------------------------------------------- flip, tile
def _axes_tuple(x, op, axes):
    if axes is None:
        return tuple(range(x.array.ndim))
    if isinstance(axes, (tuple, list)):
        return tuple(checked_axis(x, op, a) for a in axes)
    return (checked_axis(x, op, axes),)


def flip(x, axes=None):
    """Reverse the order of elements along ``axes`` (all axes for None)."""
    axes = _axes_tuple(x, "flip", axes)
    a = x.array
    # a copy: numpy's flip is a view, torch's and paddle's are not (and numpy's flip of a
    # 0-d array is a scalar)
    out = as_array(MODULES[type(a)].flip(a, axes)).copy()
    return record(_flip, out, (x,), attrs=axes)


_flip = defop("flip", rule=lambda np, g, axes: np.flip(g, axes), uses="attrs")


def tile(x, reps):
    """numpy.tile: repeat the whole of ``x`` ``reps[i]`` times along each axis."""
    reps = (reps,) if isinstance(reps, int) else tuple(int(r) for r in reps)
    if any(r < 0 for r in reps):
        raise x.dialect.invalid("tile", f"repeats must be non-negative, got {list(reps)}",
                                reps=reps)
    a = x.array
    return record(_tile, MODULES[type(a)].tile(a, reps), (x,), attrs=reps)


def _tile_rule(np, g, in_shape, reps):
    # view g as (r0, s0, r1, s1, ...) and sum the repeat axes away
    d = max(len(in_shape), len(reps))
    s = (1,) * (d - len(in_shape)) + tuple(in_shape)
    r = (1,) * (d - len(reps)) + reps
    inter = []
    for ri, si in zip(r, s):
        inter += [ri, si]
    return np.reshape(np.sum(np.reshape(g, inter), tuple(range(0, 2 * d, 2))), in_shape)


_tile = defop("tile", rule=_tile_rule, uses=("shape", "attrs"))


# ---------------------------------------------------------------- narrow <-> unnarrow
def _slab(axis: int, start: int, length: int) -> tuple:
    """The index of the slice ``start:start+length`` along ``axis``."""
    return (slice(None),) * axis + (slice(start, start + length),)


def narrow(x, axis, start, length, copy: bool = False):
    """The slice ``start:start+length`` of ``x`` along ``axis`` (a view; ``copy``: a new
    array, as paddle's split makes)."""
    axis = checked_axis(x, "narrow", axis)
    piece = x.array[_slab(axis, start, length)]
    if copy:
        return record(_narrow, piece.copy(), (x,), attrs=(axis, start))
    out = record(_narrow, piece, (x,), attrs=(axis, start))
    return mark_view(out, x, narrow, axis, start, length)


def unnarrow(g, shape, axis, start):
    """The adjoint of narrow: ``g`` placed into zeros of ``shape``."""
    return record(_unnarrow_op, unnarrow_array(g.array, shape, axis, start), (g,),
                  attrs=(axis, start))


def unnarrow_array(a, shape, axis, start):
    out = MODULES[type(a)].zeros(shape, dtype=a.dtype)
    out[_slab(axis, start, a.shape[axis])] = a
    return out


def narrow_array(a, axis, start, length):
    return a[_slab(axis, start, length)]


_narrow = defop("narrow", rule=lambda np, g, shape, attrs: np.unnarrow(g, shape, *attrs),
                uses=("shape", "attrs"))
_unnarrow_op = defop("unnarrow", uses=("shape", "attrs"), rule=lambda np, g, shape, attrs: (
    np.narrow(g, attrs[0], attrs[1], shape[attrs[0]])))


def split(x, sizes, axis=0, copy: bool = False):
    """Pieces of ``x`` along ``axis`` with the given sizes (which must add up): views of x,
    or new arrays with ``copy``."""
    if not x.array.ndim:
        raise x.dialect.invalid("split", "split expects at least a 1-dimensional tensor",
                                ndim=0)
    axis = checked_axis(x, "split", axis)
    total = x.array.shape[axis]
    sizes = [int(s) for s in sizes]
    if sum(sizes) != total or any(s < 0 for s in sizes):
        raise x.dialect.invalid(
            "split", f"split sizes {sizes} do not add up to {total} along axis {axis}",
            sizes=sizes, size=total, axis=axis)
    out, start = [], 0
    for s in sizes:
        out.append(narrow(x, axis, start, s, copy))
        start += s
    return out


# ---------------------------------------------------------------- concatenate, stack
def _joint_arrays(tensors, op):
    """The arrays of ``tensors`` cast to their common dtype, and the tensor class."""
    cls = type(tensors[0])
    arrays = [t.array for t in tensors]
    dt = arrays[0].dtype
    if any(a.dtype != dt for a in arrays):
        try:
            dt = result_type(tuple((a.dtype, DIM) for a in arrays), cls.dialect.strict_promotion)
        except PromotionError as e:
            raise cls.dialect.promotion(*e.dtypes) from None
        arrays = [a if a.dtype == dt else a.astype(dt) for a in arrays]
    return arrays, cls


def _join(cls, op: str, arrays, axis):
    """The array module's ``op`` (concatenate or stack) on ``arrays``; arrays of
    different devices raise the dialect's device error."""
    try:
        return getattr(MODULES[type(arrays[0])], op)(arrays, axis=axis)
    except TypeError:
        check_same_device(cls, op, *arrays)
        raise


def concatenate(tensors, axis=0):
    """Join tensors along an existing axis; dtypes promote as in binary ops."""
    tensors = list(tensors)
    if not tensors:
        raise tensors_required("concatenate")
    if len(tensors) > 1 and any(t.array.shape == (0,) for t in tensors):
        # torch's legacy rule: 1-D empty tensors are skipped (they still count for the dtype)
        kept = [t for t in tensors if t.array.shape != (0,)]
        if kept and any(t.array.ndim != 1 for t in kept):
            arrays, _ = _joint_arrays(tensors, "concatenate")
            dt = arrays[0].dtype
            return concatenate([cast(t, dt) for t in kept], axis)
    first = tensors[0]
    nd = first.array.ndim
    if nd == 0:
        raise first.dialect.invalid("concatenate", "zero-dimensional tensors cannot be "
                                    "concatenated", index=0)
    axis = checked_axis(first, "concatenate", axis)
    ref = first.array.shape
    for i, t in enumerate(tensors[1:], 1):
        s = t.array.shape
        if len(s) != nd:
            raise first.dialect.invalid(
                "concatenate", f"tensors must have the same number of dimensions: got {nd} "
                f"and {len(s)}", a_ndim=nd, b_ndim=len(s), index=i)
        for d in range(nd):
            if d != axis and s[d] != ref[d]:
                raise first.dialect.invalid(
                    "concatenate", f"sizes of tensors must match except in axis {axis}: "
                    f"expected size {ref[d]} but got size {s[d]} for tensor number {i}",
                    axis=axis, dim=d, expected=ref[d], got=s[d], index=i,
                    a_shape=ref, b_shape=s)
    arrays, cls = _joint_arrays(tensors, "concatenate")
    out = _join(cls, "concatenate", arrays, axis)
    sizes = tuple(a.shape[axis] for a in arrays)
    return record(_concatenate, out, tuple(tensors), attrs=(axis, sizes), cls=cls)


def tensors_required(op):
    return RuntimeError(f"{op}: expected a non-empty sequence of tensors")


def _concatenate_rule(np, g, need, attrs):
    axis, sizes = attrs
    grads, start = [], 0
    for p, s in zip(need, sizes):
        grads.append(np.narrow(g, axis, start, s) if p is not None else None)
        start += s
    return tuple(grads)


_concatenate = defop("concatenate", rule=_concatenate_rule, uses=("need", "attrs"))


def stack(tensors, axis=0):
    """Join equally shaped tensors along a new axis."""
    tensors = list(tensors)
    if not tensors:
        raise tensors_required("stack")
    first = tensors[0]
    ref = first.array.shape
    axis = checked_axis(first, "stack", axis, len(ref) + 1)
    for i, t in enumerate(tensors[1:], 1):
        if t.array.shape != ref:
            raise first.dialect.invalid(
                "stack", f"stack expects each tensor to be equal size, but got {list(ref)} "
                f"at entry 0 and {list(t.array.shape)} at entry {i}",
                a_shape=ref, b_shape=t.array.shape, index=i)
    arrays, cls = _joint_arrays(tensors, "stack")
    return record(_stack, _join(cls, "stack", arrays, axis), tuple(tensors), attrs=axis, cls=cls)


def _stack_rule(np, g, need, axis):
    shape = g.shape[:axis] + g.shape[axis + 1:]
    return tuple(np.reshape(np.narrow(g, axis, i, 1), shape) if p is not None else None
                 for i, p in enumerate(need))


_stack = defop("stack", rule=_stack_rule, uses=("need", "attrs"))


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
spec("broadcast_to", broadcast_to, _make_broadcast, ref=host.broadcast_to)
spec("reshape", reshape, _make_reshape, ref=lambda a, shape: a.reshape(shape))
spec("transpose", transpose, _make_transpose, ref=lambda a, axes: a.transpose(axes))
spec("unsqueeze", unsqueeze, _make_unsqueeze, ref=lambda a, axis: host.expand_dims(a, axis))
spec("squeeze", squeeze, lambda d, st, hnp: ([array(d, st, hnp, d(st.sampled_from(
    [(1, 3), (3, 1, 2), (1,), (), (2, 1, 1)])))], {}), ref=lambda a: a.squeeze())
spec("flatten", flatten, lambda d, st, hnp: ([_one_array(d, st, hnp)[0]], {}),
     ref=lambda a: a.reshape(-1))


def _make_concat(draw, st, hnp):
    shape = list(small_shape(draw, hnp, min_dims=1))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    arrays = []
    for _ in range(draw(st.integers(1, 3))):
        shape[axis] = draw(st.integers(1, 3))
        arrays.append(array(draw, st, hnp, tuple(shape)))
    return arrays, {"axis": axis}


def _make_stack(draw, st, hnp):
    shape = small_shape(draw, hnp)
    arrays = [array(draw, st, hnp, shape) for _ in range(draw(st.integers(1, 3)))]
    return arrays, {"axis": draw(st.integers(-len(shape) - 1, len(shape)))}


def _make_split(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    a = array(draw, st, hnp, shape)
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    total = shape[axis]
    cuts = sorted(draw(st.lists(st.integers(0, total), max_size=3)))
    sizes = [b - c for c, b in zip([0] + cuts, cuts + [total])]
    return [a], {"sizes": sizes, "axis": axis}


def _weighted_split(x, sizes, axis):
    return concatenate([mul(p, float(i + 1)) for i, p in enumerate(split(x, sizes, axis))],
                       axis)


def _weighted_split_ref(a, sizes, axis):
    parts = host.split(a, host.cumsum(sizes)[:-1], axis)
    return host.concatenate([p * (i + 1) for i, p in enumerate(parts)], axis)


def _make_axes(draw, st, hnp):
    a, shape = _one_array(draw, st, hnp)
    nd = len(shape)
    axes = draw(st.one_of(st.none(), st.lists(st.integers(-nd, nd - 1) if nd else st.just(0),
                                              max_size=nd, unique_by=lambda v: v % max(nd, 1)
                                              ).map(tuple)))
    return [a], {"axes": axes}


def _make_tile(draw, st, hnp):
    shape = small_shape(draw, hnp, max_dims=2)
    reps = tuple(draw(st.lists(st.integers(0, 3), max_size=3)))
    return [array(draw, st, hnp, shape)], {"reps": reps}


def _make_moveaxis(draw, st, hnp):
    a, shape = _one_array(draw, st, hnp)
    nd = len(shape)
    k = draw(st.integers(0, nd))
    src = tuple(draw(st.permutations(range(nd)))[:k])
    dst = tuple(draw(st.permutations(range(nd)))[:k])
    return [a], {"source": src, "destination": dst}


def _make_narrow(draw, st, hnp):
    a, shape = _one_array(draw, st, hnp)
    if not shape:
        a, shape = a.reshape(1), (1,)
    axis = draw(st.integers(0, len(shape) - 1))
    start = draw(st.integers(0, shape[axis]))
    return [a], {"axis": axis, "start": start,
                 "length": draw(st.integers(0, shape[axis] - start))}


def _make_unnarrow(draw, st, hnp):
    a, shape = _one_array(draw, st, hnp)
    if not shape:
        a, shape = a.reshape(1), (1,)
    axis = draw(st.integers(0, len(shape) - 1))
    big = list(shape)
    extra = draw(st.integers(0, 2))
    big[axis] += extra
    return [a], {"shape": tuple(big), "axis": axis, "start": draw(st.integers(0, extra))}


def _unnarrow_ref(a, shape, axis, start):
    out = host.zeros(shape)
    out[(slice(None),) * axis + (slice(start, start + a.shape[axis]),)] = a
    return out


def _make_expand(draw, st, hnp):
    [a], kw = _make_broadcast(draw, st, hnp)
    shape = list(kw["shape"])
    lead = len(shape) - a.ndim
    for i in range(a.ndim):
        if a.shape[i] == shape[lead + i] and draw(st.booleans()):
            shape[lead + i] = -1
    return [a], {"shape": tuple(shape)}


def _expand_ref(a, shape):
    lead = len(shape) - a.ndim
    return host.broadcast_to(a, tuple(a.shape[i - lead] if s == -1 else s
                                    for i, s in enumerate(shape)))


spec("expand", expand, _make_expand, ref=_expand_ref)
spec("concatenate", lambda *ts, axis: concatenate(ts, axis), _make_concat,
     ref=lambda *arrs, axis: host.concatenate(arrs, axis))
spec("stack", lambda *ts, axis: stack(ts, axis), _make_stack,
     ref=lambda *arrs, axis: host.stack(arrs, axis))
spec("split", _weighted_split, _make_split, ref=_weighted_split_ref)
spec("narrow", narrow, _make_narrow, ref=lambda a, axis, start, length: a[
    (slice(None),) * axis + (slice(start, start + length),)])
spec("unnarrow", unnarrow, _make_unnarrow, ref=_unnarrow_ref)
spec("flip", flip, _make_axes, ref=lambda a, axes: host.flip(a, axes))
spec("tile", tile, _make_tile, ref=host.tile)
spec("moveaxis", moveaxis, _make_moveaxis, ref=host.moveaxis)


@rule_arrays
def _rule_arrays(xp) -> dict:
    return {"sum_to": sum_to_array, "narrow": narrow_array, "unnarrow": unnarrow_array}


@rule_tensors
def _rule_tensors() -> dict:
    return {"broadcast_to": broadcast_to, "flip": flip, "reshape": reshape,
            "transpose": transpose, "swapaxes": swapaxes, "sum_to": sum_to, "narrow": narrow,
            "unnarrow": unnarrow}
