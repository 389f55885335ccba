"""torch.special: the table's rows (torchlike._table: SPECIAL_ROWS, and the names it shares
with torch, which are torch's functions themselves)."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from ._table import SPECIAL

globals().update(SPECIAL)

__getattr__ = module_getattr("torchlike", "torch.special")

__all__ = sorted(SPECIAL)
