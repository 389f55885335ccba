"""paddle.nn (only ``functional`` so far)."""
from . import functional  # noqa: F401

try:
    from engine.dropin import module_getattr as _module_getattr
    __getattr__ = _module_getattr("paddlelike", "paddle.nn")
except ImportError:  # pragma: no cover - the runner's helper is optional
    pass
