"""paddle.distribution (placeholder until the engine's distributions land)."""
from engine.dropin import module_getattr as _module_getattr

__getattr__ = _module_getattr("paddlelike", "paddle.distribution")
