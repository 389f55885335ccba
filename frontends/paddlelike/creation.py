"""Tensors from data and paddle's factories (``shape=[...]`` lists, ``dtype`` strings)."""
from __future__ import annotations

import warnings

from janusgrad.array import ranges
from janusgrad.array.backend import CPU, default_float, device_of, int64, to_device
from janusgrad.binding.surface import Row, install
from janusgrad.core.tensor import Tensor as _EngineTensor
from janusgrad.ops import creation as C

from ._table import _ints
from .device import device_of_place, expected_device
from .dialect import new_name
from .meta import to_np
from .tensor import Tensor


def _flagged(t, stop_gradient: bool):
    if not stop_gradient:
        t.requires_grad = True
    return t


def to_tensor(data, dtype=None, place=None, stop_gradient: bool = True):
    """paddle.to_tensor: Python ints -> int64, floats -> float32, numpy arrays keep dtype;
    the tensor goes to ``place`` (default: the expected place, gpu:0 where a GPU is usable)."""
    np_dtype = to_np(dtype)
    device = device_of_place(place)
    if isinstance(data, (str, bytes, dict, set)) or data is None:
        raise TypeError(f"Can't constructs a 'paddle.Tensor' with data type {type(data)}, data "
                        "type must be scalar|list|tuple|np.ndarray|paddle.Tensor")
    if isinstance(data, _EngineTensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.clone().detach(), rather than "
                      "paddle.to_tensor(sourceTensor).", UserWarning, stacklevel=2)
        arr = data.array.copy() if np_dtype is None else data.array.astype(np_dtype)
        arr = to_device(arr, device or CPU)
    elif device is None and not isinstance(data, (int, float, list, tuple)):
        arr = C.infer_array(data, np_dtype, CPU)  # a device array comes to the host
    else:
        arr = C.infer_array(data, np_dtype, device)
    if arr.dtype.kind in "US":  # strings inside lists
        raise ValueError(
            "(InvalidArgument) Input object type error or incompatible array data type. "
            "tensor.set() supports array with bool, float16, float32, float64, int8, int16, "
            "int32, int64, uint8 or uint16, please check your input or input array data type. "
            "(at /paddle/paddle/fluid/pybind/tensor_py.h:566)\n")
    t = Tensor.wrap(arr)
    # paddle names a tensor made from data at once; one copied from a tensor keeps its name
    t.name = data.name if isinstance(data, Tensor) else new_name("generated_tensor_")
    return _flagged(t, stop_gradient)


def _float_dtype(dtype):
    return default_float if dtype is None else to_np(dtype)


def _made(engine_fn, requires_grad, *args, **kwargs):
    """An engine factory's tensor, with paddle's gradient flag."""
    return _flagged(engine_fn(Tensor, *args, **kwargs), not requires_grad)


def normal(mean=0.0, std=1.0, shape=None, name=None, *, out=None):
    return C.normal(Tensor, mean, std, None if shape is None else _ints(shape),
                    device=expected_device())


def randint(low=0, high=None, shape=(1,), dtype=None, name=None):
    if high is None:
        low, high = 0, low
    if low >= high:
        raise ValueError(
            f"(InvalidArgument) randint's low must less then high, but received: low = {low}, "
            f"high = {high}.\n  [Hint: Expected low < high, but received low:{low} >= "
            f"high:{high}.] (at /paddle/paddle/phi/infermeta/nullary.cc:308)\n")
    return C.randint(Tensor, low, high, _ints(shape), int64 if dtype is None else to_np(dtype),
                     device=expected_device())


def seed(seed: int):
    C.seed(seed)
    return C.default_generator


def full(shape, fill_value, dtype=None, name=None, *, out=None, device=None,
         requires_grad=False, pin_memory=False):
    if isinstance(fill_value, _EngineTensor):
        fill_value = fill_value.item()
    if dtype is None:
        np_dtype = to_np("bool") if isinstance(fill_value, bool) else default_float
    else:
        np_dtype = to_np(dtype)
    t = C.full(Tensor, _ints(shape), fill_value, np_dtype, device=device_of_place(device))
    return _flagged(t, not requires_grad)


def _like_device(x, device):
    """paddle's *_like: ``x``'s place unless ``device`` is given."""
    return device_of(x.array) if device is None else device_of_place(device) or CPU


