"""The array backends: the one module that imports numpy (and cupy, when a GPU is used).

Engine kernels never name an array library.  They take the module that owns their
input with ``xp_of(array)`` (numpy for numpy arrays, cupy for cupy arrays, whatever a
registered backend provides for its arrays) and create new arrays only through that
module, so a computation stays on the device of its inputs.  ``host`` is numpy for the
host-side work that is numpy by nature: random streams, printing, serialisation and the
numpy references of the op table; a layering test keeps it out of the kernels.

A ``Device`` is neutral: ``kind`` 'cpu' or 'gpu' and an ``index``.  The frontends spell
it as torch's ``device('cuda:0')`` or paddle's ``Place(gpu:0)``.
"""
from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

host = np
ndarray = np.ndarray

# dtype objects by neutral name; the frontends map their own spellings onto these.
DTYPES = {
    "bool": np.dtype(np.bool_),
    "uint8": np.dtype(np.uint8),
    "int8": np.dtype(np.int8),
    "int16": np.dtype(np.int16),
    "int32": np.dtype(np.int32),
    "int64": np.dtype(np.int64),
    "float16": np.dtype(np.float16),
    "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64),
}
float32 = DTYPES["float32"]
float64 = DTYPES["float64"]
int64 = DTYPES["int64"]
bool_ = DTYPES["bool"]

default_float = float32


class Device(NamedTuple):
    """Where an array lives: ``kind`` 'cpu' or 'gpu', and the device's index."""

    kind: str
    index: int = 0

    def __str__(self) -> str:
        return "cpu" if self.kind == "cpu" else f"{self.kind}:{self.index}"


CPU = Device("cpu", 0)


class ArrayBackend:
    """One array library the engine computes with.

    ``xp`` mirrors numpy's namespace (numpy itself, cupy, a test double); the callables
    move arrays between the host and the backend's devices.
    """

    def __init__(self, name: str, kind: str, xp: Any, array_type: type,
                 to_host: Callable, from_host: Callable, index_of: Callable,
                 count: Callable[[], int], synchronize: Callable[[int], None]) -> None:
        self.name = name
        self.kind = kind
        self.xp = xp
        self.array_type = array_type
        self.to_host = to_host          # array -> numpy array
        self.from_host = from_host      # (numpy array, device index) -> array
        self.index_of = index_of        # array -> device index
        self.count = count              # () -> number of devices
        self.synchronize = synchronize  # device index -> None

    def __repr__(self) -> str:
        return f"ArrayBackend({self.name!r}, {self.kind!r})"


NUMPY = ArrayBackend("numpy", "cpu", np, np.ndarray, lambda a: a,
                     lambda a, index: a, lambda a: 0, lambda: 1, lambda index: None)


# ---------------------------------------------------------------- the GPU backend
_gpu: ArrayBackend | None = None
_gpu_probed = False


def _cupy_backend() -> ArrayBackend | None:
    """cupy as a backend when it imports and sees a device; None otherwise (silently:
    a CPU-only install is the normal case)."""
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None
    except Exception:  # not installed, no driver, no device: all mean "no GPU"
        return None

    def from_host(a, index):
        with cupy.cuda.Device(index):
            return cupy.asarray(a)

    def synchronize(index):
        with cupy.cuda.Device(index):
            cupy.cuda.runtime.deviceSynchronize()

    return ArrayBackend("cupy", "gpu", cupy, cupy.ndarray, cupy.asnumpy, from_host,
                        lambda a: a.device.id, cupy.cuda.runtime.getDeviceCount, synchronize)


def gpu_backend() -> ArrayBackend | None:
    """The backend of GPU arrays, probed once (cupy), or the one registered."""
    global _gpu, _gpu_probed
    if not _gpu_probed:
        _gpu_probed = True
        _gpu = _cupy_backend()
        if _gpu is not None:
            _register(_gpu)
    return _gpu


def use_gpu_backend(b: ArrayBackend | None) -> ArrayBackend | None:
    """Make ``b`` the GPU backend (tests use an array type that is not numpy's to run
    the GPU code paths on a CPU); None forgets it.  Returns the previous one."""
    global _gpu, _gpu_probed
    previous = _gpu if _gpu_probed else None
    if previous is not None:
        MODULES.pop(previous.array_type, None)
        _BACKEND_OF.pop(previous.array_type, None)
        ARRAY_TYPES.discard(previous.array_type)
    _gpu, _gpu_probed = b, b is not None
    if b is not None:
        _register(b)
    return previous


def gpu_available() -> bool:
    return gpu_backend() is not None


def gpu_count() -> int:
    b = gpu_backend()
    return 0 if b is None else b.count()


# ---------------------------------------------------------------- the meta device
META = Device("meta", 0)


