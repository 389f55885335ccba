"""Functional transforms (torch.autograd.functional, torch.func) on the engine.

Unit and property tests run on torchlike alone; the differential tests run every case
with the real torch too (skipped without it) and compare values, shapes, the tuple
structure of the results, requires_grad flags and error types/texts.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings

import torchlike
from torchlike import func as jfunc
from torchlike.autograd import functional as JF
from torchlike.testing import assert_gradients, tensors

# ---------------------------------------------------------------- normalizing results


def norm(x):
    """Results as comparable plain data: tensors -> (shape, dtype name, requires_grad, values)."""
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, [norm(e) for e in x])
    if hasattr(x, "detach") and hasattr(x, "shape"):
        arr = np.asarray(x.detach().numpy(), dtype=np.float64)
        return ("T", tuple(x.shape), str(x.dtype).split(".")[-1], bool(x.requires_grad), arr)
    if isinstance(x, BaseException):
        return ("E", type(x).__name__, str(x))
    return x


def same(a, b, path="result"):
    if isinstance(a, tuple) and a and a[0] == "T":
        assert isinstance(b, tuple) and b and b[0] == "T", (path, a, b)
        assert a[1:4] == b[1:4], (path, a[1:4], b[1:4])
        np.testing.assert_allclose(a[4], b[4], rtol=1e-5, atol=1e-6, err_msg=path)
    elif isinstance(a, tuple) and a and a[0] in ("tuple", "list"):
        assert isinstance(b, tuple) and b[0] == a[0] and len(a[1]) == len(b[1]), (path, a, b)
        for i, (x, y) in enumerate(zip(a[1], b[1])):
            same(x, y, f"{path}[{i}]")
    else:
        assert a == b, (path, a, b)


def run(case, torch, F, func):
    try:
        return norm(case(torch, F, func))
    except Exception as e:  # the error is part of the behaviour
        return norm(e)


# ---------------------------------------------------------------- cases (torch spelling)
def _xy(torch):
    return torch.tensor([1.0, 2.0, 3.0]), torch.tensor([0.5, 1.5])


def _names(x):
    """grad_fn names of a result (None for tensors without one)."""
    if isinstance(x, (tuple, list)):
        return [_names(e) for e in x]
    return None if x.grad_fn is None else x.grad_fn.name()


def _pair(a, b):
    return (a.sum() * b, a * 2)


CASES = {
    "vjp": lambda t, F, f: F.vjp(lambda a: a ** 2, _xy(t)[0], t.ones(3)),
    "vjp_scalar_no_v": lambda t, F, f: F.vjp(lambda a: a.sum(), _xy(t)[0]),
    "vjp_no_v_error": lambda t, F, f: F.vjp(lambda a: a ** 2, _xy(t)[0]),
    "vjp_tuple_input": lambda t, F, f: F.vjp(lambda a: a ** 2, (_xy(t)[0],), t.ones(3)),
    "vjp_tuples": lambda t, F, f: F.vjp(_pair, _xy(t), (t.ones(2), t.ones(3))),
    "vjp_v_length": lambda t, F, f: F.vjp(_pair, _xy(t), t.ones(2)),
    "vjp_v_size": lambda t, F, f: F.vjp(lambda a: a ** 2, _xy(t)[0], t.ones(2)),
    "vjp_v_entry_size": lambda t, F, f: F.vjp(_pair, _xy(t), (t.ones(2), t.ones(2))),
    "vjp_int_inputs": lambda t, F, f: F.vjp(lambda a: a, 3),
    "vjp_int_in_tuple": lambda t, F, f: F.vjp(lambda a, b: a, (_xy(t)[0], 3)),
    "vjp_int_output": lambda t, F, f: F.vjp(lambda a: 3, _xy(t)[0]),
    "vjp_int_output_in_tuple": lambda t, F, f: F.vjp(lambda a: (a, 3), _xy(t)[0]),
    "vjp_strict_constant": lambda t, F, f: F.vjp(lambda a: t.ones(3), _xy(t)[0], t.ones(3),
                                                  strict=True),
    "vjp_constant": lambda t, F, f: F.vjp(lambda a: t.ones(3), _xy(t)[0], t.ones(3)),
    "vjp_strict_unused": lambda t, F, f: F.vjp(lambda a, b: a * 2, _xy(t), t.ones(3),
                                               strict=True),
    "vjp_unused": lambda t, F, f: F.vjp(lambda a, b: a * 2, _xy(t), t.ones(3)),
    "vjp_create_graph": lambda t, F, f: F.vjp(lambda a: a ** 3, _xy(t)[0], t.ones(3),
                                              create_graph=True),
    "jvp": lambda t, F, f: F.jvp(lambda a: a ** 2, _xy(t)[0], t.ones(3)),
    "jvp_tuples": lambda t, F, f: F.jvp(_pair, _xy(t), (t.ones(3), t.ones(2))),
    "jvp_no_v_error": lambda t, F, f: F.jvp(lambda a: a ** 2, _xy(t)[0]),
    "jvp_scalar_no_v": lambda t, F, f: F.jvp(lambda a: a * a, t.tensor(2.0)),
    "jvp_strict_constant": lambda t, F, f: F.jvp(lambda a: t.ones(3), _xy(t)[0], t.ones(3),
                                                  strict=True),
    "jvp_strict_unused": lambda t, F, f: F.jvp(lambda a, b: a * 2, _xy(t),
                                               (t.ones(3), t.ones(2)), strict=True),
    "jvp_strict_linear": lambda t, F, f: F.jvp(lambda a: a * 2, _xy(t)[0], t.ones(3),
                                               strict=True),
    "jvp_strict_linear_graph": lambda t, F, f: F.jvp(lambda a: a * 2, _xy(t)[0], t.ones(3),
                                                     strict=True, create_graph=True),
    "jvp_v_size": lambda t, F, f: F.jvp(lambda a: a * 2, _xy(t)[0], t.ones(2)),
    "jacobian": lambda t, F, f: F.jacobian(lambda a: a ** 2, _xy(t)[0]),
    "jacobian_tuple_in": lambda t, F, f: F.jacobian(lambda a: a ** 2, (_xy(t)[0],)),
    "jacobian_tuples": lambda t, F, f: F.jacobian(_pair, _xy(t)),
    "jacobian_tuple_out": lambda t, F, f: F.jacobian(lambda a: (a, a.sum()), _xy(t)[0]),
    "jacobian_matrix": lambda t, F, f: F.jacobian(lambda m: (m @ m).tanh(),
                                                  t.tensor([[0.1, 0.2], [0.3, -0.4]])),
    "jacobian_empty_output": lambda t, F, f: F.jacobian(lambda a: a[:0], _xy(t)[0]),
    "jacobian_empty_input": lambda t, F, f: F.jacobian(lambda a: a.sum() * t.ones(2),
                                                       t.ones(0)),
    "jacobian_double_output": lambda t, F, f: F.jacobian(lambda a: (a * 2).double(),
                                                         _xy(t)[0]),
    "vjp_double_v": lambda t, F, f: F.vjp(lambda a: a * 2, _xy(t)[0],
                                          t.ones(3, dtype=t.float64)),
    "jacobian_list_inputs": lambda t, F, f: F.jacobian(lambda a: a, [_xy(t)[0]]),
    "vjp_list_outputs": lambda t, F, f: F.vjp(lambda a: [a, a], _xy(t)[0], (t.ones(3),) * 2),
    "vjp_list_v": lambda t, F, f: F.vjp(lambda a: a, _xy(t)[0], [t.ones(3)]),
    "jacobian_0d": lambda t, F, f: F.jacobian(lambda a: a.sin(), t.tensor(3.0)),
    "jacobian_constant": lambda t, F, f: F.jacobian(lambda a: t.ones(2), _xy(t)[0]),
    "jacobian_strict_constant": lambda t, F, f: F.jacobian(lambda a: t.ones(2), _xy(t)[0],
                                                           strict=True),
    "jacobian_strict_unused": lambda t, F, f: F.jacobian(lambda a, b: a * 2, _xy(t),
                                                         strict=True),
    "jacobian_strict_vectorize": lambda t, F, f: F.jacobian(lambda a: a * 2, _xy(t)[0],
                                                            strict=True, vectorize=True),
    "jacobian_vectorize": lambda t, F, f: F.jacobian(lambda a: a * a, _xy(t)[0],
                                                     vectorize=True),
    "jacobian_forward_unvectorized": lambda t, F, f: F.jacobian(
        lambda a: a * 2, _xy(t)[0], strategy="forward-mode"),
    "jacobian_forward_create_graph": lambda t, F, f: F.jacobian(
        lambda a: a * 2, _xy(t)[0], strategy="forward-mode", create_graph=True),
    "jacobian_forward": lambda t, F, f: F.jacobian(lambda a: a * a, _xy(t)[0],
                                                   strategy="forward-mode", vectorize=True),
    "jacobian_bad_strategy": lambda t, F, f: F.jacobian(lambda a: a, _xy(t)[0],
                                                        strategy="sideways"),
    "jacobian_create_graph": lambda t, F, f: F.jacobian(lambda a: a * a, _xy(t)[0],
                                                        create_graph=True),
    "jacobian_strict_graph_linear": lambda t, F, f: F.jacobian(
        lambda a: a * 2, _xy(t)[0], strict=True, create_graph=True),
    "hessian": lambda t, F, f: F.hessian(lambda a: (a ** 3).sum(), _xy(t)[0]),
    "hessian_tuples": lambda t, F, f: F.hessian(lambda a, b: (a ** 3).sum() * b.sum(), _xy(t)),
    "hessian_not_single_element": lambda t, F, f: F.hessian(lambda a: a ** 3, _xy(t)[0]),
    "hessian_tuple_output": lambda t, F, f: F.hessian(lambda a: ((a ** 3).sum(), a),
                                                      _xy(t)[0]),
    "hessian_linear": lambda t, F, f: F.hessian(lambda a: a.sum(), _xy(t)[0]),
    "hessian_strict_linear": lambda t, F, f: F.hessian(lambda a: a.sum(), _xy(t)[0],
                                                       strict=True),
    "hessian_int_output": lambda t, F, f: F.hessian(lambda a: 3, _xy(t)[0]),
    "hessian_create_graph": lambda t, F, f: F.hessian(lambda a: (a ** 3).sum(), _xy(t)[0],
                                                      create_graph=True),
    "hessian_forward": lambda t, F, f: F.hessian(lambda a: (a ** 3).sum(), _xy(t)[0],
                                                 outer_jacobian_strategy="forward-mode",
                                                 vectorize=True),
    "hvp": lambda t, F, f: F.hvp(lambda a: (a ** 3).sum(), _xy(t)[0], t.ones(3)),
    "vhp": lambda t, F, f: F.vhp(lambda a: (a ** 3).sum(), _xy(t)[0], t.ones(3)),
    "hvp_no_v": lambda t, F, f: F.hvp(lambda a: (a ** 3).sum(), _xy(t)[0]),
    "hvp_not_single": lambda t, F, f: F.hvp(lambda a: a ** 3, _xy(t)[0], t.ones(3)),
    "vhp_not_single": lambda t, F, f: F.vhp(lambda a: a ** 3, _xy(t)[0], t.ones(3)),
    "hvp_tuple_output": lambda t, F, f: F.hvp(lambda a: (a, a), _xy(t)[0], t.ones(3)),
    "hvp_tuples": lambda t, F, f: F.hvp(lambda a, b: (a ** 3).sum() * b.sum(), _xy(t),
                                        (t.ones(3), t.ones(2))),
    "vhp_tuples": lambda t, F, f: F.vhp(lambda a, b: (a ** 3).sum() * b.sum(), _xy(t),
                                        (t.ones(3), t.ones(2))),
    "hvp_linear": lambda t, F, f: F.hvp(lambda a: a.sum(), _xy(t)[0], t.ones(3)),
    "hvp_strict_linear": lambda t, F, f: F.hvp(lambda a: a.sum(), _xy(t)[0], t.ones(3),
                                               strict=True),
    "vhp_strict_linear": lambda t, F, f: F.vhp(lambda a: a.sum(), _xy(t)[0], t.ones(3),
                                               strict=True),
    "hvp_strict_constant": lambda t, F, f: F.hvp(lambda a: t.tensor(1.0), _xy(t)[0],
                                                 t.ones(3), strict=True),
    "hvp_scalar": lambda t, F, f: F.hvp(lambda a: a * a * a, t.tensor(2.0)),
    "hvp_strict_quadratic_graph": lambda t, F, f: F.hvp(
        lambda a: (a ** 2).sum(), _xy(t)[0], t.ones(3), create_graph=True, strict=True),
    "vhp_strict_quadratic_graph": lambda t, F, f: F.vhp(
        lambda a: (a ** 2).sum(), _xy(t)[0], t.ones(3), create_graph=True, strict=True),
    "vhp_create_graph": lambda t, F, f: F.vhp(lambda a: (a ** 3).sum(), _xy(t)[0], t.ones(3),
                                              create_graph=True),
    "jvp_create_graph_input_requires_grad": lambda t, F, f: F.jvp(
        lambda a: a ** 3, _xy(t)[0].requires_grad_(), t.ones(3), create_graph=True),
    # torch.func
    "func_grad": lambda t, F, f: f.grad(lambda a: (a ** 3).sum())(_xy(t)[0]),
    "func_grad_not_scalar": lambda t, F, f: f.grad(lambda a: a ** 3)(_xy(t)[0]),
    "func_grad_one_element": lambda t, F, f: f.grad(lambda a: a.sum().reshape(1))(_xy(t)[0]),
    "func_grad_argnums": lambda t, F, f: f.grad(lambda a, b: (a ** 3).sum() * b.sum(),
                                                argnums=(0, 1))(*_xy(t)),
    "func_grad_argnum_1": lambda t, F, f: f.grad(lambda a, b: (a ** 3).sum() * b.sum(),
                                                 argnums=1)(*_xy(t)),
    "func_grad_aux": lambda t, F, f: f.grad(lambda a, b: ((a ** 3).sum() * b.sum(), a * 2),
                                            has_aux=True)(*_xy(t)),
    "func_grad_aux_missing": lambda t, F, f: f.grad(lambda a, b: (a ** 3).sum(),
                                                    has_aux=True)(*_xy(t)),
    "func_grad_argnum_range": lambda t, F, f: f.grad(lambda a: a.sum(), argnums=2)(_xy(t)[0]),
    "func_grad_negative_argnum": lambda t, F, f: f.grad(lambda a: a.sum(),
                                                        argnums=-1)(_xy(t)[0]),
    "func_grad_constant": lambda t, F, f: f.grad(lambda a: t.ones(()))(_xy(t)[0]),
    "func_grad_float": lambda t, F, f: f.grad(lambda a: 3.0)(_xy(t)[0]),
    "func_grad_grad": lambda t, F, f: f.grad(f.grad(lambda a: a.sin().sum().sin()))(
        t.tensor(0.3)),
    "func_grad_tracked_input": lambda t, F, f: f.grad(lambda a: (a ** 3).sum())(
        _xy(t)[0].requires_grad_()),
    "func_grad_closure": lambda t, F, f: (lambda w: f.grad(lambda a: (a * w).sum())(_xy(t)[0]))(
        t.tensor([1.0, 2.0, 3.0], requires_grad=True)),
    "func_grad_float_input": lambda t, F, f: f.grad(lambda a: a * a)(3.0),
    "func_grad_int_tensor": lambda t, F, f: f.grad(lambda a: (a * a).sum())(t.tensor([1, 2])),
    "func_grad_repeated_argnums": lambda t, F, f: f.grad(lambda a: (a * a).sum(),
                                                         argnums=(0, 0))(t.ones(2)),
    "func_grad_empty_argnums": lambda t, F, f: f.grad(lambda a: (a * a).sum(),
                                                      argnums=())(t.ones(2)),
    "func_grad_float_argnums": lambda t, F, f: f.grad(lambda a: (a * a).sum(),
                                                      argnums=1.0)(t.ones(2)),
    "func_grad_kwargs_not_differentiated": lambda t, F, f: f.grad(
        lambda a, b: (a * b).sum())(t.ones(2), b=t.tensor([2.0, 3.0])),
    "func_vjp_no_primals": lambda t, F, f: (lambda o: (o[0], o[1](t.ones(2))))(
        f.vjp(lambda: t.ones(2))),
    "func_jacrev_aux_missing": lambda t, F, f: f.jacrev(lambda a: a * 2, has_aux=True)(
        t.ones(2)),
    "hvp_strict_graph_grad_fn": lambda t, F, f: F.hvp(
        lambda a: (a ** 3).sum(), _xy(t)[0], t.ones(3), create_graph=True)[1].grad_fn.name(),
    "names_jacobian_graph": lambda t, F, f: _names(F.jacobian(lambda a: a * a, _xy(t)[0],
                                                              create_graph=True)),
    "names_hessian_graph": lambda t, F, f: _names(F.hessian(lambda a: (a ** 3).sum(), _xy(t)[0],
                                                            create_graph=True)),
    "names_products_graph": lambda t, F, f: [
        _names(F.vjp(lambda a: a ** 3, _xy(t)[0], t.ones(3), create_graph=True)),
        _names(F.jvp(lambda a: a ** 3, _xy(t)[0], t.ones(3), create_graph=True)),
        _names(F.hvp(lambda a: (a ** 3).sum(), _xy(t)[0], t.ones(3), create_graph=True)),
        _names(F.vhp(lambda a: (a ** 3).sum(), _xy(t)[0], t.ones(3), create_graph=True))],
    "names_func_tracked": lambda t, F, f: (lambda x: [
        _names(f.grad(lambda a: (a ** 3).sum())(x)), _names(f.jacrev(lambda a: a ** 3)(x)),
        _names(f.hessian(lambda a: (a ** 3).sum())(x)),
        _names(f.vjp(lambda a: a ** 3, x)[1](t.ones(3)))])(_xy(t)[0].requires_grad_()),
    "func_vjp": lambda t, F, f: (lambda o: (o[0], o[1](t.ones(3))))(
        f.vjp(lambda a: a ** 2, _xy(t)[0])),
    "func_vjp_tuple": lambda t, F, f: (lambda o: (o[0], o[1]((t.ones(3), t.tensor(1.0)))))(
        f.vjp(lambda a, b: (a * 2, b.sum()), *_xy(t))),
    "func_vjp_structure": lambda t, F, f: f.vjp(lambda a, b: (a * 2, b.sum()), *_xy(t))[1](
        t.ones(3)),
    "func_vjp_aux": lambda t, F, f: (lambda o: (o[0], o[1](t.ones(3)), o[2]))(
        f.vjp(lambda a: (a ** 2, a + 1), _xy(t)[0], has_aux=True)),
    "func_vjp_shape": lambda t, F, f: f.vjp(lambda a: a ** 2, _xy(t)[0])[1](t.ones(2)),
    "func_jacrev": lambda t, F, f: f.jacrev(lambda a: a ** 2)(_xy(t)[0]),
    "func_jacrev_argnums": lambda t, F, f: f.jacrev(lambda a, b: a * b.sum(),
                                                    argnums=(0, 1))(*_xy(t)),
    "func_jacrev_tuple_out": lambda t, F, f: f.jacrev(lambda a, b: (a * b.sum(), b),
                                                      argnums=1)(*_xy(t)),
    "func_jacrev_aux": lambda t, F, f: f.jacrev(lambda a: (a ** 2, a.sum()),
                                                has_aux=True)(_xy(t)[0]),
    "func_jacrev_scalar": lambda t, F, f: f.jacrev(lambda a: a.sum())(_xy(t)[0]),
    "func_hessian": lambda t, F, f: f.hessian(lambda a: (a ** 3).sum())(_xy(t)[0]),
    "func_hessian_argnums": lambda t, F, f: f.hessian(lambda a, b: (a ** 3).sum() * b.sum(),
                                                      argnums=(0, 1))(*_xy(t)),
    "func_hessian_vector_output": lambda t, F, f: f.hessian(lambda a: a ** 3)(_xy(t)[0]),
}


def test_cases_run_on_torchlike():
    """Every case gives a result or a deliberate error (no crash inside the engine)."""
    for name, case in CASES.items():
        r = run(case, torchlike, JF, jfunc)
        if r and r[0] == "E":
            assert r[1] in ("RuntimeError", "TypeError", "ValueError", "NotImplementedError",
                            "AssertionError"), (name, r)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    import torch.autograd.functional as TF
    import torch.func as tfunc
    case = CASES[name]
    same(run(case, torch, TF, tfunc), run(case, torchlike, JF, jfunc), name)


# ---------------------------------------------------------------- analytic higher order
def _f(t):
    return t.sin() * t.exp()


def _derivatives(x: float):
    """d^k/dx^k sin(x) e^x for k = 0..4."""
    e, s, c = math.exp(x), math.sin(x), math.cos(x)
    return [s * e, e * (s + c), 2 * e * c, 2 * e * (c - s), -4 * e * s]


@pytest.mark.parametrize("x0", [-1.3, 0.0, 0.4, 2.1])
def test_third_and_fourth_derivatives_by_nested_func_grad(x0):
    x = torchlike.tensor(x0, dtype=torchlike.float64)
    d = _derivatives(x0)
    g = jfunc.grad
    f1 = g(lambda t: _f(t))
    f2 = g(f1)
    f3 = g(f2)
    f4 = g(f3)
    for k, fk in enumerate([f1, f2, f3, f4], 1):
        r = fk(x)
        assert r.requires_grad is False
        assert math.isclose(float(r), d[k], rel_tol=1e-10, abs_tol=1e-12), (k, float(r), d[k])


def test_third_and_fourth_derivatives_by_nested_autograd_functional():
    xs = [-0.7, 0.2, 1.5]
    x = torchlike.tensor(xs, dtype=torchlike.float64)

    def second(t):  # f acts elementwise: the hessian of sum(f) is diag(f''), rows sum to f''
        return JF.hessian(lambda z: _f(z).sum(), t, create_graph=True).sum(1)

    d3 = JF.jacobian(second, x)
    d4 = JF.jacobian(lambda t: JF.jacobian(second, t, create_graph=True).sum(1), x)
    for i, x0 in enumerate(xs):
        d = _derivatives(x0)
        assert math.isclose(float(d3[i, i]), d[3], rel_tol=1e-10)
        assert math.isclose(float(d4[i, i]), d[4], rel_tol=1e-10)
    # off-diagonal entries vanish: f acts elementwise
    off = ~np.eye(3, dtype=bool)
    assert np.all(d3.numpy()[off] == 0) and np.all(d4.numpy()[off] == 0)
    # hvp of the third-derivative field agrees: <H(f'')> . v
    _, h = JF.hvp(lambda t: JF.vjp(lambda z: _f(z), t, torchlike.ones(3, dtype=torchlike.float64),
                                   create_graph=True)[1].sum(), x,
                  torchlike.ones(3, dtype=torchlike.float64))
    np.testing.assert_allclose(h.numpy(), [_derivatives(v)[3] for v in xs], rtol=1e-10)


def test_jvp_hvp_vhp_agree_with_jacobian_and_hessian():
    x = torchlike.tensor([0.3, -0.8, 1.1], dtype=torchlike.float64)
    v = torchlike.tensor([0.5, 2.0, -1.0], dtype=torchlike.float64)

    def fn(t):
        return (t * t.roll(1, 0) if hasattr(t, "roll") else t * t).tanh()

    J = JF.jacobian(fn, x)
    np.testing.assert_allclose(JF.jvp(fn, x, v)[1].numpy(), J.numpy() @ v.numpy(), rtol=1e-12)
    np.testing.assert_allclose(JF.vjp(fn, x, v)[1].numpy(), v.numpy() @ J.numpy(), rtol=1e-12)

    def scalar(t):
        return (fn(t) * t.exp()).sum()

    H = JF.hessian(scalar, x).numpy()
    np.testing.assert_allclose(JF.hvp(scalar, x, v)[1].numpy(), H @ v.numpy(), rtol=1e-10)
    np.testing.assert_allclose(JF.vhp(scalar, x, v)[1].numpy(), v.numpy() @ H, rtol=1e-10)
    np.testing.assert_allclose(H, H.T, rtol=1e-10)


def test_create_graph_results_are_differentiable():
    x = torchlike.tensor([0.3, -0.8, 1.1], dtype=torchlike.float64, requires_grad=True)
    _, g = JF.vjp(lambda t: t.sin() * t, x, torchlike.ones(3, dtype=torchlike.float64),
                  create_graph=True)
    assert g.requires_grad
    g.sum().backward()
    xs = x.detach().numpy()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(xs) - xs * np.sin(xs), rtol=1e-12)


def test_results_without_create_graph_are_detached_and_inputs_untouched():
    x = torchlike.tensor([0.3, -0.8], dtype=torchlike.float64, requires_grad=True)
    out, g = JF.vjp(lambda t: t * t, x, torchlike.ones(2, dtype=torchlike.float64))
    assert not out.requires_grad and not g.requires_grad
    assert x.grad is None


def test_func_grad_composes_with_backward_of_outer_tensors():
    w = torchlike.tensor([1.0, 2.0], dtype=torchlike.float64, requires_grad=True)
    x = torchlike.tensor([0.5, -1.0], dtype=torchlike.float64)
    g = jfunc.grad(lambda t: ((t * w).sin()).sum())(x)  # cos(x w) w
    assert g.requires_grad
    g.sum().backward()
    xw = x.numpy() * w.detach().numpy()
    expected = -np.sin(xw) * x.numpy() * w.detach().numpy() + np.cos(xw)
    np.testing.assert_allclose(w.grad.numpy(), expected, rtol=1e-12)


# ---------------------------------------------------------------- properties (our kit)
@settings(max_examples=15)
@given(tensors(dtypes=(torchlike.float64,), low=-2.0, high=2.0, requires_grad=True,
               max_dims=2, max_side=3))
def test_jacobian_and_hessian_match_finite_differences(x):
    def fn(t):
        return (t.sin() * t.exp() + t * t).sum()

    assert_gradients(fn, x, order=2)
    H = JF.hessian(fn, x)
    n = x.numel()
    assert tuple(H.shape) == tuple(x.shape) + tuple(x.shape)
    assert_gradients(lambda t: JF.jacobian(fn, t, create_graph=True), x, order=1)
    assert_gradients(lambda t: jfunc.grad(fn)(t), x, order=1)
    np.testing.assert_allclose(H.numpy().reshape(n, n), H.numpy().reshape(n, n).T, rtol=1e-10)
    # the values, from outside the engine: finite differences of fn (central, and second
    # differences for the Hessian) and the closed forms of this separable fn
    a = x.detach().numpy().astype(np.float64)

    def f(v):
        return float(np.sum(np.sin(v) * np.exp(v) + v * v))

    h1, h2 = 1e-6, 1e-4
    fd_grad = np.zeros(n)
    fd_hess = np.zeros((n, n))
    flat = a.reshape(-1)
    for i in range(n):
        e_i = np.zeros(n)
        e_i[i] = 1.0
        fd_grad[i] = (f(flat + h1 * e_i) - f(flat - h1 * e_i)) / (2 * h1)
        for j in range(n):
            e_j = np.zeros(n)
            e_j[j] = 1.0
            fd_hess[i, j] = (f(flat + h2 * (e_i + e_j)) - f(flat + h2 * (e_i - e_j))
                             - f(flat - h2 * (e_i - e_j))
                             + f(flat - h2 * (e_i + e_j))) / (4 * h2 * h2)
    J = JF.jacobian(fn, x).numpy().reshape(-1)
    G = jfunc.grad(fn)(x).detach().numpy().reshape(-1)
    closed_grad = np.cos(flat) * np.exp(flat) + np.sin(flat) * np.exp(flat) + 2 * flat
    closed_hess = np.diag(2 * np.cos(flat) * np.exp(flat) + 2)
    for got in (J, G):
        np.testing.assert_allclose(got, fd_grad, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(got, closed_grad, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(H.numpy().reshape(n, n), fd_hess, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(H.numpy().reshape(n, n), closed_hess, rtol=1e-12, atol=1e-12)


DROPIN_SCRIPT = '''
import torch
import torch.func
from torch.autograd.functional import hessian, jacobian
from torch.autograd.gradcheck import GradcheckError, gradcheck
from torch.func import grad, jacrev
x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(jacobian(lambda a: a.sin(), x))
print(hessian(lambda a: (a ** 3).sum(), x))
print(grad(lambda a: (a.exp()).sum())(x))
print(jacrev(lambda a: a * a)(x))
print(torch.autograd.gradcheck(lambda a: a.tanh(), (x,)), gradcheck(lambda a: a.tanh(), (x,)))
print(torch.autograd.gradgradcheck(lambda a: a.tanh(), (x,)))
print(torch.func.hessian(lambda a: (a ** 3).sum())(x))
print(issubclass(GradcheckError, RuntimeError))
'''


def test_dropin_script_prints_what_torch_prints(tmp_path):
    pytest.importorskip("torch")
    import subprocess
    import sys
    script = tmp_path / "functional_demo.py"
    script.write_text(DROPIN_SCRIPT)
    real = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    mine = subprocess.run([sys.executable, "-m", "torchlike", str(script)], capture_output=True,
                          text=True)
    assert real.returncode == 0, real.stderr
    assert mine.stdout == real.stdout, mine.stderr


@settings(max_examples=15)
@given(torchlike.testing.tensor_pairs(low=-1.5, high=1.5, requires_grad=True, max_dims=2,
                                      max_side=3))
def test_products_are_contractions_of_the_jacobian_and_hessian(pair):
    """For random broadcastable pairs: vjp = v^T J, jvp = J u, hvp = H v, vhp = v^T H, and the
    jacobian itself is differentiable (checked by finite differences with the kit)."""
    a, b = pair

    def fn(x, y):
        return (x * y).sin() + x * x

    def scalar(x, y):
        return (fn(x, y) * y.exp()).sum()

    rng = np.random.default_rng(0)
    f64 = torchlike.float64
    out = fn(a, b)
    v = torchlike.tensor(rng.standard_normal(tuple(out.shape)), dtype=f64)
    us = tuple(torchlike.tensor(rng.standard_normal(tuple(t.shape)), dtype=f64) for t in pair)
    Ja, Jb = JF.jacobian(fn, pair)
    no, na, nb = out.numel(), a.numel(), b.numel()
    Ja, Jb = Ja.numpy().reshape(no, na), Jb.numpy().reshape(no, nb)
    ga, gb = JF.vjp(fn, pair, v)[1]
    np.testing.assert_allclose(ga.numpy().reshape(-1), v.numpy().reshape(-1) @ Ja, atol=1e-12)
    np.testing.assert_allclose(gb.numpy().reshape(-1), v.numpy().reshape(-1) @ Jb, atol=1e-12)
    jv = JF.jvp(fn, pair, us)[1]
    expected = Ja @ us[0].numpy().reshape(-1) + Jb @ us[1].numpy().reshape(-1)
    np.testing.assert_allclose(jv.numpy().reshape(-1), expected, atol=1e-12)
    H = JF.hessian(scalar, pair)
    flat = np.block([[H[i][j].numpy().reshape(pair[i].numel(), pair[j].numel())
                      for j in range(2)] for i in range(2)])
    u = np.concatenate([t.numpy().reshape(-1) for t in us])
    hv = np.concatenate([t.numpy().reshape(-1) for t in JF.hvp(scalar, pair, us)[1]])
    vh = np.concatenate([t.numpy().reshape(-1) for t in JF.vhp(scalar, pair, us)[1]])
    np.testing.assert_allclose(hv, flat @ u, atol=1e-10)
    np.testing.assert_allclose(vh, u @ flat, atol=1e-10)
    assert_gradients(lambda x, y: JF.jacobian(fn, (x, y), create_graph=True), a, b, order=1)
