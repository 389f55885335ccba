"""paddle.nn.functional: activations, linear, dropout and the losses, in paddle's names."""
from __future__ import annotations

from janusgrad.binding.surface import Row, install
from janusgrad.host.dropin import module_getattr as _module_getattr
from janusgrad.nn import functional as _F
from janusgrad.nn import variants as _V
from janusgrad.ops import elementwise as E

from .._table import flatten as _flatten
from ..dialect import matmul_error
from ..dialect import tag as _tag
from ..meta import to_np

_REDUCTIONS = ("mean", "sum", "none")


def gelu(x, approximate=False, name=None):
    how = "tanh" if approximate is True or approximate == "tanh" else "none"
    return _tag(_F.gelu(x, how), "GeluGradNode", x)


def linear(x, weight, bias=None, name=None):
    """x @ weight + bias with ``weight`` [in_features, out_features]."""
    xs, ws = x.array.shape, weight.array.shape
    if xs and ws and xs[-1] != ws[0]:
        err = matmul_error(xs, ws)
        raise type(err)(str(err) + "  [operator < linear > error]")
    if x.array.dtype != weight.array.dtype:
        raise ValueError(_dtype_mismatch(weight, x) + "  [operator < linear > error]")
    return _F.linear(x, weight, bias, weight_in_out=True)


def _dtype_mismatch(want, got) -> str:
    from ..meta import of_np
    w, g = of_np(want.array.dtype), of_np(got.array.dtype)
    return (f"(InvalidArgument) The type of data we are trying to retrieve ({w.name}) does not "
            f"match the type of data ({g.name}) currently contained in the container.\n  "
            f"[Hint: Expected dtype() == phi::CppTypeToDataType<T>::Type(), but received "
            f"dtype():{g.code} != phi::CppTypeToDataType<T>::Type():{w.code}.] (at "
            "/paddle/paddle/phi/core/dense_tensor.cc:153)\n")


def dropout(x, p=0.5, axis=None, training=True, inplace=False, mode="upscale_in_train",
            name=None):
    if not 0 <= p <= 1:
        raise ValueError("p argument should between 0 and 1")
    if mode not in ("downscale_in_infer", "upscale_in_train"):
        raise ValueError("mode argument should be 'downscale_in_infer' or 'upscale_in_train'")
    if axis is not None and training and p > 0:
        axes = [axis] if isinstance(axis, int) else list(axis)
        return _V.dropout_shared_mask(x, p, axes, scale=mode == "upscale_in_train")
    if p == 0:  # paddle returns x itself
        return x
    if mode == "downscale_in_infer":  # drop without rescaling; scale by 1-p at inference
        out = E.mul(_F.dropout(x, p, True), 1.0 - p) if training else E.mul(x, 1.0 - p)
    else:  # paddle's kernel copies x at inference
        out = _F.dropout(x, p, True) if training else E.clone(x)
    return _tag(out, "DropoutGradNode", x)


def _check_reduction(reduction: str, api: str) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"The value of 'reduction' in {api} should be 'sum', 'mean' or "
                         f"'none', but received {reduction}, which is not allowed.")


def mse_loss(input, label, reduction="mean", name=None):  # noqa: A002
    if reduction not in _REDUCTIONS:
        raise ValueError("'reduction' in 'mse_loss' should be 'sum', 'mean' or 'none', but "
                         f"received {reduction}.")
    return _F.mse_loss(input, label, reduction)


def l1_loss(input, label, reduction="mean", name=None):  # noqa: A002
    _check_reduction(reduction, "L1Loss")
    return _mean_all(_F.l1_loss(input, label, reduction), reduction, input)


def _mean_all(out, reduction: str, input):  # noqa: A002
    """paddle's losses that end in ``mean`` run its mean_all kernel."""
    return _tag(out, "MeanAllGradNode" if reduction == "mean" else None, input)


def smooth_l1_loss(input, label, reduction="mean", delta=1.0, is_huber=True,  # noqa: A002
                   name=None):
    _check_reduction(reduction, "smooth_l1_loss")
    return _V.huber_or_smooth_l1(input, label, reduction, delta, is_huber)


def _label_range_error(value: int, n: int, ignore_index: int) -> IndexError:
    if value < 0:
        return IndexError(
            f"(OutOfRange) label value should >= 0 when label value({value}) not equal to "
            f"ignore_index({ignore_index})\n  [Hint: Expected lbl >= 0, but received "
            f"lbl:{value} < 0:0.] (at /paddle/paddle/phi/kernels/funcs/cross_entropy.cc:58)\n")
    return IndexError(
        f"(OutOfRange) label value should less than the shape of axis dimension when label "
        f"value({value}) not equal to ignore_index({ignore_index}), But received label value "
        f"as {value} and shape of axis dimension is {n}\n  [Hint: Expected lbl < axis_dim_, "
        f"but received lbl:{value} >= axis_dim_:{n}.] (at "
        "/paddle/paddle/phi/kernels/funcs/cross_entropy.cc:65)\n")


