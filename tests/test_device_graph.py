"""The graph machinery on a device array type that is not numpy's (tests/fake_gpu.py).

backward/grad (to second order), hooks, custom functions, the functional transforms,
gradcheck, printing and serialisation run on FakeGpuArray tensors: every gradient, seed
and filler the engine makes must stay on the device, and the host-side helpers (printing,
io, gradcheck, testkit) must copy to the host themselves and give what they give for the
same values on the host.
"""
from __future__ import annotations

import numpy as np
import pytest

from janusgrad import Tensor
from janusgrad.array import backend
from janusgrad.core.autograd import backward, grad
from janusgrad.core.function import Context, FunctionOp, apply
from janusgrad.core.hooks import register_hook, retain_grad
from janusgrad.host import io as EIO
from janusgrad.host import printing as P
from janusgrad.ops import elementwise as E
from janusgrad.testing import assert_gradients
from janusgrad.transforms import functional as F
from janusgrad.transforms.gradcheck import GradcheckError, gradcheck, gradgradcheck

from .fake_gpu import FakeGpuArray, installed

GPU = backend.Device("gpu", 0)


@pytest.fixture(autouse=True)
def fake_gpu():
    with installed():
        yield


def dev(values, requires_grad: bool = False) -> Tensor:
    t = Tensor(backend.from_host(np.asarray(values, dtype=np.float64), GPU))
    if requires_grad:
        t.set_requires_grad(True)
    return t


def host(t: Tensor) -> np.ndarray:
    assert type(t.array) is FakeGpuArray, f"left the device: {type(t.array).__name__}"
    return backend.to_host(t.array)


def cube(x):
    return E.mul(E.mul(x, x), x)


# ---------------------------------------------------------------- the scheduler
def test_backward_implicit_seed_accumulates_on_the_device():
    x = dev([1.0, 2.0, -3.0], requires_grad=True)
    for _ in range(2):  # the second pass adds into the existing .grad
        y = E.mul(E.mul(x, x), 2.0)
        backward([y], [dev([1.0, 1.0, 1.0])])
    np.testing.assert_allclose(host(x.grad), 2 * 4 * np.array([1.0, 2.0, -3.0]))


def test_implicit_ones_seed_is_made_on_the_device():
    x = dev(2.0, requires_grad=True)
    backward([cube(x)])
    np.testing.assert_allclose(host(x.grad), 12.0)


def test_broadcast_gradient_sums_back_on_the_device():
    x = dev([[1.0], [2.0]], requires_grad=True)
    y = dev([10.0, 20.0, 30.0], requires_grad=True)
    backward([E.mul(x, y)], [dev(np.ones((2, 3)))])
    np.testing.assert_allclose(host(x.grad), [[60.0], [60.0]])
    np.testing.assert_allclose(host(y.grad), [3.0, 3.0, 3.0])


def test_grad_to_second_order_with_create_graph():
    x = dev([0.5, -1.5], requires_grad=True)
    (g,) = grad([cube(x)], [x], [dev([1.0, 1.0])], create_graph=True)
    np.testing.assert_allclose(host(g), 3 * np.array([0.5, -1.5]) ** 2)
    (h,) = grad([g], [x], [dev([1.0, 1.0])])
    np.testing.assert_allclose(host(h), 6 * np.array([0.5, -1.5]))


def test_unused_input_materialized_as_device_zeros():
    x = dev([1.0, 2.0], requires_grad=True)
    z = dev([3.0, 4.0], requires_grad=True)
    gx, gz = grad([E.mul(x, x)], [x, z], [dev([1.0, 1.0])], materialize=True)
    np.testing.assert_allclose(host(gz), [0.0, 0.0])
    np.testing.assert_allclose(host(gx), [2.0, 4.0])


def test_one_gradient_for_two_inputs_is_owned_by_each():
    x = dev([1.0, 2.0], requires_grad=True)
    backward([E.add(x, x)], [dev([1.0, 1.0])])
    np.testing.assert_allclose(host(x.grad), [2.0, 2.0])


