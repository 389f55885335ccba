"""paddle.jit: to_static, not_to_static, enable_to_static (see paddlelike.jit.api)."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr as _module_getattr

from .api import enable_to_static, not_to_static, to_static

__all__ = ["enable_to_static", "not_to_static", "to_static"]

__getattr__ = _module_getattr("paddlelike", "paddle.jit")
