"""Layer and loss functions built from engine ops (so differentiable to any order).

Shapes follow numpy's vocabulary: ``axis`` is the class axis of classification
losses.  ``reduction`` is "mean", "sum" or "none" everywhere.
"""
from __future__ import annotations

import math

from janusgrad.array.backend import (
    as_array,
    float64,
    host,
    int64,
    onto_device_of,
    quiet,
    special_of,
    xp_of,
)
from janusgrad.core.tensor import Tensor, record
from janusgrad.ops import check_same_device, defop, spec
from janusgrad.ops import elementwise as E
from janusgrad.ops import index as I
from janusgrad.ops import linalg as L
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.ops.creation import default_generator
from janusgrad.ops.special import erf
from janusgrad.ops.testing import array, small_shape

REDUCTIONS = ("mean", "sum", "none")


def reduce_loss(loss, reduction: str):
    """Apply a loss reduction: "mean", "sum" or "none"."""
    if reduction == "mean":
        return R.mean(loss)
    if reduction == "sum":
        return R.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _const(like, a):
    """An untracked tensor of ``like``'s class holding array ``a``."""
    return type(like).wrap(a)


def _same_device(op: str, like, *arrays) -> None:
    """The dialect's device error unless ``arrays`` live with tensor ``like``'s array (a type
    comparison each when they do)."""
    t = type(like.array)
    for a in arrays:
        if a is not None and type(a) is not t:
            check_same_device(type(like), op, like.array, *(b for b in arrays if b is not None))
            return


# ---------------------------------------------------------------- layers
def linear(x, weight, bias=None, weight_in_out: bool = False):
    """x @ weight.T + bias (weight [out, in]); weight_in_out: x @ weight (weight [in, out])."""
    w = weight if weight_in_out else S.transpose(weight)
    y = L.matmul(x, w)
    return y if bias is None else E.add(y, bias)


def dropout(x, p: float, training: bool, generator=None):
    """Zero each element with probability ``p``, scale the kept ones by 1/(1-p)."""
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return E.mul(x, 0.0)
    gen = default_generator if generator is None else generator
    keep = gen.rng.random(x.array.shape) >= p
    mask = (keep / (1.0 - p)).astype(x.array.dtype)
    return E.mul(x, _const(x, onto_device_of(mask, x.array)))


# ---------------------------------------------------------------- special functions
# erf is scipy.special's (cupyx's on GPUs): engine.ops.special; the name stays here too
def erf_array(a):
    """erf of an array's values, float64, in the array's own module."""
    return special_of(a).erf(a.astype(float64))


def lgamma_array(a):
    """log|Gamma| of an array's values, float64, in the array's own module."""
    return special_of(a).gammaln(a.astype(float64))


_SQRT_HALF = math.sqrt(0.5)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def gelu(x, approximate: str = "none"):
    """x * Phi(x); ``approximate="tanh"`` uses the tanh formula."""
    if approximate == "tanh":
        inner = E.mul(_SQRT_2_OVER_PI, E.add(x, E.mul(0.044715, E.pow(x, 3))))
        return E.mul(E.mul(x, 0.5), E.add(E.tanh(inner), 1.0))
    return E.mul(E.mul(x, 0.5), E.add(erf(E.mul(x, _SQRT_HALF)), 1.0))


def leaky_relu(x, negative_slope: float = 0.01):
    return E.where_(E.gt(x, 0.0), x, E.mul(x, negative_slope))


def softplus(x, beta: float = 1.0, threshold: float = 20.0):
    """log(1 + exp(beta x)) / beta, linear above ``threshold`` (torch/paddle alike)."""
    bx = E.mul(x, beta)
    soft = E.div(_softplus_neg(E.neg(bx)), beta)
    return E.where_(E.gt(bx, threshold), x, soft)


# ---------------------------------------------------------------- regression losses
def mse_loss(x, y, reduction: str = "mean"):
    return reduce_loss(E.square(E.sub(x, y)), reduction)


def l1_loss(x, y, reduction: str = "mean"):
    return reduce_loss(E.abs(E.sub(x, y)), reduction)


def smooth_l1_loss(x, y, reduction: str = "mean", beta: float = 1.0):
    d = E.abs(E.sub(x, y))
    if beta == 0.0:
        return reduce_loss(d, reduction)
    quad = E.div(E.mul(E.square(d), 0.5), beta)
    return reduce_loss(E.where_(E.lt(d, beta), quad, E.sub(d, 0.5 * beta)), reduction)


def huber_loss(x, y, reduction: str = "mean", delta: float = 1.0):
    d = E.abs(E.sub(x, y))
    quad = E.mul(E.square(d), 0.5)
    lin = E.mul(E.sub(d, 0.5 * delta), delta)
    return reduce_loss(E.where_(E.lt(d, delta), quad, lin), reduction)


# ---------------------------------------------------------------- classification losses
def _target_array(target, like=None):
    """A target's index array; host data (lists, numpy) is put on the device of array
    ``like``."""
    if isinstance(target, Tensor):
        return target.array
    t = as_array(target)
    return t if like is None else onto_device_of(t, like)


