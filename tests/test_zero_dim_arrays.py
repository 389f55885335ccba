"""Every tensor's array is an ndarray, never a numpy scalar (issue 14 §4): numpy makes
scalars of 0-d results, and a scalar is taken for a device array (``x.grad.numpy()``
raised "can't convert cpu device type tensor to numpy" after two backward calls with
retain_graph).  Over every op of the table with 0-d inputs: the forward's outputs, the
gradients of one backward and of two accumulated ones, and a create_graph gradient."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from janusgrad import SPECS, Tensor
from janusgrad.core.autograd import run_backward


def _outputs(out):
    if isinstance(out, Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _outputs(o)]
    return []


def _check(spec, arrays, kwargs):
    ts = [Tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    try:
        outs = _outputs(spec.fn(*ts, **kwargs))
    except Exception:  # noqa: BLE001 - an op that refuses these inputs has nothing to check
        return
    for o in outs:
        assert type(o.array) is np.ndarray, (spec.name, type(o.array))
    roots = [o for o in outs if o.requires_grad]
    if not roots:
        return
    from janusgrad.ops.reduce import sum as rsum
    loss = rsum(roots[0])
    for _ in range(2):  # the second accumulates into the first's .grad
        run_backward([loss], [Tensor(np.ones(()))], retain_graph=True)
        for t in ts:
            if t.grad is not None:
                assert type(t.grad.array) is np.ndarray, (spec.name, type(t.grad.array))
    grads = run_backward([loss], [Tensor(np.ones(()))], inputs=ts[:1], accumulate=False,
                         create_graph=True, retain_graph=True)
    for g in grads:
        if g is not None:
            assert type(g.array) is np.ndarray, (spec.name, type(g.array))


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_zero_dim_results_are_arrays(spec):
    @settings(max_examples=5, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        arrays, kwargs = spec.make(data.draw, st, hnp)
        _check(spec, [np.asarray(a) for a in arrays], kwargs)
        # the same call with every input 0-d (its first element), where the op takes that
        _check(spec, [np.asarray(a).reshape(-1)[:1].reshape(()) if np.size(a) else np.asarray(a)
                      for a in arrays], kwargs)

    run()
