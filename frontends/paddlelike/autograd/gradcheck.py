"""paddlelike.autograd.gradcheck / gradgradcheck: the engine's finite-difference checker.

Paddle has no public gradcheck; janusgrad offers the same checker as torchlike with
the same arguments.  Inputs to check have ``stop_gradient=False`` and are best float64;
failure messages print paddle tensors.
"""
from __future__ import annotations

from janusgrad.transforms import gradcheck as _gc


class GradcheckError(_gc.GradcheckError):
    """Raised when a gradient check fails (a RuntimeError)."""


gradcheck, gradgradcheck = _gc.bind(GradcheckError, __name__)

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]