def _label_smooth_kernel_message(label) -> str:
    from ..meta import of_np
    name = of_np(label.array.dtype).name
    cond = ("kernel_iter == iter->second.end() && kernel_key.backend() == Backend::CPU")
    return (f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {name}) of kernel "
            f"`label_smooth` is not registered. Selected wrong DataType `{name}`. Paddle "
            f"support following DataTypes: float64, float32.\n  [Hint: Expected {cond} != "
            f"true, but received {cond}:1 == true:1.] (at "
            "/paddle/paddle/phi/core/kernel_factory.cc:317)\n")


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
                  soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    if reduction not in _REDUCTIONS:
        raise ValueError("The value of 'reduction' in softmax_cross_entropyshould be 'sum', "
                         f"'mean' or 'none', but received {reduction}, which is not allowed.")
    if ignore_index > 0 and soft_label:
        raise ValueError("When soft_label == True, the value of 'ignore_index' in "
                         "softmax_cross_entropyshould be '-100', but received "
                         f"{ignore_index}, which is not allowed.")
    nd, ld = input.array.ndim, len(label.array.shape)
    if nd == 0:
        raise ValueError("The dimension of input should be larger than zero!")
    if nd - 1 != ld and nd != ld:
        raise ValueError(f"Expected input_dims - 1 = label_dims or input_dims == label_dims"
                         f"             (got input_dims{nd}, label_dims{ld})")
    if label_smoothing > 0.0 and nd == ld and label.array.dtype.kind in "iu":
        # paddle smooths such labels as they are (no one-hot): its kernel has no int version
        raise RuntimeError(_label_smooth_kernel_message(label))
    if not soft_label and label_smoothing == 0.0:
        n = input.array.shape[axis]
        bad = _V.first_bad_label(label, n, ignore_index)
        if bad is not None:
            raise _label_range_error(bad, n, ignore_index)
    if weight is not None and not soft_label and label_smoothing == 0.0 \
            and input.array.shape[axis] != weight.array.shape[-1]:
        raise ValueError(f"input's class_dimension({input.array.shape[axis]}) must equal to "
                         f"weight's class_dimension({weight.array.shape[-1]}) when weight is "
                         "provided")
    if weight is not None and soft_label:
        ls, ws = label.array.shape, weight.array.shape
        if ls[-1] != ws[-1]:  # paddle gathers soft-label weights by label @ weight
            raise matmul_error(ls, ws, False, True)
    out = _V.keepdim_cross_entropy(input, label, weight, ignore_index, reduction, soft_label,
                                   axis, use_softmax, label_smoothing)
    return _tag(out, _cross_entropy_node(nd, ld, weight, reduction, soft_label, use_softmax,
                                         label_smoothing), input)


def _cross_entropy_node(nd, ld, weight, reduction, soft_label, use_softmax, smoothing) -> str:
    """paddle's last kernel: softmax-with-cross-entropy, then (hard labels given without the
    class axis) a squeeze, then an unweighted mean over all elements."""
    if reduction == "mean" and weight is None:
        return "MeanAllGradNode"
    if reduction == "none" and use_softmax and weight is None:
        hard = not soft_label and smoothing == 0.0
        return "SqueezeGradNode" if hard and ld == nd - 1 else "CrossEntropyWithSoftmaxGradNode"
    return None


def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
             name=None):
    _check_reduction(reduction, "nll_loss")
    n = input.array.shape[1] if input.array.ndim > 1 else input.array.shape[0]
    bad = _V.first_bad_label(label, n, ignore_index)
    if bad is not None:
        raise ValueError(_NLL_RANGE_MESSAGE)
    if reduction == "mean":
        out = _V.nll_mean_zero_when_all_ignored(input, label, weight, ignore_index, axis=1)
    else:
        out = _F.nll_loss(input, label, weight, ignore_index, reduction, axis=1)
    return _tag(out, "NllLossGradNode", input)


_NLL_RANGE_MESSAGE = (
    "(InvalidArgument) label should not be out of bounds.\n  [Hint: Expected cur_label >= 0 && "
    "cur_label < n_classes == true, but received cur_label >= 0 && cur_label < n_classes:0 != "
    "true:1.] (at /paddle/paddle/phi/kernels/cpu/nll_loss_kernel.cc:65)\n")


def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):  # noqa: A002
    _check_reduction(reduction, "binary_cross_entropy")
    # paddle's kernel gives the label no gradient
    out = _F.binary_cross_entropy(input, label.detach(), weight, reduction)
    if reduction == "none" and weight is None:
        return _tag(out, "BceLossGradNode", input)
    return _mean_all(out, reduction, input)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean",
                                     pos_weight=None, name=None):
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
    # paddle's kernel gives the label and pos_weight no gradient (weight gets one)
    if pos_weight is not None:
        pos_weight = pos_weight.detach()
    out = _F.binary_cross_entropy_with_logits(logit, label.detach(), weight, pos_weight,
                                              reduction)
    if reduction == "none" and weight is None and pos_weight is None:
        return _tag(out, "SigmoidCrossEntropyWithLogitsGradNode", logit)
    return _mean_all(out, reduction, logit)


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    loss = cross_entropy(logits, label, ignore_index=ignore_index, reduction="none",
                         soft_label=soft_label, axis=axis)
    # paddle's one kernel makes both results; its label keeps the class axis
    loss = _tag(loss, "CrossEntropyWithSoftmaxGradNode", logits)
    if return_softmax:
        sm = softmax(logits, axis)  # noqa: F821 (installed below)
        return loss, _tag(sm, "CrossEntropyWithSoftmaxGradNode", logits)
    return loss


def one_hot(x, num_classes=-1, name=None):  # -1: one more than the largest class
    from janusgrad.array.backend import default_float
    from janusgrad.ops import manip
    return manip.one_hot(x, num_classes, default_float)


# ---------------------------------------------------------------- layer norm, attention (attn)
from janusgrad.nn import attention as _NA  # noqa: E402
from janusgrad.ops import shape as _S  # noqa: E402


def _attr(value: float) -> float:
    """An op's float attribute as paddle keeps it, in float32 whatever the input's dtype
    (a norm's epsilon and momentum: float64 inputs see their float32 values)."""
    return _struct.unpack("f", _struct.pack("f", value))[0]


