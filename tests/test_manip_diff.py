"""The manipulation family against the real frameworks where torch's OpInfo samples do not
reach: paddle's own signatures of the index updates (paddle_map leaves them unmapped), the
call forms of meshgrid / einsum / atleast_*, views and in-place refusals, and errors."""
import warnings

import numpy as np
import pytest

from tests.tolerance import assert_kernels_close as _close

torch = pytest.importorskip("torch")

import paddlelike  # noqa: E402
import torchlike  # noqa: E402

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4))
V = RNG.standard_normal(3)


def _np(t):
    return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t.numpy())


def _both(fn, *arrays):
    """fn(module, *tensors) on torch and torchlike: values and gradients agree."""
    outs, grads = [], []
    for m in (torch, torchlike):
        ts = [m.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
        out = fn(m, *ts)
        outs.append(out)
        floats = [t for t in ts if t.requires_grad]
        if floats and out.requires_grad:
            out.backward(m.ones_like(out) * 1.5)
            grads.append([t.grad for t in floats])
    _close(_np(outs[1]), _np(outs[0]))
    assert str(outs[1].dtype) == str(outs[0].dtype)
    for g_ref, g in zip(*grads) if grads else ():
        _close(_np(g), _np(g_ref))


@pytest.mark.parametrize("case", [
    lambda m, x: m.tril(x, -1), lambda m, x: x.triu(1), lambda m, x: m.diagonal(x, 1),
    lambda m, x: m.roll(x, (1, -2), (0, 1)), lambda m, x: m.rot90(x, 3),
    lambda m, x: m.movedim(x, 0, 1), lambda m, x: x.narrow(1, -2, 2),
    lambda m, x: m.select(x, 1, -1), lambda m, x: m.unflatten(x, 1, (2, -1)),
    lambda m, x: m.einsum("ij->j", x), lambda m, x: m.einsum(x, [0, 1], [1]),
    lambda m, x: m.einsum("ij,kj->ik", [x, x]), lambda m, x: m.kron(x, x),
    lambda m, x: m.stack(m.meshgrid(x[0], x[1], indexing="xy")),
    lambda m, x: m.take(x, m.tensor([[0, -1], [5, 2]])),
    lambda m, x: x.index_fill(0, m.tensor([0, 2]), -1.0),
    lambda m, x: x.index_add(1, m.tensor([0, 0, 3]), x[:, :3], alpha=2),
    lambda m, x: m.index_put(x, (m.tensor([0, 2]), m.tensor([1, 1])),
                             m.tensor(7.0, dtype=m.float64)),
    lambda m, x: x.masked_scatter(x > 0, x.flip(0)),
    lambda m, x: m.repeat_interleave(x, m.tensor([1, 0, 2]), dim=0),
    lambda m, x: m.nn.functional.one_hot(m.tensor([0, 3, 1])),
])
def test_torch_values_and_grads(case):
    _both(case, X)


def test_torch_views_and_inplace_refusal():
    got = []
    for m in (torch, torchlike):
        x = m.tensor(X, requires_grad=True)
        y = x * 1
        y.diagonal().mul_(0)
        y.select(0, 1).add_(1)
        y.narrow(1, 3, 1).zero_()
        y.movedim(0, 1).unflatten(0, (2, 2))[1, 1].mul_(3)
        (y * y).sum().backward()
        got.append((_np(y), _np(x.grad)))
    _close(got[1][0], got[0][0])
    _close(got[1][1], got[0][1])
    for m in (torch, torchlike):
        with pytest.raises(RuntimeError, match="Output 0 of Unbind is a view"):
            z = m.tensor(X, requires_grad=True) * 1
            m.unbind(z)[0].add_(1)


def test_torch_meshgrid_forms_and_warning():
    for m in (torch, torchlike):
        a = m.tensor(V)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            m.meshgrid(a, a, indexing="ij")
            m.meshgrid([a, a], indexing="xy")
        assert not w
        with pytest.warns(UserWarning, match="indexing argument"):
            m.meshgrid(a, a)
        assert m.atleast_2d(a).shape == (1, 3)
        assert len(m.atleast_1d(a, a)) == 2


@pytest.mark.parametrize("call", [
    lambda m, x: m.narrow(x, 0, 5, 1), lambda m, x: m.select(x, 0, 3),
    lambda m, x: m.hsplit(x, 3), lambda m, x: m.trace(x[None]),
    lambda m, x: m.fliplr(x[0]), lambda m, x: m.roll(x, (1, 2), (0,)),
    lambda m, x: m.take(x, m.tensor([12])),
    lambda m, x: m.nn.functional.one_hot(m.tensor([1, 5]), 3),
])
def test_torch_errors(call):
    errs = []
    for m in (torch, torchlike):
        with pytest.raises(Exception) as e:
            call(m, m.tensor(X))
        errs.append(e.value)
    assert type(errs[1]) is type(errs[0])
    assert str(errs[1]) == str(errs[0])


# ---------------------------------------------------------------- paddle
@pytest.fixture(scope="module")
def paddle():
    return pytest.importorskip("paddle")


@pytest.mark.parametrize("case", [
    lambda m, x: m.index_add(x, m.to_tensor([0, 0, 2]), 0, x, alpha=2),
    lambda m, x: m.index_fill(x, m.to_tensor([1]), 1, -2.0),
    lambda m, x: m.index_put(x, (m.to_tensor([0, 2]),), m.to_tensor([1.0, 2.0, 3.0, 4.0])),
    lambda m, x: m.index_put(x, (m.to_tensor([0, 0]), m.to_tensor([1, 1])),
                             m.to_tensor(1.5), accumulate=True),
    lambda m, x: m.masked_scatter(x, x > 0, m.flip(x, 0)),
    lambda m, x: m.take(x, m.to_tensor([[0, -1], [13, 2]]), mode="wrap"),
    lambda m, x: m.put_along_axis(x, m.to_tensor([[2], [0], [1]]), 9.0, 1),
    lambda m, x: m.put_along_axis(x, m.to_tensor([[0, 1, 0, 1]]), x[:1], 0, reduce="add"),
    lambda m, x: m.diag(x[0], 1, padding_value=3),
    lambda m, x: m.trace(x, -1), lambda m, x: m.stack(m.unbind(x, 1)),
    lambda m, x: m.concat(m.tensor_split(x, [1, 3], axis=1), 1),
    lambda m, x: m.einsum("ij,ij->i", x, x), lambda m, x: m.tensordot(x, x, [[0], [0]]),
    lambda m, x: m.nn.functional.one_hot(m.to_tensor([0, 3, 1])),
])
def test_paddle_values_and_grads(paddle, case):
    outs, grads = [], []
    for m in (paddle, paddlelike):
        x = m.to_tensor(X.astype(np.float32), stop_gradient=False)
        out = case(m, x)
        outs.append(out)
        if not out.stop_gradient:
            (out * 1.5).sum().backward()
            grads.append(x.grad)
    _close(np.asarray(outs[1].numpy()), np.asarray(outs[0].numpy()))
    assert str(outs[1].dtype) == str(outs[0].dtype)
    if len(grads) == 2:
        _close(np.asarray(grads[1].numpy()), np.asarray(grads[0].numpy()))
