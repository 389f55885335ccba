"""Convolutions against real torch and real paddle: values, input/weight/bias gradients,
double backward (torch), printed form, state_dict keys, default initialisation, errors,
checkpoints both ways; and the engine's conv ops on the fake GPU."""
from __future__ import annotations

import numpy as np
import pytest

from janusgrad import Tensor
from janusgrad.array import backend
from janusgrad.core.autograd import backward
from janusgrad.nn import conv as NC

from .tolerance import assert_kernels_close


def assert_close(actual, expected):
    # (a conv's outputs and gradients sum a few hundred products at most here)
    assert_kernels_close(actual, expected, n=512)


torch = pytest.importorskip("torch")
torch.set_num_threads(1)
import torchlike  # noqa: E402
import torchlike.nn.functional as TF  # noqa: E402

RNG = np.random.default_rng(0)


def _np(t):
    return t.detach().numpy() if hasattr(t, "detach") else t.numpy()


# ---------------------------------------------------------------- torch
CONV_CASES = [
    ("conv1d", (2, 4, 9), (6, 2, 3), dict(groups=2, stride=2, padding=1)),
    ("conv1d", (4, 9), (6, 4, 3), dict(padding="same", dilation=2)),
    ("conv2d", (2, 3, 8, 7), (5, 3, 3, 2), dict()),
    ("conv2d", (2, 4, 8, 7), (6, 2, 3, 3), dict(stride=(2, 1), padding=(1, 2), dilation=2,
                                                  groups=2)),
    ("conv2d", (2, 4, 8, 7), (4, 1, 2, 3), dict(padding="same", groups=4)),
    ("conv2d", (3, 8, 7), (5, 3, 3, 3), dict(padding="valid")),
    ("conv3d", (1, 2, 4, 5, 3), (3, 2, 2, 3, 2), dict(padding=1, stride=(1, 2, 1))),
    ("conv_transpose1d", (2, 4, 5), (4, 3, 3), dict(stride=2, output_padding=1)),
    ("conv_transpose2d", (2, 4, 5, 4), (4, 3, 3, 2), dict(stride=2, padding=1,
                                                           output_padding=(1, 0))),
    ("conv_transpose2d", (2, 4, 5, 4), (4, 1, 3, 3), dict(groups=2, dilation=2,
                                                           output_padding=1)),
    ("conv_transpose3d", (1, 2, 3, 2, 3), (2, 2, 2, 2, 2), dict(stride=2)),
]