def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Normalise over the trailing ``normalized_shape`` axes; ``weight``/``bias`` are 1-D
    (the normalised axes flattened), as paddle stores them."""
    if isinstance(normalized_shape, int):
        shape = [normalized_shape]
    elif isinstance(normalized_shape, (list, tuple)):
        shape = list(normalized_shape)
    else:
        raise ValueError("`normalized_shape` should be int, list of ints or tuple of ints.")
    xs = list(x.array.shape)
    n = len(shape)
    if len(xs) < n or xs[len(xs) - n:] != shape:
        raise ValueError(f"Given normalized_shape is {shape}, expected input with shape "
                         f"[*, {str(shape)[1:]}, but got input shape {xs}")
    if len(xs) == n:
        raise ValueError("(InvalidArgument) 'begin_norm_axis' in Op(LayerNorm) should be "
                         "greater than zero. But received [0].\n  [Hint: Expected "
                         "begin_norm_axis > 0, but received begin_norm_axis:0 <= 0:0.] (at "
                         "/paddle/paddle/phi/infermeta/ternary.cc:1428)\n")
    affine = []
    for what, t in (("Scale", weight), ("Bias", bias)):
        if t is not None:
            nd = t.array.ndim
            if nd != 1:
                raise ValueError(
                    f"(InvalidArgument) The dimensions of Input({what}) must be 1, but received "
                    f"dimensions of Input({what}) is [{nd}]\n  [Hint: Expected "
                    f"{what.lower()}.dims().size() == 1, but received {what.lower()}.dims()."
                    f"size():{nd} != 1:1.] (at /paddle/paddle/phi/infermeta/ternary.cc:1451)\n")
            t = _S.reshape(t, shape)
        affine.append(t)
    return _tag(_NA.layer_norm(x, n, affine[0], affine[1], _attr(epsilon)),
                "LayerNormGradNode", x)


def _sdpa_heads_error(q, k, v, enable_gqa):
    qh, kh, vh = q.array.shape[2], k.array.shape[2], v.array.shape[2]
    if enable_gqa:
        if not (kh == 0 or qh % kh == 0):
            raise AssertionError(f"The number of groups in query({qh}) must be divisible by "
                                 f"the number of groups in key({kh}) if GQA enabled.")
        if kh != vh:
            raise AssertionError(f"The number of groups in key({kh}) must be equal to the "
                                 f"number of groups in value({vh}) if GQA enabled.")
    elif not qh == kh == vh:
        raise AssertionError(f"The number of groups in query({qh}) must be equal to the number "
                             f"of groups in key({kh}) and the number of groups in value({vh}) "
                             "if GQA disabled.")


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, training=True, backend=None, scale=None,
                                 enable_gqa=True, name=None):
    """Attention on paddle's [batch, seq, heads, dim] layout (3-D: one batch); a bool mask
    is True = attend; ``is_causal`` adds paddle's -1e4 upper triangle and ignores the mask."""
    batched = query.array.ndim == 4
    if not batched:
        query, key, value = (_S.unsqueeze(t, 0) for t in (query, key, value))
    _sdpa_heads_error(query, key, value, enable_gqa)
    q, k, v = (_S.transpose(t, (0, 2, 1, 3)) for t in (query, key, value))
    masks = ()
    if is_causal:
        masks = (_NA.causal_float_mask(q, q.array.shape[-2], k.array.shape[-2], -1e4),)
    elif attn_mask is not None:
        masks = (attn_mask,)
    out, _ = _NA.scaled_dot_product_attention(q, k, v, masks, dropout_p, False, scale or None,
                                              enable_gqa, training, safe=False)
    out = _S.transpose(out, (0, 2, 1, 3))
    return out if batched else _S.squeeze(out, 0)


# the functions that only rename or drop arguments, as table rows over engine functions
INSTALLED = install([
    Row("relu", "elementwise.relu", "x, name=None", "x"),
    Row("sigmoid", "elementwise.sigmoid", "x, name=None", "x"),
    Row("tanh", "elementwise.tanh", "x, name=None", "x"),
    *(Row(n, f"reduce.{n}", "x, axis=-1, dtype=None, name=None",
          "x if dtype is None else E.cast(x, to_np(dtype)), axis") for n in ("softmax",
                                                                               "log_softmax")),
    Row("leaky_relu", _F.leaky_relu, "x, negative_slope=0.01, name=None", "x, negative_slope",
        node="LeakyReluGradNode"),
    Row("softplus", _F.softplus, "x, beta=1, threshold=20, name=None", "x, beta, threshold",
        node="SoftplusGradNode"),
    Row("flatten", _flatten, "x, start_axis=0, stop_axis=-1, name=None",
        "x, start_axis, stop_axis"),
    Row("square_error_cost", E.square, "input, label", "E.sub(input, label)"),
    Row("mean", "reduce.mean", "x", "x"),
], globals(), None, module="paddle.nn.functional", env={"E": E, "to_np": to_np}, tag=_tag)


# ---------------------------------------------------------------- normalisation, embedding,
# structured dropout (the norm part: paddle's signatures, checks and messages over
# engine.nn.norm)
from janusgrad.nn import norm as _NN  # noqa: E402

_BN_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def _channel_axis(data_format: str) -> int:
    return 1 if data_format[1] == "C" else -1


def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.9, epsilon=1e-05, data_format="NCHW", use_global_stats=None,
               name=None):
    if len(x.shape) < 2:
        raise AssertionError("input dim must be larger than 1")
    if data_format not in _BN_FORMATS:
        raise ValueError("data_format must be one of 'NC', 'NCL', 'NCHW', 'NCDHW', "
                         f"'NLC', 'NHWC', 'NDHWC' but receive {data_format}")
    axis = _channel_axis(data_format)
    c = x.array.shape[axis]
    for t in (weight, bias, running_mean, running_var):
        if t is not None and t.array.shape != (c,):
            raise ValueError(
                f"(InvalidArgument) ShapeError: the shape of scale must equal to [{c}]But "
                f"received: the shape of scale is [{t.array.shape[0] if t.array.ndim else 1}]")
    if use_global_stats is None:
        use_global_stats = not training
    momentum, epsilon = _attr(momentum), _attr(epsilon)
    if use_global_stats:
        out = _NN.batch_norm(x, running_mean, running_var, weight, bias, False, momentum,
                             epsilon, axis)
    elif x.array.size // max(c, 1) == 1:  # paddle passes one value per channel through
        return x
    else:
        out = _NN.batch_norm(x, running_mean, running_var, weight, bias, True, momentum,
                             epsilon, axis, history_weight=True, unbiased_running=False)
    return _tag(out, "BatchNormGradNode", x)


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.9, eps=1e-05, data_format="NCHW",
                  name=None):
    # paddle's kernel normalises each instance over axes 2.. and ignores the running
    # statistics and use_input_stats (documented as obsolete)
    return _tag(_NN.instance_norm(x, None, None, weight, bias, True, momentum, _attr(eps)),
                "InstanceNormGradNode", x)


def group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW",
               name=None):
    if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError("unsupported data layout:" + data_format)
    axis = _channel_axis(data_format)
    c = x.array.shape[axis]
    if c % num_groups:
        raise ValueError("(InvalidArgument) Expected number of channels in input to be "
                         f"divisible by num_groups, but got input channel is {c} and "
                         f"num_groups is {num_groups}")
    return _tag(_NN.group_norm(x, num_groups, weight, bias, epsilon, axis), "GroupNormGradNode",
                x)


