"""Indexing with gradients: basic and advanced getitem and its scatter-add adjoint.

``getitem`` follows numpy's indexing (ints, slices, None, Ellipsis, integer
arrays, boolean masks and mixtures); engine Tensors inside a key count as
their arrays.  Its adjoint places a gradient into zeros, adding up repeated
indices (``np.add.at``), and is an op of its own whose adjoint is getitem, so
gradients of any order flow.  Errors go through ``dialect.invalid("index",
...)`` with the facts (index, size, axis, ...).
"""
from __future__ import annotations

from janusgrad.array.backend import (
    DTYPES,
    bool_,
    broadcast_shapes,
    device_of,
    from_host,
    host,
    int64,
    is_array,
    module_for,
    ndarray,
    xp_of,
)
from janusgrad.core.tensor import Tensor, record
from janusgrad.core.views import mark_view
from janusgrad.ops import check_same_device, defop, spec
from janusgrad.ops.elementwise import broadcast_failure
from janusgrad.ops.rules import rule_arrays, rule_tensors
from janusgrad.ops.shape import broadcast_to, checked_axis
from janusgrad.ops.testing import array, small_shape

_BASIC = (int, slice, type(None), type(Ellipsis))
_UINT8 = DTYPES["uint8"]


def _convert(k, xp):
    """One item of a key as an array module takes it (Tensors and lists become arrays;
    a list is made in ``xp``, the module of the indexed array)."""
    if isinstance(k, Tensor):
        k = k.array
        if k.dtype == _UINT8:  # a byte tensor indexes as a mask, as in torch
            k = k.astype(bool_)
    elif isinstance(k, list):
        # elements that are tensors give their values (a device sync, on a device)
        k = xp.asarray([e.array.tolist() if isinstance(e, Tensor) else e for e in k]) if k \
            else xp.zeros(0, dtype=int64)
    return k


def place_key(x, key: tuple, a=None) -> tuple:
    """``key`` with its index arrays on the backend of ``a`` (default: x's array): host
    arrays are copied to the device; a device array indexing host data, or data of
    another device, is the dialect's device error."""
    if a is None:
        a = x.array
    ta = type(a)
    out = None
    for i, k in enumerate(key):
        tk = type(k)
        if tk is ta or tk in _BASIC or not is_array(k):
            continue
        if tk is ndarray:  # host indices into device data
            if out is None:
                out = list(key)
            out[i] = from_host(k, device_of(a))
        else:
            check_same_device(type(x), "index", a, k)
            raise TypeError(f"cannot index an array of type {ta.__name__} with one of "
                            f"type {tk.__name__}")
    return key if out is None else tuple(out)


def array_key(key, x=None) -> tuple:
    """``key`` as a tuple an array module can index with, always holding an Ellipsis
    (so that a full integer index gives a 0-d array view rather than a numpy scalar).
    With ``x`` (the indexed Tensor) its index arrays are placed on x's device."""
    if type(key) is not tuple:
        key = (key,)
    if not all(type(k) in _BASIC for k in key):
        xp = module_for(None) if x is None else xp_of(x.array)
        key = tuple(_convert(k, xp) for k in key)
        if x is not None:
            key = place_key(x, key)
    for k in key:
        if k is Ellipsis:
            return key
    return key + (Ellipsis,)


def _is_scatter(key) -> bool:
    """Whether the key can pick an element twice (an integer array does)."""
    for k in key:
        if is_array(k) and k.ndim and k.dtype.kind in "iu":
            return True
    return False


def _is_int_scalar(k) -> bool:
    return isinstance(k, int) or (not is_array(k) and getattr(k, "dtype", None) is not None
                                  and k.dtype.kind in "iu")


