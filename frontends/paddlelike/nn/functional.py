"""paddle.nn.functional: the activations the first chapters use."""
from __future__ import annotations

from engine.dropin import module_getattr as _module_getattr
from engine.ops import elementwise as E

from ..ops import _eng


def relu(x, name=None):
    return E.relu(x)


def sigmoid(x, name=None):
    return E.sigmoid(x)


def tanh(x, name=None):
    return E.tanh(x)


def softmax(x, axis=-1, dtype=None, name=None):
    if dtype is not None:
        from ..ops import cast
        x = cast(x, dtype)
    return _eng("reduce", "softmax")(x, axis)


def log_softmax(x, axis=-1, dtype=None, name=None):
    if dtype is not None:
        from ..ops import cast
        x = cast(x, dtype)
    return _eng("reduce", "log_softmax")(x, axis)


__getattr__ = _module_getattr("paddlelike", "paddle.nn.functional")
