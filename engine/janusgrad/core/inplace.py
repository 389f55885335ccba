"""In-place changes of a tensor: written into its array, recorded in the graph.

An in-place op is computed out of place and its result written back into the
tensor's own array (so every alias of that array sees it); when the change is
recorded, the tensor becomes the output of the op's node, as in torch.  Every
change bumps the version counter that saved tensors are checked against.
"""
from __future__ import annotations

from janusgrad.array.backend import device_of, from_host, is_array, is_meta, ndarray, xp_of
from janusgrad.core.hooks import move_retain
from janusgrad.core.mode import GRAD_OFF, no_grad, state
from janusgrad.core.tensor import INFERENCE, Tensor, record
from janusgrad.core.views import NOGRAD_VIEWS, base_of, output_of, views_of
from janusgrad.ops import check_same_device, defop, spec
from janusgrad.ops import elementwise as E
from janusgrad.ops.elementwise import clone, mul, where_
from janusgrad.ops.index import getitem, place_key
from janusgrad.ops.shape import reshape
from janusgrad.ops.testing import array, small_shape


def _records(x, others, keywords) -> bool:
    if not state.enabled:
        return False
    if x.requires_grad and not _nograd_view(x):
        return True
    return any(isinstance(o, Tensor) and o.requires_grad
               for o in (*others, *keywords.values()))


def _nograd_view(x) -> bool:
    """A view made under no_grad that requires grad (torch): its own flag records
    nothing in place; only operands that require grad do (and are then refused)."""
    return type(x._view) is tuple and NOGRAD_VIEWS.get(id(x)) is x


def _check_inference(x) -> None:
    if x._version is INFERENCE and not state.inference:
        raise x.dialect.inference_inplace()


def _check_leaf(x, view: bool) -> None:
    if x.requires_grad and x.node is None:
        raise x.dialect.inplace_on_leaf(view, x)


def _snapshot(x):
    """x's current value as a graph tensor of its own, safe from the coming write."""
    t = type(x).wrap(x.array.copy())
    t.node = x.node
    t.requires_grad = x.requires_grad
    return t


def _write(x, result) -> None:
    data = result.array
    if data.shape != x.array.shape:
        raise x.dialect.invalid(
            "inplace", f"output with shape {list(x.array.shape)} doesn't match the broadcast "
            f"shape {list(data.shape)}", target_shape=x.array.shape, result_shape=data.shape)
    target = x.array
    if data.dtype != target.dtype and not xp_of(target).can_cast(data.dtype, target.dtype,
                                                                 "same_kind"):
        raise x.dialect.invalid(
            "inplace", f"result type {data.dtype} can't be cast to the desired output type "
            f"{target.dtype}", result_dtype=data.dtype, target_dtype=target.dtype)
    if type(data) is not type(target):  # e.g. a host tensor updated with a device one
        check_same_device(type(x), "inplace", target, data)
    if _overlapping(target):
        raise x.dialect.overlapping_write()
    target[...] = data
    x.bump_version()


def _overlapping(a) -> bool:
    """Whether elements of ``a`` share memory (a broadcast view: numpy's are read-only; a
    meta array's zero strides hold no data)."""
    if is_meta(a):
        return False
    if type(a) is ndarray:
        return not a.flags.writeable and 0 in a.strides
    return a.size > 1 and 0 in a.strides


def _adopt(x, result) -> None:
    """Make ``x`` the output of ``result``'s node (its history is rebased)."""
    before = x.node
    x.node = result.node
    x.requires_grad = result.requires_grad
    if (x.retains_grad and before is not None and x.node is not None
            and x.dialect.retain_follows_inplace):
        move_retain(x, before, x.node)  # other hooks stay with the old value's node


def _in_place_kernel(x, fn, args):
    """The array function to run ``x <- fn(x, b)`` straight into x's array, when the
    result needs no promotion and no broadcast of x (an optimiser's step on a parameter):
    one pass over the data, no temporary.  None when the general path must decide."""
    name = _UFUNC_NAMES.get(fn)
    if name is None or len(args) != 1:
        return None
    a, b = x.array, args[0]
    if a.dtype.kind != "f" or not a.flags.writeable:
        return None
    tb = type(b)
    if tb is float:
        return getattr(xp_of(a), name)
    if isinstance(b, Tensor) and type(b.array) is type(a) and b.array.dtype == a.dtype \
            and b.array.ndim <= a.ndim:
        return getattr(xp_of(a), name)
    return None


