"""torch.nn.functional: torch's names, defaults, checks and node names over engine.nn."""
from __future__ import annotations

import warnings

from janusgrad.binding.surface import aliased as _aliased
from janusgrad.host.dropin import module_getattr
from janusgrad.nn import functional as NF

from .._grad_fn import tag
from .._size import Size
from .._table import FUNCTIONS

relu = FUNCTIONS["relu"]
sigmoid = FUNCTIONS["sigmoid"]
tanh = FUNCTIONS["tanh"]
_flatten = FUNCTIONS["flatten"]


def _numpy_aliases(fn):
    """torchlike's ``axis=`` / ``keepdims=`` for ``dim`` / ``keepdim`` (both: torch's error)."""
    return _aliased(fn, {"dim": "axis", "keepdim": "keepdims"})


@_numpy_aliases
def softmax(input, dim=None, _stacklevel=3, dtype=None):  # noqa: A002
    # (dim None: the implicit one)
    return FUNCTIONS["softmax"](input, dim, dtype)


@_numpy_aliases
def log_softmax(input, dim=None, _stacklevel=3, dtype=None):  # noqa: A002
    return FUNCTIONS["log_softmax"](input, dim, dtype)


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


# ---------------------------------------------------------------- normalisation, embedding,
# structured dropout (the norm part: torch's checks in torchlike/_norm.py, math in engine.nn.norm)
# ---------------------------------------------------------------- convolutions (conv part)
# ---------------------------------------------------------------- activations and losses family
# (engine.ops.activation, engine.nn.losses): torch's names, defaults and checks; ``inplace``
# writes the result into the input (janusgrad.core.inplace)
from janusgrad.core import inplace as _inplace  # noqa: E402
from janusgrad.nn import losses as _NL  # noqa: E402
from janusgrad.ops import activation as _A  # noqa: E402

from .._conv import (  # noqa: E402  (torch's checks; the math is janusgrad.nn.conv)
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
    fold,
    unfold,
)
from .._norm import (  # noqa: E402
    alpha_dropout,
    batch_norm,
    dropout1d,
    dropout2d,
    dropout3d,
    embedding,
    feature_alpha_dropout,
    group_norm,
    instance_norm,
    local_response_norm,
)

# ---------------------------------------------------------------- pooling, padding, resampling
from .._pool import (  # noqa: E402  (part pool)
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d,
    adaptive_max_pool2d_with_indices,
    adaptive_max_pool3d,
    adaptive_max_pool3d_with_indices,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    channel_shuffle,
    constant_pad_nd,
    interpolate,
    max_pool1d,
    max_pool1d_with_indices,
    max_pool2d,
    max_pool2d_with_indices,
    max_pool3d,
    max_pool3d_with_indices,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
    pad,
    pixel_shuffle,
    pixel_unshuffle,
    upsample,
    upsample_bilinear,
    upsample_nearest,
)


def _maybe_inplace(input, inplace, fn, *args):  # noqa: A002
    return _inplace.update(input, fn, *args) if inplace else fn(input, *args)


def elu(input, alpha: float = 1.0, inplace: bool = False):  # noqa: A002
    return _maybe_inplace(input, inplace, _A.elu, alpha)


def selu(input, inplace: bool = False):  # noqa: A002
    return _maybe_inplace(input, inplace, _A.selu)


def celu(input, alpha: float = 1.0, inplace: bool = False):  # noqa: A002
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return _maybe_inplace(input, inplace, _A.celu, alpha)


def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0,  # noqa: A002
             inplace: bool = False):
    if input.array.dtype.kind == "b":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _maybe_inplace(input, inplace, _A.hardtanh, min_val, max_val)


def relu6(input, inplace: bool = False):  # noqa: A002
    return hardtanh(input, 0.0, 6.0, inplace)


def hardsigmoid(input, inplace: bool = False):  # noqa: A002
    return _maybe_inplace(input, inplace, _A.hardsigmoid)


def hardswish(input, inplace: bool = False):  # noqa: A002
    return _maybe_inplace(input, inplace, _A.hardswish)


def silu(input, inplace: bool = False):  # noqa: A002
    return _maybe_inplace(input, inplace, _A.silu)


def mish(input, inplace: bool = False):  # noqa: A002
    return _maybe_inplace(input, inplace, _A.mish)


def hardshrink(input, lambd: float = 0.5):  # noqa: A002
    return _A.hardshrink(input, lambd)


