"""Normalisation, embedding and structured dropout against real torch: outputs, input and
parameter gradients, running statistics over several training steps, eval mode, state_dict
keys, reprs, errors, checkpoints both ways."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import torchlike
from torchlike import nn as jnn

from .norm_steps import train_side_by_side
from .tolerance import assert_kernels_close

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(7)


def _copy_params(src, dst) -> None:
    """torch module ``src``'s parameters and buffers into torchlike module ``dst``."""
    dst.load_state_dict({k: torchlike.tensor(v.detach().numpy().copy())
                         for k, v in src.state_dict().items()})


def _randomise(m) -> None:
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.from_numpy(RNG.standard_normal(tuple(p.shape)).astype("float32")))


def _steps(t_mod, j_mod, shape):
    train_side_by_side(t_mod, j_mod, shape,
                       lambda x, g: torch.tensor(x, requires_grad=g),
                       lambda x, g: torchlike.tensor(x, requires_grad=g), RNG)


@pytest.mark.parametrize("make,shape", [
    (lambda nn: nn.BatchNorm2d(3), (4, 3, 2, 2)),
    (lambda nn: nn.BatchNorm2d(3, momentum=0.3, eps=1e-3), (2, 3, 3, 2)),
    (lambda nn: nn.BatchNorm2d(3, momentum=None), (4, 3, 2, 2)),
    (lambda nn: nn.BatchNorm1d(4), (5, 4)),
    (lambda nn: nn.BatchNorm1d(4, affine=False), (3, 4, 6)),
    (lambda nn: nn.BatchNorm3d(2, track_running_stats=False), (2, 2, 2, 2, 3)),
    (lambda nn: nn.BatchNorm2d(2, bias=False), (3, 2, 2, 2)),
    (lambda nn: nn.InstanceNorm2d(3, affine=True, track_running_stats=True), (2, 3, 3, 4)),
    (lambda nn: nn.InstanceNorm1d(3), (2, 3, 5)),
    (lambda nn: nn.GroupNorm(2, 4), (3, 4, 5)),
    (lambda nn: nn.GroupNorm(1, 3, affine=False), (2, 3, 2, 2)),
    (lambda nn: nn.LocalResponseNorm(3, alpha=0.1, k=2.0), (2, 5, 3)),
    (lambda nn: nn.LocalResponseNorm(2), (2, 4, 2, 3)),
])
def test_layers_train_and_eval_like_torch(make, shape):
    t_mod, j_mod = make(torch.nn), make(jnn)
    _randomise(t_mod)
    _copy_params(t_mod, j_mod)
    assert repr(j_mod) == repr(t_mod)
    assert list(j_mod.state_dict()) == list(t_mod.state_dict())
    _steps(t_mod, j_mod, shape)


def test_lazy_batch_norm_takes_its_size_from_the_first_input():
    m = jnn.LazyBatchNorm2d()
    assert repr(m) == repr(torch.nn.LazyBatchNorm2d())
    m(torchlike.randn(2, 5, 3, 3))
    assert type(m) is jnn.BatchNorm2d and tuple(m.running_mean.shape) == (5,)
    assert repr(m) == repr(torch.nn.BatchNorm2d(5))
    assert int(m.num_batches_tracked) == 1


