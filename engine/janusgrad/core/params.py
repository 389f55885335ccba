"""Writes into parameters and their gradients that no graph records: resetting gradients
and loading values (a module's or an optimiser's zero_grad / clear_grad, a checkpoint's
load, a parameter's set_value)."""
from __future__ import annotations

from janusgrad.array.backend import as_array, device_of, to_device, xp_of
from janusgrad.core.tensor import Tensor


def zero_grad_(t) -> None:
    """Set ``t``'s gradient to zeros, in a fresh array of its shape, dtype and device (the
    gradient's array may be a read-only broadcast view); its version moves.  A tensor with
    no gradient keeps none."""
    g = t._grad
    if g is None:
        return
    g.array = xp_of(g.array).zeros_like(g.array)
    g.bump_version()


def reset_grads(params, set_to_none: bool = True) -> None:
    """Drop each parameter's gradient, or (``set_to_none`` false) zero it, detached from
    the graph that made it."""
    for p in params:
        if p._grad is None:
            continue
        if set_to_none:
            p._grad = None
        else:  # zeroed in place: whoever holds the old gradient sees the zeros too
            g = p._grad = p._grad.detach()
            g.array[...] = 0


def values_of(value):
    """A tensor's array, or an array of ``value`` (host arrays, nested lists, numbers)."""
    return value.array if isinstance(value, Tensor) else as_array(value)


def assign_(t, values) -> None:
    """Write ``values`` (a tensor, or an array of ``t``'s shape, on any device, of any
    dtype) into ``t``'s own array: every alias sees it, nothing is recorded, no leaf
    check; the version moves."""
    if isinstance(values, Tensor):
        values = values.array
    target = t.array
    if type(values) is not type(target):  # loaded host data, a GPU parameter
        values = to_device(values, device_of(target))
    target[...] = values.astype(target.dtype, copy=False)
    t.bump_version()
