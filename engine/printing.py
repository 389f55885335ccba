"""Neutral help for printing tensors: which elements are shown, as Python values.

Both frameworks print at most ``threshold`` elements, keeping ``edgeitems``
from each end of every dimension once the tensor is summarised.  The
frontends lay the values out in their own style; this module only picks them.
"""
from __future__ import annotations

from .backend import xp


def is_summarized(array, threshold: int = 1000) -> bool:
    return array.size > threshold


def _shown(array, edgeitems: int):
    """The array with the middle of every long dimension cut out (for statistics)."""
    for axis, n in enumerate(array.shape):
        if n > 2 * edgeitems:
            idx = list(range(edgeitems)) + list(range(n - edgeitems, n))
            array = xp.take(array, idx, axis=axis)
    return array


def nested(array, summarize: bool, edgeitems: int = 3):
    """Nested lists of Python values; ``...`` (Ellipsis) stands for a cut middle."""
    if array.ndim == 0:
        return array.item()
    n = array.shape[0]
    if summarize and n > 2 * edgeitems:
        head = [nested(array[i], summarize, edgeitems) for i in range(edgeitems)]
        tail = [nested(array[i], summarize, edgeitems) for i in range(n - edgeitems, n)]
        return head + [...] + tail
    if array.ndim == 1:
        return array.tolist()
    return [nested(array[i], summarize, edgeitems) for i in range(n)]


def shown_values(array, summarize: bool, edgeitems: int = 3) -> list:
    """Flat list of the Python values that will be printed."""
    if summarize:
        array = _shown(array, edgeitems)
    return array.reshape(-1).tolist()


def float_stats(values: list) -> tuple[bool, float | None, float | None]:
    """(every finite value is integral, max |finite nonzero|, min |finite nonzero|)."""
    finite = [v for v in values if v == v and v not in (float("inf"), float("-inf"))]
    integral = all(v == int(v) for v in finite)
    nonzero = [abs(v) for v in finite if v != 0]
    if not nonzero:
        return integral, None, None
    return integral, max(nonzero), min(nonzero)