def test_second_derivative_through_batch_norm():
    x = RNG.standard_normal((4, 2, 3))
    out = []
    for lib in (torch, torchlike):
        xt = lib.tensor(x, requires_grad=True)
        w = lib.tensor(np.array([1.5, -0.5]), requires_grad=True)
        y = lib.nn.functional.batch_norm(xt, None, None, w, None, training=True)
        (g,) = lib.autograd.grad((y ** 3).sum(), xt, create_graph=True)
        (gg,) = lib.autograd.grad((g ** 2).sum(), w)
        out.append((g.detach().numpy(), gg.numpy()))
    np.testing.assert_allclose(out[1][0], out[0][0], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(out[1][1], out[0][1], rtol=1e-10, atol=1e-10)


def test_embedding_padding_row_and_max_norm_like_torch():
    t = torch.nn.Embedding(6, 3, padding_idx=2, max_norm=1.0)
    j = jnn.Embedding(6, 3, padding_idx=2, max_norm=1.0)
    with torch.no_grad():
        t.weight.copy_(torch.from_numpy(RNG.standard_normal((6, 3)).astype("float32") * 2))
    _copy_params(t, j)
    assert repr(j) == repr(t) == "Embedding(6, 3, padding_idx=2, max_norm=1.0)"
    ids = np.array([[1, 2, 1], [3, 2, 4]])
    yt, yj = t(torch.tensor(ids)), j(torchlike.tensor(ids))
    assert_kernels_close(yj.detach().numpy(), yt.detach().numpy())
    # the looked-up rows were renormalised in the weight itself, the others not
    assert_kernels_close(j.weight.detach().numpy(), t.weight.detach().numpy())
    (yt ** 2).sum().backward()
    (yj ** 2).sum().backward()
    assert_kernels_close(j.weight.grad.numpy(), t.weight.grad.numpy(), k=32)
    assert not j.weight.grad.numpy()[2].any()


def test_embedding_reads_the_stored_padding_row_and_from_pretrained():
    j = jnn.Embedding(4, 2, padding_idx=-1)
    assert j.padding_idx == 3 and not j.weight.detach().numpy()[3].any()
    with torchlike.no_grad():
        j.weight.fill_(1.0)
    assert j(torchlike.tensor([3])).detach().numpy().tolist() == [[1.0, 1.0]]
    e = jnn.Embedding.from_pretrained(torchlike.ones(2, 3))
    assert not e.weight.requires_grad and repr(e) == "Embedding(2, 3)"
    assert jnn.Embedding(10, 3).weight.detach().numpy().std() > 0.3  # N(0, 1)


def test_torch_namespace_names():
    x = RNG.standard_normal((3, 4, 2))
    w, b = RNG.standard_normal(4), RNG.standard_normal(4)
    rm, rv = np.zeros(4), np.ones(4)
    outs = []
    for lib in (torch, torchlike):
        T = lib.tensor
        outs.append([
            lib.batch_norm(T(x), T(w), T(b), T(rm), T(rv), False, 0.1, 1e-5, False),
            lib.group_norm(T(x), 2, T(w), T(b)),
            lib.instance_norm(T(x), T(w), T(b), None, None, True, 0.1, 1e-5, False),
            lib.embedding(T(x[0]), T(np.array([1, 0, 1]))),
            *lib.native_batch_norm(T(x), T(w), T(b), T(rm.copy()), T(rv.copy()), True, 0.1,
                                   1e-5),
            *lib.native_group_norm(T(x), T(w), T(b), 3, 4, 2, 2, 1e-5),
        ])
    for a, e in zip(outs[1], outs[0]):
        assert tuple(a.shape) == tuple(e.shape)
        np.testing.assert_allclose(a.detach().numpy(), e.detach().numpy(), rtol=1e-9,
                                   atol=1e-9)


@pytest.mark.parametrize("call,exc", [
    (lambda lib: lib.nn.BatchNorm2d(3)(lib.zeros(2, 3)), ValueError),
    (lambda lib: lib.nn.BatchNorm1d(3)(lib.zeros(2, 3, 4, 5)), ValueError),
    (lambda lib: lib.nn.BatchNorm1d(2)(lib.zeros(1, 2)), ValueError),
    (lambda lib: lib.nn.functional.batch_norm(lib.zeros(3, 2), lib.zeros(3), lib.ones(3),
                                              training=True), RuntimeError),
    (lambda lib: lib.nn.GroupNorm(3, 4), ValueError),
    (lambda lib: lib.nn.functional.group_norm(lib.zeros(2, 4, 3), 3), RuntimeError),
    (lambda lib: lib.nn.InstanceNorm2d(3, affine=True)(lib.zeros(2, 4, 4, 5)), ValueError),
    (lambda lib: lib.nn.functional.instance_norm(lib.zeros(2, 3, 1)), ValueError),
    (lambda lib: lib.nn.functional.local_response_norm(lib.zeros(2, 3), 2), ValueError),
    (lambda lib: lib.nn.Embedding(5, 3)(lib.tensor([5])), IndexError),
    (lambda lib: lib.nn.Embedding(5, 3)(lib.tensor([1.0])), RuntimeError),
    (lambda lib: lib.nn.Embedding(5, 3, padding_idx=5), AssertionError),
    (lambda lib: lib.nn.Dropout2d(1.5), ValueError),
    (lambda lib: lib.nn.functional.dropout1d(lib.zeros(2, 3, 4, 5)), RuntimeError),
])
def test_errors_like_torch(call, exc):
    with pytest.raises(exc) as e_t:
        call(torch)
    with pytest.raises(exc) as e_j:
        call(torchlike)
    assert str(e_j.value) == str(e_t.value)


def test_dropout_variants_zero_whole_channels():
    torchlike.manual_seed(0)
    x = torchlike.ones(8, 6, 4, 4, requires_grad=True)
    y = jnn.Dropout2d(0.5)(x)
    per_channel = y.detach().numpy().reshape(8, 6, -1)
    assert set(np.unique(per_channel)) <= {0.0, 2.0}
    assert (per_channel.min(axis=2) == per_channel.max(axis=2)).all()
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.detach().numpy())
    y3 = jnn.Dropout3d(0.5)(torchlike.ones(3, 4, 2, 2, 2)).numpy().reshape(3, 4, -1)
    assert (y3.min(axis=2) == y3.max(axis=2)).all()
    y1 = jnn.Dropout1d(0.5)(torchlike.ones(4, 5)).numpy()  # unbatched (C, L)
    assert (y1.min(axis=1) == y1.max(axis=1)).all()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        torchlike.nn.functional.dropout2d(torchlike.ones(2, 3, 4))
    assert "Received a 3D input to dropout2d" in str(w[0].message)
    m = jnn.Dropout2d(0.5).eval()
    assert m(x) is x


