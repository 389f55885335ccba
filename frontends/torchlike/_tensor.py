"""torchlike.Tensor: the engine tensor with torch's names, flags, errors and printing."""
from __future__ import annotations

import warnings

from janusgrad.array.backend import device_of, is_meta, ndarray, scalar_of, to_host
from janusgrad.binding.surface import aliased
from janusgrad.core import autograd as engine_autograd
from janusgrad.core import hooks as _hooks
from janusgrad.core.mode import state
from janusgrad.core.tensor import INFERENCE
from janusgrad.core.tensor import Tensor as EngineTensor

from . import _dtypes
from ._device import CPU, move, parse_to, resolve, tensor_device, torch_device
from ._dialect import NOT_LEAF, TORCH
from ._grad_fn import node_name, tag, view
from ._ops import E, I, L, inplace, need
from ._printing import tensor_repr
from ._size import Size

# the engine's slots under our checking properties (methods use self._rg / self._grad)
_RG, _GRAD = EngineTensor.__dict__["_rg"], EngineTensor.__dict__["_grad"]
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered "
    "internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
)


def _get_grad(self):
    if self.node is not None and not self.retains_grad:
        warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)
    return self._grad


def _set_requires_grad(self, flag) -> None:
    if self.node is not None:
        # the engine marks fresh op outputs; a user may only turn a leaf's flag
        if not flag:
            raise RuntimeError(NOT_LEAF)
        self._rg = True
        return
    if flag and self.array.dtype.kind != "f":
        raise RuntimeError("only Tensors of floating point and complex dtype can require "
                           "gradients")
    if flag and self._version is INFERENCE and not state.inference:
        raise TORCH.inference_requires_grad()
    self._rg = bool(flag)


class return_types_tuple(tuple):  # noqa: N801 - torch.return_types.<name>
    """A (values, indices) pair printed like torch.return_types.max."""

    __slots__ = ()
    _name = "max"

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self) -> str:
        return (f"torch.return_types.{self._name}(\nvalues={self[0]!r},\n"
                f"indices={self[1]!r})")


def _pair(name: str):
    return type(name, (return_types_tuple,), {"__slots__": (), "_name": name})


MAX_T, MIN_T, SORT_T = _pair("max"), _pair("min"), _pair("sort")


