"""paddle's module-level surface beside the ops: version, default dtype, finfo/iinfo,
disable_signal_handler and DLPack exchange."""
from __future__ import annotations

import builtins

import numpy as _np

from janusgrad import backend as _backend
from janusgrad import dlpack as _dlpack

from .meta import to_np

__version__ = "3.3.1"  # the release whose dialect paddlelike speaks


def set_default_dtype(d) -> None:
    try:
        np_dtype = to_np(d)
    except (TypeError, ValueError, KeyError):
        np_dtype = None
    if np_dtype is None or np_dtype.kind != "f":
        name = getattr(d, "name", d) if not isinstance(d, str) else d
        raise TypeError(f"set_default_dtype only supports [float16, float32, float64, "
                        f"bfloat16] , but received {name}")
    _backend.set_default_float(np_dtype)


def get_default_dtype() -> str:
    return _backend.default_float.name


def _fmt(v) -> str:
    return f"{v:.6g}"


class finfo:  # noqa: N801 - paddle spells it so
    def __init__(self, dtype) -> None:
        np_dtype = to_np(dtype)
        if np_dtype is None or np_dtype.kind != "f":
            raise ValueError(f"finfo only supports floating point types, but got {dtype}")
        info = _np.finfo(np_dtype)
        self.dtype = np_dtype.name
        self.bits = builtins.int(info.bits)
        self.eps = builtins.float(info.eps)
        self.max = builtins.float(info.max)
        self.min = builtins.float(info.min)
        self.tiny = self.smallest_normal = builtins.float(info.tiny)
        self.resolution = 10.0 ** -builtins.int(info.precision)

    def __repr__(self) -> str:
        return (f"paddle.finfo(min={_fmt(self.min)}, max={_fmt(self.max)}, "
                f"eps={_fmt(self.eps)}, resolution={_fmt(self.resolution)}, "
                f"smallest_normal={_fmt(self.smallest_normal)}, tiny={_fmt(self.tiny)}, "
                f"bits={self.bits}, dtype={self.dtype})")

    __str__ = __repr__


class iinfo:  # noqa: N801 - paddle spells it so
    def __init__(self, dtype) -> None:
        np_dtype = to_np(dtype)
        if np_dtype is None or np_dtype.kind not in "iu":
            raise ValueError(f"iinfo only supports integer types, but got {dtype}")
        info = _np.iinfo(np_dtype)
        self.dtype = np_dtype.name
        self.bits = builtins.int(info.bits)
        self.max = builtins.int(info.max)
        self.min = builtins.int(info.min)

    def __repr__(self) -> str:
        return (f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, "
                f"dtype={self.dtype})")

    __str__ = __repr__


def disable_signal_handler() -> None:
    """Nothing to do: paddlelike installs no signal handlers."""


def from_dlpack(dlpack):
    """A tensor over the memory of ``dlpack`` (anything with ``__dlpack__``, or a capsule
    from ``to_dlpack``), without a copy."""
    from .tensor import Tensor

    return Tensor.wrap(_dlpack.import_array(dlpack))


def to_dlpack(x):
    return _dlpack.export(x.array, max_version=(1, 0))


def tensor_dlpack(self, *args, **kwargs):
    """Tensor.__dlpack__: the data's own capsule (the consumer shares the memory)."""
    return _dlpack.export(self.array, *args, **kwargs)


def tensor_dlpack_device(self):
    return _dlpack.device(self.array)
