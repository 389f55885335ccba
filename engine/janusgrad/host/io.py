"""Neutral array <-> bytes helpers, so frontends can (de)serialise without numpy.

Serialisation is host work: arrays of any device are copied to the host first, and
what is loaded is a host array (the frontends move it to the device they want).
"""
from __future__ import annotations

import os
import zipfile
from contextlib import contextmanager

from janusgrad.array.backend import DTYPES, host, to_host


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


INT64_MAX = (1 << 63) - 1


class LayoutError(ValueError):
    """A tensor's layout read from a file does not fit its storage: the typed fact the
    frontends word in their dialect. ``reason`` is one of the class constants; ``offset``,
    ``size`` and ``stride`` are in elements, as the file gave them; ``nbytes`` is the
    storage's length and ``itemsize`` its element size."""

    NOT_INT = "not_int"            # a value is not an int (bool, float, str ...)
    INT64 = "int64"                # a value does not fit an int64
    RANK = "rank"                  # size and stride of different lengths
    OFFSET = "negative_offset"
    NUMEL = "numel_overflow"       # a negative size, or sizes whose product overflows
    EXTENT = "extent_overflow"     # a negative stride, or an extent that overflows
    BOUNDS = "out_of_bounds"       # the elements reach past the storage's end
    RECORD = "record_size"         # a storage record shorter or longer than declared

    def __init__(self, reason: str, *, offset=None, size=None, stride=None,
                 nbytes: int = 0, itemsize: int = 1, field: str = "") -> None:
        self.reason, self.offset, self.size, self.stride = reason, offset, size, stride
        self.nbytes, self.itemsize, self.field = nbytes, itemsize, field
        super().__init__(f"{reason}: offset {offset!r}, size {size!r}, stride {stride!r}"
                         f" in a storage of {nbytes} bytes of {itemsize}-byte elements")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_layout(nbytes: int, itemsize: int, offset, size, stride) -> int:
    """Check that ``size``/``stride``/``offset`` (in elements, as a file declares them)
    describe elements inside a storage of ``nbytes`` bytes, before any view is made; the
    number of elements on success. Raises LayoutError, checking in the order torch does:
    types, int64 range, ranks, offset sign, element count, extent, bounds."""
    fact = {"offset": offset, "size": size, "stride": stride, "nbytes": nbytes,
            "itemsize": itemsize}
    for field, values in (("offset", (offset,)), ("size", size), ("stride", stride)):
        if field != "offset" and not isinstance(values, (tuple, list)):
            raise LayoutError(LayoutError.NOT_INT, field=field, **fact)
        if not all(_is_int(v) for v in values):
            raise LayoutError(LayoutError.NOT_INT, field=field, **fact)
        if any(v < -INT64_MAX - 1 or v > INT64_MAX for v in values):
            raise LayoutError(LayoutError.INT64, field=field, **fact)
    if len(size) != len(stride):
        raise LayoutError(LayoutError.RANK, **fact)
    if offset < 0:
        raise LayoutError(LayoutError.OFFSET, **fact)
    numel = 1
    for n in size:
        numel *= n
    if any(n < 0 for n in size) or numel > INT64_MAX:
        raise LayoutError(LayoutError.NUMEL, **fact)
    if numel == 0:
        return 0  # no element is read: any offset or stride is fine
    if any(s < 0 for n, s in zip(size, stride) if n > 1):
        raise LayoutError(LayoutError.EXTENT, **fact)
    last = offset + sum((n - 1) * s for n, s in zip(size, stride))
    if (last + 1) * itemsize > INT64_MAX:
        raise LayoutError(LayoutError.EXTENT, **fact)
    if (last + 1) * itemsize > nbytes:
        raise LayoutError(LayoutError.BOUNDS, **fact)
    return numel


class ArrayPickleError(ValueError):
    """A pickle asks for an array in a way numpy's own array pickles never do."""


class _ArrayType:
    """Stands for numpy.ndarray in a checked unpickle: numpy's array pickles only pass it
    to ``_reconstruct``; calling it (an uninitialised array of any size) is refused."""

    def __call__(self, *args, **kwargs):
        raise ArrayPickleError("calling numpy.ndarray (an array of uninitialised memory)")


ARRAY_TYPE = _ArrayType()


def reconstruct_array(subtype, shape, dtype) -> object:
    """numpy's ``_reconstruct`` for a checked unpickle: always an empty array, which the
    pickle's state then shapes and fills (numpy checks its bytes against its shape and
    dtype), so a file that gives no state gets no uninitialised memory."""
    if subtype is not ARRAY_TYPE:
        raise ArrayPickleError(f"_reconstruct of {subtype!r}, not numpy.ndarray")
    return host.empty((0,), dtype=host.int8)