class Tensor(EngineTensor):
    __slots__ = ()
    dialect = TORCH

    # torch.Tensor(data) builds a float32 tensor, torch.Tensor(2, 3) an uninitialised one
    def __new__(cls, *args, **kwargs):
        from ._ops import C
        if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return need(C, "empty", "torch.Tensor(*size)")(cls, args, _dtypes.float32._np)
        if len(args) > 1:
            raise TypeError("new(): invalid data type")
        data = args[0] if args else []
        if isinstance(data, EngineTensor):
            return data
        return cls.wrap(C.infer_array(data, _dtypes.float32._np))

    def __init__(self, *args, **kwargs) -> None:
        pass

    __array_priority__ = 1000  # numpy scalars and arrays defer to our reflected operators

    # ------------------------------------------------------------ autograd
    requires_grad = property(_RG.__get__, _set_requires_grad)
    grad = property(_get_grad, _GRAD.__set__)

    def requires_grad_(self, requires_grad: bool = True):
        if self.node is not None:
            if not requires_grad:
                raise RuntimeError(NOT_LEAF)
            return self
        if requires_grad and self.array.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._version is INFERENCE and not state.inference:
            raise TORCH.inference_requires_grad()
        self._rg = bool(requires_grad)
        return self

    @property
    def grad_fn(self):
        n = self.node
        return None if n is None else view(n)

    def backward(self, gradient=None, retain_graph=None, create_graph: bool = False,
                 inputs=None) -> None:
        if inputs is not None:
            inputs = backward_inputs(inputs)
        engine_autograd.backward((self,), None if gradient is None else (gradient,),
                                 retain_graph, create_graph, inputs)

    def detach(self):
        return EngineTensor.detach(self)

    def detach_(self):
        self.node = None
        self._rg = False
        return self

    def retain_grad(self) -> None:
        if not self._rg:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        _hooks.retain_grad(self)

    def register_hook(self, hook):
        if not self._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        from .autograd.graph import RemovableHandle
        return _hooks.register_hook(self, hook, RemovableHandle)

    def register_post_accumulate_grad_hook(self, hook):
        if self.node is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        if not self._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        from .autograd.graph import RemovableHandle
        return _hooks.register_post_accumulate_grad_hook(self, hook, RemovableHandle)

    def is_inference(self) -> bool:
        return self._version is INFERENCE

    # ------------------------------------------------------------ metadata
    @property
    def shape(self) -> Size:
        return Size(self.array.shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return Size(self.array.shape)
        return self.array.shape[self._axis(dim)]

    def dim(self) -> int:
        return self.array.ndim

    ndimension = dim

    def numel(self) -> int:
        return self.array.size

    nelement = numel

    @property
    def dtype(self):
        return _dtypes.from_np(self.array.dtype)

    @property
    def device(self):
        a = self.array
        return CPU if type(a) is ndarray else torch_device(device_of(a))

    @property
    def is_meta(self) -> bool:
        return is_meta(self.array)

    @property
    def is_cuda(self) -> bool:
        a = self.array
        return type(a) is not ndarray and device_of(a).kind == "gpu"

    @property
    def is_cpu(self) -> bool:
        a = self.array
        return type(a) is ndarray or device_of(a).kind == "cpu"

    def get_device(self) -> int:
        a = self.array
        if type(a) is ndarray:
            return -1
        d = device_of(a)
        return -1 if d.kind == "cpu" else d.index

    def is_floating_point(self) -> bool:
        return self.array.dtype.kind == "f"

    def element_size(self) -> int:
        return self.array.dtype.itemsize

    def _axis(self, dim: int) -> int:
        n = self.array.ndim or 1
        if not -n <= dim < n:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-n}, {n - 1}], but got {dim})")
        return dim + n if dim < 0 else dim

    # ------------------------------------------------------------ conversion
    def item(self):
        a = self.array
        if a.size != 1:
            raise RuntimeError(f"a Tensor with {a.size} elements cannot be converted to Scalar")
        return scalar_of(a)

    def tolist(self):
        return self.array.tolist()

    def numpy(self, force: bool = False):
        a = self.array
        if type(a) is not ndarray:
            if force:
                return to_host(a)
            _refuse_numpy(a)
        if self.requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        return a

    def __array__(self, dtype=None, copy=None):
        a = self.array
        if type(a) is not ndarray:
            _refuse_numpy(a)
        return a if dtype is None else a.astype(dtype)

    def __float__(self) -> float:
        if self.array.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return float(scalar_of(self.array))

    def __int__(self) -> int:
        if self.array.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(scalar_of(self.array))

    def __index__(self) -> int:
        a = self.array
        if a.size != 1 or a.dtype.kind not in "iub":
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(scalar_of(a))

    def __bool__(self) -> bool:
        a = self.array
        if a.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(scalar_of(a))

    def __len__(self) -> int:
        if not self.array.ndim:
            raise TypeError("len() of a 0-d tensor")
        return self.array.shape[0]

    def __iter__(self):
        if not self.array.ndim:
            raise TypeError("iteration over a 0-d tensor")
        return iter([self[i] for i in range(self.array.shape[0])])

    def __hash__(self) -> int:
        return id(self)

    def __format__(self, spec: str) -> str:
        if self.array.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    def __repr__(self) -> str:
        n = self.node
        return tensor_repr(self, None if n is None else node_name(n))

    __str__ = __repr__

    # ------------------------------------------------------------ dtype and device moves
    def type(self, dtype=None):
        if dtype is None:
            where = "torch.cuda." if self.is_cuda else "torch."
            return where + _dtypes.from_np(self.array.dtype)._legacy
        return self.to(dtype)

    def to(self, *args, **kwargs):
        device, dtype, copy = parse_to(args, kwargs)
        t = self if dtype is None else _cast(self, dtype)
        if device is not None:
            t = move(t, resolve(device))
        if copy and t is self:
            t = tag(E.clone(self), "ToCopyBackward0")
        return t

    def cpu(self, memory_format=None):
        a = self.array
        return self if type(a) is ndarray else move(self, _HOST)

    def cuda(self, device=None, non_blocking: bool = False, memory_format=None):
        if device is None:
            device = "cuda"
        elif isinstance(device, int) and not isinstance(device, bool):
            device = torch_device(resolve(device))
        elif resolve_kind(device) != "cuda":
            raise RuntimeError("Invalid device, must be cuda device")
        return move(self, resolve(device))

    def contiguous(self, *args):
        # itself when its layout is row-major already, else a copy (torch's CloneBackward0)
        return self if self.is_contiguous() else E.clone(self)

    def is_contiguous(self, *args) -> bool:
        return bool(self.array.flags.c_contiguous)

    def float(self):
        return _cast(self, _dtypes.float32)

    def double(self):
        return _cast(self, _dtypes.float64)

    def half(self):
        return _cast(self, _dtypes.float16)

    def long(self):
        return _cast(self, _dtypes.int64)

    def int(self):
        return _cast(self, _dtypes.int32)

    def short(self):
        return _cast(self, _dtypes.int16)

    def bool(self):
        return _cast(self, _dtypes.bool)

    def byte(self):
        return _cast(self, _dtypes.uint8)

    def type_as(self, other):
        return _cast(self, other.dtype)

    def clone(self, *args, **kwargs):
        return E.clone(self)

    # operators and op methods: the table (_table.py) installs them

    # ------------------------------------------------------------ indexing
    def __getitem__(self, key):
        r = need(I, "getitem", "torch.Tensor.__getitem__")(self, key)
        if r.node is not None:
            tag(r, _index_node_name(key))
        return r

    def __setitem__(self, key, value) -> None:
        inplace.setitem(self, key, value)

    # ------------------------------------------------------------ in-place methods
    def zero_(self):
        _check_whole_inplace(self)
        return tag(inplace.zero(self), "ZeroBackward0")

    def fill_(self, value):
        _check_whole_inplace(self)
        return tag(inplace.fill(self, value), "FillBackward2")

    def copy_(self, src, non_blocking: bool = False):
        if isinstance(src, EngineTensor) and type(src.array) is not type(self.array):
            src = move(src, device_of(self.array))  # copy_ crosses devices in torch
        return inplace.setitem(self, Ellipsis, src)


