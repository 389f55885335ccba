"""torch.nn.functional: torch's names, defaults, checks and node names over engine.nn."""
from __future__ import annotations

import warnings

from janusgrad.dropin import module_getattr
from janusgrad.nn import functional as NF

from .._grad_fn import tag
from .._size import Size
from .._table import FUNCTIONS

relu = FUNCTIONS["relu"]
sigmoid = FUNCTIONS["sigmoid"]
tanh = FUNCTIONS["tanh"]
_flatten = FUNCTIONS["flatten"]
softmax, log_softmax = FUNCTIONS["softmax"], FUNCTIONS["log_softmax"]


def _legacy_reduction(size_average, reduce, reduction: str) -> str:
    if size_average is None and reduce is None:
        return reduction
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  "reduction='{}' instead.".format(
                      "none" if reduce is False else ("sum" if size_average is False
                                                      else "mean")), UserWarning, stacklevel=3)
    if reduce is False:
        return "none"
    return "sum" if size_average is False else "mean"


def _check_reduction(reduction: str) -> None:
    if reduction not in NF.REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


# ---------------------------------------------------------------- layers
def linear(input, weight, bias=None):  # noqa: A002
    xs, ws = input.array.shape, weight.array.shape
    if not xs or xs[-1] != ws[-1]:
        rows = 1
        for n in xs[:-1]:
            rows *= n
        cols = xs[-1] if xs else 1
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{cols} and "
                           f"{ws[-1]}x{ws[0]})")
    y = NF.linear(input, weight, bias)
    if y.node is not None:
        if len(xs) == 2:
            tag(y, "AddmmBackward0" if bias is not None else "MmBackward0")
        else:
            tag(y, "ViewBackward0")
    return y


def dropout(input, p: float = 0.5, training: bool = True, inplace: bool = False):  # noqa: A002
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return NF.dropout(input, p, training)


def gelu(input, approximate: str = "none"):  # noqa: A002
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return tag(NF.gelu(input, approximate), "GeluBackward0")


def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False):  # noqa: A002
    return tag(NF.leaky_relu(input, negative_slope), "LeakyReluBackward0")


def softplus(input, beta: float = 1.0, threshold: float = 20.0):  # noqa: A002
    return tag(NF.softplus(input, beta, threshold), "SoftplusBackward0")


def flatten(input, start_dim: int = 0, end_dim: int = -1):  # noqa: A002
    nd = input.array.ndim
    if nd and start_dim % nd == end_dim % nd:  # nothing to merge: torch returns the input
        return input
    return _flatten(input, start_dim, end_dim)


# ---------------------------------------------------------------- regression losses
def _size_warning(input, target) -> None:  # noqa: A002
    if input.array.shape != target.array.shape:
        warnings.warn(f"Using a target size ({Size(target.array.shape)}) that is different to "
                      f"the input size ({Size(input.array.shape)}). This will likely lead to "
                      "incorrect results due to broadcasting. Please ensure they have the same "
                      "size.", UserWarning, stacklevel=3)


