"""paddle.linalg: the table's LINALG_ROWS (paddlelike._table), and the names it shares with
paddle (norm, matmul, diagonal, vecdot), which are paddle's functions themselves."""
from __future__ import annotations

from janusgrad.dropin import module_getattr
from janusgrad.surface import install

from ._table import ENV, LINALG_ROWS
from .tensor import FUNCTIONS

LINALG: dict = {n: FUNCTIONS[n] for n in ("norm", "matmul", "diagonal", "vecdot")}
install(LINALG_ROWS, LINALG, None, module="paddle.linalg", env=ENV)
globals().update(LINALG)

__getattr__ = module_getattr("paddlelike", "paddle.linalg")

__all__ = sorted(LINALG)
