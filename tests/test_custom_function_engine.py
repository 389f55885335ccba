"""janusgrad.core.function: custom functions as graph nodes, checked against finite differences.

The functions here are written against the engine alone (a minimal Context
subclass); the dialects' versions are tested in test_custom_function_*.py.
"""
from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from janusgrad import Tensor
from janusgrad.core.autograd import backward, run_backward
from janusgrad.core.function import Context, FunctionOp, apply
from janusgrad.core.mode import no_grad
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R

from .gradcheck import check_first_order, check_second_order


class Ctx(Context):
    def run_backward(self, grads):
        return self.user_backward(self, *grads)


def custom(name, forward, backward_fn, ctx_cls=Ctx):
    """A callable recording ``forward`` as one node whose rule is ``backward_fn``."""
    op = FunctionOp(name)

    def call(*args):
        ctx = ctx_cls()
        ctx.user_backward = backward_fn
        ctx.log = []
        call.last_ctx = ctx
        return apply(op, ctx, args, lambda: forward(ctx, *args))
    return call


# -- functions under test ---------------------------------------------------
def _cube_fwd(ctx, x):
    ctx.save_for_backward(x)
    return E.mul(E.mul(x, x), x)


def _cube_bwd(ctx, g):
    (x,) = ctx.saved_values()
    return E.mul(g, E.mul(3.0, E.mul(x, x)))


cube = custom("cube", _cube_fwd, _cube_bwd)


def _exp_fwd(ctx, x):
    r = E.exp(x)
    ctx.save_for_backward(r)  # an output: unpacked in backward as a graph tensor
    return r


def _exp_bwd(ctx, g):
    (r,) = ctx.saved_values()
    return E.mul(g, r)


exp_saving_output = custom("exp", _exp_fwd, _exp_bwd)


def _mulsin_fwd(ctx, x, y):
    ctx.save_for_backward(x, y)
    return E.mul(x, y), E.add(E.sin(x), y)


def _mulsin_bwd(ctx, ga, gb):
    x, y = ctx.saved_values()
    ctx.log.append((ga, gb))
    gx = E.add(E.mul(ga, y), E.mul(gb, E.cos(x)))
    gy = E.add(E.mul(ga, x), gb)
    return gx, gy


mulsin = custom("mulsin", _mulsin_fwd, _mulsin_bwd)


def _scale_fwd(ctx, x, k):
    ctx.k = k
    return E.mul(x, k)


def _scale_bwd(ctx, g):
    return E.mul(g, ctx.k), None


scale = custom("scale", _scale_fwd, _scale_bwd)

floats = st.floats(-2, 2, allow_nan=False, width=64)
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)


def _arrays(n):
    return shapes.flatmap(lambda s: st.tuples(*[hnp.arrays(np.float64, s, elements=floats)] * n))


# -- first and second order against finite differences ----------------------
@given(_arrays(1))
def test_cube_matches_finite_differences(arrays):
    rng = np.random.default_rng(0)
    check_first_order(cube, list(arrays), {}, (0,), rng, 1e-6, 1e-5)
    check_second_order(cube, list(arrays), {}, (0,), rng, 1e-6, 1e-5)


@given(_arrays(1))
def test_saved_output_supports_double_backward(arrays):
    rng = np.random.default_rng(1)
    check_first_order(exp_saving_output, list(arrays), {}, (0,), rng, 1e-6, 1e-5)
    check_second_order(exp_saving_output, list(arrays), {}, (0,), rng, 1e-6, 1e-5)


@given(_arrays(3))
def test_two_outputs_combined_match_finite_differences(arrays):
    def fn(x, y, c):
        a, b = mulsin(x, y)
        return E.add(E.mul(a, c), E.mul(b, b))
    rng = np.random.default_rng(2)
    check_first_order(fn, list(arrays), {}, (0, 1), rng, 1e-6, 1e-5)
    check_second_order(fn, list(arrays), {}, (0, 1), rng, 1e-6, 1e-5)


@given(_arrays(1), st.floats(-3, 3, allow_nan=False))
def test_non_tensor_argument(arrays, k):
    rng = np.random.default_rng(3)
    check_first_order(lambda x: scale(x, k), list(arrays), {}, (0,), rng, 1e-6, 1e-5)


def test_third_derivative_through_custom_function():
    x = Tensor(np.array([0.5, -1.5, 2.0]), requires_grad=True)
    y = R.sum(cube(x))
    (g1,) = run_backward([y], [Tensor(np.ones(()))], create_graph=True, inputs=[x],
                         accumulate=False)
    (g2,) = run_backward([R.sum(g1)], [Tensor(np.ones(()))], create_graph=True, inputs=[x],
                         accumulate=False)
    (g3,) = run_backward([R.sum(g2)], [Tensor(np.ones(()))], inputs=[x], accumulate=False)
    np.testing.assert_allclose(g1.array, 3 * x.array ** 2)
    np.testing.assert_allclose(g2.array, 6 * x.array)
    np.testing.assert_allclose(g3.array, 6.0)


