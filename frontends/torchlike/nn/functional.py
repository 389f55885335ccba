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


# ---------------------------------------------------------------- normalisation, embedding,
# structured dropout (the norm part: torch's checks in torchlike/_norm.py, math in engine.nn.norm)
# ---------------------------------------------------------------- convolutions (conv part)
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
__getattr__ = module_getattr("torchlike", "torch.nn.functional")
