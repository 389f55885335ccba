"""torch.autograd.gradcheck: the engine's checker with torch's error class and defaults."""
from __future__ import annotations

from janusgrad.transforms import gradcheck as _gc


class GradcheckError(_gc.GradcheckError):
    """Raised when a gradient check fails (a RuntimeError, as in torch)."""


GradcheckError.__module__ = "torch.autograd.gradcheck"

gradcheck, gradgradcheck = _gc.bind(GradcheckError, __name__)

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]