def softshrink(input, lambd: float = 0.5):  # noqa: A002
    if lambd < 0:
        kind, top = (("Double", "1.79769e+308") if input.array.dtype.name == "float64"
                     else ("Float", "3.40282e+38"))
        raise RuntimeError(f"lambda must be in range [0, {top}] for input dtype {kind}, but "
                           f"found {lambd:g}")
    return _A.softshrink(input, lambd)


def threshold(input, threshold: float, value: float, inplace: bool = False):  # noqa: A002
    return _maybe_inplace(input, inplace, _A.threshold, threshold, value)


def logsigmoid(input):  # noqa: A002
    return _A.logsigmoid(input)


def softsign(input):  # noqa: A002
    return _A.softsign(input)


def tanhshrink(input):  # noqa: A002
    return _A.tanhshrink(input)


@_numpy_aliases
def glu(input, dim: int = -1):  # noqa: A002
    nd = input.array.ndim
    if nd == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    n = input.array.shape[dim]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % nd} is size "
                           f"{n}")
    return _A.glu(input, dim)


def prelu(input, weight):  # noqa: A002
    nd = input.array.ndim
    nw = weight.array.size
    if nw != 1:
        channels = input.array.shape[1] if nd >= 2 else (input.array.shape[0] if nd else 1)
        if nd == 0 or channels != nw:
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. Found parameter "
                f"numbers = {nw} and channel size = {channels}.")
    return _A.prelu(input, weight, 1 if nd >= 2 else 0)


def rrelu(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,  # noqa: A002
          inplace: bool = False):
    return _maybe_inplace(input, inplace, _A.rrelu, lower, upper, training)


@_numpy_aliases
def softmin(input, dim=None, _stacklevel: int = 3, dtype=None):  # noqa: A002
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:  # (one more level: the alias wrapper's frame)
        warnings.warn("Implicit dimension choice for softmin has been deprecated. Change the "
                      "call to include dim=X as an argument.", stacklevel=_stacklevel + 1)
        nd = input.array.ndim
        dim = 0 if nd in (0, 1, 3) else 1
    return softmax(-input, dim)


@_numpy_aliases
def normalize(input, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None):  # noqa: A002
    return _NL.normalize(input, p, dim, eps)


@_numpy_aliases
def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8):
    return _NL.cosine_similarity(x1, x2, dim, eps)


@_numpy_aliases
def pairwise_distance(x1, x2, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
    return _NL.pairwise_distance(x1, x2, p, eps, keepdim)


def pdist(input, p: float = 2):  # noqa: A002
    if input.array.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.array.ndim}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return _NL.pdist(input, p)


def bilinear(input1, input2, weight, bias=None):
    return _NL.bilinear(input1, input2, weight, bias)


def _reduced(reduction, size_average=None, reduce=None):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    return reduction


def soft_margin_loss(input, target, size_average=None, reduce=None,  # noqa: A002
                     reduction: str = "mean"):
    return _NL.soft_margin_loss(input, target, _reduced(reduction, size_average, reduce))


def margin_ranking_loss(input1, input2, target, margin: float = 0, size_average=None,
                        reduce=None, reduction: str = "mean"):
    nd = (input1.array.ndim, input2.array.ndim, target.array.ndim)
    if len(set(nd)) != 1:
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same "
                           f"dimension but got sizes: input1: {Size(input1.array.shape)}, "
                           f"input2: {Size(input2.array.shape)}, target: "
                           f"{Size(target.array.shape)} ")
    return _NL.margin_ranking_loss(input1, input2, target, margin,
                                   _reduced(reduction, size_average, reduce))


def hinge_embedding_loss(input, target, margin: float = 1.0, size_average=None,  # noqa: A002
                         reduce=None, reduction: str = "mean"):
    return _NL.hinge_embedding_loss(input, target, margin,
                                    _reduced(reduction, size_average, reduce))


def multi_margin_loss(input, target, p: int = 1, margin: float = 1.0, weight=None,  # noqa: A002
                      size_average=None, reduce=None, reduction: str = "mean"):
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.array.ndim != 1:
        raise ValueError("weight must be one-dimensional")
    return _NL.multi_margin_loss(input, target, p, margin, weight,
                                 _reduced(reduction, size_average, reduce))


