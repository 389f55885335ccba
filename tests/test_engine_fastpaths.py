"""The engine's fast paths give the answers of the general paths they shortcut.

- the scheduler adds further gradients for one input into a sum it made itself;
- an update under no_grad (an optimiser step) is written straight into the array;
- the implicit seed of a 0-d loss is made without numpy's ones_like;
- a backward that records nothing runs ops' rules on bare arrays, and a rule hands an
  operand pair it cannot promote exactly to its run on tensors (the recording backward's);
- x * c and x / c keep only c; version checks are skipped for nodes made after the last
  in-place change anywhere;
- ops return before recording under no_grad and in inference mode, and mark inference
  tensors all the same.
"""
from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

from janusgrad import Tensor
from janusgrad.core.autograd import backward
from janusgrad.core.inplace import update
from janusgrad.core.mode import no_grad
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R


def _leaf(values) -> Tensor:
    return Tensor(np.array(values, dtype=np.float64), requires_grad=True)


def test_a_node_with_many_consumers_gets_the_sum_and_nobody_s_gradient_changes():
    from janusgrad.core.hooks import register_hook
    x = _leaf([1.0, 2.0, 3.0])
    h = E.mul(x, 2.0)  # a node whose output feeds four consumers
    # add passes its incoming gradient on as it is: h's first gradient is the very object
    # the first consumer's hook was given, the one a careless in-place sum would write into
    outs = [E.add(h, float(k)) for k in range(4)]
    seen = []
    for o in outs:  # each consumer's incoming gradient, as its hook sees it
        register_hook(o, lambda g: seen.append((g, g.array.copy())))
    total = outs[0]
    for o in outs[1:]:
        total = E.add(total, o)
    backward([R.sum(E.mul(total, 3.0))], [None])
    np.testing.assert_array_equal(x.grad.array, np.full(3, 24.0))  # 3 * 4 consumers * 2
    assert len(seen) == 4
    for g, snapshot in seen:  # no gradient a hook was given was written into afterwards
        np.testing.assert_array_equal(g.array, snapshot)


def test_one_gradient_sent_to_two_leaves_is_not_shared():
    x, y = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    backward([R.sum(E.add(x, y))], [None])
    assert x.grad.array is not y.grad.array
    x.grad.array[...] = 0.0
    np.testing.assert_array_equal(y.grad.array, [1.0, 1.0])


@pytest.mark.parametrize("fn, ref", [(E.add, np.add), (E.sub, np.subtract),
                                     (E.mul, np.multiply), (E.div, np.true_divide)])
@pytest.mark.parametrize("other", ["float", "same", "row"])
def test_an_update_without_recording_equals_the_general_path(fn, ref, other):
    base = np.arange(1.0, 7.0, dtype=np.float32).reshape(2, 3)
    b = {"float": 0.5, "same": Tensor(base[::-1].copy() + 1),
         "row": Tensor(np.array([1.0, 2.0, 4.0], np.float32))}[other]
    p = Tensor(base.copy())
    alias = p.array
    before = p.version
    with no_grad():
        update(p, fn, b)
    expected = ref(base, b.array if isinstance(b, Tensor) else np.float32(b))
    np.testing.assert_array_equal(p.array, expected)
    assert p.array is alias and p.array.dtype == np.float32  # in place, dtype kept
    assert p.version == before + 1


def test_an_update_that_does_not_broadcast_still_gets_the_dialect_error():
    p = Tensor(np.zeros(3, np.float32))
    with no_grad(), pytest.raises(Exception, match="doesn't match the broadcast shape"):
        update(p, E.add, Tensor(np.ones((2, 3), np.float32)))
    np.testing.assert_array_equal(p.array, np.zeros(3))


def test_an_update_of_a_tensor_by_itself_and_of_a_read_only_array():
    p = Tensor(np.array([1.0, 2.0], np.float32))
    with no_grad():
        update(p, E.sub, p)
    np.testing.assert_array_equal(p.array, [0.0, 0.0])
    ro = np.array([1.0, 2.0], np.float32)
    ro.flags.writeable = False
    q = Tensor(ro)
    with no_grad(), pytest.raises(ValueError):  # numpy's read-only refusal, as before
        update(q, E.add, 1.0)


