"""torch.dtype objects and their mapping onto the engine's (numpy) dtypes."""
from __future__ import annotations

import builtins

from janusgrad.array.backend import DTYPES


class dtype:  # noqa: N801 - torch spells it so
    """A torch dtype: a name over one engine dtype; one object per dtype."""

    __slots__ = ("_name", "_np", "is_floating_point", "is_signed", "itemsize", "_legacy",
                 "_long_name")

    def __init__(self, name: str, legacy: str, long_name: str) -> None:
        self._name = name
        self._np = DTYPES[name]
        self.is_floating_point = self._np.kind == "f"
        self.is_signed = self._np.kind in "if"
        self.itemsize = self._np.itemsize
        self._legacy = legacy        # 'torch.FloatTensor', for Tensor.type()
        self._long_name = long_name  # 'Float', as torch's C++ errors name it

    is_complex = False

    def __repr__(self) -> str:
        return "torch." + self._name

    __str__ = __repr__

    def __reduce__(self):
        return self._name


float32 = dtype("float32", "FloatTensor", "Float")
float64 = dtype("float64", "DoubleTensor", "Double")
float16 = dtype("float16", "HalfTensor", "Half")
int8 = dtype("int8", "CharTensor", "Char")
int16 = dtype("int16", "ShortTensor", "Short")
int32 = dtype("int32", "IntTensor", "Int")
int64 = dtype("int64", "LongTensor", "Long")
uint8 = dtype("uint8", "ByteTensor", "Byte")
bool = dtype("bool", "BoolTensor", "Bool")  # noqa: A001 - torch.bool

ALL = (float32, float64, float16, int8, int16, int32, int64, uint8, bool)
ALIASES = {"float": float32, "double": float64, "half": float16, "short": int16,
           "int": int32, "long": int64}

_BY_NP = {d._np: d for d in ALL}
_BY_NAME = {d._name: d for d in ALL}



def from_np(np_dtype) -> dtype:
    """The torch dtype of an engine dtype."""
    return _BY_NP[np_dtype]


def to_np(d):
    """The engine dtype for a torch dtype (also accepts Python types, as torch does)."""
    if type(d) is dtype:
        return d._np
    if d is None:
        return None
    if d is float:
        return float64._np
    if d is int:
        return int64._np
    if d is builtins.bool:
        return bool._np
    if isinstance(d, str):
        return (ALIASES.get(d) or _BY_NAME[d])._np
    raise TypeError(f"dtype must be torch.dtype, not {type(d).__name__}")


def get_default_dtype() -> dtype:
    """The engine's default float (``torch.set_default_dtype`` sets it)."""
    from janusgrad.array import backend

    return _BY_NP[backend.default_float]

