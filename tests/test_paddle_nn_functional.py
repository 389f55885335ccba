"""paddle.nn.functional counterparts against real paddle 3.3.1 (values and gradients)."""
import numpy as np
import pytest

import paddlelike

paddle = pytest.importorskip("paddle")

RNG = np.random.default_rng(1)
X = RNG.standard_normal((4, 5)).astype("float32")
Y = RNG.standard_normal((4, 5)).astype("float32")
W = RNG.standard_normal((5, 3)).astype("float32")
B = RNG.standard_normal(3).astype("float32")
LAB = np.array([0, 4, 2, 1], "int64")


def _run(fn, *arrays):
    """fn(F, m, *tensors) with every float array a grad-requiring tensor; value and grads."""
    def run(m):
        ts = [m.to_tensor(a, stop_gradient=a.dtype.kind != "f") for a in arrays]
        out = fn(m.nn.functional, m, *ts)
        (out * m.to_tensor(np.linspace(0.5, 1.5, out.size).reshape(out.shape)
                           .astype("float32"))).sum().backward()
        return out.numpy(), list(out.shape), [t.grad.numpy() for t in ts if not t.stop_gradient]
    (a, sa, ga), (b, sb, gb) = run(paddle), run(paddlelike)
    assert sa == sb
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    for x, y in zip(ga, gb):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name,kw", [
    ("relu", {}), ("sigmoid", {}), ("tanh", {}), ("gelu", {}), ("gelu", {"approximate": True}),
    ("softmax", {}), ("softmax", {"axis": 0}), ("log_softmax", {}), ("leaky_relu", {}),
    ("leaky_relu", {"negative_slope": 0.2}), ("softplus", {}), ("softplus", {"beta": 2}),
])
def test_activations(name, kw):
    _run(lambda F, m, x: getattr(F, name)(x, **kw), X)


def test_linear():
    _run(lambda F, m, x, w, b: F.linear(x, w, b), X, W, B)
    _run(lambda F, m, x, w: F.linear(x, w), X, W)


@pytest.mark.parametrize("training", [False, True])
def test_dropout_p0_and_eval(training):
    _run(lambda F, m, x: F.dropout(x, 0.0 if training else 0.7, training=training), X)


def test_dropout_downscale_in_infer():
    _run(lambda F, m, x: F.dropout(x, 0.3, training=False, mode="downscale_in_infer"), X)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name,kw", [("mse_loss", {}), ("l1_loss", {}),
                                     ("smooth_l1_loss", {}),
                                     ("smooth_l1_loss", {"delta": 0.3})])
def test_regression(name, kw, reduction):
    _run(lambda F, m, x, y: getattr(F, name)(x, y, reduction=reduction, **kw), X, Y)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_classification(reduction):
    _run(lambda F, m, x, lab: F.cross_entropy(x, lab, reduction=reduction), X, LAB)
    _run(lambda F, m, x, lab: F.nll_loss(F.log_softmax(x), lab, reduction=reduction), X, LAB)
    p = 1 / (1 + np.exp(-X))
    t = (Y > 0).astype("float32")
    _run(lambda F, m, x: F.binary_cross_entropy(x, m.to_tensor(t), reduction=reduction), p)
    _run(lambda F, m, x: F.binary_cross_entropy_with_logits(x, m.to_tensor(t),
                                                            reduction=reduction), X)


def test_softmax_with_cross_entropy():
    _run(lambda F, m, x, lab: F.softmax_with_cross_entropy(x, lab), X, LAB[:, None])


def test_one_hot():
    a, b = (m.nn.functional.one_hot(m.to_tensor(LAB), 6) for m in (paddle, paddlelike))
    assert repr(a) == repr(b)


@pytest.mark.parametrize("mode", ["upscale_in_train", "downscale_in_infer"])
def test_dropout_along_an_axis_shares_the_mask(mode):
    def probe(m):
        m.seed(0)
        y = m.nn.functional.dropout(m.ones([2000, 4]), 0.5, axis=0, mode=mode).numpy()
        return (sorted(set(y.ravel().tolist())), bool((y[:, :1] == y).all()),
                round(float((y[:, 0] == 0).mean()), 1))
    assert probe(paddle) == probe(paddlelike)