def test_the_implicit_seed_of_a_0d_loss_and_of_a_leaf():
    for dtype in (np.float32, np.float64):
        x = Tensor(np.array([1.0, 2.0], dtype), requires_grad=True)
        backward([R.sum(E.mul(x, x))], [None])
        assert x.grad.array.dtype == dtype
        np.testing.assert_array_equal(x.grad.array, [2.0, 4.0])
    leaf = Tensor(np.array(3.0, np.float32), requires_grad=True)
    backward([leaf], [None])
    assert leaf.grad.array.dtype == np.float32 and leaf.grad.array.shape == ()
    leaf.grad.array[...] = 0.0  # a grad of one's own, writeable


def test_a_gradient_sent_to_a_node_and_a_leaf_never_makes_two_leaves_share_an_array():
    """add sends one gradient object to both inputs; a node's rule may pass it on unchanged
    (add with a number) or as a view (reshape) to another leaf: the two leaves' grads must
    still be arrays of their own."""
    from janusgrad.ops import shape as S
    for through in (lambda t: E.add(t, 1.0), lambda t: S.reshape(t, (2,)),
                     lambda t: E.mul(t, 3.0)):
        x, w = _leaf([1.0, 2.0]), _leaf([1.0, 2.0])
        backward([R.sum(E.mul(E.add(through(x), w), 2.0))], [None])
        assert not np.shares_memory(x.grad.array, w.grad.array)
        before = x.grad.array.copy()
        w.grad.array[...] = 0.0
        np.testing.assert_array_equal(x.grad.array, before)
    v = _leaf([1.0, 2.0])
    backward([R.sum(E.add(v, v))], [None])  # the same leaf twice
    np.testing.assert_array_equal(v.grad.array, [2.0, 2.0])


def test_a_retained_non_leaf_grad_and_a_leaf_grad_are_not_one_array():
    from janusgrad.core.hooks import retain_grad
    x = _leaf([1.0, 2.0])
    y = E.mul(x, 3.0)
    retain_grad(y)
    backward([R.sum(E.add(y, x))], [None])
    assert y.grad.array is not x.grad.array
    y.grad.array[...] = 0.0
    np.testing.assert_array_equal(x.grad.array, [4.0, 4.0])


def _fresh_cases():
    from janusgrad import SPECS
    return [s for s in SPECS if s.differentiable]


