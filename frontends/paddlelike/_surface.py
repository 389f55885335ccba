"""paddle's module-level surface beside the ops: version, default dtype, finfo/iinfo,
disable_signal_handler and DLPack exchange."""
from __future__ import annotations

from janusgrad.array import backend as _backend
from janusgrad.host import dlpack as _dlpack
from janusgrad.host.dropin import stub_missing

from . import _tensor_api
from .meta import to_np

__all__ = ["__version__", "disable_signal_handler", "finfo", "from_dlpack",
           "get_default_dtype", "iinfo", "set_default_dtype"]
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


def _checked(dtype, kinds: str, what: str, kind_name: str):
    np_dtype = to_np(dtype)
    if np_dtype is None or np_dtype.kind not in kinds:
        raise ValueError(f"{what} only supports {kind_name} types, but got {dtype}")
    return np_dtype


class finfo:  # noqa: N801 - paddle spells it so
    def __init__(self, dtype) -> None:
        vars(self).update(_backend.float_info(_checked(dtype, "f", "finfo", "floating point")))

    def __repr__(self) -> str:
        return _backend.info_repr("paddle.finfo", self,
                                  "min max eps resolution smallest_normal tiny bits dtype")

    __str__ = __repr__


class iinfo:  # noqa: N801 - paddle spells it so
    def __init__(self, dtype) -> None:
        vars(self).update(_backend.int_info(_checked(dtype, "iu", "iinfo", "integer")))

    def __repr__(self) -> str:
        return _backend.info_repr("paddle.iinfo", self, "min max bits dtype", str)

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


def install(tensor_cls) -> None:
    """``__dlpack__``, and a missing public attribute named as missing (issue 15 item 8)."""
    _dlpack.install(tensor_cls, None)
    stub_missing(tensor_cls, "paddlelike", "paddle.Tensor", _tensor_api.NAMES)