def first_bad_target(n_classes: int, target, ignore_index: int = -100):
    """The first class index outside [0, n_classes) (ignored entries aside), or None."""
    t = _target_array(target)
    bad = ((t < 0) | (t >= n_classes)) & (t != ignore_index)
    return int(t[bad].reshape(-1)[0]) if bad.any() else None


def _check_targets(logp, t, axis: int, ignore_index: int):
    n_classes = logp.array.shape[axis]
    value = first_bad_target(n_classes, t, ignore_index)
    if value is not None:
        raise logp.dialect.invalid("nll_loss", f"Target {value} is out of bounds.",
                                   kind="target_out_of_bounds", target=value,
                                   classes=n_classes)


def _class_axis(x, axis: int) -> int:
    nd = x.array.ndim
    return axis + nd if axis < 0 else axis


def _picked(logp, t, axis: int):
    """logp at the target class along ``axis`` (shape of the target)."""
    idx = xp_of(t).expand_dims(t, axis)
    return S.squeeze(I.take_along_axis(logp, _const(logp, idx), axis), axis)


def _class_weights(logp, weight, t, ignore_index: int):
    """Per-element weights: weight[target], zero where the target is ignored."""
    keep = t != ignore_index
    if weight is None:
        return _const(logp, keep.astype(logp.array.dtype))
    xp = xp_of(t)
    w = weight.array[xp.where(keep, t, 0)]
    return _const(logp, xp.where(keep, w, 0).astype(logp.array.dtype))


def nll_loss(logp, target, weight=None, ignore_index: int = -100, reduction: str = "mean",
             axis: int = 1):
    """Negative log-likelihood of class-index targets; the mean divides by the summed weights."""
    if logp.array.ndim == 1:  # a single sample: classes on axis 0, 0-d target
        axis = 0
    axis = _class_axis(logp, axis)
    R.refuse_integers(logp, "nll_loss")
    t = _target_array(target, logp.array).astype(int64)
    _same_device("nll_loss", logp, t, None if weight is None else weight.array)
    _check_targets(logp, t, axis, ignore_index)
    safe = xp_of(t).where(t == ignore_index, 0, t)
    w = _class_weights(logp, weight, t, ignore_index)
    loss = E.neg(E.mul(_picked(logp, safe, axis), w))
    if reduction == "mean":
        return E.div(R.sum(loss), R.sum(w))
    return reduce_loss(loss, reduction)


def _weight_along(weight, ndim: int, axis: int):
    shape = [1] * ndim
    shape[axis] = weight.array.shape[0]
    return S.reshape(weight, tuple(shape))


