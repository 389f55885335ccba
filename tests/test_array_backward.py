"""A backward that records nothing runs ops' rules on bare arrays; the recording backward
(create_graph: every rule runs on tensors) is the reference for the scheduler's work on
arrays.  Random small graphs (shared inputs, diamonds, broadcasting, pass-through rules,
hooks, accumulation over two backward passes) must give the same bits on both paths, and
leave no two leaves sharing a gradient array."""
from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from janusgrad import Tensor
from janusgrad.core.autograd import backward
from janusgrad.core.hooks import register_hook
from janusgrad.core.mode import no_grad
from janusgrad.ops import elementwise as E
from janusgrad.ops import linalg as L
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S

# (name, function): each takes and returns tensors of shape (2, 3)
UNARY = [
    ("exp", lambda a: E.exp(E.mul(a, 0.3))),
    ("tanh", E.tanh),
    ("sin", E.sin),
    ("neg", E.neg),
    ("square", lambda a: E.mul(a, a)),
    ("scale", lambda a: E.mul(a, 1.5)),
    ("shift", lambda a: E.add(a, 0.25)),
    ("halve", lambda a: E.div(a, 2.0)),
    ("relu", E.relu),
    ("sigmoid", E.sigmoid),
    ("reshape", lambda a: S.reshape(S.reshape(a, (3, 2)), (2, 3))),
    ("transpose", lambda a: S.transpose(S.transpose(a))),
    ("log_softmax", lambda a: R.log_softmax(a, 1)),
    ("rowmean", lambda a: E.add(a, R.mean(a, 0))),
    ("clone", E.clone),
]
BINARY = [
    ("add", E.add),
    ("sub", E.sub),
    ("mul", E.mul),
    ("div", lambda a, b: E.div(a, E.add(E.mul(b, b), 1.0))),
    ("matmul", lambda a, b: L.matmul(L.matmul(E.mul(a, 0.3), S.transpose(b)), E.mul(b, 0.3))),
    ("max", E.maximum),
    ("cat", lambda a, b: S.narrow(S.concatenate([a, b], 0), 0, 1, 2)),
    ("stack", lambda a, b: S.reshape(S.narrow(S.stack([a, b], 0), 0, 1, 1), (2, 3))),
]


@st.composite
def programs(draw):
    steps = []
    n_values = 3  # three leaves: two (2, 3) matrices and a (3,) row that broadcasts
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.booleans()):
            k = draw(st.integers(0, len(UNARY) - 1))
            steps.append(("u", k, draw(st.integers(0, n_values - 1))))
        else:
            k = draw(st.integers(0, len(BINARY) - 1))
            steps.append(("b", k, draw(st.integers(0, n_values - 1)),
                          draw(st.integers(0, n_values - 1))))
        n_values += 1
    hooked = draw(st.sets(st.integers(3, n_values - 1), max_size=2))
    outputs = draw(st.sets(st.integers(0, n_values - 1), min_size=1, max_size=3))
    return steps, hooked, sorted(outputs), draw(st.booleans())


def _values():
    rng = np.random.default_rng(7)
    return [rng.standard_normal((2, 3)), rng.standard_normal((2, 3)), rng.standard_normal(3)]


def _run(program, create_graph=False):
    steps, hooked, outputs, twice = program
    leaves = [Tensor(a.copy(), requires_grad=True) for a in _values()]
    vals = list(leaves)
    for step in steps:
        if step[0] == "u":
            out = UNARY[step[1]][1](_full(vals[step[2]]))
        else:
            out = BINARY[step[1]][1](_full(vals[step[2]]), _full(vals[step[3]]))
        vals.append(out)
    for i in hooked:
        register_hook(vals[i], lambda g: E.mul(g, 2.0))
    loss = R.sum(E.mul(vals[outputs[0]], 1.0))
    for i in outputs[1:]:
        loss = E.add(loss, R.sum(E.tanh(vals[i])))
    backward([loss], [None], retain_graph=twice or create_graph, create_graph=create_graph)
    if twice:  # a second pass accumulates into the leaves' grads
        backward([loss], [None], create_graph=create_graph)
    return leaves


def _full(t):
    """A (3,) row broadcast to (2, 3) through an op (so its gradient is summed back)."""
    if t.array.shape == (3,):
        return E.add(t, Tensor(np.zeros((2, 3))))
    return t


@settings(max_examples=300)  # about 2 ms an example
@given(programs())
@example(([("b", 0, 0, 1)], set(), [3], False))  # add's (g, g) straight to two leaves
@example(([("b", 1, 0, 0)], set(), [3], False))  # x - x
@example(([("u", 14, 0), ("b", 0, 3, 1)], {3}, [4], False))  # clone passes g on, hooked
@example(([("b", 0, 2, 2)], set(), [3], True))  # a broadcast row added to itself, twice
def test_random_graphs_give_the_same_bits_on_arrays_and_on_tensors(program):
    raw = _run(program)
    want = _run(program, create_graph=True)
    arrays = [t.grad.array for t in raw if t.grad is not None]
    for g, w in zip(raw, want):
        assert (g.grad is None) == (w.grad is None)
        if g.grad is not None:
            assert g.grad.array.dtype == w.grad.array.dtype
            np.testing.assert_array_equal(g.grad.array, w.grad.array)
    for i, a in enumerate(arrays):  # no two leaves share (or overlap) one gradient array
        for b in arrays[i + 1:]:
            assert not np.shares_memory(a, b)
    with no_grad():  # and every leaf gradient can be written (an optimiser step would)
        for a in arrays:
            a[...] = 0.0