def local_response_norm(x, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW",
                        name=None):
    if data_format not in ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC"):
        raise ValueError("data_format should be in one of [NCL, NCHW, NCDHW, NLC, NHWC, "
                         f"NDHWC], but got {data_format}")
    dim = x.array.ndim
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input, but got {dim} "
                         "dimensions")
    for i, sz in enumerate(x.array.shape):
        if not sz > 0 and i > 0:
            raise ValueError("Expected every dim's size to be larger than 0, but the size "
                             f"of the {i}-th dim is {sz}")
    return _NN.local_response_norm(x, size, alpha, beta, k, _channel_axis(data_format))


def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False,
              scale_grad_by_freq=False, name=None):
    n = weight.array.shape[0]
    if padding_idx is not None and not -n <= padding_idx < n:
        raise ValueError(f"padding_idx must be within [-{n}, {n})")
    kind = x.array.dtype.name
    if kind not in ("int32", "int64"):
        raise NotImplementedError(
            f"(Unimplemented) embedding input only support int32 and int64, but get {kind} "
            "(at /paddle/paddle/phi/kernels/cpu/embedding_kernel.cc:112)")
    a = x.array
    if a.size:
        bad = a[(a < -1) | (a >= n)] if padding_idx is None else a[(a < 0) | (a >= n)]
        if bad.size:
            raise ValueError(f"(InvalidArgument) Variable value (input) of OP(embedding) "
                             f"expected >= 0 and < {n}, but got {int(bad.reshape(-1)[0])}. "
                             "Please check input value.")
    pad = None if padding_idx is None else (padding_idx + n if padding_idx < 0
                                            else padding_idx)
    return _NN.embedding(weight, x, pad, max_norm, norm_type, zero_padding_output=True)


def _feature_dropout(x, p, training, ndim, data_format, formats):
    if len(x.shape) != ndim:
        raise ValueError(f"dimensions of x should be {ndim}, but received {len(x.shape)} "
                         f"!= {ndim}")
    if data_format not in formats:
        raise ValueError(f"Attr(data_format) should be {formats[0]!r} or {formats[1]!r}. "
                         f"Received Attr(data_format): {data_format}.")
    if not 0 <= p <= 1:
        raise ValueError("p argument should between 0 and 1")
    shape = [1] * ndim
    shape[0] = x.array.shape[0]
    ch = 1 if data_format == formats[0] else ndim - 1
    shape[ch] = x.array.shape[ch]
    return _NN.masked_dropout(x, p, training, shape)


def dropout2d(x, p=0.5, training=True, data_format="NCHW", name=None):
    return _feature_dropout(x, p, training, 4, data_format, ("NCHW", "NHWC"))


def dropout3d(x, p=0.5, training=True, data_format="NCDHW", name=None):
    return _feature_dropout(x, p, training, 5, data_format, ("NCDHW", "NDHWC"))


def _alpha_dropout(x, p, training, feature):
    if not isinstance(p, (float, int)):
        raise TypeError("p argument should be a float or int")
    if p < 0 or p > 1:
        raise ValueError("p argument should between 0 and 1")
    if not training:
        return x
    shape = None
    if feature:
        if x.array.ndim < 2:
            raise ValueError("Feature alpha dropout needs at least 2D input.")
        shape = _NN.feature_mask_shape(x.array.shape)
    return _NN.masked_dropout(x, p, training, shape, alpha=True)


def alpha_dropout(x, p=0.5, training=True, name=None):
    return _alpha_dropout(x, p, training, False)


def feature_alpha_dropout(x, p=0.5, training=True, name=None):
    return _alpha_dropout(x, p, training, True)
# ---------------------------------------------------------------- convolutions (conv part)
# ---------------------------------------------------------------- pooling, padding, resampling
# (part "pool": paddle's names, layouts and checks over janusgrad.nn.pool)
from janusgrad.nn import pool as _P  # noqa: E402

from .conv import (  # noqa: E402, F401  (paddle's forms; the math is janusgrad.nn.conv)
    conv1d,
    conv1d_transpose,
    conv2d,
    conv2d_transpose,
    conv3d,
    conv3d_transpose,
    fold,
    unfold,
)

_FLT_LOWEST = -3.4028234663852886e38


def _ints(v, n):
    if hasattr(v, "array"):
        v = v.array.tolist()
    if isinstance(v, (list, tuple)):
        v = [int(e) for e in v]
        return tuple(v * n) if len(v) == 1 else tuple(v)
    return (int(v),) * n


def _channels_last(x, d, data_format):
    return data_format is not None and data_format[-1] == "C" and data_format[1] != "C"


def _to_first(x, d):
    nd = x.array.ndim
    return _S.transpose(x, (0, nd - 1) + tuple(range(1, nd - 1)))


def _to_last(x, d):
    nd = x.array.ndim
    return _S.transpose(x, (0,) + tuple(range(2, nd)) + (1,))


