"""The engine's graph and backward scheduler, used directly (no frontend).

Diamonds, shared inputs, accumulation, retain_graph, release of saved values,
non-leaf gradients, broadcasting, when nodes are (not) made, create_graph and
the pruning of run_backward(inputs=...).
"""
from __future__ import annotations

import numpy as np
import pytest

import janusgrad
from janusgrad import Dialect, Tensor, record
from janusgrad.core.autograd import run_backward
from janusgrad.core.mode import enable_grad, no_grad
from janusgrad.ops import OpDef
from janusgrad.ops.elementwise import add, cos, exp, floor_divide, mul, pow, sin
from janusgrad.ops.reduce import sum


def leaf(values, dtype=np.float64, requires_grad=True) -> Tensor:
    return Tensor(np.array(values, dtype=dtype), requires_grad=requires_grad)


def ones_like(t: Tensor) -> Tensor:
    return Tensor(np.ones_like(t.array))


class Probe:
    """An identity op (not in the op table) that counts its VJP calls and their seeds."""

    def __init__(self) -> None:
        self.calls = []
        self.op = OpDef("probe", self._vjp)

    def _vjp(self, node, g):
        self.calls.append(g.array.copy())
        return (g,)

    def __call__(self, x: Tensor) -> Tensor:
        return record(self.op, x.array.copy(), (x,))


def graph_nodes(t: Tensor) -> list:
    """Every node reachable from t (iteratively)."""
    seen, stack, out = set(), [t.node], []
    while stack:
        n = stack.pop()
        if n is None or not isinstance(n, janusgrad.Node) or id(n) in seen:
            continue
        seen.add(id(n))
        out.append(n)
        stack.extend(n.parents)
    return out


# ------------------------------------------------------------------ graph shapes
def test_diamond_sums_both_paths_and_runs_the_join_once():
    x = leaf([0.3, -1.2, 2.0])
    probe = Probe()
    h = probe(x)                       # h feeds two branches that rejoin
    y = sum(mul(sin(h), cos(h)))       # d/dx sin(x)cos(x) = cos(2x)
    janusgrad.backward([y])
    np.testing.assert_allclose(x.grad.array, np.cos(2 * x.array))
    assert len(probe.calls) == 1       # the shared node ran once, with both paths' sum
    np.testing.assert_allclose(probe.calls[0], np.cos(2 * x.array))


def test_input_used_twice_in_one_op():
    x = leaf([1.5, -2.0])
    janusgrad.backward([sum(mul(x, x))])
    np.testing.assert_allclose(x.grad.array, 2 * x.array)


def test_same_gradient_object_sent_to_two_inputs():
    # add's rule returns one gradient for both inputs; accumulating must not alias them
    x = leaf([1.0, 2.0])
    janusgrad.backward([sum(add(x, x))])
    np.testing.assert_allclose(x.grad.array, [2.0, 2.0])


def test_shared_input_across_ops():
    x = leaf([0.5, 1.0, -3.0])
    y = sum(add(add(mul(x, x), x), exp(x)))       # x^2 + x + e^x
    janusgrad.backward([y])
    np.testing.assert_allclose(x.grad.array, 2 * x.array + 1 + np.exp(x.array))


def test_gradients_accumulate_across_backward_calls_into_the_same_object():
    x = leaf([1.0, 2.0])
    janusgrad.backward([sum(mul(x, 3.0))])
    first = x.grad
    janusgrad.backward([sum(mul(x, x))])
    assert x.grad is first
    np.testing.assert_allclose(x.grad.array, 3.0 + 2 * x.array)


def test_leaf_root():
    x = leaf(2.0)
    janusgrad.backward([x])
    assert x.grad.array == 1.0


# ------------------------------------------------------------------ retain_graph
class MarkedDialect(Dialect):
    name = "marked"

    def released_graph(self, node):
        return LookupError(f"released {node.name}")


class MarkedTensor(Tensor):
    __slots__ = ()
    dialect = MarkedDialect()


def test_second_backward_through_released_graph_raises_the_dialects_error():
    x = MarkedTensor(np.array([1.0, 2.0]), requires_grad=True)
    y = sum(mul(x, x))
    janusgrad.backward([y])
    with pytest.raises(LookupError, match="released"):
        janusgrad.backward([y])


def test_retain_graph_allows_reuse_and_accumulates():
    x = leaf([1.0, -2.0])
    y = sum(mul(exp(x), x))                       # d/dx = e^x (1 + x)
    expected = np.exp(x.array) * (1 + x.array)
    janusgrad.backward([y], retain_graph=True)
    janusgrad.backward([y], retain_graph=True)
    np.testing.assert_allclose(x.grad.array, 2 * expected)
    janusgrad.backward([y])                          # the last use may release
    np.testing.assert_allclose(x.grad.array, 3 * expected)
    with pytest.raises(RuntimeError):
        janusgrad.backward([y])


