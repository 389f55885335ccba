"""Every size-, dtype- or count-switched path of the engine is crossed by a test (issue 14
§6): the op-table property tests run again with each size threshold lowered to zero (so the
small arrays they draw take the large-array route), and dedicated tests draw arrays past
each threshold and compare against numpy.

The thresholds (module-level, read at call time so a test can lower them):

- ``janusgrad.ops.reduce._SMALL`` (4096 elements): a reduction's gradient is spread back
  by a filled copy at or below it, by ``broadcast_to`` above it (in the array and the
  recording backward);
- ``janusgrad.ops.reduce._WINDOW_MIN`` (16384 elements): a sum or mean over axes of at most
  16 elements in all (a pooling window) adds strided slices from it on, and a gradient
  spread back along such axes is written slice by slice;
- ``janusgrad.ops.elementwise._BRANCHY`` (2048 elements): ``where(c, x, 0.0)`` (relu's,
  clamp's and where's gradients) takes the bit mask from it on, for float32/float64 only;
- ``janusgrad.ops.elementwise`` constants cache (4096 values per dtype, then cleared;
  values beyond ``_CONST_LIMIT`` or 0.0 are never cached);
- ``janusgrad.array.backend.constant`` cache (8192, then cleared), ``janusgrad.core.tensor._sig``
  cache (4096, then cleared);
- ``janusgrad.core.function._MASK_BITS`` (52 outputs of a custom function share one mask bit);
- ``janusgrad.core.views._PRUNE_EVERY`` (a base's views list is pruned every 64 views).
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings

from janusgrad import SPECS, Tensor
from janusgrad.array import backend
from janusgrad.core.autograd import run_backward
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R

from .gradcheck import check_first_order, vjp
from .test_ops import _draw_case, _grad_args

SIZE_THRESHOLDS = [(R, "_SMALL"), (R, "_WINDOW_MIN"), (E, "_BRANCHY")]
DIFF = [s for s in SPECS if s.differentiable]


def test_the_listed_thresholds_exist():
    """A renamed threshold must be renamed here too (else the lowered runs prove nothing)."""
    for module, name in SIZE_THRESHOLDS:
        assert isinstance(getattr(module, name), int), (module.__name__, name)


@pytest.fixture
def lowered(monkeypatch):
    """Every size threshold at zero: the arrays the property tests draw take the paths
    meant for large arrays."""
    for module, name in SIZE_THRESHOLDS:
        monkeypatch.setattr(module, name, 0)


@pytest.mark.parametrize("spec", DIFF, ids=[s.name for s in DIFF])
def test_first_order_gradient_with_thresholds_lowered(spec, lowered):
    @settings(max_examples=12)
    @given(_draw_case(spec))
    def run(case):
        arrays, kwargs, seed = case
        check_first_order(spec.fn, arrays, kwargs, _grad_args(spec, arrays),
                          np.random.default_rng(seed), spec.atol, spec.rtol,
                          spec.extra.get("eps", 1e-6))

    run()


@pytest.mark.parametrize("spec", DIFF, ids=[s.name for s in DIFF])
def test_array_and_recording_backwards_agree_with_thresholds_lowered(spec, lowered):
    @settings(max_examples=8)
    @given(_draw_case(spec))
    def run(case):
        arrays, kwargs, seed = case
        out = spec.fn(*[Tensor(a) for a in arrays], **kwargs).array
        u = np.random.default_rng(seed).standard_normal(np.shape(out))
        grad_args = _grad_args(spec, arrays)
        _, _, got = vjp(spec.fn, arrays, kwargs, grad_args, u)  # rules on bare arrays
        # create_graph: the same rules on tensors, recorded
        _, _, want = vjp(spec.fn, arrays, kwargs, grad_args, u, create_graph=True)
        for g, w in zip(got, want):
            assert (g is None) == (w is None)
            if g is not None and spec.extra.get("fused_backward"):
                # a fused op: its array backward is its own kernel (e.g. BPTT), its recording
                # backward the composite it recomputes; equal to rounding, not bit for bit
                np.testing.assert_allclose(g.array, w.array, rtol=1e-12, atol=1e-15)
            elif g is not None:
                np.testing.assert_array_equal(g.array, w.array)

    run()


# ---------------------------------------------------------------- large arrays, drawn
RNG = np.random.default_rng(14)
AXES = [None, 0, 1, (0, 1), -1]


def _grads(fn, x, u, create_graph=False):
    t = Tensor(x, requires_grad=True)
    out = fn(t)
    (g,) = run_backward([out], [Tensor(u)], inputs=[t], accumulate=False,
                        create_graph=create_graph)
    return g


def _expand(u, shape, axis, keepdims):
    if axis is not None and not keepdims:
        axes = (axis,) if isinstance(axis, int) else axis
        u = np.expand_dims(u, tuple(a % len(shape) for a in axes))
    return np.broadcast_to(u, shape)


@pytest.mark.parametrize("create_graph", [False, True], ids=["raw", "recorded"])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("shape", [(100, 100), (3, 2000), (64, 65)], ids=str)
def test_sum_and_mean_of_large_arrays_spread_the_gradient_right(shape, axis, keepdims,
                                                               create_graph):
    """Past ``_SMALL`` elements (and below it: (64, 65) = 4160 > 4096, (3, 2000) = 6000)."""
    x = RNG.standard_normal(shape)
    ref = np.sum(x, axis=axis, keepdims=keepdims)
    u = RNG.standard_normal(np.shape(ref))
    g = _grads(lambda t: R.sum(t, axis, keepdims), x, u, create_graph)
    np.testing.assert_array_equal(np.asarray(g.array), _expand(u, shape, axis, keepdims))
    n = x.size // max(np.size(ref), 1)
    g = _grads(lambda t: R.mean(t, axis, keepdims), x, u, create_graph)
    np.testing.assert_allclose(np.asarray(g.array), _expand(u, shape, axis, keepdims) / n,
                               rtol=1e-12)


@pytest.mark.parametrize("axis", AXES, ids=str)
def test_reductions_of_large_arrays_against_finite_differences(axis):
    """amax, var, logsumexp, norm, prod on a 70 x 70 array (4900 > _SMALL): directional
    finite differences."""
    x = RNG.uniform(0.5, 1.5, (70, 70)) * np.where(RNG.random((70, 70)) < 0.5, -1, 1)
    for fn in (lambda t: R.amax(t, axis), lambda t: R.var(t, axis),
               lambda t: R.logsumexp(t, axis), lambda t: R.norm(t, 2, axis),
               lambda t: R.mean(t, axis), lambda t: R.sum(t, axis, True)):
        check_first_order(fn, [x], {}, (0,), np.random.default_rng(0), 1e-6, 1e-5)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_relu_clamp_where_gradients_on_large_arrays(dtype):
    """Past ``_BRANCHY`` elements the masked gradient is a bit mask (float32/float64);
    float16 keeps numpy's where: all agree with numpy."""
    x = RNG.standard_normal((50, 60)).astype(dtype)  # 3000 >= 2048
    x.reshape(-1)[:7] = 0.0  # the kink, on purpose: relu's gradient there is 0
    u = RNG.standard_normal(x.shape).astype(dtype)
    g = _grads(E.relu, x, u)
    np.testing.assert_array_equal(np.asarray(g.array), np.where(x > 0, u, 0).astype(dtype))
    assert g.array.dtype == dtype
    g = _grads(lambda t: E.where_(Tensor(x > 0.5), t, 0.0), x, u)
    np.testing.assert_array_equal(np.asarray(g.array), np.where(x > 0.5, u, 0).astype(dtype))
    y = E.where_(Tensor(x > 0.5), Tensor(np.where(x > 0.5, -x, np.nan).astype(dtype)), 0.0)
    np.testing.assert_array_equal(np.asarray(y.array),
                                  np.where(x > 0.5, -x, 0.0).astype(dtype))
    assert not np.signbit(np.asarray(y.array)[~(x > 0.5)]).any()  # +0.0, as where gives


