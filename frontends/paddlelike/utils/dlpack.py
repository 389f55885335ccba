"""paddle.utils.dlpack: exchange tensors with numpy, torch, cupy ... without a copy."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from .._surface import from_dlpack, to_dlpack

__all__ = ["from_dlpack", "to_dlpack"]
__getattr__ = module_getattr("paddlelike", "paddle.utils.dlpack")
