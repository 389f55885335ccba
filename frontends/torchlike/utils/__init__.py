"""torch.utils."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from . import data, dlpack

__all__ = ["data", "dlpack"]
__getattr__ = module_getattr("torchlike", "torch.utils")
