"""Factories, indexing and in-place changes on a device array type that is not numpy's.

Every op spec of engine/janusgrad/ops/index.py and engine/janusgrad/core/inplace.py runs on
FakeGpuArray inputs (tests/fake_gpu.py) with its forward value and gradients staying on
the device; the factories of engine/janusgrad/ops/creation.py create on the device they
are given; index arrays from the host are copied to the device, and arrays of another
device are refused with the dialect's device error."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from janusgrad import SPECS, Dialect, Tensor
from janusgrad.array import backend
from janusgrad.core import inplace
from janusgrad.core.autograd import run_backward
from janusgrad.ops import creation as C
from janusgrad.ops import elementwise as E
from janusgrad.ops import index as I

from .fake_gpu import FakeGpuArray, installed

_MODULES = ("janusgrad.ops.index", "janusgrad.core.inplace", "janusgrad.ops.creation")
MINE = [s for s in SPECS if getattr(s.fn, "__module__", None) in _MODULES]
GPU = backend.Device("gpu", 0)


class DeviceError(Exception):
    pass


class _Strict(Dialect):
    def device_mismatch(self, op, devices):
        return DeviceError(op, [str(d) for d in devices])


class _Joining(_Strict):
    host_scalars_join_devices = True


class T(Tensor):
    dialect = _Strict()


class J(Tensor):
    dialect = _Joining()


@pytest.fixture
def gpu():
    with installed():
        yield GPU


def dev(a, cls=T, requires_grad=False):
    return cls(backend.from_host(np.asarray(a), GPU), requires_grad=requires_grad)


def on_device(t) -> np.ndarray:
    assert type(t.array) is FakeGpuArray, type(t.array)
    return backend.to_host(t.array)


def _case(spec):
    @st.composite
    def case(draw):
        return spec.make(draw, st, hnp)
    return case()


def test_the_modules_have_specs():
    assert {s.name for s in MINE} >= {"getitem", "index_add", "index_select", "gather",
                                      "take_along_axis", "masked_select", "setitem"}


@pytest.mark.parametrize("spec", MINE, ids=[s.name for s in MINE])
def test_op_stays_on_the_device(spec):
    @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_case(spec))
    def run(case):
        arrays, kwargs = case
        with installed():
            xs = [Tensor(backend.from_host(a, GPU), requires_grad=spec.differentiable)
                  for a in arrays]
            out = spec.fn(*xs, **kwargs)
            if spec.ref is not None:
                np.testing.assert_allclose(on_device(out), spec.ref(*arrays, **kwargs),
                                           rtol=1e-6, atol=1e-7)
            if not spec.differentiable or out.node is None:
                return
            seed = Tensor(backend.from_host(np.ones(out.array.shape), GPU))
            grads = run_backward([out], [seed], create_graph=True, inputs=xs,
                                 accumulate=False)
            for g in grads:
                if g is not None:
                    on_device(g)
            # second order: the gradient of the gradients stays on the device too
            back = [g for g in grads if g is not None and g.node is not None]
            if back:
                seeds = [Tensor(backend.from_host(np.ones(g.array.shape), GPU)) for g in back]
                for gg in run_backward(back, seeds, inputs=xs, accumulate=False):
                    if gg is not None:
                        on_device(gg)
    run()


# ---------------------------------------------------------------- factories
@pytest.mark.parametrize("make", [
    lambda d: C.zeros(T, (2, 3), device=d),
    lambda d: C.ones(T, 3, device=d),
    lambda d: C.empty(T, (2,), device=d),
    lambda d: C.full(T, (2, 2), 1.5, device=d),
    lambda d: C.full(T, (2,), 3, device=d),
    lambda d: C.full(T, (2,), True, device=d),
    lambda d: C.arange(T, 5, device=d),
    lambda d: C.arange(T, 5, 0, -2, device=d),
    lambda d: C.arange(T, 0, 1, 0.1, device=d),
    lambda d: C.arange(T, -3.0, 7.25, 0.37, device=d),
    lambda d: C.arange(T, 0, 1, 0.1, dtype=backend.float64, device=d),
    lambda d: C.arange(T, 0.5, 4, 0.5, dtype=backend.int64, device=d),
    lambda d: C.linspace(T, -1, 1, 7, device=d),
    lambda d: C.linspace(T, 0, 10, 101, dtype=backend.float64, device=d),
    lambda d: C.linspace(T, 0, 10, 4, dtype=backend.int64, device=d),
    lambda d: C.linspace(T, 0, 10, 0, device=d),
    lambda d: C.linspace(T, 3, 10, 1, device=d),
    lambda d: C.eye(T, 2, 3, device=d),
    lambda d: C.rand(T, (2, 3), generator=C.Generator(3), device=d),
    lambda d: C.randn(T, 4, generator=C.Generator(3), device=d),
    lambda d: C.randint(T, 0, 9, (5,), generator=C.Generator(3), device=d),
    lambda d: C.uniform(T, (3,), -2.0, 2.0, generator=C.Generator(3), device=d),
    lambda d: C.normal(T, 1.0, 2.0, (3,), generator=C.Generator(3), device=d),
    lambda d: T(C.infer_array([[1, 2], [3, 4]], device=d)),
    lambda d: T(C.infer_array([1.5, 2.5], device=d)),
    lambda d: T(C.infer_array([True, False], device=d)),
    lambda d: T(C.infer_array(2.5, device=d)),
    lambda d: T(C.infer_array(np.float64(2.5), device=d)),
    lambda d: T(C.infer_array(np.arange(3, dtype=np.int16), device=d)),
    lambda d: T(C.infer_array([1, 2], backend.float64, device=d)),
])
def test_factories_create_on_the_device_what_they_create_on_the_host(gpu, make):
    want = make(None)
    got = make(gpu)
    assert type(want.array) is np.ndarray
    out = on_device(got)
    assert out.dtype == want.array.dtype and out.shape == want.array.shape
    np.testing.assert_array_equal(out, want.array)  # bit for bit (ranges, random draws)


def test_like_factories_follow_their_input(gpu):
    x = dev(np.arange(6.0).reshape(2, 3))
    for t in (C.zeros_like(x), C.ones_like(x), C.empty_like(x), C.full_like(x, 7.0),
              C.rand_like(x), C.randn_like(x), C.zeros_like(x, backend.int64),
              T.wrap(C.ones_like_array(x.array))):
        assert on_device(t).shape == (2, 3)
    assert on_device(C.full_like(x, 7.0)).tolist() == [[7.0] * 3] * 2
    assert on_device(C.full(T, (2,), dev(np.array(4.0)), device=gpu)).tolist() == [4.0, 4.0]
    # a device array as data keeps its device, or moves to the one asked for
    assert type(C.infer_array(x.array)) is FakeGpuArray
    assert type(C.infer_array(x.array, device=backend.CPU)) is np.ndarray


def test_normal_with_tensor_arguments_draws_on_their_device(gpu):
    mean = dev(np.zeros((2, 3), np.float32))
    out = C.normal(T, mean, 1.0, generator=C.Generator(1))
    want = C.normal(T, T(np.zeros((2, 3), np.float32)), 1.0, generator=C.Generator(1))
    assert on_device(out).dtype == np.float32
    np.testing.assert_array_equal(on_device(out), want.array)
    with pytest.raises(DeviceError):
        C.normal(T, mean, T(np.ones((2, 3), np.float32)))


# ---------------------------------------------------------------- indexing
def _index_cases():
    a = np.arange(24.0).reshape(2, 3, 4)
    return a, [
        (1, Ellipsis, 2),
        (slice(None), [0, 2, 2]),
        (np.array([1, 0, 1]), slice(1, 3)),
        (a[..., 0] > 5,),
        (None, 0, np.array([[0, 1], [2, 2]])),
        (np.array(True),),
    ]


@pytest.mark.parametrize("k", range(6))
@pytest.mark.parametrize("as_tensor", [False, True])
def test_getitem_with_host_keys_on_a_device_tensor(gpu, k, as_tensor):
    a, cases = _index_cases()
    key = cases[k]
    if as_tensor:  # host index Tensors are copied to the device, as arrays are
        key = tuple(T(e) if isinstance(e, np.ndarray) else e for e in key)
    x = dev(a, requires_grad=True)
    out = I.getitem(x, key)
    np.testing.assert_array_equal(on_device(out), a[cases[k]])
    (g,) = run_backward([out], [T(backend.from_host(np.ones(out.array.shape), gpu))],
                        inputs=[x], accumulate=False)
    want = np.zeros_like(a)
    np.add.at(want, I.array_key(cases[k]), 1.0)
    np.testing.assert_array_equal(on_device(g), want)


def test_getitem_with_device_keys(gpu):
    a = np.arange(12.0).reshape(3, 4)
    x = dev(a)
    idx = dev(np.array([2, 0, 2]))
    np.testing.assert_array_equal(on_device(I.getitem(x, idx)), a[[2, 0, 2]])
    np.testing.assert_array_equal(on_device(I.getitem(x, [dev(np.array(2)), 1])), a[[2, 1]])
    mask = dev(a > 4)
    np.testing.assert_array_equal(on_device(I.getitem(x, mask)), a[a > 4])
    byte = dev((a > 4).astype(np.uint8))
    np.testing.assert_array_equal(on_device(I.getitem(x, byte)), a[a > 4])


def test_a_device_index_of_a_host_tensor_is_a_device_error(gpu):
    x = T(np.arange(4.0))
    idx = dev(np.array([1, 2]))
    for call in (lambda: I.getitem(x, idx), lambda: I.getitem(x, (idx,)),
                 lambda: I.index_select(x, 0, idx), lambda: I.gather(x, 0, idx),
                 lambda: I.take_along_axis(x, idx, 0),
                 lambda: I.masked_select(x, dev(np.array([True, False, True, True]))),
                 lambda: inplace.setitem(x, idx, 0.0)):
        with pytest.raises(DeviceError) as e:
            call()
        assert e.value.args[1] == ["cpu", "gpu:0"]


def test_index_errors_on_the_device(gpu):
    x = dev(np.arange(4.0))
    with pytest.raises(Exception, match="out of bounds"):
        I.getitem(x, np.array([0, 7]))
    with pytest.raises(Exception, match="out of bounds"):
        I.getitem(x, dev(np.array([0, -7])))
    with pytest.raises(Exception, match="out of bounds"):
        I.gather(x, 0, dev(np.array([5])))
    with pytest.raises(Exception, match="integers"):
        I.getitem(x, dev(np.array([0.5])))


@pytest.mark.parametrize("index_on_device", [False, True])
def test_select_gather_take_mask_on_the_device(gpu, index_on_device):
    a = np.arange(12.0).reshape(3, 4)
    put = dev if index_on_device else T
    x = dev(a, requires_grad=True)
    i = np.array([[0, 2], [1, 1], [3, 0]])
    j = np.array([[0, 2, 1, 1]])
    cases = [
        (I.index_select(x, 1, put(np.array([3, 0, 3]))), np.take(a, [3, 0, 3], axis=1)),
        (I.index_select(x, 0, [2, 0]), a[[2, 0]]),
        (I.gather(x, 1, put(i)), np.take_along_axis(a, i, 1)),
        (I.take_along_axis(x, put(j), 0), np.take_along_axis(a, j, 0)),
        (I.masked_select(x, put(a > 6)), a[a > 6]),
        (I.masked_select(x, put(np.array([True, False, False, True]))), a[:, [0, 3]].ravel()),
    ]
    for out, want in cases:
        np.testing.assert_array_equal(on_device(out), want)
        (g,) = run_backward([out], [T(backend.from_host(np.ones(out.array.shape), gpu))],
                            inputs=[x], accumulate=False)
        on_device(g)


# ---------------------------------------------------------------- in place
def test_setitem_on_a_device_tensor(gpu):
    a = np.arange(6.0).reshape(2, 3)
    x = dev(a)
    inplace.setitem(x, (0, slice(None)), 9.0)
    inplace.setitem(x, np.array([1]), dev(np.array([7.0, 8.0, 9.0])))
    inplace.setitem(x, (T(np.array([1])), 0), -1.0)
    inplace.setitem(x, dev(np.array([[False, True, False], [False, False, False]])), 5.0)
    inplace.setitem(x, (1, slice(1, None)), [3.0, 4.0])
    assert on_device(x).tolist() == [[9.0, 5.0, 9.0], [-1.0, 3.0, 4.0]]
    inplace.fill(x, 2.0)
    assert on_device(x).tolist() == [[2.0] * 3] * 2
    inplace.zero(x)
    assert not on_device(x).any()


def test_recorded_setitem_on_the_device_has_device_gradients(gpu):
    w = dev(np.arange(4.0), requires_grad=True)
    v = dev(np.array([10.0, 20.0]), requires_grad=True)
    y = E.mul(w, 2.0)
    inplace.setitem(y, T(np.array([0, 2])), v)
    assert on_device(y).tolist() == [10.0, 2.0, 20.0, 6.0]
    gw, gv = run_backward([y], [T(backend.from_host(np.ones(4), gpu))], inputs=[w, v],
                          accumulate=False)
    assert on_device(gw).tolist() == [0.0, 2.0, 0.0, 2.0]
    assert on_device(gv).tolist() == [1.0, 1.0]


def test_update_on_a_device_tensor(gpu):
    w = dev(np.arange(3.0), requires_grad=True)
    y = E.mul(w, 1.0)
    inplace.update(y, E.add, dev(np.ones(3)))
    inplace.update(y, E.mul, 3.0)
    assert on_device(y).tolist() == [3.0, 6.0, 9.0]
    (g,) = run_backward([y], [T(backend.from_host(np.ones(3), gpu))], inputs=[w],
                        accumulate=False)
    assert on_device(g).tolist() == [3.0, 3.0, 3.0]


def test_values_of_another_device_are_device_errors(gpu):
    x = dev(np.zeros(3))
    with pytest.raises(DeviceError):
        inplace.setitem(x, 0, T(np.ones(())))  # a host 0-d value: refused by this dialect
    with pytest.raises(DeviceError):
        inplace.setitem(x, slice(None), T(np.ones(3)))
    with pytest.raises(DeviceError):
        inplace.setitem(T(np.zeros(3)), 0, dev(np.ones(())))
    with pytest.raises(DeviceError):
        inplace.update(x, E.add, T(np.ones(3)))
    # a dialect that lets a host 0-d tensor join device data (as torch does)
    y = dev(np.zeros(3), cls=J)
    inplace.setitem(y, 1, J(np.array(4.0)))
    inplace.setitem(y, slice(None, 1), J(np.array(2.0)))
    assert on_device(y).tolist() == [2.0, 4.0, 0.0]