class MetaArray(np.ndarray):
    """An array on the meta device: a shape and a dtype, no data (one zero seen through
    zero strides, so that any size costs nothing).  Elementwise ufuncs give meta results
    without computing; any other numpy function computes on the zeros and its result is made
    meta again; writes into one are dropped."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        out = kwargs.get("out")
        if out is not None:  # in place: there is nothing to write
            return out[0] if len(out) == 1 else out
        plain = [a.view(np.ndarray) if isinstance(a, MetaArray) else a for a in inputs]
        with np.errstate(all="ignore"):
            if method == "__call__" and ufunc.signature is None:
                shape = broadcast_shapes(*(np.shape(a) for a in plain))
                probe = ufunc(*(np.zeros((), a.dtype) if isinstance(a, np.ndarray) else a
                                for a in plain), **kwargs)
                if isinstance(probe, tuple):
                    return tuple(meta_array(shape, np.asarray(p).dtype) for p in probe)
                return meta_array(shape, np.asarray(probe).dtype)
            result = getattr(ufunc, method)(*plain, **kwargs)
        return tuple(map(as_meta, result)) if isinstance(result, tuple) else as_meta(result)

    def __array_function__(self, func, types, args, kwargs):
        result = super().__array_function__(func, types, args, kwargs)
        if isinstance(result, np.ndarray) and type(result) is not MetaArray:
            return as_meta(result)  # (concatenate, stack ...: made meta again)
        return result

    def __setitem__(self, key, value) -> None:
        pass  # no data


def meta_array(shape, dtype) -> MetaArray:
    """A meta array of ``shape`` and ``dtype``."""
    return np.broadcast_to(np.zeros((), dtype), tuple(shape)).view(MetaArray)


def as_meta(a):
    """``a`` (an array, a numpy scalar) as a meta array of its shape and dtype."""
    if type(a) is MetaArray and (0 in a.strides or not a.size):
        return a
    return meta_array(np.shape(a), np.asarray(a).dtype)


def _meta_factory(name):
    make = getattr(np, name)

    def factory(*args, **kwargs):
        return as_meta(make(*args, **kwargs))
    return factory


class _MetaModule:
    """numpy's namespace for meta arrays: its factories make meta arrays."""

    def __init__(self) -> None:
        for name in ("arange", "eye", "linspace", "array",
                     "asarray", "ascontiguousarray", "zeros_like", "ones_like", "full_like",
                     "empty_like", "tri", "identity"):
            setattr(self, name, _meta_factory(name))

    def empty(self, shape, dtype=float, **kwargs) -> MetaArray:
        return meta_array((shape,) if isinstance(shape, int) else shape, dtype)

    zeros = ones = empty  # (made without data, of any size)

    def full(self, shape, fill_value, dtype=None, **kwargs) -> MetaArray:
        return self.empty(shape, np.asarray(fill_value).dtype if dtype is None else dtype)

    def __getattr__(self, name: str):
        return getattr(np, name)


def _meta_to_host(a):
    raise NotImplementedError("a meta tensor has no data to copy")


META_BACKEND = ArrayBackend("meta", "meta", _MetaModule(), MetaArray, _meta_to_host,
                            lambda a, index: as_meta(np.asarray(a)), lambda a: 0, lambda: 1,
                            lambda index: None)


def is_meta(a) -> bool:
    return type(a) is MetaArray


# ---------------------------------------------------------------- dispatch on array type
class _ModuleTable(dict):
    """type(array) -> its array module; unknown types are resolved once."""

    def __missing__(self, t: type):
        b = _resolve(t)
        if b is None:
            raise TypeError(f"janusgrad cannot compute with arrays of type {t.__module__}."
                            f"{t.__qualname__}")
        return b.xp


# Python numbers are host values: an op on two of them runs in numpy
MODULES: dict = _ModuleTable({np.ndarray: np, float: np, int: np, bool: np, complex: np})
_BACKEND_OF: dict = {np.ndarray: NUMPY}
ARRAY_TYPES: set = {np.ndarray}


def _register(b: ArrayBackend) -> None:
    MODULES[b.array_type] = b.xp
    _BACKEND_OF[b.array_type] = b
    ARRAY_TYPES.add(b.array_type)


_register(META_BACKEND)


def _resolve(t: type) -> ArrayBackend | None:
    if issubclass(t, (np.ndarray, np.generic)):
        MODULES[t] = np
        _BACKEND_OF[t] = NUMPY
        return NUMPY
    if t.__module__.startswith("cupy"):
        gpu_backend()
    b = _BACKEND_OF.get(t)
    if b is None:
        for k, v in list(_BACKEND_OF.items()):
            if issubclass(t, k):
                b = v
                MODULES[t] = b.xp
                _BACKEND_OF[t] = b
                break
    return b


