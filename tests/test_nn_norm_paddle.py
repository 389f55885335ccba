"""Normalisation, embedding and structured dropout against real paddle 3.3: outputs,
gradients, the running statistics ``_mean``/``_variance`` after several training steps
(paddle's momentum and biased variance), eval mode, state_dict keys, reprs, errors,
.pdparams checkpoints both ways."""
from __future__ import annotations

import numpy as np
import pytest

import paddlelike

from .norm_steps import train_side_by_side
from .tolerance import assert_kernels_close

paddle = pytest.importorskip("paddle")

RNG = np.random.default_rng(11)


def _randomise(layer) -> None:
    for name, p in layer.named_parameters():
        if not name.startswith("_"):
            p.set_value(RNG.standard_normal(p.shape).astype("float32"))


def _copy(src, dst) -> None:
    dst.set_state_dict({k: paddlelike.to_tensor(v.numpy()) for k, v in
                        src.state_dict().items()})


def _steps(p_mod, j_mod, shape):
    # (paddle's float64 LocalResponseNorm gradient is off by 1e-10: not a float64 oracle)
    train_side_by_side(p_mod, j_mod, shape,
                       lambda x, g: paddle.to_tensor(x, stop_gradient=not g),
                       lambda x, g: paddlelike.to_tensor(x, stop_gradient=not g), RNG,
                       wide_grads=not isinstance(p_mod, paddle.nn.LocalResponseNorm))


@pytest.mark.parametrize("fn", ["batch_norm", "layer_norm", "instance_norm"])
def test_float64_norms_add_epsilon_as_float32_like_paddle(fn):
    """paddle keeps a norm's epsilon (and momentum) attribute in float32: a float64 input
    is normalised with float32(1e-5), which a small variance shows."""
    x = np.random.default_rng(3).standard_normal((4, 4, 2, 2)) * 0.01
    out = []
    for fw in (paddle, paddlelike):
        args = {"batch_norm": (fw.zeros([4], "float64"), fw.ones([4], "float64")),
                "layer_norm": ([4, 2, 2],), "instance_norm": ()}[fn]
        kw = {"training": True} if fn == "batch_norm" else {}
        out.append(getattr(fw.nn.functional, fn)(fw.to_tensor(x), *args, **kw).numpy())
    assert_kernels_close(out[1], out[0], n=16)


@pytest.mark.parametrize("make,shape", [
    (lambda nn: nn.BatchNorm2D(3), (4, 3, 2, 2)),
    (lambda nn: nn.BatchNorm2D(3, momentum=0.3, epsilon=1e-3), (2, 3, 3, 2)),
    (lambda nn: nn.BatchNorm2D(3, data_format="NHWC"), (2, 2, 3, 3)),
    (lambda nn: nn.BatchNorm1D(4), (5, 4)),
    (lambda nn: nn.BatchNorm1D(4, weight_attr=False, bias_attr=False), (3, 4, 6)),
    (lambda nn: nn.BatchNorm3D(2), (2, 2, 2, 2, 3)),
    (lambda nn: nn.BatchNorm2D(2, use_global_stats=True), (3, 2, 2, 2)),
    (lambda nn: nn.BatchNorm(3), (4, 3, 2, 2)),
    (lambda nn: nn.InstanceNorm2D(3), (2, 3, 3, 4)),
    (lambda nn: nn.InstanceNorm1D(3, weight_attr=False, bias_attr=False), (2, 3, 5)),
    (lambda nn: nn.GroupNorm(2, 4), (3, 4, 5)),
    (lambda nn: nn.GroupNorm(2, 4, data_format="NHWC"), (2, 3, 3, 4)),
    (lambda nn: nn.LocalResponseNorm(3, alpha=0.1, k=2.0), (2, 5, 3)),
    (lambda nn: nn.LocalResponseNorm(2, data_format="NHWC"), (2, 3, 2, 4)),
])
def test_layers_train_and_eval_like_paddle(make, shape):
    p_mod, j_mod = make(paddle.nn), make(paddlelike.nn)
    _randomise(p_mod)
    _copy(p_mod, j_mod)
    assert repr(j_mod) == repr(p_mod)
    assert list(j_mod.state_dict()) == list(p_mod.state_dict())
    assert [n for n, _ in j_mod.named_parameters()] == [n for n, _ in p_mod.named_parameters()]
    _steps(p_mod, j_mod, shape)


def test_batch_norm_one_value_per_channel_passes_through():
    for lib in (paddle, paddlelike):
        m = lib.nn.BatchNorm1D(2)
        x = lib.to_tensor(np.array([[1.5, -2.0]], "float32"))
        np.testing.assert_array_equal(m(x).numpy(), x.numpy())
        np.testing.assert_array_equal(m._mean.numpy(), [0.0, 0.0])


