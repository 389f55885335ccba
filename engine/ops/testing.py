"""Draw helpers for op specs.  Hypothesis is passed in, never imported here,
so the engine has no test dependency; each helper returns a ``make``."""
from __future__ import annotations

from ..backend import host as xp  # draws are host data: numpy


def _elements(st, lo, hi, avoid=()):
    e = st.floats(lo, hi, allow_nan=False, allow_infinity=False, width=64)
    if avoid:
        e = e.filter(lambda v: all(abs(v - a) > 0.05 for a in avoid))
    return e


def array(draw, st, hnp, shape, lo=-2.0, hi=2.0, avoid=()):
    return draw(hnp.arrays(xp.float64, shape, elements=_elements(st, lo, hi, avoid)))


def distinct_array(draw, st, hnp, shape, lo=-2.0, hi=2.0, signs=False):
    """Pairwise distinct values in [lo, hi], at least (hi-lo)/(2n) apart (so that
    finite differences never cross a tie of max/min/sort); ``signs`` flips random
    signs (then the magnitudes are the distinct ones)."""
    n = 1
    for d in shape:
        n *= d
    order = xp.array(draw(st.permutations(range(n))), dtype=xp.float64) if n else xp.zeros(0)
    jitter = draw(st.floats(0.0, 0.5))
    values = lo + (hi - lo) * (order + jitter) / max(n, 1)
    if signs and n:
        flips = draw(hnp.arrays(xp.bool_, (n,)))
        values = xp.where(flips, -values, values)
    return values.reshape(shape)


def small_shape(draw, hnp, min_dims=0, max_dims=3):
    return draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=4))


def unary(lo=-2.0, hi=2.0, avoid=(), **kwargs):
    def make(draw, st, hnp):
        return [array(draw, st, hnp, small_shape(draw, hnp), lo, hi, avoid)], dict(kwargs)
    return make


def binary(lo=-2.0, hi=2.0, lo2=None, hi2=None, apart=0.0):
    """Two arrays of mutually broadcastable shapes; ``apart`` keeps them unequal."""
    def make(draw, st, hnp):
        shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
        a = array(draw, st, hnp, shapes.input_shapes[0], lo, hi)
        b = array(draw, st, hnp, shapes.input_shapes[1],
                  lo if lo2 is None else lo2, hi if hi2 is None else hi2)
        if apart:
            from hypothesis import assume
            assume(bool(xp.all(xp.abs(a - b) > apart)))
        return [a, b], {}
    return make


def with_axis(lo=-2.0, hi=2.0, keepdims=True, multi=True, min_dims=0, distinct=False,
              signs=False, avoid=(), **kwargs):
    """One array and an ``axis`` (None, an int, or a tuple) with ``keepdims``;
    ``distinct`` draws pairwise distinct values (see ``distinct_array``)."""
    def make(draw, st, hnp):
        shape = small_shape(draw, hnp, min_dims=min_dims)
        if distinct:
            a = distinct_array(draw, st, hnp, shape, lo, hi, signs)
        else:
            a = array(draw, st, hnp, shape, lo, hi, avoid)
        nd = len(shape)
        choices = [st.none()]
        if nd:
            choices.append(st.integers(-nd, nd - 1))
            if multi:
                choices.append(st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd,
                                        unique=True).map(tuple))
        kw = dict(kwargs)
        kw["axis"] = draw(st.one_of(*choices))
        if keepdims:
            kw["keepdims"] = draw(st.booleans())
        return [a], kw
    return make
