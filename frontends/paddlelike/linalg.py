"""paddle.linalg: the table's LINALG_ROWS (paddlelike._table, installed in tensor.py), and
the names it shares with paddle (norm, matmul, diagonal, vecdot), which are paddle's
functions themselves."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr

from .tensor import LINALG

globals().update(LINALG)

__getattr__ = module_getattr("paddlelike", "paddle.linalg")

__all__ = sorted(LINALG)
