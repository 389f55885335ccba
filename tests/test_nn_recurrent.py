"""Recurrent layers: torchlike's RNN/GRU/LSTM (+ cells) against real torch, paddlelike's
SimpleRNN/GRU/LSTM (+ cells) against real paddle, with the same weights copied in (outputs,
final states, input / parameter / initial-state gradients, state_dict keys and shapes, repr,
errors, checkpoints); float64 gradchecks (first and second order) of the engine's fused
sequence op; the engine's layers on the fake GPU."""
from __future__ import annotations

import numpy as np
import pytest

from janusgrad import Tensor
from janusgrad.array import backend
from janusgrad.nn import recurrent as NR

from .fake_gpu import FakeGpuArray, installed

RNG = np.random.default_rng(3)
TOL = dict(rtol=2e-5, atol=2e-6)


def _np(t):
    return t.detach().numpy()


# ---------------------------------------------------------------- torch
TORCH_CASES = [
    ("LSTM", dict(num_layers=2, bidirectional=True, batch_first=True)),
    ("LSTM", dict(num_layers=2, dropout=0.0)),
    ("LSTM", dict(proj_size=2)),
    ("GRU", dict(num_layers=2, bidirectional=True)),
    ("GRU", dict(bias=False, batch_first=True)),
    ("RNN", dict(nonlinearity="relu", num_layers=2)),
    ("RNN", dict(bidirectional=True)),
]


@pytest.mark.parametrize("name,kw", TORCH_CASES)
def test_torch_layers_match(name, kw):
    torch = pytest.importorskip("torch")
    import torchlike
    torch.manual_seed(0)
    ref = getattr(torch.nn, name)(3, 4, **kw)
    ours = getattr(torchlike.nn, name)(3, 4, **kw)
    assert repr(ours) == repr(ref)
    assert [(k, tuple(v.shape)) for k, v in ours.state_dict().items()] == \
        [(k, tuple(v.shape)) for k, v in ref.state_dict().items()]
    ours.load_state_dict({k: torchlike.tensor(v.numpy()) for k, v in ref.state_dict().items()})
    x = RNG.standard_normal((2, 5, 3)).astype(np.float32)
    layers = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
    hsize = kw.get("proj_size", 4) or 4
    h0 = RNG.standard_normal((layers, 2 if kw.get("batch_first") else 5, hsize)).astype(
        np.float32) if name != "LSTM" else None
    results = []
    for mod, lib in ((ref, torch), (ours, torchlike)):
        xt = lib.tensor(x, requires_grad=True)
        args = [xt]
        ht = None
        if h0 is not None:
            ht = lib.tensor(h0, requires_grad=True)
            args.append(ht)
        out, hn = mod(*args)
        if name == "LSTM":
            hn, cn = hn
            loss = (out * out).sum() + hn.sin().sum() + cn.cos().sum()
        else:
            loss = (out * out).sum() + hn.sin().sum()
        loss.backward()
        grads = [_np(xt.grad)] + ([_np(ht.grad)] if ht is not None else []) + \
            [_np(p.grad) for p in mod.parameters()]
        results.append(([_np(out), _np(hn)], grads))
    for a, b in zip(results[0][0] + results[0][1], results[1][0] + results[1][1]):
        np.testing.assert_allclose(b, a, **TOL)


