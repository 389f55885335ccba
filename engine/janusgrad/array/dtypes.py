"""Result dtypes of mixed operations (type promotion).

The rules are torch's, which paddle shares for tensor-with-Python-scalar
operations: operands are ranked as dimensioned tensors, zero-dimensional
tensors and Python scalars; the highest rank decides the dtype unless a lower
rank brings a higher category (bool < integer < floating), in which case the
two are promoted.  A Python float counts as the default float dtype, a Python
int as int64.  ``strict`` gives paddle's tensor-with-tensor rule: two tensors of
different dtypes combine only when both are floating.
"""
from __future__ import annotations

from janusgrad.array.backend import DTYPES, as_array, bool_, default_float, int64

DIM, ZERO_DIM, SCALAR = 0, 1, 2
# the classes of the engine's dtype objects: an instance of one is a dtype already
_DTYPE_CLASSES = frozenset(type(d) for d in DTYPES.values())
_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2}


class PromotionError(TypeError):
    """Raised (through the dialect) when strict promotion refuses two dtypes."""

    def __init__(self, a, b):
        super().__init__(a, b)
        self.dtypes = (a, b)


def category(dtype) -> int:
    return _CATEGORY[dtype.kind]


def promote_types(a, b):
    """torch.promote_types: numpy's table except that int with float gives the float."""
    if a == b:
        return a
    ca, cb = _CATEGORY[a.kind], _CATEGORY[b.kind]
    if ca != cb:
        if ca == 0:
            return b
        if cb == 0:
            return a
        return a if ca > cb else b
    key = (a, b)
    out = _promoted.get(key)
    if out is None:
        # dtypes are host metadata: the sum of two zeros of the scalar types has
        # numpy's promoted dtype (what numpy and cupy compute with), no array needed
        out = _promoted[key] = (a.type(0) + b.type(0)).dtype
    return out


_promoted: dict = {}


def scalar_dtype(value):
    t = type(value)
    if t is bool:
        return bool_
    if t is int:
        return int64
    if t is float:
        return default_float
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        return dtype if type(dtype) in _DTYPE_CLASSES else to_dtype(dtype)
    raise TypeError(f"unsupported operand type {t.__name__}")


def _combine(higher, lower):
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.kind == "f":
        return higher
    if higher.kind == "b" or lower.kind == "f":
        return promote_types(higher, lower)
    return higher


_cache: dict = {}


def result_type(operands, strict: bool = False):
    """operands: sequence of (dtype, rank) with rank DIM, ZERO_DIM or SCALAR."""
    key = (tuple(operands), strict)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    best = [None, None, None]
    tensors = []
    for dtype, rank in operands:
        best[rank] = dtype if best[rank] is None else promote_types(best[rank], dtype)
        if rank != SCALAR:
            tensors.append(dtype)
    if strict:
        for other in tensors[1:]:
            first = tensors[0]
            if other != first and not (first.kind == "f" and other.kind == "f"):
                raise PromotionError(first, other)
    out = _combine(best[DIM], _combine(best[ZERO_DIM], best[SCALAR]))
    _cache[key] = out
    return out


def to_dtype(name_or_dtype):
    """A neutral dtype from a numpy dtype or one of the names in DTYPES."""
    if isinstance(name_or_dtype, str):
        return DTYPES[name_or_dtype]
    if type(name_or_dtype) in _DTYPE_CLASSES:
        return name_or_dtype
    # anything else numpy reads as a dtype (a scalar type, a Python type); TypeError if not
    return as_array((), dtype=name_or_dtype).dtype
