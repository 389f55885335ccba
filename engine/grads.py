"""Gradient reset: what an optimiser's ``zero_grad`` / ``clear_grad`` does to each tensor."""
from __future__ import annotations

from .backend import xp_of


def zero_(t) -> None:
    """Set ``t``'s gradient to zeros, in a fresh array of its shape, dtype and device (the
    gradient's array may be a read-only broadcast view); its version moves.  A tensor with
    no gradient keeps none."""
    g = t.grad
    if g is None:
        return
    g.array = xp_of(g.array).zeros_like(g.array)
    g.bump_version()