def test_saved_values_released_after_backward():
    x = leaf([0.1, 0.2])
    y = sum(mul(exp(x), sin(x)))
    nodes = graph_nodes(y)
    assert any(n.saved for n in nodes) and any(n.out_data is not None for n in nodes)
    janusgrad.backward([y])
    assert all(n.saved is None and n.out_data is None for n in nodes)


def test_saved_values_kept_with_retain_graph():
    x = leaf([0.1, 0.2])
    y = sum(mul(exp(x), sin(x)))
    nodes = graph_nodes(y)
    saved_before = [n.saved for n in nodes]
    janusgrad.backward([y], retain_graph=True)
    assert [n.saved for n in nodes] == saved_before


def test_second_backward_through_nodes_that_saved_nothing_is_allowed():
    """torch 2.13 refuses a second backward only at a node whose saved values are gone:
    `(x + 1).sum()`, `x.mean()`, `x + x` backward twice and accumulate, `x * 2` refuses.
    (paddle 3.3 refuses all four: this wants a dialect flag; the default follows torch.)"""
    x = leaf([1.0, 2.0])
    y = sum(add(x, 1.0))
    janusgrad.backward([y])
    janusgrad.backward([y])
    np.testing.assert_allclose(x.grad.array, [2.0, 2.0])
    z = sum(mul(x, 2.0))
    janusgrad.backward([z])
    with pytest.raises(RuntimeError):
        janusgrad.backward([z])


# ------------------------------------------------------------------ what is kept
def test_non_leaf_gradients_are_not_kept():
    x = leaf([1.0, 2.0])
    h = mul(x, 2.0)
    y = sum(h)
    janusgrad.backward([y])
    assert h.grad is None and y.grad is None
    np.testing.assert_allclose(x.grad.array, [2.0, 2.0])


def test_leaf_grad_is_not_part_of_a_graph():
    x = leaf([1.0, 2.0])
    janusgrad.backward([sum(mul(x, x))])
    assert x.grad.node is None and not x.grad.requires_grad


def test_leaves_that_do_not_require_grad_get_nothing():
    x = leaf([1.0, 2.0])
    c = leaf([3.0, 4.0], requires_grad=False)
    janusgrad.backward([sum(mul(x, c))])
    assert c.grad is None
    np.testing.assert_allclose(x.grad.array, c.array)


# ------------------------------------------------------------------ broadcasting
@pytest.mark.parametrize("shape_a, shape_b", [
    ((3, 1), (4,)),
    ((), (2, 3)),
    ((2, 1, 4), (3, 1)),
    ((1,), (5,)),
    ((2, 3), (2, 3)),
])
def test_broadcast_gradients_are_summed_back_to_input_shapes(shape_a, shape_b):
    rng = np.random.default_rng(0)
    a = leaf(rng.standard_normal(shape_a))
    b = leaf(rng.standard_normal(shape_b))
    janusgrad.backward([sum(mul(a, b))])
    out_shape = np.broadcast_shapes(shape_a, shape_b)
    ga = np.broadcast_to(b.array, out_shape)
    gb = np.broadcast_to(a.array, out_shape)
    assert a.grad.shape == shape_a and b.grad.shape == shape_b
    np.testing.assert_allclose(a.grad.array, _sum_to(ga, shape_a))
    np.testing.assert_allclose(b.grad.array, _sum_to(gb, shape_b))


def _sum_to(g, shape):
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for i, s in enumerate(shape):
        if s == 1 and g.shape[i] != 1:
            g = g.sum(axis=i, keepdims=True)
    return g


def test_gradient_cast_back_to_each_input_dtype():
    a = leaf([1.0, 2.0], dtype=np.float32)
    b = leaf([3.0, 4.0], dtype=np.float64)
    janusgrad.backward([sum(mul(a, b))])
    assert a.grad.dtype == np.float32 and b.grad.dtype == np.float64
    np.testing.assert_allclose(a.grad.array, [3.0, 4.0])


# ------------------------------------------------------------------ when nodes are made
def test_no_node_under_no_grad():
    x = leaf([1.0])
    with no_grad():
        y = mul(x, 2.0)
        with enable_grad():
            z = mul(x, 2.0)
    assert y.node is None and not y.requires_grad
    assert z.node is not None and z.requires_grad


def test_no_grad_as_decorator():
    x = leaf([1.0])

    @no_grad()
    def f(t):
        return exp(t)

    assert f(x).node is None
    assert exp(x).node is not None


def test_no_node_when_no_input_requires_grad():
    a = leaf([1.0], requires_grad=False)
    b = leaf([2.0], requires_grad=False)
    y = add(a, b)
    assert y.node is None and not y.requires_grad


def test_no_node_for_non_differentiable_ops():
    x = leaf([7.0, 8.0])
    y = floor_divide(x, 2.0)
    assert y.node is None and not y.requires_grad


