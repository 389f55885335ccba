"""A second array backend for machines without a GPU: a device array that is not numpy's.

``FakeGpuArray`` holds a numpy array but behaves like a cupy array towards numpy: numpy
functions and ufuncs refuse it and it never converts to numpy implicitly
(``np.asarray(x)`` raises TypeError), and its module ``fake_xp`` refuses host numpy arrays
as operands, as cupy does.  Installed as the engine's GPU backend, it runs every GPU code
path of the engine and both frontends on a CPU: any place that computes with numpy on
device data, or lets host data meet device data, fails loudly.

The module exposes only names that cupy also has (checked against cupy when it is
installed), so an engine kernel that passes here uses nothing cupy lacks.
"""
from __future__ import annotations

import contextlib
import types
import weakref

import numpy as np
import scipy.special

from janusgrad.array import backend

# numpy names the engine may use through xp_of(); cupy has each of them (see
# tests/test_backend_dispatch.py, which checks that against an installed cupy).
VOCABULARY = frozenset("""
    abs absolute add all allclose any arange arccos arccosh arcsin arcsinh arctan arctan2
    arctanh argmax argmin argsort array asarray ascontiguousarray atleast_1d bitwise_and
    bitwise_not bitwise_or bitwise_xor bool_ broadcast_arrays broadcast_to cbrt ceil clip
    concatenate copysign cos cosh count_nonzero cumprod cumsum deg2rad diag diagonal diff divide
    dot dtype e einsum empty empty_like equal exp exp2 expand_dims expm1 eye finfo flip floor
    floor_divide fmax fmin fmod full full_like greater greater_equal hypot identity iinfo
    inf inner invert isclose isfinite isinf isnan less less_equal linspace log log10 log1p
    log2 logaddexp logical_and logical_not logical_or logical_xor matmul max maximum mean
    median min minimum moveaxis multiply nan nan_to_num negative newaxis nonzero not_equal
    ones ones_like outer pad pi power prod put_along_axis rad2deg ravel reciprocal remainder
    repeat reshape rint round searchsorted sign signbit sin sinh sort sqrt square squeeze
    stack std subtract sum swapaxes take take_along_axis tan tanh tensordot tile trace
    transpose tril triu true_divide trunc unique var vstack hstack where zeros zeros_like
    float16 float32 float64 int8 int16 int32 int64 uint8 bool_ complex64 complex128 ndim
    shape size result_type can_cast promote_types isscalar unravel_index ravel_multi_index
    indices meshgrid histogram bincount roll rollaxis atleast_2d split array_split
    linalg float_ integer floating signedinteger unsignedinteger number generic
    logaddexp2 nextafter heaviside gcd lcm left_shift right_shift sinc frexp ldexp
""".split())
# factories that take host data and put it on the device (cupy.asarray(numpy_array) copies)
_TRANSFERS = frozenset({"array", "asarray", "ascontiguousarray"})


class FakeGpuArray:
    """Device data: a numpy array behind an interface numpy does not understand."""

    __slots__ = ("_a", "__weakref__")
    __array_ufunc__ = None  # numpy ufuncs raise TypeError on it, as with cupy arrays
    __array_priority__ = 1000

    def __init__(self, a: np.ndarray) -> None:
        self._a = a
        _HOLDERS[id(a)] = self

    @property
    def base(self):
        """The device array this one is a view of (the same object, as cupy's ``base``)."""
        b = self._a.base
        return None if b is None else _HOLDERS.get(id(b))

    def __array__(self, *args, **kwargs):
        raise TypeError("Implicit conversion to a NumPy array is not allowed. "
                        "Please use `.get()` to construct a NumPy array explicitly.")

    def __array_function__(self, func, types, args, kwargs):
        return NotImplemented  # numpy's functions raise TypeError on it

    def get(self) -> np.ndarray:
        return self._a.copy()

    # -- attributes cupy arrays have
    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    itemsize = property(lambda self: self._a.itemsize)
    nbytes = property(lambda self: self._a.nbytes)
    strides = property(lambda self: self._a.strides)
    T = property(lambda self: FakeGpuArray(self._a.T))
    device = property(lambda self: types.SimpleNamespace(id=0))

    def __repr__(self) -> str:
        return f"FakeGpuArray({self._a!r})"

    def __len__(self) -> int:
        return len(self._a)

    def __iter__(self):
        return (_wrap(v) for v in self._a)

    def __bool__(self) -> bool:
        return bool(self._a)

    def __float__(self) -> float:
        return float(self._a)

    def __int__(self) -> int:
        return int(self._a)

    def __index__(self) -> int:
        return self._a.__index__()

    def __getitem__(self, key):
        return _wrap(self._a[_unwrap_index(key)])

    def __setitem__(self, key, value) -> None:
        self._a[_unwrap_index(key)] = _unwrap(value)

    def __getattr__(self, name: str):
        if name not in _METHODS:
            raise AttributeError(f"FakeGpuArray has no attribute {name!r}")
        method = getattr(self._a, name)
        return lambda *args, **kwargs: _wrap(method(*_unwrap(args), **_unwrap(kwargs)))

    def item(self):
        return self._a.item()

    def tolist(self):
        return self._a.tolist()


# ndarray methods that cupy.ndarray also has
_METHODS = frozenset("""
    all any argmax argmin argsort astype clip copy cumprod cumsum diagonal dot fill flatten max
    mean min nonzero prod ravel repeat reshape round sort squeeze std sum swapaxes take trace
    transpose var view conj
""".split())


