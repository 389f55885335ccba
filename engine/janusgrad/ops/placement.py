"""Moving tensors between devices: a copy whose gradient goes back to the source device."""
from __future__ import annotations

from janusgrad.array.backend import Device, device_of
from janusgrad.array.backend import to_device as _move_array
from janusgrad.core.tensor import record
from janusgrad.ops import defop, spec
from janusgrad.ops.testing import unary


def _to_device_vjp(n, g):
    return (to_device(g, n.attrs),)


_to_device = defop("to_device", _to_device_vjp)


def to_device(x, device: Device | None, copy: bool = False):
    """``x`` on ``device`` (None: where it is): ``x`` itself when it is there already and
    ``copy`` is false, else a recorded copy."""
    a = x.array
    source = device_of(a)
    if device is None or source == device:
        if not copy:
            return x
        out = a.copy()
    else:
        out = _move_array(a, device)
    return record(_to_device, out, (x,), attrs=source)


spec("to_device_copy", lambda x: to_device(x, None, copy=True), unary(), ref=lambda a: a.copy())