@pytest.mark.parametrize("spec", _fresh_cases(), ids=lambda s: s.name)
def test_a_rule_marked_fresh_never_returns_its_incoming_gradient_or_a_view(spec):
    """OpDef.fresh lets the scheduler share one gradient object between a node and a leaf;
    it must hold for every op so marked (checked on the op at the root of each spec)."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis import strategies as st
    from hypothesis.extra import numpy as hnp

    arrays, kwargs = find(st.composite(lambda draw: spec.make(draw, st, hnp))(),
                          lambda c: True, settings=settings(
                              database=None, phases=[Phase.generate], derandomize=True,
                              suppress_health_check=list(HealthCheck)))
    out = spec.fn(*[Tensor(a, requires_grad=True) for a in arrays], **kwargs)
    node = out.node
    if node is None or not getattr(node.op, "fresh", False):
        return
    g = Tensor(np.ones(out.array.shape))
    for r in node.op.vjp(node, g):
        if r is not None:
            assert r is not g and not np.shares_memory(r.array, g.array), node.op.name
    if node.op.arrays is not None:  # the same for the rule on bare arrays
        for r in node.op.arrays(node, g.array) or ():
            if r is not None:
                assert r is not g.array and not np.shares_memory(r, g.array), node.op.name


def _grads_both_ways(make):
    """The leaves' gradients of ``make()`` (leaves, loss) from the backward on bare arrays
    and from the recording one (create_graph: every rule runs on tensors)."""
    out = []
    for create_graph in (False, True):
        leaves, loss = make()
        backward([loss], [None], create_graph=create_graph)
        out.append([t.grad for t in leaves])
    return out


@pytest.mark.parametrize("case", ["f32*f64", "int*f32", "f32/int", "f64**f32", "f32@f64",
                                  "f32**2.5", "f32**2", "f32**0", "2.0**f32",
                                  "max ties", "min ties with a float", "max f32,f64"])
def test_rules_on_arrays_give_the_tensor_bits_on_mixed_and_number_operands(case):
    """Mixed dtypes: the rule declines bare arrays (on tensors the engine promotes); Python
    numbers: it runs on arrays, with the forward's cached constants."""
    rng = np.random.default_rng(0)
    a32 = rng.standard_normal((3, 3)).astype(np.float32) + 2
    a64 = np.abs(rng.standard_normal((3, 3))) + 1
    ints = np.arange(1, 10).reshape(3, 3)

    def make():
        p = Tensor(a32.copy(), requires_grad=True)
        q = Tensor(a64.copy(), requires_grad=True)
        r = Tensor(a32.copy(), requires_grad=True)  # p's values: ties in max/min
        k = Tensor(ints.copy())
        out = {"f32*f64": lambda: E.mul(p, q), "int*f32": lambda: E.mul(k, p),
               "f32/int": lambda: E.div(p, k), "f64**f32": lambda: E.pow(q, p),
               "f32@f64": lambda: __import__("janusgrad").ops.linalg.matmul(p, q),
               "f32**2.5": lambda: E.pow(E.abs(p), 2.5), "f32**2": lambda: E.pow(p, 2),
               "f32**0": lambda: E.pow(p, 0), "2.0**f32": lambda: E.pow(2.0, p),
               "max ties": lambda: E.maximum(p, r),
               "min ties with a float": lambda: E.minimum(p, float(a32[0, 0])),
               "max f32,f64": lambda: E.maximum(p, q)}[case]()
        return (p, q, r), R.sum(E.mul(out, out))

    raw, tensors = _grads_both_ways(make)
    for g, w in zip(raw, tensors):
        assert (g is None) == (w is None)
        if g is not None:
            assert g.array.dtype == w.array.dtype
            np.testing.assert_array_equal(g.array, w.array)


def test_hooks_and_retained_grads_see_tensors_on_the_array_path():
    from janusgrad.core.hooks import register_hook, retain_grad

    def make():
        x = _leaf([1.0, -2.0, 3.0])
        h = E.exp(E.mul(x, 0.5))
        retain_grad(h)
        register_hook(h, lambda g: E.mul(g, 10.0))
        make.h = h
        return (x,), R.sum(E.tanh(h))

    (raw,), (tensors,) = _grads_both_ways(make)
    np.testing.assert_array_equal(raw.array, tensors.array)
    assert isinstance(make.h.grad, Tensor)


def test_a_leaf_grad_made_from_a_broadcast_view_can_be_written():
    x = _leaf(np.zeros(5000))  # sum's rule spreads the 0-d gradient as a broadcast view
    backward([R.sum(x)], [None])
    assert x.grad.array.flags.writeable
    x.grad.array[0] = 7.0
    np.testing.assert_array_equal(x.grad.array[:3], [7.0, 1.0, 1.0])


@pytest.mark.parametrize("fn", [E.mul, E.div])
def test_x_times_a_float_keeps_only_the_float(fn):
    x = E.exp(_leaf([1.0, 2.0]))  # an intermediate: only the graph could keep it alive
    gone = weakref.ref(x)
    y = fn(x, 4.0)
    del x
    gc.collect()
    assert gone() is None
    leaf = y.node.parents[0].parents[0]
    backward([R.sum(y)], [None])
    scale = 4.0 if fn is E.mul else 0.25
    np.testing.assert_allclose(leaf.grad.array, scale * np.exp([1.0, 2.0]))


