"""torch.nn: only ``functional`` so far (layers come with a later issue)."""
from __future__ import annotations

from engine.dropin import module_getattr

from . import functional

__all__ = ["functional"]
__getattr__ = module_getattr("torchlike", "torch.nn")
