"""LayerNorm, scaled dot-product attention, MultiHeadAttention and the Transformer layers of
paddlelike against real paddle 3.3.1, with paddle's weights copied in: outputs, attention
weights, input and parameter gradients, masks, state_dict keys, repr, errors, checkpoints,
and a D2L-style training step; plus the engine layers on the fake GPU."""
from __future__ import annotations

import numpy as np
import pytest

import paddlelike
from tests.tolerance import assert_kernels_close

paddle = pytest.importorskip("paddle")
RNG = np.random.default_rng(0)


def _r(*shape):
    return RNG.standard_normal(shape).astype("float32")


def _copy(pm, lm):
    sd = {k: paddlelike.to_tensor(v.numpy()) for k, v in pm.state_dict().items()}
    assert lm.set_state_dict(sd) == ([], [])


def _close(a, b, n=8):
    a, b = np.asarray(a.numpy()), np.asarray(b.numpy())
    assert a.shape == b.shape
    assert_kernels_close(b, a, n=n, k=64)


def _run(pm, lm, *arrays, **kw):
    ps = [paddle.to_tensor(a, stop_gradient=a.dtype.kind != "f") for a in arrays]
    ls = [paddlelike.to_tensor(a, stop_gradient=a.dtype.kind != "f") for a in arrays]
    pkw = {k: paddle.to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    lkw = {k: paddlelike.to_tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    po, lo = pm(*ps, **pkw), lm(*ls, **lkw)
    pout = po[0] if isinstance(po, tuple) else po
    lout = lo[0] if isinstance(lo, tuple) else lo
    _close(pout, lout)
    w = np.random.default_rng(7).standard_normal(tuple(pout.shape)).astype("float32")
    (pout * paddle.to_tensor(w)).sum().backward()
    (lout * paddlelike.to_tensor(w)).sum().backward()
    for p, q in zip(ps, ls):
        if p.grad is not None:
            _close(p.grad, q.grad, 64)
    pp, lp = dict(pm.named_parameters()), dict(lm.named_parameters())
    assert list(pp) == list(lp)
    # parameter gradients against the largest of them (some are zero in exact arithmetic,
    # a key bias's for one, and hold only rounding noise on both sides)
    big = max((float(np.abs(pp[k].grad.numpy()).max()) for k in pp
               if pp[k].grad is not None), default=0.0)
    for k in pp:
        if pp[k].grad is not None:
            np.testing.assert_allclose(lp[k].grad.numpy(), pp[k].grad.numpy(), rtol=1e-4,
                                       atol=1e-5 * big, err_msg=k)
    return po, lo


# ---------------------------------------------------------------- layer norm
@pytest.mark.parametrize("norm", [4, [3, 4]])
def test_layer_norm(norm):
    pm, lm = paddle.nn.LayerNorm(norm), paddlelike.nn.LayerNorm(norm)
    for p in pm.parameters():
        p.set_value(RNG.standard_normal(p.shape).astype("float32"))
    _copy(pm, lm)
    assert repr(lm) == repr(pm)
    assert [(k, list(v.shape)) for k, v in lm.state_dict().items()] == \
        [(k, list(v.shape)) for k, v in pm.state_dict().items()]
    _run(pm, lm, _r(2, 3, 4))


def test_layer_norm_variants_and_errors():
    for kw in ({"bias_attr": False}, {"elementwise_affine": False}, {"eps": 1e-3}):
        pm, lm = paddle.nn.LayerNorm(4, **kw), paddlelike.nn.LayerNorm(4, **kw)
        assert list(lm.state_dict()) == list(pm.state_dict())
        assert repr(lm) == repr(pm)
        _copy(pm, lm)
        _run(pm, lm, _r(3, 4))
    with pytest.raises(ValueError) as pe:
        paddle.nn.LayerNorm(5)(paddle.to_tensor(_r(2, 4)))
    with pytest.raises(ValueError) as le:
        paddlelike.nn.LayerNorm(5)(paddlelike.to_tensor(_r(2, 4)))
    assert str(le.value) == str(pe.value)


# ---------------------------------------------------------------- sdpa
@pytest.mark.parametrize("kw", [{}, {"is_causal": True}, {"scale": 0.3}, {"mask": "bool"},
                                {"mask": "float"}])
def test_sdpa(kw):
    q, k, v = _r(2, 3, 2, 4), _r(2, 5, 2, 4), _r(2, 5, 2, 4)
    kw = dict(kw)
    mask = kw.pop("mask", None)
    if mask == "bool":
        kw["attn_mask"] = RNG.random((3, 5)) > 0.3
        kw["attn_mask"][:, 0] = True
    elif mask == "float":
        kw["attn_mask"] = _r(2, 1, 3, 5)
    ps = [paddle.to_tensor(a, stop_gradient=False) for a in (q, k, v)]
    ls = [paddlelike.to_tensor(a, stop_gradient=False) for a in (q, k, v)]
    pkw = {a: paddle.to_tensor(b) if isinstance(b, np.ndarray) else b for a, b in kw.items()}
    lkw = {a: paddlelike.to_tensor(b) if isinstance(b, np.ndarray) else b for a, b in kw.items()}
    po = paddle.nn.functional.scaled_dot_product_attention(*ps, **pkw)
    lo = paddlelike.nn.functional.scaled_dot_product_attention(*ls, **lkw)
    _close(po, lo)
    po.sum().backward()
    lo.sum().backward()
    for p, q_ in zip(ps, ls):
        _close(p.grad, q_.grad, 64)


def test_sdpa_gqa_and_layout_error():
    q, k = _r(1, 3, 4, 2), _r(1, 3, 2, 2)
    _close(paddle.nn.functional.scaled_dot_product_attention(*map(paddle.to_tensor, (q, k, k))),
           paddlelike.nn.functional.scaled_dot_product_attention(
               *map(paddlelike.to_tensor, (q, k, k))))
    bad = _r(1, 4, 5, 2)
    with pytest.raises(AssertionError) as pe:
        paddle.nn.functional.scaled_dot_product_attention(
            *map(paddle.to_tensor, (_r(1, 4, 4, 2), bad, bad)))
    with pytest.raises(AssertionError) as le:
        paddlelike.nn.functional.scaled_dot_product_attention(
            *map(paddlelike.to_tensor, (_r(1, 4, 4, 2), bad, bad)))
    assert str(le.value) == str(pe.value)


# ---------------------------------------------------------------- multi-head attention
@pytest.mark.parametrize("mask", [None, "bool", "int", "float"])
def test_multi_head_attention(mask):
    pm = paddle.nn.MultiHeadAttention(8, 2, kdim=6, vdim=5, need_weights=True)
    lm = paddlelike.nn.MultiHeadAttention(8, 2, kdim=6, vdim=5, need_weights=True)
    _copy(pm, lm)
    assert repr(lm) == repr(pm)
    assert [(k, list(v.shape)) for k, v in lm.state_dict().items()] == \
        [(k, list(v.shape)) for k, v in pm.state_dict().items()]
    q, k, v = _r(2, 3, 8), _r(2, 4, 6), _r(2, 4, 5)
    kw = {}
    if mask is not None:
        keep = RNG.random((2, 1, 3, 4)) > 0.4
        keep[..., 0] = True
        kw["attn_mask"] = {"bool": keep, "int": keep.astype("int64"),
                           "float": np.where(keep, 0.0, -1e9).astype("float32")}[mask]
    po, lo = _run(pm, lm, q, k, v, **kw)
    assert isinstance(lo, tuple) and len(lo) == 2
    _close(po[1], lo[1])
    plain = paddlelike.nn.MultiHeadAttention(8, 2)
    out = plain(paddlelike.to_tensor(q))
    assert not isinstance(out, tuple) and list(out.shape) == [2, 3, 8]


def test_multi_head_attention_errors():
    with pytest.raises(AssertionError) as pe:
        paddle.nn.MultiHeadAttention(5, 2)
    with pytest.raises(AssertionError) as le:
        paddlelike.nn.MultiHeadAttention(5, 2)
    assert str(le.value) == str(pe.value)


# ---------------------------------------------------------------- transformer layers
@pytest.mark.parametrize("kw", [{}, {"normalize_before": True}, {"activation": "gelu"}])
def test_encoder_layer(kw):
    pm = paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, **kw)
    lm = paddlelike.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, **kw)
    _copy(pm, lm)
    assert repr(lm) == repr(pm)
    assert list(lm.state_dict()) == list(pm.state_dict())
    mask = np.tril(np.ones((5, 5), bool))
    _run(pm, lm, _r(2, 5, 8), src_mask=mask)
    pm.eval()
    lm.eval()
    x = _r(2, 5, 8)
    _close(pm(paddle.to_tensor(x)), lm(paddlelike.to_tensor(x)))


