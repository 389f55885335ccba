"""paddle's small value objects: DataType (``paddle.float32``), Size and Place."""
from __future__ import annotations

from engine.backend import DTYPES


class DataType:
    """One object per dtype, like paddle's ``DataType`` enum members.

    ``repr`` is the enum's (``<DataType.FLOAT32: 10>``), ``str`` the paddle
    spelling (``paddle.float32``); ``np`` is the engine's dtype.
    """

    __slots__ = ("name", "code", "np")

    def __init__(self, name: str, code: int) -> None:
        self.name = name
        self.code = code
        self.np = DTYPES[name]

    def __repr__(self) -> str:
        return f"<DataType.{self.name.upper()}: {self.code}>"

    def __str__(self) -> str:
        return f"paddle.{self.name}"

    def __reduce__(self):
        return (by_name, (self.name,))


# paddle 3.3.1's enum values
_CODES = {"bool": 1, "uint8": 2, "int8": 3, "int16": 5, "int32": 7, "int64": 9,
          "float32": 10, "float64": 11, "float16": 15}
DATATYPES = {name: DataType(name, code) for name, code in _CODES.items()}
_BY_NP = {dt.np: dt for dt in DATATYPES.values()}
_ALIASES = {"float": "float32", "double": "float64", "int": "int64", "long": "int64",
            "half": "float16", "bool_": "bool"}


def by_name(name: str) -> DataType:
    return DATATYPES[name]


def of_np(np_dtype) -> DataType:
    """The DataType of an engine (numpy) dtype."""
    return _BY_NP[np_dtype]


def to_np(dtype):
    """An engine dtype from a paddle dtype argument (DataType, string or numpy dtype)."""
    if dtype is None:
        return None
    if type(dtype) is DataType:
        return dtype.np
    if isinstance(dtype, str):
        name = dtype[7:] if dtype.startswith("paddle.") else dtype
        name = _ALIASES.get(name, name)
        dt = DATATYPES.get(name)
        if dt is None:
            raise TypeError(f"Unsupported dtype: {dtype}")
        return dt.np
    from engine.dtypes import to_dtype
    try:
        return to_dtype(dtype)
    except TypeError:
        raise TypeError(f"Unsupported dtype: {dtype}") from None


class Size(list):
    """paddle.Size: a list subclass (so ``[1, 1] + x.shape`` and ``== [3, 4]`` work)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"paddle.Size({list.__repr__(self)})"

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        if isinstance(other, tuple):
            other = list(other)
        return list.__eq__(self, other)

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    __hash__ = None

    def __getitem__(self, key):
        r = list.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        return Size(list(self) + list(other))

    def __radd__(self, other):
        return Size(list(other) + list(self))

    def numel(self) -> int:
        n = 1
        for d in self:
            n *= d
        return n


class Place:
    """The CPU place (the only one janusgrad has)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Place(cpu)"

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        return isinstance(other, Place)

    def __hash__(self) -> int:
        return hash("Place(cpu)")

    def is_cpu_place(self) -> bool:
        return True

    def is_gpu_place(self) -> bool:
        return False


CPU = Place()


def CPUPlace() -> Place:  # noqa: N802 (paddle's spelling)
    return CPU


# type() of these objects prints as paddle's
DataType.__module__, DataType.__qualname__, DataType.__name__ = "paddle", "dtype", "dtype"
Size.__module__ = Place.__module__ = "paddle.base.libpaddle"
