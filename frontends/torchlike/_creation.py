"""Tensor factories with torch's calling conventions (``*size`` or a tuple, dtype=, ...)."""
from __future__ import annotations

import warnings

from janusgrad.array import backend
from janusgrad.array.backend import device_of, is_array, to_device
from janusgrad.binding.surface import Row, install
from janusgrad.binding.surface import resolve as resolve_op
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


def _made(op: str):
    """The engine factory ``creation.<op>`` making torchlike tensors, with torch's
    requires_grad (resolved here: a missing engine op fails at import)."""
    make = resolve_op(f"creation.{op}")

    def made(requires_grad: bool, *args, **kwargs):
        return _finish(make(Tensor, *args, **kwargs), requires_grad)
    return made


def _like_device(input, device):  # noqa: A002
    return device_of(input.array) if device is None else resolve(device)


_OPTS = "out=None, dtype=None, layout=None, device=None, requires_grad=False"
_LIKE = "*, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None"
_LIKE_CALL = ("input.array.shape, _dtypes.to_np(input.dtype if dtype is None else dtype), "
              "device=_like_device(input, device)")
# torch's factories: the engine factory, torch's parameters, the engine call
ROWS = [
    *(Row(n, _made(n), f"*size, generator=None, {_OPTS}, pin_memory=False, memory_format=None, "
          "**kw", "requires_grad, _size(size, kw.pop('size', None)), _float_dtype(dtype), "
          "device=_dev(device)", "f") for n in ("zeros", "ones", "empty", "rand", "randn")),
    Row("full", _made("full"), f"size, fill_value, *, {_OPTS}",
        "requires_grad, _size((size,)), fill_value, _dtypes.to_np(dtype), device=_dev(device)",
        "f"),
    Row("arange", _made("arange"), f"start, end=None, step=1, *, {_OPTS}",
        "requires_grad, *((0, start) if end is None else (start, end)), step, "
        "_dtypes.to_np(dtype), device=_dev(device)", "f"),
    Row("linspace", _made("linspace"), f"start, end, steps, *, {_OPTS}",
        "requires_grad, start, end, steps, _float_dtype(dtype), device=_dev(device)", "f"),
    Row("eye", _made("eye"), f"n, m=None, *, {_OPTS}",
        "requires_grad, n, n if m is None else m, _float_dtype(dtype), device=_dev(device)", "f"),
    *(Row(f"{n}_like", _made(n), f"input, {_LIKE}", f"requires_grad, {_LIKE_CALL}", "f")
      for n in ("zeros", "ones", "empty", "rand", "randn")),
    Row("full_like", _made("full"), f"input, fill_value, {_LIKE}",
        "requires_grad, input.array.shape, fill_value, "
        "_dtypes.to_np(input.dtype if dtype is None else dtype), "
        "device=_like_device(input, device)", "f"),
]
_SELF = ("_dtypes.to_np(self.dtype if dtype is None else dtype), "
         "device=_like_device(self, device)")
_NEW = "dtype=None, device=None, requires_grad=False"
# Tensor.new_*: the dtype and device of ``self`` unless given
NEW_ROWS = [
    *(Row(f"new_{n}", _made(n), f"self, *size, {_NEW}, **kw",
          f"requires_grad, _size(size, kw.pop('size', None)), {_SELF}", "m")
      for n in ("zeros", "ones", "empty")),
    Row("new_full", _made("full"), f"self, size, fill_value, *, {_NEW}",
        f"requires_grad, _size((size,)), fill_value, {_SELF}", "m"),
]
INSTALLED = install(ROWS, globals(), None, module="torch", env=dict(globals()))
INSTALLED_NEW = install(NEW_ROWS, {}, Tensor, module="torch", env=dict(globals()))
_randint, _normal = _made("randint"), _made("normal")


def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None, layout=None,
            device=None, requires_grad: bool = False):
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    elif high is None:  # randint(high, size=size)
        low, high = 0, low
    np_dtype = _dtypes.int64._np if dtype is None else _dtypes.to_np(dtype)
    return _randint(requires_grad, low, high, tuple(size), np_dtype, device=_dev(device))


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None,
           layout=None, device=None, requires_grad: bool = False):
    if size is None and not (isinstance(mean, EngineTensor) or isinstance(std, EngineTensor)):
        size = ()
    return _normal(requires_grad, mean, std, None if size is None else tuple(size),
                   None if dtype is None else _dtypes.to_np(dtype), device=_dev(device))


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
def _new_tensor(self, data, *, dtype=None, device=None, requires_grad: bool = False):
    return tensor(data, self.dtype if dtype is None else dtype,
                  device_of(self.array) if device is None else device, requires_grad)


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
Tensor.normal_ = _normal_
Tensor.uniform_ = _uniform_
