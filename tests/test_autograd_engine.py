"""The engine's autograd features (issue 3 §1 §2 §4 §5) in its own vocabulary."""
from __future__ import annotations

import math
import threading
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from janusgrad.core import anomaly, hooks
from janusgrad.core import autograd as ag
from janusgrad.core.mode import InferenceMode, no_grad, state
from janusgrad.core.tensor import Tensor, record
from janusgrad.ops import OpDef
from janusgrad.ops import elementwise as E
from janusgrad.ops import linalg as L
from janusgrad.ops import reduce as R


def leaf(values, dtype=np.float64):
    return Tensor(np.asarray(values, dtype=dtype), requires_grad=True)


def total(t):
    return R.sum(t)


# ------------------------------------------------------------------ §1
def test_grad_returns_values_and_leaves_grad_untouched():
    x = leaf([1.0, 2.0, 3.0])
    (g,) = ag.grad([total(E.mul(x, x))], [x])
    np.testing.assert_allclose(g.array, [2.0, 4.0, 6.0])
    assert x.grad is None and g.node is None


def _counting_op(calls):
    def vjp(n, g):
        calls.append(n)
        return (g,)
    return OpDef("probe", vjp)  # not registered: the op table's coverage test ignores it


def test_grad_visits_only_nodes_on_a_path_to_the_inputs():
    calls = []
    probe = _counting_op(calls)
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    side = record(probe, y.array.copy(), (y,))  # a branch that does not lead to x
    out = total(E.add(E.mul(x, 2.0), side))
    (g,) = ag.grad([out], [x])
    np.testing.assert_allclose(g.array, [2.0, 2.0])
    assert calls == []
    ag.grad([total(E.add(E.mul(x, 2.0), record(probe, x.array.copy(), (x,))))], [x])
    assert len(calls) == 1


def test_grad_stops_at_a_requested_non_leaf():
    calls = []
    probe = _counting_op(calls)
    x = leaf([1.0, 2.0])
    w = record(probe, x.array.copy(), (x,))
    (gw,) = ag.grad([total(E.mul(w, w))], [w])
    np.testing.assert_allclose(gw.array, [2.0, 4.0])
    assert calls == []  # w's own rule is not needed


def test_unused_input_and_allow_unused_and_materialize():
    x, y = leaf([1.0]), leaf([2.0])
    with pytest.raises(RuntimeError, match="input 1"):
        ag.grad([total(x)], [x, y])
    assert ag.grad([total(x)], [x, y], allow_unused=True)[1] is None
    z = ag.grad([total(x)], [x, y], materialize=True)[1]
    np.testing.assert_array_equal(z.array, [0.0])


def test_stop_cuts_the_gradient():
    x = leaf([1.0, 2.0])
    w = E.mul(x, 1.0)
    (g,) = ag.grad([total(E.add(E.mul(w, w), x))], [x], stop=[w])
    np.testing.assert_allclose(g.array, [1.0, 1.0])


def _nth_derivative_sin_exp(x, n):
    """d^n/dx^n e^x sin x = 2^(n/2) e^x sin(x + n pi / 4)."""
    return 2 ** (n / 2) * math.exp(x) * math.sin(x + n * math.pi / 4)


@given(st.floats(-2.0, 2.0))
def test_third_and_fourth_derivatives_of_sin_exp(v):
    x = leaf([v])
    f = total(E.mul(E.sin(x), E.exp(x)))
    for n in range(1, 5):
        (f,) = ag.grad([f], [x], create_graph=True)
        assert f.array[0] == pytest.approx(_nth_derivative_sin_exp(v, n), rel=1e-9, abs=1e-9)
        f = total(f)


def test_third_derivative_of_tanh_matmul_against_finite_differences():
    w = Tensor(np.array([[0.5, -1.0], [0.25, 0.75]]))

    def second(xv):
        x = leaf(xv)
        (g,) = ag.grad([total(E.tanh(L.matmul(x, w)))], [x], create_graph=True)
        (h,) = ag.grad([total(g)], [x], create_graph=True)
        return x, h

    xv = np.array([[0.1, 0.2], [0.3, -0.4]])
    x, h = second(xv)
    (third,) = ag.grad([total(h)], [x])
    eps = 1e-6
    for i in np.ndindex(xv.shape):
        d = np.zeros_like(xv)
        d[i] = eps
        fd = (second(xv + d)[1].array.sum() - second(xv - d)[1].array.sum()) / (2 * eps)
        assert third.array[i] == pytest.approx(fd, rel=1e-5, abs=1e-7)