def test_a_change_after_the_node_is_still_caught_when_later_nodes_exist():
    from janusgrad.core.inplace import update
    x = _leaf([1.0, 2.0])
    a = E.mul(x, 2.0)
    b = E.sin(a)  # saves a
    later = E.cos(x)  # made after b, before the change
    with no_grad():
        update(a, E.add, 1.0)
    with pytest.raises(RuntimeError, match="modified by an in-place operation"):
        backward([R.sum(b)], [None])
    backward([R.sum(later)], [None])  # saved x, unchanged: no error
    np.testing.assert_allclose(x.grad.array, -np.sin([1.0, 2.0]))


_UNRECORDED = {
    "x * float": lambda x: E.mul(x, 2.0),
    "float * x": lambda x: E.mul(2.0, x),
    "x * x": lambda x: E.mul(x, x),
    "x * int x": lambda x: E.mul(x, Tensor(np.array([1, 2]))),  # the general binary path
    "sin": E.sin,
    "sin of int": lambda x: E.sin(Tensor(np.array([1, 2]))),  # the unary general path
    "relu": E.relu,
    "sum()": R.sum,
    "sum(0)": lambda x: R.sum(x, 0),
}


@pytest.mark.parametrize("case", list(_UNRECORDED))
def test_fast_paths_under_no_grad_and_inference_mode(case):
    from janusgrad.core.mode import InferenceMode
    f, x = _UNRECORDED[case], _leaf([1.0, 2.0])
    with no_grad():
        out = f(x)
        assert out.node is None and not out.requires_grad and not out.is_inference_tensor
    with InferenceMode():
        out = f(x)
        assert out.node is None and not out.requires_grad and out.is_inference_tensor
    out = f(x)  # grad mode: recorded where the input requires grad
    assert (out.node is not None) == (case != "sin of int") and not out.is_inference_tensor


def _graph_nodes(*roots):
    from janusgrad.core.tensor import Node
    seen, stack = {}, [t.node for t in roots if t.node is not None]
    while stack:
        n = stack.pop()
        if id(n) not in seen:
            seen[id(n)] = n
            stack.extend(p for p in n.parents if type(p) is Node)
    return list(seen.values())


def test_every_node_is_made_after_the_nodes_of_its_inputs():
    """grad() orders a graph's nodes by sequence number (autograd._collect): that is a
    topological order only while every node is made after its parents, whatever made it
    (ops, a custom function with two outputs, an in-place change of a view, create_graph)."""
    import torchlike as torch
    from janusgrad.core.tensor import Node

    class TwoOut(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2.0, a.sin()

        @staticmethod
        def backward(ctx, g1, g2):
            (a,) = ctx.saved_tensors
            return g1 * 2.0 + g2 * a.cos()

    x = torch.randn(3, 4, requires_grad=True, dtype=torch.float64)
    u, v = TwoOut.apply(x * 1.5)
    w = (u + v).exp().clone()
    w[1].mul_(3.0)  # in place through a view: the base's history is rewritten
    loss = (w @ x.T).tanh().sum()
    (gx,) = torch.autograd.grad(loss, x, create_graph=True)
    nodes = _graph_nodes(loss, gx)
    assert len(nodes) > 15
    for n in nodes:
        for p in n.parents:
            if type(p) is Node:
                assert p.seq < n.seq, (p.name, n.name)
    (gx2,) = torch.autograd.grad(gx.sum(), x)  # and grad() walks the second-order graph
    assert np.isfinite(gx2.numpy()).all()


def test_the_two_namespaces_of_the_rules_have_the_same_names():
    """A rule runs over either namespace (engine.ops.rules): each name it may use is in
    both, numpy's functions on arrays and the engine's ops on tensors."""
    from janusgrad.ops.rules import ARRAYS, TENSORS

    TENSORS.add  # noqa: B018  (fills the namespace)
    assert set(ARRAYS[np.ndarray].__dict__) - {"module"} == set(TENSORS.__dict__)


def test_every_rule_runs_on_arrays_and_on_tensors():
    from janusgrad import OPS

    for op in OPS.values():
        if op.rule is not None:
            assert op.arrays is not None and op.vjp is not None, op.name