def test_torch_unbatched_cells_errors_and_checkpoint(tmp_path):
    torch = pytest.importorskip("torch")
    import torchlike
    torch.manual_seed(1)
    for name in ("RNNCell", "GRUCell", "LSTMCell"):
        ref = getattr(torch.nn, name)(3, 4)
        ours = getattr(torchlike.nn, name)(3, 4)
        assert repr(ours) == repr(ref)
        ours.load_state_dict({k: torchlike.tensor(v.numpy()) for k, v in ref.state_dict().items()})
        for shape in ((2, 3), (3,)):
            x = RNG.standard_normal(shape).astype(np.float32)
            a, b = ref(torch.tensor(x)), ours(torchlike.tensor(x))
            if name == "LSTMCell":
                a, b = a[1], b[1]
            np.testing.assert_allclose(_np(b), _np(a), **TOL)
    ref, ours = torch.nn.LSTM(28, 256, num_layers=2), torchlike.nn.LSTM(28, 256, num_layers=2)
    assert repr(ours) == "LSTM(28, 256, num_layers=2)" == repr(ref)
    ours.flatten_parameters()
    # unbatched 2-D input
    x = RNG.standard_normal((6, 28)).astype(np.float32)
    ours.load_state_dict({k: torchlike.tensor(v.numpy()) for k, v in ref.state_dict().items()})
    (a, (ha, _)), (b, (hb, _)) = ref(torch.tensor(x)), ours(torchlike.tensor(x))
    assert tuple(b.shape) == tuple(a.shape) and tuple(hb.shape) == tuple(ha.shape)
    np.testing.assert_allclose(_np(b), _np(a), rtol=1e-4, atol=1e-5)
    # errors
    for mod in (ref, ours):
        lib = torch if mod is ref else torchlike
        with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size. "
                           "Expected 28, got 5"):
            mod(lib.zeros(3, 2, 5))
        with pytest.raises(ValueError, match="LSTM: Expected input to be 2D or 3D, got 4D"):
            mod(lib.zeros(1, 3, 2, 28))
        with pytest.raises(RuntimeError, match="Expected hidden\\[0\\] size \\(2, 2, 256\\), got "
                           "\\[2, 3, 256\\]"):
            mod(lib.zeros(3, 2, 28), (lib.zeros(2, 3, 256), lib.zeros(2, 2, 256)))
    # checkpoint: torch saves, we load, we save, torch loads
    path = tmp_path / "lstm.pt"
    torch.save(ref.state_dict(), path)
    fresh = torchlike.nn.LSTM(28, 256, num_layers=2)
    fresh.load_state_dict(torchlike.load(path))
    back = tmp_path / "back.pt"
    torchlike.save(fresh.state_dict(), back)
    again = torch.nn.LSTM(28, 256, num_layers=2)
    again.load_state_dict(torch.load(back))
    for k, v in ref.state_dict().items():
        np.testing.assert_array_equal(again.state_dict()[k].numpy(), v.numpy())


def test_torch_init_bounds():
    import torchlike
    m = torchlike.nn.GRU(5, 16, num_layers=2)
    for p in m.parameters():
        a = _np(p)
        assert np.abs(a).max() <= 0.25 and np.abs(a).max() > 0.2


# ---------------------------------------------------------------- paddle
PADDLE_CASES = [
    ("LSTM", dict(num_layers=2, direction="bidirect")),
    ("LSTM", dict(time_major=True)),
    ("GRU", dict(num_layers=2, direction="bidirectional")),
    ("GRU", dict(time_major=True)),
    ("SimpleRNN", dict(activation="relu", num_layers=2)),
    ("SimpleRNN", dict(direction="bidirect")),
]