def test_hooks_see_and_replace_device_gradients():
    x = dev([1.0, 2.0], requires_grad=True)
    y = E.mul(x, 3.0)
    seen = []
    register_hook(y, lambda g: seen.append(type(g.array)) or E.mul(g, 2.0))
    retain_grad(y)
    register_hook(x, lambda g: seen.append(type(g.array)))
    backward([E.mul(y, 1.0)], [dev([1.0, 1.0])])
    assert seen == [FakeGpuArray, FakeGpuArray]
    np.testing.assert_allclose(host(x.grad), [6.0, 6.0])
    assert type(y.grad.array) is FakeGpuArray


def test_anomaly_nan_check_runs_on_device_gradients():
    from janusgrad.core import anomaly
    x = dev([0.0], requires_grad=True)
    anomaly.set_enabled(True)
    try:
        y = E.sqrt(E.mul(x, x))  # d sqrt at 0 is inf, times 0: NaN
        with pytest.raises(Exception, match="(?i)nan"), pytest.warns(Warning):
            backward([y], [dev([1.0])])
    finally:
        anomaly.set_enabled(False)


# ---------------------------------------------------------------- custom functions
class Ctx(Context):
    def run_backward(self, grads):
        return self.user_backward(self, *grads)


def custom(name, forward, backward_fn):
    op = FunctionOp(name)

    def call(*args):
        ctx = Ctx()
        ctx.user_backward = backward_fn
        return apply(op, ctx, args, lambda: forward(ctx, *args))
    return call


def _pair_fwd(ctx, x):
    ctx.save_for_backward(x)
    return E.mul(x, 2.0), E.mul(x, x)


def _pair_bwd(ctx, g2, gsq):
    (x,) = ctx.saved_values()
    return E.add(E.mul(g2, 2.0), E.mul(E.mul(gsq, x), 2.0))


def test_custom_function_with_two_outputs_one_used():
    pair = custom("Pair", _pair_fwd, _pair_bwd)
    x = dev([1.0, 3.0], requires_grad=True)
    a, _ = pair(x)  # the unused output's gradient is materialised as device zeros
    backward([a], [dev([1.0, 1.0])])
    np.testing.assert_allclose(host(x.grad), [2.0, 2.0])


def test_custom_function_with_two_outputs_both_used():
    pair = custom("Pair", _pair_fwd, _pair_bwd)
    x = dev([1.0, 3.0], requires_grad=True)
    a, b = pair(x)
    backward([E.add(a, b)], [dev([1.0, 1.0])])
    np.testing.assert_allclose(host(x.grad), [2.0 + 2.0, 2.0 + 6.0])


# ---------------------------------------------------------------- functional
def test_jacobian_rows_are_assembled_on_the_device():
    x = dev([1.0, 2.0, 3.0], requires_grad=True)
    j = F.jacobian(cube, x)
    np.testing.assert_allclose(host(j), np.diag(3 * np.array([1.0, 2.0, 3.0]) ** 2))


def test_hessian_on_the_device():
    x = dev([1.0, -2.0])
    h = F.hessian(lambda t: _sum(cube(t)), x)
    np.testing.assert_allclose(host(h), np.diag(6 * np.array([1.0, -2.0])))


def _sum(t):
    from janusgrad.ops.reduce import sum as rsum
    return rsum(t)


def test_vjp_and_jvp_on_the_device():
    x = dev([1.0, 2.0])
    out, v = F.vjp(cube, x, dev([1.0, 0.5]))
    np.testing.assert_allclose(host(out), [1.0, 8.0])
    np.testing.assert_allclose(host(v), [3.0, 6.0])
    out, u = F.jvp(cube, x, dev([1.0, 0.5]))
    np.testing.assert_allclose(host(u), [3.0, 6.0])


