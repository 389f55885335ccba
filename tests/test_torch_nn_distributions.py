"""torch.distributions in torchlike against real torch 2.13: log_prob (and its gradient),
entropy, moments, sample shapes/dtypes/statistics, repr, argument checks."""
from __future__ import annotations

import numpy as np
import pytest

import torchlike

torch = pytest.importorskip("torch")

P3 = [0.2, 0.5, 0.3]
CASES = {
    "Normal": (lambda t, p: t.distributions.Normal(p[0], p[1]),
               [[0.5, -1.0], [1.5, 0.7]], [[0.3, 2.0]]),
    "Normal scalar": (lambda t, p: t.distributions.Normal(p[0], 2.0), [[0.5]], [[0.1, -3.0]]),
    "Uniform": (lambda t, p: t.distributions.Uniform(p[0], p[1]),
                [[0.0, -1.0], [2.0, 1.0]], [[0.5, 0.25]]),
    "Categorical probs": (lambda t, p: t.distributions.Categorical(probs=p[0]),
                          [P3], [[0, 2, 1]]),
    "Categorical logits": (lambda t, p: t.distributions.Categorical(logits=p[0]),
                           [[[0.1, -1.0, 2.0], [0.5, 0.5, 0.0]]], [[2, 0]]),
    "Multinomial": (lambda t, p: t.distributions.Multinomial(6, p[0]), [P3], [[1.0, 3.0, 2.0]]),
    "Bernoulli probs": (lambda t, p: t.distributions.Bernoulli(probs=p[0]), [[0.2, 0.9]],
                        [[1.0, 0.0]]),
    "Bernoulli logits": (lambda t, p: t.distributions.Bernoulli(logits=p[0]), [[-1.0, 3.0]],
                         [[0.0, 1.0]]),
}


def _params(lib, arrays):
    return [lib.tensor(np.asarray(a, np.float32), requires_grad=True) for a in arrays]


@pytest.mark.parametrize("name", CASES)
def test_log_prob_entropy_moments_and_gradients(name):
    build, params, values = CASES[name]
    pt, pj = _params(torch, params), _params(torchlike, params)
    dt, dj = build(torch, pt), build(torchlike, pj)
    assert tuple(dj.batch_shape) == tuple(dt.batch_shape)
    assert tuple(dj.event_shape) == tuple(dt.event_shape)
    assert repr(dj) == repr(dt)
    dtype = np.int64 if name.startswith("Categorical") else np.float32
    v = np.asarray(values[0], dtype)
    lt, lj = dt.log_prob(torch.tensor(v)), dj.log_prob(torchlike.tensor(v))
    np.testing.assert_allclose(lj.detach().numpy(), lt.detach().numpy(), rtol=1e-5, atol=1e-6)
    et, ej = dt.entropy(), dj.entropy()
    np.testing.assert_allclose(ej.detach().numpy(), et.detach().numpy(), rtol=1e-5, atol=1e-6)
    (lt.sum() + et.sum()).backward()
    (lj.sum() + ej.sum()).backward()
    for a, b in zip(pt, pj):
        np.testing.assert_allclose(b.grad.numpy(), a.grad.numpy(), rtol=1e-4, atol=1e-6)
    if not name.startswith("Categorical"):
        for m in ("mean", "variance", "stddev"):
            np.testing.assert_allclose(getattr(dj, m).detach().numpy(),
                                       getattr(dt, m).detach().numpy(), rtol=1e-5)


@pytest.mark.parametrize("name", CASES)
def test_sample_shapes_dtypes_and_statistics(name):
    build, params, _ = CASES[name]
    dt = build(torch, [torch.tensor(np.asarray(a, np.float32)) for a in params])
    dj = build(torchlike, [torchlike.tensor(np.asarray(a, np.float32)) for a in params])
    for shape in [(), (3,), (2, 4)]:
        st, sj = dt.sample(shape), dj.sample(shape)
        assert tuple(sj.shape) == tuple(st.shape)
        assert str(sj.dtype) == str(st.dtype)
        assert not sj.requires_grad
    big_t = dt.sample((20000,)).double().mean(0).numpy()
    big_j = dj.sample((20000,)).double().mean(0).numpy()
    np.testing.assert_allclose(big_j, big_t, atol=0.06, rtol=0.03)


def test_d2l_multinomial_cell():
    """D2L 2.6: fair die tosses via torch.distributions.multinomial."""
    from torchlike.distributions import multinomial
    fair_probs = torchlike.ones([6]) / 6
    one = multinomial.Multinomial(1, fair_probs).sample()
    assert tuple(one.shape) == (6,) and float(one.sum()) == 1.0
    counts = multinomial.Multinomial(1000, fair_probs).sample()
    assert float(counts.sum()) == 1000.0
    assert np.all(np.abs(counts.numpy() / 1000 - 1 / 6) < 0.05)
    many = multinomial.Multinomial(10, fair_probs).sample((500,))
    assert tuple(many.shape) == (500, 6)


def test_rsample_is_differentiable():
    loc = torchlike.tensor([0.5, 1.0], requires_grad=True)
    scale = torchlike.tensor([1.0, 2.0], requires_grad=True)
    s = torchlike.distributions.Normal(loc, scale).rsample((100,))
    s.sum().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [100.0, 100.0])


@pytest.mark.parametrize("build", [
    lambda t: t.distributions.Normal(0.0, -1.0),
    lambda t: t.distributions.Categorical(t.tensor([0.2, 0.8])).log_prob(t.tensor(2)),
    lambda t: t.distributions.Bernoulli(),
])
def test_argument_errors_like_torch(build):
    errors = []
    for lib in (torch, torchlike):
        with pytest.raises(Exception) as e:
            build(lib)
        errors.append((type(e.value).__name__, str(e.value)))
    assert errors[0] == errors[1]
