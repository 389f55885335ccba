"""paddle.static: InputSpec, for to_static's ``input_spec`` (janusgrad runs no static graph)."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr as _module_getattr

from ..jit.api import InputSpec

__all__ = ["InputSpec"]

__getattr__ = _module_getattr("paddlelike", "paddle.static")