@pytest.mark.parametrize("name,kw", PADDLE_CASES)
def test_paddle_layers_match(name, kw):
    paddle = pytest.importorskip("paddle")
    import paddlelike
    paddle.seed(0)
    ref = getattr(paddle.nn, name)(3, 4, **kw)
    ours = getattr(paddlelike.nn, name)(3, 4, **kw)
    assert str(ours) == str(ref)
    assert [(k, list(v.shape)) for k, v in ours.state_dict().items()] == \
        [(k, list(v.shape)) for k, v in ref.state_dict().items()]
    ours.set_state_dict({k: paddlelike.to_tensor(v.numpy()) for k, v in ref.state_dict().items()})
    x = RNG.standard_normal((2, 5, 3)).astype(np.float32)
    layers = kw.get("num_layers", 1) * (1 if kw.get("direction", "forward") == "forward" else 2)
    batch = 5 if kw.get("time_major") else 2  # (time_major: x is [T=2, B=5, 3])
    h0 = RNG.standard_normal((layers, batch, 4)).astype(np.float32)
    c0 = RNG.standard_normal((layers, batch, 4)).astype(np.float32)
    results = []
    for mod, lib in ((ref, paddle), (ours, paddlelike)):
        xt = lib.to_tensor(x, stop_gradient=False)
        ht = lib.to_tensor(h0, stop_gradient=False)
        ct = lib.to_tensor(c0, stop_gradient=False)
        out, st = mod(xt, (ht, ct) if name == "LSTM" else ht)
        if name == "LSTM":
            hn, cn = st
            loss = (out * out).sum() + lib.sin(hn).sum() + lib.cos(cn).sum()
        else:
            hn = st
            loss = (out * out).sum() + lib.sin(hn).sum()
        loss.backward()
        grads = [xt.grad.numpy(), ht.grad.numpy()] + \
            ([ct.grad.numpy()] if name == "LSTM" else []) + \
            [p.grad.numpy() for p in mod.parameters()]
        results.append([out.numpy(), hn.numpy()] + grads)
    for a, b in zip(*results):
        np.testing.assert_allclose(b, a, **TOL)


def test_paddle_cells_wrappers_checkpoint(tmp_path):
    paddle = pytest.importorskip("paddle")
    import paddlelike
    paddle.seed(2)
    for name in ("SimpleRNNCell", "GRUCell", "LSTMCell"):
        ref, ours = getattr(paddle.nn, name)(3, 4), getattr(paddlelike.nn, name)(3, 4)
        assert str(ours) == str(ref)
        ours.set_state_dict({k: paddlelike.to_tensor(v.numpy())
                             for k, v in ref.state_dict().items()})
        x = RNG.standard_normal((2, 3)).astype(np.float32)
        (ya, sa), (yb, sb) = ref(paddle.to_tensor(x)), ours(paddlelike.to_tensor(x))
        np.testing.assert_allclose(yb.numpy(), ya.numpy(), **TOL)
        assert type(sa) is tuple if name == "LSTMCell" else not isinstance(sb, tuple)
        # the RNN wrapper over a cell, and BiRNN
        xs = RNG.standard_normal((2, 5, 3)).astype(np.float32)
        ya, sa = paddle.nn.RNN(ref, is_reverse=True)(paddle.to_tensor(xs))
        yb, sb = paddlelike.nn.RNN(ours, is_reverse=True)(paddlelike.to_tensor(xs))
        np.testing.assert_allclose(yb.numpy(), ya.numpy(), **TOL)
        ya, _ = paddle.nn.BiRNN(ref, ref)(paddle.to_tensor(xs))
        yb, _ = paddlelike.nn.BiRNN(ours, ours)(paddlelike.to_tensor(xs))
        np.testing.assert_allclose(yb.numpy(), ya.numpy(), **TOL)
    ref = paddle.nn.LSTM(28, 16, num_layers=2)
    path = str(tmp_path / "lstm.pdparams")
    paddle.save(ref.state_dict(), path)
    ours = paddlelike.nn.LSTM(28, 16, num_layers=2)
    ours.set_state_dict(paddlelike.load(path))
    back = str(tmp_path / "back.pdparams")
    paddlelike.save(ours.state_dict(), back)
    again = paddle.nn.LSTM(28, 16, num_layers=2)
    again.set_state_dict(paddle.load(back))
    for k, v in ref.state_dict().items():
        np.testing.assert_array_equal(again.state_dict()[k].numpy(), v.numpy())


# ---------------------------------------------------------------- engine
def _leaf(t):
    t.set_requires_grad(True)
    return t


