"""paddlelike.Tensor: the engine tensor seen through paddle's API.

Gradient flag polarity is paddle's: ``stop_gradient`` (settable on any tensor;
on a non-leaf True cuts the graph there) is ``not requires_grad``.  Methods
the functional API shares (``add``, ``sum``, ``__add__``, ``exp_`` ...) come from the table
in ``_table.py``, installed at the end of this file, the one place the class is made.
"""
from __future__ import annotations

from janusgrad.array.backend import device_of, gpu_available, scalar_of, to_device, to_host
from janusgrad.binding.surface import install as _install
from janusgrad.core import autograd as _autograd
from janusgrad.core import hooks as _hooks
from janusgrad.core import inplace as _inplace
from janusgrad.core import params as _params
from janusgrad.core.mode import is_grad_enabled as _grad_enabled
from janusgrad.core.tensor import Tensor as _EngineTensor
from janusgrad.ops import creation as _C
from janusgrad.ops import elementwise as _E
from janusgrad.ops import shape as _S

from . import _table
from .device import expected_place, to_place
from .dialect import DIALECT, new_name, node_name, tag, tensor_name
from .meta import CPU as _CPU_PLACE
from .meta import CUDAPlace, DataType, Place, Size, of_np, place_of, to_np
from .printing import to_string


class GradNode:
    """What ``Tensor.grad_fn`` returns: paddle's ``GradNodeBase`` with ``name()``."""

    __slots__ = ("_node",)

    def __init__(self, node) -> None:
        self._node = node

    def name(self) -> str:
        if self._node is None:
            return "GradNodeAccumulation"
        return node_name(self._node)

    @property
    def next_functions(self) -> tuple:
        if self._node is None:
            return ()
        out = []
        for p in self._node.parents:
            if p is None:
                out.append(None)
            elif isinstance(p, _EngineTensor):
                out.append(GradNode(None))
            else:
                out.append(GradNode(p))
        return tuple(out)

    def __repr__(self) -> str:
        return f"<paddle.base.libpaddle.GradNodeBase object at {hex(id(self))}>"


def _check_seed(t, g) -> None:
    gshape = g.array.shape if isinstance(g, _EngineTensor) else None
    if gshape is not None and gshape != t.array.shape:
        raise AssertionError(
            f"Tensor shape not match, Tensor of grad_tensor [ {tensor_name(g)} ] with shape "
            f"{Size(gshape)} mismatch Tensor [ {tensor_name(t)} ] with shape "
            f"{Size(t.array.shape)}")


