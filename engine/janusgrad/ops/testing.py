"""Draw helpers for op specs.  Hypothesis is passed in, never imported here,
so the engine has no test dependency; each helper returns a ``make``."""
from __future__ import annotations

from janusgrad.array.backend import host as xp  # draws are host data: numpy


def _elements(st, lo, hi, avoid=()):
    e = st.floats(lo, hi, allow_nan=False, allow_infinity=False, width=64)
    if avoid:
        e = e.filter(lambda v: all(abs(v - a) > 0.05 for a in avoid))
    return e


# Most drawn arrays have pairwise distinct elements (uniform values from a drawn seed,
# which hypothesis cannot shrink to a constant); the rest come from hypothesis' element
# strategy, which favours constant, all-zero and tied arrays: kept on purpose, at about
# one draw in five, so that those cases stay tested.
SPECIAL_EVERY = 5


def _spread_values(draw, st, shape, lo, hi, avoid):
    """Uniform values in [lo, hi] from a drawn seed, at least 0.05 from each ``avoid``
    point (moved off it); None where that fails (the caller then draws otherwise)."""
    seed = draw(st.integers(0, 2**32 - 1))
    a = xp.random.default_rng(seed).uniform(lo, hi, shape)
    for p in avoid:
        near = xp.abs(a - p) <= 0.05
        a = xp.where(near, p + xp.where(a >= p, 0.06, -0.06), a)
    if avoid and (xp.any((a < lo) | (a > hi)) or
                  any(xp.any(xp.abs(a - p) <= 0.05) for p in avoid)):
        return None
    return a


def array(draw, st, hnp, shape, lo=-2.0, hi=2.0, avoid=()):
    """An array of ``shape`` with elements in [lo, hi], 0.05 away from ``avoid``: mostly
    pairwise distinct values, now and then hypothesis' own (constants, zeros, ties)."""
    if draw(st.integers(0, SPECIAL_EVERY - 1)):
        a = _spread_values(draw, st, shape, lo, hi, avoid)
        if a is not None:
            return a
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
    """A shape of min_dims..max_dims axes of sides 1..4; most draws have 2+ axes of
    unequal sides (0-d and size-1 shapes stay, as cases of their own)."""
    from hypothesis import strategies as st
    if min_dims < 2 <= max_dims and draw(st.integers(0, 3)):
        nd = draw(st.integers(2, max_dims))
        return tuple(draw(st.integers(2, 4)) for _ in range(nd))
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
        # the kind of axis first, evenly (st.one_of would favour its first choice, None:
        # most draws then reduced over everything and never spread a gradient back)
        kinds = ["none"] + (["int", "int"] if nd else []) + (["tuple"] if nd and multi else [])
        kind = draw(st.sampled_from(kinds))
        kw = dict(kwargs)
        if kind == "none":
            kw["axis"] = None
        elif kind == "int":
            kw["axis"] = draw(st.integers(-nd, nd - 1))
        else:
            kw["axis"] = tuple(draw(st.lists(st.integers(0, nd - 1), min_size=1,
                                             max_size=nd, unique=True)))
        if keepdims:
            kw["keepdims"] = draw(st.booleans())
        return [a], kw
    return make
