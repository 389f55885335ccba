"""paddle.autograd.PyLayer: custom functions on the engine's one mechanism
(janusgrad.core.function).

paddle differs from torch in what backward receives and may return: no slot
for a non-tensor output, one gradient per *tensor* input (positional or
keyword), None required for inputs with ``stop_gradient=True``, and a
gradient of exactly the input's shape.  Where paddle 3.3.1 crashes (a second
backward through a PyLayer) or silently misbehaves (a gradient of the wrong
shape or dtype), janusgrad gives a clear error or the right answer.
"""
from __future__ import annotations

import itertools

from janusgrad.core import function as _fn
from janusgrad.core.tensor import Tensor as _EngineTensor

from .. import dialect as _dialect
from ..dialect import given_name

_ids = itertools.count()
_AT_NODE = "(at /paddle/paddle/fluid/eager/pylayer/py_layer_node.cc:{})\n"


def _shape(s) -> str:
    return "[" + ", ".join(str(int(d)) for d in s) + "]"


class PyLayerContext(_fn.Context):
    """What a PyLayer's forward/backward receive as ``ctx``."""

    grad_slot_for_non_tensor_output = False
    output_sequences = (tuple, list)
    returned_input_is_inplace = True
    refuse_grad_for_stopped_input = True
    exact_grad_shape = True
    short_grads_allowed = True
    types_before_count = True
    flag_incoming_grads = True

    def saved_tensor(self) -> tuple | None:
        """What save_for_backward kept (None when nothing was saved)."""
        return self.saved_values() or None

    def set_grad_in_dtype_consistent(self, flag: bool) -> None:
        self.grad_in_dtype_consistent = bool(flag)

    @property
    def materialize_grads(self) -> bool:
        return self._materialize


class PyLayerBackward(PyLayerContext):
    """Base of every ``<Name>_backward`` (the runtime type of ctx)."""

    def run_backward(self, grads: list):
        return self._forward_cls.backward(self, *grads)

    @property
    def _node_label(self) -> str:
        return f"GradNodePyLayer_{self._forward_cls.__name__}"

    # -- paddle's wording of what backward may return
    def count_error(self, expected: int, got: int) -> Exception:
        return ValueError(
            f"(InvalidArgument) {self._node_label} : The number of outputs of `PyLayer.backward` "
            f"should be {expected}, but received {got}. " + _AT_NODE.format(196))

    def missing_error(self, index: int) -> Exception:
        return ValueError(
            f"(InvalidArgument) {self._node_label}'s backward function should not return empty "
            f"at {index} position.\n  [Hint: Expected this->OutputMeta()[i][0].IsStopGradient() "
            "== true, but received this->OutputMeta()[i][0].IsStopGradient():0 != true:1.] "
            + _AT_NODE.format(243))

    def type_error(self, index: int, value) -> Exception:
        return ValueError(
            f"(InvalidArgument) {self._node_label} : We can only support Tensor or None for "
            f"backward output, , but got {type(value).__name__}, please check your PyLayer code "
            "and make it fits " + _AT_NODE.format(234))

    def stopped_input_error(self, index: int, value) -> Exception:
        return ValueError(
            f"(InvalidArgument) {self._node_label}'s backward function should return None at "
            f"{index} position, because it's forward Tensor's stopgradient is true.\n  [Hint: "
            f"Expected obj == (&_Py_NoneStruct), but received obj:{id(value):#x} != "
            f"(&_Py_NoneStruct):{id(None):#x}.] " + _AT_NODE.format(213))

    def shape_error(self, index: int, grad_shape, input_shape) -> Exception:
        # paddle 3.3.1 passes such a gradient on unchecked; janusgrad refuses it
        return ValueError(
            f"(InvalidArgument) {self._node_label}'s backward function returned a gradient of "
            f"shape {_shape(grad_shape)} at {index} position, but its forward Tensor has shape "
            f"{_shape(input_shape)}.")

    def leaf_inplace_error(self, tensor) -> Exception:
        cond = ("!inplace_tensor_autograd_meta->StopGradient() && "
                "egr::EagerUtils::IsLeafTensor(*inplace_tensor)")
        return ValueError(
            f"(InvalidArgument) {self._forward_cls.__name__} : Leaf Var ({given_name(tensor)}) "
            f"that doesn't stop gradient can't use inplace strategy.\n  [Hint: Expected {cond} == "
            f"false, but received {cond}:1 != false:0.] "
            "(at /paddle/paddle/fluid/pybind/eager_py_layer.cc:550)\n")


class PyLayerMeta(type):
    """Makes ``<Name>_backward`` (the ctx class) and the engine op of each PyLayer."""

    def __init__(cls, name, bases, attrs) -> None:
        super().__init__(name, bases, attrs)
        backward_cls = type(name + "_backward", (PyLayerBackward,), {"_forward_cls": cls})
        backward_cls.__module__ = "paddle.autograd.py_layer"
        cls._backward_cls = backward_cls
        op_name = f"pylayer#{next(_ids)}:{name}"  # unique: never a built-in op's name
        cls._op = _fn.FunctionOp(op_name)
        _dialect._NODE_NAMES[op_name] = f"GradNodePyLayer_{name}"


def _has_tensor(result) -> bool:
    if isinstance(result, (tuple, list)):
        return any(isinstance(r, _EngineTensor) for r in result)
    return isinstance(result, _EngineTensor)


class PyLayer(metaclass=PyLayerMeta):
    """Subclass with static ``forward(ctx, ...)`` and ``backward(ctx, ...)``; call ``.apply``."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for PyLayer.")

    @staticmethod
    def backward(ctx, *args):
        raise NotImplementedError("You must implement the backward function for PyLayer.")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = cls._backward_cls()
        inputs = [a for a in args if isinstance(a, _EngineTensor)]
        if kwargs:
            inputs.extend(v for v in kwargs.values() if isinstance(v, _EngineTensor))

        def run():
            out = cls.forward(ctx, *args, **kwargs)
            if not _has_tensor(out):
                raise ValueError(
                    f"(InvalidArgument) {cls.__name__} : At least one output of `PyLayer.forward` "
                    "is a `Tensor`. (at /paddle/paddle/fluid/pybind/eager_py_layer.cc:524)\n")
            return out
        return _fn.apply(cls._op, ctx, inputs, run)


Function = PyLayer
for _cls in (PyLayer, PyLayerContext, PyLayerBackward, PyLayerMeta):
    _cls.__module__ = "paddle.autograd.py_layer"

__all__ = ["PyLayer", "PyLayerContext", "Function"]
