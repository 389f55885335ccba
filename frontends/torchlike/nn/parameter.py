"""torch.nn.Parameter: a leaf tensor that a Module registers as a parameter."""
from __future__ import annotations

from janusgrad.core.tensor import Tensor as EngineTensor

from .._printing import tensor_repr
from .._tensor import Tensor

_plain_wrap = Tensor.wrap


class Parameter(Tensor):
    """Shares the data of the tensor it is made from; results of ops on it are plain
    tensors (``wrap`` makes a Tensor), as torch's are."""

    __slots__ = ()

    def __new__(cls, data=None, requires_grad: bool = True):
        if data is None:
            from .._creation import empty
            data = empty(0)
        t = object.__new__(cls)
        t.array = data.array
        t._grad = None
        t.node = None
        t._version = data.shared_version() if isinstance(data, EngineTensor) else None
        t._hooks = None
        t.retains_grad = False
        t._view = None
        t._rg = False  # the slot: the public name checks the flag
        if requires_grad:
            t.requires_grad = True
        return t

    @classmethod
    def wrap(cls, data):
        return _plain_wrap(data)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + tensor_repr(self, None)

    __str__ = __repr__

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        p = Parameter(_plain_wrap(self.array.copy()), self.requires_grad)
        memo[id(self)] = p
        return p

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self.array, self.requires_grad))


def _rebuild_parameter(array, requires_grad):
    return Parameter(_plain_wrap(array), requires_grad)


Parameter.__module__ = "torch.nn.parameter"


class Buffer(Tensor):
    """torch.nn.Buffer marker: ``module.x = Buffer(t)`` registers a buffer."""

    __slots__ = ()

    def __new__(cls, data=None, persistent: bool = True):
        t = _plain_wrap(data.array)
        t._version = data.shared_version()
        return t
