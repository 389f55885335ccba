"""Tied maxima and minima, drawn (issue 14 §6): arrays over a few values, so that most
reductions meet ties.  Finite differences are meaningless at a tie (the function has a
kink there); the engine's conventions are checked instead: amax/amin and maximum/minimum
share the gradient evenly among the tied elements; max_along/min_along send it to the
elements they select; every rule keeps the gradient's total and sends none to an element
that is not a maximum."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from janusgrad import Tensor
from janusgrad.core.autograd import run_backward
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R

TIED = st.sampled_from([-1.0, 0.0, 0.5, 2.0])


@st.composite
def tied_case(draw, multi=True):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    a = draw(hnp.arrays(np.float64, shape, elements=TIED))
    nd = len(shape)
    kinds = ["none", "int"] + (["tuple"] if multi else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "none":
        axis = None
    elif kind == "int":
        axis = draw(st.integers(-nd, nd - 1))
    else:
        axis = tuple(draw(st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd,
                                   unique=True)))
    keepdims = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    return a, axis, keepdims, seed


def _grad(fn, a, u):
    t = Tensor(a, requires_grad=True)
    (g,) = run_backward([fn(t)], [Tensor(u)], inputs=[t], accumulate=False)
    return np.zeros_like(a) if g is None else np.asarray(g.array)


def _axes(axis, nd):
    if axis is None:
        return tuple(range(nd))
    return tuple(a % nd for a in ((axis,) if isinstance(axis, int) else axis))


@given(tied_case())
def test_amax_and_amin_share_the_gradient_evenly_among_ties(case):
    a, axis, keepdims, seed = case
    for fn, ref in ((R.amax, np.max), (R.amin, np.min)):
        out = ref(a, axis=_axes(axis, a.ndim), keepdims=keepdims)
        u = np.random.default_rng(seed).standard_normal(np.shape(out))
        g = _grad(lambda t, fn=fn: fn(t, axis, keepdims), a, u)
        axes = _axes(axis, a.ndim)
        m = ref(a, axis=axes, keepdims=True)
        hit = a == m
        count = hit.sum(axis=axes, keepdims=True)
        uk = u if keepdims else np.expand_dims(u, axes)
        np.testing.assert_allclose(g, np.where(hit, uk / count, 0.0), rtol=1e-12, atol=1e-15)


@given(tied_case(multi=False))
def test_max_along_sends_the_gradient_to_maxima_only_and_keeps_its_total(case):
    a, axis, keepdims, seed = case
    axis = 0 if axis is None else axis
    for fn, ref in ((R.max_along, np.max), (R.min_along, np.min)):
        out = ref(a, axis=axis, keepdims=keepdims)
        u = np.random.default_rng(seed).standard_normal(np.shape(out))
        g = _grad(lambda t, fn=fn: fn(t, axis, keepdims)[0], a, u)
        m = ref(a, axis=axis, keepdims=True)
        assert not np.any(g[a != m]), "gradient sent to an element that is no extremum"
        np.testing.assert_allclose(g.sum(axis=axis, keepdims=keepdims), u, rtol=1e-12,
                                   atol=1e-15)


@given(hnp.arrays(np.float64, st.integers(1, 12), elements=TIED),
       hnp.arrays(np.float64, st.integers(1, 12), elements=TIED), st.integers(0, 2**32 - 1))
def test_maximum_and_minimum_split_ties_evenly(x, y, seed):
    n = min(x.size, y.size)
    x, y = x[:n], y[:n]
    u = np.random.default_rng(seed).standard_normal(n)
    for fn, pick in ((E.maximum, np.greater), (E.minimum, np.less)):
        tx, ty = Tensor(x, requires_grad=True), Tensor(y, requires_grad=True)
        gx, gy = run_backward([fn(tx, ty)], [Tensor(u)], inputs=[tx, ty], accumulate=False)
        wx = np.where(x == y, 0.5, np.where(pick(x, y), 1.0, 0.0))
        np.testing.assert_allclose(np.asarray(gx.array), u * wx, rtol=1e-12)
        np.testing.assert_allclose(np.asarray(gy.array), u * (1 - wx), rtol=1e-12)