def test_decoder_layer_stacks_and_transformer(tmp_path):
    pm = paddle.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=True)
    lm = paddlelike.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=True)
    _copy(pm, lm)
    assert repr(lm) == repr(pm)
    mask = np.tril(np.ones((4, 4), bool))
    _run(pm, lm, _r(2, 4, 8), _r(2, 5, 8), tgt_mask=mask)
    pe = paddle.nn.TransformerEncoder(paddle.nn.TransformerEncoderLayer(8, 2, 16, 0.0), 2,
                                      paddle.nn.LayerNorm(8))
    le = paddlelike.nn.TransformerEncoder(paddlelike.nn.TransformerEncoderLayer(8, 2, 16, 0.0),
                                          2, paddlelike.nn.LayerNorm(8))
    assert repr(le) == repr(pe)
    _copy(pe, le)
    _run(pe, le, _r(2, 5, 8))
    # paddle builds the stacked layers afresh: their weights differ from the first's
    w0, w1 = (le.layers[i].linear1.weight.numpy() for i in (0, 1))
    assert not np.array_equal(w0, w1)
    pt = paddle.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)
    lt = paddlelike.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)
    assert list(lt.state_dict()) == list(pt.state_dict())
    assert repr(lt) == repr(pt)
    paddle.save(pt.state_dict(), str(tmp_path / "t.pdparams"))
    assert lt.set_state_dict(paddlelike.load(str(tmp_path / "t.pdparams"))) == ([], [])
    tgt_mask = pt.generate_square_subsequent_mask(4)
    np.testing.assert_array_equal(lt.generate_square_subsequent_mask(4).numpy(),
                                  tgt_mask.numpy())
    _run(pt, lt, _r(2, 5, 8), _r(2, 4, 8), tgt_mask=tgt_mask.numpy())
    paddlelike.save(lt.state_dict(), str(tmp_path / "l.pdparams"))
    back = paddle.load(str(tmp_path / "l.pdparams"))
    for k, v in pt.state_dict().items():
        np.testing.assert_array_equal(back[k].numpy(), v.numpy())