# -- several outputs ---------------------------------------------------------
def _leaf(values):
    return Tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


def test_one_of_two_outputs_used_materializes_zeros():
    x, y = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    a, b = mulsin(x, y)
    backward([R.sum(a)])
    ga, gb = mulsin.last_ctx.log[-1]
    np.testing.assert_array_equal(ga.array, [1.0, 1.0])
    np.testing.assert_array_equal(gb.array, [0.0, 0.0])
    np.testing.assert_allclose(x.grad.array, [3.0, 4.0])
    np.testing.assert_allclose(y.grad.array, [1.0, 2.0])


def test_both_outputs_reach_backward_once_summed():
    x, y = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    a, b = mulsin(x, y)
    backward([E.add(R.sum(a), R.sum(E.mul(b, 2.0)))])
    assert len(mulsin.last_ctx.log) == 1
    ga, gb = mulsin.last_ctx.log[0]
    np.testing.assert_array_equal(gb.array, [2.0, 2.0])
    np.testing.assert_allclose(x.grad.array, [3.0, 4.0] + 2 * np.cos([1.0, 2.0]))


def test_materialize_grads_off_gives_none():
    def fwd(ctx, x):
        ctx.set_materialize_grads(False)
        return E.mul(x, 2.0), E.mul(x, 3.0)

    def bwd(ctx, ga, gb):
        ctx.log.append((ga, gb))
        return ga if ga is not None else gb

    f = custom("nomat", fwd, bwd)
    x = _leaf([1.0])
    a, b = f(x)
    backward([R.sum(b)])
    ga, gb = f.last_ctx.log[-1]
    assert ga is None and gb is not None


def test_retained_graph_second_pass_sees_only_its_own_outputs():
    x, y = _leaf([1.0]), _leaf([2.0])
    a, b = mulsin(x, y)
    backward([R.sum(a)], retain_graph=True)
    backward([R.sum(b)])
    ga, gb = mulsin.last_ctx.log[-1]
    np.testing.assert_array_equal(ga.array, [0.0])  # not the first pass's gradient
    np.testing.assert_array_equal(gb.array, [1.0])


def test_failed_pass_leaves_no_stale_gradient():
    def boom(ctx, g):
        raise ValueError("boom")

    bad = custom("bad", lambda ctx, x: E.mul(x, 1.0), boom)
    x, y = _leaf([1.0]), _leaf([2.0])
    a, b = mulsin(x, y)
    # a's selector runs first, then the pass fails before b's selector and the call node
    with pytest.raises(ValueError):
        backward([E.add(R.sum(bad(b)), R.sum(a))], retain_graph=True)
    assert mulsin.last_ctx._pending[0] is not None  # the situation this test is about
    backward([R.sum(b)])
    ga, gb = mulsin.last_ctx.log[-1]
    np.testing.assert_array_equal(ga.array, [0.0])  # the failed pass's gradient is not reused
    np.testing.assert_array_equal(gb.array, [1.0])


# -- non-differentiable outputs, needs_input_grad, grad mode -----------------
def test_non_differentiable_output_has_no_graph():
    def fwd(ctx, x):
        y = E.mul(x, 2.0)
        ctx.mark_non_differentiable(y)
        return y, E.mul(x, 3.0)

    def bwd(ctx, gy, gz):
        ctx.log.append(gy)
        return gz

    f = custom("nd", fwd, bwd)
    x = _leaf([1.0, 2.0])
    y, z = f(x)
    assert not y.requires_grad and y.node is None
    assert z.requires_grad
    backward([R.sum(z)])
    np.testing.assert_array_equal(f.last_ctx.log[-1].array, [0.0, 0.0])
    np.testing.assert_array_equal(x.grad.array, [1.0, 1.0])


def test_integer_output_is_not_differentiable():
    f = custom("argmax", lambda ctx, x: (E.mul(x, 1.0), Tensor(np.array(1))),
               lambda ctx, g, gi: g)
    x = _leaf([1.0, 2.0])
    y, i = f(x)
    assert y.requires_grad and not i.requires_grad


def test_needs_input_grad_and_no_node_without_grad():
    seen = []

    def fwd(ctx, a, b, n):
        seen.append(ctx.needs_input_grad)
        return E.add(a, b)

    f = custom("nig", fwd, lambda ctx, g: (g, g, None))
    x = _leaf([1.0])
    w = Tensor(np.array([1.0]))
    assert f(x, w, 3).requires_grad
    assert seen[-1] == (True, False, False)
    with no_grad():
        r = f(x, w, 3)
    assert r.node is None and not r.requires_grad
    r = f(w, w, 3)
    assert r.node is None and seen[-1] == (False, False, False)