# the globals of numpy's array pickles, bound to the checked stand-ins above
ARRAY_PICKLE_GLOBALS = {
    ("numpy", "ndarray"): ARRAY_TYPE,
    ("numpy._core.multiarray", "_reconstruct"): reconstruct_array,
    ("numpy.core.multiarray", "_reconstruct"): reconstruct_array,
}


def check_record(nbytes: int, itemsize: int, numel) -> None:
    """A storage record of ``nbytes`` bytes declared to hold ``numel`` elements of
    ``itemsize`` bytes: LayoutError (RECORD, or NOT_INT) unless the two agree."""
    if not _is_int(numel) or numel < 0:
        raise LayoutError(LayoutError.NOT_INT, size=numel, nbytes=nbytes, itemsize=itemsize,
                          field="numel")
    if numel * itemsize != nbytes:
        raise LayoutError(LayoutError.RECORD, size=numel, nbytes=nbytes, itemsize=itemsize)


def strided_from_flat(flat, offset: int, shape, strides) -> object:
    """A copy of the elements of a flat array laid out by element ``strides`` from
    ``offset`` (how tensor files describe a tensor inside its storage). The layout is
    checked against the array first (``check_layout``): a file cannot make it read
    outside its storage."""
    flat = to_host(flat)
    numel = check_layout(int(flat.nbytes), flat.dtype.itemsize, offset, shape, strides)
    shape = tuple(shape)
    if numel == 0:
        return host.empty(shape, dtype=flat.dtype)
    item = flat.dtype.itemsize
    view = host.lib.stride_tricks.as_strided(flat[offset:], shape,
                                           tuple(s * item for s in strides))
    return view.copy()


def itemsize(dtype_name: str) -> int:
    """Bytes per element of the dtype named ``dtype_name``."""
    return host.dtype(DTYPES.get(dtype_name, dtype_name)).itemsize


def widen_bfloat16(bits) -> object:
    """float32 values of bfloat16 numbers given as their uint16 bit patterns (exact: a
    bfloat16 is the upper half of a float32)."""
    return (host.asarray(bits, dtype=host.uint16).astype(host.uint32) << 16).view(
        host.float32)


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


ZIP_MAGIC = b"PK\x03\x04"


class ArchiveError(Exception):
    """A zip archive that cannot be read: the typed fact the frontends word. ``reason``:
    NOT_ZIP (too short to be one), NO_DIRECTORY (truncated or damaged), MISSING (a record
    ``name`` is absent), CORRUPT (record ``name`` fails its CRC check)."""

    NOT_ZIP = "not_zip"
    NO_DIRECTORY = "no_directory"
    MISSING = "missing"
    CORRUPT = "corrupt"

    def __init__(self, reason: str, name: str = "") -> None:
        self.reason, self.name = reason, name
        super().__init__(f"{reason}: {name}" if name else reason)


class ZipRecords:
    """The records of an archive whose members all sit in one top folder, named by its
    first member (as torch's reader names it): ``read("data.pkl")`` reads
    ``<folder>/data.pkl``. Names are looked up, never joined to a file system path."""

    def __init__(self, z: zipfile.ZipFile) -> None:
        self._zip = z
        names = z.namelist()
        first = names[0] if names else ""
        self.prefix = first[:first.index("/") + 1] if "/" in first else ""
        self._names = set(names)

    def has(self, name: str) -> bool:
        return self.prefix + name in self._names

    def read(self, name: str) -> bytes:
        if not self.has(name):
            raise ArchiveError(ArchiveError.MISSING, name)
        try:
            return self._zip.read(self.prefix + name)
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError):
            raise ArchiveError(ArchiveError.CORRUPT, name) from None


@contextmanager
def read_zip(f):
    """Open ``f`` (a path or a binary file) as a zip archive, as torch's reader does: a
    file starting with the zip magic is read as one (ArchiveError when it is damaged);
    yields its ZipRecords, or None when ``f`` does not start with the magic."""
    opened = None
    if isinstance(f, (str, os.PathLike)):
        opened = f = open(f, "rb")
    try:
        start = f.tell()
        if f.read(len(ZIP_MAGIC)) != ZIP_MAGIC:
            f.seek(start)
            yield None
            return
        f.seek(start)
        try:
            z = zipfile.ZipFile(f)
        except (zipfile.BadZipFile, EOFError, OSError, ValueError):
            f.seek(0, os.SEEK_END)
            size = f.tell() - start
            raise ArchiveError(ArchiveError.NOT_ZIP if size < 22  # an end record's size
                               else ArchiveError.NO_DIRECTORY) from None
        with z:
            yield ZipRecords(z)
    finally:
        if opened is not None:
            opened.close()
