"""paddle.utils."""
from __future__ import annotations

from janusgrad.dropin import module_getattr

from . import dlpack

__all__ = ["dlpack"]
__getattr__ = module_getattr("paddlelike", "paddle.utils")
