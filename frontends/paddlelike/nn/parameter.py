"""paddle's parameters: ``EagerParamBase`` tensors, ``ParamAttr`` and unique names.

A parameter is a paddlelike Tensor with ``stop_gradient=False`` and the
attributes paddle keeps on it (``name``, ``trainable``, ``optimize_attr``,
``regularizer``, ``need_clip``).  Names follow paddle's unique-name counters
(``linear_0.w_0``), which paddle.save records in its name table.
"""
from __future__ import annotations

import re

from ..printing import to_string
from ..tensor import Tensor

_counters: dict[str, int] = {}
_make = Tensor.wrap.__func__  # the engine's constructor, bound to the class we pass


def unique_name(prefix: str) -> str:
    """paddle's ``unique_name.generate``: ``prefix_0``, ``prefix_1`` ... per prefix."""
    n = _counters.get(prefix, 0)
    _counters[prefix] = n + 1
    return f"{prefix}_{n}"


def snake_case(name: str) -> str:
    """paddle's layer name scope: ``MySequential`` -> ``my_sequential``; a digit does not
    start a word, so ``Conv2D`` -> ``conv2d`` and ``BatchNorm2D`` -> ``batch_norm2d``."""
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


class Parameter(Tensor):
    """paddle's ``EagerParamBase``: a trainable leaf that prints ``Parameter containing:``."""

    __slots__ = ("trainable_", "optimize_attr", "regularizer", "need_clip",
                 "do_model_average", "is_distributed")

    @classmethod
    def of(cls, array, name: str, trainable: bool = True, learning_rate: float = 1.0,
           regularizer=None, need_clip: bool = True):
        p = _make(cls, array)
        p.name = name
        p.trainable_ = trainable
        p.requires_grad = trainable
        p.optimize_attr = {"learning_rate": learning_rate}
        p.regularizer = regularizer
        p.need_clip = need_clip
        p.do_model_average = None
        p.is_distributed = False
        return p

    @classmethod
    def wrap(cls, data):
        """Results of ops on a parameter are plain tensors, as in paddle."""
        return Tensor.wrap(data)

    @property
    def trainable(self) -> bool:
        return self.trainable_

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self.trainable_ = bool(value)
        self.requires_grad = bool(value)

    @property
    def persistable(self) -> bool:
        return True

    def value(self):
        """The tensor itself (a method in paddle 3.3; printing ``p.value`` shows it bound)."""
        return self

    value.__qualname__ = "monkey_patch_tensor.<locals>.value"

    def __repr__(self) -> str:
        return "Parameter containing:\n" + to_string(self)

    __str__ = __repr__

    def __deepcopy__(self, memo):
        p = Parameter.of(self.array.copy(), self.name + unique_name("_deepcopy"), self.trainable_,
                         self.optimize_attr["learning_rate"], self.regularizer, self.need_clip)
        memo[id(self)] = p
        return p


Parameter.__module__ = "paddle.base.framework"
Parameter.__qualname__ = Parameter.__name__ = "EagerParamBase"


class ParamAttr:
    """paddle.ParamAttr: how a parameter is named, initialised, trained and regularised."""

    def __init__(self, name: str | None = None, initializer=None, learning_rate: float = 1.0,
                 regularizer=None, trainable: bool = True, do_model_average: bool = True,
                 need_clip: bool = True) -> None:
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg):
        """paddle's normalisation of ``weight_attr``/``bias_attr`` arguments.

        None -> default ParamAttr; False -> False (no parameter); a string ->
        the name; an initializer -> ParamAttr(initializer=...).
        """
        if arg is None:
            return ParamAttr()
        if isinstance(arg, ParamAttr):
            return arg
        if arg is False:
            return False
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, bool):
            return ParamAttr() if arg else False
        from .initializer import Initializer
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        raise TypeError(f"{type(arg)} cast to ParamAttr")


ParamAttr.__module__ = "paddle.base.param_attr"


def make_parameter(shape, dtype, attr, is_bias: bool, default_initializer, scope: str):
    """A new parameter of ``shape`` initialised as paddle's LayerHelper does.

    ``attr`` False means "no parameter" (returns None).  Without an explicit
    initializer, weights get XavierUniform and biases Constant(0.0).
    """
    from janusgrad.array.backend import to_device
    from janusgrad.ops import creation as C

    from ..device import expected_device
    from ..meta import to_np
    from . import initializer as init

    attr = ParamAttr._to_attr(attr)
    if attr is False:
        return None
    for i, size in enumerate(shape):
        if size < 0:
            raise AssertionError("Expected every dim's size to be larger than or equal to 0, "
                                 f"but the size of the {i}-th dim is {size}")
    np_dtype = to_np(dtype if dtype is not None else "float32")
    name = attr.name if attr.name is not None else unique_name(
        scope + (".b" if is_bias else ".w"))
    initializer = attr.initializer or default_initializer
    if initializer is None:
        initializer = init.Constant(0.0) if is_bias else init.XavierUniform()
    # initialised on the host (initializers draw there), then moved to the expected place
    p = Parameter.of(C.zeros(Tensor, tuple(int(s) for s in shape), np_dtype).array, name,
                     attr.trainable, attr.learning_rate, attr.regularizer, attr.need_clip)
    initializer(p)
    device = expected_device()
    if device is not None:
        p.array = to_device(p.array, device)
    return p



def create_parameter(shape, dtype, name=None, attr=None, is_bias: bool = False,
                     default_initializer=None):
    """paddle.create_parameter: a parameter outside any layer (scope ``create_parameter``)."""
    attr = ParamAttr._to_attr(attr)
    if name is not None and attr is not False:
        attr.name = name
    return make_parameter(list(shape), dtype, attr, is_bias, default_initializer,
                          "create_parameter")
