"""Gradients at tied extremes, each dialect against its own framework (issue 14 §4):
torch's max/min along a dim send the gradient to the returned index only, its max/min
of the whole tensor and amax/amin share it evenly among the ties; paddle's max/min/amax/
amin share it evenly with or without an axis.  (sort, topk, median, kthvalue, mode and
cummax are not implemented in either dialect.)"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

torch = pytest.importorskip("torch")
paddle = pytest.importorskip("paddle")
import paddlelike  # noqa: E402
import torchlike  # noqa: E402

TIED = st.sampled_from([-1.0, 0.0, 0.5, 2.0])


@st.composite
def tied(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    a = draw(hnp.arrays(np.float32, shape, elements=TIED))
    dim = draw(st.none() | st.integers(-len(shape), len(shape) - 1))
    return a, dim, draw(st.booleans()), draw(st.integers(0, 2**31))


def _torch_grads(m, a, name, dim, keep, seed):
    x = m.tensor(a, requires_grad=True)
    fn = getattr(m, name)
    if dim is None:
        out = fn(x)
    elif name in ("max", "min"):
        out = fn(x, dim=dim, keepdim=keep).values
    else:
        out = fn(x, dim=dim, keepdim=keep)
    u = np.random.default_rng(seed).standard_normal(tuple(out.shape)).astype(np.float32)
    out.backward(m.tensor(u))
    return np.asarray(x.grad.detach().numpy())


def _paddle_grads(m, a, name, dim, keep, seed):
    x = m.to_tensor(a, stop_gradient=False)
    out = getattr(m, name)(x, axis=dim, keepdim=keep)
    u = np.random.default_rng(seed).standard_normal(tuple(out.shape)).astype(np.float32)
    out.backward(m.to_tensor(u))
    return np.asarray(x.grad.numpy())


PAIRS = {"torch": (_torch_grads, torch, torchlike), "paddle": (_paddle_grads, paddle, paddlelike)}


@pytest.mark.parametrize("dialect", sorted(PAIRS))
@pytest.mark.parametrize("name", ["max", "min", "amax", "amin"])
@given(case=tied())
def test_ties_as_in_each_framework(dialect, name, case):
    grads, real, ours = PAIRS[dialect]
    a, dim, keep, seed = case
    want = grads(real, a, name, dim, keep, seed)
    np.testing.assert_allclose(grads(ours, a, name, dim, keep, seed), want, rtol=1e-6,
                               atol=1e-6)


def test_the_issue_example():
    x = torchlike.tensor([0.0, 0.0], requires_grad=True)
    torchlike.max(x, dim=0).values.backward()
    assert x.grad.tolist() == [1.0, 0.0]
