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
    # paddle's kernel gives the label no gradient
    return _F.binary_cross_entropy(input, label.detach(), weight, reduction)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean",
                                     pos_weight=None, name=None):
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
    # paddle's kernel gives the label and pos_weight no gradient (weight gets one)
    if pos_weight is not None:
        pos_weight = pos_weight.detach()
    return _F.binary_cross_entropy_with_logits(logit, label.detach(), weight, pos_weight,
                                               reduction)


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

# ---------------------------------------------------------------- activations and losses family
# (engine.ops.activation, engine.nn.losses) in paddle's names and defaults: paddle's
# hardsigmoid is clip(slope x + offset, 0, 1) with slope 0.1666667; prelu's weight follows
# data_format (channels on axis 1 for NC*, last for N*C); cosine_similarity clamps the
# product of the squared norms; cosine_embedding_loss adds 1e-11 to each squared magnitude
# and reduces the last axis; hinge_embedding_loss counts only labels 1 and -1
import struct as _struct  # noqa: E402

from janusgrad.nn import losses as _NL  # noqa: E402
from janusgrad.ops import activation as _A  # noqa: E402
from janusgrad.ops import shape as _S  # noqa: E402


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
    return _A.celu(x, alpha)


def selu(x, scale=_A.SELU_SCALE, alpha=_A.SELU_ALPHA, name=None):
    if scale <= 1.0:
        raise ValueError(f"The scale must be greater than 1.0. Received: {scale}.")
    if alpha < 0:
        raise ValueError(f"The alpha must be no less than zero. Received: {alpha}.")
    return _A.selu(x, scale, alpha)


def prelu(x, weight, data_format="NCHW", name=None):
    nd = x.array.ndim
    channel_last = data_format in ("NHWC", "NLC", "NDHWC")
    return _A.prelu(x, weight, -1 if channel_last and nd >= 2 else 1)


def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    if not 0 <= lower <= 1 or not 0 <= upper <= 1:
        raise ValueError(f"The lower value must be no less than zero and the upper value must "
                         f"be no more than one. Received: {lower}, {upper}.")
    if upper < lower:
        raise ValueError(f"The upper value must be greater than lower value. Received: "
                         f"{lower}, {upper}.")
    return _A.rrelu(x, lower, upper, training, zero_passes=True)  # (x = 0 passes g)


def silu(x, inplace=False, name=None):
    return _A.silu(x)


def swish(x, name=None):
    return _A.silu(x)


def mish(x, name=None):
    return _A.mish(x)


def log_sigmoid(x, name=None):
    return _A.logsigmoid(x)


logsigmoid = log_sigmoid


def softsign(x, name=None):
    return _A.softsign(x)


def tanhshrink(x, name=None):
    return _A.tanhshrink(x)


def thresholded_relu(x, threshold=1.0, value=0.0, name=None):
    return _A.threshold(x, threshold, value)


def softshrink(x, threshold=0.5, name=None):
    if threshold < 0:
        raise ValueError(f"The threshold must be no less than zero. Received: {threshold}.")
    return _A.softshrink(x, threshold)


def hardshrink(x, threshold=0.5, name=None):
    return _A.hardshrink(x, threshold, keep_bounds=True)  # (|x| = threshold is kept)


def hardtanh(x, min=-1.0, max=1.0, name=None):  # noqa: A002
    return _A.hardtanh(x, min, max)


def relu6(x, name=None):
    return _A.relu6(x)


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
    return _NL.margin_ranking_loss(input, other, label, margin, reduction)


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
