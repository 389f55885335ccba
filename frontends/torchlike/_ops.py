"""Engine functions looked up by name, so that a missing one fails only when used."""
from __future__ import annotations

from janusgrad.core import inplace
from janusgrad.ops import creation, elementwise, index, linalg, reduce, shape

E, S, R, L, I, C = elementwise, shape, reduce, linalg, index, creation


def need(module, name: str, public: str):
    """``module.name``, or a function that raises naming the torch API it would serve."""
    fn = getattr(module, name, None)
    if fn is not None:
        return fn

    def missing(*args, **kwargs):
        raise NotImplementedError(f"torchlike does not implement {public} (no engine op "
                                  f"{module.__name__}.{name} yet)")

    return missing


__all__ = ["E", "S", "R", "L", "I", "C", "inplace", "need"]
