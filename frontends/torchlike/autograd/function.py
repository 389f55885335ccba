"""torch.autograd.Function: custom functions on the engine's one mechanism
(janusgrad.core.function).

The ctx of a call is an instance of ``<Name>Backward`` and is also what
``output.grad_fn`` returns, as in torch.
"""
from __future__ import annotations

import functools
import inspect
import itertools
import warnings

from janusgrad.core import function as _fn
from janusgrad.core.tensor import Tensor as _EngineTensor
from janusgrad.ops import OpDef

from .. import _grad_fn

_ids = itertools.count()

class FunctionCtx(_fn.Context):
    """What a custom function's forward/backward receive as ``ctx``."""

    def save_for_backward(self, *tensors) -> None:
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, _EngineTensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} "
                                f"is of type {type(t).__name__}")
        self._to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        self.saved_for_forward = tensors

    def mark_shared_storage(self, *pairs) -> None:
        raise RuntimeError("mark_shared_storage is deprecated. Tensors with shared storages "
                           "are automatically tracked. Note that calls to `set_()` are not "
                           "tracked")

    @property
    def saved_tensors(self) -> tuple:
        return self.saved_values()

    @property
    def materialize_grads(self):
        raise AttributeError("attribute 'materialize_grads' of 'torch._C._FunctionBase' objects "
                             "is not readable")


class BackwardCFunction(FunctionCtx, _grad_fn._NodeView):
    """Base of every ``<Name>Backward``: a ctx that is also the output's ``grad_fn``.

    ``grad_fn`` hands out ``cls(node)``; for our nodes that is the call's ctx itself.
    """

    def __new__(cls, node=None):
        if node is not None:
            return node.attrs
        return object.__new__(cls)

    def __init__(self, node=None) -> None:
        if node is None:
            _fn.Context.__init__(self)

    @property
    def _node(self):
        ref = self._node_ref
        return ref() if ref is not None else None

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{type(self).__name__} object at {id(self):#x}>"

    __hash__ = object.__hash__

    def __eq__(self, other) -> bool:
        return self is other

    def apply(self, *grads):
        return self._forward_cls._user_backward()(self, *grads)

    def run_backward(self, grads: list):
        return self._forward_cls._user_backward()(self, *grads)

    # -- torch's wording of what backward may return
    def count_error(self, expected: int, got: int) -> Exception:
        return RuntimeError(f"function {type(self).__name__} returned an incorrect number of "
                            f"gradients (expected {expected}, got {got})")

    def type_error(self, index: int, value) -> Exception:
        return RuntimeError(f"expected Variable or None (got {type(value).__name__})")

    def non_tensor_input_error(self, index: int) -> Exception:
        return RuntimeError(f"function {type(self).__name__} returned a gradient different than "
                            f"None at position {index + 1}, but the corresponding forward input "
                            "was not a Variable")

    def shape_error(self, index: int, grad_shape, input_shape) -> Exception:
        return RuntimeError(
            f"Function {type(self).__name__} returned an invalid gradient at index {index} - got "
            f"[{', '.join(map(str, grad_shape))}] but expected shape compatible with "
            f"[{', '.join(map(str, input_shape))}]")

    def leaf_inplace_error(self, tensor) -> Exception:
        return RuntimeError("a leaf Variable that requires grad has been used in an in-place "
                            "operation.")


def _is_overridden(cls, name: str) -> bool:
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return "_is_base_function" not in klass.__dict__ and klass is not object
    return False


class FunctionMeta(type):
    """Makes ``<Name>Backward`` (the ctx/grad_fn class) and the engine op for each Function."""

    def __init__(cls, name, bases, attrs) -> None:
        super().__init__(name, bases, attrs)
        node_name = name + "Backward"
        backward_cls = type(node_name, (BackwardCFunction,), {"_forward_cls": cls})
        backward_cls.__module__ = "torch.autograd.function"
        cls._backward_cls = backward_cls
        op_name = f"{name}Backward#{next(_ids)}"  # unique: never a built-in op's name
        cls._op = _fn.FunctionOp(op_name)
        _grad_fn._NAMES[op_name] = node_name
        _grad_fn._classes[node_name] = backward_cls
        cls._signature = None
        # decided once per class, not per call
        cls._uses_setup_context = _is_overridden(cls, "setup_context")
        cls._vjp_only = not _is_overridden(cls, "backward") and _is_overridden(cls, "vjp")


class Function(metaclass=FunctionMeta):
    """Subclass with static ``forward`` and ``backward``; call with ``.apply``."""

    _is_base_function = True  # its forward/backward/setup_context are the placeholders
    generate_vmap_rule = False
    clear_saved_tensors_on_access = False

    def __init__(self, *args, **kwargs) -> None:
        warnings.warn(
            f"{type(self)} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch.",
            DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD.")

    @classmethod
    def _user_backward(cls):
        return cls.vjp if cls._vjp_only else cls.backward

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = cls._backward_cls()
        if cls._uses_setup_context:
            sig = cls._signature
            if sig is None:
                sig = cls._signature = inspect.signature(cls.forward)
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs

            def run():
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
                return out
        else:
            def run():
                return cls.forward(ctx, *args, **kwargs)
        return _fn.apply(cls._op, ctx, args, run)


# -- once_differentiable: backward runs without a graph; differentiating it again raises
def _error_rule(node, g):
    raise RuntimeError(
        "trying to differentiate twice a function that was marked with @once_differentiable")


_ERROR_OP = OpDef("once_differentiable_error", _error_rule)
_grad_fn._NAMES[_ERROR_OP.name] = "Error"


def once_differentiable(fn):
    return functools.wraps(fn)(_fn.once_differentiable(fn, _ERROR_OP))


for _obj in (Function, FunctionCtx, BackwardCFunction, FunctionMeta, once_differentiable):
    _obj.__module__ = "torch.autograd.function"

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "FunctionMeta", "once_differentiable"]
