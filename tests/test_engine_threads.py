"""Grad mode is per thread; independent graphs backpropagate concurrently."""
from __future__ import annotations

import threading

import numpy as np

import janusgrad
from janusgrad import Tensor
from janusgrad.core.mode import is_grad_enabled, no_grad
from janusgrad.ops.elementwise import exp, mul
from janusgrad.ops.reduce import sum


def test_no_grad_in_one_thread_does_not_affect_another():
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    inside_no_grad = threading.Barrier(2)
    main_recorded = threading.Barrier(2)
    seen = {}

    def worker():
        with no_grad():
            inside_no_grad.wait()
            main_recorded.wait()
            seen["worker_mode"] = is_grad_enabled()
            seen["worker_node"] = mul(x, 2.0).node
        seen["worker_after"] = is_grad_enabled()

    t = threading.Thread(target=worker)
    t.start()
    inside_no_grad.wait()                  # the worker is inside no_grad now
    main_mode = is_grad_enabled()
    main_node = mul(x, 2.0).node
    main_recorded.wait()
    t.join()
    assert main_mode is True and main_node is not None
    assert seen["worker_mode"] is False and seen["worker_node"] is None
    assert seen["worker_after"] is True


def test_new_threads_start_with_grad_enabled():
    seen = []
    with no_grad():
        t = threading.Thread(target=lambda: seen.append(is_grad_enabled()))
        t.start()
        t.join()
        assert not is_grad_enabled()
    assert seen == [True]


def test_independent_backward_in_threads():
    results = {}
    errors = []

    def work(i):
        try:
            x = Tensor(np.full(3, float(i)), requires_grad=True)
            for _ in range(50):
                x.grad = None
                janusgrad.backward([sum(mul(exp(x), x))])
            results[i] = x.grad.array.copy()
        except Exception as e:  # surfaced below: a thread's exception is otherwise lost
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in range(4):
        np.testing.assert_allclose(results[i], np.exp(float(i)) * (1.0 + i))