def xp_of(a: Any):
    """The array module that owns ``a`` (numpy for numpy arrays and scalars)."""
    return MODULES[type(a)]


# array module -> its module of special functions under scipy.special's names: scipy's for
# numpy, cupyx's for cupy (imported on first use); another array type registers its own here
# (tests/fake_gpu.py)
SPECIAL_MODULES: dict = {}


def special_of(a: Any):
    """scipy.special's functions for the array module that owns ``a``."""
    xp = MODULES[type(a)]
    sp = SPECIAL_MODULES.get(xp)
    if sp is None:
        if xp is np:
            import scipy.special as sp
        elif getattr(xp, "__name__", "") == "cupy":
            import cupyx.scipy.special as sp
        else:
            raise TypeError(f"no special functions are known for arrays of {xp!r}")
        SPECIAL_MODULES[xp] = sp
    return sp


def backend_of(a: Any) -> ArrayBackend:
    b = _BACKEND_OF.get(type(a))
    if b is None:
        b = _resolve(type(a))
        if b is None:
            MODULES[type(a)]  # raises the TypeError
    return b


def device_of(a: Any) -> Device:
    b = backend_of(a)
    return CPU if b is NUMPY else Device(b.kind, b.index_of(a))


def module_for(device: Device | None):
    """The array module that creates arrays on ``device`` (None: the host)."""
    if device is None or device.kind == "cpu":
        return np
    return _backend_for(device).xp


def _backend_for(device: Device) -> ArrayBackend:
    return META_BACKEND if device.kind == "meta" else _gpu_for(device)


def _gpu_for(device: Device) -> ArrayBackend:
    b = gpu_backend()
    if b is None:
        raise RuntimeError(f"no GPU is usable: cannot place an array on {device}")
    if not 0 <= device.index < b.count():
        raise RuntimeError(f"GPU index {device.index} is out of range: {b.count()} GPU(s)")
    return b


def to_host(a: Any) -> np.ndarray:
    """A numpy array with ``a``'s values (``a`` itself when it is one)."""
    if type(a) is np.ndarray:
        return a
    return backend_of(a).to_host(a)


def broadcast_shapes(*shapes) -> tuple:
    """The shape the given shapes broadcast to (numpy's rule, on shapes alone: no array
    module needed); ValueError with numpy's wording when they clash."""
    n = max((len(s) for s in shapes), default=0)
    out = [1] * n
    for s in shapes:
        for i, d in enumerate(s, n - len(s)):
            if d != out[i]:
                if out[i] == 1:
                    out[i] = d
                elif d != 1:
                    raise ValueError("shape mismatch: objects cannot be broadcast to a single "
                                     f"shape: {' '.join(str(tuple(s)) for s in shapes)}")
    return tuple(out)


def onto_device_of(a: Any, like: Any):
    """Host array ``a`` (random draws, host data) on the device of array ``like``."""
    return a if type(like) is np.ndarray else from_host(a, device_of(like))


def to_device(a: Any, device: Device | None):
    """``a`` on ``device`` (``a`` itself when it is there already)."""
    if device is None:
        return a
    current = device_of(a)
    if current == device:
        return a
    if device.kind == "meta":
        return as_meta(a)
    data = to_host(a)
    if device.kind == "cpu":
        return data
    return _gpu_for(device).from_host(data, device.index)


def from_host(a: Any, device: Device | None):
    """A host array (or numpy scalar) on ``device``."""
    if device is None or device.kind == "cpu":
        return a
    return _backend_for(device).from_host(np.asarray(a), device.index)


def synchronize(device: Device | None = None) -> None:
    b = gpu_backend()
    if b is not None:
        b.synchronize(0 if device is None else device.index)


def is_array(a: object) -> bool:
    """Whether ``a`` is an array of any backend (numpy scalars are not arrays)."""
    t = type(a)
    if t in ARRAY_TYPES:
        return True
    if isinstance(a, np.ndarray):
        return True
    if t.__module__.startswith("cupy"):
        return _resolve(t) is not None
    return False


def as_array(a: object, dtype: np.dtype | None = None):
    """A kernel's result as an array of its own backend: numpy scalars and Python
    numbers become host arrays, device arrays stay where they are."""
    t = type(a)
    if t in ARRAY_TYPES:
        if t is TRACED[0]:  # a traced array may hold a numpy scalar (janusgrad.transforms.trace)
            return TRACED[1](a, dtype)
        return a if dtype is None or a.dtype == dtype else a.astype(dtype)
    return np.asarray(a, dtype=dtype)


# janusgrad.transforms.trace's traced array type and its as_array, once the tracer is imported
TRACED: list = [None, None]


def scalar_of(a: Any):
    """The Python number held by a one-element array."""
    return a.reshape(-1)[0].item()


