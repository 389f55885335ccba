"""Writes into parameters and their gradients that no graph records: resetting gradients
and loading values (a module's ``zero_grad``, an optimiser's, a checkpoint's load)."""
from __future__ import annotations

from .backend import device_of, to_device


def reset_grads(params, set_to_none: bool = True) -> None:
    """Drop each parameter's gradient, or (``set_to_none`` false) zero it in place, detached
    from the graph that made it."""
    for p in params:
        g = p._grad
        if g is None:
            continue
        if set_to_none:
            p._grad = None
        else:
            g = p._grad = g.detach()
            g.array[...] = 0


def assign(t, value) -> None:
    """Write ``value``'s data into ``t`` (moved onto ``t``'s device), outside any graph;
    bumps ``t``'s version."""
    t.array[...] = to_device(value.array, device_of(t.array))
    t.bump_version()