def test_forward_runs_without_grad_and_backward_without_graph_by_default():
    from janusgrad.core.mode import state
    modes = []

    def fwd(ctx, x):
        modes.append(state.enabled)
        return E.mul(x, 2.0)

    def bwd(ctx, g):
        modes.append(state.enabled)
        return E.mul(g, 2.0)

    f = custom("modes", fwd, bwd)
    backward([R.sum(f(_leaf([1.0])))])
    assert modes == [False, False]


def test_returned_input_is_a_new_tensor_sharing_data():
    f = custom("ident", lambda ctx, x: x, lambda ctx, g: E.mul(g, 5.0))
    x = _leaf([1.0, 2.0])
    y = f(x)
    assert y is not x and y.array is x.array and y.node is not None
    backward([R.sum(y)])
    np.testing.assert_array_equal(x.grad.array, [5.0, 5.0])


def test_dirty_input_is_rebased_and_its_version_bumped():
    def fwd(ctx, x):
        x.array *= 2
        ctx.mark_dirty(x)
        return x

    f = custom("dirty", fwd, lambda ctx, g: E.mul(g, 2.0))
    x = _leaf([1.0, 2.0])
    h = E.mul(x, 1.0)
    old = h.node
    out = f(h)
    assert out is h and h.node is not old and h.version == 1
    backward([R.sum(out)])
    np.testing.assert_array_equal(x.grad.array, [2.0, 2.0])


def test_dirty_leaf_requiring_grad_is_refused():
    def fwd(ctx, x):
        ctx.mark_dirty(x)
        return x

    with pytest.raises(RuntimeError):
        custom("dirty", fwd, lambda ctx, g: g)(_leaf([1.0]))


# -- saved tensors: release, versions, no reference cycle --------------------
def test_second_backward_without_retain_graph_is_refused():
    x = _leaf([1.0, 2.0])
    y = R.sum(cube(x))
    backward([y])
    with pytest.raises(RuntimeError, match="released|retain_graph"):
        backward([y])


def test_saved_values_after_release_are_refused():
    x = _leaf([1.0])
    backward([R.sum(cube(x))])
    ctx = cube.last_ctx
    with pytest.raises(RuntimeError):
        ctx.saved_values()


def test_retain_graph_allows_a_second_pass():
    x = _leaf([1.0, 2.0])
    y = R.sum(cube(x))
    backward([y], retain_graph=True)
    backward([y])
    np.testing.assert_allclose(x.grad.array, 2 * 3 * x.array ** 2)


def test_saved_output_modified_in_place_is_detected():
    x = _leaf([1.0])
    y = exp_saving_output(x)
    y.bump_version()
    with pytest.raises(RuntimeError, match="version"):
        backward([R.sum(y)])


def test_saved_output_keeps_no_cycle():
    x = _leaf([1.0])
    y = exp_saving_output(x)
    ref = weakref.ref(y.node)
    del y
    gc.disable()
    try:
        assert ref() is None  # freed by reference counting alone
    finally:
        gc.enable()


# -- what backward returns ---------------------------------------------------
@pytest.mark.parametrize("result, fragment", [
    (lambda g: (g, g), "2 gradients, expected 1"),
    (lambda g: 3.0, "float"),
    (lambda g: Tensor(np.ones(3)), "shape"),
])
def test_wrong_gradients_are_refused(result, fragment):
    f = custom("bad", lambda ctx, x: E.mul(x, 2.0), lambda ctx, g: result(g))
    with pytest.raises((RuntimeError, TypeError), match=fragment):
        backward([R.sum(f(_leaf([1.0, 2.0])))])


def test_broadcastable_gradient_is_summed_back():
    f = custom("wide", lambda ctx, x: E.mul(x, 2.0), lambda ctx, g: Tensor(np.ones((3, 2))))
    x = _leaf([1.0, 2.0])
    backward([R.sum(f(x))])
    np.testing.assert_array_equal(x.grad.array, [3.0, 3.0])


def test_extra_trailing_none_gradients_are_accepted():
    f = custom("extra", lambda ctx, x: E.mul(x, 2.0), lambda ctx, g: (g, None, None))
    x = _leaf([1.0])
    backward([R.sum(f(x))])
    np.testing.assert_array_equal(x.grad.array, [1.0])


def test_gradient_dtype_is_cast_to_the_input_dtype():
    f = custom("dt", lambda ctx, x: E.mul(x, 2.0),
               lambda ctx, g: Tensor(g.array.astype(np.float64)))
    x = Tensor(np.array([1.0], dtype=np.float32), requires_grad=True)
    backward([R.sum(f(x))])
    assert x.grad.array.dtype == np.float32
