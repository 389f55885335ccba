"""torch.masked: reductions and normalisations under a mask (engine.ops.masked).

The rows translate torch.masked's signatures (``dim``, ``keepdim``, ``dtype``, ``mask``)
onto the engine's; the hand-written functions below them are where torch.masked's own
semantics differ from a plain translation, each says how.  torch.masked's functions are
Python functions: they take no ``axis=``/``keepdims=`` aliases.
"""
from __future__ import annotations

from janusgrad.binding.surface import Row, install
from janusgrad.host.dropin import module_getattr
from janusgrad.ops import masked as MK

from . import _dtypes
from ._dialect import long_name
from ._grad_fn import tag
from ._surface import promote_types


# ---------------------------------------------------------------- argument helpers (calls)
def _dims(input, dim):  # noqa: A002
    """torch.masked's ``_canonical_dim``: a sorted tuple of non-negative dims (all for None
    or ``()``), with its errors."""
    ndim = input.ndim
    if dim == () or dim is None:
        return tuple(range(ndim))
    ndim = max(ndim, 1)
    out = []
    for d in (dim,) if isinstance(dim, int) else dim:
        if d in out:  # (torch compares the dim as given with those already normalised)
            raise RuntimeError(f"dim={d} appears multiple times in the list of dims")
        if d >= ndim or d < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-ndim}, {ndim - 1}], but got {d})")
        out.append(d % ndim)
    return tuple(sorted(out))


def _dim(input, dim):  # noqa: A002
    return _dims(input, dim)[0]


def _plain_dims(input, dim):  # noqa: A002
    """``dim`` as torch.sum reads it (its wording for a dim given twice)."""
    ndim = max(input.ndim, 1)
    seen = []
    for d in () if dim is None else (dim,) if isinstance(dim, int) else dim:
        if d >= ndim or d < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-ndim}, {ndim - 1}], but got {d})")
        if d % ndim in seen:
            raise RuntimeError(f"dim {d % ndim} appears multiple times in the list of dims")
        seen.append(d % ndim)


def _mask(input, mask, op=None):  # noqa: A002
    """``mask`` checked as torch.masked checks it: no more dims than the input; an op
    whose identity torch has no bool value for (``op``) refuses a bool input with one."""
    if mask is None:
        return None
    if tuple(mask.shape) != tuple(input.shape) and mask.ndim > input.ndim:
        raise IndexError("_input_mask expected broadcastable mask (got mask dimensionality "
                         "higher than of the input)")
    if op is not None and input.dtype is _dtypes.bool:
        raise NotImplementedError(f"identity of {op} on torch.bool input")
    return mask


def _arg_input(op, input, mask):  # noqa: A002
    """torch.argmax's refusal of a bool input (with a mask, the identity's comes first)."""
    if mask is None and input.dtype is _dtypes.bool:
        raise RuntimeError(f"{op}(): does not support bool input")
    return input


def _scan_dtype(name, input, dtype):  # noqa: A002
    """cumsum/cumprod's dtype: the input's by default; torch has no bool scan kernel."""
    dtype = input.dtype if dtype is None else dtype
    if dtype is _dtypes.bool:
        raise NotImplementedError(f'"{name}_out_cpu" not implemented for \'Bool\'')
    return _dtypes.to_np(dtype)


def _norm_dtype(input, dtype):  # noqa: A002
    """vector_norm's dtype: one the input converts to without narrowing."""
    if dtype is None:
        return None
    if promote_types(input.dtype, dtype) != dtype:
        raise RuntimeError(f"linalg.vector_norm: the dtype of the input "
                           f"({long_name(input.array.dtype)}) should be convertible without "
                           f"narrowing to the specified dtype ({long_name(_np(dtype))})")
    return _np(dtype)


def _np(dtype):
    return None if dtype is None else _dtypes.to_np(dtype)


_ENV = {"_dims": _dims, "_dim": _dim, "_mask": _mask, "_np": _np, "_scan_dtype": _scan_dtype,
        "_norm_dtype": _norm_dtype, "_arg_input": _arg_input}
_RED = "input, dim=None, *, keepdim=False, dtype=None, mask=None"
_RED_CALL = "input, _dims(input, dim), keepdim, _np(dtype), _mask(input, mask)"
_NORMAL = "input, dim, *, dtype=None, mask=None"
_NORMAL_CALL = "input, _dim(input, dim), _np(dtype), _mask(input, mask)"