# ---------------------------------------------------------------- D2L-style training
def _masked_softmax(X, valid_lens):
    """D2L's paddle masked_softmax over existing ops."""
    shape = X.shape
    valid_lens = paddlelike.repeat_interleave(valid_lens, shape[1])
    X = X.reshape((-1, shape[-1]))
    maxlen = X.shape[1]
    mask = paddlelike.arange(maxlen, dtype=paddlelike.float32)[None, :] < \
        valid_lens.astype("float32")[:, None]
    X = paddlelike.where(mask, X, paddlelike.full_like(X, -1e6))
    return paddlelike.nn.functional.softmax(X.reshape(shape), axis=-1)


def test_d2l_style_attention_and_encoder_train():
    nn = paddlelike.nn
    paddlelike.seed(0)

    class Model(nn.Layer):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(8, 8)
            self.mha = nn.MultiHeadAttention(8, 2)
            self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0), 2)
            self.ln = nn.LayerNorm(8)
            self.out = nn.Linear(8, 3)

        def forward(self, x, valid_lens):
            h = self.proj(x)
            scores = paddlelike.bmm(h, h.transpose((0, 2, 1))) / 8 ** 0.5
            h = paddlelike.bmm(_masked_softmax(scores, valid_lens), h)
            h = self.mha(h, h, h)
            return self.out(self.ln(self.enc(h)).mean(1))

    model = Model()
    opt = paddlelike.optimizer.Adam(learning_rate=1e-2, parameters=model.parameters())
    x = paddlelike.to_tensor(np.random.default_rng(1).standard_normal((4, 5, 8))
                             .astype("float32"))
    y = paddlelike.to_tensor(np.array([0, 1, 2, 1]))
    valid = paddlelike.to_tensor(np.array([2, 3, 5, 4]))
    losses = []
    for _ in range(5):
        loss = nn.functional.cross_entropy(model(x, valid), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert all(np.isfinite(losses)) and losses[-1] < losses[0]


# ---------------------------------------------------------------- fake GPU
def test_attention_layers_on_fake_gpu():
    from janusgrad import Tensor
    from janusgrad.array import backend
    from janusgrad.core.autograd import backward
    from janusgrad.nn import attention as NA
    from janusgrad.ops import reduce as R

    from .fake_gpu import FakeGpuArray, installed
    with installed():
        gpu = backend.Device("gpu", 0)

        def make(a):
            t = Tensor(backend.from_host(np.asarray(a), gpu))
            t.set_requires_grad(True)
            return t
        x, w, b = _r(2, 3, 8), _r(8), _r(8)
        wq = [_r(8, 8) for _ in range(4)]
        tx, tw, tb = make(x), make(w), make(b)
        tq = [make(a) for a in wq]
        y = NA.layer_norm(tx, 1, tw, tb)
        mask = Tensor(backend.from_host(np.tril(np.ones((3, 3), bool)), gpu))
        out, weights = NA.multi_head_attention(y, y, y, 2, *tq[:3], None, None, None, tq[3],
                                               None, (mask,), need_weights=True)
        s, _ = NA.scaled_dot_product_attention(out, out, out, is_causal=True)
        backward([R.sum(E_square(s))])
        for t in (out, weights, s, tx.grad, tw.grad, tq[0].grad):
            assert type(t.array) is FakeGpuArray
        # the same numbers as on the host
        hx, hw, hb = (Tensor(np.asarray(a)) for a in (x, w, b))
        hy = NA.layer_norm(hx, 1, hw, hb)
        hout, _ = NA.multi_head_attention(
            hy, hy, hy, 2, *(Tensor(a) for a in wq[:3]), None, None, None, Tensor(wq[3]), None,
            (Tensor(np.tril(np.ones((3, 3), bool))),))
        np.testing.assert_allclose(backend.to_host(out.array), hout.array, rtol=1e-5,
                                   atol=1e-6)


def E_square(t):  # noqa: N802
    from janusgrad.ops import elementwise as E
    return E.square(t)
