"""torch.utils."""
from __future__ import annotations

from janusgrad.dropin import module_getattr

from . import data

__all__ = ["data"]
__getattr__ = module_getattr("torchlike", "torch.utils")