@pytest.mark.parametrize("name,xs,ws,kw", CONV_CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_torch_conv_values_and_gradients(name, xs, ws, kw, dtype):
    x = RNG.standard_normal(xs).astype(dtype)
    w = RNG.standard_normal(ws).astype(dtype)
    cout = ws[1] * kw.get("groups", 1) if "transpose" in name else ws[0]
    b = RNG.standard_normal(cout).astype(dtype)
    ours = [torchlike.tensor(a, requires_grad=True) for a in (x, w, b)]
    real = [torch.tensor(a, requires_grad=True) for a in (x, w, b)]
    y = getattr(TF, name)(*ours, **kw)
    y2 = getattr(torch.nn.functional, name)(*real, **kw)
    assert tuple(y.shape) == tuple(y2.shape) and str(y.dtype) == str(y2.dtype)
    assert_close(_np(y), _np(y2))
    if len(xs) == len(ws):
        assert type(y.grad_fn).__name__ == type(y2.grad_fn).__name__
    g = RNG.standard_normal(y2.shape).astype(dtype)
    y.backward(torchlike.tensor(g))
    y2.backward(torch.tensor(g))
    for a, r in zip(ours, real):
        assert_close(_np(a.grad), _np(r.grad))


@pytest.mark.parametrize("name,xs,ws,kw", [CONV_CASES[3], CONV_CASES[8]])
def test_torch_conv_double_backward(name, xs, ws, kw):
    x = RNG.standard_normal(xs)
    w = RNG.standard_normal(ws)
    res = []
    for lib, F in ((torchlike, TF), (torch, torch.nn.functional)):
        X, W = lib.tensor(x, requires_grad=True), lib.tensor(w, requires_grad=True)
        y = getattr(F, name)(X, W, **kw)
        gx, gw = lib.autograd.grad((y * y).sum(), (X, W), create_graph=True)
        hx, hw = lib.autograd.grad((gx * gx).sum() + (gw.sin()).sum(), (X, W))
        res.append([_np(t) for t in (gx, gw, hx, hw)])
    for a, b in zip(*res):
        assert_close(a, b)


@pytest.mark.parametrize("kw", [dict(kernel_size=(2, 3)),
                                dict(kernel_size=2, dilation=2, padding=1, stride=(2, 1))])
def test_torch_unfold_fold(kw):
    x = RNG.standard_normal((2, 3, 7, 6))
    X, X2 = torchlike.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    u, u2 = TF.unfold(X, **kw), torch.nn.functional.unfold(X2, **kw)
    assert_close(_np(u), _np(u2))
    f, f2 = TF.fold(u, (7, 6), **kw), torch.nn.functional.fold(u2, (7, 6), **kw)
    assert_close(_np(f), _np(f2))
    f.sum().backward()
    f2.sum().backward()
    assert_close(_np(X.grad), _np(X2.grad))
    assert type(u.grad_fn).__name__ == type(u2.grad_fn).__name__


ERRORS = [
    lambda F, t: F.conv2d(t.randn(2, 3), t.randn(6, 1, 5, 5)),
    lambda F, t: F.conv2d(t.randn(2, 3, 28, 28), t.randn(6, 1, 5, 5)),
    lambda F, t: F.conv2d(t.randn(2, 4, 28, 28), t.randn(6, 2, 5, 5), groups=4),
    lambda F, t: F.conv2d(t.randn(2, 1, 3, 3), t.randn(6, 1, 5, 5)),
    lambda F, t: F.conv2d(t.randn(2, 1, 8, 8), t.randn(6, 1, 5, 5), stride=2, padding="same"),
    lambda F, t: F.conv2d(t.randn(2, 1, 8, 8), t.randn(6, 1, 5, 5), padding="foo"),
    lambda F, t: F.conv2d(t.randn(2, 1, 8, 8), t.randn(6, 1, 5, 5).double()),
    lambda F, t: F.conv2d(t.randn(2, 1, 8, 8), t.randn(6, 1, 5, 5), t.randn(5)),
    lambda F, t: F.conv2d(t.randn(2, 1, 8, 8), t.randn(6, 1, 5, 5), padding=-1),
    lambda F, t: F.conv2d(t.randn(2, 1, 8, 8), t.randn(6, 1, 5, 5), stride=0),
    lambda F, t: F.conv1d(t.randn(2, 1, 8, 8), t.randn(6, 1, 5)),
    lambda F, t: F.conv2d(t.randn(2, 1, 8, 8), t.randn(6, 1, 5)),
    lambda F, t: F.conv_transpose2d(t.randn(2, 3, 8, 8), t.randn(6, 1, 5, 5)),
    lambda F, t: F.conv_transpose2d(t.randn(2, 6, 8, 8), t.randn(6, 1, 5, 5), output_padding=2),
    lambda F, t: t.nn.Conv2d(3, 6, 5, groups=2),
    lambda F, t: t.nn.Conv2d(4, 6, 5, groups=4),
    lambda F, t: t.nn.Conv2d(4, 6, 5, padding="same", stride=2),
    lambda F, t: t.nn.Conv2d(4, 6, 5, padding_mode="foo"),
    lambda F, t: t.nn.Conv2d(4, 6, 5, padding="bar"),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_torch_conv_errors(i):
    caught = []
    for F, t in ((TF, torchlike), (torch.nn.functional, torch)):
        with pytest.raises(Exception) as e:
            ERRORS[i](F, t)
        caught.append(e)
    assert caught[0].type is caught[1].type
    a, b = str(caught[0].value), str(caught[1].value)
    if "{" in b:  # (torch prints a set there: its order varies from run to run)
        a, b = a.split("{")[0] + a.split("}")[1], b.split("{")[0] + b.split("}")[1]
    assert a == b


MODULES = [
    "Conv2d(1, 6, 5, padding=2)", "Conv2d(1, 6, (5, 3), stride=2, padding=1, dilation=2, "
    "bias=False, padding_mode='reflect')", "Conv1d(4, 6, 3, groups=2)",
    "ConvTranspose2d(4, 6, 3, stride=2, output_padding=1)", "Conv2d(1, 6, 5, padding='same')",
    "Conv3d(1, 6, 3)", "Unfold(2)", "Fold((4, 5), 2)",
    "Unfold((2, 3), dilation=2, padding=1, stride=2)",
    "Conv2d(2, 4, 3, padding='same', padding_mode='circular')",
    "Conv2d(2, 4, (3, 2), padding=(1, 2), padding_mode='replicate', stride=2)",
    "ConvTranspose1d(4, 2, 3, groups=2, dilation=2)", "LazyConv2d(6, 5)",
]


@pytest.mark.parametrize("src", MODULES)
def test_torch_conv_modules(src, tmp_path):
    real = eval("torch.nn." + src)
    ours = eval("torchlike.nn." + src)
    assert repr(ours) == repr(real)
    if src.startswith(("Unfold", "Fold", "Lazy")):
        return
    assert [(k, tuple(v.shape)) for k, v in ours.state_dict().items()] == \
        [(k, tuple(v.shape)) for k, v in real.state_dict().items()]
    # real torch's checkpoint loads into ours; ours loads back into real torch
    torch.save(real.state_dict(), tmp_path / "c.pt")
    ours.load_state_dict(torchlike.load(tmp_path / "c.pt"))
    torchlike.save(ours.state_dict(), tmp_path / "d.pt")
    real.load_state_dict(torch.load(tmp_path / "d.pt"))
    nd = len(real.kernel_size)
    x = RNG.standard_normal((2, real.in_channels) + (7, 6, 5)[:nd]).astype(np.float32)
    X, X2 = torchlike.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    y, y2 = ours(X), real(X2)
    assert_close(_np(y), _np(y2))
    y.sum().backward()
    y2.sum().backward()
    assert_close(_np(X.grad), _np(X2.grad))
    for (_, p), (_, p2) in zip(ours.named_parameters(), real.named_parameters()):
        assert_close(_np(p.grad), _np(p2.grad))


def test_torch_default_init_bounds():
    torchlike.manual_seed(0)
    m = torchlike.nn.Conv2d(3, 8, (3, 2))
    fan_in = 3 * 6
    bound = 1 / np.sqrt(fan_in)  # kaiming_uniform(a=sqrt(5)) gives the same bound
    w, b = _np(m.weight), _np(m.bias)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.8 * bound
    assert np.abs(b).max() <= bound and w.dtype == np.float32
    t = torchlike.nn.ConvTranspose2d(3, 8, 3)  # fan_in from weight.shape[1] * 9
    assert np.abs(_np(t.bias)).max() <= 1 / np.sqrt(8 * 9)


def test_torch_lazy_conv_becomes_conv():
    m = torchlike.nn.LazyConv2d(6, 5)
    assert repr(m.weight) == "<UninitializedParameter>"
    y = m(torchlike.randn(2, 3, 9, 9))
    assert type(m).__name__ == "Conv2d" and tuple(m.weight.shape) == (6, 3, 5, 5)
    assert tuple(y.shape) == (2, 6, 5, 5)
    assert repr(m) == "Conv2d(3, 6, kernel_size=(5, 5), stride=(1, 1))"


def test_torch_conv_transpose_output_size():
    real = torch.nn.ConvTranspose2d(2, 4, 3, stride=2)
    ours = torchlike.nn.ConvTranspose2d(2, 4, 3, stride=2)
    ours.load_state_dict({k: torchlike.tensor(_np(v)) for k, v in real.state_dict().items()})
    x = RNG.standard_normal((1, 2, 4, 4)).astype(np.float32)
    y = ours(torchlike.tensor(x), output_size=(10, 10))
    y2 = real(torch.tensor(x), output_size=(10, 10))
    assert_close(_np(y), _np(y2))


def test_torch_namespace_names():
    x = torchlike.randn(1, 2, 5, 5)
    w = torchlike.randn(3, 2, 3, 3)
    assert_close(_np(torchlike.conv2d(x, w, None, 1, 1)), _np(TF.conv2d(x, w, None, 1, 1)))
    assert torchlike.conv_transpose2d is not None and torchlike.conv1d is not None


# ---------------------------------------------------------------- paddle
def _paddle():
    return pytest.importorskip("paddle")


PADDLE_CASES = [
    ("conv2d", (2, 4, 7, 6), (6, 2, 3, 2), dict(groups=2)),
    ("conv2d", (2, 4, 7, 6), (6, 2, 3, 2), dict(stride=2, padding=1, dilation=2, groups=2)),
    ("conv2d", (2, 4, 7, 6), (6, 4, 3, 3), dict(padding="SAME", stride=2)),
    ("conv2d", (2, 4, 7, 6), (6, 4, 3, 3), dict(padding=[0, 1, 2, 0])),
    ("conv2d", (2, 4, 7, 6), (6, 4, 3, 3), dict(padding=[[0, 0], [0, 0], [1, 0], [2, 1]])),
    ("conv2d", (2, 7, 6, 4), (6, 4, 3, 3), dict(padding=1, data_format="NHWC")),
    ("conv1d", (2, 4, 9), (6, 4, 3), dict(padding="valid", stride=2)),
    ("conv2d_transpose", (2, 4, 5, 4), (4, 3, 3, 2), dict(stride=2, padding=1,
                                                           output_padding=1)),
    ("conv2d_transpose", (2, 4, 5, 4), (4, 3, 3, 3), dict(stride=2, output_size=[12, 10])),
    ("conv2d_transpose", (2, 4, 7, 6), (4, 3, 3, 3), dict(stride=2, padding="SAME")),
    ("conv1d_transpose", (2, 4, 5), (4, 3, 3), dict(stride=2)),
]


@pytest.mark.parametrize("name,xs,ws,kw", PADDLE_CASES)
def test_paddle_conv_values_and_gradients(name, xs, ws, kw):
    paddle = _paddle()
    import paddlelike
    import paddlelike.nn.functional as PF
    x = RNG.standard_normal(xs).astype(np.float32)
    w = RNG.standard_normal(ws).astype(np.float32)
    cout = ws[1] if "transpose" in name else ws[0]
    b = RNG.standard_normal(cout).astype(np.float32)
    ours = [paddlelike.to_tensor(a, stop_gradient=False) for a in (x, w, b)]
    real = [paddle.to_tensor(a, stop_gradient=False) for a in (x, w, b)]
    y = getattr(PF, name)(*ours, **kw)
    y2 = getattr(paddle.nn.functional, name)(*real, **kw)
    assert list(y.shape) == list(y2.shape)
    assert_close(y.numpy(), y2.numpy())
    g = RNG.standard_normal(y2.shape).astype(np.float32)
    (y * paddlelike.to_tensor(g)).sum().backward()
    (y2 * paddle.to_tensor(g)).sum().backward()
    for a, r in zip(ours, real):
        assert_close(a.grad.numpy(), r.grad.numpy())


def test_paddle_unfold_fold():
    paddle = _paddle()
    import paddlelike
    import paddlelike.nn.functional as PF
    x = RNG.standard_normal((2, 3, 7, 6)).astype(np.float32)
    u = PF.unfold(paddlelike.to_tensor(x), [2, 3], strides=2, paddings=[1, 0, 0, 1])
    u2 = paddle.nn.functional.unfold(paddle.to_tensor(x), [2, 3], strides=2,
                                     paddings=[1, 0, 0, 1])
    assert_close(u.numpy(), u2.numpy())
    c = RNG.standard_normal((2, 3 * 6, 4 * 3)).astype(np.float32)
    f = PF.fold(paddlelike.to_tensor(c), [7, 6], [2, 3], strides=2, paddings=1)
    f2 = paddle.nn.functional.fold(paddle.to_tensor(c), [7, 6], [2, 3], strides=2, paddings=1)
    assert_close(f.numpy(), f2.numpy())


PADDLE_LAYERS = [
    "Conv2D(1, 6, 5, padding=2)",
    "Conv2D(4, 6, (5, 3), stride=2, padding=1, dilation=2, groups=2, padding_mode='reflect')",
    "Conv1D(4, 6, 3)", "Conv2DTranspose(4, 6, 3, stride=2, output_padding=1)",
    "Conv1DTranspose(4, 6, 3)", "Conv3D(2, 4, 3, data_format='NDHWC')", "Unfold([2, 3])",
    "Fold([4, 5], 2)", "Conv2D(1, 6, 5, padding='SAME')",
    "Conv2D(4, 6, 3, padding=1, padding_mode='circular')",
]


@pytest.mark.parametrize("src", PADDLE_LAYERS)
def test_paddle_conv_layers(src, tmp_path):
    paddle = _paddle()
    import paddlelike
    real = eval("paddle.nn." + src)
    ours = eval("paddlelike.nn." + src)
    assert repr(ours) == repr(real)
    if src.startswith(("Unfold", "Fold")):
        return
    assert [(k, list(v.shape)) for k, v in ours.state_dict().items()] == \
        [(k, list(v.shape)) for k, v in real.state_dict().items()]
    paddle.save(real.state_dict(), str(tmp_path / "c.pdparams"))
    ours.set_state_dict(paddlelike.load(str(tmp_path / "c.pdparams")))
    paddlelike.save(ours.state_dict(), str(tmp_path / "d.pdparams"))
    real.set_state_dict(paddle.load(str(tmp_path / "d.pdparams")))
    nd = len(real._kernel_size)
    shape = (2, real._in_channels) + (7, 6, 5)[:nd]
    if real._data_format == "NDHWC":
        shape = (2, 7, 6, 5, real._in_channels)
    x = RNG.standard_normal(shape).astype(np.float32)
    X = paddlelike.to_tensor(x, stop_gradient=False)
    X2 = paddle.to_tensor(x, stop_gradient=False)
    y, y2 = ours(X), real(X2)
    assert_close(y.numpy(), y2.numpy())
    y.sum().backward()
    y2.sum().backward()
    assert_close(X.grad.numpy(), X2.grad.numpy())
    assert_close(ours.weight.grad.numpy(), real.weight.grad.numpy())


def test_paddle_default_init():
    _paddle()
    import paddlelike
    m = paddlelike.nn.Conv2D(16, 32, 3)
    std = np.sqrt(2.0 / (16 * 9))  # Normal(0, sqrt(2 / fan_in)), bias zeros
    assert abs(m.weight.numpy().std() - std) < 0.1 * std
    assert not m.bias.numpy().any()
    t = paddlelike.nn.Conv2DTranspose(16, 32, 3)  # XavierUniform over [16, 32, 3, 3]
    limit = np.sqrt(6.0 / ((32 + 16) * 9))
    assert np.abs(t.weight.numpy()).max() <= limit


# ---------------------------------------------------------------- fake GPU
def test_conv_ops_on_fake_gpu():
    from .fake_gpu import FakeGpuArray, installed
    x = RNG.standard_normal((2, 4, 6, 5))
    w = RNG.standard_normal((6, 2, 3, 2))
    b = RNG.standard_normal(6)
    wt = RNG.standard_normal((4, 3, 3, 2))

    def run(device):
        ts = [Tensor(backend.from_host(a, device)) for a in (x, w, b, wt)]
        for t in ts:
            t.set_requires_grad(True)
        y = NC.conv(ts[0], ts[1], ts[2], stride=(2, 1), padding=((1, 0), (2, 1)), groups=2)
        z = NC.conv_transpose(ts[0], ts[3], None, stride=2, padding=1, output_padding=1)
        u = NC.unfold_nd(ts[0], (2, 2), padding=1)
        f = NC.fold_nd(u, (6, 5), (2, 2), padding=1)
        p = NC.pad_mode(ts[0], ((1, 2), (2, 1)), "reflect")
        outs = [y, z, u, f, p]
        from janusgrad.ops import reduce as R
        backward([R.sum(y) + R.sum(z) + R.sum(f) + R.sum(p)])
        return outs, [t.grad for t in ts]

    host_out, host_grads = run(None)
    with installed():
        dev_out, dev_grads = run(backend.Device("gpu", 0))
        for a, b_ in zip(dev_out + dev_grads, host_out + host_grads):
            assert type(a.array) is FakeGpuArray
            np.testing.assert_allclose(backend.to_host(a.array), b_.array, rtol=1e-12,
                                       atol=1e-12)


def test_conv_transpose_checks_weight_groups_before_channels():
    """torch checks the weight's divisibility by groups before the input's channels (the
    engine's ConvChannels / WeightNotDivisible facts, torch's words)."""
    torch = pytest.importorskip("torch")
    import torchlike

    def error(m):
        with pytest.raises(RuntimeError) as e:
            m.nn.functional.conv_transpose2d(m.ones(1, 5, 5, 5), m.ones(6, 2, 3, 3), groups=4)
        return str(e.value)
    assert error(torchlike) == error(torch)