class Tensor(_EngineTensor):
    __slots__ = ("_name",)  # paddle's tensor name; unset until named (see ``name``)
    dialect = DIALECT
    __array_priority__ = 100  # numpy scalars defer to our reflected operators

    # ---------------------------------------------------------------- name
    @property
    def name(self) -> str:
        """paddle names a tensor made from data at once (``generated_tensor_N``) and an op's
        result only when its name is first read (``eager_tmp_N``)."""
        name = getattr(self, "_name", None)
        if name is None:
            name = self._name = new_name("eager_tmp_")
        return name

    @name.setter
    def name(self, value: str) -> None:
        self._name = value

    # ---------------------------------------------------------------- flags
    @property
    def stop_gradient(self) -> bool:
        return not self.requires_grad

    @stop_gradient.setter
    def stop_gradient(self, value: bool) -> None:
        # paddle accepts integer tensors here (unlike torch)
        self.requires_grad = not value

    def requires_grad_(self, requires_grad: bool = True):
        self.requires_grad = bool(requires_grad)
        return self

    @property
    def grad_fn(self):
        if self.node is not None:
            return GradNode(self.node)
        return GradNode(None) if self.requires_grad else None

    @property
    def persistable(self) -> bool:
        return False

    @property
    def inplace_version(self) -> int:
        return self.version

    def _inplace_version(self) -> int:
        return self.version

    # ---------------------------------------------------------------- metadata
    @property
    def shape(self) -> Size:
        return Size(self.array.shape)

    @property
    def dtype(self):
        return of_np(self.array.dtype)

    @property
    def place(self) -> Place:
        return place_of(self.array)

    @property
    def is_cuda(self) -> bool:
        return self.place.is_gpu_place()

    @property
    def size(self) -> int:
        return self.array.size

    def numel(self):
        return type(self).wrap(_as_int64(self.array.size))

    def dim(self) -> int:
        return self.array.ndim

    def ndimension(self) -> int:
        return self.array.ndim

    @property
    def T(self):  # noqa: N802 (paddle's spelling)
        return _S.transpose(self, tuple(range(self.array.ndim - 1, -1, -1)))

    # ---------------------------------------------------------------- autograd
    def backward(self, grad_tensor=None, retain_graph: bool = False) -> None:
        if grad_tensor is not None:
            _check_seed(self, grad_tensor)
            grad_tensor = [grad_tensor]
        _autograd.backward([self], grad_tensor, retain_graph=bool(retain_graph))

    def clear_grad(self) -> None:
        """paddle 3.3: zero an existing grad in place; a never-computed grad stays None."""
        self.clear_gradient(True)

    def clear_gradient(self, set_to_zero: bool = True) -> None:
        if set_to_zero:
            _params.zero_grad_(self)
        else:
            self.grad = None

    def detach(self):
        return _EngineTensor.detach(self)

    @property
    def data(self):
        """paddle's ``.data``: a stop_gradient alias sharing storage (and version)."""
        return _EngineTensor.detach(self)

    @data.setter
    def data(self, value) -> None:
        self.array = value.array

    def detach_(self):
        self.node = None
        self.requires_grad = False
        return self

    def retain_grads(self) -> None:
        if self.requires_grad:
            _hooks.retain_grad(self)

    def register_hook(self, hook):
        if not self.requires_grad:
            raise RuntimeError("Cannot register hook on a tensor that stop gradient.")
        return _hooks.register_hook(self, _HookCall(hook), _hook_helper(self))

    # ---------------------------------------------------------------- conversions
    def numpy(self):
        """A host copy (paddle allows it on GPU tensors too)."""
        return _host_copy(self.array)

    def __array__(self, dtype=None, copy=None):
        a = to_host(self.array)
        return a if dtype is None else a.astype(dtype)

    def item(self, *args):
        if args:
            return self.array[args].item() if len(args) > 1 else \
                self.array.reshape(-1)[args[0]].item()
        if self.array.size != 1:
            raise ValueError(
                "(InvalidArgument) only one element tensors can be converted to Python scalars "
                f"when no input coordinates\n  [Hint: Expected numel == 1, but received "
                f"numel:{self.array.size} != 1:1.] (at /paddle/paddle/fluid/pybind/"
                "eager_method.cc:1833)\n")
        return scalar_of(self.array)

    def tolist(self):
        return to_host(self.array).tolist()

    def _scalar(self, kind: str):
        a = self.array
        if a.ndim == 0:
            return a.item()
        if a.size == 1:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        raise AssertionError(f"only one element variable can be converted to {kind}.")

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __index__(self) -> int:
        if self.array.dtype.kind not in "iub":
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self._scalar("int"))

    def __bool__(self) -> bool:
        if self.array.size != 1:
            raise AssertionError("When Variable is used as the condition of if/while , "
                                 "Variable can only contain one element.")
        return bool(scalar_of(self.array))

    def __len__(self) -> int:
        if self.array.ndim == 0:
            raise AssertionError("len() of a 0-D tensor is wrong")
        return self.array.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __format__(self, spec: str) -> str:
        if self.array.ndim == 0:
            return format(self.array.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    def __repr__(self) -> str:
        return to_string(self)

    __str__ = __repr__

    def __hash__(self) -> int:
        return id(self)

    # ---------------------------------------------------------------- writes
    def __setitem__(self, key, value) -> None:
        if not isinstance(value, _EngineTensor) and isinstance(value, (list, tuple)):
            value = type(self).wrap(_C.infer_array(value, self.array.dtype, device_of(self.array)))
        _inplace.setitem(self, key, value)

    def set_value(self, value) -> None:
        """Overwrite the data (no graph, no leaf check: paddle's parameter update)."""
        v = _params.values_of(value)
        if tuple(v.shape) != self.array.shape:
            raise ValueError(
                f"(InvalidArgument) The shape of input value {list(v.shape)} must match the "
                f"shape of tensor {list(self.array.shape)}.")
        _params.assign_(self, v)

    def _check_inplace(self) -> None:
        # paddle words a whole-tensor in-place op on a grad leaf as "Leaf Var"
        if self.requires_grad and self.node is None and _grad_enabled():
            raise self.dialect.inplace_on_leaf(False, self)

    def zero_(self):
        self._check_inplace()
        return _inplace.zero(self)

    def fill_(self, value):
        self._check_inplace()
        return _inplace.fill(self, value)

    def gradient(self):
        """The grad as a numpy array (deprecated in paddle, still used by old code)."""
        return None if self.grad is None else _host_copy(self.grad.array)

    # ---------------------------------------------------------------- places
    def _copy_to(self, place, blocking: bool = True):
        """A copy on ``place``: a new leaf (paddle's copies are not recorded)."""
        a = self.array
        out = to_device(a, place.device)
        return Tensor.wrap(a.copy() if out is a else out)

    def _moved(self, place):
        if place == self.place:
            return self
        res = self._copy_to(place)
        res.stop_gradient = self.stop_gradient
        return res

    def cpu(self):
        return self._moved(_CPU_PLACE)

    def cuda(self, device_id=None, blocking: bool = True):
        if not gpu_available():
            raise ValueError("No available device found.")
        if device_id is None:
            place = expected_place()
            if not place.is_gpu_place():
                place = CUDAPlace(0)
        elif isinstance(device_id, int):
            place = CUDAPlace(device_id)
        else:
            raise ValueError("device_id must be int|None")
        return self._moved(place)

    def to(self, *args, **kwargs):
        """paddle 3.3's three forms: to(dtype, blocking), to(device, dtype, blocking),
        to(other, blocking).  A cast is recorded; a move to another place is a copy."""
        kwargs.pop("non_blocking", None)
        copy_tensor = kwargs.pop("copy", False)
        n = len(args) + len(kwargs)
        if n > 3 or n == 0:
            raise TypeError(_TO_USAGE)
        invalid = set(kwargs) - {"device", "dtype", "blocking", "other"}
        if invalid:
            raise TypeError("to() got an unexpected keyword argument " + next(iter(invalid)))
        device = dtype = None
        if args:
            first = args[0]
            if isinstance(first, _EngineTensor):
                device, dtype = str(first.place)[6:-1], first.dtype
            elif _is_dtype(first):
                dtype = first
            else:
                device = first
                dtype = args[1] if len(args) >= 2 else kwargs.get("dtype")
        else:
            device, dtype = kwargs.get("device"), kwargs.get("dtype")
            other = kwargs.get("other")
            if device is None and dtype is None and other is not None:
                device, dtype = str(other.place)[6:-1], other.dtype
        if device is None and dtype is None:
            return self
        if device is not None:
            if isinstance(device, str):
                device = to_place(device)
            elif not isinstance(device, Place):
                raise ValueError(
                    "device value error, must be str, paddle.CPUPlace(), paddle.CUDAPlace(), "
                    "paddle.CUDAPinnedPlace(), paddle.XPUPlace() or paddle.CustomPlace(), but "
                    "the type of device is " + type(device).__name__)
        out = self
        if dtype is not None and to_np(dtype) != self.array.dtype:
            out = _E.cast(self, to_np(dtype))
            copy_tensor = False
        if device is not None and device != out.place:
            out = out._copy_to(device)
            copy_tensor = False
        if copy_tensor:
            out = out._copy_to(out.place)
        if out is not self:
            out.stop_gradient = self.stop_gradient
        return out


class _HookCall:
    """Calls a user's hook the way paddle does: the gradient it sees has
    stop_gradient=False (an alias of the engine's gradient)."""

    __slots__ = ("fn", "__name__")

    def __init__(self, fn) -> None:
        self.fn = fn
        self.__name__ = getattr(fn, "__name__", "hook")

    def __call__(self, g):
        seen = type(g).wrap(g.array)
        seen.node = g.node
        seen.requires_grad = True
        r = self.fn(seen)
        return None if r is seen else r


class TensorHookRemoveHelper(_hooks.HookHandle):
    """What paddle's ``register_hook`` returns: ``remove()`` says True once, then warns."""

    tensor_name = ""
    local_id = 0

    def remove(self) -> bool:
        if _hooks.HookHandle.remove(self):
            return True
        import warnings
        warnings.warn(f"The backward hook (ID: {self.local_id}) of Tensor `{self.tensor_name}` "
                      "you want to remove does not exist or has been removed.", RuntimeWarning,
                      stacklevel=2)
        return False


TensorHookRemoveHelper.__module__ = "paddle.base.dygraph.tensor_patch_methods"


def _hook_helper(tensor):
    """A handle class that knows the tensor's name and the hook's per-tensor number."""
    def make(table, hook_id):
        h = TensorHookRemoveHelper(table, hook_id)
        h.tensor_name = tensor_name(tensor)
        h.local_id = len(table) - 1
        return h
    return make


_VALID_DTYPES = frozenset(("bfloat16", "float16", "float32", "float64", "int8", "int16",
                           "int32", "int64", "uint8", "complex64", "complex128", "bool"))
_TO_USAGE = (
    "to() received too many arguments - expected one of:\n                  * "
    "(Union[str, paddle.CPUPlace(), paddle.CUDAPlace(), paddle.CUDAPinnedPlace(), "
    "paddle.XPUPlace(), paddle.CustomPlace()]                 device, Union[str, "
    "paddle.dtype, numpy.dtype] dtype, bool blocking)\n                 * (Union[str, "
    "paddle.dtype, numpy.dtype] dtype, bool blocking)\n                 * (paddle.Tensor "
    "other, bool blocking) ")


def _is_dtype(v) -> bool:
    if isinstance(v, DataType):
        return True
    if isinstance(v, str):
        return v.lower() in _VALID_DTYPES
    return hasattr(v, "kind") and hasattr(v, "itemsize") and not hasattr(v, "shape")


def _host_copy(a):
    """A host copy of an array of any device (the one copy a device transfer makes)."""
    h = to_host(a)
    return h.copy() if h is a else h


def _as_int64(n: int):
    from janusgrad.array.backend import as_array, int64
    return as_array(n, int64)


def _update(x, fn, *args, **kwargs):
    """paddle's in-place update: a whole-tensor change of a grad leaf is refused in
    paddle's words ("Leaf Var") before the engine's update runs."""
    x._check_inplace()
    return _inplace.update(x, fn, *args, **kwargs)


# the functions and methods of ``_table.ROWS``: paddle.add, Tensor.add, Tensor.add_ ...
FUNCTIONS: dict = {}
INSTALLED = _install(_table.ROWS, FUNCTIONS, Tensor, module="paddle", env=_table.ENV,
                     inplace=_update, tag=tag, both=_table.both_given)
# paddle.linalg's own names (paddlelike/linalg.py), and those it shares with paddle
LINALG: dict = {n: FUNCTIONS[n] for n in ("norm", "matmul", "diagonal", "vecdot")}
INSTALLED_LINALG = _install(_table.LINALG_ROWS, LINALG, None, module="paddle.linalg",
                            env=_table.ENV)

# type(t) prints as paddle's: <class 'paddle.Tensor'>
Tensor.__module__ = "paddle"
GradNode.__module__ = "paddle.base.libpaddle"
GradNode.__qualname__ = GradNode.__name__ = "GradNodeBase"
# scatters family: the class _table's factories make (tril_indices ...); Tensor.mT, the
# last two axes swapped (paddle refuses fewer than 2)
Tensor.mT = property(lambda self: _table.S.swapaxes(self, -1, -2) if self.array.ndim >= 2
                     else _table.mt_error(self))
_table._TENSOR_CLASS.append(Tensor)
