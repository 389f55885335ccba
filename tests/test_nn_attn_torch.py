"""LayerNorm, RMSNorm, scaled dot-product / multi-head attention and the Transformer modules
of torchlike against real torch 2.13, with torch's weights copied in: outputs, attention
weights, input and parameter gradients, masks, state_dict keys, repr, errors, checkpoints,
and a D2L-style training step."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import torchlike
from tests.tolerance import assert_kernels_close

torch = pytest.importorskip("torch")
RNG = np.random.default_rng(0)


def _r(*shape):
    return RNG.standard_normal(shape).astype("float32")


def _copy(tm, jm):
    """torch's parameters and buffers into ours (same keys)."""
    sd = {k: torchlike.tensor(v.detach().numpy()) for k, v in tm.state_dict().items()}
    res = jm.load_state_dict(sd)
    assert not res.missing_keys and not res.unexpected_keys


def _close(a, b, n=8):
    a = a.detach().numpy() if hasattr(a, "detach") else a
    b = b.detach().numpy() if hasattr(b, "detach") else b
    assert a.shape == b.shape
    assert_kernels_close(np.asarray(b), np.asarray(a), n=n, k=64)


def _run(tm, jm, *arrays, call=None, **kw):
    """Forward both with the same inputs (grads on the float ones), backward the sum of
    squares; compare outputs, input grads and parameter grads."""
    call = call or (lambda m, *xs, **k: m(*xs, **k))
    ts = [torch.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    js = [torchlike.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    tkw = {k: torch.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    jkw = {k: torchlike.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    to, jo = call(tm, *ts, **tkw), call(jm, *js, **jkw)
    tout = to[0] if isinstance(to, tuple) else to
    jout = jo[0] if isinstance(jo, tuple) else jo
    _close(tout, jout)
    w = np.random.default_rng(7).standard_normal(tuple(tout.shape)).astype("float32")
    (tout * torch.tensor(w)).sum().backward()  # (not a sum of squares: after a LayerNorm
    (jout * torchlike.tensor(w)).sum().backward()  # that is nearly constant)
    for t, j in zip(ts, js):
        if t.grad is not None:
            _close(t.grad, j.grad, 64)
    tp, jp = dict(tm.named_parameters()), dict(jm.named_parameters())
    assert list(tp) == list(jp)
    # parameter gradients against the largest of them (some are zero in exact arithmetic,
    # a key bias's for one, and hold only rounding noise on both sides)
    big = max((float(tp[k].grad.abs().max()) for k in tp if tp[k].grad is not None),
              default=0.0)
    for k in tp:
        if tp[k].grad is not None:
            np.testing.assert_allclose(jp[k].grad.detach().numpy(), tp[k].grad.numpy(),
                                       rtol=1e-4, atol=1e-5 * big, err_msg=k)
    return to, jo


# ---------------------------------------------------------------- layer norm
@pytest.mark.parametrize("shape,norm", [((2, 3, 4), 4), ((2, 3, 4), (3, 4)), ((5, 6), [6])])
@pytest.mark.parametrize("bias", [True, False])
def test_layer_norm_module(shape, norm, bias):
    tm, jm = torch.nn.LayerNorm(norm, bias=bias), torchlike.nn.LayerNorm(norm, bias=bias)
    with torch.no_grad():
        for p in tm.parameters():
            p.copy_(torch.randn(p.shape))
    _copy(tm, jm)
    assert repr(jm) == repr(tm)
    assert list(jm.state_dict()) == list(tm.state_dict())
    _run(tm, jm, _r(*shape))


def test_layer_norm_no_affine_and_errors():
    tm, jm = (torch.nn.LayerNorm(4, eps=1e-3, elementwise_affine=False),
              torchlike.nn.LayerNorm(4, eps=1e-3, elementwise_affine=False))
    assert repr(jm) == repr(tm) and list(jm.state_dict()) == []
    _run(tm, jm, _r(3, 4))
    for args in (([4],), ([2, 4],), ([4], torch.ones(3))):
        x = _r(2, 5) if args[0] == [4] and len(args) == 1 else _r(4)
        if len(args) == 2:
            x = _r(2, 4)
        jargs = tuple(torchlike.tensor(a.numpy()) if hasattr(a, "numpy") else a for a in args)
        with pytest.raises(RuntimeError) as te:
            torch.nn.functional.layer_norm(torch.tensor(x), *args)
        with pytest.raises(RuntimeError) as je:
            torchlike.nn.functional.layer_norm(torchlike.tensor(x), *jargs)
        assert str(je.value) == str(te.value)


def test_layer_norm_grad_fn_and_native():
    x = _r(2, 3)
    j = torchlike.tensor(x, requires_grad=True)
    assert type(torchlike.nn.functional.layer_norm(j, [3]).grad_fn).__name__ == \
        "NativeLayerNormBackward0"
    out, mean, rstd = torchlike.native_layer_norm(j, [3], None, None, 1e-5)
    tout, tmean, trstd = torch.native_layer_norm(torch.tensor(x), [3], None, None, 1e-5)
    _close(tout, out)
    _close(tmean, mean)
    _close(trstd, rstd)
    assert not mean.requires_grad and not rstd.requires_grad


def test_layer_norm_double_backward():
    x, w = _r(3, 4), _r(4)
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    jx, jw = torchlike.tensor(x, requires_grad=True), torchlike.tensor(w, requires_grad=True)
    grads = []
    for lib, a, b in ((torch, tx, tw), (torchlike, jx, jw)):
        y = lib.nn.functional.layer_norm(a, [4], b)
        (g,) = lib.autograd.grad((y * y.detach().exp()).sum(), a, create_graph=True)
        grads.append(lib.autograd.grad(g.square().sum(), (a, b)))
    for t, j in zip(*grads):
        _close(t, j, 64)


def test_rms_norm():
    for eps in (None, 1e-3):
        tm, jm = torch.nn.RMSNorm([3, 4], eps=eps), torchlike.nn.RMSNorm([3, 4], eps=eps)
        with torch.no_grad():
            tm.weight.copy_(torch.randn(3, 4))
        _copy(tm, jm)
        assert repr(jm) == repr(tm)
        _run(tm, jm, _r(2, 3, 4))
    x = _r(2, 5)
    _close(torch.rms_norm(torch.tensor(x), [5]), torchlike.rms_norm(torchlike.tensor(x), [5]))


# ---------------------------------------------------------------- scaled dot-product attention
def _sdpa(q, k, v, **kw):
    tq, tk, tv = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    jq, jk, jv = (torchlike.tensor(a, requires_grad=True) for a in (q, k, v))
    tkw = {a: torch.tensor(b) if isinstance(b, np.ndarray) else b for a, b in kw.items()}
    jkw = {a: torchlike.tensor(b) if isinstance(b, np.ndarray) else b for a, b in kw.items()}
    to = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, **tkw)
    jo = torchlike.nn.functional.scaled_dot_product_attention(jq, jk, jv, **jkw)
    _close(to, jo)
    to.square().sum().backward()
    jo.square().sum().backward()
    for t, j in ((tq, jq), (tk, jk), (tv, jv)):
        _close(t.grad, j.grad, 64)


def test_sdpa_masks_causal_scale_gqa():
    q, k, v = _r(2, 2, 3, 4), _r(2, 2, 5, 4), _r(2, 2, 5, 4)
    _sdpa(q, k, v)
    _sdpa(q, k, v, is_causal=True)
    _sdpa(q, k, v, scale=0.3)
    keep = RNG.random((3, 5)) > 0.3
    keep[1] = False  # a fully masked row: torch gives zeros there
    _sdpa(q, k, v, attn_mask=keep)
    _sdpa(q, k, v, attn_mask=_r(2, 1, 3, 5))
    _sdpa(_r(1, 4, 3, 2), _r(1, 2, 3, 2), _r(1, 2, 3, 2), enable_gqa=True)
    _sdpa(_r(3, 4), _r(5, 4), _r(5, 4))


# ---------------------------------------------------------------- multi-head attention
@pytest.mark.parametrize("kw", [{}, {"bias": False}, {"kdim": 6, "vdim": 5},
                                {"add_bias_kv": True, "add_zero_attn": True},
                                {"batch_first": True}])
def test_multihead_attention(kw):
    tm, jm = torch.nn.MultiheadAttention(8, 2, **kw), torchlike.nn.MultiheadAttention(8, 2, **kw)
    if kw.get("bias", True):
        with torch.no_grad():
            tm.in_proj_bias.copy_(torch.randn(24))
    _copy(tm, jm)
    assert list(jm.state_dict()) == list(tm.state_dict())
    assert [tuple(p.shape) for p in jm.parameters()] == [tuple(p.shape) for p in tm.parameters()]
    assert repr(jm) == repr(tm)
    bf = kw.get("batch_first", False)
    lq, ls, n = 3, 4, 2
    q = _r(n, lq, 8) if bf else _r(lq, n, 8)
    k = _r(n, ls, kw.get("kdim", 8)) if bf else _r(ls, n, kw.get("kdim", 8))
    v = _r(n, ls, kw.get("vdim", 8)) if bf else _r(ls, n, kw.get("vdim", 8))
    pad = np.zeros((n, ls), bool)
    pad[0, -1] = True
    for avg in (True, False):
        to, jo = _run(tm, jm, q, k, v, key_padding_mask=pad, average_attn_weights=avg)
        _close(to[1], jo[1])
        tm.zero_grad()
        jm.zero_grad()
    mask = np.triu(np.ones((lq, ls), bool), 1)
    _run(tm, jm, q, k, v, attn_mask=mask)
    tm.zero_grad()
    jm.zero_grad()
    _run(tm, jm, q, k, v, attn_mask=_r(n * 2, lq, ls))
    to = tm(*(torch.tensor(a) for a in (q, k, v)), need_weights=False)
    jo = jm(*(torchlike.tensor(a) for a in (q, k, v)), need_weights=False)
    assert to[1] is None and jo[1] is None


def test_multihead_attention_unbatched_and_errors():
    tm, jm = torch.nn.MultiheadAttention(4, 2), torchlike.nn.MultiheadAttention(4, 2)
    _copy(tm, jm)
    x = _r(3, 4)
    to, jo = _run(tm, jm, x, x, x)
    _close(to[1], jo[1])
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        torchlike.nn.MultiheadAttention(5, 2)
    with pytest.raises(RuntimeError) as te:
        tm(torch.tensor(x), torch.tensor(x), torch.tensor(x), attn_mask=torch.zeros(2, 2))
    with pytest.raises(RuntimeError) as je:
        jm(torchlike.tensor(x), torchlike.tensor(x), torchlike.tensor(x),
           attn_mask=torchlike.zeros(2, 2))
    assert str(je.value) == str(te.value)


def test_multihead_attention_init():
    torchlike.manual_seed(0)
    m = torchlike.nn.MultiheadAttention(64, 4)
    w = m.in_proj_weight.detach().numpy()
    bound = np.sqrt(6 / (64 + 192))
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.95 * bound
    assert not m.in_proj_bias.detach().numpy().any()
    assert not m.out_proj.bias.detach().numpy().any()
    assert np.abs(m.out_proj.weight.detach().numpy()).max() <= 1 / 8
    assert type(m.out_proj).__name__ == "NonDynamicallyQuantizableLinear"


# ---------------------------------------------------------------- transformer layers
@pytest.mark.parametrize("kw", [{}, {"norm_first": True}, {"activation": "gelu"},
                                {"batch_first": True, "bias": False}])
def test_encoder_layer(kw):
    tm = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, **kw)
    jm = torchlike.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, **kw)
    _copy(tm, jm)
    assert repr(jm) == repr(tm)
    assert list(jm.state_dict()) == list(tm.state_dict())
    x = _r(2, 5, 8) if kw.get("batch_first") else _r(5, 2, 8)
    mask = np.asarray(torch.nn.Transformer.generate_square_subsequent_mask(5))
    pad = np.zeros((2, 5), bool)
    pad[1, -2:] = True
    _run(tm, jm, x, src_mask=mask, src_key_padding_mask=pad)
    tm.eval()
    jm.eval()
    with torch.no_grad(), torchlike.no_grad():
        _close(tm(torch.tensor(x)), jm(torchlike.tensor(x)))


def test_decoder_layer_and_stacks():
    kw = {"dropout": 0.0}
    with warnings.catch_warnings(record=True) as tw:
        warnings.simplefilter("always")
        t_enc = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(8, 2, 16, **kw), 2,
                                            torch.nn.LayerNorm(8))
    with warnings.catch_warnings(record=True) as jw:
        warnings.simplefilter("always")
        j_enc = torchlike.nn.TransformerEncoder(
            torchlike.nn.TransformerEncoderLayer(8, 2, 16, **kw), 2, torchlike.nn.LayerNorm(8))
    assert [str(w.message) for w in jw] == [str(w.message) for w in tw]
    _copy(t_enc, j_enc)
    assert repr(j_enc) == repr(t_enc)
    _run(t_enc, j_enc, _r(5, 2, 8))
    t_dec = torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer(8, 2, 16, **kw), 2)
    j_dec = torchlike.nn.TransformerDecoder(torchlike.nn.TransformerDecoderLayer(8, 2, 16, **kw),
                                            2)
    _copy(t_dec, j_dec)
    assert repr(j_dec) == repr(t_dec)
    mask = np.asarray(torch.nn.Transformer.generate_square_subsequent_mask(4))
    np.testing.assert_array_equal(
        torchlike.nn.Transformer.generate_square_subsequent_mask(4).numpy(), mask)
    mem_pad = np.zeros((2, 5), bool)
    mem_pad[1, -2:] = True
    _run(t_dec, j_dec, _r(4, 2, 8), _r(5, 2, 8), tgt_mask=mask,
         memory_key_padding_mask=mem_pad)


