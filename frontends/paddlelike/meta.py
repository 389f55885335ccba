"""paddle's small value objects: DataType (``paddle.float32``), Size and Place."""
from __future__ import annotations

from janusgrad.array.backend import CPU as CPU_DEVICE
from janusgrad.array.backend import DTYPES, Device, device_of, gpu_available, gpu_count, ndarray


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
    from janusgrad.array.dtypes import to_dtype
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
    """Where a tensor lives, as paddle prints it (``Place(cpu)``, ``Place(gpu:0)``).

    ``device`` is the engine's Device for the data.  Tensor.place returns this class;
    CPUPlace/CUDAPlace/CUDAPinnedPlace are the constructors users call, and every
    place compares equal to another with the same text (as paddle's do).
    """

    __slots__ = ("device", "_text")

    def __init__(self, device: Device = CPU_DEVICE, text: str | None = None) -> None:
        self.device = device
        self._text = text or f"Place({device})"

    def __repr__(self) -> str:
        return self._text

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        return isinstance(other, Place) and other._text == self._text

    def __hash__(self) -> int:
        return hash(self._text)

    def _equals(self, other) -> bool:
        return self == other

    def is_cpu_place(self) -> bool:
        return self._text == "Place(cpu)"

    def is_gpu_place(self) -> bool:
        return self.device.kind == "gpu"

    def is_cuda_pinned_place(self) -> bool:
        return self._text == "Place(gpu_pinned)"

    def is_xpu_place(self) -> bool:
        return False

    def is_custom_place(self) -> bool:
        return False

    def gpu_device_id(self) -> int:
        return self.device.index if self.device.kind == "gpu" else -1


class CPUPlace(Place):
    __slots__ = ()

    def __init__(self) -> None:
        Place.__init__(self, CPU_DEVICE)


class CUDAPlace(Place):
    __slots__ = ()

    def __init__(self, id: int) -> None:  # noqa: A002 (paddle's name)
        if not gpu_available():
            # a CPU build logs why on stderr first, then raises this
            raise ValueError("(InvalidArgument) use wrong place, Please check. (at "
                             "/paddle/paddle/fluid/pybind/place.cc:451)\n")
        n = gpu_count()
        if not 0 <= id < n:
            raise ValueError(f"(InvalidArgument) Invalid CUDAPlace({id}), must inside [0, {n})"
                             f", because GPU number on your machine is {n}.\n  [Hint: "
                             f"Expected dev_id < platform::GetGPUDeviceCount(), but received "
                             f"dev_id:{id} >= platform::GetGPUDeviceCount():{n}.] (at "
                             "/paddle/paddle/fluid/pybind/place.cc:436)\n")
        Place.__init__(self, Device("gpu", int(id)))

    def get_device_id(self) -> int:
        return self.device.index


class CUDAPinnedPlace(Place):
    """Page-locked host memory: the data stays on the host (here: ordinary host memory)."""

    __slots__ = ()

    def __init__(self) -> None:
        if not gpu_available():
            raise RuntimeError("(PermissionDenied) Cannot use CUDAPinnedPlace in CPU only "
                               "version, Please recompile or reinstall Paddle with CUDA "
                               "support. (at /paddle/paddle/fluid/pybind/place.cc:650)\n")
        Place.__init__(self, CPU_DEVICE, "Place(gpu_pinned)")


CPU = Place()
_PLACES: dict = {CPU_DEVICE: CPU}


def place_of_device(device: Device) -> Place:
    """The (shared) Place object of an engine Device."""
    p = _PLACES.get(device)
    if p is None:
        p = _PLACES[device] = Place(device)
    return p


def place_of(array) -> Place:
    """The Place of an engine array (host arrays: Place(cpu), without a lookup)."""
    if type(array) is ndarray:
        return CPU
    return place_of_device(device_of(array))


# type() of these objects prints as paddle's
DataType.__module__, DataType.__qualname__, DataType.__name__ = "paddle", "dtype", "dtype"
for _cls in (Size, Place, CPUPlace, CUDAPlace, CUDAPinnedPlace):
    _cls.__module__ = "paddle.base.libpaddle"