def mse_loss(input, target, size_average=None, reduce=None, reduction: str = "mean",  # noqa: A002
             weight=None):
    _size_warning(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    return tag(NF.mse_loss(input, target, reduction), "MseLossBackward0")


def l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean",  # noqa: A002
            weight=None):
    _size_warning(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    return NF.l1_loss(input, target, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None,  # noqa: A002
                   reduction: str = "mean", beta: float = 1.0):
    _size_warning(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return tag(NF.smooth_l1_loss(input, target, reduction, beta), "SmoothL1LossBackward0")


def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0,  # noqa: A002
               weight=None):
    _size_warning(input, target)
    _check_reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return tag(NF.huber_loss(input, target, reduction, delta), "HuberLossBackward0")


# ---------------------------------------------------------------- classification losses
def _check_class_target(input, target, ignore_index: int) -> None:  # noqa: A002
    xs, ts = input.array.shape, target.array.shape
    if target.array.dtype.kind not in "iu":
        name = {"f": "Float", "b": "Bool"}.get(target.array.dtype.kind, "Float")
        if target.array.dtype.name == "float64":
            name = "Double"
        raise RuntimeError(f"expected scalar type Long but found {name}")
    if len(xs) == 1:
        if len(ts) != 0:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    elif len(xs) == 2:
        if len(ts) != 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if ts[0] != xs[0]:
            raise ValueError(f"Expected input batch_size ({xs[0]}) to match target "
                             f"batch_size ({ts[0]}).")
    n_classes = xs[0] if len(xs) == 1 else xs[1]
    bad = NF.first_bad_target(n_classes, target, ignore_index)
    if bad is not None:
        raise IndexError(f"Target {bad} is out of bounds.")


def nll_loss(input, target, weight=None, size_average=None, ignore_index: int = -100,  # noqa: A002
             reduce=None, reduction: str = "mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    _check_class_target(input, target, ignore_index)
    return tag(NF.nll_loss(input, target, weight, ignore_index, reduction), "NllLossBackward0")


def cross_entropy(input, target, weight=None, size_average=None,  # noqa: A002
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing}")
    probs = target.array.dtype.kind == "f" and target.array.shape == input.array.shape
    if probs:
        out = NF.cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing,
                               target_is_probs=True)
        return tag(out, "DivBackward1") if reduction == "mean" else out
    if target.array.dtype.kind == "f":
        raise RuntimeError("expected target dtype to be Long or Byte, but got Float")
    _check_class_target(input, target, ignore_index)
    out = NF.cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)
    return out if label_smoothing > 0 else tag(out, "NllLossBackward0")


def binary_cross_entropy(input, target, weight=None, size_average=None,  # noqa: A002
                         reduce=None, reduction: str = "mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if target.array.shape != input.array.shape:
        raise ValueError(f"Using a target size ({Size(target.array.shape)}) that is different "
                         f"to the input size ({Size(input.array.shape)}) is deprecated. Please "
                         "ensure they have the same size.")
    if NF.outside_unit_interval(input):
        raise RuntimeError("all elements of input should be between 0 and 1")
    return tag(NF.binary_cross_entropy(input, target, weight, reduction),
               "BinaryCrossEntropyBackward0")


def binary_cross_entropy_with_logits(input, target, weight=None,  # noqa: A002
                                     size_average=None, reduce=None, reduction: str = "mean",
                                     pos_weight=None):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if target.array.shape != input.array.shape:
        raise ValueError(f"Target size ({Size(target.array.shape)}) must be the same as input "
                         f"size ({Size(input.array.shape)})")
    return tag(NF.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction),
               "BinaryCrossEntropyWithLogitsBackward0")


def one_hot(tensor, num_classes: int = -1):
    # torch takes int64 indices only (the engine op takes any integer dtype)
    from janusgrad.ops import manip
    if tensor.array.dtype.name != "int64":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    return manip.one_hot(tensor, num_classes)


# ---------------------------------------------------------------- layer norm, attention (attn)
from janusgrad.nn import attention as _NA  # noqa: E402
from janusgrad.ops import shape as _S  # noqa: E402


def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-05):  # noqa: A002
    return FUNCTIONS["layer_norm"](input, normalized_shape, weight, bias, eps)


native_layer_norm = FUNCTIONS["native_layer_norm"]


def rms_norm(input, normalized_shape, weight=None, eps=None):  # noqa: A002
    return FUNCTIONS["rms_norm"](input, normalized_shape, weight, eps)


