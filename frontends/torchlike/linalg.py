"""torch.linalg: the table's rows (torchlike._table: LINALG_ROWS)."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from ._dialect import LinAlgError
from ._table import LINALG

LINALG["LinAlgError"] = LinAlgError
globals().update(LINALG)

__getattr__ = module_getattr("torchlike", "torch.linalg")

__all__ = sorted(LINALG)
