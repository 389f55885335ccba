"""paddle.nn's LayerNorm, MultiHeadAttention and Transformer layers in paddle's names,
initialisers and printed form (the math is engine.nn.attention)."""
from __future__ import annotations

import collections
import numbers

from janusgrad.nn import attention as NA

from . import functional as F
from .initializer import Constant
from .layer import Layer
from .layers import LayerList, Linear
from .thin import Dropout


def _default_dtype() -> str:
    from .._surface import get_default_dtype
    return get_default_dtype()


class LayerNorm(Layer):
    """weight/bias flattened to ``[prod(normalized_shape)]`` (ones, zeros)."""

    def __init__(self, normalized_shape, epsilon=1e-05, *, elementwise_affine=True, bias=True,
                 device=None, dtype=None, weight_attr=None, bias_attr=None, name=None,
                 **kwargs) -> None:
        super().__init__()
        if "eps" in kwargs:  # paddle's alias
            epsilon = kwargs.pop("eps")
        if kwargs:
            raise TypeError(f"LayerNorm.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._epsilon = epsilon
        self._dtype = _default_dtype() if dtype is None else dtype
        if not elementwise_affine:
            weight_attr = bias_attr = False
        elif not bias:
            bias_attr = False
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        size = 1
        for d in self._normalized_shape:
            size *= int(d)
        if weight_attr is False:
            self.weight = None
        else:
            self.weight = self.create_parameter([size], attr=weight_attr, dtype=self._dtype,
                                                default_initializer=Constant(1.0))
        if bias_attr is False:
            self.bias = None
        else:
            self.bias = self.create_parameter([size], attr=bias_attr, dtype=self._dtype,
                                              is_bias=True, default_initializer=Constant(0.0))

    def forward(self, input):  # noqa: A002
        return F.layer_norm(input, self._normalized_shape, self.weight, self.bias,
                            self._epsilon)

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


def _attention_mask(mask, like):
    """paddle's _convert_attention_mask: a bool/int keep mask becomes (m - 1) * 1e9."""
    if mask is None or mask.array.dtype == like.array.dtype:
        return mask
    if mask.array.dtype.kind in "biu":
        return NA.keep_mask_as_bias(mask, like)
    from janusgrad.ops import elementwise as E
    return E.cast(mask, like.array.dtype)


class MultiHeadAttention(Layer):
    """Separate q/k/v/out Linear projections (paddle's [in, out] weights); inputs
    [batch, seq, embed]; returns the output, plus the per-head weights when constructed
    with ``need_weights=True``."""

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None,
                 need_weights=False, weight_attr=None, bias_attr=None) -> None:
        super().__init__()
        if embed_dim <= 0:
            raise AssertionError(f"Expected embed_dim to be greater than 0, but received "
                                 f"{embed_dim}")
        if num_heads <= 0:
            raise AssertionError(f"Expected num_heads to be greater than 0, but received "
                                 f"{num_heads}")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        if cache is not None:
            raise NotImplementedError("MultiHeadAttention: incremental decoding caches")
        key = query if key is None else key
        value = query if value is None else value
        p = (self.q_proj, self.k_proj, self.v_proj, self.out_proj)
        mask = _attention_mask(attn_mask, query)
        out, weights = NA.multi_head_attention(
            query, key, value, self.num_heads, *(m.weight for m in p[:3]),
            *(m.bias for m in p[:3]), p[3].weight, p[3].bias, (mask,), self.dropout,
            self.training, self.need_weights, False, weight_in_out=True)
        return (out, weights) if self.need_weights else out


def _param_attrs(attr, n: int) -> list:
    if isinstance(attr, (list, tuple)):
        if len(attr) == 1:
            return [attr[0]] * n
        if len(attr) != n:
            raise AssertionError(f"length of attr should be 1 or {n}")
        return list(attr)
    return [attr] * n


def _act(name: str):
    fn = getattr(F, name, None)
    if fn is None:
        raise AttributeError(f"module 'paddle.nn.functional' has no attribute '{name}'")
    return fn


def _build_layer(layer, attns, config: dict) -> None:
    """The attention blocks named ``attns``, then linear1, dropout, linear2, norm1..n,
    dropout1..n (n = one more than the attention blocks), in paddle's order, from the
    constructor's arguments ``config`` (kept for the stacks, which rebuild from them)."""
    layer._config = config
    c = dict(config)
    d_model, dim_ff, dropout = c["d_model"], c["dim_feedforward"], c["dropout"]
    _check_sizes(d_model, c["nhead"], dim_ff)
    attn_dropout = dropout if c["attn_dropout"] is None else c["attn_dropout"]
    act_dropout = dropout if c["act_dropout"] is None else c["act_dropout"]
    layer.normalize_before = c["normalize_before"]
    n = len(attns) + 1
    w, b = _param_attrs(c["weight_attr"], n), _param_attrs(c["bias_attr"], n)
    for i, name in enumerate(attns):
        setattr(layer, name, MultiHeadAttention(d_model, c["nhead"], dropout=attn_dropout,
                                                weight_attr=w[i], bias_attr=b[i]))
    layer.linear1 = Linear(d_model, dim_ff, w[-1], bias_attr=b[-1])
    layer.dropout = Dropout(act_dropout, mode="upscale_in_train")
    layer.linear2 = Linear(dim_ff, d_model, w[-1], bias_attr=b[-1])
    for i in range(1, n + 1):
        setattr(layer, f"norm{i}", LayerNorm(d_model, c["layer_norm_eps"]))
    for i in range(1, n + 1):
        setattr(layer, f"dropout{i}", Dropout(dropout, mode="upscale_in_train"))
    layer.activation = _act(c["activation"])