def update(x, fn, *args, **kwargs):
    """x <- fn(x, *args, **kwargs), in place.  Returns x."""
    if x._version is not None:
        _check_inference(x)
    view = None if state.mode & GRAD_OFF else _view_in_graph(x)
    if not _records(x, args, kwargs):
        kernel = (_in_place_kernel(x, fn, args) if type(x.array) is ndarray and not kwargs
                  else None)
        if kernel is not None:
            b = args[0]
            a = x.array
            try:
                kernel(a, b.array if isinstance(b, Tensor) else b, out=a)
            except ValueError:  # b does not broadcast to x: the general path words it
                pass
            else:
                x.bump_version()
                return x
        result = fn(x, *args, **kwargs)
        _write(x, result)
        return x
    _check_leaf(x, view=False)
    old = _snapshot(x)
    # x as another operand is saved as x itself (as torch does): the write below
    # changes its version, so a rule that needs it refuses to run (x.mul_(x))
    result = fn(old, *args, **kwargs)
    _write(x, result)
    _adopt(x, result)
    _follow(x, view)
    n = result.node
    if n is not None and n.out_version is not None:
        # the op saved its output, which is x from now on: later writes to x count
        n.out_version = (x.shared_version(), x.version)
    return x


def _array_key(x, key):
    """``key`` with Tensors as their arrays; on a device, host index arrays are copied
    over (a device index of host data is the dialect's device error)."""
    if isinstance(key, tuple):
        key = tuple(k.array if isinstance(k, Tensor) else k for k in key)
    elif isinstance(key, Tensor):
        key = key.array
    items = key if type(key) is tuple else (key,)
    if type(x.array) is ndarray:
        for k in items:
            if type(k) not in _HOST_KEY and is_array(k):
                break
        else:
            return key
    placed = place_key(x, items)
    return placed if type(key) is tuple else placed[0]


_HOST_KEY = frozenset((int, slice, type(None), type(Ellipsis), ndarray))


def _ufunc_names() -> dict:
    return {E.add: "add", E.sub: "subtract", E.mul: "multiply", E.div: "true_divide"}


_UFUNC_NAMES = _ufunc_names()
_NUMBERS = frozenset((float, int, bool))


def _value(x, v):
    """A value to write into x's array: an array of x's backend, or a Python value.

    A 0-d host array joins a device tensor where the dialect allows it; any other array
    of another device is the dialect's device error."""
    a = x.array
    if is_array(v):
        if type(v) is type(a):
            return v
        if (type(v) is ndarray and v.ndim == 0 and x.dialect.host_scalars_join_devices):
            return from_host(v, device_of(a))
        check_same_device(type(x), "setitem", a, v)
        raise TypeError(f"cannot write an array of type {type(v).__name__} into one of "
                        f"type {type(a).__name__}")
    if type(a) is not ndarray and isinstance(v, (list, tuple)):
        return xp_of(a).asarray(v)
    return v


def _setitem_vjp(n, g):
    key, mask = n.attrs
    gx = where_(type(g).wrap(mask), 0.0, g) if n.parents[0] is not None else None
    gv = None
    if n.parents[1] is not None:
        gv = getitem(g, key)
        lead = len(n.shapes[1]) - gv.array.ndim
        if lead > 0:  # the value's leading 1-sized dims, dropped when it was written
            gv = reshape(gv, (1,) * lead + gv.array.shape)
    return gx, gv


_setitem = defop("setitem", _setitem_vjp)


def setitem(x, key, value):
    """x[key] = value, in place (``value`` a Tensor or a scalar)."""
    if x._version is not None:
        _check_inference(x)
    akey = _array_key(x, key)
    v = value.array if isinstance(value, Tensor) else value
    if type(v) is not type(x.array) and type(v) not in _NUMBERS:
        v = _value(x, v)
    given = getattr(v, "shape", ())
    if given and given[0] == 1:
        # both frameworks drop a value's leading 1-sized dims (x[i] = t of shape (1, 1));
        # numpy keeps them, and refuses such a value for a single element
        lead = next((i for i, d in enumerate(given) if d != 1), v.ndim)
        v = v.reshape(given[lead:])
    view = None if state.mode & GRAD_OFF else _view_in_graph(x)
    if not _records(x, (value,), {}):
        _assign(x, x.array, akey, v, given)
        x.bump_version()
        return x
    _check_leaf(x, view=True)
    old = _snapshot(x)
    out = old.array.copy()
    _assign(x, out, akey, v, given)
    mask = xp_of(out).zeros(out.shape, dtype=bool)
    mask[akey] = True
    result = record(_setitem, out, (old, value), attrs=(akey, mask), cls=type(x))
    x.array[...] = out
    x.bump_version()
    _adopt(x, result)
    _follow(x, view)
    return x


