"""Directional central-difference checks of first and second derivatives.

Works on the engine directly: ``fn`` takes engine Tensors and returns one.  ``device``
(an engine Device, None for the host) places every input there; the checks then also
assert that outputs and gradients stay on that device, and read them back with to_host.
"""
from __future__ import annotations

import numpy as np

from janusgrad import Tensor
from janusgrad.array import backend
from janusgrad.core.autograd import run_backward

EPS = 1e-6


def place(a, device=None, requires_grad: bool = False) -> Tensor:
    return Tensor(backend.from_host(np.array(a, copy=True), device), requires_grad)


def host(t: Tensor, device=None) -> np.ndarray:
    """``t``'s values on the host, after checking that they stayed on ``device``."""
    if device is not None:
        assert backend.device_of(t.array) == device, (type(t.array), device)
    return np.asarray(backend.to_host(t.array))


def _call(fn, arrays, kwargs, grad_args, device=None):
    ts = [place(a, device, i in grad_args) for i, a in enumerate(arrays)]
    return ts, fn(*ts, **kwargs)


def _value(fn, arrays, kwargs, device=None):
    ts = [place(a, device) for a in arrays]
    return np.asarray(host(fn(*ts, **kwargs), device), dtype=np.float64)


def vjp(fn, arrays, kwargs, grad_args, u, create_graph=False, device=None):
    ts, out = _call(fn, arrays, kwargs, grad_args, device)
    inputs = [ts[i] for i in grad_args]
    if not out.requires_grad:
        return ts, out, [None] * len(inputs)
    grads = run_backward([out], [place(u, device)], retain_graph=create_graph,
                         create_graph=create_graph, inputs=inputs, accumulate=False)
    return ts, out, grads


def check_first_order(fn, arrays, kwargs, grad_args, rng, atol, rtol, eps=EPS, device=None):
    out = _value(fn, arrays, kwargs, device)
    u = rng.standard_normal(out.shape)
    vs = {i: rng.standard_normal(arrays[i].shape) for i in grad_args}
    _, _, grads = vjp(fn, arrays, kwargs, grad_args, u, device=device)
    analytic = 0.0
    for i, g in zip(grad_args, grads):
        if g is not None:
            assert g.array.shape == arrays[i].shape, (g.array.shape, arrays[i].shape)
            analytic += float(np.sum(host(g, device) * vs[i]))
    plus = [a + eps * vs[i] if i in vs else a for i, a in enumerate(arrays)]
    minus = [a - eps * vs[i] if i in vs else a for i, a in enumerate(arrays)]
    numeric = float(np.sum((_value(fn, plus, kwargs, device)
                            - _value(fn, minus, kwargs, device)) * u)) / (2 * eps)
    assert np.isclose(analytic, numeric, atol=atol, rtol=rtol), (analytic, numeric)


def _second_through_create_graph(fn, arrays, kwargs, grad_args, u, ws, vs, device=None):
    """sum_i <d/dx_i <vjp(x, u), w>, v_i>: the engine's second order (create_graph)."""
    ts, _, grads = vjp(fn, arrays, kwargs, grad_args, u, create_graph=True, device=device)
    from janusgrad.ops.elementwise import add, mul
    from janusgrad.ops.reduce import sum as rsum
    total = None
    for i, g in zip(grad_args, grads):
        if g is None or not g.requires_grad:
            continue
        term = rsum(mul(g, place(ws[i], device)))
        total = term if total is None else add(total, term)
    analytic = 0.0
    if total is not None:
        inputs = [ts[i] for i in grad_args]
        second = run_backward([total], [place(np.ones(()), device)], inputs=inputs,
                              accumulate=False)
        for i, g2 in zip(grad_args, second):
            if g2 is not None:
                analytic += float(np.sum(host(g2, device) * vs[i]))
    return analytic


def check_second_order(fn, arrays, kwargs, grad_args, rng, atol, rtol, device=None):
    """d/dx <vjp(x, u), w> against central differences of the first-order vjp."""
    out = _value(fn, arrays, kwargs, device)
    u = rng.standard_normal(out.shape)
    ws = {i: rng.standard_normal(arrays[i].shape) for i in grad_args}
    vs = {i: rng.standard_normal(arrays[i].shape) for i in grad_args}

    def inner(arrs):
        _, _, grads = vjp(fn, arrs, kwargs, grad_args, u, device=device)
        return sum(float(np.sum(host(g, device) * ws[i])) for i, g in zip(grad_args, grads)
                   if g is not None)

    analytic = _second_through_create_graph(fn, arrays, kwargs, grad_args, u, ws, vs, device)
    plus = [a + EPS * vs[i] if i in vs else a for i, a in enumerate(arrays)]
    minus = [a - EPS * vs[i] if i in vs else a for i, a in enumerate(arrays)]
    numeric = (inner(plus) - inner(minus)) / (2 * EPS)
    assert np.isclose(analytic, numeric, atol=atol * 10, rtol=rtol * 10), (analytic, numeric)


def check_second_order_independently(fn, arrays, kwargs, grad_args, rng, atol=1e-4,
                                     rtol=1e-3, h=1e-4):
    """w^T H v of g(x) = <fn(x), u> through create_graph, against second differences of
    the forward alone (float64): no first-order rule takes part in the reference, so a
    wrong first-order rule cannot hide a matching wrong second-order one."""
    out = _value(fn, arrays, kwargs)
    u = rng.standard_normal(out.shape)
    ws = {i: rng.standard_normal(arrays[i].shape) for i in grad_args}
    vs = {i: rng.standard_normal(arrays[i].shape) for i in grad_args}
    analytic = _second_through_create_graph(fn, arrays, kwargs, grad_args, u, ws, vs)

    def g_at(sv, sw):
        moved = [a + sv * h * vs[i] + sw * h * ws[i] if i in vs else a
                 for i, a in enumerate(arrays)]
        return float(np.sum(_value(fn, moved, kwargs) * u))

    numeric = (g_at(1, 1) - g_at(1, -1) - g_at(-1, 1) + g_at(-1, -1)) / (4 * h * h)
    assert np.isclose(analytic, numeric, atol=atol, rtol=rtol), (analytic, numeric)