def test_detach_leaves_the_graph_and_shares_data():
    x = leaf([1.0, 2.0])
    h = mul(x, 3.0)
    d = h.detach()
    assert d.node is None and not d.requires_grad and d.array is h.array
    assert mul(d, 2.0).node is None


def test_only_floating_tensors_can_require_grad():
    with pytest.raises(RuntimeError):
        Tensor(np.array([1, 2]), requires_grad=True)
    t = Tensor(np.array([1, 2]))
    with pytest.raises(RuntimeError):
        t.set_requires_grad(True)


# ------------------------------------------------------------------ seeds
def test_implicit_seed_only_for_one_element():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="scalar"):
        janusgrad.backward([mul(x, 2.0)])


def test_explicit_seed_for_non_scalar():
    x = leaf([1.0, 2.0])
    janusgrad.backward([mul(x, 2.0)], [Tensor(np.array([10.0, 100.0]))])
    np.testing.assert_allclose(x.grad.array, [20.0, 200.0])


def test_seed_of_wrong_shape_raises():
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError, match="shape"):
        janusgrad.backward([mul(x, 2.0)], [Tensor(np.ones(3))])


def test_backward_from_tensor_without_grad_raises():
    with pytest.raises(RuntimeError):
        janusgrad.backward([leaf([1.0], requires_grad=False)])


# ------------------------------------------------------------------ create_graph
def test_create_graph_gives_differentiable_gradients():
    x = leaf([0.5, -1.5, 2.0])
    y = sum(pow(x, 3.0))
    (g,) = run_backward([y], [ones_like(y)], create_graph=True, retain_graph=True,
                        inputs=[x], accumulate=False)
    np.testing.assert_allclose(g.array, 3 * x.array ** 2)
    assert g.requires_grad and g.node is not None
    (gg,) = run_backward([sum(g)], [Tensor(np.array(1.0))], inputs=[x], accumulate=False)
    np.testing.assert_allclose(gg.array, 6 * x.array)
    assert x.grad is None


def test_create_graph_backward_accumulates_a_graph_gradient():
    x = leaf([0.5, 2.0])
    janusgrad.backward([sum(mul(sin(x), x))], create_graph=True)
    g = x.grad                                         # sin x + x cos x
    np.testing.assert_allclose(g.array, np.sin(x.array) + x.array * np.cos(x.array))
    assert g.node is not None
    (gg,) = run_backward([sum(g)], [Tensor(np.array(1.0))], inputs=[x], accumulate=False)
    np.testing.assert_allclose(gg.array, 2 * np.cos(x.array) - x.array * np.sin(x.array))


def test_backward_runs_without_recording_unless_create_graph():
    x = leaf([0.5, 2.0])
    janusgrad.backward([sum(mul(x, x))])
    assert x.grad.node is None


# ------------------------------------------------------------------ inputs= pruning
def test_run_backward_visits_only_paths_to_the_inputs():
    x = leaf([1.0, 2.0])
    z = leaf([3.0, 4.0])
    probe_x, probe_z = Probe(), Probe()
    y = sum(add(mul(probe_x(x), 2.0), exp(probe_z(z))))
    (gx,) = run_backward([y], [ones_like(y)], inputs=[x], accumulate=False)
    np.testing.assert_allclose(gx.array, [2.0, 2.0])
    assert len(probe_x.calls) == 1 and probe_z.calls == []
    assert x.grad is None and z.grad is None


def test_run_backward_to_a_non_leaf_input():
    x = leaf([1.0, 2.0])
    h = mul(x, 3.0)
    y = sum(mul(h, h))
    (gh,) = run_backward([y], [ones_like(y)], inputs=[h], accumulate=False)
    np.testing.assert_allclose(gh.array, 2 * h.array)
    assert x.grad is None


def test_run_backward_unreachable_input_gives_none():
    x = leaf([1.0])
    w = leaf([2.0])
    y = sum(mul(x, 2.0))
    assert run_backward([y], [ones_like(y)], inputs=[x, w], accumulate=False)[1] is None


def test_backward_with_inputs_accumulates_only_into_them():
    x = leaf([1.0, 2.0])
    z = leaf([3.0, 4.0])
    janusgrad.backward([sum(mul(x, z))], inputs=[x])
    np.testing.assert_allclose(x.grad.array, z.array)
    assert z.grad is None


def test_a_seed_that_requires_grad_stays_in_the_graph_when_sent_to_two_inputs():
    """d/dz of <d(x^3)/dx seeded by z, ...>: mul(x, x) sends one gradient object to both
    inputs; copying it there would cut the seed z out of the graph (gave 4, not 12)."""
    from janusgrad.core.autograd import grad
    x = leaf(2.0)
    (g,) = grad([mul(mul(x, x), x)], [x], create_graph=True)
    z = leaf(0.0)
    (db,) = grad([g], [x], [z], create_graph=True)
    (dz,) = grad([db], [z])
    np.testing.assert_allclose(dz.array, 12.0)
