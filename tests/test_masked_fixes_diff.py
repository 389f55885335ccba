"""The fixes of the masked family's second part against the real frameworks, where torch's
OpInfo samples (or their mapping to paddle) do not pin them: paddle's squeeze and
argmax/argmin on 0-d tensors, histogram's dtypes, paddle's norm (p = 0, p < 1, 'nuc', empty
tensors), torch's p < 0 norm gradient at zeros, and where's gradient under a NaN cotangent
(both dialects)."""
import math

import numpy as np
import pytest

import paddlelike
import torchlike


def _paddle():
    return pytest.importorskip("paddle")


def _torch():
    return pytest.importorskip("torch")


def _np(t):
    return None if t is None else np.asarray(t.numpy())


def _both(fn):
    """fn(lib) on real paddle and paddlelike: (result, result) or the exceptions."""
    out = []
    for lib in (_paddle(), paddlelike):
        try:
            out.append(fn(lib))
        except Exception as e:  # noqa: BLE001 - compared by type and message
            out.append(e)
    return out


def _same(fn, grad=False):
    e, g = _both(fn)
    if isinstance(e, Exception):
        assert type(g) is type(e), (e, g)
        assert str(g) == str(e)
        return
    assert not isinstance(g, Exception), g
    for a, b in zip(e if isinstance(e, (list, tuple)) else [e],
                    g if isinstance(g, (list, tuple)) else [g]):
        if a is None or b is None:
            assert a is None and b is None
            continue
        assert list(a.shape) == list(b.shape)
        assert str(a.dtype).rsplit(".", 1)[-1] == str(b.dtype).rsplit(".", 1)[-1]
        if not grad:
            assert a.stop_gradient == b.stop_gradient
        np.testing.assert_allclose(_np(b), _np(a), rtol=1e-6, atol=1e-9, equal_nan=True)


@pytest.mark.parametrize("axis", [None, 0, -1, (0,), [0, -1], [], (), 5, -2, 1])
def test_paddle_squeeze_of_0d(axis):
    _same(lambda p: p.squeeze(p.to_tensor(1.5), axis=axis))


@pytest.mark.parametrize("axis", [None, [], (), [1, 0], 1, [-4], 3])
def test_paddle_squeeze_axes(axis):
    _same(lambda p: p.squeeze(p.ones([2, 1, 3, 1]), axis=axis))
    _same(lambda p: p.ones([1, 1, 1]).squeeze(axis))


@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("shape", [(), (2, 3)])
def test_paddle_argmax_shapes(op, axis, keepdim, shape):
    a = np.arange(float(np.prod(shape))).reshape(shape) % 4
    _same(lambda p: getattr(p, op)(p.to_tensor(a), axis=axis, keepdim=keepdim))
    _same(lambda p: getattr(p, op)(p.to_tensor(a), axis=axis, keepdim=keepdim, dtype="int32"))


@pytest.mark.parametrize("dt", ["float64", "float32", "int64", "int32"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("density", [False, True])
def test_paddle_histogram_dtypes(dt, weighted, density):
    x = np.array([1, 2, 2, 3, 5])

    def run(p):
        w = p.to_tensor(np.array([1, 1, 2, 1, 3]), dtype=dt) if weighted else None
        return p.histogram(p.to_tensor(x, dtype=dt), bins=3, weight=w, density=density)
    _same(run)


X = np.array([[1.5, 0.0, -2.0, 0.25], [0.5, 0.75, 0.0, -1.0], [2.0, -0.5, 1.0, 3.0]])


@pytest.mark.parametrize("p", [0, 0.5, -0.5, -1, -2, 1, 2, 3.5, math.inf, -math.inf, "fro"])
@pytest.mark.parametrize("axis", [None, 1, [0, 1]])
def test_paddle_norm_values_and_gradients(p, axis):
    if p == "fro" and axis == 1:
        return

    def run(lib):
        x = lib.to_tensor(X, stop_gradient=False)
        y = lib.linalg.norm(x, p=p, axis=axis)
        return [y, *lib.grad([y], [x], [lib.ones_like(y) * 0.7], allow_unused=True)]
    _same(run, grad=True)


@pytest.mark.parametrize("axis", [None, [0, 1], [1, 2]])
@pytest.mark.parametrize("keepdim", [False, True])
def test_paddle_nuclear_norm(axis, keepdim):
    a = X if axis != [1, 2] else np.stack([X, X[::-1] * 0.5])

    def run(lib):
        x = lib.to_tensor(a, stop_gradient=False)
        y = lib.norm(x, p="nuc", axis=axis, keepdim=keepdim)
        return [y, *lib.grad([y], [x])]
    _same(run, grad=True)
    _same(lambda lib: lib.norm(lib.ones([2, 3, 4]), p="nuc"))


@pytest.mark.parametrize("p", [0, 0.5, -1, 1, 2, 3, math.inf, -math.inf])
@pytest.mark.parametrize("shape", [(0,), (0, 5), (5, 0)])
def test_paddle_norm_of_empty_tensors(p, shape):
    _same(lambda lib: lib.linalg.norm(lib.zeros(shape, dtype="float64"), p=p))
    _same(lambda lib: lib.linalg.norm(lib.zeros(shape, dtype="float64"), p=p, keepdim=True))


@pytest.mark.parametrize("p", [0.5, -0.5, -1, -2, 3.5])
def test_torch_norm_gradient_at_zeros(p):
    torch = _torch()
    a = np.array([[0.0, 1.5, -2.0, 0.0, 0.5], [0.25, 1.0, -0.5, 2.0, 0.0]])
    out = []
    for lib in (torch, torchlike):
        x = lib.tensor(a, requires_grad=True)
        y = lib.linalg.vector_norm(x, p, dim=1)
        g, = lib.autograd.grad(y, x, lib.tensor([0.7, -1.3], dtype=lib.float64))
        out.append((y.detach().numpy(), g.numpy()))
    np.testing.assert_allclose(out[1][0], out[0][0], rtol=1e-12)
    np.testing.assert_allclose(out[1][1], out[0][1], rtol=1e-10, atol=1e-12)


def test_where_passes_no_nan_to_the_unchosen_side():
    torch = _torch()
    for lib in (torch, torchlike):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = lib.tensor([4.0, 5.0, 6.0], requires_grad=True)
        z = lib.where(lib.tensor([True, False, True]), x, y)
        gx, gy = lib.autograd.grad(z, [x, y], lib.tensor([math.nan, math.inf, 1.0]))
        assert np.array_equal(gx.numpy(), [math.nan, 0.0, 1.0], equal_nan=True), lib
        assert np.array_equal(gy.numpy(), [0.0, math.inf, 0.0]), lib
    _paddle()
    for p in _both(lambda p: p.grad(
            [p.where(p.to_tensor([True, False]), x := p.to_tensor([1.0, 2.0],
                                                                  stop_gradient=False),
                     p.zeros([2]))], [x], [p.to_tensor([math.nan, math.nan])])[0]):
        assert np.array_equal(_np(p), [math.nan, 0.0], equal_nan=True)