def _operator(name: str):
    def op(self, *others):
        return _wrap(getattr(self._a, name)(*_unwrap(others)))
    op.__name__ = name
    return op


for _name in ("add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod pow "
              "rpow matmul rmatmul and rand or ror xor rxor lt le gt ge eq ne neg pos abs "
              "invert iadd isub imul itruediv").split():
    setattr(FakeGpuArray, f"__{_name}__", _operator(f"__{_name}__"))
FakeGpuArray.__hash__ = None


# id of a numpy array -> the FakeGpuArray holding it (an entry goes with its holder; a
# holder's array lives as long as it does, so its id is not reused meanwhile)
_HOLDERS: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _wrap(v):
    """numpy results back onto the 'device': cupy returns 0-d arrays, never scalars."""
    if isinstance(v, (np.ndarray, np.generic)):
        return FakeGpuArray(np.asarray(v))
    if isinstance(v, tuple):
        return tuple(_wrap(x) for x in v)
    if isinstance(v, list):
        return [_wrap(x) for x in v]
    return v


def _unwrap(v):
    """Device operands to numpy; host arrays are refused, as cupy refuses them."""
    if type(v) is FakeGpuArray:
        return v._a
    if isinstance(v, np.ndarray):
        raise TypeError(f"Unsupported type {type(v)}: a host array met a device array")
    if isinstance(v, tuple):
        return tuple(_unwrap(x) for x in v)
    if isinstance(v, list):
        return [_unwrap(x) for x in v]
    if isinstance(v, dict):
        return {k: _unwrap(x) for k, x in v.items()}
    return v


def _unwrap_index(key):
    # indexing a cupy array with a numpy index array is allowed (it is copied over)
    if isinstance(key, np.ndarray):
        return key
    if isinstance(key, tuple):
        return tuple(k if isinstance(k, np.ndarray) else _unwrap(k) for k in key)
    return _unwrap(key)


class _Ufunc:
    def __init__(self, f: np.ufunc) -> None:
        self._f = f
        self.__name__ = f.__name__

    def __call__(self, *args, **kwargs):
        return _wrap(self._f(*_unwrap(args), **_unwrap(kwargs)))

    def reduce(self, *args, **kwargs):
        return _wrap(self._f.reduce(*_unwrap(args), **_unwrap(kwargs)))

    def at(self, a, indices, b=None) -> None:
        if isinstance(indices, np.ndarray) or isinstance(indices, tuple):
            indices = _unwrap_index(indices)
        else:
            indices = _unwrap(indices)
        self._f.at(_unwrap(a), indices, *([] if b is None else [_unwrap(b)]))


def _function(name: str, f):
    transfer = name in _TRANSFERS

    def call(*args, **kwargs):
        if transfer and args and isinstance(args[0], (np.ndarray, np.generic, list, tuple,
                                                      int, float, bool)):
            return FakeGpuArray(np.array(args[0], *args[1:], **kwargs))
        return _wrap(f(*_unwrap(args), **_unwrap(kwargs)))
    call.__name__ = name
    return call


class _Namespace(types.ModuleType):
    def __init__(self, name: str, source, vocabulary) -> None:
        super().__init__(name)
        self._source = source
        self._vocabulary = vocabulary

    def __getattr__(self, name: str):
        if name.startswith("__") or name not in self._vocabulary:
            raise AttributeError(f"{self.__name__} has no attribute {name!r} "
                                 "(not in the vocabulary shared with cupy)")
        v = getattr(self._source, name)
        if name == "linalg":
            v = _Namespace("fake_xp.linalg", np.linalg, {"norm", "inv", "det", "solve", "svd",
                                                          "qr", "cholesky", "eigh", "slogdet",
                                                          "eigvalsh", "pinv", "lstsq",
                                                          "matrix_rank", "matrix_power"})
        elif isinstance(v, np.ufunc):
            v = _Ufunc(v)
        elif callable(v) and not isinstance(v, type):
            v = _function(name, v)
        setattr(self, name, v)  # resolved once
        return v


fake_xp = _Namespace("fake_xp", np, VOCABULARY)
fake_xp.ndarray = FakeGpuArray

# scipy.special's names the engine may use through backend.special_of(); cupyx.scipy.special
# has each of them
SPECIAL_VOCABULARY = frozenset("""
    erf erfc erfinv erfcx gammaln psi zeta i0 i0e i1 i1e ndtr ndtri log_ndtr entr xlogy
    xlog1py gammainc gammaincc j0 j1 y0 y1 k0 k0e k1 k1e airy
""".split())
fake_special = _Namespace("fake_xp.special", scipy.special, SPECIAL_VOCABULARY)
backend.SPECIAL_MODULES[fake_xp] = fake_special


def _from_host(a, index: int) -> FakeGpuArray:
    return FakeGpuArray(np.array(a, copy=True))


FAKE_GPU = backend.ArrayBackend("fake_gpu", "gpu", fake_xp, FakeGpuArray,
                                lambda a: a._a.copy(), _from_host, lambda a: 0, lambda: 1,
                                lambda index: None)


@contextlib.contextmanager
def installed():
    """The fake array type as the engine's GPU backend, for the duration."""
    previous = backend.use_gpu_backend(FAKE_GPU)
    try:
        yield FAKE_GPU
    finally:
        backend.use_gpu_backend(previous)