def test_embedding_like_paddle():
    p = paddle.nn.Embedding(6, 3, padding_idx=2)
    j = paddlelike.nn.Embedding(6, 3, padding_idx=2)
    assert repr(j) == repr(p)
    assert not j.weight.numpy()[2].any()
    w = RNG.standard_normal((6, 3)).astype("float32")
    p.weight.set_value(w)
    j.weight.set_value(w)
    ids = np.array([[1, 2, 1], [3, 2, 4]])
    yp, yj = p(paddle.to_tensor(ids)), j(paddlelike.to_tensor(ids))
    np.testing.assert_array_equal(yj.numpy(), yp.numpy())  # the padding id reads zeros
    (yp ** 2).sum().backward()
    (yj ** 2).sum().backward()
    assert_kernels_close(j.weight.grad.numpy(), p.weight.grad.numpy())
    # XavierUniform by default
    limit = np.sqrt(6 / 1064)
    big = paddlelike.nn.Embedding(1000, 64).weight.numpy()
    assert np.abs(big).max() <= limit and np.abs(big).max() > 0.9 * limit


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.BatchNorm2D(3)(lib.zeros([2, 3])),
    lambda lib: lib.nn.functional.group_norm(lib.zeros([2, 4, 3]), 3),
    lambda lib: lib.nn.functional.local_response_norm(lib.zeros([2, 3]), 2),
    lambda lib: lib.nn.functional.dropout2d(lib.zeros([2, 3, 4])),
    lambda lib: lib.nn.functional.dropout3d(lib.zeros([2, 3, 4, 5])),
    lambda lib: lib.nn.functional.alpha_dropout(lib.zeros([2, 3]), p=1.5),
    lambda lib: lib.nn.Embedding(5, 3)(lib.to_tensor([5])),
    lambda lib: lib.nn.Embedding(5, 3, padding_idx=5),
])
def test_errors_like_paddle(call):
    with pytest.raises(Exception) as e_p:
        call(paddle)
    with pytest.raises(type(e_p.value)) as e_j:
        call(paddlelike)
    assert str(e_p.value).startswith(str(e_j.value).split("\n")[0][:60])


def test_dropout_variants_like_paddle():
    paddlelike.seed(0)
    x = paddlelike.ones([6, 5, 3, 3])
    y = paddlelike.nn.Dropout2D(0.5)(x).numpy().reshape(6, 5, -1)
    assert set(np.unique(y)) <= {0.0, 2.0} and (y.max(axis=2) == y.min(axis=2)).all()
    y = paddlelike.nn.functional.dropout2d(paddlelike.ones([6, 3, 3, 5]), 0.5,
                                           data_format="NHWC").numpy()
    assert (y.max(axis=(1, 2)) == y.min(axis=(1, 2))).all()
    y = paddlelike.nn.Dropout3D(0.5)(paddlelike.ones([2, 3, 2, 2, 2])).numpy()
    assert (y.reshape(2, 3, -1).max(axis=2) == y.reshape(2, 3, -1).min(axis=2)).all()
    z = paddlelike.nn.AlphaDropout(0.2)(paddlelike.randn([200, 500])).numpy()
    assert abs(z.mean()) < 0.02 and abs(z.std() - 1.0) < 0.02
    for name in ("Dropout2D", "Dropout3D", "AlphaDropout", "FeatureAlphaDropout"):
        assert repr(getattr(paddlelike.nn, name)(0.3)) == repr(getattr(paddle.nn, name)(0.3))
    m = paddlelike.nn.AlphaDropout(0.5)
    m.eval()
    assert m(x) is x


def test_unflatten_like_paddle():
    u, up = paddlelike.nn.Unflatten(1, [2, 3]), paddle.nn.Unflatten(1, [2, 3])
    assert repr(u) == repr(up)
    assert u(paddlelike.zeros([4, 6, 5])).shape == [4, 2, 3, 5]


def _net(nn):
    return nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1D(4), nn.Embedding(5, 4),
                         nn.GroupNorm(2, 4), nn.InstanceNorm1D(4))


@pytest.mark.parametrize("src,dst", [("paddle", "paddlelike"), ("paddlelike", "paddle")])
def test_checkpoints_both_ways(src, dst, tmp_path):
    libs = {"paddle": paddle, "paddlelike": paddlelike}
    a, b = _net(libs[src].nn), _net(libs[dst].nn)
    a[1](libs[src].randn([6, 4]))  # moves the running statistics
    path = str(tmp_path / "m.pdparams")
    libs[src].save(a.state_dict(), path)
    missing, unexpected = b.set_state_dict(libs[dst].load(path))
    assert missing == [] and unexpected == []
    assert list(b.state_dict()) == list(a.state_dict())
    for k, v in a.state_dict().items():
        np.testing.assert_array_equal(b.state_dict()[k].numpy(), v.numpy())


def test_batch_norm_on_the_fake_gpu():
    from janusgrad.core.autograd import backward
    from janusgrad.nn import norm as NN
    from janusgrad.ops import reduce as R

    from .fake_gpu import FakeGpuArray, installed
    with installed():
        from janusgrad import Tensor
        from janusgrad.array import backend
        dev = backend.Device("gpu", 0)
        x = Tensor(backend.from_host(RNG.standard_normal((4, 3, 2)), dev))
        x.set_requires_grad(True)
        rm = Tensor(backend.from_host(np.zeros(3), dev))
        rv = Tensor(backend.from_host(np.ones(3), dev))
        y = NN.batch_norm(x, rm, rv, None, None, True, 0.9, 1e-5, 1, history_weight=True,
                          unbiased_running=False)
        backward([R.sum(NN.local_response_norm(y, 2))])
        assert type(x.grad.array) is FakeGpuArray and type(rm.array) is FakeGpuArray
        out = NN.masked_dropout(y, 0.5, True, NN.feature_mask_shape((4, 3, 2)), alpha=True)
        assert type(out.array) is FakeGpuArray