def test_strict_vjp_fills_missing_gradients_with_device_zeros():
    x, z = dev([1.0]), dev([2.0])
    _, (gx, gz) = F.vjp(lambda a, b: cube(a), (x, z), dev([1.0]))
    np.testing.assert_allclose(host(gz), [0.0])
    np.testing.assert_allclose(host(gx), [3.0])


def test_jacrev_on_the_device():
    x = dev([1.0, 2.0])
    j = F.jacrev(cube)(x)
    np.testing.assert_allclose(host(j), np.diag([3.0, 12.0]))


# ---------------------------------------------------------------- host-side helpers
def test_gradcheck_and_gradgradcheck_on_a_device_tensor():
    x = dev([0.3, -0.7, 1.1], requires_grad=True)
    assert gradcheck(cube, (x,))
    assert gradcheck(cube, (x,), fast_mode=True)
    assert gradgradcheck(cube, (x,))
    assert type(x.array) is FakeGpuArray  # perturbations were put back


def test_gradcheck_reports_a_wrong_device_gradient():
    wrong = custom("Wrong", lambda ctx, x: E.mul(x, x), lambda ctx, g: E.mul(g, 5.0))
    x = dev([0.3, -0.7], requires_grad=True)
    with pytest.raises(GradcheckError, match="Jacobian mismatch"):
        gradcheck(wrong, (x,))


def test_testkit_assert_gradients_on_device_tensors():
    x = dev([0.3, -0.7], requires_grad=True)
    assert_gradients(cube, x)


@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (1200,), (40, 40), (3, 30, 20)])
def test_printing_helpers_give_the_host_values(shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) * 0.5 - 3
    d = backend.from_host(a, GPU)
    summarize = P.is_summarized(a)
    assert P.is_summarized(d) == summarize
    assert P.nested(d, summarize) == P.nested(a, summarize)
    assert P.shown_values(d, summarize) == P.shown_values(a, summarize)


def test_summarised_printing_copies_only_the_edge_items(monkeypatch):
    copied = []
    real = P.to_host

    def spy(a):
        copied.append(a.size)
        return real(a)
    monkeypatch.setattr(P, "to_host", spy)
    d = backend.from_host(np.zeros((100, 100)), GPU)
    P.nested(d, True)
    P.shown_values(d, True)
    assert copied and max(copied) == 36


def test_nested_summary_layout():
    a = np.arange(2000.0)
    got = P.nested(backend.from_host(a, GPU), True)
    assert got == [0.0, 1.0, 2.0, ..., 1997.0, 1998.0, 1999.0]


def test_io_round_trip_of_a_device_array_through_host_bytes():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    data, name, shape = EIO.array_to_bytes(backend.from_host(a, GPU))
    assert (name, shape) == ("float32", (2, 3))
    back = EIO.array_from_bytes(data, name, shape)
    assert type(back) is np.ndarray  # loading gives host data; the frontend places it
    np.testing.assert_array_equal(back, a)
    flat = backend.from_host(np.arange(8.0), GPU)
    np.testing.assert_array_equal(EIO.strided_from_flat(flat, 1, (2, 3), (1, 2)),
                                  np.array([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]))
    assert EIO.array_nbytes(backend.from_host(a, GPU)) == 24


def test_frontends_print_a_long_device_tensor_copying_only_the_shown_edges():
    """Printing a summarised device tensor copies only its edge items to the host."""
    import paddlelike
    import torchlike
    from janusgrad.array import backend

    copied = []
    with installed() as fake:
        to_host = fake.to_host
        fake.to_host = lambda a: copied.append(a.size) or to_host(a)
        try:
            for make in (lambda: torchlike.arange(100000.0, device="cuda"),
                         lambda: paddlelike.arange(100000.0)):
                copied.clear()
                t = make()
                assert backend.device_of(t.array).kind == "gpu"
                text = repr(t)
                assert ("cuda:0" in text or "gpu:0" in text) and copied and max(copied) <= 6
        finally:
            fake.to_host = to_host
