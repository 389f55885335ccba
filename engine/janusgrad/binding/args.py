"""Argument arithmetic both dialects need: target shapes, split sizes, axis lists.

These return facts (a resolved shape, or None where the request is invalid); the
frontends word each framework's error from them.  Axis range checks are
``janusgrad.ops.shape.checked_axis``.
"""
from __future__ import annotations

from collections.abc import Sequence


def infer_shape(shape: Sequence[int], size: int) -> tuple[int, ...] | None:
    """``shape`` with its one ``-1`` inferred so that it holds ``size`` elements; None
    when no shape does (two -1s, a product that does not divide or match ``size``)."""
    shape = tuple(int(s) for s in shape)
    unknown = shape.count(-1)
    if unknown > 1 or any(s < -1 for s in shape):
        return None
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if unknown:
        if known == 0 or size % known:
            return None
        return tuple(size // known if s == -1 else s for s in shape)
    return shape if known == size else None


def sizes_of_step(n: int, step: int) -> list[int]:
    """Pieces of ``step`` elements along an axis of ``n``, the last one shorter."""
    return [step] * (n // step) + ([n % step] if n % step else [])


def sizes_of_count(n: int, count: int) -> list[int] | None:
    """``count`` equal pieces of an axis of ``n``; None when ``count`` does not divide it."""
    if count <= 0 or n % count:
        return None
    return [n // count] * count


def sizes_with_rest(n: int, sections: Sequence[int]) -> list[int] | None:
    """Section sizes whose one ``-1`` takes the rest of an axis of ``n``; None when they
    cannot add up to ``n``."""
    sizes = [int(s) for s in sections]
    if sizes.count(-1) > 1:
        return None
    if -1 in sizes:
        rest = n - sum(s for s in sizes if s != -1)
        if rest < 0:
            return None
        sizes[sizes.index(-1)] = rest
    return sizes if sum(sizes) == n else None


def chunk_step(n: int, chunks: int) -> int:
    """The piece size of torch-style ``chunk``: ceil(n / chunks), at least 1."""
    return -(-n // chunks) if n else 1


def axes_tuple(axis) -> tuple[int, ...] | int | None:
    """An axis argument (None, int, list or tuple) as None, an int or a tuple of ints."""
    if axis is None or isinstance(axis, int):
        return axis
    return tuple(int(a) for a in axis)


def broadcast_clashes(a: Sequence[int], b: Sequence[int]) -> list[tuple[int, int, int]]:
    """(dim, size in a, size in b) for each dimension of the right-aligned shapes (the
    shorter padded with 1s on the left) that does not broadcast, left to right."""
    n = max(len(a), len(b))
    pa, pb = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    return [(i, x, y) for i, (x, y) in enumerate(zip(pa, pb)) if x != y and 1 not in (x, y)]
