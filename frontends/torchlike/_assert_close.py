"""torch.testing.assert_close, with torch 2.13's failure messages."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from janusgrad.backend import to_host
from janusgrad.tensor import Tensor

from . import _dtypes
from ._size import Size

_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def _tolerances(dtype: np.dtype, rtol, atol):
    if (rtol is None) != (atol is None):
        missing = "atol" if atol is None else "rtol"
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, "
                         f"but got no {missing}.")
    if rtol is not None:
        return rtol, atol
    return _TOLERANCES.get(dtype.name, (0.0, 0.0))


def _fail(msg, default: str, item: str) -> None:
    if callable(msg):
        text = msg(default)
    elif msg is not None:
        text = msg
    else:
        text = default + (f"\n\nThe failure occurred for item {item}" if item else "")
    raise AssertionError(text)


def _number(v):
    return v.item() if isinstance(v, np.generic) else v


def _compare(actual, expected, scalar: bool, rtol, atol, equal_nan, check_dtype, msg,
             item: str) -> None:
    a, e = actual, expected
    if a.shape != e.shape:
        _fail(msg, f"The values for attribute 'shape' do not match: {Size(a.shape)} != "
                   f"{Size(e.shape)}.", item)
    if check_dtype and a.dtype != e.dtype:
        _fail(msg, f"The values for attribute 'dtype' do not match: "
                   f"{_dtypes.from_np(a.dtype)} != {_dtypes.from_np(e.dtype)}.", item)
    dtype = np.promote_types(a.dtype, e.dtype)
    rtol, atol = _tolerances(dtype, rtol, atol)
    if dtype.kind in "biu":
        a, e, dtype = a.astype(np.int64), e.astype(np.int64), np.dtype(np.int64)
    else:
        a, e = a.astype(dtype), e.astype(dtype)
    with np.errstate(all="ignore"):
        diff = np.abs(a - e)
        close = diff <= atol + rtol * np.abs(e)
        if dtype.kind == "f":
            close |= a == e  # infinities of one sign
            if equal_nan:
                close |= np.isnan(a) & np.isnan(e)
        if close.all():
            return
        rel_dtype = dtype if dtype.kind == "f" else np.float32
        rel = diff.astype(rel_dtype) / np.abs(e).astype(rel_dtype)
    equal = rtol == 0 and atol == 0
    kind = "equal" if equal else "close"
    if scalar:  # torch compares 0-d values as Python numbers
        av, ev = _number(a.reshape(()).item()), _number(e.reshape(()).item())
        d = abs(av - ev)
        r = d / abs(ev) if ev else (float("nan") if d == 0 or d != d else float("inf"))
        text = (f"Scalars are not {kind}!\n\nExpected {ev} but got {av}.\n"
                f"Absolute difference: {d}" + ("" if equal else f" (up to {atol} allowed)")
                + f"\nRelative difference: {r}" + ("" if equal else f" (up to {rtol} allowed)"))
        _fail(msg, text, item)
    n_bad, n = int((~close).sum()), close.size
    i_abs = np.unravel_index(int(np.argmax(np.where(np.isnan(diff), np.inf, diff))
                                 if dtype.kind == "f" else np.argmax(diff)), a.shape)
    i_rel = np.unravel_index(int(np.argmax(np.where(np.isnan(rel), np.inf, rel))), a.shape)
    idx_abs = tuple(int(i) for i in i_abs)
    idx_rel = tuple(int(i) for i in i_rel)
    text = (f"Tensor-likes are not {kind}!\n\n"
            f"Mismatched elements: {n_bad} / {n} ({100 * n_bad / n:.1f}%)\n"
            f"Greatest absolute difference: {diff[idx_abs].item()} at index {idx_abs}"
            + ("" if equal else f" (up to {atol} allowed)") + "\n"
            f"Greatest relative difference: {rel[idx_rel].item()} at index {idx_rel}"
            + ("" if equal else f" (up to {rtol} allowed)"))
    _fail(msg, text, item)


def _leaf(x):
    """(host array, is_scalar) for a tensor, numpy array or Python number; None otherwise."""
    if isinstance(x, Tensor):
        array = to_host(x.array)
        return array, array.ndim == 0
    if isinstance(x, np.ndarray):
        return x, x.ndim == 0
    if isinstance(x, bool | int | float | np.generic):
        return np.asarray(x, dtype=np.float64 if isinstance(x, float) else None), True
    return None


def _walk(actual, expected, item: str, kw) -> None:
    la, le = _leaf(actual), _leaf(expected)
    if la is not None and le is not None:
        scalar = la[1] and le[1]
        check_dtype = kw["check_dtype"] and isinstance(actual, Tensor)
        _compare(la[0], le[0], scalar, kw["rtol"], kw["atol"], kw["equal_nan"], check_dtype,
                 kw["msg"], item)
        return
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        if set(actual) != set(expected):
            _fail(kw["msg"], f"The keys of the mappings do not match:\n{sorted(actual)} != "
                             f"{sorted(expected)}", item)
        for k in expected:
            _walk(actual[k], expected[k], f"{item}[{k!r}]", kw)
        return
    if isinstance(actual, Sequence) and isinstance(expected, Sequence) and not isinstance(
            actual, str) and not isinstance(expected, str):
        if len(actual) != len(expected):
            _fail(kw["msg"], f"The length of the sequences mismatch: {len(actual)} != "
                             f"{len(expected)}", item)
        for i, (x, y) in enumerate(zip(actual, expected)):
            _walk(x, y, f"{item}[{i}]", kw)
        return
    if type(actual) is not type(expected) and not (la and le):
        raise TypeError(f"No comparison pair was able to handle inputs of type "
                        f"{type(actual)} and {type(expected)}.")
    if actual != expected:
        _fail(kw["msg"], f"Objects are not equal!\n\nExpected {expected} but got {actual}.",
              item)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None) -> None:
    """Raise AssertionError unless ``actual`` and ``expected`` are close:
    ``|actual - expected| <= atol + rtol * |expected|`` elementwise (torch's defaults per
    dtype), with torch's messages."""
    if (rtol is None) != (atol is None):
        _tolerances(np.dtype(np.float64), rtol, atol)
    _walk(actual, expected, "", dict(rtol=rtol, atol=atol, equal_nan=equal_nan,
                                     check_dtype=check_dtype, msg=msg))


