"""Tensor factories with torch's calling conventions (``*size`` or a tuple, dtype=, ...)."""
from __future__ import annotations

import warnings

from janusgrad.array import backend
from janusgrad.array.backend import device_of, is_array, to_device
from janusgrad.core.tensor import Tensor as EngineTensor
from janusgrad.core.tensor import unrecorded

from . import _dtypes
from ._device import move, resolve
from ._ops import C, inplace, need
from ._tensor import Tensor


def _finish(t, requires_grad: bool):
    if requires_grad:
        t.set_requires_grad(True)  # the dialect's constructor wording for int dtypes
    return t


def _size(size, kw_size=None) -> tuple:
    if kw_size is not None:
        size = (kw_size,)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(int(s) for s in size[0])
    return tuple(int(s) for s in size)


def _float_dtype(dtype):
    return backend.default_float if dtype is None else _dtypes.to_np(dtype)


def _dev(device):
    return None if device is None else resolve(device)


def tensor(data, dtype=None, device=None, requires_grad: bool = False, pin_memory=False):
    dev = _dev(device)
    if isinstance(data, EngineTensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone()."
                      "requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
        array = data.array.copy() if dtype is None else data.array.astype(_dtypes.to_np(dtype))
        array = array if dev is None else to_device(array, dev)
    else:
        if isinstance(data, str):
            raise TypeError("new(): invalid data type 'str'")
        array = C.infer_array(data, _dtypes.to_np(dtype), device=dev)
        if array.dtype.kind in "US":  # strings inside lists
            raise ValueError("too many dimensions 'str'")
    return _finish(unrecorded(Tensor, array), requires_grad)


def as_tensor(data, dtype=None, device=None):
    dev = _dev(device)
    if isinstance(data, EngineTensor):
        t = data if dtype is None else data.to(dtype)
        return move(t, dev)
    if is_array(data) and (dtype is None or data.dtype == _dtypes.to_np(dtype)):
        # shares memory, as torch does for numpy arrays (a copy when it moves)
        return unrecorded(Tensor, data if dev is None else to_device(data, dev))
    return tensor(data, dtype, device)


def from_numpy(array):
    return unrecorded(Tensor, array)


def _factory(name: str):
    make = need(C, name, f"torch.{name}")

    def factory(*size, generator=None, out=None, dtype=None, layout=None, device=None,
                requires_grad: bool = False, pin_memory=False, memory_format=None, **kw):
        shape = _size(size, kw.pop("size", None))
        return _finish(make(Tensor, shape, _float_dtype(dtype), device=_dev(device)),
                       requires_grad)

    factory.__name__ = name
    return factory


zeros = _factory("zeros")
ones = _factory("ones")
empty = _factory("empty")
rand = _factory("rand")
randn = _factory("randn")


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None,
         requires_grad: bool = False):
    return _finish(need(C, "full", "torch.full")(Tensor, _size((size,)), fill_value,
                                                 _dtypes.to_np(dtype), device=_dev(device)),
                   requires_grad)


def arange(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
           requires_grad: bool = False):
    if end is None:
        start, end = 0, start
    return _finish(need(C, "arange", "torch.arange")(Tensor, start, end, step,
                                                     _dtypes.to_np(dtype),
                                                     device=_dev(device)), requires_grad)


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None,
             requires_grad: bool = False):
    return _finish(need(C, "linspace", "torch.linspace")(Tensor, start, end, steps,
                                                         _float_dtype(dtype),
                                                         device=_dev(device)), requires_grad)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None,
        requires_grad: bool = False):
    return _finish(need(C, "eye", "torch.eye")(Tensor, n, n if m is None else m,
                                               _float_dtype(dtype), device=_dev(device)),
                   requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None, layout=None,
            device=None, requires_grad: bool = False):
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    elif high is None:  # randint(high, size=size)
        low, high = 0, low
    np_dtype = _dtypes.int64._np if dtype is None else _dtypes.to_np(dtype)
    return _finish(need(C, "randint", "torch.randint")(Tensor, low, high, tuple(size),
                                                       np_dtype, device=_dev(device)),
                   requires_grad)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None,
           layout=None, device=None, requires_grad: bool = False):
    if size is None and not (isinstance(mean, EngineTensor) or isinstance(std, EngineTensor)):
        size = ()
    return _finish(need(C, "normal", "torch.normal")(
        Tensor, mean, std, None if size is None else tuple(size),
        None if dtype is None else _dtypes.to_np(dtype), device=_dev(device)), requires_grad)