def test_transformer_model_and_checkpoint(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tm = torch.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)
        jm = torchlike.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)
    assert list(jm.state_dict()) == list(tm.state_dict())
    assert repr(jm) == repr(tm)
    torch.save(tm.state_dict(), tmp_path / "t.pt")
    jm.load_state_dict(torchlike.load(tmp_path / "t.pt"))
    _run(tm, jm, _r(5, 2, 8), _r(4, 2, 8))
    torchlike.save(jm.state_dict(), tmp_path / "j.pt")
    back = torch.load(tmp_path / "j.pt")
    for k, v in tm.state_dict().items():
        np.testing.assert_array_equal(back[k].numpy(), v.numpy())


# ---------------------------------------------------------------- D2L-style training
def _masked_softmax(lib, X, valid_lens):
    """D2L's masked_softmax over existing ops."""
    def _seq_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = lib.arange((maxlen), dtype=lib.float32)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X
    shape = X.shape
    valid_lens = lib.repeat_interleave(valid_lens, shape[1])
    X = _seq_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return lib.nn.functional.softmax(X.reshape(shape), dim=-1)


def _d2l_step(lib):
    nn = lib.nn
    lib.manual_seed(0)

    class DotProductAttention(nn.Module):
        def __init__(self, dropout):
            super().__init__()
            self.dropout = nn.Dropout(dropout)

        def forward(self, queries, keys, values, valid_lens=None):
            d = queries.shape[-1]
            scores = lib.bmm(queries, keys.transpose(1, 2)) / d ** 0.5
            self.attention_weights = _masked_softmax(lib, scores, valid_lens)
            return lib.bmm(self.dropout(self.attention_weights), values)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(8, 8)
            self.attn = DotProductAttention(0.0)
            self.mha = nn.MultiheadAttention(8, 2, batch_first=True)
            self.enc = nn.TransformerEncoder(
                nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 2)
            self.ln = nn.LayerNorm(8)
            self.out = nn.Linear(8, 3)

        def forward(self, x, valid_lens):
            h = self.proj(x)
            h = self.attn(h, h, h, valid_lens)
            h = self.mha(h, h, h)[0]
            return self.out(self.ln(self.enc(h)).mean(1))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = Model()
    opt = lib.optim.Adam(model.parameters(), lr=1e-2)
    x = lib.tensor(np.random.default_rng(1).standard_normal((4, 5, 8)).astype("float32"))
    y = lib.tensor(np.array([0, 1, 2, 1]))
    valid = lib.tensor(np.array([2, 3, 5, 4]))
    losses = []
    for _ in range(5):
        loss = nn.functional.cross_entropy(model(x, valid), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss))
    return losses


def test_d2l_style_attention_and_encoder_train():
    losses = _d2l_step(torchlike)
    assert all(np.isfinite(losses)) and losses[-1] < losses[0]
