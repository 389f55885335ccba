"""Overwriting a tensor's values outside the graph: a parameter update or a loaded state."""
from __future__ import annotations

from .backend import as_array, device_of, to_device
from .tensor import Tensor


def values_of(value):
    """A tensor's array, or an array of ``value`` (host arrays, nested lists, numbers)."""
    return value.array if isinstance(value, Tensor) else as_array(value)


def assign_(t, values) -> None:
    """Write ``values`` (an array of ``t``'s shape, on any device, of any dtype) into
    ``t``'s own array: every alias sees it, nothing is recorded, no leaf check; the
    version moves."""
    target = t.array
    if type(values) is not type(target):  # loaded host data, a GPU parameter
        values = to_device(values, device_of(target))
    target[...] = values.astype(target.dtype, copy=False)
    t.bump_version()
