"""Neutral array <-> bytes helpers, so frontends can (de)serialise without numpy.

Serialisation is host work: arrays of any device are copied to the host first, and
what is loaded is a host array (the frontends move it to the device they want).
"""
from __future__ import annotations

from .backend import DTYPES, host, is_array, to_host


def array_to_bytes(array) -> tuple[bytes, str, tuple]:
    """Little-endian C-order bytes of ``array``, its dtype name and shape."""
    a = host.ascontiguousarray(to_host(array))
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return a.tobytes(), a.dtype.name, tuple(a.shape)


def array_from_bytes(buffer, dtype_name: str, shape) -> object:
    """A fresh (writable) array from little-endian bytes."""
    dtype = host.dtype(DTYPES.get(dtype_name, dtype_name)).newbyteorder("<")
    a = host.frombuffer(buffer, dtype=dtype)
    return a.reshape(tuple(shape)).astype(dtype.newbyteorder("="), copy=True)


def strided_from_flat(flat, offset: int, shape, strides) -> object:
    """A copy of the elements of a flat array laid out by element ``strides`` from
    ``offset`` (how tensor files describe a tensor inside its storage)."""
    flat = to_host(flat)
    shape = tuple(int(n) for n in shape)
    if not shape:
        return flat[offset:offset + 1].reshape(()).copy()
    size = 1
    for n in shape:
        size *= n
    if size == 0:
        return host.empty(shape, dtype=flat.dtype)
    item = flat.dtype.itemsize
    view = host.lib.stride_tricks.as_strided(flat[offset:], shape,
                                           tuple(int(s) * item for s in strides))
    return view.copy()


def contiguous_strides(shape) -> tuple:
    """Element strides of a C-order array of ``shape``."""
    strides = []
    acc = 1
    for n in reversed(tuple(shape)):
        strides.append(acc)
        acc *= max(int(n), 1)
    return tuple(reversed(strides))


def array_nbytes(array) -> int:
    return int(array.nbytes)


def storage_key(array) -> int:
    """Identity of the memory an array lives in (views of one buffer share it)."""
    base = array
    while getattr(base, "base", None) is not None and is_array(base.base):
        base = base.base
    return id(base)