def _index_error(x, key, err, op):
    """The dialect error for a key numpy refused, with the facts found by walking it."""
    d = x.dialect
    shape = x.array.shape
    for k in key:
        if isinstance(k, (float, complex)) or (is_array(k) and k.dtype.kind not in "biu"):
            kind = k.dtype.name if is_array(k) else type(k).__name__
            return d.invalid("index", "indices must be integers, slices, None, Ellipsis, "
                             f"or integer or bool tensors (got {kind})", caller=op, key_type=kind)
    used = 0
    for k in key:
        if is_array(k) and k.dtype == bool_:
            used += k.ndim
        elif k is not None and k is not Ellipsis and not isinstance(k, bool):
            used += 1
    if used > len(shape):
        return d.invalid("index", f"too many indices for tensor of dimension {len(shape)}",
                         caller=op, ndim=len(shape), count=used)
    dim = 0
    for k in key:
        if k is Ellipsis:
            dim += len(shape) - used
        elif k is None or isinstance(k, bool):
            continue
        elif is_array(k) and k.dtype == bool_:
            want = shape[dim:dim + k.ndim]
            if k.shape != want:
                return d.invalid("index", f"the shape of the mask {list(k.shape)} at index "
                                 f"{dim} does not match the shape of the indexed tensor "
                                 f"{list(want)}", caller=op, mask_shape=k.shape, shape=want,
                                 axis=dim)
            dim += k.ndim
        else:
            size = shape[dim]
            if is_array(k):
                bad = (k < -size) | (k >= size)
                if bad.any():
                    return out_of_bounds(x, int(k[bad].reshape(-1)[0]), size, dim, op)
            elif _is_int_scalar(k) and not -size <= int(k) < size:
                return out_of_bounds(x, int(k), size, dim, op)
            dim += 1
    return d.invalid("index", str(err), caller=op)


def out_of_bounds(x, index: int, size: int, axis: int, op: str = "getitem"):
    return x.dialect.invalid("index", f"index {index} is out of bounds for axis {axis} with "
                             f"size {size}", caller=op, index=index, size=size, axis=axis)


def getitem(x, key):
    """``x[key]`` with numpy's semantics; a view when the key is basic."""
    key = array_key(key, x)
    try:
        out = x.array[key]
    except (IndexError, TypeError, ValueError) as e:
        raise _index_error(x, key, e, "getitem") from None
    return mark_view(record(_getitem, out, (x,), attrs=key), x, _take, key, "getitem")


def _take(x, key, op):
    """getitem with an already converted key, naming ``op`` in errors."""
    try:
        out = x.array[key]
    except (IndexError, TypeError, ValueError) as e:
        raise _index_error(x, key, e, op) from None
    return mark_view(record(_getitem, out, (x,), attrs=key), x, _take, key, op)


def index_add(g, shape, key):
    """zeros(shape) with ``g`` added at ``key`` (repeated indices accumulate)."""
    a = g.array
    if type(a) is not ndarray:
        key = place_key(g, key)
    return record(_index_add_op, index_add_array(a, shape, key), (g,), attrs=key)


def index_add_array(a, shape, key):
    xp = xp_of(a)
    out = xp.zeros(shape, dtype=a.dtype)
    if _is_scatter(key):
        xp.add.at(out, key, a)
    else:
        out[key] = a
    return out


_getitem = defop("getitem", rule=lambda np, g, shape, key: np.index_add(g, shape, key),
                 uses=("shape", "attrs"))
_index_add_op = defop("index_add", rule=lambda np, g, key: np.getitem(g, key), uses="attrs")
take = _take


# ---------------------------------------------------------------- index_select, gather
def _int_index(x, index, op):
    """``index`` as an integer array on x's device (host indices are copied over)."""
    a = index.array if isinstance(index, Tensor) else index
    if not is_array(a):
        a = xp_of(x.array).asarray(a)
    if a.dtype.kind not in "iu":
        raise x.dialect.invalid(op, f"{op} expects an integer index, got {a.dtype}",
                                index_dtype=a.dtype)
    if type(a) is not type(x.array):
        a = place_key(x, (a,))[0]
    return a


def index_select(x, axis, index):
    """The entries of ``x`` at positions ``index`` (1-D or 0-d) along ``axis``."""
    axis = checked_axis(x, "index_select", axis)
    idx = _int_index(x, index, "index_select")
    if idx.ndim > 1:
        raise x.dialect.invalid("index_select", "index must be 0-D or 1-D",
                                index_shape=idx.shape)
    if not x.array.ndim:  # a 0-d tensor acts as a 1-element vector, as in torch
        return index_select(_take(x, (None,), "index_select"), 0, idx)
    return _take(x, (slice(None),) * axis + (idx.reshape(-1), Ellipsis), "index_select")


def _along(x, idx, axis, sizes, op):
    """The key that picks ``idx`` along ``axis`` and position i along every other axis,
    for i < sizes[d]: torch's gather (sizes = the index's) or numpy's take_along_axis
    (sizes = the input's, broadcast against the index)."""
    nd = len(sizes)
    xp = xp_of(idx)
    key = []
    for d in range(nd):
        if d == axis:
            key.append(idx)
        else:
            shape = [1] * nd
            shape[d] = sizes[d]
            key.append(xp.arange(sizes[d]).reshape(shape))
    return tuple(key) + (Ellipsis,)