def _like_dtype(x, dtype):
    return x.array.dtype if dtype is None else to_np(dtype)


_NEW = "shape, dtype=None, name=None, *, out=None, device=None, requires_grad=False"
_NEW_CALL = "requires_grad, _ints(shape), _float_dtype(dtype), device=device_of_place(device)"
_LIKE = "x, dtype=None, name=None, *, device=None, requires_grad=False"
_LIKE_CALL = "requires_grad, x.array.shape, _like_dtype(x, dtype), device=_like_device(x, device)"
# paddle's factories: the engine factory, paddle's parameters, the engine call
ROWS = [
    *(Row(n, _made, _NEW + ", pin_memory=False", f"C.{n}, {_NEW_CALL}", "f")
      for n in ("zeros", "ones", "empty", "rand", "randn")),
    Row("standard_normal", _made, _NEW, f"C.randn, {_NEW_CALL}", "f"),
    Row("uniform", _made, "shape, dtype=None, min=-1.0, max=1.0, seed=0, name=None, *, "
        "out=None, device=None, requires_grad=False", "C.uniform, requires_grad, _ints(shape), "
        "min, max, _float_dtype(dtype), device=device_of_place(device)", "f"),
    *(Row(f"{n}_like", _made, _LIKE + ", pin_memory=False", f"C.{n}, {_LIKE_CALL}", "f")
      for n in ("zeros", "ones", "empty")),
    Row("full_like", _made, "x, fill_value, dtype=None, name=None, *, device=None, "
        "requires_grad=False, pin_memory=False", "C.full, requires_grad, x.array.shape, "
        "fill_value, _like_dtype(x, dtype), device=_like_device(x, device)", "f"),
    Row("rand_like", _made, "input, name=None, *, dtype=None, device=None, requires_grad=False",
        "C.rand, requires_grad, input.array.shape, _like_dtype(input, dtype), "
        "device=_like_device(input, device)", "f"),
    Row("randn_like", _made, _LIKE, f"C.randn, {_LIKE_CALL}", "f"),
]
INSTALLED = install(ROWS, globals(), None, module="paddle", env={
    "C": C, "_ints": _ints, "_float_dtype": _float_dtype, "device_of_place": device_of_place,
    "_like_dtype": _like_dtype, "_like_device": _like_device})


def _number(v):
    return v.item() if isinstance(v, _EngineTensor) else v


def arange(start=0, end=None, step=1, dtype=None, *, out=None, device=None,
           requires_grad=False, pin_memory=False, name=None):
    start, end, step = _number(start), _number(end), _number(step)
    if end is None:
        start, end = 0, start
    if dtype is None:
        floats = any(isinstance(v, float) for v in (start, end, step))
        np_dtype = default_float if floats else int64
    else:
        np_dtype = to_np(dtype)
    if step == 0:
        raise ValueError("(InvalidArgument) The step of range op should not be 0.\n  [Hint: "
                         "Expected step != 0, but received step:0 == 0:0.] (at "
                         "/paddle/paddle/phi/kernels/funcs/range_function.h:23)\n")
    device = device_of_place(device)
    if np_dtype.kind != "f":
        t = C.arange(Tensor, start, end, step, np_dtype, device=device)
    else:  # paddle's kernel accumulates the steps in the output dtype
        t = ranges.accumulated_arange(Tensor, start, end, step, np_dtype, device)
    return _flagged(t, not requires_grad)


def linspace(start, stop, num, dtype=None, name=None, *, out=None, device=None,
             requires_grad=False):
    start, stop, num = _number(start), _number(stop), int(_number(num))
    t = ranges.two_sided_linspace(Tensor, start, stop, num, _float_dtype(dtype),
                                  device_of_place(device))
    return _flagged(t, not requires_grad)


def eye(num_rows, num_columns=None, dtype=None, name=None, *, out=None, device=None,
        requires_grad=False, pin_memory=False):
    t = C.eye(Tensor, int(_number(num_rows)),
              None if num_columns is None else int(_number(num_columns)),
              _float_dtype(dtype), device=device_of_place(device))
    return _flagged(t, not requires_grad)


# what the paddle namespace re-exports: the factories of the table and those written above
__all__ = [r.name for r in ROWS] + ["to_tensor", "normal", "randint", "seed", "full",
                                    "arange", "linspace", "eye"]