def _like(name: str, factory):
    def like(input, *, dtype=None, layout=None, device=None,  # noqa: A002
             requires_grad: bool = False, memory_format=None):
        d = input.dtype if dtype is None else dtype
        a = input.array
        dev = device_of(a) if device is None else resolve(device)
        return _finish(factory(Tensor, a.shape, _dtypes.to_np(d), device=dev), requires_grad)

    like.__name__ = name
    return like


zeros_like = _like("zeros_like", need(C, "zeros", "torch.zeros_like"))
ones_like = _like("ones_like", need(C, "ones", "torch.ones_like"))
empty_like = _like("empty_like", need(C, "empty", "torch.empty_like"))
rand_like = _like("rand_like", need(C, "rand", "torch.rand_like"))
randn_like = _like("randn_like", need(C, "randn", "torch.randn_like"))


def full_like(input, fill_value, *, dtype=None, layout=None, device=None,  # noqa: A002
              requires_grad: bool = False, memory_format=None):
    d = input.dtype if dtype is None else dtype
    a = input.array
    dev = device_of(a) if device is None else resolve(device)
    return _finish(need(C, "full", "torch.full_like")(Tensor, a.shape, fill_value,
                                                      _dtypes.to_np(d), device=dev),
                   requires_grad)


def manual_seed(seed: int):
    seeder = getattr(C, "seed", None)
    if seeder is not None:
        seeder(int(seed))
    else:
        C.default_generator.seed(int(seed))
    return C.default_generator


def initial_seed() -> int:
    return C.default_generator.initial_seed


# ---------------------------------------------------------------- Tensor.new_* and random fills
# Tensor.new_*: the dtype and device of ``self`` unless given
def _new_tensor(self, data, *, dtype=None, device=None, requires_grad: bool = False):
    return tensor(data, self.dtype if dtype is None else dtype,
                  device_of(self.array) if device is None else device, requires_grad)


def _new_factory(factory):
    def new(self, *size, dtype=None, device=None, requires_grad: bool = False, **kw):
        return factory(*size, dtype=self.dtype if dtype is None else dtype,
                       device=device_of(self.array) if device is None else device,
                       requires_grad=requires_grad)

    return new


def _new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad: bool = False):
    return full(size, fill_value, dtype=self.dtype if dtype is None else dtype,
                device=device_of(self.array) if device is None else device,
                requires_grad=requires_grad)


def _normal_(self, mean=0.0, std=1.0, *, generator=None):
    a = self.array
    value = need(C, "normal", "torch.Tensor.normal_")(Tensor, mean, std, a.shape, a.dtype,
                                                       device=device_of(a))
    return inplace.setitem(self, Ellipsis, value)


def _uniform_(self, a=0.0, b=1.0, *, generator=None):
    x = self.array
    value = need(C, "uniform", "torch.Tensor.uniform_")(Tensor, x.shape, a, b, x.dtype,
                                                         device=device_of(x))
    return inplace.setitem(self, Ellipsis, value)


Tensor.new_tensor = _new_tensor
Tensor.new_zeros = _new_factory(zeros)
Tensor.new_ones = _new_factory(ones)
Tensor.new_empty = _new_factory(empty)
Tensor.new_full = _new_full
Tensor.normal_ = _normal_
Tensor.uniform_ = _uniform_