def gather(x, axis, index):
    """out[i][j][k] = x[i][index[i][j][k]][k] for axis 1 (torch.gather).

    ``index`` has x's number of dims and is no larger than x off ``axis``;
    indices must lie in [0, size).
    """
    axis = checked_axis(x, "gather", axis)
    idx = _int_index(x, index, "gather")
    xs = x.array.shape
    if idx.ndim != len(xs) and not (idx.ndim <= 1 and len(xs) <= 1):
        raise x.dialect.invalid("gather", "index must have the same number of dimensions as "
                                "the input", index_shape=idx.shape, shape=xs, axis=axis)
    if not xs:
        x1 = _take(x, (None,), "gather")
        out = gather(x1, 0, idx.reshape(-1))
        return _take(out, (0,) if not idx.ndim else (Ellipsis,), "gather")
    if not idx.ndim:  # a 0-d index into a vector picks one element
        return _take(gather(x, axis, idx.reshape(1)), (0, Ellipsis), "gather")
    for d in range(len(xs)):
        if d != axis and idx.shape[d] > xs[d]:
            raise x.dialect.invalid("gather", f"index size {idx.shape[d]} exceeds input size "
                                    f"{xs[d]} at axis {d}", index_shape=idx.shape, shape=xs,
                                    axis=axis, dim=d)
    bad = (idx < 0) | (idx >= xs[axis])
    if bad.any():  # on a device: one sync, as the bounds check of a device kernel
        raise out_of_bounds(x, int(idx[bad].reshape(-1)[0]), xs[axis], axis, "gather")
    return _take(x, _along(x, idx, axis, idx.shape, "gather"), "gather")


def take_along_axis(x, index, axis):
    """numpy.take_along_axis: like gather, but the index broadcasts against x off ``axis``."""
    axis = checked_axis(x, "take_along_axis", axis)
    idx = _int_index(x, index, "take_along_axis")
    xs = x.array.shape
    if idx.ndim != len(xs):
        raise x.dialect.invalid("take_along_axis", "index must have the same number of "
                                "dimensions as the input", index_shape=idx.shape, shape=xs,
                                axis=axis)
    sizes = list(xs)
    for d in range(len(xs)):
        if d != axis and xs[d] == 1 and idx.shape[d] != 1:
            x = broadcast_to(x, sizes[:d] + [idx.shape[d]] + sizes[d + 1:])
            sizes[d] = idx.shape[d]
    return _take(x, _along(x, idx, axis, sizes, "take_along_axis"), "take_along_axis")


def masked_select(x, mask):
    """The elements of ``x`` where ``mask`` (broadcast with x) is true, as a 1-D tensor."""
    m = mask.array if isinstance(mask, Tensor) else mask
    if not is_array(m):
        m = xp_of(x.array).asarray(m)
    if m.dtype != bool_:
        raise x.dialect.invalid("masked_select", f"mask must be a bool tensor, got {m.dtype}",
                                mask_dtype=m.dtype)
    try:
        shape = broadcast_shapes(x.array.shape, m.shape)
    except ValueError:
        raise broadcast_failure(type(x), x.array, m) from None
    if type(m) is not type(x.array):
        m = place_key(x, (m,))[0]
    return _take(broadcast_to(x, shape), (xp_of(m).broadcast_to(m, shape),), "masked_select")


# ---------------------------------------------------------------- specs
def _draw_slice(draw, st, size):
    step = draw(st.sampled_from([None, 1, 2, -1, -2]))
    bound = st.one_of(st.none(), st.integers(-size - 1, size + 1))
    return slice(draw(bound), draw(bound), step)


