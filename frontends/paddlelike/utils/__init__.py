"""paddle.utils."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from . import dlpack, unique_name  # unique_name: issue 16

__all__ = ["dlpack"]
__all__ += ["unique_name"]
__getattr__ = module_getattr("paddlelike", "paddle.utils")
