"""torch.no_grad / enable_grad / set_grad_enabled / inference_mode over the engine's flag."""
from __future__ import annotations

from engine.mode import GradMode
from engine.mode import set_grad_enabled as _set_grad_enabled


class _Bare(GradMode):
    """Usable as ``@no_grad()`` and as the bare decorator ``@no_grad``."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)

    def __init__(self, orig_func=None) -> None:
        super().__init__()


class no_grad(_Bare):  # noqa: N801
    mode = False


class enable_grad(_Bare):  # noqa: N801
    mode = True


class inference_mode(GradMode):  # noqa: N801
    def __init__(self, mode: bool = True) -> None:
        super().__init__(not mode)


class set_grad_enabled(_set_grad_enabled):  # noqa: N801
    """Sets the mode at once when called; as a context manager restores it on exit."""

    def __repr__(self) -> str:
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.mode})"
