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
    if use_global_stats:
        return _NN.batch_norm(x, running_mean, running_var, weight, bias, False, momentum,
                              epsilon, axis)
    if x.array.size // max(c, 1) == 1:  # paddle passes one value per channel through
        return x
    return _NN.batch_norm(x, running_mean, running_var, weight, bias, True, momentum,
                          epsilon, axis, history_weight=True, unbiased_running=False)


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.9, eps=1e-05, data_format="NCHW",
                  name=None):
    # paddle's kernel normalises each instance over axes 2.. and ignores the running
    # statistics and use_input_stats (documented as obsolete)
    return _NN.instance_norm(x, None, None, weight, bias, True, momentum, eps)


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
    return _NN.group_norm(x, num_groups, weight, bias, epsilon, axis)


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

__getattr__ = _module_getattr("paddlelike", "paddle.nn.functional")