def test_hessian_vector_product():
    x = leaf([0.5, 1.5, -1.0])
    v = Tensor(np.array([1.0, 0.0, 2.0]))
    (g,) = ag.grad([total(E.pow(x, 3))], [x], create_graph=True)
    (hv,) = ag.grad([g], [x], grad_outputs=[v])
    np.testing.assert_allclose(hv.array, 6 * x.array * v.array)


# ------------------------------------------------------------------ §2
def test_leaf_hook_sees_the_summed_gradient_once_and_can_replace_it():
    x = leaf([1.0, 2.0])
    seen = []
    hooks.register_hook(x, lambda g: seen.append(g.array.copy()))
    h = hooks.register_hook(x, lambda g: E.mul(g, 10.0))
    ag.backward([total(E.add(E.mul(x, x), E.mul(x, 3.0)))])
    assert len(seen) == 1
    np.testing.assert_allclose(seen[0], [5.0, 7.0])
    np.testing.assert_allclose(x.grad.array, [50.0, 70.0])
    assert h.remove() is True and h.remove() is False


def test_nonleaf_hook_and_retained_grad():
    x = leaf([1.0, 2.0])
    y = E.mul(x, 2.0)
    hooks.retain_grad(y)
    hooks.register_hook(y, lambda g: E.mul(g, 100.0))
    ag.backward([total(E.mul(y, y))])
    np.testing.assert_allclose(y.grad.array, [400.0, 800.0])  # retained after the hooks
    np.testing.assert_allclose(x.grad.array, [800.0, 1600.0])
    assert y.retains_grad


def test_hook_returning_another_shape_is_refused():
    x = leaf([1.0, 2.0])
    hooks.register_hook(x, lambda g: Tensor(np.ones(3)))
    with pytest.raises(RuntimeError, match="size"):
        ag.backward([total(E.mul(x, x))])


def test_post_accumulate_hook_sees_the_updated_grad():
    x = leaf([1.0, 2.0])
    seen = []
    hooks.register_post_accumulate_grad_hook(x, lambda t: seen.append(t.grad.array.copy()))
    ag.backward([total(E.mul(x, x))])
    np.testing.assert_allclose(seen[0], [2.0, 4.0])


# ------------------------------------------------------------------ §4
def test_modified_saved_input_is_refused():
    from janusgrad.core import inplace
    x = leaf([1.0, 2.0])
    a = E.mul(x, 2.0)
    b = E.mul(a, a)
    inplace.update(a, E.add, 1.0)
    with pytest.raises(RuntimeError, match="version 1; expected version 0"):
        ag.backward([total(b)])


def test_modified_saved_output_is_refused_but_an_unsaved_one_is_not():
    from janusgrad.core import inplace
    x = leaf([1.0, 2.0])
    a = E.exp(x)
    inplace.update(a, E.add, 1.0)
    with pytest.raises(RuntimeError, match="version"):
        ag.backward([total(a)])
    y = leaf([1.0, 2.0])
    b = E.add(y, 1.0)  # saves nothing
    c = E.exp(b)
    inplace.update(b, E.mul, 2.0)
    ag.backward([total(c)])
    np.testing.assert_allclose(y.grad.array, np.exp([2.0, 3.0]))


def test_detach_shares_the_version_counter():
    x = leaf([1.0, 2.0])
    d = x.detach()
    d.bump_version()
    assert x.version == 1


# ------------------------------------------------------------------ §5
def test_inference_tensors_cannot_be_saved_or_changed_outside():
    from janusgrad.core import inplace
    x = leaf([1.0, 2.0])
    with InferenceMode():
        b = E.mul(x, 2.0)
        assert b.is_inference_tensor and not b.requires_grad
        inplace.update(b, E.add, 1.0)
    with pytest.raises(RuntimeError, match="saved"):
        E.mul(b, x)
    with pytest.raises(RuntimeError, match="inference"):
        inplace.update(b, E.add, 1.0)
    assert not E.add(b, x).is_inference_tensor