def _bool_or_float(mask, where: str):
    dt = mask.array.dtype
    if dt.kind not in "bf":
        raise AssertionError(f"only bool and floating types of {where} are supported")


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(Q K^T * scale + mask) V on (..., L, E); a bool mask: True = attend."""
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be "
                           "set when is_causal=True")
    if enable_gqa and query.array.ndim >= 3:
        hq, hk = query.array.shape[-3], key.array.shape[-3]
        if hq % hk:
            raise RuntimeError("Number of heads in key and value must divide the number of "
                               "heads in query")
    out, _ = _NA.scaled_dot_product_attention(
        query, key, value, (attn_mask,), dropout_p, is_causal, scale, enable_gqa, True)
    return out


def _mha_mask(mask, n: int, heads: int, length: int, src: int, kind: str):
    """A torch MHA mask as an engine mask broadcasting to [N, H, L, S]: bool flipped to
    keep (True = ignore in torch), float kept additive."""
    if mask is None:
        return None
    _bool_or_float(mask, kind)
    a = mask
    if kind == "key_padding_mask":
        a = _S.reshape(a, (n, 1, 1, src))
    elif a.array.ndim == 3:
        if a.array.shape != (n * heads, length, src):
            raise RuntimeError(f"The shape of the 3D attn_mask is {Size(a.array.shape)}, but "
                               f"should be {(n * heads, length, src)}.")
        a = _S.reshape(a, (n, heads, length, src))
    elif a.array.ndim == 2:
        if a.array.shape != (length, src):
            raise RuntimeError(f"The shape of the 2D attn_mask is {Size(a.array.shape)}, but "
                               f"should be {(length, src)}.")
    else:
        raise RuntimeError(f"attn_mask's dimension {a.array.ndim} is not supported")
    if a.array.dtype.kind == "b":
        from janusgrad.ops import elementwise as _E
        return _E.logical_not(a)
    return a


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False):
    """torch's multi-head attention on (L, N, E) (or unbatched (L, E)) inputs."""
    if static_k is not None or static_v is not None:
        raise NotImplementedError("multi_head_attention_forward: static_k/static_v")
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    batched = query.array.ndim == 3
    if not batched:
        query, key, value = (_S.reshape(t, (t.array.shape[0], 1, t.array.shape[1]))
                             for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = _S.reshape(key_padding_mask, (1, -1))
    length, n, e = query.array.shape
    src = key.array.shape[0]
    if e != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {e}")
    if e % num_heads:
        raise AssertionError(f"embed_dim {e} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        wq, wk, wv = q_proj_weight, k_proj_weight, v_proj_weight
    else:
        wq, wk, wv = (_S.narrow(in_proj_weight, 0, i * e, e) for i in range(3))
    bq = bk = bv = None
    if in_proj_bias is not None:
        bq, bk, bv = (_S.narrow(in_proj_bias, 0, i * e, e) for i in range(3))
    masks = [_mha_mask(attn_mask, n, num_heads, length, src, "attn_mask"),
             _mha_mask(key_padding_mask, n, num_heads, length, src, "key_padding_mask")]
    q, k, v = (_S.swapaxes(t, 0, 1) for t in (query, key, value))
    out, w = _NA.multi_head_attention(
        q, k, v, num_heads, wq, wk, wv, bq, bk, bv, out_proj_weight, out_proj_bias, masks,
        dropout_p, training, need_weights, average_attn_weights, bias_k=bias_k, bias_v=bias_v,
        add_zero_attn=add_zero_attn)
    out = _S.swapaxes(out, 0, 1)
    if not batched:
        out = _S.reshape(out, (length, e))
        if w is not None:
            w = _S.squeeze(w, 0)
    return out, w


__all__ = [
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "dropout",
    "flatten", "gelu", "huber_loss", "l1_loss", "leaky_relu", "linear", "log_softmax",
    "mse_loss", "nll_loss", "one_hot", "relu", "sigmoid", "smooth_l1_loss", "softmax",
    "softplus", "tanh",
]
__all__ += ["layer_norm", "multi_head_attention_forward", "native_layer_norm", "rms_norm",
            "scaled_dot_product_attention"]
__getattr__ = module_getattr("torchlike", "torch.nn.functional")