def cross_entropy(logits, target, weight=None, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0, axis: int = 1,
                  target_is_probs: bool = False):
    """log_softmax + nll (class indices) or the soft-target form (probabilities), with
    torch's label smoothing and weighted-mean semantics."""
    if logits.array.ndim == 1:
        axis = 0
    axis = _class_axis(logits, axis)
    n_classes = logits.array.shape[axis]
    logp = R.log_softmax(logits, axis)
    if target_is_probs:
        y = target
        if label_smoothing > 0.0:
            y = E.add(E.mul(y, 1.0 - label_smoothing), label_smoothing / n_classes)
        prod = E.mul(logp, y)
        if weight is not None:
            prod = E.mul(prod, _weight_along(weight, logp.array.ndim, axis))
        loss = E.neg(R.sum(prod, axis))
        if reduction == "mean":
            return E.div(R.sum(loss), logp.array.size // max(n_classes, 1))
        return reduce_loss(loss, reduction)
    nll = nll_loss(logp, target, weight, ignore_index, reduction, axis)
    if label_smoothing <= 0.0:
        return nll
    t = _target_array(target, logp.array).astype(int64)
    ignored = t == ignore_index
    if weight is not None:
        smooth = E.neg(R.sum(E.mul(logp, _weight_along(weight, logp.array.ndim, axis)), axis))
    else:
        smooth = E.neg(R.sum(logp, axis))
    smooth = E.mul(smooth, _const(logp, (~ignored).astype(logp.array.dtype)))
    if reduction == "mean":
        if weight is not None:
            denom = weight.array[t[~ignored]].sum()
        else:
            denom = (~ignored).sum()
        smooth = E.div(R.sum(smooth), _const(logp, as_array(denom, logp.array.dtype)))
    else:
        smooth = reduce_loss(smooth, reduction)
    return E.add(E.mul(nll, 1.0 - label_smoothing), E.mul(smooth, label_smoothing / n_classes))


def _clamped_logs(np, p):
    """log p and log(1 - p), each clamped at -100 (both frameworks' BCE)."""
    return np.maximum(np.log(p), -100.0), np.maximum(np.log(1.0 - p), -100.0)


def _bce_p(np, g, p, y):
    # the derivative of the unclamped loss with its denominator kept off zero (torch's and
    # paddle's formula): finite at p = 0 and p = 1, where the clamped logs are flat
    return g * ((p - y) / np.maximum((1.0 - p) * p, _BCE_EPS))


def _bce_y(np, g, p, y):
    log_p, log_q = _clamped_logs(np, p)
    return g * (log_q - log_p)


_BCE_EPS = 1e-12
_bce = defop("binary_cross_entropy", fresh=True, uses=("x", "y"), rule=(_bce_p, _bce_y))


def binary_cross_entropy(p, y, weight=None, reduction: str = "mean"):
    """-(y log p + (1-y) log(1-p)), each log clamped at -100 as torch does."""
    a, b, cls = E.operands(p, y, True)
    with quiet(divide="ignore"):
        log_p, log_q = _clamped_logs(xp_of(a), a)
    out = (b - 1.0) * log_q - b * log_p  # (so grouped: the signs of zeros are torch's)
    loss = record(_bce, as_array(out), (p, y), (p, y), cls=cls)
    if weight is not None:
        loss = E.mul(loss, weight)
    return reduce_loss(loss, reduction)


def outside_unit_interval(p) -> bool:
    """Whether any probability lies outside [0, 1] (BCE's input check)."""
    a = p.array
    return bool(a.size) and bool((a < 0).any() or (a > 1).any())


def _softplus_neg(z):
    """log(1 + exp(-z)), stable for any z (branches picked so z = 0 has the right slope)."""
    neg = E.lt(z, 0.0)
    minus_abs = E.where_(neg, z, E.neg(z))
    return E.add(E.log1p(E.exp(minus_abs)), E.where_(neg, E.neg(z), E.mul(z, 0.0)))


def binary_cross_entropy_with_logits(z, y, weight=None, pos_weight=None,
                                     reduction: str = "mean"):
    """BCE of sigmoid(z) computed stably: (1-y) z + (1 + (pw-1) y) softplus(-z)."""
    sp = _softplus_neg(z)
    if pos_weight is not None:
        sp = E.mul(sp, E.add(E.mul(E.sub(pos_weight, 1.0), y), 1.0))
    loss = E.add(E.mul(E.sub(1.0, y), z), sp)
    if weight is not None:
        loss = E.mul(loss, weight)
    return reduce_loss(loss, reduction)


# ---------------------------------------------------------------- specs
def _pair_case(lo=-2.0, hi=2.0):
    def make(draw, st, hnp):
        shape = small_shape(draw, hnp, 1, 2)
        return [array(draw, st, hnp, shape, lo, hi), array(draw, st, hnp, shape, lo, hi)], {}
    return make


def _classes_case(draw, st, hnp):
    n = draw(st.integers(1, 4))
    c = draw(st.integers(2, 4))
    return [array(draw, st, hnp, (n, c))], {"target": draw(st.lists(
        st.integers(0, c - 1), min_size=n, max_size=n))}


def _ce_ref(a, target, **kw):
    s = a - a.max(axis=1, keepdims=True)
    logp = s - host.log(host.exp(s).sum(axis=1, keepdims=True))
    return -logp[host.arange(a.shape[0]), target].mean()


def _smooth_ref(a, b, beta=0.5):
    d = host.abs(a - b)
    return host.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta).mean()


def _bce_logits_ref(a, b):
    p = 1 / (1 + host.exp(-a))
    return -(b * host.log(p) + (1 - b) * host.log(1 - p)).mean()


def _probs_case(draw, st, hnp):
    shape = small_shape(draw, hnp, 1, 2)
    p = array(draw, st, hnp, shape, 0.1, 0.9)
    y = array(draw, st, hnp, shape, 0.0, 1.0)
    return [p, y], {}


def _bce_ref(a, b):
    return -(b * host.log(a) + (1 - b) * host.log(1 - a)).mean()


spec("nn.linear", lambda x, w, b: linear(x, w, b), lambda draw, st, hnp: (
    [array(draw, st, hnp, (2, 3)), array(draw, st, hnp, (4, 3)), array(draw, st, hnp, (4,))],
    {}), ref=lambda x, w, b: x @ w.T + b)
spec("nn.gelu_tanh", lambda x: gelu(x, "tanh"), lambda draw, st, hnp: (
    [array(draw, st, hnp, small_shape(draw, hnp))], {}),
    ref=lambda a: 0.5 * a * (1 + host.tanh(_SQRT_2_OVER_PI * (a + 0.044715 * a ** 3))))
spec("nn.mse_loss", mse_loss, _pair_case(), ref=lambda a, b: ((a - b) ** 2).mean())
spec("nn.smooth_l1_loss", lambda x, y: smooth_l1_loss(x, y, beta=0.5), _pair_case(),
     ref=_smooth_ref, second_order=False)
spec("nn.cross_entropy", lambda x, target: cross_entropy(x, as_array(target)),
     _classes_case, ref=_ce_ref)
spec("nn.bce_with_logits", binary_cross_entropy_with_logits, _pair_case(),
     ref=_bce_logits_ref, grad_args=(0,))
spec("nn.binary_cross_entropy", binary_cross_entropy, _probs_case, ref=_bce_ref)
