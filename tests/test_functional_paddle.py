"""paddle.autograd.jacobian / hessian: lazy objects, shapes, indexing, batch_axis.

Each case runs on paddlelike and (when installed) on the real paddle 3.3, comparing
object types, ``shape`` attributes, tuple nesting, indexed values, stop_gradient
flags and error texts.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import paddlelike
from paddlelike.autograd.autograd import Hessian, Jacobian
from paddlelike.testing import assert_gradients, tensors


def norm(x):
    if isinstance(x, tuple):
        return ("tuple", [norm(e) for e in x])
    if type(x).__name__ in ("Jacobian", "Hessian"):
        return ("J", type(x).__name__, list(x.shape))
    if hasattr(x, "stop_gradient"):
        return ("T", list(x.shape), str(x.dtype), bool(x.stop_gradient),
                np.asarray(x.numpy(), dtype=np.float64))
    if isinstance(x, BaseException):
        return ("E", type(x).__name__, str(x))
    return x


def same(a, b, path):
    if isinstance(a, tuple) and a and a[0] == "T":
        assert b[0] == "T" and a[1:4] == b[1:4], (path, a[:4], b[:4])
        np.testing.assert_allclose(a[4], b[4], rtol=1e-5, atol=1e-6, err_msg=path)
    elif isinstance(a, tuple) and a and a[0] == "tuple":
        assert b[0] == "tuple" and len(a[1]) == len(b[1]), (path, a, b)
        for i, (x, y) in enumerate(zip(a[1], b[1])):
            same(x, y, f"{path}[{i}]")
    else:
        assert a == b, (path, a, b)


def _vals(p):
    x = p.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = p.to_tensor([0.5, 1.5], stop_gradient=False)
    z = p.to_tensor(2.0, stop_gradient=False)
    b = p.to_tensor([[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]], stop_gradient=False)
    return x, y, z, b


def _jac(p, *a, **k):
    return p.autograd.jacobian(*a, **k)


def _hes(p, *a, **k):
    return p.autograd.hessian(*a, **k)


CASES = {
    "object": lambda p, x, y, z, b: _jac(p, x ** 2, x),
    "full": lambda p, x, y, z, b: _jac(p, x ** 2, x)[:],
    "row": lambda p, x, y, z, b: _jac(p, x ** 2, x)[0],
    "negative_row": lambda p, x, y, z, b: _jac(p, x ** 2, x)[-1],
    "column": lambda p, x, y, z, b: _jac(p, x ** 2, x)[:, 1],
    "negative_column": lambda p, x, y, z, b: _jac(p, x ** 2, x)[:, -1],
    "element": lambda p, x, y, z, b: _jac(p, x ** 2, x)[1, 2],
    "row_slice": lambda p, x, y, z, b: _jac(p, x ** 2, x)[0:2],
    "row_slice_from": lambda p, x, y, z, b: _jac(p, x ** 2, x)[1:],
    "step_slice": lambda p, x, y, z, b: _jac(p, x ** 2, x)[::2],
    "negative_slice": lambda p, x, y, z, b: _jac(p, x ** 2, x)[-2:],
    "empty_slice_quirk": lambda p, x, y, z, b: _jac(p, x ** 2, x)[0:0],
    "row_and_slice": lambda p, x, y, z, b: _jac(p, x ** 2, x)[0, 0:2],
    "ellipsis": lambda p, x, y, z, b: _jac(p, x ** 2, x)[...],
    "bad_index_type": lambda p, x, y, z, b: _jac(p, x ** 2, x)[1.5],
    "no_len": lambda p, x, y, z, b: len(_jac(p, x ** 2, x)),
    "delegated_attribute": lambda p, x, y, z, b: _jac(p, x ** 2, x).dtype == x.dtype,
    "arithmetic": lambda p, x, y, z, b: _jac(p, x ** 2, x) * 2 + 1,
    "jacobian_times_jacobian": lambda p, x, y, z, b: _jac(p, x ** 2, x) @ _jac(p, x * 3, x),
    "tuples": lambda p, x, y, z, b: _jac(p, (x ** 2, x.sum() * y), (x, y)),
    "tuples_value": lambda p, x, y, z, b: _jac(p, (x ** 2, x.sum() * y), (x, y))[1][0][:],
    "tuple_xs": lambda p, x, y, z, b: _jac(p, x ** 2, (x, y)),
    "tuple_xs_unused": lambda p, x, y, z, b: _jac(p, x ** 2, (x, y))[1][:],
    "list_ys": lambda p, x, y, z, b: _jac(p, [x ** 2, x * 3], [x])[1][0][:],
    "tuple_ys": lambda p, x, y, z, b: _jac(p, (x ** 2, x.sum() * y), x),
    "scalar_ys": lambda p, x, y, z, b: _jac(p, (x ** 3).sum(), x)[:],
    "scalar_ys_index": lambda p, x, y, z, b: _jac(p, (x ** 3).sum(), x)[0],
    "scalar_ys_slice": lambda p, x, y, z, b: _jac(p, (x ** 3).sum(), x)[1:],
    "scalar_xs": lambda p, x, y, z, b: _jac(p, x * z, z)[:],
    "scalar_xs_index": lambda p, x, y, z, b: _jac(p, x * z, z)[1],
    "scalar_both_shape": lambda p, x, y, z, b: _jac(p, z * 3, z).shape,
    "scalar_both_index": lambda p, x, y, z, b: _jac(p, z * 3, z)[:],
    "scalar_both_evaluate": lambda p, x, y, z, b: _jac(p, z * 3, z) + 0,
    "matrix_xs": lambda p, x, y, z, b: _jac(p, x * 2, b),
    "matrix_ys": lambda p, x, y, z, b: _jac(p, b * 2, x),
    "constant_ys": lambda p, x, y, z, b: _jac(p, p.to_tensor([1.0, 2.0]), x)[:],
    "unrelated_xs": lambda p, x, y, z, b: _jac(p, x * 2, y)[:],
    "batch_axis_1": lambda p, x, y, z, b: _jac(p, b ** 2, b, batch_axis=1),
    "batched": lambda p, x, y, z, b: _jac(p, b ** 2, b, batch_axis=0)[:],
    "batched_shape": lambda p, x, y, z, b: _jac(p, b ** 2, b, batch_axis=0).shape,
    "batched_first": lambda p, x, y, z, b: _jac(p, b ** 2, b, batch_axis=0)[0],
    "batched_row": lambda p, x, y, z, b: _jac(p, b ** 2, b, batch_axis=0)[:, 1],
    "batched_entry": lambda p, x, y, z, b: _jac(p, b ** 2, b, batch_axis=0)[:, 1, 2],
    "batched_element": lambda p, x, y, z, b: _jac(p, b ** 2, b, batch_axis=0)[1, 1, 1],
    "batched_1d_ys": lambda p, x, y, z, b: _jac(p, (b ** 2).sum(axis=1), b, batch_axis=0),
    "batched_1d_ys_full": lambda p, x, y, z, b: _jac(p, (b ** 2).sum(axis=1), b,
                                                     batch_axis=0)[:],
    "batched_1d_ys_row": lambda p, x, y, z, b: _jac(p, (b ** 2).sum(axis=1), b,
                                                    batch_axis=0)[:, 1],
    "batched_1d_both": lambda p, x, y, z, b: _jac(p, b[:, 0] * 3, b[:, 0], batch_axis=0)[:],
    "batched_wrong_ndim": lambda p, x, y, z, b: _jac(p, z * 2, z, batch_axis=0),
    "hessian": lambda p, x, y, z, b: _hes(p, (x ** 3).sum(), x),
    "hessian_full": lambda p, x, y, z, b: _hes(p, (x ** 3).sum(), x)[:],
    "hessian_row": lambda p, x, y, z, b: _hes(p, (x ** 3).sum(), x)[1],
    "hessian_vector_ys": lambda p, x, y, z, b: _hes(p, x ** 3, x),
    "hessian_linear": lambda p, x, y, z, b: _hes(p, x.sum(), x)[:],
    "hessian_tuple": lambda p, x, y, z, b: _hes(p, (x ** 3).sum() * y.sum(), (x, y)),
    "hessian_tuple_diag": lambda p, x, y, z, b: _hes(p, (x ** 3).sum() * y.sum(), (x, y))[1][1][:],
    "hessian_batched": lambda p, x, y, z, b: _hes(p, (b ** 3).sum(axis=1), b, batch_axis=0)[:],
    "hessian_batched_shape": lambda p, x, y, z, b: _hes(p, (b ** 3).sum(axis=1), b,
                                                        batch_axis=0).shape,
    "hessian_batched_vector": lambda p, x, y, z, b: _hes(p, b ** 3, b, batch_axis=0),
    "hessian_bad_batch_type": lambda p, x, y, z, b: _hes(p, (x ** 3).sum(), x, batch_axis="a"),
    "hessian_scalar": lambda p, x, y, z, b: _hes(p, z ** 3, z).shape,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddle(name):
    paddle = pytest.importorskip("paddle")

    def run(p):
        try:
            return norm(CASES[name](p, *_vals(p)))
        except Exception as e:
            return norm(e)

    same(run(paddle), run(paddlelike), name)


def test_rows_are_evaluated_lazily_and_cached():
    x = paddlelike.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    J = paddlelike.autograd.jacobian(x ** 2, x)
    assert isinstance(J, Jacobian) and J.shape == [3, 3]
    cache = J._jacobian._cache
    assert cache == {}
    J[1]
    assert sorted(cache) == [1]
    row = cache[1]
    J[:, 0]
    assert sorted(cache) == [0, 1, 2] and cache[1] is row


def test_values_keep_their_graph_for_higher_derivatives():
    """d/dx of the diagonal of J(x**3) = 6x, through paddle.grad on J's values."""
    x = paddlelike.to_tensor([1.0, 2.0, 3.0], dtype="float64", stop_gradient=False)
    J = paddlelike.autograd.jacobian(x ** 3, x)
    diag_sum = (J[:] * paddlelike.eye(3, dtype="float64")).sum()
    (g,) = paddlelike.grad(diag_sum, x)
    np.testing.assert_allclose(g.numpy(), [6.0, 12.0, 18.0])


