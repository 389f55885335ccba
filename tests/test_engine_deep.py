"""Deep graphs: backward is an iterative walk, so depth is bounded by memory only,
and the work is linear in the number of nodes."""
from __future__ import annotations

import gc
import time

import numpy as np

import janusgrad
from janusgrad import Tensor
from janusgrad.ops.elementwise import add, mul


def chain(x: Tensor, n: int) -> Tensor:
    y = x
    for _ in range(n):
        y = add(y, 1.0)
    return y


def test_million_op_chain_backpropagates():
    x = Tensor(np.array(0.5), requires_grad=True)
    y = chain(x, 1_000_000)
    assert y.array == 1_000_000.5
    janusgrad.backward([y])
    assert x.grad.array == 1.0
    del y  # freeing a million-deep chain must not overflow the C stack either
    gc.collect()


def test_deep_chain_with_saved_values_and_create_graph():
    n = 20_000
    x = Tensor(np.array(1.0), requires_grad=True)
    y = x
    for _ in range(n):
        y = mul(y, x)                    # x ** (n + 1), every node saving its inputs
    janusgrad.backward([y], create_graph=True)
    g = x.grad                           # (n + 1) x ** n, itself a graph about n deep
    assert g.array == n + 1 and g.node is not None
    x.grad = None
    janusgrad.backward([g])
    assert x.grad.array == (n + 1) * n


def _backward_cpu_seconds(n: int) -> float:
    x = Tensor(np.array(0.0), requires_grad=True)
    y = chain(x, n)
    gc.disable()
    try:
        t0 = time.process_time()
        janusgrad.backward([y])
        return time.process_time() - t0
    finally:
        gc.enable()


def test_backward_time_is_linear_in_depth():
    # A loose ratio, not an absolute time: 10x the nodes must cost well under 30x
    # (a quadratic walk would cost ~100x).
    small = min(_backward_cpu_seconds(20_000) for _ in range(3))
    large = _backward_cpu_seconds(200_000)
    assert large < 30 * max(small, 1e-3), (small, large)