def _draw_key(draw, st, hnp, shape):
    """A key of one of three kinds: basic (ints, slices, None, Ellipsis), integer
    arrays with repeats (mixed with slices), or a bool mask over leading axes."""
    kind = draw(st.sampled_from(["basic", "ints", "mask"]))
    nd = len(shape)
    if kind == "mask" and nd:
        k = draw(st.integers(1, nd))
        mask = draw(hnp.arrays(host.bool_, shape[:k]))
        return (mask,) + tuple(_draw_slice(draw, st, s) for s in shape[k:])
    key = []
    if kind == "ints" and nd:
        length = draw(st.integers(0, 4))
        for s in shape:
            if draw(st.booleans()):
                key.append(host.array(draw(st.lists(st.integers(-s, s - 1), min_size=length,
                                                  max_size=length)), dtype=int64))
            else:
                key.append(_draw_slice(draw, st, s))
        return tuple(key)
    for s in shape:
        choice = draw(st.sampled_from(["int", "all", "slice"]))
        key.append(draw(st.integers(-s, s - 1)) if choice == "int" else
                   slice(None) if choice == "all" else _draw_slice(draw, st, s))
        if draw(st.integers(0, 5)) == 0:
            key.append(None)
    if key and draw(st.booleans()):
        cut = draw(st.integers(0, len(key)))
        key = key[:cut] + [Ellipsis]
    return tuple(key)


def _make_getitem(draw, st, hnp):
    shape = small_shape(draw, hnp)
    return [array(draw, st, hnp, shape)], {"key": _draw_key(draw, st, hnp, shape),
                                           "as_tensors": draw(st.booleans())}


def _getitem_case(x, key, as_tensors):
    if as_tensors:
        key = tuple(type(x).wrap(k) if is_array(k) else k for k in key)
    return getitem(x, key)


def _make_index_add(draw, st, hnp):
    shape = small_shape(draw, hnp)
    key = array_key(_draw_key(draw, st, hnp, shape))
    out_shape = host.zeros(shape)[key].shape
    return [array(draw, st, hnp, out_shape)], {"shape": shape, "key": key}


def _index_add_ref(g, shape, key):
    out = host.zeros(shape)
    host.add.at(out, key, g)
    return out


def _make_index_select(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    s = shape[axis]
    index = host.array(draw(st.lists(st.integers(-s, s - 1), max_size=5)), dtype=int64)
    return [array(draw, st, hnp, shape)], {"axis": axis, "index": index}


def _make_gather(draw, st, hnp, broadcast=False):
    shape = small_shape(draw, hnp, min_dims=1)
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    if broadcast:  # each other axis: equal sizes, or 1 on either side
        ishape = [draw(st.sampled_from([s, 1, 2])) for s in shape]
        shape = tuple(s if i == s or i == 1 else 1 for s, i in zip(shape, ishape))
    else:
        ishape = [draw(st.integers(0, s)) for s in shape]
    ishape[axis] = draw(st.integers(0, 4))
    hi = shape[axis] - 1
    index = draw(hnp.arrays(int64, tuple(ishape), elements=st.integers(0, hi)))
    kw = {"axis": axis, "index": index}
    return [array(draw, st, hnp, tuple(shape))], kw


def _gather_ref(a, axis, index):
    key = tuple(host.arange(index.shape[d]).reshape([-1 if e == d else 1
                                                   for e in range(a.ndim)])
                if d != axis % a.ndim else index for d in range(a.ndim))
    return a[key]


def _make_masked_select(draw, st, hnp):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
    a = array(draw, st, hnp, shapes.input_shapes[0])
    mask = draw(hnp.arrays(host.bool_, shapes.input_shapes[1]))
    return [a], {"mask": mask}


def _masked_select_ref(a, mask):
    shape = host.broadcast_shapes(a.shape, mask.shape)
    return host.broadcast_to(a, shape)[host.broadcast_to(mask, shape)]


spec("getitem", _getitem_case, _make_getitem,
     ref=lambda a, key, as_tensors: host.asarray(a[key]))
spec("index_add", index_add, _make_index_add, ref=_index_add_ref)
spec("index_select", lambda x, axis, index: index_select(x, axis, type(x).wrap(index)),
     _make_index_select, ref=lambda a, axis, index: host.take(a, index, axis=axis))
spec("gather", lambda x, axis, index: gather(x, axis, type(x).wrap(index)), _make_gather,
     ref=_gather_ref)
spec("take_along_axis", lambda x, axis, index: take_along_axis(x, type(x).wrap(index), axis),
     lambda d, st, hnp: _make_gather(d, st, hnp, broadcast=True),
     ref=lambda a, axis, index: host.take_along_axis(a, index, axis))
spec("masked_select", lambda x, mask: masked_select(x, type(x).wrap(mask)),
     _make_masked_select, ref=_masked_select_ref)


@rule_arrays
def _rule_arrays(xp) -> dict:
    return {"index_add": index_add_array}


@rule_tensors
def _rule_tensors() -> dict:
    return {"index_add": index_add, "getitem": lambda g, key: take(g, key, "index_add")}