def test_hessian_of_tuple_xs_where_paddle_itself_fails():
    """paddle 3.3 raises an internal error for H[0][1] and H[1][0] here; the math is plain."""
    x = paddlelike.to_tensor([1.0, 2.0, 3.0], dtype="float64", stop_gradient=False)
    y = paddlelike.to_tensor([0.5, 1.5], dtype="float64", stop_gradient=False)
    H = paddlelike.autograd.hessian((x ** 3).sum() * y.sum(), (x, y))
    assert all(isinstance(h, Hessian) for row in H for h in row)
    np.testing.assert_allclose(H[0][0][:].numpy(), np.diag([12.0, 24.0, 36.0]))
    np.testing.assert_allclose(H[0][1][:].numpy(), [[3.0, 3.0], [12.0, 12.0], [27.0, 27.0]])
    np.testing.assert_allclose(H[1][0][:].numpy(), [[3.0, 12.0, 27.0]] * 2)
    np.testing.assert_allclose(H[1][1][:].numpy(), np.zeros((2, 2)))


def test_third_derivative_of_sin_exp_through_nested_lazy_objects():
    xs = np.array([-0.7, 0.2, 1.5])
    x = paddlelike.to_tensor(xs, dtype="float64", stop_gradient=False)
    first = paddlelike.autograd.jacobian((x.sin() * x.exp()).sum(), x)[:]  # f'(x), graph kept
    H = paddlelike.autograd.hessian(first.sum(), x)[:]  # diag(f'''(x))
    np.testing.assert_allclose(np.diag(H.numpy()), 2 * np.exp(xs) * (np.cos(xs) - np.sin(xs)),
                               rtol=1e-10)


@settings(max_examples=10)
@given(tensors(shape=(3,), dtypes=("float64",), low=-2.0, high=2.0, requires_grad=True))
def test_jacobian_rows_are_differentiable_and_right(x):
    def full(t):
        return paddlelike.autograd.jacobian((t * t).tanh(), t)[:]

    assert_gradients(lambda t: (t * t).tanh(), x, order=2)
    assert_gradients(full, x, order=1)