def _assign(x, target, key, v, given) -> None:
    """target[key] = v; a value that does not broadcast to the selection is the dialect's
    error (``given``: the value's shape as the user gave it)."""
    try:
        target[key] = v
    except ValueError:
        if not hasattr(v, "shape"):
            raise
        raise x.dialect.invalid("setitem", f"a value of shape {list(given)} cannot be "
                                f"written to a selection of shape {list(target[key].shape)}",
                                value_shape=tuple(v.shape), given_shape=tuple(given),
                                target_shape=tuple(target[key].shape),
                                dtype=v.dtype) from None


# ---------------------------------------------------------------- views (torch's CopySlices)
def _view_in_graph(x):
    """(base, replay) when an in-place change of ``x`` under grad mode must also rewrite its
    base's history (x is a view and the dialect asks for it); refuses, as torch does, a view
    of a leaf that requires grad and a view made under no_grad of a base that requires it."""
    if not x.dialect.inplace_view_rebases_base:
        return None
    found = base_of(x)
    if found is None:
        return None
    several = output_of(x)
    if several is not None and x.requires_grad:
        raise x.dialect.multi_output_view_modified(*several)
    base = found[0]
    if base.requires_grad:
        if base.node is None:
            raise x.dialect.inplace_on_leaf(True, base)
        if not x.requires_grad or _nograd_view(x):  # made under no_grad from such a base
            raise x.dialect.no_grad_view_modified()
    return found


def _follow(x, view) -> None:
    """After a recorded in-place change of ``x``: where the dialect asks for it, the base of
    x (``view``: (base, replay), when x is a view) takes the change into its history, and
    every other live view of the changed memory is made again from its base, so that its
    history follows too (torch regenerates such a view's grad_fn)."""
    if not x.dialect.inplace_view_rebases_base:
        return
    if view is not None:
        _rebase(*view, x)
        base = view[0]
    else:
        base = x
    for v in views_of(base):  # x too, when it is a view: a view of the new base
        remade = base_of(v)[1](base)
        v.node, v._rg = remade.node, remade._rg
        x.dialect.remade_view(v)


def _rebase(base, replay, view) -> None:
    """``view`` was changed in place (its new values are in the base's memory already):
    the base becomes its old value with the view's elements replaced by ``view``'s."""
    old = type(base).wrap(base.array)  # the values the rule needs are none: its history
    old.node, old._rg = base.node, base._rg
    mask = type(base).wrap(xp_of(base.array).ones_like(base.array))
    with no_grad():
        replay(mask).array[...] = 0  # 0 where the view's elements are
    result = record(_copy_slices, base.array, (old, view), attrs=(replay, mask))
    _adopt(base, result)  # (the write through the view has counted the base's version)


def _copy_slices_vjp(n, g):
    replay, mask = n.attrs
    g_base = mul(g, mask) if n.parents[0] is not None else None
    g_view = clone(replay(g)) if n.parents[1] is not None else None
    return g_base, g_view


_copy_slices = defop("copy_slices", _copy_slices_vjp)


def fill(x, value):
    return setitem(x, Ellipsis, value)


def zero(x):
    return setitem(x, Ellipsis, 0)


def _set_head(x, v):
    """clone(x) with its first row replaced by v: setitem on a non-leaf, as a pure function."""
    y = clone(x)
    return setitem(y, slice(0, 1), v)


def _set_head_ref(a, v):
    out = a.copy()
    out[0:1] = v
    return out


def _make_set_head(draw, st, hnp):
    shape = small_shape(draw, hnp, min_dims=1)
    return [array(draw, st, hnp, shape), array(draw, st, hnp, (1,) + tuple(shape[1:]))], {}


spec("setitem", _set_head, _make_set_head, ref=_set_head_ref)


def _double_head(x, v):
    """clone(x) with its first row replaced by 2*v through a view of it: an in-place change
    of a view (torch's CopySlices), as a pure function."""
    y = clone(x)
    head = getitem(y, slice(0, 1))
    new = mul(v, 2.0)
    head.array[...] = new.array  # the write through the view
    _rebase(y, base_of(head)[1], new)
    return y


def _double_head_ref(a, v):
    out = a.copy()
    out[0:1] = 2 * v
    return out


spec("copy_slices", _double_head, _make_set_head, ref=_double_head_ref)