# ---------------------------------------------------------------- caches and counts
def test_constant_caches_give_the_same_values_across_their_clearing():
    """More distinct Python-float operands than the caches hold (4096 per dtype, 8192 in
    backend.constant): results stay numpy's, before and after each clearing."""
    for dt in (np.float32, np.float64):
        a = np.linspace(-1, 1, 5).astype(dt)
        t = Tensor(a)
        for i in range(9000):
            c = 1.0 + i * 1e-4
            if i % 997 == 0 or i > 8990:
                np.testing.assert_array_equal(E.mul(t, c).array, a * c)
                np.testing.assert_array_equal(E.add(t, c).array, a + c)
            else:
                E.mul(t, c)
        for c in (3.5e38, -1e39, math.inf, 0.0, -0.0):  # never cached
            with np.errstate(over="ignore", invalid="ignore"):
                np.testing.assert_array_equal(E.mul(t, c).array, a * dt(c) if abs(c) < 3.4e38
                                              else a * c)
        assert len(E._CONSTS[np.dtype(dt)]) <= 4097
    for i in range(9000):
        backend.constant(np, float(i), np.dtype(np.float64))
    assert backend.constant(np, 2.5, np.dtype(np.float32)) == np.float32(2.5)


def test_signature_cache_across_its_clearing():
    """Graphs of more than 4096 distinct input signatures (tensor._sig clears its cache)
    still backpropagate right."""
    total = None
    xs = []
    for n in range(1, 4200):
        x = Tensor(np.full(n % 4150 + 1, 0.5), requires_grad=True)
        xs.append(x)
        s = R.sum(E.mul(x, x))
        total = s if total is None else E.add(total, s)
    grads = run_backward([total], [Tensor(np.ones(()))], inputs=xs[-5:], accumulate=False)
    for g in grads:
        np.testing.assert_array_equal(g.array, np.ones_like(g.array))


