"""torch._dynamo: reset, config, exc, eval_frame.OptimizedModule (see torchlike._compile)."""
from __future__ import annotations

from .._compile import is_compiling, list_backends, reset
from . import config, eval_frame, exc
from .eval_frame import OptimizedModule

__all__ = ["OptimizedModule", "config", "eval_frame", "exc", "is_compiling", "list_backends",
           "reset"]
