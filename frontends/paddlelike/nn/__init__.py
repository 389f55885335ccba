"""paddle.nn (only ``functional`` so far)."""
from engine.dropin import module_getattr as _module_getattr

from . import functional  # noqa: F401

__getattr__ = _module_getattr("paddlelike", "paddle.nn")
