"""torch.compiler: reset, disable, is_compiling, list_backends (see torchlike._compile)."""
from __future__ import annotations

from .._compile import compile, disable, is_compiling, is_dynamo_compiling, list_backends, reset

__all__ = ["compile", "disable", "is_compiling", "is_dynamo_compiling", "list_backends",
           "reset"]
