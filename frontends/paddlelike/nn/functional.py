"""paddle.nn.functional: activations, linear, dropout and the losses, in paddle's names."""
from __future__ import annotations

from janusgrad.dropin import module_getattr as _module_getattr
from janusgrad.nn import functional as _F
from janusgrad.nn import variants as _V
from janusgrad.ops import elementwise as E
from janusgrad.surface import Row, install

from .._table import flatten as _flatten
from ..dialect import matmul_error
from ..meta import to_np

_REDUCTIONS = ("mean", "sum", "none")


def gelu(x, approximate=False, name=None):
    if approximate is True or approximate == "tanh":
        return _F.gelu(x, "tanh")
    return _F.gelu(x, "none")


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
    if mode == "downscale_in_infer":  # drop without rescaling; scale by 1-p at inference
        return E.mul(_F.dropout(x, p, True), 1.0 - p) if training else E.mul(x, 1.0 - p)
    return _F.dropout(x, p, training)


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
    return _F.l1_loss(input, label, reduction)


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
    return _V.keepdim_cross_entropy(input, label, weight, ignore_index, reduction, soft_label,
                                    axis, use_softmax, label_smoothing)


def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
             name=None):
    _check_reduction(reduction, "nll_loss")
    n = input.array.shape[1] if input.array.ndim > 1 else input.array.shape[0]
    bad = _V.first_bad_label(label, n, ignore_index)
    if bad is not None:
        raise ValueError(_NLL_RANGE_MESSAGE)
    if reduction == "mean":
        return _V.nll_mean_zero_when_all_ignored(input, label, weight, ignore_index, axis=1)
    return _F.nll_loss(input, label, weight, ignore_index, reduction, axis=1)


_NLL_RANGE_MESSAGE = (
    "(InvalidArgument) label should not be out of bounds.\n  [Hint: Expected cur_label >= 0 && "
    "cur_label < n_classes == true, but received cur_label >= 0 && cur_label < n_classes:0 != "
    "true:1.] (at /paddle/paddle/phi/kernels/cpu/nll_loss_kernel.cc:65)\n")


def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):  # noqa: A002
    _check_reduction(reduction, "binary_cross_entropy")
    return _F.binary_cross_entropy(input, label, weight, reduction)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean",
                                     pos_weight=None, name=None):
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
    return _F.binary_cross_entropy_with_logits(logit, label, weight, pos_weight, reduction)


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    loss = cross_entropy(logits, label, ignore_index=ignore_index, reduction="none",
                         soft_label=soft_label, axis=axis)
    if return_softmax:
        return loss, softmax(logits, axis)  # noqa: F821 (installed below)
    return loss


def one_hot(x, num_classes=-1, name=None):  # -1: one more than the largest class
    from janusgrad.backend import default_float
    from janusgrad.ops import manip
    return manip.one_hot(x, num_classes, default_float)


# ---------------------------------------------------------------- layer norm, attention (attn)
from janusgrad.nn import attention as _NA  # noqa: E402
from janusgrad.ops import shape as _S  # noqa: E402


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
    return _NA.layer_norm(x, n, affine[0], affine[1], epsilon)


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
install([
    Row("relu", "elementwise.relu", "x, name=None", "x"),
    Row("sigmoid", "elementwise.sigmoid", "x, name=None", "x"),
    Row("tanh", "elementwise.tanh", "x, name=None", "x"),
    *(Row(n, f"reduce.{n}", "x, axis=-1, dtype=None, name=None",
          "x if dtype is None else E.cast(x, to_np(dtype)), axis") for n in ("softmax",
                                                                               "log_softmax")),
    Row("leaky_relu", _F.leaky_relu, "x, negative_slope=0.01, name=None", "x, negative_slope"),
    Row("softplus", _F.softplus, "x, beta=1, threshold=20, name=None", "x, beta, threshold"),
    Row("flatten", _flatten, "x, start_axis=0, stop_axis=-1, name=None",
        "x, start_axis, stop_axis"),
    Row("square_error_cost", E.square, "input, label", "E.sub(input, label)"),
    Row("mean", "reduce.mean", "x", "x"),
], globals(), None, module="paddle.nn.functional", env={"E": E, "to_np": to_np})

__getattr__ = _module_getattr("paddlelike", "paddle.nn.functional")