@pytest.mark.parametrize("mode", ["lstm", "gru", "rnn_tanh", "rnn_relu"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_engine_gradcheck_float64(mode, bidirectional):
    """First and second derivatives of a tiny 2-layer network against finite differences."""
    from janusgrad.transforms.gradcheck import gradcheck, gradgradcheck
    rng = np.random.default_rng(0)
    g = NR.GATES[mode]
    dirs = 2 if bidirectional else 1

    def t(*shape):
        return _leaf(Tensor(rng.uniform(-0.8, 0.8, shape)))
    x, h0 = t(3, 2, 2), t(2 * dirs, 2, 2)
    c0 = t(2 * dirs, 2, 2) if mode == "lstm" else None
    flat = []
    for layer in range(2):
        for _ in range(dirs):
            flat += [t(g * 2, 2 if layer == 0 else 2 * dirs), t(g * 2, 2), t(g * 2), t(g * 2)]
    inputs = [x, h0] + ([c0] if c0 is not None else []) + flat

    def fn(x, h0, *rest):
        rest = list(rest)
        c = rest.pop(0) if mode == "lstm" else None
        ws = [tuple(rest[i:i + 4]) + (None,) for i in range(0, len(rest), 4)]
        out, hn, cn = NR.rnn(mode, x, h0, c, ws, 2, bidirectional)
        return (out, hn) if cn is None else (out, hn, cn)
    assert gradcheck(fn, inputs)
    if not bidirectional:
        assert gradgradcheck(fn, inputs)


@pytest.mark.parametrize("mode", ["lstm", "gru", "rnn_tanh"])
def test_engine_fake_gpu(mode):
    rng = np.random.default_rng(1)
    g = NR.GATES[mode]
    arrays = [rng.standard_normal(s).astype(np.float32) for s in
              ((4, 2, 3), (g * 5, 3), (g * 5, 5), (g * 5,), (g * 5,))]
    results = []
    for gpu in (False, True):
        with installed():
            dev = backend.Device("gpu", 0) if gpu else None
            ts = [_leaf(Tensor(backend.from_host(a, dev))) for a in arrays]
            out, hn, _ = NR.rnn(mode, ts[0], None, None, [tuple(ts[1:]) + (None,)], 1, False)
            from janusgrad.core.autograd import backward
            from janusgrad.ops import reduce as R
            backward([R.sum(out)])
            if gpu:
                assert type(out.array) is FakeGpuArray and type(ts[2].grad.array) is FakeGpuArray
            results.append([backend.to_host(out.array)] +
                           [backend.to_host(t.grad.array) for t in ts])
    for a, b in zip(*results):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)



@pytest.mark.parametrize("name,kw", [
    ("LSTM", dict(num_layers=2, direction="bidirect")),
    ("GRU", dict(time_major=True)),
    ("SimpleRNN", dict(direction="bidirect")),
])
def test_paddle_sequence_length_masks_as_paddle(name, kw):
    """sequence_length: steps past each sequence's length keep the state and output zeros;
    the reverse direction starts at each sequence's last step (values and gradients)."""
    paddle = pytest.importorskip("paddle")
    import paddlelike
    paddle.seed(1)
    ref = getattr(paddle.nn, name)(3, 4, **kw)
    ours = getattr(paddlelike.nn, name)(3, 4, **kw)
    ours.set_state_dict({k: paddlelike.to_tensor(v.numpy()) for k, v in ref.state_dict().items()})
    steps, batch = 5, 3
    shape = (steps, batch, 3) if kw.get("time_major") else (batch, steps, 3)
    x = RNG.standard_normal(shape).astype(np.float32)
    lengths = np.array([5, 2, 3], np.int64)
    results = []
    for mod, lib in ((ref, paddle), (ours, paddlelike)):
        xt = lib.to_tensor(x, stop_gradient=False)
        out, st = mod(xt, sequence_length=lib.to_tensor(lengths))
        hn = st[0] if name == "LSTM" else st
        loss = (out * out).sum() + lib.sin(hn).sum()
        if name == "LSTM":
            loss = loss + lib.cos(st[1]).sum()
        loss.backward()
        results.append([out.numpy(), hn.numpy(), xt.grad.numpy()]
                       + [p.grad.numpy() for p in mod.parameters()])
    for a, b in zip(*results):
        np.testing.assert_allclose(b, a, **TOL)
