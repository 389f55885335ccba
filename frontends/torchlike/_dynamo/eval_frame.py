"""torch._dynamo.eval_frame: where torch keeps OptimizedModule."""
from __future__ import annotations

from .._compile import OptimizedModule

__all__ = ["OptimizedModule"]