def quiet(**which):
    """Floating-point warnings off (default: all), as a context.  Only numpy warns (on
    overflow, division by zero, invalid values); device libraries do not, so numpy's switch
    is the one switch, whatever the arrays' device."""
    if not which and _ERRSTATE is not None:
        return _Ignore()
    return np.errstate(**(which or {"all": "ignore"}))


try:  # numpy's error state is a context variable (numpy >= 2): set it to a cached value
    from numpy._core._ufunc_config import _extobj_contextvar as _ERRSTATE
    from numpy._core._ufunc_config import _make_extobj
except ImportError:  # (another numpy: np.errstate itself)
    _ERRSTATE = None
_IGNORING: dict = {}  # an error state -> the same state with every error ignored


class _Ignore:
    """``np.errstate(all="ignore")`` at half its cost (a backward enters one each time):
    the same context variable, set to a value made once per prior state instead of on every
    entry."""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        current = _ERRSTATE.get()
        ignoring = _IGNORING.get(current)
        if ignoring is None:
            if len(_IGNORING) > 64:
                _IGNORING.clear()
            ignoring = _IGNORING[current] = _make_extobj(all="ignore")
        self._token = _ERRSTATE.set(ignoring)

    def __exit__(self, *exc) -> None:
        _ERRSTATE.reset(self._token)


_CONSTANTS: dict = {}


def constant(xp: Any, value: float, dtype: np.dtype):
    """``value`` as a read-only 0-d array of ``dtype`` in module ``xp``, cached."""
    key = (xp, value, dtype)
    c = _CONSTANTS.get(key)
    if c is None:
        if len(_CONSTANTS) > 8192:
            _CONSTANTS.clear()
        c = xp.asarray(value, dtype=dtype)
        _CONSTANTS[key] = c
    return c


def set_default_float(dtype) -> None:
    """Make ``dtype`` (float16/32/64) the default floating dtype, process-wide, as both
    frameworks' ``set_default_dtype`` do: factories without a dtype, Python floats in
    arithmetic and int-to-float promotions follow it.

    Modules bind ``default_float`` by name (``from .backend import default_float``) and use
    it as a parameter default (``dtype=default_float``): both bindings are replaced in every
    loaded module that imported it, and modules imported later read the new value here.
    """
    global default_float
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        raise TypeError(f"only floating-point types are supported as the default type, "
                        f"not {dtype}")
    old, default_float = default_float, dtype
    if old is dtype:
        return
    for name, module in list(sys.modules.items()):
        namespace = getattr(module, "__dict__", None)
        if not namespace or namespace.get("default_float") is not old:
            continue
        namespace["default_float"] = dtype
        for obj in list(namespace.values()):
            if getattr(obj, "__module__", None) != name:
                continue
            if isinstance(obj, type):
                for fn in vars(obj).values():
                    if isinstance(fn, types.FunctionType):
                        _replace_default(fn, old, dtype)
            elif isinstance(obj, types.FunctionType):
                _replace_default(fn=obj, old=old, new=dtype)


def _replace_default(fn, old, new) -> None:
    """``fn``'s ``dtype=default_float`` parameter defaults, now ``new``."""
    code = fn.__code__
    if fn.__defaults__:
        names = code.co_varnames[:code.co_argcount][-len(fn.__defaults__):]
        fn.__defaults__ = tuple(new if n == "dtype" and v is old else v
                                for n, v in zip(names, fn.__defaults__))
    if fn.__kwdefaults__ and fn.__kwdefaults__.get("dtype") is old:
        fn.__kwdefaults__ = {**fn.__kwdefaults__, "dtype": new}


def float_info(dtype) -> dict:
    """finfo's fields of a floating dtype, as Python numbers (both frameworks' finfo)."""
    info = np.finfo(dtype)
    tiny = float(info.tiny)
    return {"dtype": np.dtype(dtype).name, "bits": int(info.bits), "eps": float(info.eps),
            "max": float(info.max), "min": float(info.min), "tiny": tiny,
            "smallest_normal": tiny, "resolution": 10.0 ** -int(info.precision)}


def int_info(dtype) -> dict:
    """iinfo's fields of an integer dtype, as Python ints."""
    info = np.iinfo(dtype)
    return {"dtype": np.dtype(dtype).name, "bits": int(info.bits), "max": int(info.max),
            "min": int(info.min)}


def info_repr(prefix: str, info, fields: str, number=lambda v: f"{v:.6g}") -> str:
    """``prefix(field=value, ...)`` for a finfo/iinfo object (numbers as ``number`` gives
    them; ``dtype`` and ``bits`` as they are)."""
    parts = [f"{k}={getattr(info, k) if k in ('dtype', 'bits') else number(getattr(info, k))}"
             for k in fields.split()]
    return f"{prefix}({', '.join(parts)})"
