"""torch.no_grad / enable_grad / set_grad_enabled / inference_mode over the engine's flag."""
from __future__ import annotations

from engine.mode import GradMode, state


class no_grad(GradMode):  # noqa: N801
    mode = False

    def __init__(self) -> None:
        super().__init__()


class enable_grad(GradMode):  # noqa: N801
    mode = True

    def __init__(self) -> None:
        super().__init__()


class inference_mode(GradMode):  # noqa: N801
    def __init__(self, mode: bool = True) -> None:
        super().__init__(not mode)


class set_grad_enabled(GradMode):  # noqa: N801
    """Sets the mode at once when called; as a context manager restores it on exit."""

    def __init__(self, mode: bool) -> None:
        super().__init__(mode)
        self.prev = state.enabled
        state.enabled = self.mode

    def __enter__(self):
        self._prev.append(self.prev)
        state.enabled = self.mode
        return None

    def __call__(self, fn):
        state.enabled = self.prev  # decorating must not leave the mode changed
        return super().__call__(fn)

    def __repr__(self) -> str:
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.mode})"
