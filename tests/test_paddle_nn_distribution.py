"""paddlelike.distribution against real paddle 3.3.1: log_prob/probs/entropy values and
gradients, sample shapes/dtypes and sample statistics."""
import numpy as np
import pytest

import paddlelike

paddle = pytest.importorskip("paddle")


def _both(fn):
    return fn(paddle), fn(paddlelike)


def _desc(t):
    return list(t.shape), str(t.dtype), t.stop_gradient


def _values_and_grads(make, method, value, params, grads=True):
    """method(value) of make(m, *param tensors); its gradients w.r.t. the params."""
    def run(m):
        ps = [m.to_tensor(p, stop_gradient=not grads) for p in params]
        d = make(m, *ps)
        out = getattr(d, method)(m.to_tensor(value)) if value is not None else \
            getattr(d, method)()
        if grads:
            out.sum().backward()
        return out.numpy(), _desc(out), [None if p.grad is None else p.grad.numpy()
                                         for p in ps]
    (a, da, ga), (b, db, gb) = _both(run)
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    assert da == db
    for x, y in zip(ga, gb):
        assert (x is None) == (y is None)
        if x is not None:
            np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-5)


LOC = np.array([0.0, 1.0, -2.0], "float32")
SCALE = np.array([1.0, 2.0, 0.5], "float32")
VAL = np.array([0.5, -1.0, -2.2], "float32")


@pytest.mark.parametrize("method,value", [("log_prob", VAL), ("probs", VAL),
                                          ("entropy", None)])
def test_normal(method, value):
    _values_and_grads(lambda m, a, b: m.distribution.Normal(a, b), method, value,
                      [LOC, SCALE])


@pytest.mark.parametrize("method,value", [
    ("log_prob", np.array([0.5, 1.5, -1.0], "float32")),
    ("probs", np.array([0.5, 1.5, -1.0], "float32")), ("entropy", None)])
def test_uniform(method, value):
    low = np.array([0.0, 1.0, -2.0], "float32")
    high = np.array([1.0, 3.0, 2.0], "float32")
    _values_and_grads(lambda m, a, b: m.distribution.Uniform(a, b), method, value,
                      [low, high])


def test_uniform_ends_have_zero_density():
    a, b = _both(lambda m: m.distribution.Uniform(0.0, 2.0).log_prob(
        m.to_tensor([0.0, 1.0, 2.0, 3.0])).numpy().tolist())
    assert a == b


@pytest.mark.parametrize("logits,value", [
    (np.array([1.0, 2.0, 3.0], "float32"), np.array([0, 2, 1])),
    (np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 2.0]], "float32"), np.array([0, 2])),
    (np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 2.0]], "float32"), np.array([[0], [2]])),
])
@pytest.mark.parametrize("method", ["probs", "log_prob", "entropy"])
def test_categorical(logits, value, method):
    _values_and_grads(lambda m, a: m.distribution.Categorical(a), method,
                      None if method == "entropy" else value, [logits])


@pytest.mark.parametrize("method,value", [
    ("log_prob", np.array([2.0, 3.0, 5.0], "float32")),
    ("prob", np.array([2.0, 3.0, 5.0], "float32")),
    ("log_prob", np.array([0.0, 4.0, 6.0], "float32")),
    ("entropy", None)])
def test_multinomial(method, value):
    """Values only: real paddle 3.3.1 crashes (SIGSEGV) differentiating Multinomial."""
    probs = np.array([0.2, 0.3, 0.5], "float32")
    _values_and_grads(lambda m, p: m.distribution.Multinomial(10, p), method, value, [probs],
                      grads=False)


@pytest.mark.parametrize("method,value", [("log_prob", np.array([0.0, 1.0], "float32")),
                                          ("prob", np.array([1.0, 1.0], "float32")),
                                          ("entropy", None)])
def test_bernoulli(method, value):
    """Gradients of entropy only: real paddle 3.3.1 crashes (SIGSEGV in
    broadcast_tensors_grad) differentiating Bernoulli.log_prob."""
    _values_and_grads(lambda m, p: m.distribution.Bernoulli(p), method, value,
                      [np.array([0.3, 0.9], "float32")], grads=method == "entropy")


def test_sample_shapes_and_dtypes():
    def run(m):
        D = m.distribution
        loc = m.to_tensor([0.0, 1.0])
        return [
            _desc(D.Normal(0.0, 1.0).sample([3])), _desc(D.Normal(0.0, 1.0).sample()),
            _desc(D.Normal(loc, m.ones([2])).sample([4, 1])),
            _desc(D.Normal([0.0, 1.0], [1.0, 2.0]).rsample([3])),
            _desc(D.Uniform(0.0, 2.0).sample([4])),
            _desc(D.Categorical(m.to_tensor([1.0, 2.0, 3.0])).sample([2, 3])),
            _desc(D.Categorical(m.ones([2, 3])).sample([4])),
            _desc(D.Multinomial(10, m.to_tensor([0.2, 0.3, 0.5])).sample()),
            _desc(D.Multinomial(1, m.to_tensor([1 / 6] * 6)).sample((500, 1))),
            _desc(D.Bernoulli(0.3).sample([3])),
            _desc(D.Bernoulli(m.to_tensor([0.3, 0.9])).sample([3])),
        ]
    a, b = _both(run)
    assert a == b


@pytest.mark.parametrize("make,stat", [
    (lambda m: m.distribution.Normal(1.0, 2.0).sample([20000]), "meanstd"),
    (lambda m: m.distribution.Uniform(-1.0, 3.0).sample([20000]), "meanstd"),
    (lambda m: m.distribution.Bernoulli(0.3).sample([20000]), "mean"),
    (lambda m: m.distribution.Categorical(m.to_tensor([1.0, 2.0, 3.0])).sample([20000]),
     "counts"),
    (lambda m: m.distribution.Multinomial(10, m.to_tensor([0.2, 0.3, 0.5])).sample([5000]),
     "mean0"),
])
def test_sample_statistics(make, stat):
    def run(m):
        m.seed(0)
        a = make(m).numpy()
        if stat == "meanstd":
            return a.mean(), a.std()
        if stat == "counts":
            return tuple(np.bincount(a, minlength=3) / a.size)
        if stat == "mean0":
            return tuple(a.mean(0))
        return (a.mean(),)
    a, b = _both(run)
    np.testing.assert_allclose(a, b, atol=0.05 * max(1.0, max(abs(x) for x in a)))


def test_multinomial_total_count_checked():
    def run(m):
        try:
            m.distribution.Multinomial(0, m.to_tensor([0.5, 0.5]))
        except ValueError as e:
            return str(e)
    a, b = _both(run)
    assert a == b
