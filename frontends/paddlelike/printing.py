"""repr/str of a tensor, laid out as paddle 3.3.1 prints it.

Rules (observed): a header line, then the data indented by len("Tensor(").
Each float item is formatted alone: an integral value as ``'{:.0f}.'``,
otherwise with ``precision`` decimals (never scientific by default).  The
common width is the longest item among the first/last ``edgeitems`` of every
dimension (even when the tensor is not summarised); shorter items are
left-justified, and when any such item is negative the non-negative ones get a
leading space.  Items per line = (linewidth - indent) // (width + 2).
"""
from __future__ import annotations

from janusgrad.host.printing import layout, nested, shown_values

from .meta import of_np, place_of


class PrintOptions:
    precision = 8
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = False


OPTIONS = PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None,
                     linewidth=None) -> None:
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("sci_mode", sci_mode),
                        ("linewidth", linewidth)):
        if value is not None:
            setattr(OPTIONS, name, value)


def _item(v, is_float: bool) -> str:
    if not is_float:
        return str(v)
    if OPTIONS.sci_mode:
        return f"{v:.{OPTIONS.precision}e}"
    if v == v and v in (float("inf"), float("-inf")) or (v == v and v == int(v)):
        return f"{v:.0f}."
    return f"{v:.{OPTIONS.precision}f}"


def _pad(s: str, v, width: int, signed: bool) -> str:
    if width <= len(s):
        return s
    if signed and not v < 0:
        return " " + s.ljust(width - 1)
    return s.ljust(width)


def format_data(array, indent: int) -> str:
    """The data part of the repr (what follows the header line)."""
    shape = array.shape
    size = array.size if shape else 0
    summary = size > OPTIONS.threshold
    is_float = array.dtype.kind == "f"
    width, signed = 0, False
    if array.size:
        # paddle measures the width on the edge items, summarised or not
        for v in shown_values(array, True, OPTIONS.edgeitems):
            if not signed and v < 0:
                signed = True
            n = len(_item(v, is_float))
            if n > width:
                width = n
    values = nested(array, summary, OPTIONS.edgeitems)  # copies only what is shown
    return layout(values, len(shape), indent, width, OPTIONS.linewidth,
                  lambda v: _pad(_item(v, is_float), v, width, signed))


def to_string(t, prefix: str = "Tensor") -> str:
    a = t.array
    place = place_of(a)
    indent = len(prefix) + 1
    shape = "[" + ", ".join(str(d) for d in a.shape) + "]"
    return (f"{prefix}(shape={shape}, dtype={of_np(a.dtype).name}, place={place}, "
            f"stop_gradient={not t.requires_grad},\n{' ' * indent}"
            f"{format_data(a, indent)})")