def test_custom_function_with_more_outputs_than_mask_bits():
    """Outputs past ``_MASK_BITS`` (52) share the "all of them" bit: each still gets its
    own gradient, and outputs that got none get none."""
    from janusgrad.core.function import _MASK_BITS, Context, FunctionOp, apply
    n_out = _MASK_BITS + 12
    seen = {}

    class Ctx(Context):
        def run_backward(self, grads):
            seen["grads"] = grads
            total = None
            for k, g in enumerate(grads):
                if g is not None:
                    term = E.mul(g, float(k + 1))
                    total = term if total is None else E.add(total, term)
            return total

    op = FunctionOp("split_many")
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    outs = apply(op, Ctx(), (x,),
                 lambda: tuple(E.mul(x, float(k + 1)) for k in range(n_out)))
    picked = [3, _MASK_BITS - 1, _MASK_BITS, n_out - 5, n_out - 1]
    loss = None
    for k in picked:
        s = R.sum(outs[k])
        loss = s if loss is None else E.add(loss, s)
    (g,) = run_backward([loss], [Tensor(np.ones(()))], inputs=[x], accumulate=False)
    np.testing.assert_array_equal(g.array, np.full(2, float(sum(k + 1 for k in picked))))
    got = [k for k, gk in enumerate(seen["grads"])
           if gk is not None and np.any(np.asarray(gk.array))]
    assert got == picked


def test_many_views_of_one_base_past_the_pruning_interval():
    """More than ``_PRUNE_EVERY`` (64) views of one base, most of them dropped (the base's
    list of views is pruned on the way): an in-place write through a survivor still
    reaches the base's gradient."""
    import gc

    import torchlike
    from janusgrad.core import views
    assert views._PRUNE_EVERY < 200
    x = torchlike.arange(6.0, requires_grad=True)
    base = x * 1.0
    keep = []
    for i in range(200):
        v = base.view(2, 3)
        if i % 50 == 0:
            keep.append(v)
        del v
        if i % 20 == 0:
            gc.collect()
    keep[1].mul_(3.0)
    keep[-1][0].add_(1.0)
    base.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full(6, 3.0))
    np.testing.assert_array_equal(base.detach().numpy(), np.arange(6.0) * 3 + [1, 1, 1, 0, 0, 0])
