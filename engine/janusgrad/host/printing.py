"""Neutral help for printing tensors: which elements are shown, as Python values.

Both frameworks print at most ``threshold`` elements, keeping ``edgeitems``
from each end of every dimension once the tensor is summarised.  The
frontends lay the values out in their own style; this module only picks them.
"""
from __future__ import annotations

from janusgrad.array.backend import MODULES, to_host


def is_summarized(array, threshold: int = 1000) -> bool:
    return array.size > threshold


def _edges(array, edgeitems: int):
    """The array with the middle of every long dimension cut out, cut on its own device
    (so that only the edge items are copied to the host)."""
    for axis, n in enumerate(array.shape):
        if n > 2 * edgeitems:
            lead = (slice(None),) * axis
            head = array[lead + (slice(0, edgeitems),)]
            tail = array[lead + (slice(n - edgeitems, n),)]
            array = MODULES[type(array)].concatenate((head, tail), axis=axis)
    return array


def shown(array, summarize: bool, edgeitems: int = 3):
    """A host (numpy) array of what is printed: all of ``array``, or when ``summarize``
    only the first and last ``edgeitems`` of every long dimension."""
    return to_host(_edges(array, edgeitems) if summarize else array)


def nested(array, summarize: bool, edgeitems: int = 3):
    """Nested lists of Python values; ``...`` (Ellipsis) stands for a cut middle."""
    return _nest(shown(array, summarize, edgeitems), array.shape, summarize, edgeitems)


def _nest(values, shape, summarize: bool, edgeitems: int):
    """``values``: the host array of what is shown; ``shape``: the full array's shape."""
    if not shape:
        return values.item()
    n = shape[0]
    if summarize and n > 2 * edgeitems:
        rows = [_nest(values[i], shape[1:], summarize, edgeitems) for i in range(2 * edgeitems)]
        return rows[:edgeitems] + [...] + rows[edgeitems:]
    if len(shape) == 1:
        return values.tolist()
    return [_nest(values[i], shape[1:], summarize, edgeitems) for i in range(n)]


def shown_values(array, summarize: bool, edgeitems: int = 3) -> list:
    """Flat list of the Python values that will be printed."""
    return shown(array, summarize, edgeitems).reshape(-1).tolist()


def float_stats(values: list) -> tuple[bool, float | None, float | None]:
    """(every finite value is integral, max |finite nonzero|, min |finite nonzero|)."""
    finite = [v for v in values if v == v and v not in (float("inf"), float("-inf"))]
    integral = all(v == int(v) for v in finite)
    nonzero = [abs(v) for v in finite if v != 0]
    if not nonzero:
        return integral, None, None
    return integral, max(nonzero), min(nonzero)


def layout(values, ndim: int, indent: int, width: int, linewidth: int, item,
           cut: str = "...") -> str:
    """Nested brackets around ``values`` (as ``nested`` gives them), as both frameworks lay
    them out: each element is ``item(v)``; a row of a 1-d block holds as many elements of
    ``width`` (plus ", ") as fit in ``linewidth`` after ``indent``; the blocks of an n-d
    level are separated by n - 1 newlines and aligned one column right of their bracket;
    ``cut`` stands for the elided middle of a row."""
    if ndim == 0:
        return item(values)
    if ndim == 1:
        per_line = max(1, (linewidth - indent) // (width + 2))
        data = [cut if v is ... else item(v) for v in values]
        lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    parts = ["..." if v is ... else layout(v, ndim - 1, indent + 1, width, linewidth, item, cut)
             for v in values]
    return "[" + ("," + "\n" * (ndim - 1) + " " * (indent + 1)).join(parts) + "]"