Tensor.__module__ = "torch"
Tensor.size = aliased(Tensor.size, {"dim": "axis"})  # torch's x.size(axis=1), as a row's


# ---------------------------------------------------------------- helpers used above
_HOST = resolve("cpu")


def resolve_kind(device) -> str:
    """The torch device type a device argument names ('cuda', 'cpu' ...)."""
    if isinstance(device, str):
        return device.partition(":")[0]
    return getattr(device, "type", "")


def _refuse_numpy(a) -> None:
    raise TypeError(f"can't convert {tensor_device(a)} device type tensor to numpy. Use "
                    "Tensor.cpu() to copy the tensor to host memory first.")


def backward_inputs(inputs) -> tuple:
    """torch's ``backward(inputs=...)``: never empty; each input retains its grad (so a
    non-leaf among them gets ``.grad``, and one not requiring grad is refused)."""
    inputs = (inputs,) if isinstance(inputs, EngineTensor) else tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    for t in inputs:
        t.retain_grad()
    return inputs


def _check_whole_inplace(t) -> None:
    """zero_/fill_ are setitem in the engine, but torch words them as whole-tensor ops."""
    if state.enabled and t.node is None and t._rg:
        raise TORCH.inplace_on_leaf(False)


def _cast(t, dtype):
    np_dtype = _dtypes.to_np(dtype)
    if t.array.dtype == np_dtype:
        return t
    return E.cast(t, np_dtype)


def _index_node_name(key) -> str:
    """torch's node for ``x[key]``: the last basic step, or Index for advanced keys."""
    parts = key if isinstance(key, tuple) else (key,)
    last = "AliasBackward0"
    for k in parts:
        if k is None:
            last = "UnsqueezeBackward0"
        elif isinstance(k, slice):
            last = "SliceBackward0"
        elif k is Ellipsis:
            continue
        elif isinstance(k, int) and not isinstance(k, bool):
            last = "SelectBackward0"
        elif isinstance(k, EngineTensor) and k.array.ndim == 0 and k.array.dtype.kind in "iu":
            last = "SelectBackward0"
        else:
            return "IndexBackward0"
    return last


def matmul(a, b):
    """torch.matmul: no implicit promotion between the operands' dtypes."""
    da, db = a.array.dtype, b.array.dtype
    na, nb = a.array.ndim, b.array.ndim
    if da != db and na and nb:
        from ._dialect import c_name, long_name
        if na == 1 and nb == 1:
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                               f"{long_name(da)} and {long_name(db)}")
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{c_name(da)} != {c_name(db)}")
    r = L.matmul(a, b)
    if r.node is not None:
        if na == 1:
            name = "DotBackward0" if nb == 1 else ("SqueezeBackward4" if nb == 2
                                                    else "UnsafeViewBackward0")
        elif na == 2:
            name = "MvBackward0" if nb == 1 else ("MmBackward0" if nb == 2
                                                  else "UnsafeViewBackward0")
        else:
            name = "ViewBackward0" if nb == 1 else (
                "BmmBackward0" if na == 3 and nb == 3 else "UnsafeViewBackward0")
        tag(r, name)
    return r


def _get_data(self):
    """torch's ``.data``: an untracked alias sharing the array but NOT the version counter
    (changes through it escape the saved-tensor check, as in torch; detach() shares it)."""
    t = type(self).wrap(self.array)
    if self._version is INFERENCE:
        t._version = INFERENCE
    return t


def _set_data(self, value) -> None:
    self.array = value.array
    self._view = None  # other memory: no longer a view, nor the base of its views


Tensor.data = property(_get_data, _set_data)
