"""Float ranges computed step by step in the output dtype (a kernel that accumulates,
rather than torch's ``start + i * step``): what a frontend whose framework computes its
ranges so needs to match it bit for bit.  Integer ranges are ``ops.creation.arange``."""
from __future__ import annotations

from janusgrad.core import inplace
from janusgrad.ops import creation as C
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R


def accumulated_arange(cls, start, end, step, dtype, device=None):
    """[start, end) by ``step`` in ``dtype``: n = ceil(|(end - start) / step|) in the
    dtype, v[0] = start, v[i + 1] = v[i] + step (a running sum)."""
    lo, hi, st = (C.full(cls, (), v, dtype) for v in (start, end, step))
    n = int(E.ceil(E.abs(E.div(E.sub(hi, lo), st))).item())
    if n < 2:
        return C.full(cls, (max(n, 0),), start, dtype, device=device)
    steps = C.full(cls, (n,), step, dtype, device=device)
    inplace.setitem(steps, 0, start)
    return R.cumsum(steps, 0)


def two_sided_linspace(cls, start, stop, num: int, dtype, device=None):
    """``num`` points from ``start`` to ``stop`` in ``dtype``: the first half counts up
    from ``start``, the second half down from ``stop`` (both ends exact)."""
    if num <= 1:
        return C.full(cls, (max(num, 0),), start, dtype, device=device)
    lo = C.full(cls, (), start, dtype, device=device)
    hi = C.full(cls, (), stop, dtype, device=device)
    last = C.full(cls, (), num - 1, dtype, device=device)
    step = E.div(E.sub(hi, lo), last)
    i = C.arange(cls, 0, num, 1, dtype, device=device)
    up = E.add(lo, E.mul(step, i))
    down = E.sub(hi, E.mul(step, E.sub(last, i)))
    return E.where_(E.lt(i, num // 2), up, down)
