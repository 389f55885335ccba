"""torch.no_grad / enable_grad / set_grad_enabled / inference_mode over the engine's flag."""
from __future__ import annotations

from janusgrad.core.mode import GradMode, InferenceMode, is_inference_mode_enabled
from janusgrad.core.mode import set_grad_enabled as _set_grad_enabled


class _Bare(GradMode):
    """Usable as ``@no_grad()`` and as the bare decorator ``@no_grad``."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return object.__new__(cls)  # then GradMode.__init__(None): the class's mode
        return cls()(orig_func)


class no_grad(_Bare):  # noqa: N801
    mode = False

    def __init__(self) -> None:  # no arguments, as torch's (no_grad(None) is a TypeError)
        self._prev = []


class enable_grad(_Bare):  # noqa: N801
    mode = True


class inference_mode(InferenceMode):  # noqa: N801
    """``with torch.inference_mode():``, ``@torch.inference_mode()`` and the bare
    ``@torch.inference_mode``: grad off, results are inference tensors."""

    def __new__(cls, mode=True):
        if callable(mode):
            return InferenceMode(True)(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        super().__init__(mode)

    def clone(self) -> inference_mode:
        return type(self)(self.mode)


class set_grad_enabled(_set_grad_enabled):  # noqa: N801
    """Sets the mode at once when called; as a context manager restores it on exit."""

    def __repr__(self) -> str:
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.mode})"


for _c in (no_grad, enable_grad, inference_mode, set_grad_enabled):
    _c.__module__ = "torch.autograd.grad_mode"
__all__ = ["no_grad", "enable_grad", "inference_mode", "set_grad_enabled",
           "is_inference_mode_enabled"]
