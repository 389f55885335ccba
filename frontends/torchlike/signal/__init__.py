"""torch.signal: the window functions (torch.signal.windows)."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from . import windows

__getattr__ = module_getattr("torchlike", "torch.signal")

__all__ = ["windows"]