# (the second argument of _mask: the op whose identity fills, where a bool input has none)
MASKED_ROWS = [
    Row("sum", MK.sum, _RED, _RED_CALL, "f"),
    Row("prod", MK.prod, _RED, _RED_CALL, "f"),
    *(Row(n, getattr(MK, n), _RED,
          f"input, _dims(input, dim), keepdim, _np(dtype), _mask(input, mask, {n!r})", "f")
      for n in ("amax", "amin", "logsumexp")),
    *(Row(n, getattr(MK, n), _NORMAL,
          f"input, _dim(input, dim), _scan_dtype({n!r}, input, dtype), _mask(input, mask)",
          "f") for n in ("cumsum", "cumprod")),
    *(Row(n, getattr(MK, n), _NORMAL,
          f"input, _dim(input, dim), _np(dtype), _mask(input, mask, {op!r})", "f")
      for n, op in (("softmax", "amax"), ("log_softmax", "amax"), ("softmin", "amin"))),
    # argmax/argmin: dim is torch.argmax's (an int or None, not canonicalised); the result
    # is in the input's dtype unless dtype says otherwise
    *(Row(n, getattr(MK, n), "input, dim=None, *, keepdim=False, dtype=None, mask=None",
          f"_arg_input({n!r}, input, mask), dim, keepdim, _np(dtype), "
          f"_mask(input, mask, {n!r})", "f")
      for n in ("argmax", "argmin")),
    Row("norm", MK.norm, "input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None",
        "input, ord, _dims(input, dim), keepdim, _norm_dtype(input, dtype), "
        "_mask(input, mask)", "f"),
    Row("normalize", MK.normalize,
        "input, ord, dim, *, eps=1e-12, dtype=None, mask=None",
        "input, ord, _dim(input, dim), eps, _norm_dtype(input, dtype), _mask(input, mask)",
        "f"),
    Row("logaddexp", MK.logaddexp,
        "input, other, *, dtype=None, input_mask=None, other_mask=None",
        "input, other, _np(dtype), _mask(input, input_mask, 'logaddexp'), "
        "_mask(other, other_mask, 'logaddexp')", "f"),
]

MASKED: dict = {}
INSTALLED_MASKED = install(MASKED_ROWS, MASKED, None, module="torch.masked", tag=tag,
                           env=_ENV)
globals().update(MASKED)


# ---------------------------------------------------------------- hand-written
def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    """Sum / count of the masked-in elements; torch.masked refuses a non-float dtype with
    a ValueError (torch.mean: a RuntimeError)."""
    source = "Optional" if dtype is not None else "Input"
    dtype = input.dtype if dtype is None else dtype
    if not dtype.is_floating_point:
        raise ValueError(f"mean(): Could not infer output dtype. {source} dtype must be "
                         f"either a floating point or complex dtype. Got: {dtype}")
    if mask is not None:  # (the count is torch.sum's over the mask: its check first)
        _plain_dims(input, dim)
    return MK.mean(input, _dims(input, dim), keepdim, _np(dtype), _mask(input, mask))


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):  # noqa: A002
    """torch.nanmedian's values of the masked-in elements; an integer input is reduced as
    float32 and cast back to ``dtype`` (its own by default), which a slice with nothing in
    (NaN) makes a ValueError."""
    out = MK.median(input, _dim(input, dim), keepdim, _mask(input, mask))
    if input.array.dtype.kind == "f":
        return out
    if MK.has_nan(out):
        raise ValueError("masked median expects no fully masked out rows if dtype is not "
                         "floating point")
    return out.to(input.dtype if dtype is None else dtype)


def _correction(unbiased, correction):
    if unbiased is not None and correction is not None:
        raise AssertionError("Only one of unbiased and correction may be given")
    if correction is not None:
        return float(correction)
    return 0.0 if unbiased is False else 1.0


def var(input, dim=None, unbiased=None, *, correction=None, keepdim=False,  # noqa: A002
        dtype=None, mask=None):
    """Variance of the masked-in elements (torch.masked: ``unbiased`` or ``correction``,
    not both; an integer input in float32)."""
    return MK.var(*_var_args(input, dim, unbiased, correction, dtype, mask), keepdims=keepdim,
                  take_sqrt=False)


def std(input, dim=None, unbiased=None, *, correction=None, keepdim=False,  # noqa: A002
        dtype=None, mask=None):
    return MK.var(*_var_args(input, dim, unbiased, correction, dtype, mask), keepdims=keepdim,
                  take_sqrt=True)


def _var_args(input, dim, unbiased, correction, dtype, mask):  # noqa: A002
    correction = _correction(unbiased, correction)
    if mask is not None:  # (the count is torch.sum's over the mask: its check first)
        _plain_dims(input, dim)
    axes = _dims(input, dim)
    if input.dtype is _dtypes.bool:  # (the deviations are input - mean)
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not "
                           "supported. If you are trying to invert a mask, use the `~` or "
                           "`logical_not()` operator instead.")
    return input, axes, correction, _mask(input, mask), _np(dtype)


MASKED.update(mean=mean, median=median, var=var, std=std)

__getattr__ = module_getattr("torchlike", "torch.masked")

__all__ = sorted(n for n in MASKED if n != "logsumexp")