def _pool_padding(padding, d, sp, k, s):
    """paddle's pooling padding (int, d ints, 2d ints, per-dim pairs, 'SAME', 'VALID') as
    (before, after) pairs."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            return [(0, 0)] * d
        if mode != "SAME":
            raise ValueError(f"Unknown padding: '{padding}'. It can only be 'SAME' or 'VALID'.")
        pairs = []
        for i in range(d):
            out = -(-sp[i] // s[i])
            total = max((out - 1) * s[i] + k[i] - sp[i], 0)
            pairs.append((total // 2, total - total // 2))
        return pairs
    if isinstance(padding, (list, tuple)) and padding and isinstance(padding[0], (list, tuple)):
        pairs = [tuple(int(e) for e in p) for p in padding]
        return pairs[-d:] if len(pairs) == d + 2 else pairs
    p = _ints(padding, d)
    if len(p) == 2 * d:
        return [(p[2 * i], p[2 * i + 1]) for i in range(d)]
    if len(p) != d:
        raise ValueError(f"Paddings should be an integer or a list of {d} or {2 * d} integers, "
                         f"but received {list(p)}")
    return [(e, e) for e in p]


def _pool_setup(x, d, kernel_size, stride, padding, data_format, op):
    nd = x.array.ndim
    if nd != d + 2:
        if d == 1:
            raise ValueError(f"The input of {op} should be 3-D Tensor, but received "
                             f"{nd}-D Tensor with shape {list(x.array.shape)}")
        raise ValueError(f"(InvalidArgument) the input of Op(pool) should be 4-D or 5-D "
                         f"Tensor. But received: {nd}-D Tensor and it's shape is "
                         f"{list(x.array.shape)}.")
    last = _channels_last(x, d, data_format)
    if last:
        x = _to_first(x, d)
    k = _ints(kernel_size, d)
    s = k if stride is None else _ints(stride, d)
    if any(e <= 0 for e in k) or any(e <= 0 for e in s):
        raise ValueError(f"(InvalidArgument) {op} kernel size and strides should be positive")
    pairs = _pool_padding(padding, d, x.array.shape[2:], k, s)
    return x, k, s, pairs, last


def _check_out(x, d, k, s, pairs, ceil_mode):
    sp = x.array.shape[2:]
    outs = [_P.pool_out_size(sp[i], k[i], s[i], *pairs[i], 1, ceil_mode, False)
            for i in range(d)]
    if any(o <= 0 for o in outs):
        raise ValueError(f"(InvalidArgument) The output size of pool should be positive, but "
                         f"received input shape {list(x.array.shape)}, kernel size {list(k)} "
                         f"and the output size {outs}.")


def _pool_node(d: int, with_index: bool = False) -> str:
    """paddle's pooling kernel: pool2d/pool3d, max_pool2d_with_index (indices asked for, or
    adaptive max); its 1-d pools run the 2-d kernel between an unsqueeze and a squeeze."""
    if d == 1:
        return "SqueezeGradNode"
    return f"MaxPool{d}dWithIndexGradNode" if with_index else f"Pool{d}dGradNode"


def _pd_max_pool(d):
    op = f"max_pool{d}d"

    def max_pool(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
                 data_format=None, name=None):
        if return_mask and isinstance(padding, (list, tuple)) and len(padding) == 2 * d \
                and d > 1 and not isinstance(padding[0], (list, tuple)):
            raise ValueError(f"(InvalidArgument) Paddings size {2 * d} and pooling size {d} "
                             "should be the same.")
        x, k, s, pairs, last = _pool_setup(x, d, kernel_size, stride, padding, data_format, op)
        _check_out(x, d, k, s, pairs, ceil_mode)
        out, idx = _P.max_pool(x, k, s, pairs, None, bool(ceil_mode), "ignore", _FLT_LOWEST,
                               ceil_trim=False)
        mask = type(x).wrap(idx.astype("int32"))
        if last:
            out, mask = _to_last(out, d), _to_last(mask, d)
        out = _tag(out, _pool_node(d, return_mask), x)
        return (out, mask) if return_mask else out
    max_pool.__name__ = max_pool.__qualname__ = op
    if d == 1:
        def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False,
                       ceil_mode=False, name=None):
            return max_pool(x, kernel_size, stride, padding, return_mask, ceil_mode)
        return max_pool1d
    return max_pool


def _pd_avg_pool(d):
    op = f"avg_pool{d}d"

    def avg_pool(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
                 divisor_override=None, data_format=None, name=None):
        x, k, s, pairs, last = _pool_setup(x, d, kernel_size, stride, padding, data_format, op)
        _check_out(x, d, k, s, pairs, ceil_mode)
        out = _P.avg_pool(x, k, s, pairs, bool(ceil_mode),
                          "valid" if exclusive else "padded_before", None, ceil_trim=False)
        if divisor_override:
            # paddle: the average scaled by kernel size / divisor_override
            n = 1
            for e in k:
                n *= e
            out = E.mul(out, n / divisor_override)
        return _tag(_to_last(out, d) if last else out, _pool_node(d), x)
    avg_pool.__name__ = avg_pool.__qualname__ = op
    if d == 1:
        def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True,
                       ceil_mode=False, name=None):
            return avg_pool(x, kernel_size, stride, padding, ceil_mode, exclusive)
        return avg_pool1d
    return avg_pool


max_pool1d, max_pool2d, max_pool3d = (_pd_max_pool(d) for d in (1, 2, 3))
avg_pool1d, avg_pool2d, avg_pool3d = (_pd_avg_pool(d) for d in (1, 2, 3))


def _out_sizes(x, d, output_size):
    sp = x.array.shape[2:]
    if hasattr(output_size, "array"):
        output_size = output_size.array.tolist()
    if isinstance(output_size, (list, tuple)):
        if len(output_size) == 1:
            output_size = list(output_size) * d
        return tuple(sp[i] if o is None else int(o) for i, o in enumerate(output_size))
    return (int(output_size),) * d


def _pd_adaptive(d, how):
    op = f"adaptive_{how}_pool{d}d"

    def check(x):
        if x.array.ndim != d + 2:
            raise ValueError(f"(InvalidArgument) The input of {op} should be "
                             f"{d + 2}-D Tensor, but received {x.array.ndim}-D Tensor")

    if how == "avg":
        def adaptive(x, output_size, data_format=None, name=None):
            check(x)
            last = _channels_last(x, d, data_format)
            if last:
                x = _to_first(x, d)
            out = _P.adaptive_avg_pool(x, _out_sizes(x, d, output_size))
            return _tag(_to_last(out, d) if last else out, _pool_node(d), x)
        if d == 1:
            def adaptive_avg_pool1d(x, output_size, name=None):
                return adaptive(x, output_size)
            return adaptive_avg_pool1d
    else:
        def adaptive(x, output_size, return_mask=False, name=None):
            check(x)
            out, idx = _P.adaptive_max_pool(x, _out_sizes(x, d, output_size), "ignore")
            out = _tag(out, _pool_node(d, True), x)
            return (out, type(x).wrap(idx.astype("int32"))) if return_mask else out
    adaptive.__name__ = adaptive.__qualname__ = op
    return adaptive


adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d = (
    _pd_adaptive(d, "avg") for d in (1, 2, 3))
adaptive_max_pool1d, adaptive_max_pool2d, adaptive_max_pool3d = (
    _pd_adaptive(d, "max") for d in (1, 2, 3))


def _pd_unpool(d):
    op = f"max_unpool{d}d"

    def max_unpool(x, indices, kernel_size, stride=None, padding=0, data_format=None,
                   output_size=None, name=None):
        k = _ints(kernel_size, d)
        s = k if stride is None else _ints(stride, d)
        pairs = _pool_padding(padding, d, x.array.shape[2:], k, s)
        sp = x.array.shape[2:]
        if output_size is None:
            outs = tuple((sp[i] - 1) * s[i] - pairs[i][0] - pairs[i][1] + k[i]
                         for i in range(d))
        else:
            outs = tuple(int(e) for e in list(output_size)[-d:])
        n = 1
        for e in outs:
            n *= e
        idx = indices.array
        if idx.size and int(idx.max()) >= n:
            raise ValueError(f"(InvalidArgument) index should less than output tensor "
                             f"{'height * output tensor width' if d == 2 else 'size'}. "
                             f"Expected {int(idx.max())} < {n}, but got {int(idx.max())} >= "
                             f"{n}. Please check input value.")
        return _P.max_unpool(x, idx, outs)
    max_unpool.__name__ = max_unpool.__qualname__ = op
    return max_unpool


max_unpool1d, max_unpool2d, max_unpool3d = (_pd_unpool(d) for d in (1, 2, 3))


def _pad_node(nd: int, n: int) -> str | None:
    """paddle's kernel: its general pad op for a list over every axis, else pad3d (between an
    unsqueeze and a squeeze on 3-d and 4-d inputs)."""
    if n == 2 * nd:
        return "PadGradNode"
    if nd in (3, 4, 5) and n == 2 * (nd - 2):
        return "Pad3dGradNode" if nd == 5 else "SqueezeGradNode"
    return None


def pad(x, pad, mode="constant", value=0.0, data_format=None, pad_from_left_axis=True,
        name=None):
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise AssertionError("mode should be one of constant, reflect, replicate, circular, "
                             f"but got {mode}.")
    nd = x.array.ndim
    if hasattr(pad, "array"):
        pad = pad.array.tolist()
    pad = [int(e) for e in ([pad] * (2 * (nd - 2)) if isinstance(pad, int) else pad)]
    if mode == "constant":
        if len(pad) == 2 * nd and pad_from_left_axis:
            pairs = [(pad[2 * i], pad[2 * i + 1]) for i in range(nd)]
        else:
            n = len(pad) // 2
            pairs = [(pad[2 * (n - 1 - i)], pad[2 * (n - 1 - i) + 1]) for i in range(n)]
        if not (nd in (3, 4, 5) and len(pad) == 2 * (nd - 2)):
            # (paddle's general pad op, on the full list from axis 0, refuses negatives; its
            # 3-5-d spatial form crops)
            full = [0] * (2 * (nd - len(pairs))) + [e for pr in pairs for e in pr]
            for i, e in enumerate(full):
                if e < 0:
                    raise ValueError(f"(InvalidArgument) The element of 'paddings' should >= "
                                     f"0, but received {e} for index {i}.")
        return _tag(_P.pad(x, pairs, "constant", value), _pad_node(nd, len(pad)), x)
    if nd not in (3, 4, 5):
        raise AssertionError(f"input tensor dimension must be in [3, 4, 5] but got {nd}")
    d = nd - 2
    if len(pad) != 2 * d:
        raise ValueError(f"(InvalidArgument) Size of paddings should be equal to "
                         f"{2 * d + 2}, but received {len(pad) + 2}.")
    last = data_format is not None and data_format[-1] == "C"
    if last:
        x = _to_first(x, d)
    n = len(pad) // 2
    pairs = [(pad[2 * (n - 1 - i)], pad[2 * (n - 1 - i) + 1]) for i in range(n)]
    out = _P.pad(x, pairs, mode)
    return _tag(_to_last(out, d) if last else out, _pad_node(nd, len(pad)), x)


_PD_MODES = {"nearest": "nearest", "linear": "linear", "bilinear": "linear",
             "trilinear": "linear", "bicubic": "cubic", "area": "area"}


def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
                align_mode=0, data_format=None, recompute_scale_factor=None, antialias=False,
                name=None):
    mode = mode.lower()
    if mode not in _PD_MODES:
        raise ValueError("The 'resample' of image_resize can only be 'area', 'linear', "
                         "'bilinear', 'trilinear', 'bicubic' or 'nearest' currently.")
    nd = x.array.ndim
    need = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}
    if mode in need and nd != need[mode]:
        raise ValueError(f"'{mode}' only support {need[mode]}-D tensor.")
    if mode == "nearest" and nd == 3:
        raise ValueError("'NEAREST' only support 4-D  or 5-D tensor.")
    if mode == "area" and size is None:
        raise ValueError("output size can not be None in AREA mode")
    if mode == "nearest" and align_corners:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if size is None and scale_factor is None:
        raise ValueError("One of size and scale_factor must not be None.")
    d = nd - 2
    last = data_format is not None and data_format[-1] == "C" and data_format[1] != "C"
    if last:
        x = _to_first(x, d)
    sp = x.array.shape[2:]
    scales = None
    if size is not None:
        if hasattr(size, "array"):
            size = size.array.tolist()
        sizes = tuple(int(e.array.item()) if hasattr(e, "array") else int(e)
                      for e in (size if isinstance(size, (list, tuple)) else [size] * d))
    else:
        if hasattr(scale_factor, "array"):
            scale_factor = scale_factor.array.tolist()
        f = list(scale_factor) if isinstance(scale_factor, (list, tuple)) else [scale_factor] * d
        f = [float(e) for e in f]
        if any(e <= 0 for e in f):
            raise ValueError("Attr(scale) should be greater than zero.")
        sizes = tuple(int(sp[i] * f[i]) for i in range(d))
        if not recompute_scale_factor:
            scales = tuple(1.0 / e for e in f)
    out = _P.interpolate(x, sizes, _PD_MODES[mode], bool(align_corners), scales,
                         align_mode if mode in ("linear", "bilinear", "trilinear") else 0,
                         f32_ratio=True)
    # paddle's kernels: <mode>_interp, and an adaptive average pool for "area"
    node = _pool_node(d) if mode == "area" else mode.capitalize() + "InterpGradNode"
    return _tag(_to_last(out, d) if last else out, node, x)


def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False,
             align_mode=0, data_format=None, name=None):
    return interpolate(x, size, scale_factor, mode, align_corners, align_mode, data_format)


def pixel_shuffle(x, upscale_factor, data_format="NCHW", name=None):
    if x.array.ndim != 4:
        raise ValueError(f"Input x should be 4D tensor, but received x with the shape of "
                         f"{list(x.array.shape)}")
    r = int(upscale_factor)
    last = data_format == "NHWC"
    if last:
        x = _to_first(x, 2)
    c = x.array.shape[1]
    if c % (r * r):
        raise ValueError(f"(InvalidArgument) The square of upscale_factor[{r * r}] should "
                         f"divide the number of channel[{c}]")
    out = _P.pixel_shuffle(x, r)
    return _tag(_to_last(out, 2) if last else out, "PixelShuffleGradNode", x)


def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None):
    if x.array.ndim != 4:
        raise ValueError(f"Input x should be 4D tensor, but received x with the shape of "
                         f"{list(x.array.shape)}")
    r = int(downscale_factor)
    if r <= 0:
        raise ValueError("Downscale factor must be positive")
    last = data_format == "NHWC"
    if last:
        x = _to_first(x, 2)
    h, w = x.array.shape[2:]
    if h % r or w % r:
        raise ValueError(f"(InvalidArgument) Downscale_factor[{r}] should divide the height"
                         f"[{h}] and width[{w}]")
    out = _P.pixel_unshuffle(x, r)
    return _tag(_to_last(out, 2) if last else out, "PixelUnshuffleGradNode", x)


def channel_shuffle(x, groups, data_format="NCHW", name=None):
    if x.array.ndim != 4:
        raise ValueError(f"Input x should be 4D tensor, but received x with the shape of "
                         f"{list(x.array.shape)}")
    g = int(groups)
    if g <= 0:
        raise ValueError("groups should be positive")
    axis = 3 if data_format == "NHWC" else 1
    c = x.array.shape[axis]
    if c % g:
        raise ValueError(f"(InvalidArgument) The number of groups to divide channels in [{g}] "
                         f"should divide the number of channel [{c}]")
    return _tag(_P.channel_shuffle(x, g, axis), "ChannelShuffleGradNode", x)
# ---------------------------------------------------------------- activations and losses family
# (engine.ops.activation, engine.nn.losses) in paddle's names and defaults: paddle's
# hardsigmoid is clip(slope x + offset, 0, 1) with slope 0.1666667; prelu's weight follows
# data_format (channels on axis 1 for NC*, last for N*C); cosine_similarity clamps the
# product of the squared norms; cosine_embedding_loss adds 1e-11 to each squared magnitude
# and reduces the last axis; hinge_embedding_loss counts only labels 1 and -1
import struct as _struct  # noqa: E402

from janusgrad.nn import losses as _NL  # noqa: E402
from janusgrad.ops import activation as _A  # noqa: E402


def _reduction_check(reduction, api):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"'reduction' in '{api}' should be 'sum', 'mean' or 'none', but "
                         f"received {reduction}.")


def hardswish(x, name=None):
    return _A.hardswish(x)


def _f32(v: float) -> float:
    return _struct.unpack("f", _struct.pack("f", v))[0]


def hardsigmoid(x, slope=0.1666667, offset=0.5, name=None):
    # paddle's kernel holds slope and offset as float32 numbers, whatever x's dtype
    return _A.hardsigmoid(x, _f32(slope), _f32(offset))


def glu(x, axis=-1, name=None):
    n = x.array.shape[axis]
    if n % 2:
        raise ValueError(f"The dimension of x along axis {axis} should be even, but received "
                         f"{n}.")
    return _A.glu(x, axis)


def elu(x, alpha=1.0, name=None):
    return _A.elu(x, alpha)


def celu(x, alpha=1.0, name=None):
    if alpha == 0:
        raise ZeroDivisionError("alpha cannot be 0 for celu")
    return _tag(_A.celu(x, alpha), "CeluGradNode", x)


def selu(x, scale=_A.SELU_SCALE, alpha=_A.SELU_ALPHA, name=None):
    if scale <= 1.0:
        raise ValueError(f"The scale must be greater than 1.0. Received: {scale}.")
    if alpha < 0:
        raise ValueError(f"The alpha must be no less than zero. Received: {alpha}.")
    return _tag(_A.selu(x, scale, alpha), "SeluGradNode", x)


def prelu(x, weight, data_format="NCHW", name=None):
    nd = x.array.ndim
    channel_last = data_format in ("NHWC", "NLC", "NDHWC")
    return _tag(_A.prelu(x, weight, -1 if channel_last and nd >= 2 else 1), "PreluGradNode", x)


def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    if not 0 <= lower <= 1 or not 0 <= upper <= 1:
        raise ValueError(f"The lower value must be no less than zero and the upper value must "
                         f"be no more than one. Received: {lower}, {upper}.")
    if upper < lower:
        raise ValueError(f"The upper value must be greater than lower value. Received: "
                         f"{lower}, {upper}.")
    return _tag(_A.rrelu(x, lower, upper, training, zero_passes=True),  # (x = 0 passes g)
                "RreluGradNode", x)


def silu(x, inplace=False, name=None):
    return _A.silu(x)


def swish(x, name=None):
    return _tag(_A.silu(x), "SwishGradNode", x)


def mish(x, name=None):
    return _A.mish(x)


def log_sigmoid(x, name=None):
    return _A.logsigmoid(x)


logsigmoid = log_sigmoid


def softsign(x, name=None):
    return _A.softsign(x)


def tanhshrink(x, name=None):
    return _tag(_A.tanhshrink(x), "TanhShrinkGradNode", x)


def thresholded_relu(x, threshold=1.0, value=0.0, name=None):
    return _tag(_A.threshold(x, threshold, value), "ThresholdedReluGradNode", x)


def softshrink(x, threshold=0.5, name=None):
    if threshold < 0:
        raise ValueError(f"The threshold must be no less than zero. Received: {threshold}.")
    return _A.softshrink(x, threshold)


def hardshrink(x, threshold=0.5, name=None):
    return _A.hardshrink(x, threshold, keep_bounds=True)  # (|x| = threshold is kept)


def hardtanh(x, min=-1.0, max=1.0, name=None):  # noqa: A002
    return _A.hardtanh(x, min, max)


def relu6(x, name=None):
    return _tag(_A.relu6(x), "Relu6GradNode", x)


def normalize(x, p=2, axis=1, epsilon=1e-12, out=None, name=None):
    return _NL.normalize(x, p, axis, epsilon)


def cosine_similarity(x1, x2, axis=1, eps=1e-8):
    return _NL.cosine_similarity(x1, x2, axis, eps, clamp_product=True)


def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    return _NL.pairwise_distance(x, y, p, epsilon, keepdim)


def pdist(x, p=2.0, name=None):
    return _NL.pdist(x, p)


def bilinear(x1, x2, weight, bias=None, name=None):
    return _NL.bilinear(x1, x2, weight, bias)


def soft_margin_loss(input, label, reduction="mean", name=None):  # noqa: A002
    _check_reduction(reduction, "soft_margin_loss")
    if tuple(input.array.shape) != tuple(label.array.shape):
        raise ValueError("input's shape must equal to label's shape")
    return _NL.soft_margin_loss(input, E.cast(label, input.array.dtype), reduction)


def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean",  # noqa: A002
                        name=None):
    _check_reduction(reduction, "MarginRankingLoss")
    out = _NL.margin_ranking_loss(input, other, label, margin, reduction)
    return _mean_all(out, reduction, input) if reduction != "none" else \
        _tag(out, "ReluGradNode", input)


def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None):  # noqa: A002
    _reduction_check(reduction, "hinge_embedding_loss")
    return _NL.hinge_embedding_loss(input, label, margin, reduction, exact_labels=True)


def multi_margin_loss(input, label, p=1, margin=1.0, weight=None,  # noqa: A002
                      reduction="mean", name=None):
    _reduction_check(reduction, "multi_margin_loss")
    if input.array.shape[0] != label.array.shape[0]:
        raise ValueError("The label's shape[0] should be equal to input's shape[0], but "
                         f"received input's shape[0] {input.array.shape[0]} and label's "
                         f"shape[0]:{label.array.shape[0]}. ")
    return _NL.multi_margin_loss(input, label, p, margin, weight, reduction)


def multi_label_margin_loss(input, label, reduction="mean", name=None):  # noqa: A002
    _reduction_check(reduction, "multi_label_margin_loss")
    return _NL.multilabel_margin_loss(input, label, reduction)


def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean",  # noqa: A002
                                 name=None):
    _check_reduction(reduction, "multi_label_soft_margin_loss")
    if tuple(input.array.shape) != tuple(label.array.shape):
        raise ValueError("The input and label should have same dimension,but received "
                         f"{input.array.ndim}!={label.array.ndim}")
    return _NL.multilabel_soft_margin_loss(input, E.cast(label, input.array.dtype), weight,
                                           reduction)


def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-6,  # noqa: A002
                        swap=False, reduction="mean", name=None):
    _check_reduction(reduction, "TripletMarginLoss")
    return _NL.triplet_margin_loss(input, positive, negative, margin, p, epsilon, swap,
                                   reduction)


def triplet_margin_with_distance_loss(input, positive, negative,  # noqa: A002
                                      distance_function=None, margin=1.0, swap=False,
                                      reduction="mean", name=None):
    _check_reduction(reduction, "TripletMarginWithDistanceLoss")
    if margin <= 0:
        raise ValueError(f"The margin between positive samples and negative samples should "
                         f"be greater than 0, but received {margin}, which is not allowed.")
    return _NL.triplet_margin_loss(input, positive, negative, margin, swap=swap,
                                   reduction=reduction,
                                   distance=distance_function or pairwise_distance)


def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    if label.array.ndim != 1:
        raise ValueError("1D target tensor expected, multi-target not supported")
    if tuple(input1.array.shape) != tuple(input2.array.shape):
        raise ValueError("the shape of input tensor 1 should be equal to input tensor 2, but "
                         "found inputs with different sizes")
    if input1.array.ndim > 2:
        raise ValueError("1D target tensor expects 1D or 2D input tensors, but found inputs "
                         "with different sizes")
    _check_reduction(reduction, "cosine_embedding_loss")
    return _NL.cosine_embedding_loss(input1, input2, label, margin, reduction, 10e-12, -1)


def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-6,  # noqa: A002
                      reduction="mean", name=None):
    vs, xs = tuple(variance.array.shape), tuple(input.array.shape)
    if vs != xs:
        if xs[:-1] == vs:
            variance = _S.unsqueeze(variance, -1)
        elif not (xs[:-1] == vs[:-1] and vs[-1:] == (1,)):
            raise ValueError("variance is of incorrect shape")
    if reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not valid")
    if bool((variance.array < 0).any()):
        raise ValueError("variance has negative entry/entries")
    # paddle clamps the variance under no_grad by reassignment: it gets no gradient
    return _NL.gaussian_nll_loss(input, label, variance.detach(), full, epsilon, reduction)


def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-8,  # noqa: A002
                     reduction="mean", name=None):
    if epsilon <= 0:
        raise ValueError(f"The value of `epsilon` in poisson_nll_loss should be positive, but "
                         f"received {epsilon:f}, which is not allowed")
    _check_reduction(reduction, "poisson_nll_loss")
    if tuple(input.array.shape) != tuple(label.array.shape):
        raise ValueError("input's shape must equal to label's shape")
    return _NL.poisson_nll_loss(input, label, log_input, full, epsilon, reduction)


def kl_div(input, label, reduction="mean", log_target=False, name=None):  # noqa: A002
    di, dl = input.array.dtype, label.array.dtype
    if di != dl and di.kind == dl.kind == "f":  # paddle casts the float32 one to float64
        if di.itemsize < dl.itemsize:
            input = E.cast(input, dl)
        else:
            label = E.cast(label, di)
    return _NL.kl_div(input, label.detach(), reduction, log_target)  # (no label gradient)


__getattr__ = _module_getattr("paddlelike", "paddle.nn.functional")
