"""repr/str of tensors, laid out exactly as torch 2.13 prints them.

janusgrad.host.printing picks the shown values (as Python numbers); this module
decides widths, notation, line breaks and the suffixes.
"""
from __future__ import annotations

import math

from janusgrad.array.backend import device_of, is_meta, ndarray
from janusgrad.host.printing import float_stats, layout, nested, shown_values

from ._device import device_str

PRECISION = 4
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80
SCI_MODE = None  # torch.set_printoptions(sci_mode=...): None lets each tensor choose
_DEFAULT_DTYPES = ("float32", "int64", "bool")


class _Formatter:
    """torch's per-tensor element formatter: one width and notation for all elements."""

    __slots__ = ("floating", "int_mode", "sci_mode", "width")

    def __init__(self, values: list, floating: bool) -> None:
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if not floating:
            self.width = max((len(str(v)) for v in values), default=1)
            return
        integral, hi, lo = float_stats(values)
        if hi is None:
            return
        finite = [v for v in values if v == v and v != 0 and not math.isinf(v)]
        self.int_mode = integral
        # torch 2.13: the notation first (set_printoptions(sci_mode=...) decides when set),
        # then the width in that notation
        auto = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        self.sci_mode = auto if SCI_MODE is None else SCI_MODE
        if self.sci_mode:
            self.width = max(len(f"{v:.{PRECISION}e}") for v in finite)
        elif integral:
            self.width = max(len(f"{v:.0f}") for v in finite) + 1
        else:
            self.width = max(len(f"{v:.{PRECISION}f}") for v in finite)

    def format(self, v) -> str:
        if self.floating:
            if self.sci_mode:
                s = f"{v:{self.width}.{PRECISION}e}"
            elif self.int_mode:
                s = f"{v:.0f}"
                if not (math.isinf(v) or math.isnan(v)):
                    s += "."
            else:
                s = f"{v:.{PRECISION}f}"
        else:
            s = str(v)
        return " " * (self.width - len(s)) + s


def tensor_body(array, indent: int) -> str:
    """The bracketed values of a non-empty array, as torch lays them out."""
    summarize = array.size > THRESHOLD
    fmt = _Formatter(shown_values(array, summarize, EDGEITEMS), array.dtype.kind == "f")
    return layout(nested(array, summarize, EDGEITEMS), array.ndim, indent, fmt.width,
                  LINEWIDTH, fmt.format, cut=" ...")


def _add_suffixes(text: str, suffixes: list, indent: int) -> str:
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t, grad_fn_name: str | None, prefix: str = "tensor(") -> str:
    array = t.array
    indent = len(prefix)
    suffixes = []
    if type(array) is not ndarray:  # device data: torch names the device first
        d = device_of(array)
        if d.kind != "cpu":
            suffixes.append(f"device='{device_str(d)}'")
    dtype_name = str(array.dtype)
    if is_meta(array):  # no values: torch shows the size, and a dtype other than float32
        suffixes.append("size=" + str(tuple(array.shape)))
        if dtype_name != "float32":
            suffixes.append("dtype=torch." + dtype_name)
        body = "..."
    elif array.size == 0:
        if array.ndim != 1:
            suffixes.append("size=" + str(tuple(array.shape)))
        if dtype_name != "float32":
            suffixes.append("dtype=torch." + dtype_name)
        body = "[]"
    else:
        if dtype_name not in _DEFAULT_DTYPES:
            suffixes.append("dtype=torch." + dtype_name)
        body = tensor_body(array, indent)
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