def test_alpha_dropout_keeps_mean_and_variance():
    torchlike.manual_seed(1)
    x = torchlike.randn(200, 500)
    y = torchlike.nn.functional.alpha_dropout(x, 0.2, training=True).numpy()
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1.0) < 0.02
    z = torchlike.nn.functional.feature_alpha_dropout(torchlike.randn(50, 40, 30), 0.3, True)
    dropped = z.numpy().reshape(50, 40, -1)
    assert (dropped.max(axis=2) == dropped.min(axis=2)).any()  # whole channels saturated
    assert repr(jnn.AlphaDropout(0.3)) == repr(torch.nn.AlphaDropout(0.3))
    assert torchlike.nn.functional.alpha_dropout(x, 1.0, True).numpy().max() == 0


def test_unflatten_and_identity():
    u, ut = jnn.Unflatten(1, (2, 3)), torch.nn.Unflatten(1, (2, 3))
    assert repr(u) == repr(ut)
    assert tuple(u(torchlike.zeros(4, 6, 5)).shape) == (4, 2, 3, 5)
    assert repr(jnn.Identity(3, k=1)) == "Identity()"


def _bn_net(nn):
    return nn.Sequential(nn.Linear(4, 4),
                         nn.BatchNorm1d(4), nn.Embedding(5, 4), nn.GroupNorm(2, 4))


@pytest.mark.parametrize("src,dst", [("torch", "torchlike"), ("torchlike", "torch")])
def test_checkpoints_both_ways(src, dst, tmp_path):
    libs = {"torch": torch, "torchlike": torchlike}
    a, b = _bn_net(libs[src].nn), _bn_net(libs[dst].nn)
    a[1](libs[src].randn(6, 4))  # moves the running statistics off their initial values
    path = tmp_path / "m.pt"
    libs[src].save(a.state_dict(), path)
    state = libs[dst].load(path)
    b.load_state_dict(state)
    assert list(b.state_dict()) == list(a.state_dict())
    for k, v in a.state_dict().items():
        np.testing.assert_array_equal(b.state_dict()[k].numpy(), v.detach().numpy())
    assert int(b[1].num_batches_tracked) == 1


def test_batch_norm_on_the_fake_gpu():
    from .fake_gpu import installed
    with installed():
        m = jnn.BatchNorm2d(3).to("cuda")
        x = torchlike.randn(4, 3, 2, 2, device="cuda", requires_grad=True)
        m(x).sum().backward()
        assert x.grad.device.type == "cuda" and m.running_mean.device.type == "cuda"
        e = jnn.Embedding(5, 2, padding_idx=0).to("cuda")
        y = e(torchlike.tensor([[0, 1], [4, 0]], device="cuda"))
        y.sum().backward()
        assert e.weight.grad.device.type == "cuda"
        assert not e.weight.grad.cpu().numpy()[0].any()
        g = jnn.GroupNorm(1, 3).to("cuda")(x)
        assert g.device.type == "cuda"
