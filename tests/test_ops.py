"""Property tests generated from the op table (janusgrad.ops.SPECS).

For every spec: forward against its numpy reference, the VJP against central
differences in float64 along random directions (a backward that records nothing: each
op's rule runs on bare arrays), and (for smooth ops) the second derivative through
create_graph (the first backward runs each rule on tensors, recorded; the second runs
the rules of those ops on arrays).  Adding a spec adds its tests.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample
from hypothesis.extra import numpy as hnp

import janusgrad
from janusgrad import OPS, SPECS, Tensor
from janusgrad.array import backend

from . import fake_gpu
from .gradcheck import (
    check_first_order,
    check_second_order,
    check_second_order_independently,
    host,
    place,
)

SPEC_IDS = [s.name for s in SPECS]


def _draw_case(spec):
    @st.composite
    def case(draw):
        arrays, kwargs = spec.make(draw, st, hnp)
        seed = draw(st.integers(0, 2**32 - 1))
        return arrays, kwargs, seed
    return case()


# Every spec runs on the host, on the fake GPU (an array type numpy refuses: proves that
# the engine dispatches on the array type and never converts to numpy), and on a real GPU
# where one is usable.
PLACES = [
    pytest.param("cpu"),
    pytest.param("fake_gpu"),
    pytest.param("gpu", marks=[pytest.mark.gpu, pytest.mark.skipif(
        not backend.gpu_available(), reason="no GPU usable (cupy and a CUDA device)")]),
]


@pytest.fixture(params=PLACES)
def device(request):
    if request.param == "cpu":
        yield None
    elif request.param == "fake_gpu":
        with fake_gpu.installed():
            yield backend.Device("gpu", 0)
    else:
        yield backend.Device("gpu", 0)


def _grad_args(spec, arrays):
    return spec.grad_args if spec.grad_args is not None else tuple(range(len(arrays)))


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_forward_matches_reference(spec, device):
    if spec.ref is None:
        pytest.skip("no numpy reference in the table for this op")

    @given(_draw_case(spec))
    def run(case):
        arrays, kwargs, _ = case
        out = spec.fn(*[place(a, device) for a in arrays], **kwargs)
        np.testing.assert_allclose(host(out, device), spec.ref(*arrays, **kwargs),
                                   rtol=1e-6, atol=1e-7)

    run()


@pytest.mark.parametrize("spec", [s for s in SPECS if s.differentiable],
                         ids=[s.name for s in SPECS if s.differentiable])
def test_first_order_gradient(spec, device):
    @given(_draw_case(spec))
    def run(case):
        arrays, kwargs, seed = case
        check_first_order(spec.fn, arrays, kwargs, _grad_args(spec, arrays),
                          np.random.default_rng(seed), spec.atol, spec.rtol,
                          spec.extra.get("eps", 1e-6), device)

    run()


SECOND = [s for s in SPECS if s.differentiable and s.second_order]


@pytest.mark.parametrize("spec", SECOND, ids=[s.name for s in SECOND])
def test_second_order_gradient(spec, device):
    @given(_draw_case(spec))
    def run(case):
        arrays, kwargs, seed = case
        check_second_order(spec.fn, arrays, kwargs, _grad_args(spec, arrays),
                           np.random.default_rng(seed), spec.atol, spec.rtol, device)

    run()


@pytest.mark.parametrize("spec", SECOND, ids=[s.name for s in SECOND])
def test_second_order_against_second_differences_of_the_forward(spec):
    """An independent check of second order (a few cases per op, on the host): second
    differences of the forward, no first-order rule involved."""
    @settings(max_examples=4)
    @given(_draw_case(spec))
    def run(case):
        arrays, kwargs, seed = case
        check_second_order_independently(spec.fn, arrays, kwargs, _grad_args(spec, arrays),
                                         np.random.default_rng(seed))

    run()


NON_DIFF = [s for s in SPECS if not s.differentiable]


@pytest.mark.parametrize("spec", NON_DIFF, ids=[s.name for s in NON_DIFF])
def test_non_differentiable_ops_pass_zero_or_no_gradient(spec):
    arrays, kwargs, _ = find(_draw_case(spec), lambda c: True)
    ts = [Tensor(a, requires_grad=True) for a in arrays]
    out = spec.fn(*ts, **kwargs)
    if out.requires_grad:
        janusgrad.backward([out], [Tensor(np.ones(out.array.shape))])
        for t in ts:
            assert t.grad is None or not np.any(t.grad.array)


def _ops_in_graph(out):
    seen, stack = set(), [out.node] if out.node is not None else []
    while stack:
        n = stack.pop()
        seen.add(n.op.name)
        stack.extend(p for p in n.parents if isinstance(p, janusgrad.Node))
    return seen


def test_every_recorded_op_has_a_rule_and_a_spec():
    """Each op in the table has a VJP or is marked non-differentiable (vjp None),
    and each op with a VJP is reached by some spec's graph."""
    covered = set()

    def graph_ops(spec, case):
        arrays, kwargs, _ = case
        return _ops_in_graph(spec.fn(*[Tensor(a, requires_grad=True) for a in arrays], **kwargs))

    quick = settings(phases=[Phase.generate], database=None, max_examples=500, derandomize=True)
    for spec in SPECS:
        try:
            case = find(_draw_case(spec), lambda c, s=spec: bool(graph_ops(s, c)),
                        settings=quick)
        except NoSuchExample:
            continue
        covered |= graph_ops(spec, case)
    with_rule = {name for name, op in OPS.items() if op.vjp is not None}
    missing = with_rule - covered
    assert not missing, f"ops with a VJP that no spec exercises: {sorted(missing)}"
