"""Neutral array <-> bytes helpers, so frontends can (de)serialise without numpy.

Serialisation is host work: arrays of any device are copied to the host first, and
what is loaded is a host array (the frontends move it to the device they want).
"""
from __future__ import annotations

import os
import zipfile
from contextlib import contextmanager

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


def write_zip(f, records, align: int = 64) -> None:
    """Store ``records`` ((name, bytes) pairs) uncompressed in a zip archive at ``f`` (a
    path or a binary file), with fixed timestamps and each record's data starting on an
    ``align``-byte boundary (the local header's extra field is padded), so a reader can
    map the data in place."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            write_zip(fh, records, align)
        return
    with zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED) as z:
        for name, data in records:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            offset = f.tell() if hasattr(f, "tell") else 0
            start = offset + 30 + len(name.encode())  # after the fixed header and the name
            pad = (-(start + 4)) % align
            info.extra = b"FB" + pad.to_bytes(2, "little") + b"Z" * pad
            z.writestr(info, data)


@contextmanager
def read_zip(f, marker: str):
    """Open the zip archive at ``f`` (a path or a binary file) for reading. Yields
    ``(main, read)``: ``main`` the bytes of the first record whose name ends with
    ``marker``, ``read(name)`` the bytes of the record ``name`` in the same folder; or
    None when ``f`` is not a zip archive."""
    opened = None
    if isinstance(f, (str, os.PathLike)):
        opened = f = open(f, "rb")
    try:
        if not zipfile.is_zipfile(f):
            yield None
            return
        f.seek(0)
        with zipfile.ZipFile(f) as z:
            main = next(n for n in z.namelist() if n.endswith(marker))
            prefix = main[:-len(marker)]
            yield z.read(main), lambda name: z.read(prefix + name)
    finally:
        if opened is not None:
            opened.close()
