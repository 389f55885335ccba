"""paddle.autograd.jacobian / hessian: lazily evaluated Jacobian and Hessian objects.

The row-by-row evaluation, caching and indexing are the engine's
(``janusgrad.transforms.lazy_jacobian``); paddle's argument checks and their wording are here.
``jacobian(ys, xs, batch_axis=None)`` computes nothing at first; tuples of ys/xs give
(nested) tuples of objects.
"""
from __future__ import annotations

from janusgrad.transforms.lazy_jacobian import LazyJacobian, for_pairs, is_sequence


class Jacobian(LazyJacobian):
    """The Jacobian of ys w.r.t. xs, evaluated row by row on indexing."""

    def __init__(self, ys, xs, is_batched: bool = False) -> None:
        if not is_batched:
            if not 0 <= len(xs.shape) <= 1:
                raise ValueError(f"xs.ndim should be 0 or 1 when is_batched=False but got "
                                 f"{len(xs.shape)}")
            if not 0 <= len(ys.shape) <= 1:
                raise ValueError(f"ys.ndim should be 0 or 1 when is_batched=False but got "
                                 f"{len(ys.shape)}")
        else:
            if not 1 <= len(ys.shape) <= 2:
                raise ValueError(f"ys.ndim should be 1 or 2 when is_batched=True but got "
                                 f"{len(ys.shape)}")
            if not 1 <= len(xs.shape) <= 2:
                raise ValueError(f"xs.ndim should be 1 or 2 when is_batched=True but got "
                                 f"{len(xs.shape)}")
        super().__init__(ys, xs, is_batched)


class Hessian(Jacobian):
    """The Jacobian of a gradient; same indexing."""


def jacobian(ys, xs, batch_axis=None):
    """Lazy Jacobian(s) of ys w.r.t. xs (nested tuples for tuples of ys and/or xs)."""
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"batch_axis should be None or 0, but got {batch_axis}.")
    batched = batch_axis is not None
    return for_pairs(lambda y, x: Jacobian(y, x, batched), ys, xs)


def hessian(ys, xs, batch_axis=None):
    """Lazy Hessian(s) of a single-element ys (one element per batch row when batched)."""
    if batch_axis is None:
        n = int(ys.numel())
        if n > 1:
            raise ValueError(f"Only support ys.numel()({n})==1 when batch_axis is None.")
        ys = ys.reshape(())
    elif isinstance(batch_axis, int):
        if int(ys[0].numel()) > 1:
            raise ValueError(f"Only support ys[0].numel()({int(ys.numel())})==1 when "
                             "batch_axis is int")
        if batch_axis != 0:
            raise ValueError("Only support batch_axis=0 yet.")
        ys = ys.reshape((-1,))
    else:
        raise ValueError(f"batch_axis should be None or int, but got {type(batch_axis)}.")
    first = jacobian(ys, xs, batch_axis)
    if not is_sequence(xs):
        h = jacobian(first, xs, batch_axis)
        h.__class__ = Hessian
        return h
    h = tuple(jacobian(j, xs, batch_axis) for j in first)
    for row in h:
        for el in row:
            el.__class__ = Hessian
    return h


__all__ = ["Jacobian", "Hessian", "jacobian", "hessian"]

# printed (repr, tracebacks) under paddle's module name
Jacobian.__module__ = Hessian.__module__ = "paddle.autograd.autograd"