def test_inference_mode_is_per_thread():
    seen = []
    with InferenceMode():
        t = threading.Thread(target=lambda: seen.append((state.inference, state.enabled)))
        t.start()
        t.join()
    assert seen == [(False, True)]


def test_grad_mode_is_per_thread_not_per_context():
    # torch's mode is thread-local. Notebook kernels may run each cell in a copied context
    # (an asyncio task): set_grad_enabled(False) in one cell must still hold in the next.
    import contextvars

    from janusgrad.core.mode import set_grad_enabled_flag
    contextvars.copy_context().run(set_grad_enabled_flag, False)
    try:
        assert not state.enabled
    finally:
        set_grad_enabled_flag(True)


def test_backward_inside_no_grad_on_a_graph_built_outside():
    x = leaf([1.0, 2.0])
    y = total(E.mul(x, x))
    with no_grad():
        ag.backward([y])
        assert not state.enabled
    np.testing.assert_allclose(x.grad.array, [2.0, 4.0])


def test_anomaly_detection_names_the_node_and_shows_the_forward_call():
    x = leaf([0.0, 1.0])
    anomaly.set_enabled(True)
    try:
        with np.errstate(all="ignore"):
            y = E.div(x, x)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(RuntimeError, match="nan"):
                ag.backward([total(y)])
    finally:
        anomaly.set_enabled(False)
    shown = [str(w.message) for w in caught if "Error detected" in str(w.message)]
    assert shown and "y = E.div(x, x)" in shown[0] and "engine/" not in shown[0]


def test_anomaly_off_records_nothing():
    x = leaf([1.0])
    y = E.exp(x)
    assert anomaly.forward_stack(y.node) is None


_UNARY = [E.sin, E.exp, E.tanh, E.sigmoid, lambda t: E.mul(t, t), lambda t: E.add(t, 1.5)]


@given(st.lists(st.integers(0, len(_UNARY) - 1), min_size=1, max_size=6),
       st.lists(st.floats(-1.5, 1.5), min_size=1, max_size=4), st.booleans())
def test_grad_equals_backward_and_identity_hooks_change_nothing(chain, values, hooked):
    def build(x):
        h = x
        for i in chain:
            h = _UNARY[i](h)
            if hooked:
                hooks.register_hook(h, lambda g: g)
        return total(h)

    x1, x2 = leaf(values), leaf(values)
    (g,) = ag.grad([build(x1)], [x1])
    ag.backward([build(x2)])
    np.testing.assert_allclose(g.array, x2.grad.array, rtol=1e-12)
    assert x1.grad is None


@pytest.mark.parametrize("dialect", ["torch", "paddle"])
@pytest.mark.parametrize("path", ["one node", "scheduler", "compiled"])
def test_two_leaves_of_one_add_get_grads_of_their_own(dialect, path):
    """add's rule returns one gradient array for both its inputs: each leaf's ``.grad``
    must still be its own, so that changing one in place leaves the other alone; through
    the one-node backward (a 0-d root over plain leaves), the scheduler's walk and a
    compiled call's node."""
    if dialect == "torch":
        import torchlike as fw

        def leaves(shape):
            return [fw.ones(shape, requires_grad=True) for _ in range(2)]

        def scale(g):
            g.mul_(10)
        compile_ = fw.compile
    else:
        import paddlelike as fw

        def leaves(shape):
            out = [fw.ones(list(shape)) for _ in range(2)]
            for t in out:
                t.stop_gradient = False
            return out

        def scale(g):
            with fw.no_grad():  # (paddle's .grad requires grad: no in-place change outside)
                g.scale_(10)
        compile_ = fw.jit.to_static

    def add(a, b):
        return a + b
    f = compile_(add) if path == "compiled" else add
    for _ in range(2):  # (a compiled function: the trace, then a replay)
        x, y = leaves(() if path != "scheduler" else (3,))
        out = f(x, y)
        (out.sum() if path == "scheduler" else out).backward()
        scale(x.grad)
        np.testing.assert_array_equal(x.grad.numpy(), np.full(x.shape, 10, np.float32))
        np.testing.assert_array_equal(y.grad.numpy(), np.full(y.shape, 1, np.float32))
