"""paddle.autograd: backward over several roots and the grad-mode switches."""
from __future__ import annotations

from engine import autograd as _autograd
from engine.dropin import module_getattr as _module_getattr
from engine.mode import enable_grad as _enable_grad
from engine.mode import is_grad_enabled
from engine.mode import no_grad as _no_grad
from engine.mode import set_grad_enabled as _set_grad_enabled

from ..tensor import _check_seed


class no_grad(_no_grad):  # noqa: N801 (paddle's spelling)
    """``with paddle.no_grad():`` and ``@paddle.no_grad()``."""


class enable_grad(_enable_grad):  # noqa: N801
    """``with paddle.enable_grad():`` and ``@paddle.enable_grad()``."""


class set_grad_enabled(_set_grad_enabled):  # noqa: N801
    """Sets grad mode when made (so a plain call works); restores it on leaving a ``with``."""


def backward(tensors, grad_tensors=None, retain_graph: bool = False) -> None:
    """paddle.autograd.backward: one tensor or a list, seeds default to ones."""
    from engine.tensor import Tensor
    if isinstance(tensors, Tensor):
        tensors = [tensors]
        if grad_tensors is not None and (isinstance(grad_tensors, Tensor)):
            grad_tensors = [grad_tensors]
    tensors = list(tensors)
    if grad_tensors is not None:
        grad_tensors = list(grad_tensors)
        for t, g in zip(tensors, grad_tensors):
            if g is not None:
                _check_seed(t, g)
    _autograd.backward(tensors, grad_tensors, retain_graph=bool(retain_graph))


__all__ = ["backward", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]

__getattr__ = _module_getattr("paddlelike", "paddle.autograd")