def multilabel_margin_loss(input, target, size_average=None, reduce=None,  # noqa: A002
                           reduction: str = "mean"):
    return _NL.multilabel_margin_loss(input, target, _reduced(reduction, size_average, reduce))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None,  # noqa: A002
                                reduce=None, reduction: str = "mean"):
    return _NL.multilabel_soft_margin_loss(input, target, weight,
                                           _reduced(reduction, size_average, reduce))


def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average=None, reduce=None,
                        reduction: str = "mean"):
    nd = (anchor.array.ndim, positive.array.ndim, negative.array.ndim)
    if len(set(nd)) != 1:
        raise RuntimeError(
            f"The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {nd[0]}D, positive {nd[1]}D, and negative "
            f"{nd[2]}D inputs")
    return _NL.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                   _reduced(reduction, size_average, reduce))


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean"):
    if margin <= 0:
        raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than "
                         f"0, got {margin} instead")
    _check_reduction(reduction)
    return _NL.triplet_margin_loss(anchor, positive, negative, margin, swap=swap,
                                   reduction=reduction,
                                   distance=distance_function or pairwise_distance)


def cosine_embedding_loss(input1, input2, target, margin: float = 0, size_average=None,
                          reduce=None, reduction: str = "mean"):
    td = target.array.ndim
    if td not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    return _NL.cosine_embedding_loss(input1, input2, target, margin,
                                      _reduced(reduction, size_average, reduce), 1e-12, td)


def gaussian_nll_loss(input, target, var, full: bool = False, eps: float = 1e-6,  # noqa: A002
                      reduction: str = "mean"):
    if isinstance(var, (int, float)):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = input.new_full(tuple(input.shape), float(var))
    elif bool((var.array < 0).any()):
        raise ValueError("var has negative entry/entries")
    vs, xs = tuple(var.array.shape), tuple(input.array.shape)
    if vs != xs:
        if xs[:-1] == vs:
            var = var.unsqueeze(-1)
        elif len(xs) == len(vs) and sum(b for a, b in zip(xs, vs) if a != b) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _NL.gaussian_nll_loss(input, target, var, full, eps, reduction)


def poisson_nll_loss(input, target, log_input: bool = True, full: bool = False,  # noqa: A002
                     size_average=None, eps: float = 1e-8, reduce=None,
                     reduction: str = "mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    return _NL.poisson_nll_loss(input, target, log_input, full, eps, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction: str = "mean",  # noqa: A002
           log_target: bool = False):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.", UserWarning, stacklevel=2)
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _NL.kl_div(input, target, reduction, log_target)


_ACTS_LOSSES = [
    "bilinear", "celu", "cosine_embedding_loss", "cosine_similarity", "elu",
    "gaussian_nll_loss", "glu", "hardshrink", "hardsigmoid", "hardswish", "hardtanh",
    "hinge_embedding_loss", "kl_div", "logsigmoid", "margin_ranking_loss", "mish",
    "multi_margin_loss", "multilabel_margin_loss", "multilabel_soft_margin_loss", "normalize",
    "pairwise_distance", "pdist", "poisson_nll_loss", "prelu", "relu6", "rrelu", "selu",
    "silu", "soft_margin_loss", "softmin", "softshrink", "softsign", "tanhshrink", "threshold",
    "triplet_margin_loss", "triplet_margin_with_distance_loss",
]
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
__all__ += [
    "alpha_dropout", "batch_norm", "dropout1d", "dropout2d", "dropout3d", "embedding",
    "feature_alpha_dropout", "group_norm", "instance_norm", "local_response_norm",
]
__all__ += ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
            "conv_transpose3d", "fold", "unfold"]
__all__ += [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool1d_with_indices",
    "adaptive_max_pool2d",
    "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d",
    "adaptive_max_pool3d_with_indices",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "channel_shuffle",
    "constant_pad_nd",
    "interpolate",
    "max_pool1d",
    "max_pool1d_with_indices",
    "max_pool2d",
    "max_pool2d_with_indices",
    "max_pool3d",
    "max_pool3d_with_indices",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
    "pad",
    "pixel_shuffle",
    "pixel_unshuffle",
    "upsample",
    "upsample_bilinear",
    "upsample_nearest",
]  # (part pool)
__all__ += _ACTS_LOSSES
__all__ += ["layer_norm", "multi_head_attention_forward", "native_layer_norm", "rms_norm",
            "scaled_dot_product_attention"]
__getattr__ = module_getattr("torchlike", "torch.nn.functional")
