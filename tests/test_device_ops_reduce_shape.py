"""The reduce, shape and linalg ops on a device array type that is not numpy's.

Every op spec defined in engine/janusgrad/ops/{reduce,shape,linalg}.py runs on FakeGpuArray inputs
(tests/fake_gpu.py): its forward value must stay on the device and match the numpy
reference, and its gradients (first order) must stay on the device too."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from janusgrad import SPECS, Tensor
from janusgrad.array import backend
from janusgrad.core.autograd import run_backward

from .fake_gpu import FakeGpuArray, installed

_MODULES = ("janusgrad.ops.reduce", "janusgrad.ops.shape", "janusgrad.ops.linalg")
MINE = [s for s in SPECS if getattr(s.fn, "__module__", None) in _MODULES]
GPU = backend.Device("gpu", 0)


def _param(spec):
    return pytest.param(spec, id=spec.name)


def _case(spec):
    @st.composite
    def case(draw):
        return spec.make(draw, st, hnp)
    return case()


@pytest.mark.parametrize("spec", [_param(s) for s in MINE])
def test_op_stays_on_the_device(spec):
    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_case(spec))
    def run(case):
        arrays, kwargs = case
        with installed():
            xs = [Tensor(backend.from_host(a, GPU), requires_grad=spec.differentiable)
                  for a in arrays]
            out = spec.fn(*xs, **kwargs)
            assert type(out.array) is FakeGpuArray
            if spec.ref is not None:
                np.testing.assert_allclose(backend.to_host(out.array),
                                           spec.ref(*arrays, **kwargs), rtol=1e-6, atol=1e-7)
            if not spec.differentiable or out.node is None:
                return
            seed = Tensor(backend.from_host(np.ones(out.array.shape), GPU))
            grads = run_backward([out], [seed], create_graph=True, inputs=xs,
                                 accumulate=False)
            for g in grads:
                assert g is None or type(g.array) is FakeGpuArray

    run()


def test_the_table_covers_these_modules():
    assert {s.name for s in MINE} >= {"sum", "matmul", "reshape", "concatenate", "softmax"}


@pytest.mark.parametrize("op", ["matmul", "concatenate", "stack"])
@pytest.mark.parametrize("device_first", [True, False])
def test_operands_on_two_devices_are_the_dialects_error(op, device_first):
    from janusgrad.ops import linalg, shape
    fn = {"matmul": linalg.matmul, "concatenate": shape.concatenate, "stack": shape.stack}[op]
    with installed():
        host_t = Tensor(np.ones((2, 2)))
        device_t = Tensor(backend.from_host(np.ones((2, 2)), GPU))
        pair = (device_t, host_t) if device_first else (host_t, device_t)
        with pytest.raises(RuntimeError, match=f"{op}: operands are on different devices"):
            fn(*pair) if op == "matmul" else fn(pair)


def test_results_on_the_device_keep_their_values():
    from janusgrad.ops import linalg, reduce
    a = np.arange(6.0).reshape(2, 3)
    with installed():
        x = Tensor(backend.from_host(a, GPU))
        s = reduce.sum(x)  # a full reduction: numpy gives a scalar, the device a 0-d array
        assert type(s.array) is FakeGpuArray and backend.to_host(s.array) == 15.0
        m = linalg.matmul(x, Tensor(backend.from_host(a.T, GPU)))
        np.testing.assert_array_equal(backend.to_host(m.array), a @ a.T)
        assert backend.device_of(reduce.argmax(x).array) == GPU