class TransformerEncoderLayer(Layer):
    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None,
                 bias_attr=None, layer_norm_eps=1e-05) -> None:
        config = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        super().__init__()
        _build_layer(self, ("self_attn",), config)

    def forward(self, src, src_mask=None, cache=None):
        if cache is not None:
            raise NotImplementedError("TransformerEncoderLayer: incremental decoding caches")
        src_mask = _attention_mask(src_mask, src)

        def ff(x):
            return NA.feed_forward(x, self.linear1, self.linear2, self.activation,
                                   self.dropout)
        return NA.encoder_layer(src, lambda x: self.self_attn(x, x, x, src_mask), ff,
                                self.norm1, self.norm2, self.dropout1, self.dropout2,
                                self.normalize_before)


def _check_sizes(d_model, nhead, dim_feedforward) -> None:
    if d_model <= 0:
        raise AssertionError(f"Expected d_model to be greater than 0, but received {d_model}")
    if nhead <= 0:
        raise AssertionError(f"Expected nhead to be greater than 0, but received {nhead}")
    if dim_feedforward <= 0:
        raise AssertionError("Expected dim_feedforward to be greater than 0, but received "
                             f"{dim_feedforward}")


class TransformerDecoderLayer(Layer):
    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None,
                 bias_attr=None, layer_norm_eps=1e-05) -> None:
        config = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        super().__init__()
        _build_layer(self, ("self_attn", "cross_attn"), config)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        if cache is not None:
            raise NotImplementedError("TransformerDecoderLayer: incremental decoding caches")
        tgt_mask = _attention_mask(tgt_mask, tgt)
        memory_mask = _attention_mask(memory_mask, memory)

        def ff(x):
            return NA.feed_forward(x, self.linear1, self.linear2, self.activation,
                                   self.dropout)
        return NA.decoder_layer(
            tgt, lambda x: self.self_attn(x, x, x, tgt_mask),
            lambda x: self.cross_attn(x, memory, memory, memory_mask), ff,
            (self.norm1, self.norm2, self.norm3), (self.dropout1, self.dropout2, self.dropout3),
            self.normalize_before)


def _stack(layer, num_layers: int) -> LayerList:
    # paddle builds the other layers afresh from the first one's arguments (new weights)
    return LayerList([layer if i == 0 else type(layer)(**layer._config)
                      for i in range(num_layers)])


class TransformerEncoder(Layer):
    def __init__(self, encoder_layer, num_layers, norm=None) -> None:
        super().__init__()
        self.layers = _stack(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src, src_mask=None, cache=None):
        if cache is not None:
            raise NotImplementedError("TransformerEncoder: incremental decoding caches")
        src_mask = _attention_mask(src_mask, src)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=src_mask)
        return self.norm(output) if self.norm is not None else output


class TransformerDecoder(Layer):
    def __init__(self, decoder_layer, num_layers, norm=None) -> None:
        super().__init__()
        self.layers = _stack(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        if cache is not None:
            raise NotImplementedError("TransformerDecoder: incremental decoding caches")
        tgt_mask = _attention_mask(tgt_mask, tgt)
        memory_mask = _attention_mask(memory_mask, memory)
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)
        return self.norm(output) if self.norm is not None else output


class Transformer(Layer):
    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None,
                 custom_encoder=None, custom_decoder=None) -> None:
        super().__init__()
        _check_sizes(d_model, nhead, dim_feedforward)
        args = (d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                act_dropout, normalize_before)
        ew, dw = _split_attrs(weight_attr, "weight_attr")
        eb, db = _split_attrs(bias_attr, "bias_attr")
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(TransformerEncoderLayer(*args, ew, eb),
                                              num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(TransformerDecoderLayer(*args, dw, db),
                                              num_decoder_layers, LayerNorm(d_model))
        self.d_model = d_model
        self.nhead = nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        memory = self.encoder(src, src_mask=_attention_mask(src_mask, src))
        return self.decoder(tgt, memory, tgt_mask=_attention_mask(tgt_mask, tgt),
                            memory_mask=_attention_mask(memory_mask, memory))

    def generate_square_subsequent_mask(self, length):
        """[length, length] float mask: -inf above the diagonal, 0 elsewhere."""
        from ..creation import zeros
        return NA.causal_float_mask(zeros([1], _default_dtype()), int(length))


def _split_attrs(attr, what: str):
    """(encoder attrs, decoder attrs) from a Transformer's weight_attr/bias_attr."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], list(attr)
    raise AssertionError(f"length of {what} should be 1 or 2 or 3 when it is a list/tuple")
__all__ = ["LayerNorm", "MultiHeadAttention", "Transformer", "TransformerDecoder",
           "TransformerDecoderLayer", "TransformerEncoder", "TransformerEncoderLayer"]
