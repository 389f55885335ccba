"""Writing into a clone through slices (issue 14 §4): a slice saved for backward is stale
only when the node's rule reads its data. ``c[2:] = c[2:] * 10`` keeps nothing of ``c[2:]``
(a scale by a number reads only the number), so paddle runs it; a product of two slices
keeps both, so a later write into either is refused. Random write sequences against real
paddle: the same values and gradient, or the same refusal."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paddlelike

from .tolerance import assert_kernels_close

paddle = pytest.importorskip("paddle")

N = 6
_slice = st.tuples(st.integers(0, N - 2), st.integers(1, 3)).map(
    lambda t: (t[0], min(N, t[0] + t[1])))
_number = st.one_of(st.integers(-3, 3), st.floats(-2.0, 2.0, allow_nan=False).map(
    lambda v: round(v, 2)))
_step = st.one_of(
    st.tuples(st.just("fill"), st.integers(0, N - 1), _number),
    st.tuples(st.just("scale"), _slice, _number),
    st.tuples(st.just("shift"), _slice, _number),
    st.tuples(st.just("square"), _slice, st.just(0)),
)


def _run(P, steps):
    w = P.to_tensor(np.linspace(0.5, 3.0, N).astype("float32"), stop_gradient=False)
    c = w.clone()
    try:
        for kind, where, v in steps:
            if kind == "fill":
                c[where] = float(v)
            else:
                a, b = where
                if kind == "scale":
                    c[a:b] = c[a:b] * v
                elif kind == "shift":
                    c[a:b] = c[a:b] + v
                else:
                    c[a:b] = c[a:b] * c[a:b]
        c.sum().backward()
    except Exception as e:  # noqa: BLE001 - the refusal itself is compared
        return type(e), None, None
    return None, c.numpy(), w.grad.numpy()


@settings(max_examples=60)
@given(st.lists(_step, min_size=1, max_size=4))
def test_slice_writes_into_a_clone_as_paddle(steps):
    want_err, want_c, want_g = _run(paddle, steps)
    got_err, got_c, got_g = _run(paddlelike, steps)
    assert got_err == want_err, (steps, got_err, want_err)
    if want_err is None:
        assert_kernels_close(got_c, want_c)
        assert_kernels_close(got_g, want_g)


def test_the_issues_example_runs():
    err, c, g = _run(paddlelike, [("fill", 1, 0.0), ("scale", (2, N), 10)])
    assert err is None
    np.testing.assert_allclose(g, [1, 0, 10, 10, 10, 10])
